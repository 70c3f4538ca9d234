"""Importing the release's ``rankdef_linear_shared`` lines into our family's constraint types."""

from __future__ import annotations

from generators import intlinalg as _ila
from generators.base import Constraint
from verifiers.reference.mapping import GenLevel, Mapped, Spec, domain, lin_eq, partner_notice, read_views, released
from verifiers.reference.release import Release


def map_rankdef(rec: Release) -> Mapped:
    labels = iter(range(1, 100))
    variables = ("x", "y", "z")

    def equation(r: Release, c: Constraint, where: str) -> Constraint:
        eq = lin_eq(variables)(r, c, where)
        return {"type": "lin_eq", "eq": next(labels), "coeffs": eq["coeffs"], "rhs": eq["rhs"]}

    a, b, hint = read_views(rec, {"lin_eq": equation})
    labels_b = ", ".join(f"({c['eq']})" for c in b)
    labels_all = ", ".join(f"({c['eq']})" for c in [*a, *b])
    told = domain(f"x, y and z are integers; the linear equations in x, y and z of the system are labelled "
                  f"{labels_all}.", integer=list(variables))
    d = rec.difficulty
    slot = f"equation ({hint['eq']})"
    m = Mapped([*a, told], b, hint, slot, {"coeffs": hint["coeffs"], "rhs": hint["rhs"]},
               {"type": "solution", "variables": list(variables)},
               "What is the solution (x, y, z) of the system? Give the three integers.", list(variables),
               released(rec, variables), keys=variables,
               notice=partner_notice(slot, f"Your partner knows more linear equations in x, y and z, labelled "
                                           f"{labels_b}."))
    m.generation = [GenLevel("pinned_by_range", f"range (x, y, z integers in [-{5 + d}, {5 + d}])",
                             pins=lambda mm: _box_pin(mm, variables, -5 - d, 5 + d))]
    return m


def _box_pin(m: Mapped, variables: tuple[str, ...], lower: int, upper: int) -> bool:
    rows, rhs = _ila.lin_eqs(m.a, variables)
    return len(_ila.integer_points(rows, rhs, len(variables), lower, upper, limit=2)) == 1


SPEC = Spec(map_rankdef, "dict_int")
