"""Exact linear algebra over the rationals (``Fraction`` Gaussian elimination).

Small dense systems only (at most a few dozen unknowns); exactness matters more than speed.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from generators.errors import Inconsistent, NotUnique

Matrix = list[list[Fraction]]


def _to_matrix(rows: Sequence[Sequence[int | Fraction]]) -> Matrix:
    return [[Fraction(x) for x in row] for row in rows]


def row_echelon(rows: Sequence[Sequence[int | Fraction]]) -> tuple[Matrix, list[int]]:
    """Reduced row echelon form and the list of pivot columns."""
    m = _to_matrix(rows)
    if not m:
        return m, []
    n_cols = len(m[0])
    pivots: list[int] = []
    r = 0
    for c in range(n_cols):
        pivot = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if pivot is None:
            continue
        m[r], m[pivot] = m[pivot], m[r]
        inv = 1 / m[r][c]
        m[r] = [x * inv for x in m[r]]
        for i in range(len(m)):
            if i != r and m[i][c] != 0:
                f = m[i][c]
                m[i] = [a - f * b for a, b in zip(m[i], m[r], strict=True)]
        pivots.append(c)
        r += 1
        if r == len(m):
            break
    return m, pivots


def rank(rows: Sequence[Sequence[int | Fraction]]) -> int:
    return len(row_echelon(rows)[1])


def solve_affine(
    rows: Sequence[Sequence[int | Fraction]], rhs: Sequence[int | Fraction]
) -> tuple[list[Fraction], list[list[Fraction]]]:
    """All solutions of ``rows · x = rhs`` as (particular solution, basis of the null space).

    Raises ``Inconsistent`` when there is no solution.
    """
    if not rows:
        raise ValueError("empty system")
    n = len(rows[0])
    augmented = [[*row, b] for row, b in zip(rows, rhs, strict=True)]
    m, pivots = row_echelon(augmented)
    if n in pivots:
        raise Inconsistent("linear system has no solution")
    particular = [Fraction(0)] * n
    for i, c in enumerate(pivots):
        particular[c] = m[i][n]
    free = [c for c in range(n) if c not in pivots]
    basis = []
    for f in free:
        v = [Fraction(0)] * n
        v[f] = Fraction(1)
        for i, c in enumerate(pivots):
            v[c] = -m[i][f]
        basis.append(v)
    return particular, basis


def solve_unique(rows: Sequence[Sequence[int | Fraction]], rhs: Sequence[int | Fraction]) -> list[Fraction]:
    """The unique solution of ``rows · x = rhs``; ``NotUnique`` / ``Inconsistent`` otherwise."""
    particular, basis = solve_affine(rows, rhs)
    if basis:
        raise NotUnique(f"linear system has {len(basis)} free direction(s)")
    return particular


def determined_coordinates(
    rows: Sequence[Sequence[int | Fraction]], rhs: Sequence[int | Fraction]
) -> dict[int, Fraction]:
    """Coordinates fixed by the system even when it is underdetermined as a whole."""
    particular, basis = solve_affine(rows, rhs)
    return {i: particular[i] for i in range(len(particular)) if all(v[i] == 0 for v in basis)}


def as_int(x: Fraction, what: str = "value") -> int:
    """``x`` as an int, or ``Inconsistent`` when the domain requires an integer and it is not one."""
    if x.denominator != 1:
        raise Inconsistent(f"{what} = {x} is not an integer")
    return x.numerator
