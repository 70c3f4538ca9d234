"""A4 graph_path_sums: triangle 0-1-2 with edge weights e01, e12, e20 in [1, 2+d].

A knows the path sums s1 = e01 + e12 and s2 = e12 + e20; B holds s3 = e01 + e20; target (e01, e12, e20).

A's two sums leave one free parameter (e12). A is told the weights are integers in [1, 2+d], so the
solver enumerates the integer points of that line inside the box; instances where the box leaves only one
(e.g. s1 = 2 forces e01 = e12 = 1, as in the release's gra-000199) are rejected.

Hard tier (docs/hard-tier.md): the triangle becomes an odd cycle (``HARD_VERTICES``: 5 vertices at d4, 7 at d5)
with weights in [1, 2+d] as before; path sum s_i runs through vertex i (s_n through vertex 0), A holds s1..s_(n-1),
B holds s_n, and the odd cycle makes all n sums fix the n edges. At k = 2, B also holds another path sum of A's
(the family's only kind of fact: another index); A's domain statement already names every sum alike.
"""

from __future__ import annotations

import random
from typing import Any

from generators.base import Constraint, HintSlot, Reject, Views, absent_slots
from generators.describe import ORDINALS, SlotDescription
from generators.intlinalg import BoxFamily, equation_alternatives, integer_points, solve_box, with_statement

EDGES = ("e01", "e12", "e20")
# path sum name -> (edges, the vertex the two edges share)
SUMS = {"s1": (("e01", "e12"), 1), "s2": (("e12", "e20"), 2), "s3": (("e01", "e20"), 0)}
ROWS = {name: [int(e in edges) for e in EDGES] for name, (edges, _) in SUMS.items()}
HARD_VERTICES = {4: 5, 5: 7}


def cycle_edges(n: int) -> tuple[str, ...]:
    """e01, e12, ..., e(n-1)0: the edges of the cycle 0-1-...-(n-1)-0 (the triangle's EDGES for n = 3)."""
    return tuple(f"e{i}{(i + 1) % n}" for i in range(n))


def cycle_sums(n: int) -> dict[str, tuple[tuple[str, str], int]]:
    """Path sum name -> (its two edges, the vertex they share), as ``SUMS`` for n = 3."""
    edges = cycle_edges(n)
    sums = {f"s{i}": ((edges[i - 1], edges[i]), i) for i in range(1, n)}
    sums[f"s{n}"] = ((edges[0], edges[-1]), 0)
    return sums


