"""Importing the release's ``linear_system_missing_coeff`` lines into our family's constraint types."""

from __future__ import annotations

from generators.families import linear_system_missing_coeff as _lsc
from verifiers.reference.mapping import Mapped, Spec, domain, int_fields, read_views, released
from verifiers.reference.release import Release


def map_linear_coeff(rec: Release) -> Mapped:
    conv = {"coeff": int_fields("row", "col", "value"), "rhs": int_fields("row", "value")}
    a, b, hint = read_views(rec, conv, "coeff")
    n, k = rec.meta_int("n"), rec.meta_int("target_k")
    return Mapped([domain(_lsc.system_statement(n), n=n), *a], b, hint, _lsc.coeff_slot(hint["row"], hint["col"]),
                  hint["value"], {"type": "solution_component", "var": f"x{k}", "index": k},
                  f"What is x{k}, the value of the unknown with index {k} in the solution? Give it as a reduced "
                  "fraction.", [f"x{k}"], released(rec))


SPEC = Spec(map_linear_coeff, "rational")
