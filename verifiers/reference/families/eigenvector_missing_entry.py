"""Importing the release's ``eigenvector_missing_entry`` lines into our family's constraint types."""

from __future__ import annotations

from generators.families import eigenvector_missing_entry as _eig
from verifiers.reference.mapping import Mapped, Spec, domain, int_fields, read_views, released
from verifiers.reference.release import Release


def map_eigenvector(rec: Release) -> Mapped:
    conv = {"matrix_entry": int_fields("row", "col", "value"), "eigvec": int_fields("index", "value")}
    a, b, hint = read_views(rec, conv, "matrix_entry")
    n = rec.meta_int("n")
    i, t = rec.meta_int("missing_row"), rec.meta_int("target_col")
    return Mapped([domain(_eig.matrix_statement(n), n=n), *a], b, hint, _eig.entry_slot(hint["row"], hint["col"]),
                  hint["value"], {"type": "matrix_square_entry", "matrix": "M", "row": i, "col": t},
                  f"What is (M^2)[{i}][{t}], the entry in row {i} and column {t} of M^2 = M·M? Give it as an integer.",
                  [f"(M^2)[{i}][{t}]"], released(rec))


SPEC = Spec(map_eigenvector, "int")
