"""A5 linear_system_separator: A knows two equations in a, b, c; B holds the value of c; target (a, b, c).

The solver is honest about the domain A is told (integers in [-(5+d), 5+d]): A's view alone is a line of
rational solutions, and the integer points of that line inside the box are enumerated; an instance whose
box holds only one of them (integrality and range would pin the answer) is rejected.

Any unknown whose value fixes the other two would complete A's equations (``candidate_slots``: 2 or 3 of a, b, c).
B's c names them all (docs/deviations/typeB-localization.md, "several candidates"): the hint carries ``settles``
(the other candidates), its text says that with the two equations it also settles them (never their values), and
a request for any one of them is a request for it.

Hard tier (docs/hard-tier.md): the box and the coefficient range keep growing with d (box [-(5+d), 5+d],
coefficients in [-(3+d), 3+d]: d4 9 and 7, d5 10 and 8). At k = 2, B also holds one of A's two equations (a fact of
another kind than c's value); A's domain statement is restated to say that the system has two equations, naming
neither withheld fact. c's "also settles" text stays true: it speaks of the two equations together.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from generators.base import Constraint, HintSlot, Reject, Views, is_slot_notice, lin_text, missing_slot_note
from generators.describe import SlotDescription
from generators.intlinalg import BoxFamily, det, integer_points, lin_eqs, with_statement

VARS = ("a", "b", "c")
EQUATIONS = ("eq1", "eq2")


# ------------------------------------------------------------------ the family
class LinearSystemSeparator(BoxFamily):
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

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: one of A's two equations as well as c's value (a fact of another kind)."""
        return [HintSlot(c, c["name"], {"coeffs": dict(c["coeffs"]), "rhs": c["rhs"]})
                for c in views.a if c["type"] == "lin_eq"]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """A is told that the system has two equations (both alike), so that the missing one can be found."""
        views = super().withhold(views, second)
        a = [self.with_equation_count(c) if c["type"] == "domain" and "lower" in c else c for c in views.a]
        return replace(views, a=a)

    def with_equation_count(self, domain: Constraint) -> Constraint:
        fields = {**{k: v for k, v in domain.items() if k not in ("type", "statement")},
                  "equations": list(EQUATIONS)}
        return with_statement({"type": "domain", **fields}, self.domain_text)

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "lin_eq":
                return f"Equation {c['name'][2:]}: {lin_text(c['coeffs'], c['rhs'])}"
            case "value":
                text = f"{c['var']} = {c['value']}"
                if c.get("settles"):
                    text += f" (with the two equations, this also settles {' and '.join(c['settles'])})"
                return text
            case "domain":
                return c["statement"] if is_slot_notice(c) else self.domain_text(c)
        raise ValueError(f"unknown constraint type {c['type']!r}")

    @staticmethod
    def domain_text(c: Constraint) -> str:
        text = f"The unknowns a, b and c are integers between {c['lower']} and {c['upper']} (inclusive)."
        if c.get("equations"):
            text += " The system consists of two linear equations in a, b and c, Equation 1 and Equation 2."
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
        missing = [name for name in declared if name not in held]
        if missing:
            return [*missing, *VARS]
        rows, _ = lin_eqs(view, VARS)
        if len(rows) != 2:
            return []
        return [
            v for i, v in enumerate(VARS)
            if det([[row[j] for j in range(len(VARS)) if j != i] for row in rows]) != 0
        ]

    def slot_name(self, c: Constraint) -> str | None:
        match c["type"]:
            case "lin_eq":
                return c["name"]
            case "value":
                return c["var"]
        return None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if slot in VARS and hint.get("type") == "value" and hint.get("settles"):  # c settles the other candidates
            return self.aliases_with_settled(slot, hint)
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

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] == "lin_eq" and c["name"][3:].isdigit():
            return SlotDescription("equation", (int(c["name"][3:]),))
        if c["type"] == "value" and len(c["var"]) == 1 and c["var"].isalpha():
            k = ord(c["var"]) - ord("a") + 1
            return SlotDescription("variable", (k,), synonyms=("unknown",), attribute="value",
                                   meanings=(f"the value of the variable {c['var']}", f"what {c['var']} equals"))
        return None

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["solution"][v] for v in VARS)


FAMILY = LinearSystemSeparator()
