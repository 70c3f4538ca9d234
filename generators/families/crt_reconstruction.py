"""A2 crt_reconstruction: A knows two congruences, B holds the third; target the integer x in [0, M).

Does not scale with difficulty at d1-3: every paper instance runs at effective difficulty 1 (as in the paper).
The hard tier (docs/hard-tier.md) scales it: difficulty d >= 4 runs at d with d congruences whose moduli are distinct
primes from a larger pool (``HARD_PRIMES``), so x < m1*...*md runs to about 10^6 (d4) and 10^8 (d5); B holds the
last congruence. At k = 2, B also holds one of the others (the same kind of fact: CRT has no fact of another kind),
and A's range statement covers every congruence alike (``all_congruences_statement``, at k = 1 too).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from generators.base import Constraint, Family, HintSlot, Views, by_type, is_slot_notice, missing_slot_note
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique

PRIMES = (3, 5, 7, 11, 13, 17, 19)
ORDINAL = {1: "first congruence", 2: "second congruence", 3: "third congruence", 4: "fourth congruence",
           5: "fifth congruence"}
# Hard tier (d >= 4): d congruences, moduli drawn from a pool of larger primes.
HARD_PRIMES = {4: (11, 13, 17, 19, 23, 29, 31, 37), 5: (17, 19, 23, 29, 31, 37, 41, 43, 47, 53)}


def prime_pool(n_congruences: int) -> tuple[int, ...]:
    """The moduli's pool for ``n_congruences`` congruences (3: the paper's)."""
    return PRIMES if n_congruences == 3 else HARD_PRIMES[n_congruences]


def product_text(n: int) -> str:
    return "*".join(f"m{i}" for i in range(1, n + 1))


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
        if difficulty >= 4:
            moduli = rng.sample(HARD_PRIMES[difficulty], difficulty)
            modulus = 1
            for m in moduli:
                modulus *= m
            return {"moduli": moduli, "x": rng.randrange(modulus)}
        moduli = rng.sample(PRIMES, 3)
        x = rng.randrange(moduli[0] * moduli[1] * moduli[2])
        return {"moduli": moduli, "x": x}

    def views(self, z: dict[str, Any]) -> Views:
        if len(z["moduli"]) > 3:
            return self.hard_views(z)
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

    def hard_views(self, z: dict[str, Any]) -> Views:
        """d >= 4: n congruences, B holds the last; each congruence carries ``of`` = n (not rendered)."""
        n = len(z["moduli"])
        congruences = [{"type": "congruence", "var": "x", "index": i, "mod": m, "residue": z["x"] % m, "of": n}
                       for i, m in enumerate(z["moduli"], start=1)]
        last = congruences[-1]
        domain = self.all_congruences_statement(n)
        notice = missing_slot_note(
            ORDINAL[n],
            f"The {ORDINAL[n]} is one fact: its modulus m{n} and residue r{n} are known together, so one request "
            f"for the {ORDINAL[n]} (or for m{n}, or r{n}, or both) is enough to learn both numbers.",
        )
        return Views(
            a=[*congruences[:-1], domain, notice],
            b=[last],
            hint=last,
            slot=ORDINAL[n],
            value={"modulus": last["mod"], "residue": last["residue"]},
            target={"type": "crt", "variable": "x", "n_congruences": n},
            question=f"What is x, the unique integer with 0 <= x < {product_text(n)} that satisfies all {n} "
            "congruences?",
            unknowns=["x"],
        )

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: another congruence of A's (CRT's facts are all congruences: the same kind, another index)."""
        return [HintSlot(c, self.slot_name(c), {"modulus": c["mod"], "residue": c["residue"]})
                for c in views.a if c["type"] == "congruence"]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """A's range statement covers every congruence alike, naming neither withheld one."""
        views = super().withhold(views, second)
        domain = self.all_congruences_statement(views.target["n_congruences"])
        return replace(views, a=[domain if c["type"] == "domain" else c for c in views.a])

    @staticmethod
    def all_congruences_statement(n: int) -> Constraint:
        """The hard tier's statement (k = 1 and k = 2 alike): every congruence named as B's facts name it (its
        ordinal, mi, ri), none singled out, so A's view never says by its wording which or how many are missing."""
        pool = ", ".join(map(str, prime_pool(n)))
        listed = [f"the {ORDINAL[i]} x ≡ r{i} (mod m{i})" for i in range(1, n + 1)]
        moduli = [f"m{i}" for i in range(1, n + 1)]
        return {
            "type": "domain",
            "n_congruences": n,
            "statement": f"x satisfies {n} congruences, {', '.join(listed[:-1])} and {listed[-1]}, where "
            f"{', '.join(moduli[:-1])} and {moduli[-1]} are distinct primes from {{{pool}}} and 0 <= ri < mi for "
            f"every i; x is the integer with 0 <= x < {product_text(n)}.",
        }

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        pairs = {(c["mod"], c["residue"]) for c in by_type(constraints, "congruence")}
        moduli = [m for m, _ in pairs]
        if len(set(moduli)) != len(moduli):
            raise Inconsistent("two different residues for the same modulus")
        if len(pairs) < target["n_congruences"]:
            raise NotUnique(f"{len(pairs)} of {target['n_congruences']} congruences known")
        if any(m not in prime_pool(target["n_congruences"]) or not 0 <= r < m for m, r in pairs):
            raise Inconsistent("modulus outside the prime pool or residue out of range")
        return crt(sorted(pairs))[0]

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The congruences that x satisfies (three, or the ``n_congruences`` A's statement gives) which A holds no
        value for."""
        view = [c for c in view_a if not is_slot_notice(c)]
        n = max((c.get("n_congruences", 3) for c in by_type(view, "domain")), default=3)
        held = {c["index"] for c in by_type(view, "congruence")}
        return [name for k, name in ORDINAL.items() if k <= n and k not in held]

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
        if hint.get("of"):  # the hard tier: every congruence alike, no "remaining" one
            return [f"the {slot}", f"the {slot} x ≡ r{k} (mod m{k})", f"the modulus and residue of the {slot}",
                    slot, f"m{k} and r{k}", f"r{k} and m{k}", f"m{k}, r{k}", f"m{k}", f"r{k}", f"x mod m{k}",
                    f"x ≡ r{k} (mod m{k})"]
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
                               meanings=(f"the modulus and residue of congruence {k}", *_by_index(k),
                                         *_by_modulus(c["mod"])))

    def slot_name(self, c: Constraint) -> str | None:
        return ORDINAL[c["index"]] if c["type"] == "congruence" else None

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        return z["x"]


FAMILY = CrtReconstruction()


def _by_modulus(m: int) -> tuple[str, ...]:
    """A congruence named by its modulus ("x mod 11", "the remainder of x modulo 11")."""
    return (f"x mod {m}", f"x modulo {m}", f"x (mod {m})", f"the remainder of x mod {m}",
            f"the remainder of x modulo {m}", f"the residue of x mod {m}", f"the residue of x modulo {m}",
            f"the remainder when x is divided by {m}", f"the remainder of x divided by {m}",
            f"the congruence mod {m}", f"the congruence modulo {m}", f"the residue mod {m}", f"the residue modulo {m}")


def _by_index(k: int) -> tuple[str, ...]:
    """A congruence named by its place among the congruences ("the third modulus and its remainder")."""
    nth = ordinal_words(k)[0]
    return (
        f"the {nth} modulus and its residue", f"the {nth} modulus and its remainder",
        f"the {nth} remainder and modulus", f"the {nth} modulus and remainder", f"the {nth} residue and modulus",
        f"the {nth} prime modulus and residue",
        f"the {nth} prime and its remainder", f"the {nth} divisor and remainder", f"the {nth} modulus",
        f"the {nth} prime modulus", f"the {nth} remainder", f"the {nth} residue", f"the {nth} modular equation",
        f"the {nth} modular constraint", f"the {nth} remainder condition", f"the {nth} residue condition",
        f"the {nth} divisibility condition", f"the {nth} congruence equation", f"the {nth} linear congruence",
        f"the {nth} constraint on x", f"the {nth} condition on x", f"the {nth} equation of the system",
        f"the {nth} line of the system", f"the {nth} clue about x", f"the {nth} remainder clue",
        f"the {nth} pair of modulus and residue", f"the {nth} modulus residue pair", f"the {nth} mod equation",
        f"the modulus and remainder of congruence {k}", f"the residue and modulus of congruence {k}",
        f"the remainder of x modulo the {nth} modulus", f"the remainder of x mod the {nth} prime",
        f"what x leaves when divided by the {nth} modulus", f"what x is congruent to modulo the {nth} prime",
        f"the residue class of x modulo the {nth} modulus", f"x modulo the {nth} modulus",
        f"m{k} and the residue r{k}", f"the values of m{k} and r{k}", f"the modulus m{k} and residue r{k}",
        f"the prime m{k} and remainder r{k}",
    )
