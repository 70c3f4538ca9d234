"""A5 linear_system_separator: A knows two equations in a, b, c; B holds the value of c; target (a, b, c).

The solver is honest about the domain A is told (integers in [-(5+d), 5+d]): A's view alone is a line of
rational solutions, and the integer points of that line inside the box are enumerated; an instance whose
box holds only one of them (integrality and range would pin the answer) is rejected.

Any unknown whose value fixes the other two would complete A's equations (``candidate_slots``: 2 or 3 of a, b, c).
B's c names them all (docs/deviations/typeB-localization.md, "several candidates"): the hint carries ``settles``
(the other candidates), its text says that with the two equations it also settles them (never their values), and
a request for any one of them is a request for it.

Hard tier (docs/hard-tier.md): the box and the coefficient range keep growing with d (box [-(5+d), 5+d],
coefficients in [-(3+d), 3+d]: d4 9 and 7, d5 10 and 8) and so does the system: d unknowns (a, b, c, d at d4; a to e
at d5) in d - 1 equations, B still holding c. Such a system drawn at random almost never leaves two integer points
in the box, so ``sample_large`` draws the direction of A's solution line first (small entries, its c-entry +-1) and
then rows orthogonal to it (c's coefficient solved for, kept in range); the rejection rules are the paper's. At
k = 2, B also holds one of A's equations (a fact of another kind than c's value): the equation ``loose`` that the
sampler left off a second small direction (c fixed), so that with c alone A still has two integer points in the
box; A's domain statement names the system's equations (at k = 1 too), naming neither withheld fact as missing.
c's "also settles" text stays true: it speaks of all the equations together.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from generators.base import Constraint, HintSlot, Reject, Views, is_slot_notice, lin_text, missing_slot_note
from generators.describe import NUMBER_WORDS, ORDINALS, SlotDescription, and_list, ordinal_words
from generators.intlinalg import (
    BoxFamily,
    det,
    equation_alternatives,
    integer_points,
    lin_eqs,
    solve_box,
    value_alternatives,
    with_statement,
)

VARS = ("a", "b", "c")
HARD_VARS = {4: ("a", "b", "c", "d"), 5: ("a", "b", "c", "d", "e")}
ROW_TRIES = 50


def variables_of(view: list[Constraint]) -> tuple[str, ...]:
    """The unknowns A's domain statement names (a, b, c unless it lists others)."""
    return next((tuple(c["vars"]) for c in view if c["type"] == "domain" and c.get("vars")), VARS)


