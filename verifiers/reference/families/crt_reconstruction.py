"""Importing the release's ``crt_reconstruction`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import Constraint
from verifiers.reference.mapping import Mapped, Spec, domain, partner_notice, read_views, released
from verifiers.reference.release import Release


def map_crt(rec: Release) -> Mapped:
    count = iter(range(1, 100))

    def congruence(r: Release, c: Constraint, where: str) -> Constraint:
        mod, residue = r.integer(c, "mod", where), r.integer(c, "residue", where)
        return {"type": "congruence", "var": r.text(c, "var", where), "index": next(count), "mod": mod,
                "residue": residue}

    a, b, hint = read_views(rec, {"congruence": congruence}, "congruence")
    a.append(domain("x also satisfies a third congruence x ≡ r3 (mod m3); x is the unique integer with "
                    "0 <= x < m1*m2*m3 that satisfies all three."))
    slot = _crt_slot(hint["index"])
    return Mapped(a, b, hint, slot, {"modulus": hint["mod"], "residue": hint["residue"]},
                  {"type": "crt", "variable": hint["var"], "n_congruences": len(a) - 1 + len(b)},
                  "What is x, the unique integer with 0 <= x < m1*m2*m3 that satisfies all three congruences?",
                  [hint["var"]], released(rec),
                  notice=partner_notice(slot, "Your partner knows the third congruence x ≡ r3 (mod m3)."))


def _crt_slot(index: int) -> str:
    return {1: "first congruence", 2: "second congruence", 3: "third congruence"}.get(index, f"congruence {index}")


SPEC = Spec(map_crt, "dict_int")
