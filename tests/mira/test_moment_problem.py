"""moment_problem: paper example T4, brute-force recomputation, positivity pinning, family corruptions."""

from __future__ import annotations

import copy
import itertools

import pytest

from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.moment_problem import FAMILY, VARS
from generators.instances import build_instance
from tests.mira.typea_views import default_view_candidates
from verifiers.validate import instance_problems


def make(difficulty: int, index: int) -> dict:
    return build_instance(
        FAMILY, instance_id=f"mom-{index:06d}", dataset_seed=7, requested_difficulty=difficulty, index=index
    )


def views_of(q0: int, q1: int, q2: int):
    return FAMILY.views({"weights": {"q0": q0, "q1": q1, "q2": q2}, "D": q0 + q1 + q2})


def brute_force(total: int, equations: list[tuple[tuple[int, int, int], int]]) -> list[tuple[int, int, int]]:
    """Every positive integer (q0, q1, q2) with q0 + q1 + q2 = total satisfying the equations."""
    return [
        q
        for q in itertools.product(range(1, total + 1), repeat=3)
        if sum(q) == total and all(sum(k * x for k, x in zip(row, q, strict=True)) == rhs for row, rhs in equations)
    ]


def test_paper_t4_answer_and_its_positivity_pinning() -> None:
    # T4 (mom-000404): q0 + q1 + q2 = 12, q1 + 2q2 = 3, hint q1 + 4q2 = 5 -> (10, 1, 1)
    v = views_of(10, 1, 1)
    assert [c["rhs"] for c in v.a if c["type"] == "lin_eq"] == [12, 3]
    assert v.hint["rhs"] == 5
    assert FAMILY.solve([*v.a, v.hint], v.target) == (10, 1, 1)
    # With positive weights (the paper samples q0, q1 >= 1 and q2 > 0) A's two equations already force q2 = 1:
    # q1 = 3 - 2 q2 >= 1. The released instance is degenerate; our validator rejects it.
    assert FAMILY.solve(v.a, v.target) == (10, 1, 1)
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, (10, 1, 1))


def test_released_instance_mom_000381_is_sound() -> None:
    v = views_of(5, 2, 3)  # D = 10, m1 = 8, m2 = 14
    assert (v.a[1]["rhs"], v.a[2]["rhs"], v.hint["rhs"]) == (10, 8, 14)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, (5, 2, 3))
    assert witness.answer != (5, 2, 3)
    assert FAMILY.solve([*v.a, witness.constraint], v.target) == witness.answer


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_generated_instances_match_brute_force_and_closed_form(difficulty: int) -> None:
    for index in range(25):
        inst = make(difficulty, index)
        a, b = (v["private_data"]["constraints_machine"] for v in inst["agent_views"])
        hint = inst["minimal_hint_spec"]["atomic_hints"][0]["constraint"]
        total = 6 + 2 * difficulty
        m0, m1 = (c["rhs"] for c in a if c["type"] == "lin_eq")
        m2 = hint["rhs"]
        assert m0 == total
        # the paper's closed form
        q2, q1 = (m2 - m1) // 2, 2 * m1 - m2
        expected = (total - q1 - q2, q1, q2)
        assert tuple(inst["global_solution"][k] for k in VARS) == expected
        # brute force over all positive triples
        assert brute_force(total, [((0, 1, 2), m1), ((0, 1, 4), m2)]) == [expected]
        assert len(brute_force(total, [((0, 1, 2), m1)])) >= 2
        # B (sum + second moment) is a rank-2 system: open without a domain
        with pytest.raises(NotUnique):
            FAMILY.solve(b, inst["target"])


def test_half_integer_and_negative_completions_are_inconsistent() -> None:
    v = views_of(5, 2, 3)
    with pytest.raises(Inconsistent):  # m2 - m1 odd: q2 would be a half-integer
        FAMILY.solve([*v.a, {**v.hint, "rhs": 15}], v.target)
    with pytest.raises(Inconsistent):  # q2 = 5 gives q1 = -2
        FAMILY.solve([*v.a, {**v.hint, "rhs": 18}], v.target)
    with pytest.raises(Inconsistent):  # the sum contradicts the first moment
        FAMILY.solve([*v.a, {**v.a[1], "rhs": 1}], v.target)


