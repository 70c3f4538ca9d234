"""A7 moment_problem: weights (q0, q1, q2) on the support {0, 1, 2} with q0 + q1 + q2 = D = 6 + 2d.

A knows the sum and the first moment q1 + 2 q2 = m1; B knows the sum and the second moment q1 + 4 q2 = m2
(the canonical hint); target (q0, q1, q2).

The paper draws q0, q1 from [1, D-2] with q2 = D - q0 - q1 > 0, so every weight is a positive integer; A is
told so. A's two equations leave one free parameter (q2), and positivity can pin it: the paper's own example
T4 (D = 12, m1 = 3) forces q2 = 1, q1 = 1 without B. Such instances are rejected.

Hard tier (docs/hard-tier.md): d4 and d5 take the same rule two steps further, D = 14 and D = 16. At k = 2 the
second withheld fact is the first moment m1 (the family's facts are all moment equations; the sum m0 cannot be
withheld, since A's domain statement gives D). B then holds m1 and m2 and gives up m0: with all three B would
settle the weights alone. A holds the box and m0; each moment alone leaves the weights open (rejected otherwise).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from generators.base import Constraint, HintSlot, Reject, Views, absent_slots, lin_text
from generators.describe import SlotDescription, ordinal_words
from generators.intlinalg import BoxFamily, integer_points, with_statement

VARS = ("q0", "q1", "q2")
# moment slot -> (coefficients k**j for k in the support {0, 1, 2}, label)
MOMENTS = {
    "m0": ((1, 1, 1), "sum (zeroth moment)"),
    "m1": ((0, 1, 2), "first moment"),
    "m2": ((0, 1, 4), "second moment"),
}


class MomentProblem(BoxFamily):
    name = "moment_problem"
    prefix = "mom"
    type = "A"
    answer_type = "dict_int"
    answer_keys = VARS

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        total = 6 + 2 * difficulty
        q0 = rng.randint(1, total - 2)
        q1 = rng.randint(1, total - 2)
        q2 = total - q0 - q1
        if q2 <= 0:
            raise Reject("q2 = D - q0 - q1 must be positive")
        weights = (q0, q1, q2)
        rows = [list(MOMENTS["m0"][0]), list(MOMENTS["m1"][0])]
        rhs = [sum(k * q for k, q in zip(row, weights, strict=True)) for row in rows]
        if len(integer_points(rows, rhs, 3, 1, total - 2, limit=2)) < 2:
            raise Reject("positivity already pins (q0, q1, q2) from the sum and the first moment")
        return {"weights": dict(zip(VARS, weights, strict=True)), "D": total}

    def _moment(self, slot: str, z: dict[str, Any]) -> Constraint:
        coeffs = MOMENTS[slot][0]
        return {
            "type": "lin_eq",
            "name": slot,
            "coeffs": dict(zip(VARS, coeffs, strict=True)),
            "rhs": sum(k * z["weights"][v] for k, v in zip(coeffs, VARS, strict=True)),
        }

    def views(self, z: dict[str, Any]) -> Views:
        total = z["D"]
        domain = with_statement(
            {"type": "domain", "integer": True, "lower": 1, "upper": total - 2, "total": total}, self.domain_text
        )
        m0, m1, m2 = (self._moment(s, z) for s in MOMENTS)
        return Views(
            a=[domain, m0, m1],
            b=[m0, m2],
            hint=m2,
            slot="m2",
            value=m2["rhs"],
            target={"type": "weights", "vars": list(VARS), "support": [0, 1, 2]},
            question="What are the weights (q0, q1, q2)? Give the three integers.",
            unknowns=list(VARS),
        )

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: the first moment m1 as well as m2 (A's domain statement gives the sum, so m0 is no gap)."""
        m1 = next(c for c in views.a if self.slot_name(c) == "m1")
        return [HintSlot(m1, "m1", m1["rhs"])]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """B gives up m0: with m0, m1 and m2 B's view alone would settle the weights."""
        views = super().withhold(views, second)
        return replace(views, b=[c for c in views.b if self.slot_name(c) != "m0"])

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The moment equations (m0, m1, m2) that A holds no value for."""
        return absent_slots(self, MOMENTS, view_a)

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "lin_eq":
                if c.get("name") not in MOMENTS:
                    return f"Equation: {lin_text(c['coeffs'], c['rhs'])}"
                label = MOMENTS[c["name"]][1]
                return f"{label[0].upper()}{label[1:]} {c['name']}: {lin_text(c['coeffs'], c['rhs'])}"
            case "domain":
                return self.domain_text(c)
        raise ValueError(f"unknown constraint type {c['type']!r}")

    @staticmethod
    def domain_text(c: Constraint) -> str:
        return (
            "q0, q1 and q2 are the unnormalised weights of a probability distribution on the support {0, 1, 2}: "
            f"integers with {c['lower']} <= qk <= {c['upper']} and q0 + q1 + q2 = {c['total']}, so "
            f"P(k) = qk/{c['total']}. Its moment equations are: the sum (zeroth moment) q0 + q1 + q2 = m0, the "
            "first moment q1 + 2q2 = m1 (= sum of k*qk) and the second moment q1 + 4q2 = m2 (= sum of k^2*qk)."
        )

    def slot_name(self, c: Constraint) -> str | None:
        return c.get("name") if c["type"] == "lin_eq" else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        coeffs, label = MOMENTS[slot]
        equation = lin_text(dict(zip(VARS, coeffs, strict=True)), slot)
        k = slot[1]
        common = [
            f"the {label.split(' (')[0]} equation {equation}",
            slot,
            f"the value of {slot}",
            f"the {label.split(' (')[0]} equation",
            f"the {label.split(' (')[0]}",
            equation,
            f"moment_{k}",
            f"the value of moment_{k}",
        ]
        extra = {
            "m0": ["the zeroth moment", "the 0th moment", "the total weight", "the sum q0 + q1 + q2"],
            "m1": ["the 1st moment", "the first-moment equation", "the mean equation", "sum of k*qk"],
            "m2": ["the 2nd moment", "the second-moment equation", "sum of k^2*qk", "the second moment value m2"],
        }[slot]
        return common + extra

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "lin_eq":
            return None
        k = int(c["name"][1:])
        meanings = (f"the sum of k^{k} q_k", f"the moment of order {k}", *_expectation(k), *_moment_meanings(k, c))
        # the orders are labels (base None), counted among all three from 0 (extent): the lowest, m0, would
        # otherwise read as "the first moment", m1's name; m0 takes no place and names itself (_moment_meanings)
        return SlotDescription("moment", (k,) if k else (), base=None, synonyms=("moment equation", "moment sum"),
                               meanings=meanings, extent=(len(MOMENTS),))

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["weights"][v] for v in VARS)


FAMILY = MomentProblem()


def _expectation(k: int) -> tuple[str, ...]:
    """The moment as an expectation: "E[K^2]", "\\mathbb{E}(K^2)" (k = 1: "E[K]")."""
    power = f"K^{k}" if k > 1 else "K" if k == 1 else ""
    if not power:
        return ()
    return tuple(f"{e}{o}{power}{c}" for e in ("E", "\\mathbb{E}") for o, c in ("[]", "()"))


def _moment_meanings(k: int, c: Constraint) -> tuple[str, ...]:
    """The moment of order ``k`` in words: raw / about the origin / unnormalised, its weighted sum over the
    support, its equation and right-hand side; m0 is the total weight, m1 the (unnormalised) mean."""
    nth = ("zeroth", "first", "second")[k] if k < 3 else f"order-{k}"
    terms = " + ".join(f"{a}{v}" if a > 1 else v for v, a in c["coeffs"].items() if a)
    nouns = ("moment", "moment equation", "moment sum")
    out = [*(f"{noun} {k}" for noun in nouns), *(f"{noun} number {k}" for noun in nouns), f"moment #{k}",
           *(f"the {w} {noun}" for w in (nth, ordinal_words(k)[1]) for noun in nouns),
           *(f"the {ordinal_words(k + 1)[0]} of the {c}{noun}s" for c in ("three ", "3 ", "") for noun in nouns),
           f"the {nth} raw moment", f"the raw {nth} moment", f"the {nth} moment about the origin",
           f"the {nth} moment about zero", f"the unnormalised {nth} moment", f"the unnormalized {nth} moment",
           f"the order {k} moment", f"the order-{k} moment", f"the moment of degree {k}", f"the degree {k} moment",
           f"the {nth} moment value", f"the value of the {nth} moment", f"what the {nth} moment equals",
           f"the {nth} moment constraint", f"the {nth} moment condition", f"the {nth} moment total",
           f"the equation for the {nth} moment", f"the right-hand side of the {nth} moment equation",
           f"the rhs of the {nth} moment equation", f"the {nth} moment's right-hand side",
           f"the {nth} moment of the distribution", f"the {nth} moment of the weights",
           f"the {nth} moment of q", f"the value of {terms}", f"what {terms} equals", f"what {terms} adds up to",
           f"the total {terms}", f"the weighted sum {terms}"]
    if k == 0:
        out += ["the total weight", "the sum of the weights", "the sum of all the weights", "the total of the weights",
                "the total of q0, q1 and q2", "what the weights add up to", "what q0, q1 and q2 add up to",
                "the total mass", "the normalising constant", "the normalizing constant", "the normalisation total",
                "moment 0", "the 0th moment", "the zeroth moment", "the zeroth moment equation",
                "the zeroth moment sum", "the moment equation of order 0", "the mass equation"]
    elif k == 1:
        out += ["the sum of k times q_k", "the sum of k*q_k", "the weighted sum of k",
                "the sum of k weighted by q_k", "the sum of each k times its weight", "the unnormalised mean",
                "the unnormalized mean", "the mean times the total weight", "the total of k times q_k",
                "the linear moment", "the expected value of K", "the expectation of K", "the mean of K",
                "the first moment equation", "the first moment sum"]
    elif k == 2:
        out += ["the sum of k squared times q_k", "the sum of k^2 times q_k", "the sum of k^2*q_k",
                "the sum of squares weighted by q_k", "the weighted sum of squares", "the weighted sum of k^2",
                "the weighted sum of k squared", "the sum of each k squared times its weight",
                "the total of k^2 times q_k", "the unnormalised mean square", "the unnormalized mean square",
                "the mean square", "the mean of K^2", "the expected square", "the expected value of K^2",
                "the expectation of K^2", "the expected value of K squared", "the quadratic moment",
                "the moment with k squared", "the k^2 moment", "the k squared moment", "the second moment equation",
                "the second moment sum", "the equation involving k^2"]
    return tuple(dict.fromkeys(out))
