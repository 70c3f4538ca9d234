"""Importing the release's ``piecewise_missing_threshold`` lines into our family's constraint types."""

from __future__ import annotations

from typing import Any

from generators.base import Constraint
from verifiers.reference.mapping import GenLevel, Mapped, Spec, int_fields, read_views, released
from verifiers.reference.release import Release


def _branch(rec: Release, c: Constraint, where: str) -> Constraint:
    out = int_fields("branch", "slope", "intercept")(rec, c, where)
    cond = rec.text(c, "condition", where)
    if cond not in ("lt", "geq"):
        rec.fail(f"{where}.condition", f"expected 'lt' or 'geq', got {cond!r}")
    return {**out, "condition": cond}


def _threshold_alternatives(hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
    """A is told nothing about t: integer thresholds on both sides of the query point, nearest first."""
    x = next(c["x"] for c in view_a if c["type"] == "query_point")
    for t in (x, x + 1, x - 1, x + 2, x - 2, hint["value"] + 1, hint["value"] - 1):
        yield {**hint, "value": t}


def map_piecewise(rec: Release) -> Mapped:
    conv = {"query_point": int_fields("x"), "branch_formula": _branch, "threshold": int_fields("value")}
    a, b, hint = read_views(rec, conv, "threshold")
    x = next((c["x"] for c in a if c["type"] == "query_point"), None)
    if x is None:
        rec.fail("agent_views[0].private_data.constraints_machine", "A's view has no query point")
    top = 5 + 3 * rec.difficulty
    m = Mapped(a, b, hint, "t", hint["value"], {"type": "function_value", "function": "f", "at": "query_point"},
               f"What is f({x}), the value of the piecewise function f at the query point x = {x}? Give an integer.",
               [f"f({x})"], released(rec))
    m.generation = [GenLevel("pinned_by_range", f"range (t an integer in [-{top}, {top}], t != x)",
                             [{"type": "domain", "var": "t", "integer": True, "min": -top, "max": top,
                               "excludes_query_point": True}])]
    return m


SPEC = Spec(map_piecewise, "int", alternatives=_threshold_alternatives)
