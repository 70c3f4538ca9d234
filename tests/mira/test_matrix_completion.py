"""matrix_completion: release example, factor enumeration, rank-1 and integrality rules, corruptions."""

from __future__ import annotations

import itertools

import pytest

from generators.checks import check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.matrix_completion import FAMILY, entry
from generators.instances import build_instance
from tests.mira.typea_views import default_view_candidates
from verifiers.validate import instance_problems


def make(difficulty: int, index: int) -> dict:
    return build_instance(
        FAMILY, instance_id=f"mat-{index:06d}", dataset_seed=3, requested_difficulty=difficulty, index=index
    )


TARGET = {"type": "matrix_entry", "row": 1, "col": 1}


def test_release_mat_000319() -> None:
    # m00 = 6, m01 = 2, m10 = 3 -> m11 = 2 * 3 / 6 = 1 (u = (2, 1), v = (3, 1))
    v = FAMILY.views({"u": [2, 1], "v": [3, 1]})
    assert [FAMILY.render(c) for c in v.a[:2]] == ["m00 = 6", "m01 = 2"]
    assert FAMILY.render(v.hint) == "m10 = 3"
    assert FAMILY.solve([*v.a, v.hint], v.target) == 1
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, 1)
    assert witness.answer != 1


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_generated_instances_against_factor_enumeration(difficulty: int) -> None:
    top = 2 + difficulty
    for index in range(30):
        inst = make(difficulty, index)
        known = {
            (c["row"], c["col"]): c["value"]
            for view in inst["agent_views"]
            for c in view["private_data"]["constraints_machine"]
            if c["type"] == "entry"
        }
        # every factorisation u v^T with factors in [1, 2+d] matching the three known entries gives the same m11
        m11 = {
            u1 * v1
            for u0, u1, v0, v1 in itertools.product(range(1, top + 1), repeat=4)
            if (u0 * v0, u0 * v1, u1 * v0) == (known[0, 0], known[0, 1], known[1, 0])
        }
        assert m11 == {inst["global_solution"]["value"]}
        # without m10, the same enumeration leaves several values open
        open_values = {
            u1 * v1
            for u0, u1, v0, v1 in itertools.product(range(1, top + 1), repeat=4)
            if (u0 * v0, u0 * v1) == (known[0, 0], known[0, 1])
        }
        assert len(open_values) >= 2


def test_rank_condition_is_needed_and_enforced() -> None:
    v = FAMILY.views({"u": [2, 1], "v": [3, 1]})
    no_rank = [c for c in v.a if c["type"] != "domain"]
    with pytest.raises(NotUnique):
        FAMILY.solve([*no_rank, v.hint], TARGET)
    with pytest.raises(Inconsistent):  # all four entries known but not rank 1
        FAMILY.solve([*v.a, v.hint, entry(1, 1, 2)], TARGET)
    assert FAMILY.solve([*v.a, v.hint, entry(1, 1, 1)], TARGET) == 1


def test_non_integer_non_positive_and_conflicting_completions_are_inconsistent() -> None:
    v = FAMILY.views({"u": [2, 1], "v": [3, 1]})  # m00 = 6, m01 = 2
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, entry(1, 0, 4)], TARGET)  # m11 = 8/6
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, entry(1, 0, -6)], TARGET)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, entry(0, 0, 5), v.hint], TARGET)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, TARGET)


def test_corrupted_witness_is_rejected() -> None:
    inst = make(1, 1)
    w = inst["verifier"]["underdetermination_witness"]
    m00 = inst["agent_views"][0]["private_data"]["constraints_machine"][0]["value"]
    w["constraint"]["value"] = m00 * 7  # allowed by the domain, but not among hint_alternatives
    w["answer"] = {"value": inst["agent_views"][0]["private_data"]["constraints_machine"][1]["value"] * 7}
    assert any(f == "verifier.underdetermination_witness" for f, _ in instance_problems(inst))


def test_target_and_slot_names_are_explicit() -> None:
    inst = make(2, 0)
    assert inst["target"] == TARGET
    assert "m11" in inst["question"]
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    assert hint["slot"] == "m10"
    assert {"m10", "m[1][0]", "M[1][0]", "the bottom-left entry", "the entry in row 1, column 0"} <= set(
        hint["request_aliases"]
    )
    a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    assert [FAMILY.slot_name(c) for c in a] == ["m00", "m01", None]


def test_default_view_names_no_gap_and_one_candidate() -> None:
    """Issue 24: without the ablation's notices A's view still works, and the hint's slot is its only candidate."""
    assert set(default_view_candidates(FAMILY, seeds=60)) == {1}


def test_notation_example_is_not_the_withheld_entry() -> None:
    v = FAMILY.views({"u": [2, 3], "v": [1, 4]})
    text = FAMILY.render(v.a[2])
    assert "m10 is" not in text and "(m01 is row 0, column 1)" in text
    assert FAMILY.candidate_slots(v.a) == ["m10"]


def test_hard_tier_grows_the_matrix_and_the_path_of_entries() -> None:
    from generators.families.matrix_completion import path_cells

    assert path_cells(2) == [(1, 0), (0, 0), (0, 1)]  # the paper's m10 (B), m00 and m01 (A)
    assert path_cells(4) == [(3, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2), (0, 3)]
    shape = {}
    for d in (3, 4, 5):
        inst = make(d, 0)
        z = inst["global_metadata"]["latent"]
        entries = [c for c in inst["agent_views"][0]["private_data"]["constraints_machine"] if c["type"] == "entry"]
        shape[d] = (len(z["u"]), len(entries))
        assert inst["global_solution"] == {"value": z["u"][-1] * z["v"][-1]}
    assert shape == {3: (2, 2), 4: (3, 4), 5: (4, 6)}


def test_hard_tier_needs_the_whole_chain() -> None:
    v = FAMILY.views({"u": [1, 2, 3, 4], "v": [5, 6, 7, 8]})
    assert FAMILY.render(v.hint) == "m30 = 20"
    assert FAMILY.solve([*v.a, v.hint], v.target) == 32  # m30 * m21 * m12 * m03 / (m20 * m11 * m02)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    with pytest.raises(Inconsistent):  # m31 = 24 * 6 / 5 would not be an integer
        FAMILY.solve([*v.a, {**v.hint, "value": 24}], v.target)


def test_k2_withholds_a_second_entry_of_the_path() -> None:
    for index in range(4):
        inst = build_instance(FAMILY, instance_id=f"mat-{index:06d}", dataset_seed=3, requested_difficulty=5,
                              index=index, k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        assert h1["slot"] == "m30" and h1["kind"] == h2["kind"] == "entry"
        assert h2["slot"] in {"m20", "m21", "m11", "m12", "m02", "m03"}
        assert len(inst["agent_views"][0]["private_data"]["constraints_machine"]) == 6  # 5 entries + domain
