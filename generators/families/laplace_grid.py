"""B6 laplace_grid: the discrete Laplace equation on an n x n grid with one boundary value withheld.

Grid n = 4 (d = 1) or 5 (d >= 2); every interior cell satisfies 4 u_i_j = u_{i-1}_j + u_{i+1}_j + u_i_{j-1} +
u_i_{j+1}. Boundary values are integer multiples of the paper's scale factor (24 for n = 4, 224 for n = 5), so
every interior value is an integer; the multiplier is drawn from Unif[-(2 + d), 2 + d] (the authors' release;
the paper only says magnitudes "scale linearly with d"). The withheld cell is uniform over the boundary cells
that appear in some equation, i.e. the four corners are excluded (a corner influences no interior value, so
withholding one leaves nothing to ask for). The target is a uniform interior cell: by the discrete maximum
principle every interior value depends (with a positive coefficient) on every non-corner boundary value.

A is told the grid, the equations, that all cell values are integers, and every other boundary value, in order,
the withheld one absent from the list (only the slot-notice ablation says which one is missing); B holds only that
value.

Hard tier (docs/hard-tier.md): the grid grows one and two steps on, n = 6 / 7 at d4 / d5 (16 / 25 interior cells).
The scale factor there would be 6600 / 102960 (boundary values up to about 720,000), so the d4-5 draw goes from the
inside out (``harmonic_cells``): the innermost cells are drawn from Unif[-5d, 5d], and each ring outwards takes the
values the equations of the ring inside it ask for (where an equation has several outer neighbours, all but one
are drawn near an equal share, offset by Unif[-5d, 5d]); corners are drawn from Unif[-5d, 5d]. Boundary values stay
in the hundreds; every cell is an integer and the interior is still the unique solution, so the family's solvers and
checks are unchanged; a witness moves the withheld value by the smallest step that keeps the interior integral
(``integral_step``). k = 2 withholds a second non-corner boundary value (``second_hints``): every interior value
depends on each with a positive coefficient.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from functools import cache
from math import gcd, lcm
from operator import mul
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Views,
    absent_slots,
    lin_text,
    missing_slot_note,
    stated_size,
)
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique
from generators.intlinalg import coordinate, det, rref

SCALE = {4: 24, 5: 224}
HARD_SIZE = {4: 6, 5: 7}  # the hard tier's d4 / d5 grids
HARD_TOP = {4: 20, 5: 25}  # their innermost values (and each free share's offset): Unif[-5d, 5d]
_VAR = re.compile(r"^u_(\d+)_(\d+)$")


def grid_size(difficulty: int) -> int:
    return HARD_SIZE.get(difficulty, 4 if difficulty <= 1 else 5)


def var(i: int, j: int) -> str:
    return f"u_{i}_{j}"


def parse_var(name: str) -> tuple[int, int]:
    m = _VAR.match(name)
    if not m:
        raise ValueError(f"not a grid cell: {name!r}")
    return int(m.group(1)), int(m.group(2))


def interior(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(1, n - 1) for j in range(1, n - 1)]


def boundary(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(n) if i in (0, n - 1) or j in (0, n - 1)]


def is_corner(n: int, i: int, j: int) -> bool:
    return i in (0, n - 1) and j in (0, n - 1)


def neighbours(i: int, j: int) -> list[tuple[int, int]]:
    return [(i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)]


def laplace_equation(i: int, j: int) -> Constraint:
    coeffs = {var(i, j): 4}
    for a, b in neighbours(i, j):
        coeffs[var(a, b)] = -1
    return {"type": "lin_eq", "coeffs": coeffs, "rhs": 0}


@cache
def green(n: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """(S, S·G): G is the inverse of the interior operator 4I - adjacency (interior cells in row-major order),
    computed once per grid size by ``Fraction`` elimination; S, the lcm of its denominators, is the paper's scale
    factor (24 for n = 4, 224 for n = 5), so S·G is an integer matrix."""
    cells = interior(n)
    index = {c: k for k, c in enumerate(cells)}
    size = len(cells)
    rows = []
    for i, j in cells:  # [4I - adjacency | I], inverted by one fraction-free Gauss-Jordan
        row = [0] * (2 * size)
        row[index[i, j]] = 4
        for nb in neighbours(i, j):
            if nb in index:
                row[index[nb]] = -1
        row[size + index[i, j]] = 1
        rows.append(row)
    reduced, _ = rref(rows, size)  # nonsingular (diagonally dominant): pivot k in row k
    inverse = [[Fraction(x, row[k]) for x in row[size:]] for k, row in enumerate(reduced)]
    scale = lcm(*(x.denominator for row in inverse for x in row))
    return scale, tuple(tuple(int(x * scale) for x in row) for row in inverse)


def integral_step(n: int, cell: tuple[int, int]) -> int:
    """The smallest change of boundary ``cell`` that keeps every interior value an integer (the lcm of the
    denominators of its column of the inverse operator)."""
    scale, g = green(n)
    inside = interior(n)
    near = [inside.index(nb) for nb in neighbours(*cell) if nb in inside]
    if not near:
        return 1
    return scale // gcd(scale, *(row[near[0]] for row in g))


def harmonic_cells(rng: random.Random, n: int, top: int) -> dict[tuple[int, int], int]:
    """Integer values on every cell of an n x n grid whose interior satisfies the Laplace equation, built from the
    inside out: the interior is such a grid of side n - 2 (drawn the same way; sides 1 and 2 are drawn from
    Unif[-top, top]), then each interior cell's equation gives its boundary neighbours' sum (all but the last of
    them drawn near an equal share, the last the rest: each non-corner boundary cell has one interior neighbour),
    and the corners, which no equation uses, are drawn from Unif[-top, top]."""
    if n <= 2:
        return {(i, j): rng.randint(-top, top) for i in range(n) for j in range(n)}
    cells = {(i + 1, j + 1): v for (i, j), v in harmonic_cells(rng, n - 2, top).items()}
    for i, j in interior(n):
        outside = [nb for nb in neighbours(i, j) if nb not in cells]
        if not outside:
            continue
        need = 4 * cells[i, j] - sum(cells[nb] for nb in neighbours(i, j) if nb in cells)
        share = need // len(outside)
        for nb in outside[:-1]:
            cells[nb] = share + rng.randint(-top, top)
            need -= cells[nb]
        cells[outside[-1]] = need
    for corner in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)):
        cells[corner] = rng.randint(-top, top)
    return cells


@cache
def boundary_neighbours(n: int) -> tuple[tuple[str, ...], ...]:
    """For each interior cell (row-major), the names of its boundary neighbours."""
    inside = set(interior(n))
    return tuple(tuple(var(*nb) for nb in neighbours(i, j) if nb not in inside) for i, j in interior(n))


@cache
def cell_names(n: int) -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]:
    """(all cell names row-major, the same as a set, interior cell names row-major)."""
    names = tuple(var(i, j) for i in range(n) for j in range(n))
    return names, frozenset(names), tuple(var(i, j) for i, j in interior(n))


@cache
def stated_equations(n: int) -> tuple[Constraint, ...]:
    """The interior Laplace equations in view order (read-only templates for comparisons)."""
    return tuple(laplace_equation(i, j) for i, j in interior(n))


def cell_by_marching(n: int, values: dict[tuple[int, int], int], cell: tuple[int, int]) -> Fraction:
    """Second route for an interior value: shooting. Take the first interior row as m = n - 2 parameters, march
    the Laplace equation row by row (u_(i+1)_j = 4 u_i_j - u_(i-1)_j - u_i_(j-1) - u_i_(j+1)) and match the last
    boundary row: an m x m system, solved by Cramer's rule. Cells are affine forms [c_1 .. c_m, constant]."""
    m = n - 2
    form: dict[tuple[int, int], list[int]] = {c: [0] * m + [v] for c, v in values.items()}
    for j in range(1, n - 1):
        form[1, j] = [int(k == j - 1) for k in range(m)] + [0]
    last: list[list[int]] = []
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            parts = [form[i, j], form[i - 1, j], form[i, j - 1], form[i, j + 1]]
            below = [4 * a - b - c - d for a, b, c, d in zip(*parts, strict=True)]
            if i + 1 < n - 1:
                form[i + 1, j] = below
            else:
                last.append(below)
    rows = [f[:m] for f in last]
    rhs = [values[n - 1, j] - f[m] for j, f in zip(range(1, n - 1), last, strict=True)]
    d = det(rows)
    dets = [det([[*r[:k], b, *r[k + 1:]] for r, b in zip(rows, rhs, strict=True)]) for k in range(m)]
    f = form[cell]
    return Fraction(sum(c * x for c, x in zip(f[:m], dets, strict=True)) + f[m] * d, d)