# ------------------------------------------------------------------ the family
class LinearSystemSeparator(BoxFamily):
    name = "linear_system_separator"
    prefix = "lin"
    type = "A"
    answer_type = "dict_int"
    answer_keys = VARS

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        if difficulty in HARD_VARS:
            return self.sample_large(rng, difficulty)
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

    def sample_large(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        """d unknowns in d - 1 equations whose solution line has a small direction (see the module docstring)."""
        names = HARD_VARS[difficulty]
        n, ci = len(names), names.index("c")
        bound, coeff = 5 + difficulty, 3 + difficulty
        direction = [rng.randint(-2, 2) for _ in names]
        direction[ci] = rng.choice((1, -1))
        # a second direction with c fixed, orthogonal to every row but the loose one (solved for at pivot p)
        p = rng.choice([j for j in range(n) if j != ci])
        second = [0 if j == ci else rng.randint(-2, 2) for j in range(n)]
        second[p] = rng.choice((1, -1))
        loose = rng.randrange(n - 1)
        rows = [self.orthogonal_row(rng, [direction] if i == loose else [second, direction], [ci] if i == loose
                                    else [p, ci], coeff) for i in range(n - 1)]
        if sum(k * x for k, x in zip(rows[loose], second, strict=True)) == 0:
            raise Reject("the loose equation does not move along the second direction")
        if det([[k for j, k in enumerate(row) if j != ci] for row in rows]) == 0:
            raise Reject("the system left after substituting c is singular")
        sol = [rng.randint(-bound, bound) for _ in names]
        rhs = [sum(k * x for k, x in zip(row, sol, strict=True)) for row in rows]
        if len(integer_points(rows, rhs, n, -bound, bound, limit=2)) < 2:
            raise Reject("integrality and the range already pin the unknowns from A's equations")
        return {"solution": dict(zip(names, sol, strict=True)), "rows": rows, "rhs": rhs, "bound": bound,
                "loose": loose}

    @staticmethod
    def orthogonal_row(rng: random.Random, directions: list[list[int]], pivots: list[int], coeff: int) -> list[int]:
        """A row in [-coeff, coeff] orthogonal to each direction; direction i is +-1 at ``pivots[i]`` and 0 at the
        later pivots, so the pivots' coefficients are solved for in order."""
        n = len(directions[0])
        for _ in range(ROW_TRIES):
            row = [0 if j in pivots else rng.randint(-coeff, coeff) for j in range(n)]
            for direction, p in zip(directions, pivots, strict=True):
                rest = sum(k * x for j, (k, x) in enumerate(zip(row, direction, strict=True)) if j != p)
                row[p] = -rest * direction[p]
            if all(abs(row[p]) <= coeff for p in pivots):
                return row
        raise Reject("no equation with coefficients in range along the drawn directions")

    def views(self, z: dict[str, Any]) -> Views:
        if len(z["solution"]) > len(VARS):
            return self.large_views(z)
        bound = z["bound"]
        eqs = [
            {"type": "lin_eq", "name": f"eq{i + 1}", "coeffs": dict(zip(VARS, row, strict=True)), "rhs": r}
            for i, (row, r) in enumerate(zip(z["rows"], z["rhs"], strict=True))
        ]
        domain = with_statement({"type": "domain", "integer": True, "lower": -bound, "upper": bound}, self.domain_text)
        settles = [v for v in self.candidate_slots([*eqs, domain]) if v != "c"]
        hint = {"type": "value", "var": "c", "value": z["solution"]["c"], "settles": settles}
        notice = missing_slot_note(
            "c", "c is the separator variable: once the value of c is known, the two equations determine a and b "
            "uniquely."
        )
        return Views(
            a=[*eqs, domain, notice],
            b=[hint],
            hint=hint,
            slot="c",
            value=hint["value"],
            target={"type": "solution", "vars": list(VARS)},
            question="What is the solution (a, b, c) of the system? Give the three integers a, b and c.",
            unknowns=list(VARS),
        )

    def large_views(self, z: dict[str, Any]) -> Views:
        """d >= 4: n unknowns, n - 1 equations; the domain statement lists the unknowns (``vars``)."""
        names = tuple(z["solution"])
        n, bound = len(names), z["bound"]
        eqs = [
            {"type": "lin_eq", "name": f"eq{i + 1}", "coeffs": dict(zip(names, row, strict=True)), "rhs": r}
            for i, (row, r) in enumerate(zip(z["rows"], z["rhs"], strict=True))
        ]
        # the system's equations are named at k = 1 too, so that the statement does not tell k = 1 from k = 2
        domain = with_statement({"type": "domain", "integer": True, "lower": -bound, "upper": bound,
                                 "vars": list(names), "equations": [f"eq{i}" for i in range(1, n)]},
                                self.domain_text)
        settles = [v for v in self.candidate_slots([*eqs, domain]) if v != "c"]
        hint = {"type": "value", "var": "c", "value": z["solution"]["c"], "settles": settles, "equations": n - 1}
        others = and_list([v for v in names if v != "c"])
        notice = missing_slot_note(
            "c", f"c is the separator variable: once the value of c is known, the {NUMBER_WORDS[n - 1]} equations "
            f"determine {others} uniquely."
        )
        return Views(
            a=[*eqs, domain, notice],
            b=[hint],
            hint=hint,
            slot="c",
            value=hint["value"],
            target={"type": "solution", "vars": list(names)},
            question=f"What is the solution ({', '.join(names)}) of the system? Give the {NUMBER_WORDS[n]} "
            f"integers {and_list(names)}.",
            unknowns=list(names),
        )

    def keys_for(self, z: dict[str, Any]) -> tuple[str, ...]:
        return tuple(z["solution"])

    def solve(self, constraints: list[Constraint], target: dict[str, Any]):
        return solve_box(constraints, tuple(target["vars"]))

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        names = tuple(target["vars"])
        if hint["type"] == "value":
            return value_alternatives(hint, view_a, names)
        return equation_alternatives(hint, view_a, names)

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: one of A's equations as well as c's value (a fact of another kind); for d >= 4 the loose one
        (see the module docstring), where a random one would almost never leave A two points with c alone."""
        loose = z.get("loose")
        return [HintSlot(c, c["name"], {"coeffs": dict(c["coeffs"]), "rhs": c["rhs"]})
                for c in views.a if c["type"] == "lin_eq" and (loose is None or c["name"] == f"eq{loose + 1}")]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """A is told how many equations the system has (all alike), so that the missing one can be found."""
        views = super().withhold(views, second)
        a = [self.with_equation_count(c) if c["type"] == "domain" and "lower" in c else c for c in views.a]
        return replace(views, a=a)

    def with_equation_count(self, domain: Constraint) -> Constraint:
        n = len(domain.get("vars", VARS))
        fields = {**{k: v for k, v in domain.items() if k not in ("type", "statement")},
                  "equations": [f"eq{i}" for i in range(1, n)]}
        return with_statement({"type": "domain", **fields}, self.domain_text)

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "lin_eq":
                return f"Equation {c['name'][2:]}: {lin_text(c['coeffs'], c['rhs'])}"
            case "value":
                text = f"{c['var']} = {c['value']}"
                if c.get("settles") and c.get("equations"):
                    many = NUMBER_WORDS[c["equations"]]
                    text += f" (with the {many} equations, this also settles {and_list(c['settles'])})"
                elif c.get("settles"):
                    text += f" (with the two equations, this also settles {' and '.join(c['settles'])})"
                return text
            case "domain":
                return c["statement"] if is_slot_notice(c) else self.domain_text(c)
        raise ValueError(f"unknown constraint type {c['type']!r}")

    @staticmethod
    def domain_text(c: Constraint) -> str:
        names = c.get("vars", VARS)
        text = f"The unknowns {and_list(names)} are integers between {c['lower']} and {c['upper']} (inclusive)."
        if c.get("equations") and len(names) == len(VARS):
            text += " The system consists of two linear equations in a, b and c, Equation 1 and Equation 2."
        elif c.get("equations"):
            m = len(c["equations"])
            text += (f" The system consists of {NUMBER_WORDS[m]} linear equations in {and_list(names)}: "
                     f"{and_list([f'Equation {i}' for i in range(1, m + 1)])}.")
        return text

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The unknowns whose value, with A's two equations, fixes the other two (a separator of A's system).

        Knowing v fixes the others exactly when A's equations are independent in the two remaining unknowns.
        When A's domain statement names the system's equations (k = 2) and A lacks one, the candidates are the
        missing equations and every unknown (A cannot tell which unknown separates a system it does not hold).
        """
        view = [c for c in view_a if not is_slot_notice(c)]
        declared = next((c["equations"] for c in view if c["type"] == "domain" and c.get("equations")), [])
        held = {c.get("name") for c in view if c["type"] == "lin_eq"}
        names = variables_of(view)
        missing = [name for name in declared if name not in held]
        if missing:
            return [*missing, *names]
        rows, _ = lin_eqs(view, names)
        if len(rows) != len(names) - 1:
            return []
        return [
            v for i, v in enumerate(names)
            if det([[row[j] for j in range(len(names)) if j != i] for row in rows]) != 0
        ]

    def slot_name(self, c: Constraint) -> str | None:
        match c["type"]:
            case "lin_eq":
                return c["name"]
            case "value":
                return c["var"]
        return None

    def fact_label(self, c: Constraint) -> str | None:
        """An equation is named as A's view names it ("Equation 1"), a value by its unknown."""
        return f"Equation {c['name'][2:]}" if c["type"] == "lin_eq" else self.slot_name(c)

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        unknown = len(slot) == 1 and slot.isalpha()
        if unknown and hint.get("type") == "value" and hint.get("settles"):  # c settles the other candidates
            return self.aliases_with_settled(slot, hint)
        if unknown:
            names = [f"the value of {slot}", slot, f"{slot} = ?", f"the exact value of {slot}", f"the unknown {slot}"]
            if slot == "c":
                names += ["the separator variable c", "the separator variable", "the value of the separator variable"]
            return names
        if slot.startswith("eq"):
            k = slot[2:]
            ordinal = ORDINALS[int(k)] if k.isdigit() and int(k) < len(ORDINALS) else k
            return [f"equation {k}", slot, f"the {ordinal} equation", f"Equation {k}"]
        raise ValueError(f"unknown slot {slot!r}")

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] == "lin_eq" and c["name"][3:].isdigit():
            return SlotDescription("equation", (int(c["name"][3:]),))
        if c["type"] == "value" and len(c["var"]) == 1 and c["var"].isalpha():
            k = ord(c["var"]) - ord("a") + 1
            return SlotDescription("variable", (k,), synonyms=("unknown",), attribute="value",
                                   meanings=_value_meanings(c["var"], k))
        return None

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["solution"].values())


