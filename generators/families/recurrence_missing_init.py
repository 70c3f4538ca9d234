"""A11 recurrence_missing_init: A knows r1, r2 and a(0); B knows r1, r2 and a(1); target a(n*).

``a(n+2) = r1·a(n+1) + r2·a(n)`` with ``r1`` from ``[1, 3+d]``, ``r2`` from ``[-2, 2]``, ``a(0), a(1)``
from ``[-(3+d), 3+d]`` and ``n*`` from ``[4, 7+d]`` (all integers, the paper's setup ranges).

Since the recurrence is linear, ``a(n) = P(n)·a(0) + Q(n)·a(1)`` where ``P`` and ``Q`` are the
sequences started from ``(1, 0)`` and ``(0, 1)``. A's view pins ``a(n*)`` exactly when ``Q(n*) = 0``
and B's view exactly when ``P(n*) = 0`` (always when ``r2 = 0``), so both are rejected: the paper
says neither agent can compute ``a(n*)`` alone.

Hard tier (docs/hard-tier.md): d4 and d5 take the same rule two steps further, ``(3+d, 3+d, 7+d)`` =
``(7, 7, 11)`` and ``(8, 8, 12)`` (terms reach about 10^10 by hand). At k = 2 the second withheld fact is of
another kind: the recurrence rule ``(r1, r2)`` itself (B already holds it). A keeps a(0) and is told the form of
the rule with integer coefficients; a(1) alone leaves the rule open, the rule alone leaves a(1) open (Q(n*) != 0),
and B's view alone still misses a(0) (P(n*) != 0).
"""

from __future__ import annotations

import random
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Reject,
    Views,
    absent_slots,
    by_type,
    missing_slot_note,
    one,
)
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique

RULE_FORM = ("a(0), a(1), a(2), ... is a sequence of integers that satisfies a recurrence a(n+2) = r1·a(n+1) + "
             "r2·a(n) with integer coefficients r1 and r2 for every n >= 0.")


def ranges(difficulty: int) -> tuple[int, int, int]:
    """(r1 max, initial-value bound, n* max) = (3+d, 3+d, 7+d)."""
    return 3 + difficulty, 3 + difficulty, 7 + difficulty


def basis_terms(r1: int, r2: int, n: int) -> tuple[int, int]:
    """(P(n), Q(n)): the coefficients of a(0) and a(1) in a(n)."""
    p0, p1 = 1, 0  # P(0), P(1)
    q0, q1 = 0, 1  # Q(0), Q(1)
    if n == 0:
        return p0, q0
    for _ in range(n - 1):
        p0, p1 = p1, r1 * p1 + r2 * p0
        q0, q1 = q1, r1 * q1 + r2 * q0
    return p1, q1


def iterate(r1: int, r2: int, a0: int, a1: int, n: int) -> int:
    """a(n) by forward iteration."""
    seq = [a0, a1]
    while len(seq) <= n:
        seq.append(r1 * seq[-1] + r2 * seq[-2])
    return seq[n]


def term_text(coeff: int, name: str, first: bool) -> str:
    mag = abs(coeff)
    body = name if mag == 1 else f"{mag}·{name}"
    if first:
        return body if coeff > 0 else f"-{body}"
    return f"+ {body}" if coeff > 0 else f"- {body}"


