"""Importing the release's ``geometry_coordinates`` lines into our family's constraint types."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

from generators.base import Constraint
from generators.families import geometry_coordinates as _geo
from verifiers.reference.mapping import (
    Converter,
    GenLevel,
    Mapped,
    Spec,
    convert_all,
    hint_of,
    lin_eq,
    partner_notice,
    released,
)
from verifiers.reference.release import Release

RELEASE_OFFSETS = ((3, 4), (4, 3), (5, 12), (12, 5))  # Q = P + offset in the release's generator


def _line(name: str) -> Converter:
    def conv(rec: Release, c: Constraint, where: str) -> Constraint:
        eq = lin_eq(("x", "y"))(rec, c, where)
        if eq["coeffs"] == {"x": 0, "y": 0}:
            rec.fail(f"{where}.coeffs", "a line needs a non-zero coefficient")
        return {"type": "lin_eq", "name": name, "coeffs": eq["coeffs"], "rhs": eq["rhs"]}

    return conv


def map_geometry(rec: Release) -> Mapped:
    a = convert_all(rec, "A", {"lin_eq": _line("L1")})
    b = convert_all(rec, "B", {"lin_eq": _line("L2")})
    if len(a) != 1 or len(b) != 1:
        rec.fail("agent_views", f"expected one line for A and one for B, got {len(a)} and {len(b)}")
    hint = hint_of(rec, b)
    qx, qy = rec.int_list(rec.meta, "point_q", "global_metadata")
    for agent in ("A", "B"):  # Q is told to both agents as text only
        for t in rec.texts(agent):
            m = re.fullmatch(r"\s*Q\s*=\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\s*", t)
            if m and (int(m.group(1)), int(m.group(2))) != (qx, qy):
                rec.fail("global_metadata.point_q", f"Q = ({qx}, {qy}) but {agent}'s text says {t!r}")
    q = {"type": "point", "name": "Q", "x": qx, "y": qy}
    a, b = [a[0], q], [b[0], q]
    d = rec.difficulty
    box = {"type": "domain", "coord_bound": 4 + d, "coeff_bound": 3 + d}
    m = Mapped(a, b, hint, "L2", {"coeffs": dict(hint["coeffs"]), "rhs": hint["rhs"]},
               {"type": "distance", "from": "P", "to": "Q"},
               "P = (x, y) is the intersection point of line L1 with a second line L2. What is d(P, Q), the distance "
               "from P to Q? It is a whole number; give the integer.", ["d(P, Q)"], released(rec),
               notice=partner_notice("L2", "Your partner knows the second line L2."))
    m.generation = [
        GenLevel("pinned_by_range", f"range (P an integer point in [-{4 + d}, {4 + d}]^2, L2's coefficients in "
                                    f"[-{3 + d}, {3 + d}], |PQ| whole)", [box]),
        GenLevel("pinned_by_construction", f"construction (Q = P + an offset from {list(RELEASE_OFFSETS)}, P an "
                                           f"integer point in [-{4 + d}, {4 + d}]^2)", pins=_geometry_construction),
    ]
    return m


def _geometry_alternatives(hint: Constraint, view_a: list[Constraint]) -> Iterator[Constraint]:
    """L2 moved parallel to itself through other integer points of L1 at a whole distance from Q."""
    line = next(c for c in view_a if c["type"] == "lin_eq")
    q = next(c for c in view_a if c["type"] == "point")
    a1, b1, c1 = line["coeffs"]["x"], line["coeffs"]["y"], line["rhs"]
    a2, b2 = hint["coeffs"]["x"], hint["coeffs"]["y"]
    points = _geo.integer_points_on(a1, b1, c1, 60)
    for x, y in sorted(points, key=lambda p: abs(p[0] - q["x"]) + abs(p[1] - q["y"])):
        if _geo.whole_distance((x, y), (q["x"], q["y"])) is not None:
            yield {**hint, "rhs": a2 * x + b2 * y}


def _geometry_construction(m: Mapped) -> bool:
    """The release draws P in the box and Q = P + offset: do the candidates Q - offset on L1 share one distance?"""
    line, q = m.a[0], m.a[1]
    a1, b1, c1 = line["coeffs"]["x"], line["coeffs"]["y"], line["rhs"]
    a2, b2, c2 = m.hint["coeffs"]["x"], m.hint["coeffs"]["y"], m.hint["rhs"]
    det = a1 * b2 - a2 * b1
    if det == 0:
        return False
    p = (Fraction(c1 * b2 - c2 * b1, det), Fraction(a1 * c2 - a2 * c1, det))
    offsets = list(RELEASE_OFFSETS)
    if (q["x"] - p[0], q["y"] - p[1]) not in offsets:  # the release drew a signed offset: widen the construction
        offsets = [(sx * dx, sy * dy) for dx, dy in RELEASE_OFFSETS for sx in (1, -1) for sy in (1, -1)]
    bound = m.generation[0].constraints[0]["coord_bound"]
    distances = set()
    for dx, dy in offsets:
        x, y = q["x"] - dx, q["y"] - dy
        if a1 * x + b1 * y == c1 and max(abs(x), abs(y)) <= bound:
            distances.add(dx * dx + dy * dy)
    return len(distances) == 1


SPEC = Spec(map_geometry, "dict_int", alternatives=lambda h, a, t: _geometry_alternatives(h, a))
