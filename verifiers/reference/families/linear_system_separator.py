"""Importing the release's ``linear_system_separator`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import Constraint
from generators.families import linear_system_separator as _lss
from verifiers.reference.mapping import (
    GenLevel,
    Mapped,
    Spec,
    integer_line_alternatives,
    lin_eq,
    partner_notice,
    read_views,
    released,
)
from verifiers.reference.release import Release


def map_linear_separator(rec: Release) -> Mapped:
    names = iter(range(1, 100))

    def equation(r: Release, c: Constraint, where: str) -> Constraint:
        eq = lin_eq(_lss.VARS)(r, c, where)
        return {"type": "lin_eq", "name": f"eq{next(names)}", "coeffs": eq["coeffs"], "rhs": eq["rhs"]}

    def value(r: Release, c: Constraint, where: str) -> Constraint:
        var = r.text(c, "var", where)
        if var not in _lss.VARS:
            r.fail(f"{where}.var", f"expected one of {list(_lss.VARS)}, got {var!r}")
        return {"type": "value", "var": var, "value": r.integer(c, "value", where)}

    a, b, hint = read_views(rec, {"lin_eq": equation}, "value", b_converters={"value": value})
    d = rec.difficulty
    m = Mapped(a, b, hint, hint["var"], hint["value"], {"type": "solution", "vars": list(_lss.VARS)},
               "a, b and c are integers. What is the solution (a, b, c) of the system? Give the three integers a, b "
               "and c.", list(_lss.VARS), released(rec, _lss.VARS), keys=_lss.VARS,
               notice=partner_notice(hint["var"], "Your partner knows the value of exactly one of a, b and c."))
    if all(c["coeffs"][hint["var"]] == 0 for c in a):
        m.rule_violations.append(f"{hint['var']} occurs in none of A's equations, so it separates nothing")
    m.generation = [GenLevel("pinned_by_range", f"range (a, b, c integers in [-{5 + d}, {5 + d}])",
                             [{"type": "domain", "integer": True, "lower": -5 - d, "upper": 5 + d}])]
    return m


SPEC = Spec(map_linear_separator, "dict_int", alternatives=integer_line_alternatives(_lss.VARS))
