"""Exact integer linear algebra: fraction-free Gauss-Jordan, small determinants, integer points in a box.

``generators.linalg`` eliminates with ``Fraction`` entries; on the small integer systems of most families,
integer rows (scaled, divided by their gcd) and cofactor determinants are about ten times faster, which keeps
generation + validation near 1 ms per instance. Results are exact.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from math import gcd
from typing import Any

from generators.base import Constraint, Family, by_type
from generators.errors import Inconsistent, NotUnique


def _gauss_jordan(m: list[list[int]], n_cols: int) -> list[int]:
    """Fraction-free Gauss-Jordan on ``m`` in place over its first ``n_cols`` columns; returns the pivot columns.

    Rows are combined as ``a * row - b * pivot_row`` and divided by their gcd, so entries stay small integers.
    """
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
            m[i] = [x // g for x in row] if g > 1 else row
        pivots.append(c)
        top += 1
        if top == len(m):
            break
    return pivots


def rref(rows: Sequence[Sequence[int]], n_cols: int) -> tuple[list[list[int]], list[int]]:
    """Reduced echelon form of integer augmented rows ``[a_0 .. a_{n_cols-1} | rhs]``.

    Every pivot row ``r`` reads ``r[p] * x_p + sum(r[f] * x_f over free columns f) = r[n_cols]`` with
    ``r[p] > 0``; zero rows are dropped. Raises ``Inconsistent`` when a row reduces to ``0 = c`` with c != 0.
    """
    m = [list(r) for r in rows]
    pivots = _gauss_jordan(m, n_cols)
    top = len(pivots)
    for row in m[top:]:
        if row[n_cols]:
            raise Inconsistent("linear system has no solution")
    return [[-x for x in row] if row[c] < 0 else row for row, c in zip(m[:top], pivots, strict=True)], pivots


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


# ------------------------------------------------------------------ lin_eq systems in an integer box
def lin_eqs(constraints: list[Constraint], variables: tuple[str, ...]) -> tuple[list[list[int]], list[int]]:
    """Rows and right-hand sides of the distinct ``lin_eq`` / ``value`` constraints over ``variables``."""
    rows: list[list[int]] = []
    rhs: list[int] = []
    seen: list[tuple[tuple[int, ...], int]] = []
    for c in constraints:
        if c["type"] == "lin_eq":
            if set(c["coeffs"]) - set(variables):
                raise Inconsistent(f"equation over unknown variables {sorted(set(c['coeffs']) - set(variables))}")
            row = tuple(int(c["coeffs"].get(v, 0)) for v in variables)
            value = int(c["rhs"])
        elif c["type"] == "value" and c["var"] in variables:
            row = tuple(int(v == c["var"]) for v in variables)
            value = int(c["value"])
        else:
            continue
        if (row, value) not in seen:
            seen.append((row, value))
            rows.append(list(row))
            rhs.append(value)
    return rows, rhs


def int_echelon(rows: list[list[int]], rhs: list[int]) -> tuple[list[list[int]], list[int]]:
    """Fraction-free reduced echelon form of the augmented integer system, and its pivot columns.

    Each pivot row i reads ``m[i][p_i] * x_{p_i} + sum over free f of m[i][f] * x_f = m[i][n]`` (every other
    pivot column is 0 in it); a pivot in column n (the right-hand side) means the system is inconsistent.
    """
    m = [[*row, b] for row, b in zip(rows, rhs, strict=True)]
    if not m:
        return m, []
    pivots = _gauss_jordan(m, len(m[0]))
    return m[: len(pivots)], pivots


def integer_points(
    rows: list[list[int]], rhs: list[int], n: int, lower: int, upper: int, limit: int | None = None
) -> list[tuple[int, ...]]:
    """Integer solutions of ``rows · x = rhs`` with every coordinate in [lower, upper], in lexicographic order
    of the free coordinates (at most ``limit`` of them)."""
    m, pivots = int_echelon(rows, rhs)
    if n in pivots:
        return []  # inconsistent
    free = [j for j in range(n) if j not in pivots]
    found: list[tuple[int, ...]] = []
    span = range(lower, upper + 1)
    for values in itertools.product(span, repeat=len(free)):
        x = [0] * n
        for j, v in zip(free, values, strict=True):
            x[j] = v
        for row, p in zip(m, pivots, strict=True):
            num = row[n] - sum(row[j] * x[j] for j in free)
            if num % row[p] != 0:
                break
            xp = num // row[p]
            if not lower <= xp <= upper:
                break
            x[p] = xp
        else:
            found.append(tuple(x))
            if limit is not None and len(found) >= limit:
                break
    return found


def with_statement(domain: Constraint, text) -> Constraint:
    """The domain constraint with its ``statement`` rendered from its machine fields (so they cannot drift)."""
    return {"type": "domain", "statement": text(domain), **{k: v for k, v in domain.items() if k != "type"}}


def box_domain(constraints: list[Constraint]) -> tuple[int, int] | None:
    """(lower, upper) from the domain constraint A is told, or None when no such constraint is present."""
    for c in by_type(constraints, "domain"):
        if c.get("integer") and "lower" in c and "upper" in c:
            return int(c["lower"]), int(c["upper"])
    return None


def solve_box(constraints: list[Constraint], variables: tuple[str, ...]) -> tuple[int, ...] | tuple[Fraction, ...]:
    """The unique solution of the linear constraints within the stated integer box (or over Q without one)."""
    rows, rhs = lin_eqs(constraints, variables)
    n = len(variables)
    box = box_domain(constraints)
    if box is None:
        if not rows:
            raise NotUnique("no equations")
        m, pivots = int_echelon(rows, rhs)
        if n in pivots:
            raise Inconsistent("linear system has no solution")
        if len(pivots) < n:
            raise NotUnique(f"linear system has {n - len(pivots)} free direction(s)")
        return tuple(Fraction(m[i][n], m[i][i]) for i in range(n))
    points = integer_points(rows, rhs, n, *box, limit=2)
    if not points:
        raise Inconsistent(f"no integer solution with every unknown in [{box[0]}, {box[1]}]")
    if len(points) > 1:
        raise NotUnique(f"several integer solutions in [{box[0]}, {box[1]}], e.g. {points[0]} and {points[1]}")
    return points[0]


def admissible(view: list[Constraint], variables: tuple[str, ...], limit: int = 64) -> list[tuple[int, ...]]:
    """The integer points A's view allows (within its stated box), for witnesses."""
    box = box_domain(view)
    if box is None:
        return []
    rows, rhs = lin_eqs(view, variables)
    return integer_points(rows, rhs, len(variables), *box, limit=limit)