FAMILY = LinearSystemSeparator()


def _value_meanings(v: str, k: int) -> tuple[str, ...]:
    """How a reader asks for the value of the unknown ``v`` (the ``k``-th, counted from one) in words."""
    nth = ordinal_words(k)[0]
    words = [f"the value of the variable {v}", f"what {v} equals", f"what {v} is equal to", f"the value {v} takes",
             f"the value that {v} takes", f"the value {v} has", f"what value {v} has", f"the value assigned to {v}",
             f"what {v} is set to", f"{v}'s value", f"the numerical value of {v}", f"the numeric value of {v}",
             f"the integer value of {v}", f"which integer {v} is", f"what number {v} is", f"the number {v} stands for",
             f"the actual value of {v}", f"the true value of {v}", f"the correct value of {v}",
             f"the right value for {v}",
             f"what {v} has to be", f"what {v} must be", f"what {v} comes out to", f"the solution value for {v}",
             f"the value of unknown {v}", f"the value of the unknown {v}", f"the number to plug in for {v}",
             f"what to substitute for {v}", f"the value to use for {v}", f"how big {v} is", f"{v}'s exact value",
             f"the value of the {nth} unknown", f"the value of the {nth} variable", f"the {nth} unknown's value",
             f"the {nth} variable's value", f"what the {nth} unknown equals", f"what the {nth} variable equals"]
    if v == "c":  # the family's separator: the unknown whose value picks one solution out of the candidates
        words += ["the value of the separating variable", "the separator's value",
                  "what the separator variable equals", "the variable that separates the solutions",
                  "the variable that tells the solutions apart", "the variable that picks out the solution",
                  "the unknown that separates the candidate solutions",
                  "the value that breaks the tie between the solutions"]
    return tuple(words)