def test_corrupted_witness_is_rejected() -> None:
    inst = make(2, 3)
    w = inst["verifier"]["underdetermination_witness"]
    w["constraint"] = {**w["constraint"], "rhs": w["constraint"]["rhs"] + 1}  # breaks parity
    assert any(f == "verifier.underdetermination_witness" for f, _ in instance_problems(inst))


def test_dropping_positivity_from_the_domain_is_detected() -> None:
    inst = make(1, 0)
    a = inst["agent_views"][0]["private_data"]
    i = next(k for k, c in enumerate(a["constraints_machine"]) if c["type"] == "domain")
    a["constraints_machine"][i] = {**a["constraints_machine"][i], "lower": 0}
    assert instance_problems(inst)  # the text no longer matches the machine domain


def test_b_view_shares_the_sum_and_slot_names() -> None:
    inst = make(3, 1)
    a, b = (v["private_data"]["constraints_machine"] for v in inst["agent_views"])
    assert a[1] == b[0] and a[1]["name"] == "m0"
    assert [FAMILY.slot_name(c) for c in a] == [None, "m0", "m1"]
    aliases = FAMILY.slot_aliases("m2", b[1])
    assert {"m2", "the 2nd moment", "the second moment", "moment_2"} <= set(aliases)
    assert inst["minimal_hint_spec"]["atomic_hints"][0]["text"] == f"Second moment m2: q1 + 4q2 = {b[1]['rhs']}"
    assert "moment" in " ".join(inst["agent_views"][0]["private_data"]["constraints_text"])


def test_domain_less_copy_is_open_but_has_no_witness() -> None:
    v = views_of(5, 2, 3)
    bare = [c for c in v.a if c["type"] != "domain"]
    with pytest.raises(NotUnique):
        FAMILY.solve(bare, v.target)
    assert list(FAMILY.hint_alternatives(v.hint, bare, v.target)) == []
    assert FAMILY.solve([*bare, v.hint], v.target) == (5, 2, 3)


def test_rejection_keeps_sampling_cheap() -> None:
    attempts = [make(d, i)["global_metadata"]["sampling_attempts"] for d in (1, 2, 3) for i in range(20)]
    assert sum(attempts) / len(attempts) < 4


def test_deepcopy_of_views_validates() -> None:
    inst = copy.deepcopy(make(3, 7))
    assert instance_problems(inst) == []


def test_default_view_names_no_gap_and_one_candidate() -> None:
    """Issue 24: without the ablation's notices A's view still works, and the hint's slot is its only candidate."""
    assert set(default_view_candidates(FAMILY, seeds=60)) == {1}


def test_candidates_are_the_moments_a_holds_no_value_for() -> None:
    v = FAMILY.views({"weights": {"q0": 3, "q1": 2, "q2": 3}, "D": 8})
    assert FAMILY.candidate_slots(v.a) == ["m2"]


def test_hard_difficulties_extend_the_total() -> None:
    totals = {d: build_instance(FAMILY, instance_id="mom-000000", dataset_seed=3, requested_difficulty=d,
                                index=0)["global_metadata"]["latent"]["D"] for d in (3, 4, 5)}
    assert totals == {3: 12, 4: 14, 5: 16}


def test_k2_withholds_the_first_moment_and_b_gives_up_the_sum() -> None:
    for i in range(6):
        inst = build_instance(FAMILY, instance_id=f"mom-{i:06d}", dataset_seed=5, requested_difficulty=5, index=i, k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        assert (h1["slot"], h2["slot"]) == ("m2", "m1")
        assert h2["constraint"]["coeffs"] == {"q0": 0, "q1": 1, "q2": 2}
        view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        view_b = inst["agent_views"][1]["private_data"]["constraints_machine"]
        assert [c.get("name") for c in view_a if c["type"] == "lin_eq"] == ["m0"]
        assert [c["name"] for c in view_b] == ["m2", "m1"]
        assert inst["verifier"]["candidate_slots"] == ["m1", "m2"]
        assert instance_problems(inst) == []
