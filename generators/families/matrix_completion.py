"""A6 matrix_completion: a rank-1 2x2 matrix M = u v^T with u_i, v_i in [1, 2+d].

A knows the first row (m00, m01); B holds m10; target the integer m11 = m01 * m10 / m00.

A is told that M has rank 1 and positive integer entries (without rank 1 no entry determines m11). Under
that domain m10 can be any positive multiple of m00 / gcd(m00, m01), so A's view never pins m11.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from generators.base import Constraint, Family, Views, absent_slots, by_type
from generators.describe import SlotDescription
from generators.errors import Inconsistent, NotUnique
from generators.intlinalg import with_statement

CELLS = ((0, 0), (0, 1), (1, 0), (1, 1))


def entry(row: int, col: int, value: int) -> Constraint:
    return {"type": "entry", "row": row, "col": col, "value": value}


class MatrixCompletion(Family):
    name = "matrix_completion"
    prefix = "mat"
    type = "A"
    answer_type = "int"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        top = 2 + difficulty
        u = [rng.randint(1, top) for _ in range(2)]
        v = [rng.randint(1, top) for _ in range(2)]
        return {"u": u, "v": v}

    def views(self, z: dict[str, Any]) -> Views:
        u, v = z["u"], z["v"]
        m = {(i, j): u[i] * v[j] for i, j in CELLS}
        domain = with_statement({"type": "domain", "rank": 1, "positive_integer": True}, self.domain_text)
        hint = entry(1, 0, m[1, 0])
        return Views(
            a=[entry(0, 0, m[0, 0]), entry(0, 1, m[0, 1]), domain],
            b=[hint],
            hint=hint,
            slot="m10",
            value=hint["value"],
            target={"type": "matrix_entry", "row": 1, "col": 1},
            question="What is m11, the entry in row 1, column 1 (bottom right) of M? Give the integer.",
            unknowns=["m11"],
        )

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int | Fraction:
        known: dict[tuple[int, int], int] = {}
        for c in by_type(constraints, "entry"):
            cell = (c["row"], c["col"])
            if cell not in CELLS:
                raise Inconsistent(f"no entry {cell} in a 2x2 matrix")
            if known.setdefault(cell, c["value"]) != c["value"]:
                raise Inconsistent(f"two values for m{cell[0]}{cell[1]}")
        domain = by_type(constraints, "domain")
        rank_one = any(d.get("rank") == 1 for d in domain)
        positive = any(d.get("positive_integer") for d in domain)
        if positive and any(isinstance(x, bool) or not isinstance(x, int) or x <= 0 for x in known.values()):
            raise Inconsistent("an entry is not a positive integer")
        i, j = target["row"], target["col"]
        if rank_one and len(known) == 4 and known[0, 0] * known[1, 1] != known[0, 1] * known[1, 0]:
            raise Inconsistent("the entries do not form a rank-1 matrix")
        if (i, j) in known:
            return known[i, j]
        if not rank_one:
            raise NotUnique("without the rank condition the other entries say nothing about the target")
        across, down, diagonal = (i, 1 - j), (1 - i, j), (1 - i, 1 - j)
        if not all(cell in known for cell in (across, down, diagonal)):
            raise NotUnique("a rank-1 2x2 matrix needs three entries to fix the fourth")
        if known[diagonal] == 0:
            raise NotUnique("the opposite entry is 0, so the rank-1 identity does not fix the target")
        value = Fraction(known[across] * known[down], known[diagonal])
        if positive and value.denominator != 1:
            raise Inconsistent(f"m{i}{j} = {value} would not be an integer")
        return value.numerator if value.denominator == 1 else value

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The entries of M, other than the target m11, that A holds no value for.

        With rank 1, m00·m11 = m01·m10: A holds m00 and m01, so the one entry that fixes m11 is m10.
        """
        return absent_slots(self, [f"m{i}{j}" for i, j in CELLS if (i, j) != (1, 1)], view_a)

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        # positive multiples of m00 keep m11 = m01 * m10 / m00 a positive integer
        known = {(c["row"], c["col"]): c["value"] for c in by_type(view_a, "entry")}
        base = known.get((0, 0), 1)
        for k in (1, 2, 3):
            yield {**hint, "value": base * k}

    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "entry":
                return f"m{c['row']}{c['col']} = {c['value']}"
            case "domain":
                return self.domain_text(c)
        raise ValueError(f"unknown constraint type {c['type']!r}")

    @staticmethod
    def domain_text(c: Constraint) -> str:
        rank = f"of rank {c['rank']}" if c.get("rank") is not None else "(of unknown rank)"
        entries = "positive integers" if c.get("positive_integer") else "numbers"
        return (
            f"M = [[m00, m01], [m10, m11]] is a 2x2 matrix {rank} whose entries are {entries}; mij is the entry in "
            "row i and column j, counted from 0 (m01 is row 0, column 1)."
        )

    def slot_name(self, c: Constraint) -> str | None:
        return f"m{c['row']}{c['col']}" if c["type"] == "entry" else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        i, j = int(slot[1]), int(slot[2])
        where = {(0, 0): "top-left", (0, 1): "top-right", (1, 0): "bottom-left", (1, 1): "bottom-right"}[i, j]
        return [
            f"the entry {slot}",
            slot,
            f"m[{i}][{j}]",
            f"M[{i}][{j}]",
            f"m_{i}{j}",
            f"m_{{{i}{j}}}",
            f"M_{i}{j}",
            f"the ({i},{j}) entry",
            f"the entry in row {i}, column {j}",
            f"the {where} entry",
            f"the {where} entry of M",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "entry":
            return None
        return SlotDescription("entry", (c["row"], c["col"]), axes=("row", "column"), base=0, owner="M",
                               synonyms=("cell", "element", "matrix entry"))

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        return z["u"][1] * z["v"][1]


FAMILY = MatrixCompletion()
