"""A2 crt_reconstruction: A knows two congruences, B holds the third; target the integer x in [0, M).

Does not scale with difficulty: every instance runs at effective difficulty 1 (as in the paper).
"""

from __future__ import annotations

import random
from typing import Any

from generators.base import Constraint, Family, Views, by_type, is_slot_notice, missing_slot_note
from generators.describe import SlotDescription
from generators.errors import Inconsistent, NotUnique

PRIMES = (3, 5, 7, 11, 13, 17, 19)
ORDINAL = {1: "first congruence", 2: "second congruence", 3: "third congruence"}


def crt(congruences: list[tuple[int, int]]) -> tuple[int, int]:
    """(x, M) with x the unique residue mod M = product of the pairwise coprime moduli."""
    x, m = 0, 1
    for modulus, residue in congruences:
        # solve x + m*t = residue (mod modulus)
        t = ((residue - x) * pow(m, -1, modulus)) % modulus
        x, m = x + m * t, m * modulus
    return x % m, m


class CrtReconstruction(Family):
    name = "crt_reconstruction"
    prefix = "crt"
    type = "A"
    answer_type = "int"
    scales_with_difficulty = False

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        moduli = rng.sample(PRIMES, 3)
        x = rng.randrange(moduli[0] * moduli[1] * moduli[2])
        return {"moduli": moduli, "x": x}

    def views(self, z: dict[str, Any]) -> Views:
        c1, c2, c3 = (
            {"type": "congruence", "var": "x", "index": i, "mod": m, "residue": z["x"] % m}
            for i, m in enumerate(z["moduli"], start=1)
        )
        pool = ", ".join(map(str, PRIMES))
        domain = {
            "type": "domain",
            "statement": "x also satisfies a third congruence x ≡ r3 (mod m3), where m3 is a prime from "
            f"{{{pool}}} different from m1 and m2, and 0 <= r3 < m3; x is the integer with 0 <= x < m1*m2*m3.",
        }
        notice = missing_slot_note(
            ORDINAL[3],
            "The third congruence is one fact: its modulus m3 and residue r3 are known together, so one request for "
            "the third congruence (or for m3, or r3, or both) is enough to learn both numbers.",
        )
        return Views(
            a=[c1, c2, domain, notice],
            b=[c3],
            hint=c3,
            slot=ORDINAL[3],
            value={"modulus": c3["mod"], "residue": c3["residue"]},
            target={"type": "crt", "variable": "x", "n_congruences": 3},
            question="What is x, the unique integer with 0 <= x < m1*m2*m3 that satisfies all three congruences?",
            unknowns=["x"],
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        pairs = {(c["mod"], c["residue"]) for c in by_type(constraints, "congruence")}
        moduli = [m for m, _ in pairs]
        if len(set(moduli)) != len(moduli):
            raise Inconsistent("two different residues for the same modulus")
        if len(pairs) < target["n_congruences"]:
            raise NotUnique(f"{len(pairs)} of {target['n_congruences']} congruences known")
        if any(m not in PRIMES or not 0 <= r < m for m, r in pairs):
            raise Inconsistent("modulus outside the prime pool or residue out of range")
        return crt(sorted(pairs))[0]

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The congruences of the three that x satisfies which A holds no value for."""
        held = {c["index"] for c in by_type([c for c in view_a if not is_slot_notice(c)], "congruence")}
        return [name for k, name in ORDINAL.items() if k not in held]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        for residue in range(hint["mod"]):
            yield {**hint, "residue": residue}

    def render(self, c: Constraint) -> str:
        if c["type"] == "congruence":
            return self.congruence_text(c)
        if c["type"] == "domain":
            return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    @staticmethod
    def congruence_text(c: Constraint) -> str:
        """``third congruence: x ≡ 16 (mod 17), i.e. m3 = 17, r3 = 16``: the slot and both numbers named in
        A's notation, so a reader holding only this fact can tell it is the one asked for (issue 21).
        Constraints without an index (never produced here) keep the bare congruence."""
        bare = f"{c['var']} ≡ {c['residue']} (mod {c['mod']})"
        k = c.get("index")
        if k not in ORDINAL:
            return bare
        return f"{ORDINAL[k]}: {bare}, i.e. m{k} = {c['mod']}, r{k} = {c['residue']}"

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        k = next((i for i, name in ORDINAL.items() if name == slot), None)
        if k != 3:
            names = [f"the {slot}", f"x mod {hint['mod']}", slot]
            return [*names, f"m{k}", f"r{k}", f"m{k} and r{k}", f"x mod m{k}"] if k else names
        return [
            "the third congruence",
            "the third congruence x ≡ r3 (mod m3)",
            "the remaining congruence",
            "the other congruence",
            "the third modulus and residue",
            "the modulus and residue of the third congruence",
            "m3 and r3",
            "r3 and m3",
            "m3, r3",
            "m3",
            "r3",
            "x mod m3",
            "x ≡ r3 (mod m3)",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "congruence":
            return None
        k = c["index"]
        return SlotDescription("congruence", (k,), synonyms=("congruence relation", "modular condition"),
                               meanings=(f"the modulus and residue of congruence {k}",))

    def slot_name(self, c: Constraint) -> str | None:
        return ORDINAL[c["index"]] if c["type"] == "congruence" else None

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        return z["x"]


FAMILY = CrtReconstruction()