class RecurrenceMissingInit(Family):
    name = "recurrence_missing_init"
    prefix = "rec"
    type = "A"
    answer_type = "int"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        r1_max, init_max, n_max = ranges(difficulty)
        r1 = rng.randint(1, r1_max)
        r2 = rng.randint(-2, 2)
        a0 = rng.randint(-init_max, init_max)
        a1 = rng.randint(-init_max, init_max)
        n = rng.randint(4, n_max)
        p, q = basis_terms(r1, r2, n)
        if q == 0:
            raise Reject("a(n*) does not depend on a(1): A's view alone would determine it")
        if p == 0:
            raise Reject("a(n*) does not depend on a(0): B's view alone would determine it")
        hard = {"difficulty": difficulty} if difficulty >= 4 else {}  # the paper split's latent state is unchanged
        return {"r1": r1, "r2": r2, "a0": a0, "a1": a1, "n": n, **hard}

    def views(self, z: dict[str, Any]) -> Views:
        rec = {"type": "recurrence", "coeffs": [z["r1"], z["r2"]]}
        init0 = {"type": "init", "index": 0, "value": z["a0"]}
        init1 = {"type": "init", "index": 1, "value": z["a1"]}
        domain = {
            "type": "domain",
            # the hard tier states the rule's form at k = 1 as at k = 2, so the view never tells k
            "statement": RULE_FORM if z.get("difficulty", 1) >= 4 else "a(0), a(1), a(2), ... is a sequence of "
            "integers that satisfies the recurrence for every n >= 0.",
            "integer": ["a(1)"],
        }
        notice = missing_slot_note("a(1)", "The initial value a(1) is an integer that is not given to you; your "
                                   "partner knows it.")
        n = z["n"]
        return Views(
            a=[rec, init0, domain, notice],
            b=[rec, init1],
            hint=init1,
            slot="a(1)",
            value=z["a1"],
            target={"type": "sequence_term", "sequence": "a", "index": n},
            question=f"What is a({n}), the term of the sequence with index {n}? Give an integer.",
            unknowns=[f"a({n})"],
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        r1, r2 = one(constraints, "recurrence")["coeffs"]
        known: dict[int, int] = {}
        for c in by_type(constraints, "init"):
            if c["index"] not in (0, 1):
                raise Inconsistent(f"a({c['index']}) is not an initial value")
            if not isinstance(c["value"], int) or isinstance(c["value"], bool):
                raise Inconsistent(f"a({c['index']}) = {c['value']!r} is not an integer")
            if known.setdefault(c["index"], c["value"]) != c["value"]:
                raise Inconsistent(f"two values for a({c['index']})")
        p, q = basis_terms(r1, r2, target["index"])
        missing = [i for i, coeff in ((0, p), (1, q)) if coeff != 0 and i not in known]
        if missing:
            raise NotUnique(f"a({target['index']}) depends on the unknown a({missing[0]})")
        return p * known.get(0, 0) + q * known.get(1, 0)

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The facts that fix the sequence which A holds no value for: the rule and the two initial values.

        A second-order recurrence is fixed by its rule and by a(0) and a(1); A's view holds the rule and a(0).
        """
        return absent_slots(self, ("recurrence", "a(0)", "a(1)"), view_a)

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: the recurrence rule as well as a(1) (a fact of another kind)."""
        rule = one(views.a, "recurrence")
        return [HintSlot(rule, "recurrence", list(rule["coeffs"]))]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        if hint["type"] == "recurrence":
            r1, r2 = hint["coeffs"]
            for d1, d2 in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                yield {**hint, "coeffs": [r1 + d1, r2 + d2]}
            return
        for delta in (1, -1, 2, -2):
            yield {**hint, "value": hint["value"] + delta}

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "recurrence":
                r1, r2 = c["coeffs"]
                rhs = term_text(r1, "a(n+1)", True) if r1 else ""
                if r2:
                    rhs = f"{rhs} {term_text(r2, 'a(n)', not rhs)}".strip()
                return f"Recurrence: a(n+2) = {rhs or '0'} for every n >= 0"
            case "init":
                return f"a({c['index']}) = {c['value']}"
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if slot == "recurrence":
            # one fact with two numbers, like a congruence: a request for r1, r2 or both asks for it
            return ["the recurrence", "the recurrence rule", "the coefficients r1 and r2", "r1 and r2",
                    "the recurrence relation", "the recurrence coefficients", "the coefficients of the recurrence",
                    "r2 and r1", "r1, r2", "r1", "r2", "the coefficient r1", "the coefficient r2",
                    "a(n+2) = r1·a(n+1) + r2·a(n)", "a(n+2) = r1*a(n+1) + r2*a(n)"]
        if slot.startswith("a(") and slot.endswith(")"):
            i = slot[2:-1]
            ordinal = {"0": "first", "1": "second"}.get(i, f"index-{i}")
            return [
                f"the initial value {slot}",
                slot,
                f"the value of {slot}",
                f"a_{i}",
                f"a{i}",
                f"a[{i}]",
                f"the initial condition {slot}",
                f"the {ordinal} initial condition",
                f"the {ordinal} term of the sequence",
                f"the term with index {i}",
            ]
        raise KeyError(f"unknown slot {slot!r}")

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] == "recurrence":
            return SlotDescription("recurrence", synonyms=("recurrence rule", "recurrence relation", "rule"),
                                   kind="recurrence", meanings=(
                                       "the coefficients r1 and r2", "the recurrence coefficients",
                                       "the rule of the sequence", "how each term follows from the previous two",
                                       "the two recurrence coefficients", "the multipliers in the recurrence",
                                       "the weights on the previous two terms", "how a(n+2) depends on a(n+1) and a(n)",
                                       "the linear rule generating the sequence",
                                       "the rule that generates the sequence",
                                       "the recursive formula", "the recursion formula", "the recurrence formula",
                                       "the coefficient on a(n+1)", "the coefficient of a(n+1)",
                                       "the coefficient on a(n)", "the coefficient of a(n)",
                                       "the multiplier of the previous term", "the values of r1 and r2",
                                       "the characteristic polynomial of the recurrence",
                                       "the characteristic equation of the recurrence", "how the next term is computed",
                                       "the formula for the next term", "how each term is built from the two before it",
                                       "the relation between consecutive terms", "the update rule of the sequence",
                                       "the constants in the recurrence", "the numbers r1 and r2",
                                       "the recurrence's coefficients", "the recursion's coefficients"))
        if c["type"] != "init":
            return None
        i = c["index"]
        steps = () if i == 0 else tuple(
            f"{w} {n} step{'s' if i > 1 else ''} after {start}" for n in (("one", "1") if i == 1 else (str(i),))
            for w in ("the value", "the term", "value", "take") for start in ("the start", "it starts", "its start",
                                                                             "its starting term", "the first term"))
        return SlotDescription("initial value", (i,), base=0, synonyms=("initial term", "initial condition", "seed",
                                                                         "seed value", "sequence value", "term"),
                               kind="initial value", meanings=(
                                   f"the term just before a({i + 1})", f"the term before a({i + 1})",
                                   f"the term right before a({i + 1})", f"the term preceding a({i + 1})",
                                   f"the value just before a({i + 1})", f"the term with index {i}",
                                   f"the sequence value at n = {i}", f"the value of the sequence at n = {i}",
                                   f"the term at n = {i}", *steps, *_init_meanings(i)))

    def slot_name(self, c: Constraint) -> str | None:
        if c["type"] == "init":
            return f"a({c['index']})"
        if c["type"] == "recurrence":
            return "recurrence"
        return None

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        return iterate(z["r1"], z["r2"], z["a0"], z["a1"], z["n"])


def _init_meanings(i: int) -> tuple[str, ...]:
    """More domain phrases for the initial value a(i), counted from a(0) = "the first" as the aliases count."""
    nth = ordinal_words(i + 1)[0]
    common = (f"the {nth} starting value", f"the {nth} starting term", f"the {nth} number in the sequence",
              f"the {nth} entry of the sequence", f"the {nth} value of the sequence",
              f"the {nth} term of the recurrence",
              f"the {nth} of the two starting values", f"the {nth} of the two initial terms")
    if i == 0:
        return (*common, "the very first term", "the term the sequence starts with", "the value the sequence starts at",
                "the opening term of the sequence", "the zeroth term", "the starting point of the sequence",
                "the term two steps before a(2)", "the value the recurrence starts from")
    return (*common, "the term right after a(0)", "the term following a(0)", "the value that comes after a(0)")


FAMILY = RecurrenceMissingInit()
