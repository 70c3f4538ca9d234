"""Importing the release's ``recurrence_missing_init`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import Constraint
from verifiers.reference.mapping import (
    Mapped,
    Spec,
    convert_all,
    domain,
    expect_hint,
    fam,
    hint_of,
    int_fields,
    release_answer,
)
from verifiers.reference.release import Release


def _recurrence(rec: Release, c: Constraint, where: str) -> Constraint:
    coeffs = rec.int_list(c, "coeffs", where)
    if len(coeffs) != 2:
        rec.fail(f"{where}.coeffs", f"expected [r1, r2], got {coeffs}")
    return {"type": "recurrence", "coeffs": coeffs}


def map_recurrence(rec: Release) -> Mapped:
    conv = {"recurrence": _recurrence, "init": int_fields("index", "value")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "init")
    n = rec.meta_int("target_n")
    k = hint["index"]
    told = domain(f"a(0), a(1), a(2), ... is a sequence of integers that satisfies the recurrence for every n >= 0. "
                  f"The initial value a({k}) is an integer that is not given to you; your partner knows it.",
                  integer=[f"a({k})"])
    return Mapped([*a, told], b, hint, f"a({k})", hint["value"], {"type": "sequence_term", "sequence": "a", "index": n},
                  f"What is a({n}), the term of the sequence with index {n}? Give an integer.", [f"a({n})"],
                  release_answer(rec, fam(rec), ()))


SPEC = Spec(map_recurrence, "int")
