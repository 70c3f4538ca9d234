"""B9 poly_interpolation: A knows delta of the delta+1 interpolation points of p; B holds the last value.

Paper (Appendix C, B9): p has degree delta = 2 + min(d, 2) (3 / 4 / 4) with delta + 1 integer coefficients
drawn from [-(3+d), 3+d]; delta + 1 distinct integer evaluation points; target p(x*) at a fresh query point.
A gets delta pairs (x_i, p(x_i)); B gets the remaining pair; which pair is held back varies per instance.

Our decisions (see docs/deviations):

* A is told the degree exactly ("degree exactly delta", so the leading coefficient is drawn non-zero) and that
  the coefficients are integers; the coefficient range is *not* stated (it would let integrality pin p).
  The completions of A's view are p + k * prod_{i in A}(x - x_i) for integers k with the leading coefficient
  t + k != 0: infinitely many, and p(x*) moves with k because x* is not an interpolation point.
* A is told every evaluation point x (the domain statement lists them, machine field ``eval_points``) and the
  values at all but one: the held-back x is the one listed without a value, so A can name the slot precisely
  (slot ``p(1)``) without being told which it is (only the slot-notice ablation says so). The atomic fact B holds
  is the value at that x.
* Evaluation points: delta + 1 distinct integers from [-3, 3]; query point x* from [-4, 4] outside them.

Hard tier (docs/hard-tier.md): the degree cap min(d, 2) is lifted for d >= 4, delta = d + 1 (5 / 6), with
coefficients in [-(3+d), 3+d] as before (7 / 8); the points come from [-4, 4] and x* from [-5, 5] (seven points
of [-3, 3] would leave x* only the two ends). At k = 2 B also holds the value at a second evaluation point (any
other one, uniform); A's statement already lists every point, so nothing is restated.
"""

from __future__ import annotations

import random
import re
from math import gcd
from typing import Any

from generators.base import Constraint, Family, HintSlot, Views, absent_slots, by_type, missing_slot_note
from generators.describe import SlotDescription
from generators.errors import Inconsistent, NotUnique

POINT_RANGE = (-3, 3)
QUERY_RANGE = (-4, 4)
HARD_POINT_RANGE = (-4, 4)  # d >= 4
HARD_QUERY_RANGE = (-5, 5)
_SLOT = re.compile(r"^p\((-?\d+)\)$")


def degree_for(difficulty: int) -> int:
    return 2 + min(difficulty, 2) if difficulty <= 3 else difficulty + 1


