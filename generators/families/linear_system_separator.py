"""A5 linear_system_separator: A knows two equations in a, b, c; B holds the value of c; target (a, b, c).

The solver is honest about the domain A is told (integers in [-(5+d), 5+d]): A's view alone is a line of
rational solutions, and the integer points of that line inside the box are enumerated; an instance whose
box holds only one of them (integrality and range would pin the answer) is rejected.

``lin_eqs`` / ``integer_points`` / ``solve_box`` are also used by graph_path_sums and moment_problem.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import gcd
from typing import Any

from generators.base import Constraint, Family, Reject, Views, by_type, lin_text
from generators.errors import Inconsistent, NotUnique

VARS = ("a", "b", "c")


# ------------------------------------------------------------------ shared helpers (lin_eq systems in a box)
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
    width = len(m[0])
    pivots: list[int] = []
    r = 0
    for c in range(width):
        pivot = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if pivot is None:
            continue
        m[r], m[pivot] = m[pivot], m[r]
        head = m[r][c]
        for i in range(len(m)):
            if i != r and (k := m[i][c]) != 0:
                row = [a * head - b * k for a, b in zip(m[i], m[r], strict=True)]
                g = gcd(*row)
                m[i] = [a // g for a in row] if g > 1 else row
        pivots.append(c)
        r += 1
        if r == len(m):
            break
    return m[:r], pivots


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


# ------------------------------------------------------------------ the family
class LinearSystemSeparator(Family):
    name = "linear_system_separator"
    prefix = "lin"
    type = "A"
    answer_type = "dict_int"
    answer_keys = VARS

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        bound, coeff = 5 + difficulty, 3 + difficulty
        sol = [rng.randint(-bound, bound) for _ in VARS]
        rows = [[rng.randint(-coeff, coeff) for _ in VARS] for _ in range(2)]
        if rows[0][0] * rows[1][1] - rows[0][1] * rows[1][0] == 0:
            raise Reject("the 2x2 system in (a, b) left after substituting c is singular")
        if rows[0][2] == 0 and rows[1][2] == 0:
            raise Reject("c does not occur in A's equations (no separator)")
        rhs = [sum(k * x for k, x in zip(row, sol, strict=True)) for row in rows]
        if len(integer_points(rows, rhs, 3, -bound, bound, limit=2)) < 2:
            raise Reject("integrality and the range already pin (a, b, c) from A's equations")
        return {"solution": dict(zip(VARS, sol, strict=True)), "rows": rows, "rhs": rhs, "bound": bound}

    def views(self, z: dict[str, Any]) -> Views:
        bound = z["bound"]
        eqs = [
            {"type": "lin_eq", "name": f"eq{i + 1}", "coeffs": dict(zip(VARS, row, strict=True)), "rhs": r}
            for i, (row, r) in enumerate(zip(z["rows"], z["rhs"], strict=True))
        ]
        domain = with_statement({"type": "domain", "integer": True, "lower": -bound, "upper": bound}, self.domain_text)
        hint = {"type": "value", "var": "c", "value": z["solution"]["c"]}
        return Views(
            a=[*eqs, domain],
            b=[hint],
            hint=hint,
            slot="c",
            value=hint["value"],
            target={"type": "solution", "vars": list(VARS)},
            question="What is the solution (a, b, c) of the system? Give the three integers a, b and c.",
            unknowns=list(VARS),
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> tuple[int, ...] | tuple[Fraction, ...]:
        return solve_box(constraints, VARS)

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        index = VARS.index(hint["var"])
        values = []
        for point in admissible(view_a, VARS):
            if point[index] not in values:
                values.append(point[index])
        for v in values:
            yield {**hint, "value": v}

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "lin_eq":
                return f"Equation {c['name'][2:]}: {lin_text(c['coeffs'], c['rhs'])}"
            case "value":
                return f"{c['var']} = {c['value']}"
            case "domain":
                return self.domain_text(c)
        raise ValueError(f"unknown constraint type {c['type']!r}")

    @staticmethod
    def domain_text(c: Constraint) -> str:
        return (
            f"The unknowns a, b and c are integers between {c['lower']} and {c['upper']} (inclusive). c is the "
            "separator variable: once the value of c is known, the two equations determine a and b uniquely."
        )

    def slot_name(self, c: Constraint) -> str | None:
        match c["type"]:
            case "lin_eq":
                return c["name"]
            case "value":
                return c["var"]
        return None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if slot in VARS:
            names = [f"the value of {slot}", slot, f"{slot} = ?", f"the exact value of {slot}", f"the unknown {slot}"]
            if slot == "c":
                names += ["the separator variable c", "the separator variable", "the value of the separator variable"]
            return names
        if slot.startswith("eq"):
            k = slot[2:]
            ordinal = {"1": "first", "2": "second", "3": "third"}.get(k, k)
            return [f"equation {k}", slot, f"the {ordinal} equation", f"Equation {k}"]
        raise ValueError(f"unknown slot {slot!r}")

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["solution"][v] for v in VARS)


FAMILY = LinearSystemSeparator()
