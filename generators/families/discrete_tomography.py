"""B4 discrete_tomography: a 3x3 binary grid known by its row and column sums; target one ambiguous cell.

Paper: G uniform on {0,1}^(3x3); A knows r0..r2 and c0..c2; the target cell is one whose value differs across the
grids with those sums; the hint cell (!= target) is found by search so that revealing its value leaves exactly one
consistent grid; B holds that cell; the answer is the target bit. No difficulty scaling: always run at d = 1.

Decisions and changes (docs/deviations): the target is uniform over the ambiguous cells and the hint uniform over
the qualifying cells; a draw without a qualifying hint cell is rejected (the paper's "reject ambiguous targets
without a sufficient hint cell"). A qualifying hint cell must also determine the target when it has the *other*
value (so the two answers A cannot tell apart correspond to B's two possible replies; this is what the validator's
witness shows).

Which cell B holds cannot be read off A's view: the cells whose value would settle the target (A's candidates,
``candidates_for``) are one cell (144 of the 1,440 (grid, target, hint) triples) or three (the other three corners of
the one 2x2 switch between the two grids with A's sums). Either value of any one of them settles all of them, so
B's fact names them all: the hint carries ``settles`` (the other candidates), its text says that with the sums it
also settles them, and a request for any candidate is a request for it (docs/deviations/typeB-localization.md).
Only the slot-notice ablation tells A which cell B holds (the release left A guessing among nine cells).
"""

from __future__ import annotations

import random
import re
from typing import Any

from generators.base import Constraint, Family, Reject, Views, missing_slot_note
from generators.describe import SlotDescription
from generators.errors import Inconsistent, NotUnique

SIZE = 3
_CELL = re.compile(r"^cell\((\d),(\d)\)$")
_SUM = re.compile(r"^(row|col)_sum\((\d)\)$")

GRID_STATEMENT = (
    "G is a 3x3 grid in which every cell is 0 or 1. Rows and columns are numbered 0, 1, 2 (row 0 at the top, "
    "column 0 at the left); cell(i,j) is the entry in row i and column j, so the cells are "
    + ", ".join(f"cell({i},{j})" for i in range(3) for j in range(3))
    + ". r_i is the sum of row i and c_j the sum of column j."
)


def bit(g: int, i: int, j: int) -> int:
    """Grids are 9-bit integers: cell(i,j) is bit 3i + j."""
    return (g >> (SIZE * i + j)) & 1


def margins(g: int) -> tuple[int, ...]:
    rows = tuple(sum(bit(g, i, j) for j in range(SIZE)) for i in range(SIZE))
    cols = tuple(sum(bit(g, i, j) for i in range(SIZE)) for j in range(SIZE))
    return rows + cols


def _by_margins() -> dict[tuple[int, ...], list[int]]:
    table: dict[tuple[int, ...], list[int]] = {}
    for g in range(1 << (SIZE * SIZE)):
        table.setdefault(margins(g), []).append(g)
    return table


GRIDS_BY_MARGINS = _by_margins()  # every binary 3x3 grid, grouped by its (r0, r1, r2, c0, c1, c2)
MARGINS = [margins(g) for g in range(1 << (SIZE * SIZE))]


def to_rows(g: int) -> list[list[int]]:
    return [[bit(g, i, j) for j in range(SIZE)] for i in range(SIZE)]


def from_rows(rows: list[list[int]]) -> int:
    return sum(rows[i][j] << (SIZE * i + j) for i in range(SIZE) for j in range(SIZE))


def qualifying_hints(g: int, target: tuple[int, int]) -> list[tuple[int, int]]:
    """Cells != target whose true value leaves exactly one grid and whose other value fixes the other bit."""
    completions = GRIDS_BY_MARGINS[MARGINS[g]]
    t = bit(g, *target)
    out = []
    for i in range(SIZE):
        for j in range(SIZE):
            if (i, j) == target:
                continue
            v = bit(g, i, j)
            same = [c for c in completions if bit(c, i, j) == v]
            other = [c for c in completions if bit(c, i, j) != v]
            if len(same) == 1 and other and all(bit(c, *target) != t for c in other):
                out.append((i, j))
    return out


def cell_slot(i: int, j: int) -> str:
    return f"cell({i},{j})"


