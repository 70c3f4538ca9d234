"""A9 piecewise_missing_threshold: A knows the query point and both branches, B holds the threshold t.

``f(x) = a0·x + b0`` if ``x < t`` and ``f(x) = a1·x + b1`` if ``x >= t``. Slopes are drawn from
``[-(2+d), 2+d]``, intercepts from ``[-(4+2d), 4+2d]``, the query point and the threshold from
``[-(5+3d), 5+3d]`` (all integers). The paper's rules: ``x != t`` and the two branch values at ``x``
differ. A is told that ``t`` is an integer in ``[-(5+3d), 5+3d]`` other than ``x``; so that A's view
really leaves the active branch open, the query point is also kept off the ends of that interval (at
``x = ±(5+3d)`` every admissible ``t`` lies on one side of ``x``).

Hard tier (docs/hard-tier.md): d4 and d5 take the same rule two steps further, (2+d, 4+2d, 5+3d) = (6, 12, 17)
and (7, 14, 20). At k = 2 the second withheld fact is of another kind: the branch formula that is active at the
query point (the other one would not be needed once t is known). A is told f's form (two affine branches with
integer coefficients, switching at t, named "branch x < t" and "branch x >= t"; at k = 1 too), naming no value, and
each branch fact names its branch and a_i, b_i. B holds t and that branch and gives up the query
point: with x as well, B's view alone would give f(x).
"""

from __future__ import annotations

import random
from dataclasses import replace
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
from generators.describe import SlotDescription
from generators.errors import Inconsistent, NotUnique

BRANCH_SLOTS = {"lt": "branch x < t", "geq": "branch x >= t"}
FORM_STATEMENT = ("f is piecewise affine with two branches, branch x < t: f(x) = a0·x + b0 if x < t, and "
                  "branch x >= t: f(x) = a1·x + b1 if x >= t, where a0, b0, a1 and b1 are integers.")
FORM = {"type": "domain", "statement": FORM_STATEMENT, "var": "f"}


def ranges(difficulty: int) -> tuple[int, int, int]:
    """(slope bound, intercept bound, query/threshold bound) = (2+d, 4+2d, 5+3d)."""
    return 2 + difficulty, 4 + 2 * difficulty, 5 + 3 * difficulty


def affine_text(slope: int, intercept: int) -> str:
    if slope == 0:
        return str(intercept)
    head = "x" if slope == 1 else "-x" if slope == -1 else f"{slope}x"
    if intercept == 0:
        return head
    return f"{head} + {intercept}" if intercept > 0 else f"{head} - {-intercept}"


def evaluate(x: int, t: int, branches: list[dict[str, int]]) -> int:
    active = branches[0] if x < t else branches[1]
    return active["slope"] * x + active["intercept"]


def branch_parts(i: int, relation: str) -> list[str]:
    """More names of one branch: it is one fact with two numbers (like a congruence), so a request for its slope,
    its intercept or both asks for it; and f written on its side of the threshold."""
    return [f"b{i} and a{i}", f"a{i}, b{i}", f"a{i}", f"b{i}", f"the slope a{i}", f"the intercept b{i}",
            f"f(x) for x {relation} t", f"f(x) if x {relation} t", f"f(x) when x {relation} t"]


