"""laplace_grid (B6): discrete Laplace equation on a grid, one boundary value withheld; target an interior value."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from generators.checks import CheckFailed, check_views
from generators.errors import Inconsistent, NotUnique
from generators.families.laplace_grid import (
    FAMILY,
    boundary,
    cell_by_marching,
    green,
    interior,
    is_corner,
    var,
)
from generators.instances import build_instance
from generators.linalg import solve_unique
from verifiers.validate import instance_problems


def latent(n: int, values: dict[tuple[int, int], int], missing: tuple[int, int], target: tuple[int, int]) -> dict:
    return {"n": n, "scale": {4: 24, 5: 224}[n], "boundary": [[i, j, values[i, j]] for i, j in boundary(n)],
            "missing": list(missing), "target": list(target)}


def full_grid_by_fractions(constraints: list[dict], n: int) -> dict[str, Fraction]:
    """Third route: the whole n*n system (equations and value rows) by Fraction Gauss-Jordan."""
    names = [var(i, j) for i in range(n) for j in range(n)]
    rows, rhs = [], []
    for c in constraints:
        if c["type"] == "lin_eq":
            rows.append([Fraction(c["coeffs"].get(x, 0)) for x in names])
            rhs.append(Fraction(c["rhs"]))
        elif c["type"] == "value":
            rows.append([Fraction(int(x == c["var"])) for x in names])
            rhs.append(Fraction(c["value"]))
    return dict(zip(names, solve_unique(rows, rhs), strict=True))


# The authors' released instance lap-001428 (d = 1, n = 4): B holds u_0_1 = 24, target u_2_2 = -13.
RELEASE_VALUES = {
    (0, 0): 72, (0, 1): 24, (0, 2): -72, (0, 3): 72, (1, 0): -24, (1, 3): -24,
    (2, 0): 0, (2, 3): 0, (3, 0): 72, (3, 1): 24, (3, 2): -24, (3, 3): 24,
}
RELEASE = latent(4, RELEASE_VALUES, (0, 1), (2, 2))


def test_release_instance_lap_001428() -> None:
    v = FAMILY.views(RELEASE)
    assert v.slot == "u_0_1" and v.value == 24 and v.b == [v.hint]
    assert v.hint == {"type": "value", "var": "u_0_1", "value": 24}
    assert FAMILY.solve([*v.a, v.hint], v.target) == -13
    assert FAMILY.answer_from_latent(RELEASE) == -13
    assert full_grid_by_fractions([*v.a, v.hint], 4)["u_2_2"] == -13
    with pytest.raises(NotUnique):
        FAMILY.solve(v.a, v.target)
    witness = check_views(FAMILY, v.a, v.b, v.hint, v.target, -13)
    assert witness.constraint["value"] in (24 + 24, 24 - 24) and witness.answer != -13
    texts = [FAMILY.render(c) for c in v.a]
    assert "4 u_1_1 = u_0_1 + u_2_1 + u_1_0 + u_1_2" in texts
    assert "The boundary value u_0_1 (row 0, column 1) is not given here; your partner knows it." in texts
    assert not any(t.startswith("u_0_1 =") for t in texts)


def test_scale_factors_are_the_papers() -> None:
    assert green(4)[0] == 24 and green(5)[0] == 224


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_three_routes_agree_and_every_equation_holds(difficulty: int) -> None:
    rng = random.Random(100 + difficulty)
    for _ in range(8):
        z = FAMILY.sample(rng, difficulty)
        n = z["n"]
        assert n == (4 if difficulty == 1 else 5)
        top = 2 + difficulty
        assert all(v % z["scale"] == 0 and abs(v) <= top * z["scale"] for _, _, v in z["boundary"])
        assert not is_corner(n, *z["missing"]) and tuple(z["target"]) in interior(n)
        v = FAMILY.views(z)
        grid = full_grid_by_fractions([*v.a, v.hint], n)
        values = {(i, j): b for i, j, b in z["boundary"]}
        for i, j in interior(n):
            u = grid[var(i, j)]
            assert u.denominator == 1
            assert 4 * u == sum(grid[var(a, b)] for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)))
            assert cell_by_marching(n, values, (i, j)) == u  # shooting route
        answer = FAMILY.solve([*v.a, v.hint], v.target)  # Green's-matrix route
        assert answer == grid[v.target["var"]]
        # the general elimination route gives the same
        names = [var(i, j) for i in range(n) for j in range(n)]
        known = {c["var"]: c["value"] for c in [*v.a, v.hint] if c["type"] == "value"}
        eqs = [c for c in v.a if c["type"] == "lin_eq"]
        assert FAMILY._solve_general(tuple(names), known, eqs, v.target["var"]) == answer


def test_missing_corner_is_rejected() -> None:
    # a corner enters no equation: withholding it leaves A's target determined (the release's degenerate case)
    z = latent(4, RELEASE_VALUES, (0, 0), (2, 2))
    v = FAMILY.views(z)
    assert FAMILY.solve(v.a, v.target) == -13
    with pytest.raises(CheckFailed, match="local_underdetermination"):
        check_views(FAMILY, v.a, v.b, v.hint, v.target, -13)


def test_completion_breaking_integrality_is_inconsistent() -> None:
    v = FAMILY.views(RELEASE)
    with pytest.raises(Inconsistent):  # 25 is not a multiple of 24: interior values are not integers
        FAMILY.solve([*v.a, {**v.hint, "value": 25}], v.target)
    assert FAMILY.solve([*v.a, {**v.hint, "value": 48}], v.target) != -13


def test_missing_equation_or_changed_equation_is_not_a_solution() -> None:
    v = FAMILY.views(RELEASE)
    eqs = [c for c in v.a if c["type"] == "lin_eq"]
    without = [c for c in v.a if c is not eqs[0]]
    with pytest.raises(NotUnique):
        FAMILY.solve([*without, v.hint], v.target)
    changed = [({**c, "coeffs": {**c["coeffs"], "u_1_1": 5}} if c is eqs[0] else c) for c in v.a]
    with pytest.raises(NotUnique):  # the stated Laplace equation for u_1_1 is no longer among the constraints
        FAMILY.solve([*changed, v.hint], v.target)


def make(difficulty: int, index: int) -> dict:
    return build_instance(FAMILY, instance_id=f"lap-{index:06d}", dataset_seed=11, requested_difficulty=difficulty,
                          index=index)


def test_corrupted_boundary_value_is_rejected() -> None:
    inst = make(2, 0)
    a = inst["agent_views"][0]["private_data"]
    k = next(i for i, c in enumerate(a["constraints_machine"]) if c["type"] == "value" and c["var"] == "u_0_2")
    if a["constraints_machine"][k].get("missing_slot"):
        k = next(i for i, c in enumerate(a["constraints_machine"]) if c["type"] == "value" and c["var"] == "u_2_0")
    a["constraints_machine"][k]["value"] += 1
    a["constraints_text"][k] = FAMILY.render(a["constraints_machine"][k])
    assert instance_problems(inst)


def test_hidden_cell_varies_never_a_corner() -> None:
    slots = set()
    for index in range(20):
        inst = make(2, index)
        hint = inst["minimal_hint_spec"]["atomic_hints"][0]
        i, j = (int(x) for x in hint["slot"].split("_")[1:])
        assert not is_corner(5, i, j)
        slots.add(hint["slot"])
        a = inst["agent_views"][0]["private_data"]["constraints_machine"]
        assert not [c for c in a if c.get("missing_slot")]
        assert FAMILY.candidate_slots(a) == [hint["slot"]]
        assert hint["request_aliases"][0] == f"the boundary value {hint['slot']}"
        assert hint["slot"] not in [FAMILY.slot_name(c) for c in a]
    assert len(slots) >= 6


def hard(difficulty: int, index: int, k: int = 1) -> dict:
    return build_instance(FAMILY, instance_id=f"lap-{index:06d}", dataset_seed=29, requested_difficulty=difficulty,
                          index=index, k=k)


def test_d4_and_d5_have_larger_grids_than_d3() -> None:
    for d, n in ((3, 5), (4, 6), (5, 7)):
        for i in range(3):
            inst = hard(d, i)
            assert inst["global_metadata"]["latent"]["n"] == n == inst["target"]["grid_size"]
            view_a = inst["agent_views"][0]["private_data"]["constraints_machine"]
            equations = [c for c in view_a if c["type"] == "lin_eq"]
            assert len(equations) == (n - 2) ** 2


def test_harmonic_cells_satisfy_every_interior_equation() -> None:
    from generators.families.laplace_grid import harmonic_cells, interior, neighbours

    rng = random.Random(3)
    for n in (3, 6, 7):
        cells = harmonic_cells(rng, n, 25)
        assert len(cells) == n * n
        for i, j in interior(n):
            assert 4 * cells[i, j] == sum(cells[nb] for nb in neighbours(i, j))


def test_a_k2_instance_withholds_two_non_corner_boundary_values() -> None:
    inst = hard(5, 0, k=2)
    hints = inst["minimal_hint_spec"]["atomic_hints"]
    assert [h["kind"] for h in hints] == ["value", "value"]
    for h in hints:
        i, j = (int(x) for x in h["slot"].split("_")[1:])
        assert (i in (0, 6) or j in (0, 6)) and not (i in (0, 6) and j in (0, 6))
    assert sorted(h["slot"] for h in hints) == sorted(inst["verifier"]["candidate_slots"])