def settling_cells(sums: tuple[int, ...], target: tuple[int, int]) -> list[tuple[int, int]]:
    """Cells != ``target`` left open by the sums whose every possible value leaves ``target`` one value."""
    completions = GRIDS_BY_MARGINS.get(tuple(sums), [])
    out = []
    for i in range(SIZE):
        for j in range(SIZE):
            if (i, j) == target or len({bit(g, i, j) for g in completions}) < 2:
                continue
            if all(len({bit(g, *target) for g in completions if bit(g, i, j) == v}) == 1 for v in (0, 1)):
                out.append((i, j))
    return out


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def missing_domain(slot: str) -> Constraint:
    return missing_slot_note(slot, f"No cell values are given here; your partner knows the value of {slot}.")


class DiscreteTomography(Family):
    name = "discrete_tomography"
    prefix = "dis"
    type = "B"
    answer_type = "int"
    scales_with_difficulty = False

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        g = rng.randrange(1 << (SIZE * SIZE))  # uniform on {0,1}^(3x3)
        completions = GRIDS_BY_MARGINS[MARGINS[g]]
        ambiguous = [
            (i, j) for i in range(SIZE) for j in range(SIZE) if len({bit(c, i, j) for c in completions}) > 1
        ]
        if not ambiguous:
            raise Reject("the sums determine the whole grid")
        target = rng.choice(ambiguous)
        hints = qualifying_hints(g, target)
        if not hints:
            raise Reject("no sufficient hint cell for this target")
        hint = rng.choice(hints)
        return {"grid": to_rows(g), "target": list(target), "hint": list(hint)}

    def views(self, z: dict[str, Any]) -> Views:
        g = from_rows(z["grid"])
        m = MARGINS[g]
        (ti, tj), (hi, hj) = z["target"], z["hint"]
        slot = f"cell({hi},{hj})"
        settles = [cell_slot(i, j) for i, j in settling_cells(m, (ti, tj)) if (i, j) != (hi, hj)]
        hint = {"type": "cell", "row": hi, "col": hj, "value": bit(g, hi, hj), "settles": settles}
        a: list[Constraint] = [{"type": "domain", "statement": GRID_STATEMENT}]
        a += [{"type": "row_sum", "row": i, "value": m[i]} for i in range(SIZE)]
        a += [{"type": "col_sum", "col": j, "value": m[SIZE + j]} for j in range(SIZE)]
        a.append(missing_domain(slot))
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=slot,
            value=hint["value"],
            target={"type": "cell_value", "row": ti, "col": tj},
            question=f"What is the value (0 or 1) of cell({ti},{tj}), the entry in row {ti} and column {tj}?",
            unknowns=[f"cell({ti},{tj})"],
        )

    # ------------------------------------------------------------------ solving from constraints
    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        sums: dict[tuple[str, int], int] = {}
        cells: dict[tuple[int, int], int] = {}
        for c in constraints:
            kind = c["type"]
            if kind in ("row_sum", "col_sum"):
                key = (kind, c["row"] if kind == "row_sum" else c["col"])
                if not 0 <= key[1] < SIZE:
                    raise Inconsistent(f"{kind} of a line outside the grid")
                if sums.setdefault(key, c["value"]) != c["value"]:
                    raise Inconsistent(f"two values for {kind} {key[1]}")
            elif kind == "cell":
                key2, v = (c["row"], c["col"]), c["value"]
                if not (0 <= key2[0] < SIZE and 0 <= key2[1] < SIZE) or isinstance(v, bool) or v not in (0, 1):
                    raise Inconsistent(f"cell({key2[0]},{key2[1]}) = {v!r} is not a 0/1 cell of the grid")
                if cells.setdefault(key2, v) != v:
                    raise Inconsistent(f"two values for cell({key2[0]},{key2[1]})")
            elif kind == "domain" and "missing_slot" not in c and c["statement"] != GRID_STATEMENT:
                raise Inconsistent("unknown domain statement")
        full = [sums.get(("row_sum", i)) for i in range(SIZE)] + [sums.get(("col_sum", j)) for j in range(SIZE)]
        if None not in full:
            candidates = GRIDS_BY_MARGINS.get(tuple(full), [])  # type: ignore[arg-type]
        elif sums:
            given = [(k, s) for k, s in enumerate(full) if s is not None]
            candidates = [g for g, m in enumerate(MARGINS) if all(m[k] == s for k, s in given)]
        else:
            candidates = list(range(len(MARGINS)))
        if cells:
            mask = sum(1 << (SIZE * i + j) for i, j in cells)
            want = sum(v << (SIZE * i + j) for (i, j), v in cells.items())
            candidates = [g for g in candidates if g & mask == want]
        if not candidates:
            raise Inconsistent("no binary grid satisfies the constraints")
        ti, tj = target["row"], target["col"]
        if not (0 <= ti < SIZE and 0 <= tj < SIZE):
            raise Inconsistent("the target cell is outside the grid")
        if (ti, tj) in cells:  # the paper's rule: the hint cell is never the target cell
            raise Inconsistent(f"the target cell({ti},{tj}) itself is given")
        value = bit(candidates[0], ti, tj)
        if any(bit(g, ti, tj) != value for g in candidates):
            raise NotUnique(f"cell({ti},{tj}) is 0 in some consistent grids and 1 in others")
        return value

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        for v in (0, 1):
            if v != hint["value"]:
                yield {**hint, "value": v}

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The cells the row and column sums leave open (a value for one of them is news to A)."""
        completions = GRIDS_BY_MARGINS.get(self._margins(view_a), [])
        cells = [(i, j) for i in range(SIZE) for j in range(SIZE)]
        return [cell_slot(i, j) for i, j in cells if len({bit(g, i, j) for g in completions}) > 1]

    def candidates_for(self, view_a: list[Constraint], target: dict[str, Any]) -> list[str]:
        """The cells other than the asked one whose value, whichever it is, settles the asked cell."""
        return [cell_slot(i, j) for i, j in settling_cells(self._margins(view_a), (target["row"], target["col"]))]

    @staticmethod
    def _margins(view_a: list[Constraint]) -> tuple[int, ...]:
        rows = {c["row"]: c["value"] for c in view_a if c["type"] == "row_sum"}
        cols = {c["col"]: c["value"] for c in view_a if c["type"] == "col_sum"}
        if sorted(rows) != list(range(SIZE)) or sorted(cols) != list(range(SIZE)):
            raise NotUnique("not every row and column sum is given")
        return tuple(rows[i] for i in range(SIZE)) + tuple(cols[j] for j in range(SIZE))

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        return z["grid"][z["target"][0]][z["target"][1]]

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        match c["type"]:
            case "row_sum":
                return f"r_{c['row']} = {c['value']} (row {c['row']} sums to {c['value']})"
            case "col_sum":
                return f"c_{c['col']} = {c['value']} (column {c['col']} sums to {c['value']})"
            case "cell":
                text = f"cell({c['row']},{c['col']}) = {c['value']}"
                if c.get("settles"):
                    text += f" (with the row and column sums, this also settles {_listed(c['settles'])})"
                return text
            case "domain":
                return c["statement"]
        raise ValueError(f"unknown constraint type {c['type']!r}")

    def slot_name(self, c: Constraint) -> str | None:
        match c["type"]:
            case "cell":
                return f"cell({c['row']},{c['col']})"
            case "row_sum":
                return f"row_sum({c['row']})"
            case "col_sum":
                return f"col_sum({c['col']})"
        return None

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        m = _CELL.match(slot)
        if m and hint.get("type") == "cell" and hint.get("settles"):  # B's fact settles every candidate cell
            return self.aliases_with_settled(slot, hint)
        if m:
            i, j = m.groups()
            return [
                f"the value of cell({i},{j})",
                f"cell({i},{j})",
                f"cell({i}, {j})",
                f"cell ({i},{j})",
                f"G[{i}][{j}]",
                f"G_{i}{j}",
                f"c{i}{j}",
                f"x_{i}_{j}",
                f"the cell in row {i}, column {j}",
                f"the entry in row {i} and column {j}",
                f"the value at row {i}, column {j}",
            ]
        m = _SUM.match(slot)
        if m:
            line, k = m.groups()
            word, short = ("row", "r") if line == "row" else ("column", "c")
            return [f"the sum of {word} {k}", slot, f"{short}_{k}", f"{word} {k} sum", f"the {word} sum {short}_{k}"]
        raise ValueError(f"not a tomography slot: {slot!r}")

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] == "cell":
            return SlotDescription("cell", (c["row"], c["col"]), axes=("row", "column"), base=0, owner="the grid",
                                   synonyms=("entry", "grid cell", "square"), extent=(SIZE, SIZE))
        if c["type"] in ("row_sum", "col_sum"):
            axis = "row" if c["type"] == "row_sum" else "column"
            return SlotDescription(f"{axis} sum", (c["row" if axis == "row" else "col"],), base=0, owner="the grid",
                                   kind="line sum")
        return None


FAMILY = DiscreteTomography()
