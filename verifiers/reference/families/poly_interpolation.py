"""Importing the release's ``poly_interpolation`` lines into our family's constraint types."""

from __future__ import annotations

from fractions import Fraction

from generators.errors import Inconsistent
from generators.families import poly_interpolation as _pol
from verifiers.reference.mapping import Mapped, Spec, domain, int_fields, partner_notice, read_views, released
from verifiers.reference.release import Release


def map_poly(rec: Release) -> Mapped:
    conv = {"point": int_fields("x", "y")}
    a, b, hint = read_views(rec, conv)
    degree = len(a)  # the release tells A that it holds `degree` points and B the one more that fixes p
    if "degree" in rec.meta and rec.meta_int("degree") != degree:
        rec.fail("global_metadata.degree", f"A holds {degree} points, so p has degree {degree}, "
                                           f"not {rec.meta['degree']}")
    x_star = rec.meta_int("target_x")
    told = domain(f"p is a polynomial in x of degree {degree} with integer coefficients.")
    slot = f"p({hint['x']})"
    return Mapped([told, *a], b, hint, slot, hint["y"],
                  {"type": "poly_value", "poly": "p", "x": x_star, "degree": degree},
                  f"What is p({x_star}), the value of the polynomial p at x = {x_star}? Give the integer.",
                  [f"p({x_star})"], released(rec),
                  extra_aliases=["your interpolation point", "the missing interpolation point"],
                  notice=partner_notice(slot, "Your partner knows the value of p at one more point."))


def _poly_formula(m: Mapped) -> int:
    points = sorted({(c["x"], c["y"]) for c in [*m.a, *m.b] if c["type"] == "point"})
    numer, lcm = _pol.interpolate(points)
    value = Fraction(_pol.horner(numer, m.target["x"]), lcm)
    if value.denominator != 1:
        raise Inconsistent(f"p({m.target['x']}) = {value} is not an integer")
    return value.numerator


SPEC = Spec(map_poly, "int", recompute=_poly_formula)
