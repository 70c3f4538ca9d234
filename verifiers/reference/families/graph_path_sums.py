"""Importing the release's ``graph_path_sums`` lines into our family's constraint types."""

from __future__ import annotations

from generators.families import graph_path_sums as _gra
from verifiers.reference.mapping import (
    GenLevel,
    Mapped,
    Spec,
    integer_line_alternatives,
    named_lin_eq,
    partner_notice,
    read_views,
    released,
)
from verifiers.reference.release import Release

_path_sum = named_lin_eq(_gra.EDGES, _gra.ROWS, "not a path sum (two of e01, e12, e20 with coefficient 1, the third 0)")


def map_graph(rec: Release) -> Mapped:
    a, b, hint = read_views(rec, {"lin_eq": _path_sum})
    d = rec.difficulty
    top = max([abs(c["rhs"]) for c in a] + [1])
    missing = ", ".join(_path_sum_text(c["name"]) for c in b if c not in a)
    sums = ", ".join(map(_path_sum_text, _gra.ROWS))
    m = Mapped(a, b, hint, hint["name"], hint["rhs"], {"type": "edge_weights", "vars": list(_gra.EDGES)},
               f"The edges e01, e12 and e20 of a triangle carry integer weights; the path sums are {sums}. What are "
               "the three edge weights (e01, e12, e20)? Give the three integers.", list(_gra.EDGES),
               released(rec, _gra.EDGES), keys=_gra.EDGES,
               notice=partner_notice(hint["name"], f"Your partner knows the path sum {missing}."))
    m.generation = [
        GenLevel("pinned_by_positivity", "positivity (integer weights >= 1)",
                 [{"type": "domain", "integer": True, "lower": 1, "upper": top}]),
        GenLevel("pinned_by_range", f"range (integer weights in [1, {2 + d}])",
                 [{"type": "domain", "integer": True, "lower": 1, "upper": 2 + d}]),
    ]
    return m


def _path_sum_text(name: str) -> str:
    return f"{name} = {' + '.join(e for e, k in zip(_gra.EDGES, _gra.ROWS[name], strict=True) if k)}"


SPEC = Spec(map_graph, "dict_int", alternatives=integer_line_alternatives(_gra.EDGES))
