"""Exact integer linear algebra (fraction-free Gauss-Jordan, small determinants) for some Type-B families' hot paths.

``generators.linalg`` eliminates with ``Fraction`` entries; on the small integer systems of laplace_grid,
linear_system_missing_coeff and markov_missing_transition, integer rows (scaled, divided by their gcd) and
cofactor determinants are about ten times faster, which keeps generation + validation near 1 ms per instance.
Results are exact. (Private module: the family registry skips names starting with ``_``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import gcd

from generators.errors import Inconsistent, NotUnique


def rref(rows: Sequence[Sequence[int]], n_cols: int) -> tuple[list[list[int]], list[int]]:
    """Reduced echelon form of integer augmented rows ``[a_0 .. a_{n_cols-1} | rhs]``.

    Every pivot row ``r`` reads ``r[p] * x_p + sum(r[f] * x_f over free columns f) = r[n_cols]`` with
    ``r[p] > 0``; zero rows are dropped. Raises ``Inconsistent`` when a row reduces to ``0 = c`` with c != 0.
    """
    m = [list(r) for r in rows]
    pivots: list[int] = []
    top = 0
    for c in range(n_cols):
        p = next((i for i in range(top, len(m)) if m[i][c]), None)
        if p is None:
            continue
        m[top], m[p] = m[p], m[top]
        prow = m[top]
        a = prow[c]
        for i in range(len(m)):
            b = m[i][c]
            if i == top or not b:
                continue
            row = [a * x - b * y for x, y in zip(m[i], prow, strict=True)]
            g = gcd(*row)
            if g > 1:
                row = [x // g for x in row]
            m[i] = row
        pivots.append(c)
        top += 1
        if top == len(m):
            break
    for row in m[top:]:
        if row[n_cols]:
            raise Inconsistent("linear system has no solution")
    out = []
    for row, c in zip(m[:top], pivots, strict=True):
        out.append([-x for x in row] if row[c] < 0 else row)
    return out, pivots


def coordinate(rows: list[list[int]], pivots: list[int], n_cols: int, col: int) -> Fraction | None:
    """The value of ``x_col`` if the reduced system fixes it, else None (see ``rref``)."""
    if col not in pivots:
        return None
    row = rows[pivots.index(col)]
    if any(row[f] for f in range(n_cols) if f != col):
        return None
    return Fraction(row[n_cols], row[col])


def solve_square(matrix: Sequence[Sequence[int]], rhs: Sequence[int]) -> list[Fraction]:
    """The unique solution of a square integer system; ``NotUnique`` when singular (or ``Inconsistent``)."""
    n = len(matrix)
    rows, pivots = rref([[*row, b] for row, b in zip(matrix, rhs, strict=True)], n)
    if len(pivots) < n:
        raise NotUnique("singular system")
    return [Fraction(row[n], row[c]) for row, c in zip(rows, pivots, strict=True)]


def det(m: Sequence[Sequence[int]]) -> int:
    """Determinant of a small integer matrix by cofactor expansion (exact; meant for n <= 5)."""
    n = len(m)
    if n == 0:
        return 1
    if n == 1:
        return m[0][0]
    if n == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    if n == 3:
        (a, b, c), (d, e, f), (g, h, i) = m
        return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return sum(
        (-1) ** c * m[0][c] * det([[*row[:c], *row[c + 1:]] for row in m[1:]]) for c in range(n) if m[0][c]
    )


def minor(m: Sequence[Sequence[int]], row: int, col: int) -> list[list[int]]:
    """``m`` without one row and one column."""
    return [[*r[:col], *r[col + 1:]] for i, r in enumerate(m) if i != row]
