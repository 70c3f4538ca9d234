"""linear_system_missing_coeff (B7): A x = b with one coefficient withheld; target x_k."""

from __future__ import annotations

import contextlib
import random
from fractions import Fraction

import pytest

from generators.base import Reject
from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.linear_system_missing_coeff import FAMILY, coeff_bound, cramer
from generators.instances import build_instance
from generators.linalg import solve_unique
from verifiers.validate import instance_problems


def latent(a: list[list[int]], b: list[int], missing: tuple[int, int], target: int) -> dict:
    return {"n": len(a), "coeff_bound": 4, "A": a, "b": b, "missing": list(missing), "target_index": target}


def by_fractions(a: list[list[int]], b: list[int]) -> list[Fraction]:
    return solve_unique([[Fraction(x) for x in row] for row in a], [Fraction(x) for x in b])


# The authors' released instance lin-001584 (d = 1): A = [[-2, -4], [4, 2]], b = (-1, -2), B holds A[1][1] = 2,
# target x0 = -5/6.
RELEASE = latent([[-2, -4], [4, 2]], [-1, -2], (1, 1), 0)


def test_release_instance_lin_001584() -> None:
    v = FAMILY.views(RELEASE)
    assert v.slot == "A[1][1]" and v.value == 2 and v.b == [v.hint]
    assert v.hint == {"type": "coeff", "row": 1, "col": 1, "value": 2}
    assert FAMILY.solve([*v.a, v.hint], v.target) == Fraction(-5, 6)
    assert FAMILY.answer_from_latent(RELEASE) == Fraction(-5, 6) == by_fractions(RELEASE["A"], RELEASE["b"])[0]
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, Fraction(-5, 6))
    assert witness.answer != Fraction(-5, 6)
    texts = [FAMILY.render(c) for c in v.a]
    assert "The coefficient A[1][1] (of x1 in equation 1) is not given here; your partner knows it." in texts
    assert "A[0][1] = -4" in texts and "b[1] = -2" in texts
    assert not any(t.startswith("A[1][1] =") for t in texts)


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_sampled_systems_follow_the_paper_and_solve_exactly(difficulty: int) -> None:
    rng = random.Random(300 + difficulty)
    done = 0
    while done < 25:
        try:
            z = FAMILY.sample(rng, difficulty)
        except Reject:
            continue
        done += 1
        n, a, b, t = z["n"], z["A"], z["b"], z["target_index"]
        i, j = z["missing"]
        k = coeff_bound(difficulty)
        assert n == difficulty + 1 and k == 4 + 3 * (difficulty - 1)
        assert all(-k <= x <= k for row in a for x in row) and all(-8 <= x <= 8 for x in b)
        x = by_fractions(a, b)
        assert all(sum(a[r][c] * x[c] for c in range(n)) == b[r] for r in range(n))  # A x = b exactly
        assert x[t].denominator <= 300 and x[j] != 0
        assert cramer(a, b, t) == x[t] == FAMILY.answer_from_latent(z)
        # Sherman-Morrison: the target moves with the withheld coefficient
        other = [row[:] for row in a]
        other[i][j] += 1
        with contextlib.suppress(NotUnique, Inconsistent):  # unless it is the one value that makes A singular
            assert by_fractions(other, b)[t] != x[t]


def test_zero_column_variable_makes_the_coefficient_irrelevant() -> None:
    # x = (1, 0): x1 = 0, so A[0][1] multiplies 0 and x0 is the same for every value of it
    z = latent([[1, 2], [3, 4]], [1, 3], (0, 1), 0)
    v = FAMILY.views(z)
    assert FAMILY.solve(v.a, v.target) == 1
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, Fraction(1))


def test_zero_inverse_entry_makes_the_coefficient_irrelevant() -> None:
    # A[0][1] = 0 gives (A^-1)[0][1] = 0: x0 = b0 / 2 whatever row 1 says
    z = latent([[2, 0], [3, 5]], [4, 1], (1, 1), 0)
    v = FAMILY.views(z)
    assert FAMILY.solve(v.a, v.target) == 2
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, Fraction(2))


