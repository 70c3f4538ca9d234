"""A6 matrix_completion: a rank-1 2x2 matrix M = u v^T with u_i, v_i in [1, 2+d].

A knows the first row (m00, m01); B holds m10; target the integer m11 = m01 * m10 / m00.

A is told that M has rank 1 and positive integer entries (without rank 1 no entry determines m11). Under
that domain m10 can be any positive multiple of m00 / gcd(m00, m01), so A's view never pins m11.

Hard tier (docs/hard-tier.md): M grows to n x n (``HARD_SIZE``: 3x3 at d4, 4x4 at d5), u_i, v_j in [1, 2+d] as
before, and the paper's three entries become a path (``path_cells``) that alternates rows and columns from row n-1
to column n-1: m(n-1)0, m(n-2)0, m(n-2)1, ..., m0(n-1) (for n = 2 exactly m10, m00, m01). B holds its first entry
m(n-1)0; A holds the rest, so m(n-1)(n-1) = m(n-1)0 * m(n-2)1 * ... / (m(n-2)0 * ...) takes 2n - 1 entries. At
k = 2, B also holds another entry of A's path (the family's only kind of fact: another cell); A's domain statement
names every entry alike.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from generators.base import Constraint, Family, HintSlot, Views, absent_slots, by_type
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique
from generators.intlinalg import with_statement

CELLS = ((0, 0), (0, 1), (1, 0), (1, 1))
HARD_SIZE = {4: 3, 5: 4}


def path_cells(n: int) -> list[tuple[int, int]]:
    """The cells of the path row n-1, column 0, row n-2, column 1, ..., row 0, column n-1 (the hint's first)."""
    cells = []
    for i in range(n - 1):
        cells += [(n - 1 - i, i), (n - 2 - i, i)]
    return [*cells, (0, n - 1)]


def rank_one_factors(
    known: dict[tuple[int, int], int], n: int
) -> tuple[dict[int, Fraction], dict[int, Fraction], set[tuple[int, int]]]:
    """Row and column factors (u, v) as Fractions, one connected component of the known entries at a time (each
    component's first node gets 1), and the cells they fix (row and column in one component: u_i v_j does not
    depend on the component's scale); ``Inconsistent`` when the entries contradict rank 1."""
    u: dict[int, Fraction] = {}
    v: dict[int, Fraction] = {}
    component: dict[tuple[str, int], int] = {}
    for start in [("r", i) for i in range(n)] + [("c", j) for j in range(n)]:
        if start in component:
            continue
        component[start] = len(component)
        label = component[start]
        (u if start[0] == "r" else v)[start[1]] = Fraction(1)
        stack = [start]
        while stack:
            side, k = stack.pop()
            for (i, j), m in known.items():
                if side == "r" and i == k and ("c", j) not in component:
                    v[j] = Fraction(m) / u[i]
                    component["c", j] = label
                    stack.append(("c", j))
                elif side == "c" and j == k and ("r", i) not in component:
                    u[i] = Fraction(m) / v[j]
                    component["r", i] = label
                    stack.append(("r", i))
    for (i, j), m in known.items():
        if u[i] * v[j] != m:
            raise Inconsistent(f"the entries contradict rank 1 at m{i}{j}")
    settled = {(i, j) for i in range(n) for j in range(n) if component["r", i] == component["c", j]}
    return u, v, settled


def entry(row: int, col: int, value: int) -> Constraint:
    return {"type": "entry", "row": row, "col": col, "value": value}


class MatrixCompletion(Family):
    name = "matrix_completion"
    prefix = "mat"
    type = "A"
    answer_type = "int"

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        top = 2 + difficulty
        n = HARD_SIZE.get(difficulty, 2)
        u = [rng.randint(1, top) for _ in range(n)]
        v = [rng.randint(1, top) for _ in range(n)]
        return {"u": u, "v": v}

    def hard_views(self, z: dict[str, Any]) -> Views:
        """n >= 3: the path of ``path_cells``; entries carry ``size`` = n (not rendered)."""
        u, v = z["u"], z["v"]
        n = len(u)
        cells = [{**entry(i, j, u[i] * v[j]), "size": n} for i, j in path_cells(n)]
        domain = with_statement({"type": "domain", "rank": 1, "positive_integer": True, "size": n},
                                self.domain_text)
        hint = cells[0]
        last = n - 1
        return Views(
            a=[*cells[1:], domain],
            b=[hint],
            hint=hint,
            slot=f"m{last}0",
            value=hint["value"],
            target={"type": "matrix_entry", "row": last, "col": last, "size": n},
            question=f"What is m{last}{last}, the entry in row {last}, column {last} (bottom right) of M? "
            "Give the integer.",
            unknowns=[f"m{last}{last}"],
        )

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: another entry of A's path (an entry is the family's only kind of fact)."""
        return [HintSlot(c, self.slot_name(c), c["value"]) for c in views.a if c["type"] == "entry"]

    def solve_square(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        """n x n (hard tier): the known entries' rank-1 factors fix the target when its row and column are joined
        by known entries; every entry they fix must be a positive integer when A is told so."""
        n = target["size"]
        known: dict[tuple[int, int], int] = {}
        for c in by_type(constraints, "entry"):
            cell = (c["row"], c["col"])
            if not (0 <= cell[0] < n and 0 <= cell[1] < n):
                raise Inconsistent(f"no entry {cell} in a {n}x{n} matrix")
            if known.setdefault(cell, c["value"]) != c["value"]:
                raise Inconsistent(f"two values for m{cell[0]}{cell[1]}")
        domain = by_type(constraints, "domain")
        positive = any(d.get("positive_integer") for d in domain)
        if positive and any(isinstance(x, bool) or not isinstance(x, int) or x <= 0 for x in known.values()):
            raise Inconsistent("an entry is not a positive integer")
        i, j = target["row"], target["col"]
        if not any(d.get("rank") == 1 for d in domain):
            if (i, j) in known:
                return known[i, j]
            raise NotUnique("without the rank condition the other entries say nothing about the target")
        u, v, settled = rank_one_factors(known, n)
        if positive and any((u[r] * v[c]).denominator != 1 for r, c in settled):
            raise Inconsistent("an entry that the others fix would not be an integer")
        if (i, j) not in settled:
            raise NotUnique(f"no chain of known entries joins row {i} to column {j}")
        return int(u[i] * v[j])

    def views(self, z: dict[str, Any]) -> Views:
        if len(z["u"]) > 2:
            return self.hard_views(z)
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
        if "size" in target:
            return self.solve_square(constraints, target)
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
        n = next((c["size"] for c in by_type(view_a, "domain") if "size" in c), 2)
        cells = CELLS if n == 2 else [(i, j) for i in range(n) for j in range(n)]
        return absent_slots(self, [f"m{i}{j}" for i, j in cells if (i, j) != (n - 1, n - 1)], view_a)

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        if "size" in target:  # n x n: the entry scaled (the solver rejects a completion with a non-integer entry)
            value = hint["value"]
            for k in (2, 3, 5):
                yield {**hint, "value": value * k}
                if value % k == 0:
                    yield {**hint, "value": value // k}
            return
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
        if c.get("size", 2) != 2:
            n = c["size"]
            names = ", ".join(f"m{i}{j}" for i in range(n) for j in range(n))
            return (f"M is a {n}x{n} matrix {rank} whose entries are {entries}; mij is the entry in row i and "
                    f"column j, counted from 0 to {n - 1} (m01 is row 0, column 1), so its entries are {names}.")
        return (
            f"M = [[m00, m01], [m10, m11]] is a 2x2 matrix {rank} whose entries are {entries}; mij is the entry in "
            "row i and column j, counted from 0 (m01 is row 0, column 1)."
        )

    def slot_name(self, c: Constraint) -> str | None:
        return f"m{c['row']}{c['col']}" if c["type"] == "entry" else None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        i, j = int(slot[1]), int(slot[2])
        last = hint.get("size", 2) - 1
        corners = {(0, 0): "top-left", (0, last): "top-right", (last, 0): "bottom-left", (last, last): "bottom-right"}
        if (i, j) not in corners:
            return [f"the entry {slot}", slot, f"m[{i}][{j}]", f"M[{i}][{j}]", f"m_{i}{j}", f"m_{{{i}{j}}}",
                    f"M_{i}{j}", f"the ({i},{j}) entry", f"the entry in row {i}, column {j}"]
        where = corners[i, j]
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
                               synonyms=("cell", "element", "matrix entry"),
                               meanings=_entry_meanings(c["row"], c["col"]))

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        return z["u"][-1] * z["v"][-1]


FAMILY = MatrixCompletion()


def _entry_meanings(i: int, j: int) -> tuple[str, ...]:
    """How a reader asks for the entry of M in row ``i``, column ``j`` (from 0) in words: the number sitting at
    that position, with the row always before the column (as the family numbers them), and counted from one."""
    at, pair = f"row {i}, column {j}", f"({i}, {j})"
    row1, col1 = ordinal_words(i + 1)[0], ordinal_words(j + 1)[0]
    return (f"the number in {at}", f"the value in {at}", f"the integer in {at}", f"the number at {at}",
            f"the value at {at}", f"the value in row {i} and column {j}", f"the number in row {i} and column {j}",
            f"what sits in {at}", f"what is in {at}", f"what goes in {at}", f"what M has in {at}",
            f"the number M holds at {at}", f"M's entry at {at}", f"M's value at {at}", f"the matrix value at {at}",
            f"the cell at {at}", f"the entry in row {i} col {j}", f"row {i} col {j}", f"row {i}, col {j}",
            f"the entry at position {pair}", f"the element at position {pair}", f"the value at position {pair}",
            f"the number at position {pair}", f"the {pair} element", f"the {pair} cell", f"the {pair} value",
            f"the value of M at {pair}", f"the entry of M at {pair}", f"the value in cell {pair}", f"M{pair}",
            f"M[{i}, {j}]", f"m[{i}, {j}]", f"m_{{{i}, {j}}}", f"m_({i}, {j})", f"the {i},{j} entry",
            f"the {i},{j} element", f"the entry with row index {i} and column index {j}",
            f"the element with row index {i} and column index {j}",
            f"the entry whose row is {i} and column is {j}", f"row index {i}, column index {j}",
            f"the number in the {row1} row and {col1} column", f"the value in the {row1} row and {col1} column",
            f"the {row1} row's {col1} entry", f"the {row1} row, {col1} entry", f"the {col1} number in the {row1} row",
            f"the {col1} value in the {row1} row", f"the {row1} row, {col1} position",
            f"the entry ({i + 1}, {j + 1}) counting from 1", f"entry ({i + 1}, {j + 1}) in 1-based indexing",
            f"the ({i + 1}, {j + 1}) entry in 1-based indexing")
