"""graph_path_sums: the paper's inversion formulas, brute force, positivity pinning (gra-000199), corruptions."""

from __future__ import annotations

import itertools

import pytest

from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.graph_path_sums import EDGES, FAMILY
from generators.instances import build_instance
from tests.mira.typea_views import default_view_candidates
from verifiers.validate import instance_problems


def make(difficulty: int, index: int) -> dict:
    return build_instance(
        FAMILY, instance_id=f"gra-{index:06d}", dataset_seed=11, requested_difficulty=difficulty, index=index
    )


def views_of(e01: int, e12: int, e20: int, top: int):
    return FAMILY.views({"edges": {"e01": e01, "e12": e12, "e20": e20}, "max_weight": top})


def sums(view) -> dict[str, int]:
    return {c["name"]: c["rhs"] for c in view if c["type"] == "lin_eq"}


def test_inversion_formulas_of_the_paper() -> None:
    v = views_of(3, 2, 2, 5)
    s = {**sums(v.a), **sums(v.b)}
    assert s == {"s1": 5, "s2": 4, "s3": 5}
    e01, e12, e20 = (s["s1"] - s["s2"] + s["s3"]) // 2, (s["s1"] + s["s2"] - s["s3"]) // 2, (
        s["s2"] + s["s3"] - s["s1"]
    ) // 2
    assert FAMILY.solve([*v.a, v.hint], v.target) == (e01, e12, e20) == (3, 2, 2)


def test_release_gra_000199_is_pinned_by_positivity() -> None:
    # e01 + e12 = 2 forces e01 = e12 = 1 for positive integer weights; then e20 = 3 - 1 = 2 without B.
    v = views_of(1, 1, 2, 3)
    assert sums(v.a) == {"s1": 2, "s2": 3}
    assert FAMILY.solve(v.a, v.target) == (1, 1, 2)
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, (1, 1, 2))


def test_upper_bound_can_pin_too() -> None:
    # s1 = 6 with weights <= 3 forces e01 = e12 = 3
    v = views_of(3, 3, 1, 3)
    assert FAMILY.solve(v.a, v.target) == (3, 3, 1)


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_generated_instances_against_brute_force(difficulty: int) -> None:
    top = 2 + difficulty
    for index in range(25):
        inst = make(difficulty, index)
        a, b = (v["private_data"]["constraints_machine"] for v in inst["agent_views"])
        s = {**sums(a), **sums(b)}
        box = list(itertools.product(range(1, top + 1), repeat=3))
        a_only = [e for e in box if e[0] + e[1] == s["s1"] and e[1] + e[2] == s["s2"]]
        full = [e for e in a_only if e[0] + e[2] == s["s3"]]
        answer = tuple(inst["global_solution"][k] for k in EDGES)
        assert full == [answer]
        assert len(a_only) >= 2
        # every witness is one of A's admissible triples
        assert tuple(inst["verifier"]["underdetermination_witness"]["answer"][k] for k in EDGES) in a_only
        with pytest.raises(NotUnique):
            FAMILY.solve(b, inst["target"])


def test_wrong_parity_or_range_completions_are_inconsistent() -> None:
    v = views_of(3, 2, 2, 5)
    with pytest.raises(Inconsistent):  # s1 + s2 + s3 odd: half-integer weights
        FAMILY.solve([*v.a, {**v.hint, "rhs": 6}], v.target)
    with pytest.raises(Inconsistent):  # e12 = 0 is not a positive weight
        FAMILY.solve([*v.a, {**v.hint, "rhs": 9}], v.target)


def test_corrupted_witness_and_answer_are_rejected() -> None:
    inst = make(1, 2)
    inst["verifier"]["underdetermination_witness"]["constraint"]["rhs"] += 1
    assert any(f == "verifier.underdetermination_witness" for f, _ in instance_problems(inst))
    inst = make(1, 2)
    sol = inst["global_solution"]
    sol["e01"], sol["e20"] = sol["e20"], sol["e01"]
    if sol["e01"] != sol["e20"]:
        assert any(f == "global_solution" for f, _ in instance_problems(inst))


def test_texts_and_slots() -> None:
    inst = make(2, 0)
    a_text = inst["agent_views"][0]["private_data"]["constraints_text"]
    assert a_text[1].startswith("s1 = e01 + e12 = ") and a_text[2].startswith("s2 = e12 + e20 = ")
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    assert hint["slot"] == "s3" and hint["text"].startswith("s3 = e01 + e20 = ")
    aliases = FAMILY.slot_aliases("s3", hint["constraint"])
    assert {"s3", "e01 + e20", "e20 + e01", "the third path sum"} <= set(aliases)
    assert "s3 = e01 + e20" in a_text[0]  # A is told what the missing path sum is


def test_default_view_names_no_gap_and_one_candidate() -> None:
    """Issue 24: without the ablation's notices A's view still works, and the hint's slot is its only candidate."""
    assert set(default_view_candidates(FAMILY, seeds=60)) == {1}


def test_candidates_are_the_path_sums_a_holds_no_value_for() -> None:
    v = FAMILY.views({"edges": {"e01": 2, "e12": 1, "e20": 3}, "max_weight": 4})
    assert FAMILY.candidate_slots(v.a) == ["s3"]
    assert FAMILY.candidate_slots([v.a[0], v.hint]) == ["s1", "s2"]


def test_hard_tier_turns_the_triangle_into_larger_odd_cycles() -> None:
    shape = {}
    for d in (3, 4, 5):
        inst = make(d, 0)
        shape[d] = (len(inst["answer_keys"]), inst["global_metadata"]["latent"]["max_weight"])
        assert instance_problems(inst) == []
    assert shape == {3: (3, 5), 4: (5, 6), 5: (7, 7)}


def test_k2_withholds_a_second_path_sum() -> None:
    for index in range(4):
        inst = build_instance(FAMILY, instance_id=f"gra-{index:06d}", dataset_seed=11, requested_difficulty=5,
                              index=index, k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        assert h1["slot"] == "s7" and h1["kind"] == h2["kind"] == "lin_eq"
        assert h2["slot"] in {f"s{i}" for i in range(1, 7)}
        held = [c["name"] for c in inst["agent_views"][0]["private_data"]["constraints_machine"] if "name" in c]
        assert len(held) == 5 and h2["slot"] not in held
