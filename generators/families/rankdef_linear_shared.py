"""A10 rankdef_linear_shared: A knows equations (1), (2) (rank 2 in x, y, z); B holds (3) and (4).

The solution ``(x, y, z)`` is drawn from ``[-(5+d), 5+d]^3``; all coefficients of the four equations
are drawn from ``[-(3+d), 3+d] \\ {0}``; draws are rejected until ``rank(1,2) = 2``,
``rank(1,2,3) = 3`` and ``rank(1,2,4) = 3`` (the paper's rules). Either of B's equations completes
A's system; the canonical atomic hint is always equation (3). Equations carry their label (``eq``)
so that A can name the one it asks for, and B's two equations are told apart.

A is told that x, y, z are integers (the answer is an integer triple) but not the solution box: on
the line that (1) and (2) define, the integer points are spaced by a primitive integer direction
vector and there are infinitely many of them, so A's view never pins the answer.

Hard tier (docs/hard-tier.md): d4 and d5 take the same rule two steps further, (5+d, 3+d) = (9, 7) and
(10, 8). The family has facts of one kind only (equations), so at k = 2 the second withheld fact is A's other
equation, (1) or (2), drawn with the instance's generator. B then holds equation (3) and that one, and no longer
equation (4): with (4) as well B's three equations would have rank 3 and settle the system alone. A holds one
equation; its candidates are the first two labels it does not hold.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from math import gcd
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Reject,
    Views,
    by_type,
    is_slot_notice,
    lin_text,
    missing_slot_note,
)
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique
from generators.intlinalg import int_echelon
from generators.linalg import as_int, solve_affine

VARS = ("x", "y", "z")


def ranges(difficulty: int) -> tuple[int, int]:
    """(solution bound, coefficient bound) = (5+d, 3+d)."""
    return 5 + difficulty, 3 + difficulty


def cross(a: list[int], b: list[int]) -> list[int]:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def det3(m: list[list[int]]) -> int:
    return sum(m[0][i] * cross(m[1], m[2])[i] for i in range(3))


def primitive(v: list[int]) -> list[int]:
    g = gcd(*v)
    return [c // g for c in v] if g else v


def equation(label: int, row: list[int], rhs: int) -> Constraint:
    return {"type": "lin_eq", "eq": label, "coeffs": dict(zip(VARS, row, strict=True)), "rhs": rhs}


class RankdefLinearShared(Family):
    name = "rankdef_linear_shared"
    prefix = "ran"
    type = "A"
    answer_type = "dict_int"
    answer_keys = VARS

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        sol_max, coef_max = ranges(difficulty)
        nonzero = [c for c in range(-coef_max, coef_max + 1) if c != 0]
        solution = [rng.randint(-sol_max, sol_max) for _ in VARS]
        rows = [[rng.choice(nonzero) for _ in VARS] for _ in range(4)]
        if not any(cross(rows[0], rows[1])):
            raise Reject("rank(rows 1,2) < 2")
        if det3([rows[0], rows[1], rows[2]]) == 0 or det3([rows[0], rows[1], rows[3]]) == 0:
            raise Reject("rank(rows 1,2,3) < 3 or rank(rows 1,2,4) < 3")
        if rows[2] == rows[3]:
            raise Reject("B's two equations would be the same fact")
        rhs = [sum(a * s for a, s in zip(row, solution, strict=True)) for row in rows]
        return {"solution": solution, "rows": rows, "rhs": rhs}

    def views(self, z: dict[str, Any]) -> Views:
        eqs = [equation(i + 1, row, b) for i, (row, b) in enumerate(zip(z["rows"], z["rhs"], strict=True))]
        domain = {
            "type": "domain",
            "statement": "x, y and z are integers, and every equation of the system is linear in x, y, z with "
            "integer coefficients.",
            "integer": list(VARS),
            "integer_coefficients": True,
        }
        notice = missing_slot_note(
            "equation (3)",
            "Your partner knows two more linear equations in x, y, z with integer coefficients, equation (3) and "
            "equation (4); either one, together with equations (1) and (2), determines x, y, z.",
        )
        return Views(
            a=[eqs[0], eqs[1], domain, notice],
            b=[eqs[2], eqs[3]],
            hint=eqs[2],
            slot="equation (3)",
            value={"coeffs": eqs[2]["coeffs"], "rhs": eqs[2]["rhs"]},
            target={"type": "solution", "variables": list(VARS)},
            question="What is the solution (x, y, z) of the system? Give the three integers.",
            unknowns=list(VARS),
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> tuple[int | Fraction, ...]:
        eqs = by_type(constraints, "lin_eq")
        if not eqs:
            raise NotUnique("no equations")
        rows = [[c["coeffs"].get(v, 0) for v in VARS] for c in eqs]
        rhs = [c["rhs"] for c in eqs]
        domains = by_type(constraints, "domain")
        if any(d.get("integer_coefficients") for d in domains) and not all(
            isinstance(x, int) and not isinstance(x, bool) for x in [*rhs, *(a for row in rows for a in row)]
        ):
            raise Inconsistent("the equations are stated to have integer coefficients")
        solution = solve_exact(rows, rhs)
        integer = {v for dom in domains for v in dom.get("integer", ())}
        return tuple(
            as_int(value, var) if var in integer else _int_or_fraction(value)
            for var, value in zip(VARS, solution, strict=True)
        )

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The next labelled equations, as many as A's equations leave the system open.

        A's equations are labelled (1), (2), ...; 3 - r more independent equations fix x, y, z when A's have rank
        r (r = 2 at k = 1, r = 1 at k = 2). From A's view alone only their labels are known: the first ones A does
        not hold. (The notice of the ablation also names equation (4); without it A cannot know that the system
        has a fourth equation.)
        """
        eqs = by_type([c for c in view_a if not is_slot_notice(c)], "lin_eq")
        _, pivots = int_echelon([[c["coeffs"].get(v, 0) for v in VARS] for c in eqs], [0] * len(eqs))
        if not 1 <= len(pivots) < len(VARS):
            return []
        held = {c["eq"] for c in eqs}
        free = (k for k in range(1, len(held) + len(VARS) + 1) if k not in held)
        return [f"equation ({next(free)})" for _ in range(len(VARS) - len(pivots))]

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: one of A's two equations as well as equation (3) (the family has no fact of another kind)."""
        return [HintSlot(c, self.slot_name(c), {"coeffs": c["coeffs"], "rhs": c["rhs"]})
                for c in by_type(views.a, "lin_eq")]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """B keeps equation (3) and gets the withheld one; it gives up equation (4), which would settle the system
        with them (B's view alone must leave the target open)."""
        views = super().withhold(views, second)
        return replace(views, b=[c for c in views.b if c.get("eq") != 4])

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        """Equation (3) with the same coefficients and the right-hand side of another integer point of A's line."""
        rows = [[c["coeffs"][v] for v in VARS] for c in by_type(view_a, "lin_eq")]
        if len(rows) != 2:
            return
        direction = primitive(cross(rows[0], rows[1]))
        step = sum(hint["coeffs"][v] * d for v, d in zip(VARS, direction, strict=True))
        if step == 0:
            return
        for k in (1, -1, 2, -2):
            yield {**hint, "rhs": hint["rhs"] + k * step}

    def render(self, c: Constraint) -> str:
        if c["type"] == "lin_eq":
            return f"Equation ({c['eq']}): {lin_text(c['coeffs'], c['rhs'])}"
        if c["type"] == "domain":
            return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if not (slot.startswith("equation (") and slot.endswith(")")):
            raise KeyError(f"unknown slot {slot!r}")
        n = slot[len("equation (") : -1]
        ordinal = {"1": "first", "2": "second", "3": "third", "4": "fourth"}[n]
        return [
            slot,
            f"equation {n}",
            f"eq. ({n})",
            f"eq {n}",
            f"the equation labelled ({n})",
            f"the {ordinal} equation",
            f"linear equation ({n})",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "lin_eq":
            return None
        k = c["eq"]
        nth = ordinal_words(k)[0]
        return SlotDescription("equation", (k,), synonyms=("linear equation",), meanings=(
            f"the equation labelled {k}", f"the equation labeled ({k})", f"the equation marked ({k})",
            f"the equation numbered {k}", f"the equation tagged ({k})", f"equation number ({k})",
            f"the {nth} equation of the system", f"the {nth} equation in the system", f"the {nth} linear relation",
            f"the {nth} linear constraint", f"the {nth} constraint on x, y, z", f"the {nth} constraint on x, y and z",
            f"the {nth} linear condition", f"the {nth} relation between x, y and z", f"the {nth} row of the system",
            f"the {nth} plane", f"constraint ({k})", f"constraint {k}", f"relation ({k})", f"condition ({k})",
            f"plane ({k})", f"row {k} of the system", f"line ({k}) of the system", f"the {nth} line of the system",
            f"the coefficients of the {nth} equation", f"the coefficients and right-hand side of equation {k}",
            f"the left and right sides of equation {k}", f"what equation ({k}) says", f"the {nth} linear equation",
            f"the {nth} equation in x, y and z", f"the {nth} equation relating x, y and z"))

    def slot_name(self, c: Constraint) -> str | None:
        return f"equation ({c['eq']})" if c["type"] == "lin_eq" else None

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["solution"])