@cache
def grid_statement(n: int) -> str:
    last = n - 1
    return (
        f"A grid of {n}x{n} cells has a value u_i_j in every cell (row i, column j, both numbered 0 to {last}). "
        f"Cells with i or j equal to 0 or {last} are boundary cells; the others are interior cells. Every interior "
        "cell satisfies the discrete Laplace equation 4 u_i_j = u_(i-1)_j + u_(i+1)_j + u_i_(j-1) + u_i_(j+1), written "
        "out below. All cell values are integers."
    )


def missing_statement(slot: str) -> str:
    i, j = parse_var(slot)
    return f"The boundary value {slot} (row {i}, column {j}) is not given here; your partner knows it."


class LaplaceGrid(Family):
    name = "laplace_grid"
    prefix = "lap"
    type = "B"
    answer_type = "int"

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n = grid_size(difficulty)
        if difficulty >= 4:
            cells = harmonic_cells(rng, n, HARD_TOP[difficulty])
            values = [[i, j, cells[i, j]] for i, j in boundary(n)]
            hidden = rng.choice([c for c in boundary(n) if not is_corner(n, *c)])
            target = rng.choice(interior(n))
            return {"n": n, "scale": green(n)[0], "boundary": values, "missing": list(hidden),
                    "target": list(target)}
        scale, top = SCALE[n], 2 + difficulty
        values = [[i, j, scale * rng.randint(-top, top)] for i, j in boundary(n)]
        hidden = rng.choice([c for c in boundary(n) if not is_corner(n, *c)])
        target = rng.choice(interior(n))
        return {"n": n, "scale": scale, "boundary": values, "missing": list(hidden), "target": list(target)}

    def views(self, z: dict[str, Any]) -> Views:
        n = z["n"]
        slot = var(*z["missing"])
        ti, tj = z["target"]
        values = [{"type": "value", "var": var(i, j), "value": v} for i, j, v in z["boundary"]]
        hint = next(c for c in values if c["var"] == slot)
        a: list[Constraint] = [{"type": "domain", "statement": grid_statement(n), "grid_size": n}]
        a += [laplace_equation(i, j) for i, j in interior(n)]
        a += [missing_slot_note(slot, missing_statement(slot)) if c is hint else c
              for c in values]
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=slot,
            value=hint["value"],
            target={"type": "grid_value", "grid_size": n, "var": var(ti, tj)},
            question=f"What is u_{ti}_{tj}, the value of the interior cell in row {ti}, column {tj}? "
            "Give it as an integer.",
            unknowns=[var(ti, tj)],
        )

    # ------------------------------------------------------------------ solving from constraints
    @staticmethod
    def _size(constraints: list[Constraint]) -> int:
        return stated_size(constraints, "grid_size", grid_statement, "grid", minimum=3)

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        n = self._size(constraints)
        names, name_set, inner = cell_names(n)
        known: dict[str, int] = {}
        equations: list[Constraint] = []
        for c in constraints:
            if c["type"] == "value":
                val = c["value"]
                if isinstance(val, bool) or not isinstance(val, int):
                    raise Inconsistent(f"{c['var']} = {val!r} is not an integer")
                if c["var"] not in name_set:
                    raise Inconsistent(f"{c['var']} is not a cell of the grid")
                if known.setdefault(c["var"], val) != val:
                    raise Inconsistent(f"two values for {c['var']}")
            elif c["type"] == "lin_eq":
                equations.append(c)
        # the stated Laplace equations must all be present (any extra equation is a further constraint)
        stated = stated_equations(n)
        if equations != list(stated) and any(e not in equations for e in stated):
            raise NotUnique("not every interior Laplace equation is given")
        tv = target["var"]
        if tv not in name_set:
            raise Inconsistent(f"{tv} is not a cell of the grid")
        if tv in inner and (equations == list(stated) or all(e in stated for e in equations)) and not any(
            x in known for x in inner
        ):
            return self._solve_green(n, known, tv)
        return self._solve_general(names, known, equations, tv)

    @staticmethod
    def _solve_green(n: int, known: dict[str, int], tv: str) -> int:
        """Exactly the stated equations and no interior value given: u = G·(boundary neighbours) with the
        precomputed integer matrix S·G; an unknown boundary value b enters cell k with coefficient (S·G)[k][e],
        e its interior neighbour."""
        scale, g = green(n)
        cells = cell_names(n)[2]
        loads, free = [], []
        for e, nbs in enumerate(boundary_neighbours(n)):
            load = 0
            for b in nbs:
                if b in known:
                    load += known[b]
                else:
                    free.append(e)
            loads.append(load)
        value = None
        for k, cell in enumerate(cells):
            row = g[k]
            if free and any(row[e] for e in free):
                continue
            total = sum(map(mul, row, loads))
            if total % scale:
                raise Inconsistent(f"{cell} = {Fraction(total, scale)} is not an integer")
            if cell == tv:
                value = total // scale
        if value is None:
            raise NotUnique(f"{tv} depends on a boundary value that is not given")
        return value

    @staticmethod
    def _solve_general(names: tuple[str, ...], known: dict[str, int], equations: list[Constraint], tv: str) -> int:
        unknown = [x for x in names if x not in known]
        col = {x: k for k, x in enumerate(unknown)}
        rows = []
        for e in equations:
            row = [0] * (len(unknown) + 1)
            rhs = e["rhs"]
            for x, a in e["coeffs"].items():
                if x not in names:
                    raise Inconsistent(f"{x} is not a cell of the grid")
                if x in known:
                    rhs -= a * known[x]
                else:
                    row[col[x]] += a
            row[-1] = rhs
            rows.append(row)
        if not unknown:
            if any(row[-1] for row in rows):
                raise Inconsistent("the grid values violate a Laplace equation")
            value: Fraction | None = Fraction(known[tv])
        else:
            reduced, pivots = rref(rows, len(unknown))
            # integrality of every determined cell is part of the stated domain
            for x in unknown:
                fixed = coordinate(reduced, pivots, len(unknown), col[x])
                if fixed is not None and fixed.denominator != 1:
                    raise Inconsistent(f"{x} = {fixed} is not an integer")
            if tv in known:
                value = Fraction(known[tv])
            else:
                value = coordinate(reduced, pivots, len(unknown), col[tv])
        if value is None:
            raise NotUnique(f"{tv} is not determined")
        if value.denominator != 1:
            raise Inconsistent(f"{tv} = {value} is not an integer")
        return value.numerator

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: another non-corner boundary value (every interior value depends on each)."""
        n = z["n"]
        return [HintSlot(c, c["var"], c["value"]) for c in views.a
                if c["type"] == "value" and not is_corner(n, *parse_var(c["var"]))]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        n = target["grid_size"]
        if n in SCALE:  # the paper's grids: boundary values are multiples of the scale factor
            step = SCALE[n]
        elif isinstance(n, int) and n >= 3 and _VAR.match(hint.get("var", "")):
            step = integral_step(n, parse_var(hint["var"]))
        else:
            step = 1
        for k in (1, -1, 2, -2):
            yield {**hint, "value": hint["value"] + k * step}

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The boundary cells (in A's order) that A is given no value for."""
        n = self._size(view_a)
        return absent_slots(self, [var(i, j) for i, j in boundary(n)], view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        n = z["n"]
        values = {(i, j): v for i, j, v in z["boundary"]}
        u = cell_by_marching(n, values, tuple(z["target"]))
        if u.denominator != 1:
            raise ValueError(f"non-integer interior value {u}")
        return u.numerator

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "value":
                return f"{c['var']} = {c['value']}"
            case "lin_eq":
                coeffs = c["coeffs"]
                centre = [x for x, a in coeffs.items() if a > 0]
                if c["rhs"] == 0 and len(centre) == 1 and all(a == -1 for x, a in coeffs.items() if x != centre[0]):
                    rest = " + ".join(x for x in coeffs if x != centre[0])
                    return f"{coeffs[centre[0]]} {centre[0]} = {rest}"
                return lin_text(coeffs, c["rhs"])
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        return c["var"] if c["type"] == "value" else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        i, j = parse_var(slot)
        return [
            f"the boundary value {slot}",
            slot,
            f"u_{{{i},{j}}}",
            f"u_{{{i}{j}}}",
            f"u_{i}{j}",
            f"u{i}{j}",
            f"u({i},{j})",
            f"u({i}, {j})",
            f"u[{i}][{j}]",
            f"u[{i},{j}]",
            f"the value of {slot}",
            f"the boundary value at ({i},{j})",
            f"the boundary value at cell ({i}, {j})",
            f"the value at cell ({i},{j})",
            f"the value of the cell in row {i}, column {j}",
            f"the boundary cell in row {i}, column {j}",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "value":
            return None
        i, j = parse_var(c["var"])
        return SlotDescription("boundary value", (i, j), axes=("row", "column"), base=0, owner="the grid",
                               synonyms=("grid value", "cell", "node", "grid point", "boundary cell"),
                               meanings=boundary_meanings(i, j))


def boundary_meanings(i: int, j: int) -> tuple[str, ...]:
    """Domain phrases for the boundary value u_i_j: a fixed (Dirichlet) value on the grid's edge at (i, j), and,
    where the indices tell (the grid's size is not in the fact), its edge and the cell it borders."""
    ro, co = ordinal_words(i + 1)[0], ordinal_words(j + 1)[0]
    out = [
        f"the fixed boundary value at ({i},{j})",
        f"the prescribed value at boundary cell ({i},{j})",
        f"the boundary condition at ({i},{j})",
        f"the boundary condition at row {i}, column {j}",
        f"the dirichlet value at ({i},{j})",
        f"the dirichlet boundary value in row {i}, column {j}",
        f"the edge value at row {i}, column {j}",
        f"the value on the edge at ({i},{j})",
        f"the border value at row {i}, column {j}",
        f"the border cell at ({i},{j})",
        f"the value held fixed at ({i},{j})",
        f"the value held fixed in row {i}, column {j}",
        f"the temperature at boundary point ({i},{j})",
        f"the boundary temperature at row {i}, column {j}",
        f"the potential on the boundary at ({i},{j})",
        f"the given edge value in row {i}, column {j}",
        f"the known boundary number at ({i},{j})",
        f"the outer cell at row {i}, column {j}",
        f"the outer ring value at ({i},{j})",
        f"the perimeter value at row {i}, column {j}",
        f"the boundary node ({i},{j})",
        f"the boundary grid point ({i},{j})",
        f"the value of the boundary cell at position ({i},{j})",
        f"the boundary entry in row {i}, column {j}",
        f"the boundary data at ({i},{j})",
        f"the fixed edge cell in row {i}, column {j}",
        f"the boundary value in the {ro} row, {co} column",
        f"the edge cell in the {ro} row and {co} column",
    ]
    # the edge: a non-corner boundary cell has exactly one index on the edge (0 or the larger one, n - 1)
    edge = "top" if i == 0 else "left" if j == 0 else "bottom" if i > j else "right" if i < j else ""
    if edge:
        out += [f"the {edge} boundary value at row {i}, column {j}", f"the value on the {edge} edge at ({i},{j})",
                f"the {edge} edge cell ({i},{j})", f"the {edge} boundary condition at ({i},{j})"]
    # the cell it borders (for a corner, a boundary cell): above / left of / below / right of
    near = {"top": ("above", i + 1, j), "left": ("to the left of", i, j + 1), "bottom": ("below", i - 1, j),
            "right": ("to the right of", i, j - 1)}.get(edge)
    if near:
        where, a, b = near
        out += [f"the boundary value {where} cell ({a},{b})", f"the boundary cell {where} u_{a}_{b}",
                f"the fixed value just {where} cell ({a},{b})", f"the boundary neighbour {where} ({a},{b})",
                f"the boundary neighbor {where} ({a},{b})"]
    return tuple(out)


FAMILY = LaplaceGrid()
