"""rankdef_linear_shared (A10): A holds equations (1), (2) of rank 2; B holds (3) and (4); target (x, y, z)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from generators.base import Reject, without_notices
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.rankdef_linear_shared import FAMILY, VARS, cross, ranges, solve_exact
from generators.instances import build_instance, sample_valid
from generators.linalg import rank
from tests.mira.typea_views import default_view_candidates, notice_of
from verifiers.validate import instance_problems

# pieces of the authors' released instance ran-000556 (d = 1), answer (2, -1, 0)
RELEASE = {
    "solution": [2, -1, 0],
    "rows": [[4, -3, 3], [-1, 1, 4], [-3, -4, 1], [-1, -2, 3]],
    "rhs": [11, -3, -2, 0],
}


def det(m: list[list[int]]) -> int:
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def cramer(rows: list[list[int]], rhs: list[int]) -> tuple[Fraction, ...]:
    """Solution of a 3x3 system by Cramer's rule (independent of the family's elimination)."""
    d = det(rows)
    out = []
    for j in range(3):
        mj = [[rhs[i] if k == j else rows[i][k] for k in range(3)] for i in range(3)]
        out.append(Fraction(det(mj), d))
    return tuple(out)


def test_release_example_ran_000556() -> None:
    v = FAMILY.views(RELEASE)
    assert [FAMILY.render(c) for c in v.a[:2]] == ["Equation (1): 4x - 3y + 3z = 11",
                                                     "Equation (2): -x + y + 4z = -3"]
    assert [FAMILY.render(c) for c in v.b] == ["Equation (3): -3x - 4y + z = -2",
                                                "Equation (4): -x - 2y + 3z = 0"]
    assert v.hint == v.b[0] and v.slot == "equation (3)"
    assert FAMILY.solve([*v.a, v.hint], v.target) == (2, -1, 0)
    assert FAMILY.solve([*v.a, v.b[1]], v.target) == (2, -1, 0)  # equation (4) completes A's system too
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    with pytest.raises(NotUnique):
        FAMILY.solve(v.b, v.target)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, (2, -1, 0))
    # the witness is another integer point of A's line (1) ∩ (2)
    for c in v.a[:2]:
        assert sum(c["coeffs"][k] * w for k, w in zip(VARS, witness.answer, strict=True)) == c["rhs"]


def test_generated_instances_follow_the_paper_and_cramer_agrees() -> None:
    for d in (1, 2, 3):
        sol_max, coef_max = ranges(d)
        assert (sol_max, coef_max) == (5 + d, 3 + d)
        for i in range(25):
            z, _, answer, _, _ = sample_valid(FAMILY, 7000 * d + i, d)
            rows = z["rows"]
            assert all(0 < abs(c) <= coef_max for row in rows for c in row)
            assert all(abs(s) <= sol_max for s in z["solution"])
            assert rank(rows[:2]) == 2 and rank(rows[:3]) == 3 and rank([*rows[:2], rows[3]]) == 3
            assert answer == tuple(z["solution"]) == FAMILY.answer_from_latent(z)
            assert cramer(rows[:3], z["rhs"][:3]) == answer
            assert cramer([*rows[:2], rows[3]], [*z["rhs"][:2], z["rhs"][3]]) == answer


def test_dependent_third_equation_is_rejected() -> None:
    z = {**RELEASE, "rows": [*RELEASE["rows"][:2], [3, -2, 7], RELEASE["rows"][3]]}  # row 3 = row 1 + row 2
    z["rhs"] = [*RELEASE["rhs"][:2], 8, RELEASE["rhs"][3]]
    v = FAMILY.views(z)
    with pytest.raises(CheckFailed) as exc:
        check_views(FAMILY, v.a, v.b, v.hint, v.target, (2, -1, 0))
    assert exc.value.check in ("hint_sufficiency", "global_uniqueness")
    with pytest.raises(NotUnique):
        FAMILY.solve([*v.a, v.hint], v.target)


def test_sampler_rejects_rank_deficient_draws() -> None:
    rng = random.Random(3)
    rejected = accepted = 0
    for _ in range(400):
        try:
            z = FAMILY.sample(rng, 1)
        except Reject:
            rejected += 1
            continue
        accepted += 1
        assert any(cross(z["rows"][0], z["rows"][1]))
    assert accepted > 300 and rejected > 0


def test_non_integer_and_contradictory_completions_are_inconsistent() -> None:
    v = FAMILY.views(RELEASE)
    # same coefficients, rhs moved by 1: the point of A's line it picks is not an integer point
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {**v.hint, "rhs": v.hint["rhs"] + 1}], v.target)
    # equations (3) and (4) with a contradicting right-hand side
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, v.hint, {**v.b[1], "rhs": 5}], v.target)
    with pytest.raises(Inconsistent):
        solve_exact([[1, 1, 0], [2, 2, 0], [0, 0, 1]], [1, 3, 0])
    # A is told B's equations have integer coefficients
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {**v.hint, "coeffs": {**v.hint["coeffs"], "z": 0.5}}], v.target)


def test_exact_solver_agrees_with_fraction_fallback() -> None:
    rows, rhs = [[2, -1, 3], [1, 4, -2], [3, 3, 5]], [7, -1, 4]
    assert solve_exact(rows, rhs) == list(cramer(rows, rhs))
    frac_rows = [[Fraction(c) for c in row] for row in rows]
    assert solve_exact(frac_rows, [Fraction(b) for b in rhs]) == list(cramer(rows, rhs))


def test_hint_alternatives_are_integer_points_of_as_line() -> None:
    v = FAMILY.views(RELEASE)
    for alt in FAMILY.hint_alternatives(v.hint, v.a, v.target):
        assert alt["coeffs"] == v.hint["coeffs"] and alt["eq"] == 3
        point = FAMILY.solve([*v.a, alt], v.target)
        assert point != (2, -1, 0) and all(isinstance(c, int) for c in point)


def test_changed_rhs_in_a_generated_instance_is_rejected() -> None:
    inst = build_instance(FAMILY, instance_id="ran-000000", dataset_seed=1234, requested_difficulty=2, index=3)
    assert instance_problems(inst) == []
    a = inst["agent_views"][0]["private_data"]
    a["constraints_machine"][0]["rhs"] += 1
    a["constraints_text"][0] = FAMILY.render(a["constraints_machine"][0])
    assert instance_problems(inst)


def test_slots_and_aliases() -> None:
    v = FAMILY.views(RELEASE)
    assert [FAMILY.slot_name(c) for c in [*v.a, *v.b]] == [
        "equation (1)", "equation (2)", None, None, "equation (3)", "equation (4)"
    ]
    aliases = FAMILY.slot_aliases("equation (3)", v.hint)
    assert aliases[0] == "equation (3)" and "the third equation" in aliases
    assert "equation (3) and equation (4)" in notice_of(FAMILY, v.a, "equation (3)")
    assert "equation (3)" not in " ".join(FAMILY.render(c) for c in without_notices(v.a))


def test_default_view_does_not_say_how_many_equations_b_holds() -> None:
    """Issue 24: "Your partner knows two more linear equations ... equation (3) and equation (4)" is a notice now;
    the default view keeps that the unknowns are integers and every equation has integer coefficients."""
    sizes = default_view_candidates(FAMILY, seeds=60, extra_words=("equation (3)", "equation (4)", "either"))
    assert set(sizes) == {1}
    v = FAMILY.views(RELEASE)
    assert FAMILY.render(v.a[2]) == (
        "x, y and z are integers, and every equation of the system is linear in x, y, z with integer coefficients."
    )


def test_candidate_is_the_next_equation_when_one_equation_completes() -> None:
    v = FAMILY.views(RELEASE)
    assert FAMILY.candidate_slots(v.a) == ["equation (3)"]
    # with one equation A needs two more (k = 2): the first two labels it does not hold
    assert FAMILY.candidate_slots([v.a[0], v.a[2]]) == ["equation (2)", "equation (3)"]
    assert FAMILY.candidate_slots([v.a[1], v.a[2]]) == ["equation (1)", "equation (3)"]
    e1, e2 = v.a[0], v.a[1]
    dependent = {**e1, "eq": 3, "coeffs": {k: e1["coeffs"][k] + e2["coeffs"][k] for k in VARS},
                 "rhs": e1["rhs"] + e2["rhs"]}
    assert FAMILY.candidate_slots([e1, e2, dependent, v.a[2]]) == ["equation (4)"]
    assert FAMILY.candidate_slots([*v.a, v.hint]) == []  # already determined


def test_hard_difficulties_extend_the_ranges() -> None:
    assert [ranges(d) for d in (3, 4, 5)] == [(8, 6), (9, 7), (10, 8)]
    coefficients = {abs(a) for i in range(20) for row in build_instance(
        FAMILY, instance_id=f"ran-{i:06d}", dataset_seed=3, requested_difficulty=5, index=i
    )["global_metadata"]["latent"]["rows"] for a in row}
    assert max(coefficients) == 8


def test_k2_withholds_one_of_a_s_equations_and_b_gives_up_equation_4() -> None:
    seconds = set()
    for i in range(8):
        inst = build_instance(FAMILY, instance_id=f"ran-{i:06d}", dataset_seed=5, requested_difficulty=4, index=i, k=2)
        h1, h2 = inst["minimal_hint_spec"]["atomic_hints"]
        assert h1["slot"] == "equation (3)" and h2["slot"] in ("equation (1)", "equation (2)")
        seconds.add(h2["slot"])
        view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        view_b = inst["agent_views"][1]["private_data"]["constraints_machine"]
        assert [c["eq"] for c in view_a if c["type"] == "lin_eq"] == [3 - h2["constraint"]["eq"]]
        assert sorted(c["eq"] for c in view_b) == sorted([3, h2["constraint"]["eq"]])
        assert inst["verifier"]["candidate_slots"] == sorted([h1["slot"], h2["slot"]])
        assert instance_problems(inst) == []
    assert seconds == {"equation (1)", "equation (2)"}