class GraphPathSums(BoxFamily):
    name = "graph_path_sums"
    prefix = "gra"
    type = "A"
    answer_type = "dict_int"
    answer_keys = EDGES

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        if difficulty in HARD_VERTICES:
            return self.sample_cycle(rng, difficulty)
        top = 2 + difficulty
        weights = [rng.randint(1, top) for _ in EDGES]
        rows = [ROWS["s1"], ROWS["s2"]]
        rhs = [sum(k * w for k, w in zip(row, weights, strict=True)) for row in rows]
        if len(integer_points(rows, rhs, 3, 1, top, limit=2)) < 2:
            raise Reject("positivity and the weight range already pin the edges from s1 and s2")
        return {"edges": dict(zip(EDGES, weights, strict=True)), "max_weight": top}

    def sample_cycle(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        """d >= 4: an odd cycle of ``HARD_VERTICES[d]`` vertices, weights in [1, 2+d]."""
        top, n = 2 + difficulty, HARD_VERTICES[difficulty]
        edges = cycle_edges(n)
        weights = [rng.randint(1, top) for _ in edges]
        sums = cycle_sums(n)
        rows = [[int(e in sums[f"s{i}"][0]) for e in edges] for i in range(1, n)]
        rhs = [sum(k * w for k, w in zip(row, weights, strict=True)) for row in rows]
        if len(integer_points(rows, rhs, n, 1, top, limit=2)) < 2:
            raise Reject("positivity and the weight range already pin the edges from s1 .. s(n-1)")
        return {"edges": dict(zip(edges, weights, strict=True)), "max_weight": top, "n_vertices": n}

    def _sum(self, name: str, z: dict[str, Any]) -> Constraint:
        n = z.get("n_vertices", 3)
        edges, _ = SUMS[name] if n == 3 else cycle_sums(n)[name]
        return {
            "type": "lin_eq",
            "name": name,
            "coeffs": {e: int(e in edges) for e in (EDGES if n == 3 else cycle_edges(n))},
            "rhs": sum(z["edges"][e] for e in edges),
        }

    def cycle_views(self, z: dict[str, Any]) -> Views:
        n, top = z["n_vertices"], z["max_weight"]
        edges = cycle_edges(n)
        domain = with_statement({"type": "domain", "integer": True, "lower": 1, "upper": top, "n_vertices": n},
                                self.cycle_domain_text)
        sums = [self._sum(f"s{i}", z) for i in range(1, n + 1)]
        last = sums[-1]
        return Views(
            a=[domain, *sums[:-1]],
            b=[last],
            hint=last,
            slot=last["name"],
            value=last["rhs"],
            target={"type": "edge_weights", "vars": list(edges)},
            question=f"What are the {n} edge weights ({', '.join(edges)})? Give the {n} integers.",
            unknowns=list(edges),
        )

    @staticmethod
    def cycle_domain_text(c: Constraint) -> str:
        n = c["n_vertices"]
        edges = cycle_edges(n)
        where = ", ".join(f"{e} (between {e[1]} and {e[2]})" for e in edges)
        sums = ", ".join(f"s{k} = {a} + {b} (through vertex {v})" for k, ((a, b), v) in
                         ((int(name[1:]), spec) for name, spec in cycle_sums(n).items()))
        return (
            f"A cycle has vertices 0, 1, ..., {n - 1}, each joined to the next and {n - 1} to 0; its edges {where} "
            f"carry integer weights from {c['lower']} to {c['upper']}. A path sum is the total weight of the two "
            f"edges meeting at a vertex: {sums}."
        )

    def keys_for(self, z: dict[str, Any]) -> tuple[str, ...]:
        return tuple(z["edges"])

    def solve(self, constraints: list[Constraint], target: dict[str, Any]):
        return solve_box(constraints, tuple(target["vars"]))

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        return equation_alternatives(hint, view_a, tuple(target["vars"]))

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: another of A's path sums (the family's only kind of fact)."""
        return [HintSlot(c, c["name"], c["rhs"]) for c in views.a if c["type"] == "lin_eq"]

    def views(self, z: dict[str, Any]) -> Views:
        if "n_vertices" in z:
            return self.cycle_views(z)
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
        """The path sums that A holds no value for: any one of them completes the others (n sums on an n-cycle,
        n from A's domain statement; 3 on the triangle)."""
        n = next((c["n_vertices"] for c in view_a if c["type"] == "domain" and "n_vertices" in c), 3)
        return absent_slots(self, SUMS if n == 3 else cycle_sums(n), view_a)

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "lin_eq":
                terms = " + ".join(e for e, k in c["coeffs"].items() if k)
                return f"{c['name']} = {terms} = {c['rhs']}"
            case "domain":
                return self.cycle_domain_text(c) if "n_vertices" in c else self.domain_text(c)
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
        n = len(hint.get("coeffs", ())) or 3
        edges, vertex = SUMS[slot] if n == 3 else cycle_sums(n)[slot]
        plus = " + ".join(edges)
        flipped = " + ".join(reversed(edges))
        ordinal = ORDINALS[int(slot[1:])]
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
        return SlotDescription("path sum", (k,), synonyms=("sum", "path weight"), attribute="sum of edge weights",
                               meanings=path_sum_meanings(c["name"], len(c.get("coeffs", ())) or 3))


def path_sum_meanings(name: str, n: int) -> tuple[str, ...]:
    """Domain phrases for the path sum ``name`` on the n-cycle: the total weight at its vertex (its weighted
    degree), the sum of its two edges, the two-edge path x - v - y through its vertex."""
    (a, b), v = SUMS[name] if n == 3 else cycle_sums(n)[name]
    x, y = (int(e[1]) if int(e[2]) == v else int(e[2]) for e in (a, b))  # the edges' other ends
    return (
        f"the total weight of the two edges at vertex {v}",
        f"the sum of the edge weights at vertex {v}",
        f"the total edge weight at vertex {v}",
        f"the weighted degree of vertex {v}",
        f"vertex {v}'s weighted degree",
        f"the strength of vertex {v}",
        f"the total edge weight incident to vertex {v}",
        f"the sum of the weights incident on vertex {v}",
        f"the combined weight of the edges meeting at vertex {v}",
        f"the weight of the edges touching vertex {v}",
        f"how much the edges at vertex {v} weigh together",
        f"the total weight at node {v}",
        f"node {v}'s path sum",
        f"the weight of the path through vertex {v}",
        f"the length of the two-edge path through vertex {v}",
        f"the weight of the path from vertex {x} to vertex {y} via vertex {v}",
        f"the path from {x} through {v} to {y}",
        f"the path {x}-{v}-{y}",
        f"the weight of path {x}-{v}-{y}",
        f"the length of the path {x} to {y} through {v}",
        f"the combined weight of {a} and {b}",
        f"the combined weight of edges {a} and {b}",
        f"the total of {a} and {b}",
        f"{a} plus {b}",
        f"{b} plus {a}",
        f"{a} and {b} added together",
        f"the sum of edges {a} and {b}",
        f"edge {a} plus edge {b}",
        f"the weights of {a} and {b} added up",
        f"the sum of the two edges at vertex {v}",
        f"the sum of the edges adjacent to vertex {v}",
    )

    def answer_from_latent(self, z: dict[str, Any]) -> tuple[int, ...]:
        return tuple(z["edges"].values())


FAMILY = GraphPathSums()