class PiecewiseMissingThreshold(Family):
    name = "piecewise_missing_threshold"
    prefix = "pie"
    type = "A"
    answer_type = "int"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        slope_max, intercept_max, point_max = ranges(difficulty)
        branches = [
            {"slope": rng.randint(-slope_max, slope_max), "intercept": rng.randint(-intercept_max, intercept_max)}
            for _ in range(2)
        ]
        x = rng.randint(-point_max, point_max)
        t = rng.randint(-point_max, point_max)
        if x == t:
            raise Reject("the query point sits on the threshold")
        if branches[0]["slope"] * x + branches[0]["intercept"] == branches[1]["slope"] * x + branches[1]["intercept"]:
            raise Reject("both branches give the same value at x")
        if abs(x) == point_max:
            raise Reject("at the end of the threshold range only one branch can be active")
        if difficulty >= 4 and evaluate(x, t, branches) == 0:
            raise Reject("the hard tier keeps the guess floor low: f(x) = 0 would be answered by guessing 0")
        return {"difficulty": difficulty, "branches": branches, "x": x, "threshold": t}

    def views(self, z: dict[str, Any]) -> Views:
        point_max = ranges(z["difficulty"])[2]
        query = {"type": "query_point", "x": z["x"]}
        hard = z["difficulty"] >= 4  # branches named as f's form names them, the form stated at k = 1 and 2 alike
        lower, upper = (
            {"type": "branch_formula", "branch": i, **z["branches"][i], "condition": cond, **({"named": True} if hard
                                                                                              else {})}
            for i, cond in enumerate(("lt", "geq"))
        )
        threshold = {"type": "threshold", "value": z["threshold"]}
        domain = {
            "type": "domain",
            "statement": f"The threshold t is an integer with -{point_max} <= t <= {point_max} and t != x.",
            "var": "t",
            "integer": True,
            "min": -point_max,
            "max": point_max,
            "excludes_query_point": True,
        }
        notice = missing_slot_note("t", "The value of the threshold t is not given to you (your partner knows it).")
        return Views(
            a=[query, lower, upper, domain, *([{**FORM}] if hard else []), notice],
            b=[query, threshold],
            hint=threshold,
            slot="t",
            value=z["threshold"],
            target={"type": "function_value", "function": "f", "at": "query_point"},
            question=f"What is f({z['x']}), the value of the piecewise function f at the query point x = {z['x']}? "
            "Give an integer.",
            unknowns=[f"f({z['x']})"],
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        x = one(constraints, "query_point")["x"]
        branches: dict[str, Constraint] = {}
        for c in by_type(constraints, "branch_formula"):
            if c["condition"] in branches and branches[c["condition"]] != c:
                raise Inconsistent(f"two different branches for condition {c['condition']}")
            branches[c["condition"]] = c
        values = {cond: b["slope"] * x + b["intercept"] for cond, b in branches.items()}
        domains = [c for c in by_type(constraints, "domain") if c.get("var") == "t"]
        thresholds = sorted({c["value"] for c in by_type(constraints, "threshold")})
        if len(thresholds) > 1:
            raise Inconsistent("two different thresholds")
        for t in thresholds:
            if not isinstance(t, int):
                raise Inconsistent(f"threshold {t!r} is not an integer")
            for dom in domains:
                if not dom["min"] <= t <= dom["max"] or (dom.get("excludes_query_point") and t == x):
                    raise Inconsistent(f"t = {t} is outside the stated range of t")
            active = "lt" if x < t else "geq"
            if active not in values:
                raise NotUnique(f"the formula of the active branch ({BRANCH_SLOTS[active]}) is missing")
            return values[active]
        # t unknown: which branches can be active for some admissible t?
        possible = {"lt", "geq"}
        for dom in domains:
            skip = x if dom.get("excludes_query_point") else None
            possible &= {"lt" if x < t else "geq" for t in range(dom["min"], dom["max"] + 1) if t != skip}
        if not possible <= set(values):
            raise NotUnique("f is not fully known: a branch formula that may be active is missing")
        outcomes = sorted({values[cond] for cond in possible})
        if not outcomes:
            raise Inconsistent("no admissible threshold")
        if len(outcomes) > 1:
            raise NotUnique(f"f(x) is {outcomes[0]} or {outcomes[1]} depending on t")
        return outcomes[0]

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The parts of f(x) that A holds no value for (a stated range of t is not a value): here t.

        f(x) is fixed by the query point x, the two branch formulas and the threshold t that the branch
        conditions name.
        """
        return absent_slots(self, ("x", *BRANCH_SLOTS.values(), "t"), view_a)

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: the branch formula active at the query point as well as t (a fact of another kind)."""
        active = "lt" if z["x"] < z["threshold"] else "geq"
        branch = next(c for c in by_type(views.a, "branch_formula") if c["condition"] == active)
        return [HintSlot(branch, BRANCH_SLOTS[active], {"slope": branch["slope"], "intercept": branch["intercept"]})]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """A is told f's form (naming no value); B gives up the query point, with which it would know f(x)."""
        views = super().withhold(views, second)
        form = [] if FORM in views.a else [{**FORM}]
        return replace(views, a=[*views.a, *form], b=[c for c in views.b if c["type"] != "query_point"])

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        """Other integer thresholds in A's stated range, those on the other side of x first; for a branch, the
        formula with another integer intercept or slope."""
        if hint["type"] == "branch_formula":
            for key, delta in (("intercept", 1), ("intercept", -1), ("slope", 1), ("slope", -1)):
                yield {**hint, key: hint[key] + delta}
            return
        x = one(view_a, "query_point")["x"]
        dom = next((c for c in by_type(view_a, "domain") if c.get("var") == "t"), None)
        lo, hi = (dom["min"], dom["max"]) if dom else (hint["value"] - 3, hint["value"] + 3)
        candidates = [t for t in range(lo, hi + 1) if t != x]
        other_side = [t for t in candidates if (t > x) != (hint["value"] > x)]
        same_side = [t for t in candidates if (t > x) == (hint["value"] > x)]
        for t in other_side + same_side:
            yield {**hint, "value": t}

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "query_point":
                return f"The query point is x = {c['x']}."
            case "branch_formula":
                cond = "x < t" if c["condition"] == "lt" else "x >= t"
                text = f"f(x) = {affine_text(c['slope'], c['intercept'])} if {cond}"
                if c.get("named"):  # the hard tier: the branch and its numbers in the notation of f's form
                    i = 0 if c["condition"] == "lt" else 1
                    return f"branch {cond}: {text}, i.e. a{i} = {c['slope']}, b{i} = {c['intercept']}"
                return text
            case "threshold":
                return f"threshold: t = {c['value']}"
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        match slot:
            case "t":
                return [
                    "the threshold t",
                    "t",
                    "the threshold",
                    "the value of the threshold t",
                    "the value of t",
                    "the breakpoint t",
                    "the switching point of f",
                    "where f switches from one branch to the other",
                ]
            case "x":
                return ["the query point x", "x", "the query point", "the point where f is evaluated"]
            case "branch x < t":
                return ["the branch of f for x < t", "the formula of f for x < t", "the lower branch", "a0 and b0",
                        *branch_parts(0, "<")]
            case "branch x >= t":
                return ["the branch of f for x >= t", "the formula of f for x >= t", "the upper branch", "a1 and b1",
                        *branch_parts(1, ">=")]
        raise KeyError(f"unknown slot {slot!r}")

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] == "branch_formula":
            side, index = ("x < t", 0) if c["condition"] == "lt" else ("x >= t", 1)
            return SlotDescription("branch", (index,), base=0, attribute="formula", kind="branch",
                                   synonyms=("piece", "branch formula", "formula"), meanings=(
                                       f"the formula of f for {side}", f"the branch of f for {side}",
                                       f"f for {side}", f"a{index} and b{index}",
                                       f"the slope and intercept for {side}", *_branch_meanings(index)))
        if c["type"] != "threshold":
            return None
        return SlotDescription("threshold", synonyms=("breakpoint", "cut-off", "cutoff", "switch point", "change point",
                                                      "parameter", "switch", "switchover"), meanings=(
            "where the function switches", "where f switches",
            "where the function switches from one formula to the other", "the point where the formula changes",
            "where the formula changes", "where the branches change", "the boundary between the two branches",
            "the boundary between the branches", "where the two branches meet",
            "the switchover point", "the switch over point", "the changeover point", "the breakpoint of f",
            "the value of x where f switches", "the x value where the formula changes", "the dividing point",
            "where the piecewise function changes", "the point separating the two branches",
            "switch from one formula to the other", "switches from one formula to the other", "function switch",
            "f switch", "switch formulas", "switch branches", "two branches meet", "branches meet",
            "x do the two branches meet", "x does the function switch", "x does f switch", "x does f change",
            "where the definition changes", "where the definition of f changes", "where the rule changes",
            "where f changes", "where the function changes", "the piece boundary", "the boundary between the pieces",
            "the boundary between the two pieces", "where the second formula takes over",
            "where the other formula takes over",
            "where the second piece takes over", "where the second branch takes over", "the crossover point",
            "the transition point of f", "where f changes formula", "where the function changes formula",
            "the x-coordinate of the breakpoint", "the location of the breakpoint", "the cutoff between the branches",
            *(f"{x} {v} the {a} {p} from the {b}" for x in ("x", "x value") for v in ("separates", "that separates")
              for a, b in (("first", "second"), ("left", "right")) for p in ("piece", "formula", "branch")),
            "x value separates the two pieces", "x value that separates the two pieces", "x separates the two pieces",
            # "At what x does f stop using ...", "Below which x-value does f use ...": a question for an x of f
            *(f"{w} {x} does {f}" for w in ("what", "which") for x in ("x", "x value", "x onward", "x onwards")
              for f in ("f", "the function"))))

    def slot_name(self, c: Constraint) -> str | None:
        match c["type"]:
            case "threshold":
                return "t"
            case "query_point":
                return "x"
            case "branch_formula":
                return BRANCH_SLOTS[c["condition"]]
        return None

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        return evaluate(z["x"], z["threshold"], z["branches"])


