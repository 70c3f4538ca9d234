"""Importing the release's ``graph_path_sums`` lines into our family's constraint types."""

from __future__ import annotations

from generators.base import Constraint
from generators.families import graph_path_sums as _gra
from verifiers.reference.mapping import (
    GenLevel,
    Mapped,
    Spec,
    convert_all,
    fam,
    hint_of,
    integer_line_alternatives,
    lin_eq,
    release_answer,
)
from verifiers.reference.release import Release


def _path_sum(rec: Release, c: Constraint, where: str) -> Constraint:
    eq = lin_eq(_gra.EDGES)(rec, c, where)
    for name, row in _gra.ROWS.items():
        if [eq["coeffs"][e] for e in _gra.EDGES] == row:
            return {"type": "lin_eq", "name": name, "coeffs": eq["coeffs"], "rhs": eq["rhs"]}
    return rec.fail(f"{where}.coeffs", "not a path sum (two of e01, e12, e20 with coefficient 1, the third 0)")


def map_graph(rec: Release) -> Mapped:
    a = convert_all(rec, "A", {"lin_eq": _path_sum})
    b = convert_all(rec, "B", {"lin_eq": _path_sum})
    hint = hint_of(rec, b)
    d = rec.difficulty
    top = max([abs(c["rhs"]) for c in a] + [1])
    missing = ", ".join(f"{c['name']} = {' + '.join(e for e in _gra.EDGES if c['coeffs'][e])}" for c in b if c not in a)
    m = Mapped(a, b, hint, hint["name"], hint["rhs"], {"type": "edge_weights", "vars": list(_gra.EDGES)},
               f"The edges e01, e12 and e20 of a triangle carry integer weights; your partner knows the path sum "
               f"{missing}. What are the three edge weights (e01, e12, e20)? Give the three integers.",
               list(_gra.EDGES),
               release_answer(rec, fam(rec), _gra.EDGES), keys=_gra.EDGES)
    m.generation = [
        GenLevel("pinned_by_positivity", "positivity (integer weights >= 1)",
                 [{"type": "domain", "integer": True, "lower": 1, "upper": top}]),
        GenLevel("pinned_by_range", f"range (integer weights in [1, {2 + d}])",
                 [{"type": "domain", "integer": True, "lower": 1, "upper": 2 + d}]),
    ]
    return m


SPEC = Spec(map_graph, "dict_int", alternatives=integer_line_alternatives(_gra.EDGES))
