"""Importing the release's ``discrete_tomography`` lines into our family's constraint types."""

from __future__ import annotations

from generators.families import discrete_tomography as _dis
from verifiers.reference.mapping import Mapped, Spec, domain, int_fields, read_views, released
from verifiers.reference.release import Release


def map_tomography(rec: Release) -> Mapped:
    conv = {"row_sum": int_fields("row", "value"), "col_sum": int_fields("col", "value"),
            "cell": int_fields("row", "col", "value")}
    a, b, hint = read_views(rec, conv, "cell")
    if rec.int_list(rec.meta, "size", "global_metadata") != [3, 3]:
        rec.fail("global_metadata.size", "our discrete_tomography family is 3x3")
    i, j = rec.int_list(rec.meta, "target_cell", "global_metadata")
    return Mapped([domain(_dis.GRID_STATEMENT), *a], b, hint, f"cell({hint['row']},{hint['col']})", hint["value"],
                  {"type": "cell_value", "row": i, "col": j},
                  f"What is the value (0 or 1) of cell({i},{j}), the entry in row {i} and column {j}?",
                  [f"cell({i},{j})"], released(rec))


SPEC = Spec(map_tomography, "int")
