"""A4 graph_path_sums: triangle 0-1-2 with edge weights e01, e12, e20 in [1, 2+d].

A knows the path sums s1 = e01 + e12 and s2 = e12 + e20; B holds s3 = e01 + e20; target (e01, e12, e20).

A's two sums leave one free parameter (e12). A is told the weights are integers in [1, 2+d], so the
solver enumerates the integer points of that line inside the box; instances where the box leaves only one
(e.g. s1 = 2 forces e01 = e12 = 1, as in the release's gra-000199) are rejected.
"""

from __future__ import annotations

import random
from typing import Any

from generators.base import Constraint, Reject, Views, absent_slots
from generators.describe import SlotDescription
from generators.intlinalg import BoxFamily, integer_points, with_statement

EDGES = ("e01", "e12", "e20")
# path sum name -> (edges, the vertex the two edges share)
SUMS = {"s1": (("e01", "e12"), 1), "s2": (("e12", "e20"), 2), "s3": (("e01", "e20"), 0)}
ROWS = {name: [int(e in edges) for e in EDGES] for name, (edges, _) in SUMS.items()}


class GraphPathSums(BoxFamily):
    name = "graph_path_sums"
    prefix = "gra"
    type = "A"
    answer_type = "dict_int"
    answer_keys = EDGES

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        top = 2 + difficulty
        weights = [rng.randint(1, top) for _ in EDGES]
        rows = [ROWS["s1"], ROWS["s2"]]
        rhs = [sum(k * w for k, w in zip(row, weights, strict=True)) for row in rows]
        if len(integer_points(rows, rhs, 3, 1, top, limit=2)) < 2:
            raise Reject("positivity and the weight range already pin the edges from s1 and s2")
        return {"edges": dict(zip(EDGES, weights, strict=True)), "max_weight": top}

    def _sum(self, name: str, z: dict[str, Any]) -> Constraint:
        edges, _ = SUMS[name]
        return {
            "type": "lin_eq",
            "name": name,
            "coeffs": {e: int(e in edges) for e in EDGES},
            "rhs": sum(z["edges"][e] for e in edges),
        }

    def views(self, z: dict[str, Any]) -> Views:
        top = z["max_weight"]
        domain = with_statement({"type": "domain", "integer": True, "lower": 1, "upper": top}, self.domain_text)
        s1, s2, s3 = (self._sum(name, z) for name in SUMS)
        return Views(
            a=[domain, s1, s2],
            b=[s3],
            hint=s3,
            slot="s3",
            value=s3["rhs"],
            target={"type": "edge_weights", "vars": list(EDGES)},
            question="What are the three edge weights (e01, e12, e20)? Give the three integers.",
            unknowns=list(EDGES),
        )

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The path sums that A holds no value for: any one of them completes the other two."""
        return absent_slots(self, SUMS, view_a)

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "lin_eq":
                terms = " + ".join(e for e in EDGES if c["coeffs"].get(e))
                return f"{c['name']} = {terms} = {c['rhs']}"
            case "domain":
                return self.domain_text(c)
        raise ValueError(f"unknown constraint type {c['type']!r}")

    @staticmethod
    def domain_text(c: Constraint) -> str:
        return (
            "A triangle has vertices 0, 1 and 2; its edges e01 (between 0 and 1), e12 (between 1 and 2) and e20 "
            f"(between 2 and 0) carry integer weights from {c['lower']} to {c['upper']}. A path sum is the total "
            "weight of the two edges meeting at a vertex: s1 = e01 + e12 (through vertex 1), s2 = e12 + e20 "
            "(through vertex 2) and s3 = e01 + e20 (through vertex 0)."
        )

    def slot_name(self, c: Constraint) -> str | None:
        return c["name"] if c["type"] == "lin_eq" else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        edges, vertex = SUMS[slot]
        plus = " + ".join(edges)
        flipped = " + ".join(reversed(edges))
        ordinal = {"s1": "first", "s2": "second", "s3": "third"}[slot]
        return [
            f"the path sum {slot} = {plus}",
            slot,
            f"the path sum {slot}",
            f"the {ordinal} path sum",
            f"{plus}",
            f"{flipped}",
            f"the value of {plus}",
            f"the path sum through vertex {vertex}",
            f"the sum of {edges[0]} and {edges[1]}",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "lin_eq":
            return None
        k = int(c["name"][1:])
        return SlotDescription("path sum", (k,), synonyms=("sum", "path weight"), attribute="sum of edge weights")

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["edges"][e] for e in EDGES)


FAMILY = GraphPathSums()
