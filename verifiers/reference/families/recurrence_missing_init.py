"""Importing the release's ``recurrence_missing_init`` lines into our family's constraint types."""

from __future__ import annotations

from verifiers.reference.mapping import (
    Mapped,
    Spec,
    domain,
    int_fields,
    int_list_field,
    partner_notice,
    read_views,
    released,
)
from verifiers.reference.release import Release

_recurrence = int_list_field("coeffs", 2, lambda v: f"expected [r1, r2], got {v}")


def map_recurrence(rec: Release) -> Mapped:
    conv = {"recurrence": _recurrence, "init": int_fields("index", "value")}
    a, b, hint = read_views(rec, conv, "init")
    n = rec.meta_int("target_n")
    k = hint["index"]
    told = domain("a(0), a(1), a(2), ... is a sequence of integers that satisfies the recurrence for every n >= 0.",
                  integer=[f"a({k})"])
    return Mapped([*a, told], b, hint, f"a({k})", hint["value"], {"type": "sequence_term", "sequence": "a", "index": n},
                  f"What is a({n}), the term of the sequence with index {n}? Give an integer.", [f"a({n})"],
                  released(rec), notice=partner_notice(f"a({k})", f"The initial value a({k}) is an integer that is "
                                                                  "not given to you; your partner knows it."))


SPEC = Spec(map_recurrence, "int")