def solve_exact(rows: list[list[Any]], rhs: list[Any]) -> list[Fraction]:
    """The unique solution of ``rows · v = rhs``; ``NotUnique`` / ``Inconsistent`` otherwise.

    Integer systems (all generated ones) use fraction-free elimination, which is several times faster
    than ``Fraction`` elimination; anything else goes through ``generators.linalg``.
    """
    n = len(VARS)
    entries = [x for row in rows for x in row] + list(rhs)
    if any(isinstance(x, bool) or not isinstance(x, int) for x in entries):
        particular, basis = solve_affine([[Fraction(x) for x in row] for row in rows], [Fraction(b) for b in rhs])
        if basis:
            raise NotUnique(f"rank {n - len(basis)} in {n} unknowns")
        return particular
    m = [[*row, b] for row, b in zip(rows, rhs, strict=True)]
    pivots: list[int] = []
    r = 0
    for c in range(n + 1):
        p = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        piv = m[r]
        for i in range(len(m)):
            if i != r and m[i][c] != 0:
                f = m[i][c]
                row = [a * piv[c] - b * f for a, b in zip(m[i], piv, strict=True)]
                g = gcd(*row)
                m[i] = [a // g for a in row] if g > 1 else row
        pivots.append(c)
        r += 1
        if r == len(m):
            break
    if n in pivots:
        raise Inconsistent("the equations contradict each other")
    if len(pivots) < n:
        raise NotUnique(f"rank {len(pivots)} in {n} unknowns")
    return [Fraction(m[i][n], m[i][c]) for i, c in enumerate(pivots)]


def _int_or_fraction(value: Fraction) -> int | Fraction:
    return value.numerator if value.denominator == 1 else value


FAMILY = RankdefLinearShared()
