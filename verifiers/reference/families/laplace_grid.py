"""Importing the release's ``laplace_grid`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import Constraint
from generators.families import laplace_grid as _lap
from verifiers.reference.mapping import Mapped, Spec, check_unknowns, domain, read_views, released
from verifiers.reference.release import Release


def map_laplace(rec: Release) -> Mapped:
    n = rec.meta_int("grid_size")
    cells = [_lap.var(i, j) for i in range(n) for j in range(n)]
    check_unknowns(rec, cells)

    def equation(r: Release, c: Constraint, where: str) -> Constraint:
        coeffs = r.get(c, "coeffs", where, dict)
        for v, k in coeffs.items():
            if v not in cells or isinstance(k, bool) or not isinstance(k, int):
                r.fail(f"{where}.coeffs.{v}", f"expected an integer coefficient of a cell of the {n}x{n} grid")
        return {"type": "lin_eq", "coeffs": dict(coeffs), "rhs": r.integer(c, "rhs", where)}

    def value(r: Release, c: Constraint, where: str) -> Constraint:
        if r.text(c, "var", where) not in cells:
            r.fail(f"{where}.var", f"{c['var']!r} is not a cell of the {n}x{n} grid")
        return {"type": "value", "var": c["var"], "value": r.integer(c, "value", where)}

    conv = {"lin_eq": equation, "value": value}
    a, b, hint = read_views(rec, conv, "value")
    ti, tj = rec.int_list(rec.meta, "target_cell", "global_metadata")
    return Mapped([domain(_lap.grid_statement(n), grid_size=n), *a], b, hint, hint["var"], hint["value"],
                  {"type": "grid_value", "grid_size": n, "var": _lap.var(ti, tj)},
                  f"What is u_{ti}_{tj}, the value of the interior cell in row {ti}, column {tj}? "
                  "Give it as an integer.",
                  [_lap.var(ti, tj)], released(rec))


SPEC = Spec(map_laplace, "int")
