"""Importing the release's ``matrix_completion`` lines into our family's constraint types."""

from __future__ import annotations

from generators import intlinalg as _ila
from generators.base import Constraint
from verifiers.reference.mapping import GenLevel, Mapped, Spec, fam, int_fields, read_views, released
from verifiers.reference.release import Release


def _entry(rec: Release, c: Constraint, where: str) -> Constraint:
    e = int_fields("row", "col", "value")(rec, c, where)
    if e["row"] not in (0, 1) or e["col"] not in (0, 1):
        rec.fail(where, f"no entry ({e['row']}, {e['col']}) in a 2x2 matrix")
    return e


def map_matrix(rec: Release) -> Mapped:
    a, b, hint = read_views(rec, {"entry": _entry})
    family = fam(rec)
    told = _ila.with_statement({"type": "domain", "rank": 1, "positive_integer": False}, family.domain_text)
    r, c = rec.int_list(rec.meta, "target", "global_metadata")
    m = Mapped([*a, told], b, hint, f"m{hint['row']}{hint['col']}", hint["value"],
               {"type": "matrix_entry", "row": r, "col": c},
               f"What is m{r}{c}, the entry in row {r}, column {c} of M? Give the integer.",
               [f"m{r}{c}"], released(rec))
    top = 2 + rec.difficulty
    m.generation = [
        GenLevel("pinned_by_positivity", "positivity (positive integer entries)",
                 [{"type": "domain", "rank": 1, "positive_integer": True}]),
        GenLevel("pinned_by_range", f"range (M = u v^T with u_i, v_j integers in [1, {top}])",
                 pins=lambda mm: _matrix_factor_pin(mm, top)),
    ]
    return m


def _matrix_factor_pin(m: Mapped, top: int) -> bool:
    known = {(c["row"], c["col"]): c["value"] for c in m.a if c["type"] == "entry"}
    r, c = m.target["row"], m.target["col"]
    values = set()
    span = range(1, top + 1)
    for u0 in span:
        for u1 in span:
            for v0 in span:
                for v1 in span:
                    u, v = (u0, u1), (v0, v1)
                    if all(u[i] * v[j] == x for (i, j), x in known.items()):
                        values.add(u[r] * v[c])
    return len(values) == 1


SPEC = Spec(map_matrix, "int")
