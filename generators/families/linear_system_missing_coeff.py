"""B7 linear_system_missing_coeff: an n x n system A x = b with one coefficient withheld; target x_k.

n = d + 1; coefficients A[i][j] ~ Unif[-K, K] with K = 4 + 3(d - 1) (4 / 7 / 10); right-hand sides b[i] ~
Unif[-8, 8] (the paper's "entries in [-8, 8]" read as applying to b, since it conflicts with K = 10 at d = 3;
the authors' release does the same). A must be non-singular. The withheld coefficient A[i][j] and the target
index k are uniform; draws where x_k has a denominator above 300 are rejected (the paper's rule).

Degeneracy the paper misses: changing A[i][j] by delta moves x_k by -delta x_j (A^-1)[k][i] / (1 + delta
(A^-1)[j][i]) (Sherman-Morrison), so x_k ignores the withheld coefficient exactly when x_j = 0 or
(A^-1)[k][i] = 0. Such draws are rejected. Otherwise every other integer value of A[i][j] that keeps the system
non-singular gives another x_k, which is the validator's witness.

A is told that the coefficients are integers and the system has exactly one solution, every other coefficient
(row by row, the withheld one absent from the list) and all of b; only the slot-notice ablation says which
coefficient is missing. B holds only that coefficient.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

from generators import slots
from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Reject,
    Views,
    absent_slots,
    missing_slot_note,
    stated_size,
)
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique
from generators.intlinalg import det, minor, solve_square

MAX_DENOMINATOR = 300
HARD_MAX_DENOMINATOR = {4: 10**5, 5: 10**7}  # the hard tier's caps (docstring)
RHS_BOUND = 8
_COEFF = slots.entry_pattern("A")
_RHS = slots.component_pattern("b")
_FACTS = slots.EntryFacts("coeff", "A", "rhs", "b", "row")


def coeff_bound(difficulty: int) -> int:
    return 4 + 3 * (difficulty - 1)


def max_denominator(difficulty: int) -> int:
    return HARD_MAX_DENOMINATOR.get(difficulty, MAX_DENOMINATOR)


def coeff_slot(i: int, j: int) -> str:
    return f"A[{i}][{j}]"


@cache
def system_statement(n: int) -> str:
    xs = ", ".join(f"x{j}" for j in range(n))
    eq = " + ".join(f"A[i][{j}]·x{j}" for j in range(n))
    return (
        f"The unknowns {xs} satisfy a system of {n} linear equations, numbered 0 to {n - 1}: equation i reads "
        f"{eq} = b[i]. So A[i][j] is the coefficient of the unknown with index j in equation i, and b[i] is the "
        "right-hand side of equation i: the coefficients are "
        f"{', '.join(f'A[{i}][{j}]' for i in range(n) for j in range(n))} and the right-hand sides "
        f"{', '.join(f'b[{i}]' for i in range(n))}. Every coefficient A[i][j] is an integer, and the system has "
        "exactly one solution."
    )


def missing_statement(slot: str) -> str:
    i, j = parse_coeff(slot)
    return f"The coefficient {slot} (of x{j} in equation {i}) is not given here; your partner knows it."


def parse_coeff(slot: str) -> tuple[int, int]:
    return slots.parse_entry_slot(_COEFF, slot, "coefficient")


def cramer(a: list[list[int]], b: list[int], t: int) -> Fraction:
    """x_t = det(A with column t replaced by b) / det(A); ``NotUnique`` when A is singular."""
    d = det(a)
    if d == 0:
        raise NotUnique("singular coefficient matrix")
    return Fraction(det([[*row[:t], bi, *row[t + 1:]] for row, bi in zip(a, b, strict=True)]), d)


class LinearSystemMissingCoeff(Family):
    name = "linear_system_missing_coeff"
    prefix = "lin"
    type = "B"
    answer_type = "rational"

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n, k = difficulty + 1, coeff_bound(difficulty)
        a = [[rng.randint(-k, k) for _ in range(n)] for _ in range(n)]
        b = [rng.randint(-RHS_BOUND, RHS_BOUND) for _ in range(n)]
        i, j, t = rng.randrange(n), rng.randrange(n), rng.randrange(n)
        d = det(a)
        if d == 0:
            raise Reject("singular coefficient matrix")
        xt, cap = cramer(a, b, t), max_denominator(difficulty)
        if xt.denominator > cap:
            raise Reject(f"x{t} has a denominator above {cap}")
        if cramer(a, b, j) == 0:
            raise Reject(f"x{j} = 0: x{t} does not depend on A[{i}][{j}]")
        # (A^-1)[t][i] = cofactor C[i][t] / det(A)
        if det(minor(a, i, t)) == 0:
            raise Reject(f"(A^-1)[{t}][{i}] = 0: x{t} does not depend on A[{i}][{j}]")
        return {"n": n, "coeff_bound": k, "A": a, "b": b, "missing": [i, j], "target_index": t}

    def views(self, z: dict[str, Any]) -> Views:
        n, a, b = z["n"], z["A"], z["b"]
        i, j = z["missing"]
        t = z["target_index"]
        slot = coeff_slot(i, j)
        coeffs = [{"type": "coeff", "row": r, "col": c, "value": a[r][c]} for r in range(n) for c in range(n)]
        hint = coeffs[i * n + j]
        view: list[Constraint] = [{"type": "domain", "statement": system_statement(n), "n": n}]
        view += [missing_slot_note(slot, missing_statement(slot)) if c is hint else c
                 for c in coeffs]
        view += [{"type": "rhs", "row": r, "value": b[r]} for r in range(n)]
        return Views(
            a=view,
            b=[hint],
            hint=hint,
            slot=slot,
            value=hint["value"],
            target={"type": "solution_component", "var": f"x{t}", "index": t},
            question=f"What is x{t}? Give it as a reduced fraction.",
            unknowns=[f"x{t}"],
        )

    # ------------------------------------------------------------------ solving from constraints
    @staticmethod
    def _size(constraints: list[Constraint]) -> int:
        return stated_size(constraints, "n", system_statement, "system", minimum=1)

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> Fraction:
        n = self._size(constraints)
        known: dict[tuple, int] = {}
        for c in constraints:
            if c["type"] == "coeff":
                key, inside = ("A", c["row"], c["col"]), 0 <= c["row"] < n and 0 <= c["col"] < n
                what = coeff_slot(c["row"], c["col"])
            elif c["type"] == "rhs":
                key, inside, what = ("b", c["row"]), 0 <= c["row"] < n, f"b[{c['row']}]"
            else:
                continue
            val = c["value"]
            if isinstance(val, bool) or not isinstance(val, int):
                raise Inconsistent(f"{what} = {val!r} is not an integer")
            if not inside:
                raise Inconsistent(f"{what} is outside the {n}-equation system")
            if known.setdefault(key, val) != val:
                raise Inconsistent(f"two values for {what}")
        t = target["index"]
        if not 0 <= t < n or target["var"] != f"x{t}":
            raise Inconsistent("the target is not an unknown of the system")
        slots = [("A", r, c) for r in range(n) for c in range(n)] + [("b", r) for r in range(n)]
        missing = [s for s in slots if s not in known]
        if not missing:
            return self._component(known, n, t)
        if len(missing) > 1:
            raise NotUnique(f"{len(missing)} numbers of the system are not given")
        # x_t is a Moebius function of one coefficient (affine in one b[i]): equal values at two admissible
        # integers mean it is constant over all of them
        (slot,) = missing
        values: list[Fraction] = []
        for guess in (0, 1, -1, 2, -2, 3):
            try:
                values.append(self._component({**known, slot: guess}, n, t))
            except Inconsistent:
                continue
            if len(values) == 2:
                break
        if len(values) == 2 and values[0] == values[1]:
            return values[0]
        raise NotUnique("the missing number changes the target")

    @staticmethod
    def _component(known: dict[tuple, int], n: int, t: int) -> Fraction:
        a = [[known["A", r, c] for c in range(n)] for r in range(n)]
        b = [known["b", r] for r in range(n)]
        try:
            return cramer(a, b, t)
        except NotUnique:
            raise Inconsistent("the system does not have exactly one solution") from None

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        return slots.nearby_values(hint)

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: any other coefficient A[i'][j'] (the same list as the hint)."""
        return [HintSlot(c, coeff_slot(c["row"], c["col"]), c["value"]) for c in views.a if c["type"] == "coeff"]

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The coefficients A[i][j] (row by row), then b[0]..b[n-1], that A is given no value for."""
        n = self._size(view_a)
        declared = [coeff_slot(r, c) for r in range(n) for c in range(n)] + [f"b[{r}]" for r in range(n)]
        return absent_slots(self, declared, view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> Fraction:
        return solve_square(z["A"], z["b"])[z["target_index"]]  # elimination, not determinants

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        return _FACTS.render(c)

    def slot_name(self, c: Constraint) -> str | None:
        return _FACTS.slot_name(c)

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if m := _RHS.match(slot):
            i = m.group(1)
            return [
                f"the right-hand side b[{i}]",
                *slots.component_notations("b", i),
                f"the right-hand side of equation {i}",
                f"the constant term of equation {i}",
            ]
        i, j = parse_coeff(slot)
        return [
            f"the coefficient A[{i}][{j}]",
            *slots.entry_notations("A", i, j),
            f"a_{i}{j}",
            f"a{i}{j}",
            f"A({i},{j})",
            f"the coefficient of x{j} in equation {i}",
            f"the x{j} coefficient in equation {i}",
            *slots.entry_positions("A", i, j),
            f"the coefficient in row {i}, column {j}",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "coeff":
            return None
        r, k = c["row"], c["col"]
        meanings = [f"the coefficient of x{k} in equation {r}", f"the coefficient of x{k} in row {r}"]
        for row_word in ordinal_words(r + 1):
            meanings += [f"the coefficient of x{k} in the {row_word} equation"]
            meanings += [f"the {w} coefficient of the {row_word} equation" for w in ordinal_words(k + 1)]
            meanings += [f"the {row_word} equation's x{k} coefficient",
                         f"the {row_word} equation's coefficient of x{k}",
                         f"the factor on x{k} in the {row_word} equation"]
        ro, co = ordinal_words(r + 1)[0], ordinal_words(k + 1)[0]
        meanings += [
            f"the multiplier of x{k} in equation {r}", f"the number in front of x{k} in equation {r}",
            f"the number multiplying x{k} in equation {r}", f"what x{k} is multiplied by in equation {r}",
            f"x{k}'s coefficient in equation {r}", f"the weight on x{k} in equation {r}",
            f"the coefficient on x{k} in row {r}", f"the coefficient of the unknown x{k} in equation {r}",
            f"the coefficient of unknown {k} in equation {r}", f"the coefficient of variable {k} in equation {r}",
            f"equation {r}'s coefficient of x{k}", f"equation {r}'s x{k} coefficient",
            f"the coefficient of the x{k} term in equation {r}", f"the x{k} term's coefficient in equation {r}",
            f"the coefficient attached to x{k} in equation {r}", f"how many x{k} appear in equation {r}",
            f"the coefficient of x{k} on the left side of equation {r}",
            f"the entry of the coefficient matrix at row {r}, column {k}",
            f"the coefficient matrix entry at ({r},{k})", f"the ({r},{k}) entry of the coefficient matrix",
            f"row {r}, column {k} of the coefficient matrix", f"the matrix coefficient in row {r} and column {k}",
            f"the system matrix entry in row {r}, column {k}", f"the {co} coefficient in equation {r}",
            f"the {co} coefficient in the {ro} equation", f"the {co} number on the left of equation {r}",
            f"the {co} term's coefficient in the {ro} equation",
        ]
        return SlotDescription("coefficient", (r, k), axes=("row", "column"), base=0, owner="A",
                               synonyms=("entry", "matrix entry"), meanings=tuple(meanings))


FAMILY = LinearSystemMissingCoeff()