def ranges_for(difficulty: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The evaluation points' range and the query point's range."""
    return (POINT_RANGE, QUERY_RANGE) if difficulty <= 3 else (HARD_POINT_RANGE, HARD_QUERY_RANGE)


def coefficient_bound(difficulty: int) -> int:
    return 3 + difficulty


def horner(coeffs: list[int], x: int) -> int:
    """p(x) for coefficients listed constant term first."""
    acc = 0
    for c in reversed(coeffs):
        acc = acc * x + c
    return acc


def interpolate(points: list[tuple[int, int]]) -> tuple[list[int], int]:
    """The polynomial of degree < len(points) through integer points, as (N, L) with p = N / L.

    Lagrange form over a common denominator, in integers: p = sum_i y_i q_i / w_i where
    q_i = prod_{j != i} (x - x_j) and w_i = q_i(x_i); L = lcm |w_i| and N = sum_i y_i (L / w_i) q_i.
    p has integer coefficients iff L divides every coefficient of N.
    """
    xs = [x for x, _ in points]
    full = vanishing_poly(xs)
    basis, weights = [], []
    for xi in xs:
        # synthetic division of prod (x - x_j) by (x - x_i)
        q = [0] * (len(full) - 1)
        carry = 0
        for k in range(len(full) - 1, 0, -1):
            carry = full[k] + carry * xi if k < len(full) - 1 else full[k]
            q[k - 1] = carry
        basis.append(q)
        weights.append(horner(q, xi))
    lcm = 1
    for w in weights:
        lcm = lcm * abs(w) // gcd(lcm, abs(w))
    numer = [0] * len(xs)
    for (_, y), q, w in zip(points, basis, weights, strict=True):
        scale = y * (lcm // w)
        if scale:
            for k, c in enumerate(q):
                numer[k] += scale * c
    return numer, lcm


def poly_statement(delta: int, xs: list[int]) -> str:
    return (
        f"p is a polynomial in x of degree exactly {delta} (its x^{delta} coefficient is not zero) with integer "
        f"coefficients. It has been evaluated at the {delta + 1} points x = {', '.join(str(x) for x in xs)}, "
        f"giving the values {', '.join(f'p({x})' for x in xs)}."
    )


def vanishing_poly(xs: list[int]) -> list[int]:
    """Coefficients (constant first) of prod (x - x_i)."""
    coeffs = [1]
    for r in xs:
        nxt = [0, *coeffs]
        for i, c in enumerate(coeffs):
            nxt[i] -= r * c
        coeffs = nxt
    return coeffs


class PolyInterpolation(Family):
    name = "poly_interpolation"
    prefix = "pol"
    type = "B"
    answer_type = "int"

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        delta = degree_for(difficulty)
        bound = coefficient_bound(difficulty)
        coeffs = [rng.randint(-bound, bound) for _ in range(delta)]
        nonzero = [c for c in range(-bound, bound + 1) if c != 0]
        coeffs.append(rng.choice(nonzero))  # "degree delta": the leading coefficient is drawn non-zero
        point_range, query_range = ranges_for(difficulty)
        xs = sorted(rng.sample(range(point_range[0], point_range[1] + 1), delta + 1))
        query_pool = [x for x in range(query_range[0], query_range[1] + 1) if x not in xs]
        query_x = rng.choice(query_pool)
        hidden = rng.randrange(delta + 1)
        return {
            "degree": delta,
            "coeffs": coeffs,
            "xs": xs,
            "ys": [horner(coeffs, x) for x in xs],
            "hidden_index": hidden,
            "query_x": query_x,
        }

    # ------------------------------------------------------------------ views
    def views(self, z: dict[str, Any]) -> Views:
        delta, hidden = z["degree"], z["hidden_index"]
        points = [{"type": "point", "x": x, "y": y} for x, y in zip(z["xs"], z["ys"], strict=True)]
        hint = points[hidden]
        xh = hint["x"]
        slot = f"p({xh})"
        definition = {"type": "domain", "statement": poly_statement(delta, z["xs"]), "eval_points": list(z["xs"])}
        missing = missing_slot_note(
            slot,
            f"The value {slot} (p at x = {xh}) is not given; your partner knows it. "
            f"All the other evaluations are listed.",
        )
        a = [definition, *[p for i, p in enumerate(points) if i != hidden], missing]
        qx = z["query_x"]
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=slot,
            value=hint["y"],
            target={"type": "poly_value", "poly": "p", "x": qx, "degree": delta},
            question=f"What is p({qx}), the value of the polynomial p at x = {qx}? Give the integer.",
            unknowns=[f"p({qx})"],
        )

    # ------------------------------------------------------------------ solving
    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        delta = target["degree"]
        values: dict[int, int] = {}
        for c in by_type(constraints, "point"):
            if values.setdefault(c["x"], c["y"]) != c["y"]:
                raise Inconsistent(f"two different values for p({c['x']})")
        if target["x"] in values:
            raise Inconsistent("the query point is one of the evaluation points")  # never generated
        if len(values) < delta + 1:
            if len(values) == delta:
                # every completion is p0 + k * prod(x - x_i) (k integer): p0 needs integer coefficients
                numer, lcm = interpolate(sorted(values.items()))
                if any(c % lcm for c in numer):
                    raise Inconsistent("no integer-coefficient polynomial of this degree fits the points")
            # p0 + k * prod(x - x_i) fits the points for every integer k != -lead(p0), and moves p(x*)
            raise NotUnique(f"{len(values)} of the {delta + 1} points needed for degree {delta}")
        xs = sorted(values)
        numer, lcm = interpolate([(x, values[x]) for x in xs[: delta + 1]])
        if any(c % lcm for c in numer):
            raise Inconsistent("the interpolating polynomial does not have integer coefficients")
        coeffs = [c // lcm for c in numer]
        for x in xs[delta + 1 :]:
            if horner(coeffs, x) != values[x]:
                raise Inconsistent(f"p({x}) does not lie on the degree-{delta} interpolant")
        if coeffs[delta] == 0:
            raise Inconsistent(f"the interpolating polynomial has degree below {delta}")
        return horner(coeffs, target["x"])

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        """p + k * prod_{i in A}(x - x_i): same integer coefficients, through A's points, other value at x_h."""
        others = [c["x"] for c in by_type(view_a, "point") if c["x"] != hint["x"]]
        step = horner(vanishing_poly(others), hint["x"])
        for k in (1, -1, 2, -2):
            yield {**hint, "y": hint["y"] + k * step}

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: the value at any other evaluation point (the same list as the hint)."""
        return [HintSlot(c, f"p({c['x']})", c["y"]) for c in by_type(views.a, "point")]

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The values p(x) at the stated evaluation points (in their order) that A is given no value for."""
        stated = [c for c in view_a if c["type"] == "domain" and "eval_points" in c]
        if len(stated) != 1:
            raise NotUnique("the evaluation points are not stated (once)")
        xs = stated[0]["eval_points"]
        if stated[0]["statement"] != poly_statement(len(xs) - 1, xs):
            raise Inconsistent("the evaluation points' statement does not match its fields")
        return absent_slots(self, [f"p({x})" for x in xs], view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        return horner(z["coeffs"], z["query_x"])

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        if c["type"] == "point":
            return f"p({c['x']}) = {c['y']}"
        if c["type"] == "domain":
            return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        return f"p({c['x']})" if c["type"] == "point" else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        m = _SLOT.match(slot)
        if m is None:
            return [slot]
        x = m.group(1)
        return [
            f"the value p({x})",
            f"p({x})",
            f"the value of p at x = {x}",
            f"the value of the polynomial at x = {x}",
            f"p(x) at x = {x}",
            f"the interpolation point at x = {x}",
            f"the missing point (x = {x}, p({x}))",
            f"the evaluation p({x})",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "point":
            return None
        x = c["x"]
        meanings = [f"the value of p at x = {x}", f"the value the polynomial takes at x = {x}",
                    f"the value of the polynomial at x = {x}", f"the value of the polynomial at {x}",
                    f"p evaluated at x = {x}", f"p evaluated at {x}", f"the polynomial evaluated at x = {x}",
                    f"the polynomial at x = {x}", f"the data point at x = {x}", f"the y value at x = {x}",
                    f"the sample at x = {x}", f"the point with x = {x}", f"the height of p at x = {x}",
                    f"its height at x = {x}", f"the height of the graph at x = {x}", f"p at {x}",
                    f"the value at x = {x}", f"the value at {x}",
                    *(f"{p} {verb} at x = {x}" for p in ("polynomial", "p", "p(x)")
                      for verb in ("take", "takes", "equal", "equals", "give", "gives", "have", "has")),
                    f"plug {x} into p", f"plug {x} into the polynomial", f"plugging x = {x} into p",
                    f"what comes out at x = {x}", f"the output of p at x = {x}", f"p's output at x = {x}",
                    f"the polynomial's value at x = {x}", f"the y coordinate at x = {x}", f"what p returns at x = {x}",
                    f"the point on the graph at x = {x}"]
        if x == 0:
            meanings += ["the constant term of p", "the constant term", "the constant coefficient",
                         "the constant term of the polynomial", "the y intercept", "the intercept of p",
                         "the value at the origin", "the value at zero"]
        # x is a label, not a position: "the last of the four evaluation points" counts among the others
        return SlotDescription("value", (x,), base=None, kind="point", attribute=f"p({x})", meanings=tuple(meanings),
                               synonyms=("data point", "sample", "evaluation", "interpolation point",
                                         "evaluation point", "sample point", "sample value"))


FAMILY = PolyInterpolation()