def test_sampler_never_produces_the_degenerate_cases() -> None:
    rng = random.Random(5)
    for _ in range(300):
        try:
            z = FAMILY.sample(rng, 1)
        except Reject:
            continue
        a, b, t = z["A"], z["b"], z["target_index"]
        i, j = z["missing"]
        x = by_fractions(a, b)
        inverse_col = by_fractions(a, [int(r == i) for r in range(2)])
        assert x[j] != 0 and inverse_col[t] != 0


def test_singular_completion_is_inconsistent() -> None:
    v = FAMILY.views(RELEASE)
    # A[1][1] = 8 makes det = -16 + 16 = 0: the stated domain says exactly one solution
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {**v.hint, "value": 8}], v.target)
    with pytest.raises(Inconsistent):
        FAMILY.solve([*v.a, {**v.hint, "value": Fraction(1, 2)}], v.target)


def make(difficulty: int, index: int) -> dict:
    return build_instance(FAMILY, instance_id=f"lin-{index:06d}", dataset_seed=13, requested_difficulty=difficulty,
                          index=index)


def test_corrupted_right_hand_side_is_rejected() -> None:
    inst = make(3, 2)
    a = inst["agent_views"][0]["private_data"]
    k = next(i for i, c in enumerate(a["constraints_machine"]) if c["type"] == "rhs")
    a["constraints_machine"][k]["value"] += 1
    a["constraints_text"][k] = FAMILY.render(a["constraints_machine"][k])
    assert instance_problems(inst)


def test_missing_rhs_instead_of_coefficient_is_underdetermined() -> None:
    v = FAMILY.views(RELEASE)
    without_b0 = [c for c in v.a if not (c["type"] == "rhs" and c["row"] == 0)]
    with pytest.raises(NotUnique):
        FAMILY.solve([*without_b0, v.hint], v.target)


def test_slot_names_and_aliases() -> None:
    slots = set()
    for index in range(10):
        inst = make(2, index)
        hint = inst["minimal_hint_spec"]["atomic_hints"][0]
        slots.add(hint["slot"])
        a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert not [c for c in a if c.get("missing_slot")]
        assert FAMILY.candidate_slots(a) == [hint["slot"]]
        i, j = hint["constraint"]["row"], hint["constraint"]["col"]
        assert hint["request_aliases"][0] == f"the coefficient A[{i}][{j}]"
        assert f"the coefficient of x{j} in equation {i}" in hint["request_aliases"]
        names = [FAMILY.slot_name(c) for c in a]
        assert hint["slot"] not in names and "b[0]" in names
    assert len(slots) >= 4


def test_hard_tier_systems_are_larger_than_d3() -> None:
    from generators.families.linear_system_missing_coeff import max_denominator

    sizes = {}
    for difficulty in (3, 4, 5):
        inst = build_instance(FAMILY, instance_id="lin-000000", dataset_seed=5, requested_difficulty=difficulty,
                              index=0)
        n = inst["agent_views"][0]["private_data"]["constraints_machine"][0]["n"]
        sizes[difficulty] = (n, coeff_bound(difficulty), max_denominator(difficulty))
    assert sizes == {3: (4, 10, 300), 4: (5, 13, 10**5), 5: (6, 16, 10**7)}


def test_k2_second_hint_is_another_coefficient() -> None:
    inst = build_instance(FAMILY, instance_id="lin-000000", dataset_seed=5, requested_difficulty=5, index=1, k=2)
    first, second = inst["minimal_hint_spec"]["atomic_hints"]
    assert first["constraint"]["type"] == second["constraint"]["type"] == "coeff"
    assert first["slot"] != second["slot"] and second["slot"].startswith("A[")
    view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
    assert first["constraint"] not in view_a and second["constraint"] not in view_a
    assert instance_problems(inst) == []
