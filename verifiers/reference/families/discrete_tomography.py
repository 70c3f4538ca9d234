"""Importing the release's ``discrete_tomography`` lines into our family's constraint types."""

from __future__ import annotations

from generators.families import discrete_tomography as _dis
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


def map_tomography(rec: Release) -> Mapped:
    conv = {"row_sum": int_fields("row", "value"), "col_sum": int_fields("col", "value"),
            "cell": int_fields("row", "col", "value")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "cell")
    if rec.int_list(rec.meta, "size", "global_metadata") != [3, 3]:
        rec.fail("global_metadata.size", "our discrete_tomography family is 3x3")
    i, j = rec.int_list(rec.meta, "target_cell", "global_metadata")
    return Mapped([domain(_dis.GRID_STATEMENT), *a], b, hint, f"cell({hint['row']},{hint['col']})", hint["value"],
                  {"type": "cell_value", "row": i, "col": j},
                  f"What is the value (0 or 1) of cell({i},{j}), the entry in row {i} and column {j}?",
                  [f"cell({i},{j})"], release_answer(rec, fam(rec), ()))


SPEC = Spec(map_tomography, "int")
