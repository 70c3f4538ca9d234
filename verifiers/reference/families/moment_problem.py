"""Importing the release's ``moment_problem`` lines into our family's constraint types."""

from __future__ import annotations

from generators import intlinalg as _ila
from generators.families import moment_problem as _mom
from verifiers.reference.mapping import GenLevel, Mapped, Spec, fam, named_lin_eq, read_views, released
from verifiers.reference.release import Release

_moment = named_lin_eq(_mom.VARS, {name: row for name, (row, _) in _mom.MOMENTS.items()},
                       "not a moment equation on the support {0, 1, 2} (coefficients (1,1,1), (0,1,2) or (0,1,4))")


def map_moment(rec: Release) -> Mapped:
    a, b, hint = read_views(rec, {"lin_eq": _moment})
    total = next((c["rhs"] for c in a if c["name"] == "m0"), None)
    if total is None or total < 1:
        rec.fail("agent_views[0].private_data.constraints_machine", "A's view has no positive sum q0 + q1 + q2 = D")
    family = fam(rec)
    told = _ila.with_statement({"type": "domain", "integer": True, "lower": 0, "upper": total, "total": total},
                               family.domain_text)
    m = Mapped([told, *a], b, hint, hint["name"], hint["rhs"],
               {"type": "weights", "vars": list(_mom.VARS), "support": [0, 1, 2]},
               "What are the weights (q0, q1, q2)? Give the three integers.", list(_mom.VARS),
               released(rec, _mom.VARS), keys=_mom.VARS)
    m.generation = [GenLevel("pinned_by_positivity", f"positivity (integer weights >= 1, summing to {total})",
                             [{"type": "domain", "integer": True, "lower": 1, "upper": total, "total": total}])]
    return m


SPEC = Spec(map_moment, "dict_int")