FAMILY = PiecewiseMissingThreshold()


def _branch_meanings(index: int) -> tuple[str, ...]:
    """More ways to ask for one branch's formula in words: branch 0 holds for x < t (below, before the threshold;
    a0 and b0), branch 1 for x >= t (at or above, after it; a1 and b1). Never "left" or "right": "the right piece"
    sits inside the threshold's "separates the left piece from the right piece", and readers say "right" of the
    threshold's side too."""
    lower = index == 0
    cond = "x < t" if lower else "x >= t"
    words = ("less than t", "below t") if lower else ("at least t", "greater than or equal to t")
    where = ("below", "before", "under") if lower else ("at or above", "after", "past")
    level, size = ("lower", "small") if lower else ("upper", "large")
    a, b = f"a{index}", f"b{index}"
    out = [f"the formula f uses when {cond}", f"the formula used for {cond}", f"the rule for {cond}",
           f"the expression for f when {cond}", f"the expression of f for {cond}", f"the line for {cond}",
           f"the linear piece for {cond}", f"the affine piece for {cond}", f"the equation of f for {cond}",
           f"f(x) for {cond}", f"f(x) when {cond}", f"what f is for {cond}", f"what f looks like for {cond}",
           f"how f is defined for {cond}", f"the definition of f for {cond}", f"slope and intercept for {cond}",
           f"the slope and intercept of the branch for {cond}",
           f"the coefficients {a} and {b}", f"the values of {a} and {b}", f"{a}, {b}", f"{a} and {b} of f",
           f"the slope {a} and intercept {b}", f"the {level} piece", f"the {level} formula",
           f"the {level}-branch formula", f"the {level} branch's formula", f"the equation of the {level} branch",
           f"the slope and intercept of the {level} branch", f"the formula for {size} x", f"the branch for {size} x",
           *(f"the formula when x is {w}" for w in words), *(f"the formula for x {w}" for w in words),
           *(f"the {noun} {w} the threshold" for noun in ("formula", "branch", "piece", "line") for w in where),
           *(f"the {noun} {w} the breakpoint" for noun in ("formula", "branch") for w in where)]
    return tuple(dict.fromkeys(out))