def equation_alternatives(hint: Constraint, view: list[Constraint], variables: tuple[str, ...]) -> list[Constraint]:
    """``hint`` (a ``lin_eq``) with each right-hand side that an integer point A's view allows would give."""
    row = [hint["coeffs"].get(v, 0) for v in variables]
    values: list[int] = []
    for point in admissible(view, variables):
        v = sum(k * x for k, x in zip(row, point, strict=True))
        if v not in values:
            values.append(v)
    return [{**hint, "rhs": v} for v in values]


def value_alternatives(hint: Constraint, view: list[Constraint], variables: tuple[str, ...]) -> list[Constraint]:
    """``hint`` (a ``value`` of one unknown) with each value that an integer point A's view allows would give."""
    index = variables.index(hint["var"])
    values: list[int] = []
    for point in admissible(view, variables):
        if point[index] not in values:
            values.append(point[index])
    return [{**hint, "value": v} for v in values]


class BoxFamily(Family):
    """A family whose answer is its integer unknowns ``answer_keys``, fixed by linear equations within a stated box.

    It is solved by enumerating the box (``solve_box``); the hint's alternatives are the values the integer
    points of A's view give to the hint (an equation's right-hand side, or one unknown's value).
    """

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> tuple[int, ...] | tuple[Fraction, ...]:
        return solve_box(constraints, self.answer_keys)

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]) -> list[Constraint]:
        if hint["type"] == "value":
            return value_alternatives(hint, view_a, self.answer_keys)
        return equation_alternatives(hint, view_a, self.answer_keys)
