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

Hard tier (docs/hard-tier.md, docs/deviations/hard-tier-fam3.md): d1-3 are one level (effective difficulty 1, the
paper's 3x3 grid); a requested d4 / d5 is a real difficulty 4 / 5, an n x n grid with n = d (4x4 / 5x5, uniform on
{0,1}^(n x n)). There the paper's "exactly one grid left" rule is out of reach, so the hint is a cell whose value,
either one, settles the target (the qualifying condition of the 3x3 grid without the uniqueness of the grid); the
consistent grids are enumerated row by row (``completions``) and handled as bit masks over that list
(``GridSpace``). A's candidates there are every cell the sums leave open other than the target (which cells settle
it is the work), and a hint's ``settles`` lists the open cells that either value of it fixes. k = 2 (d4-5 only):
A's view holds only the sums, so B holds two cells (c1, c2), neither of which settles the target alone, both
together do, and flipping either one alone flips the target (the witnesses); the pair is drawn among all such pairs
whose ``settles`` lists do not overlap (``second_hints`` offers the pairs, ``withhold`` puts both cells in B's view).
The answer is one bit by design: the guess floor is about one half.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from generators.base import Constraint, Family, HintSlot, Reject, Views, missing_slot_note, without_notices
from generators.describe import SlotDescription, and_list
from generators.errors import Inconsistent, NotUnique

SIZE = 3
_CELL = re.compile(r"^cell\((\d),(\d)\)$")
_SUM = re.compile(r"^(row|col)_sum\((\d)\)$")



def grid_statement(n: int) -> str:
    return (
        f"G is a {n}x{n} grid in which every cell is 0 or 1. Rows and columns are numbered "
        f"{', '.join(map(str, range(n)))} (row 0 at the top, column 0 at the left); cell(i,j) is the entry in row i "
        "and column j, so the cells are " + ", ".join(f"cell({i},{j})" for i in range(n) for j in range(n))
        + ". r_i is the sum of row i and c_j the sum of column j."
    )


GRID_STATEMENT = grid_statement(SIZE)


def grid_size(difficulty: int) -> int:
    """The paper's 3x3 grid at d1-3; an n x n grid with n = d at the hard tier's d4-5."""
    return difficulty if difficulty >= 4 else SIZE


def grid_domain(n: int) -> Constraint:
    if n == SIZE:
        return {"type": "domain", "statement": GRID_STATEMENT}
    return {"type": "domain", "statement": grid_statement(n), "size": n}


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


def nbit(g: int, n: int, i: int, j: int) -> int:
    return (g >> (n * i + j)) & 1


def nmargins(g: int, n: int) -> tuple[int, ...]:
    rows = tuple(sum(nbit(g, n, i, j) for j in range(n)) for i in range(n))
    cols = tuple(sum(nbit(g, n, i, j) for i in range(n)) for j in range(n))
    return rows + cols


MAX_COMPLETIONS = 64  # d4-5: draws whose sums admit more grids are rejected
_KNOWN: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}  # completions found from a grid (d4-5 sampling)


@functools.cache
def interchanges(n: int) -> tuple[tuple[int, int, int], ...]:
    """The 2x2 interchanges of an n x n grid as (mask of one diagonal, mask of the other, both)."""
    out = []
    for i, k in itertools.combinations(range(n), 2):
        for j, m in itertools.combinations(range(n), 2):
            one, other = (1 << (n * i + j)) | (1 << (n * k + m)), (1 << (n * i + m)) | (1 << (n * k + j))
            out.append((one, other, one | other))
    return tuple(out)


def completions_of(g: int, n: int) -> tuple[int, ...] | None:
    """Every grid with ``g``'s sums, found from ``g`` by 2x2 interchanges (Ryser: they connect every pair of
    binary matrices with the same margins); much faster than enumerating when the class is small. None when there
    are more than ``MAX_COMPLETIONS`` (such sums leave too much open for one or two cells to settle a cell)."""
    key = (nmargins(g, n), n)
    if key not in _KNOWN:
        swaps = interchanges(n)
        seen, todo = {g}, [g]
        while todo:
            grid = todo.pop()
            for one, other, both in swaps:
                if (grid & both) in (one, other):  # one diagonal set, the other clear: swap them
                    nxt = grid ^ both
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            if len(seen) > MAX_COMPLETIONS:
                return None
        if len(_KNOWN) > 4096:
            _KNOWN.clear()
        _KNOWN[key] = tuple(sorted(seen))
    return _KNOWN[key]


def completions(sums: tuple[int, ...], n: int) -> tuple[int, ...]:
    """Every binary n x n grid with these row and column sums."""
    if n == SIZE:
        return tuple(GRIDS_BY_MARGINS.get(sums, ()))
    if (sums, n) in _KNOWN:
        return _KNOWN[(sums, n)]
    return _enumerate(sums, n)


@functools.lru_cache(maxsize=512)
def _enumerate(sums: tuple[int, ...], n: int) -> tuple[int, ...]:
    """Row by row, pruned by the columns' remainders (when no grid with these sums is at hand)."""
    rows, cols = sums[:n], sums[n:]
    if sum(rows) != sum(cols) or any(not 0 <= s <= n for s in sums):
        return ()
    out: list[int] = []

    def fill(i: int, left: tuple[int, ...], acc: int) -> None:
        if i == n:
            if not any(left):
                out.append(acc)
            return
        if any(c > n - i for c in left):
            return
        for chosen in itertools.combinations(range(n), rows[i]):
            if all(left[j] for j in chosen):
                nxt = tuple(c - (j in chosen) for j, c in enumerate(left))
                fill(i + 1, nxt, acc | sum(1 << (n * i + j) for j in chosen))

    fill(0, tuple(cols), 0)
    return tuple(sorted(out))


@dataclass(frozen=True, eq=False)  # hashed by identity, for the per-space cache of ``_fixes``
class GridSpace:
    """The grids consistent with A's sums as bit masks over their list: ``ones[cell]`` marks the grids where the
    cell is 1, so a question about every consistent grid is a few integer operations."""

    n: int
    every: int
    ones: dict[tuple[int, int], int]

    @classmethod
    @functools.lru_cache(maxsize=256)  # a few hundred small spaces, shared by the checks
    def of(cls, sums: tuple[int, ...], n: int) -> GridSpace:
        return cls.over(completions(sums, n), n)

    @classmethod
    def over(cls, grids: tuple[int, ...], n: int) -> GridSpace:
        ones = {(i, j): sum(1 << k for k, g in enumerate(grids) if nbit(g, n, i, j))
                for i in range(n) for j in range(n)}
        return cls(n, (1 << len(grids)) - 1, ones)

    def where(self, cell: tuple[int, int], value: int) -> int:
        return self.ones[cell] if value else self.every & ~self.ones[cell]

    def is_open(self, cell: tuple[int, int], within: int | None = None) -> bool:
        within = self.every if within is None else within
        return 0 != within & self.ones[cell] != within

    def cells(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.n) for j in range(self.n)]

    def settles(self, cell: tuple[int, int], target: tuple[int, int]) -> bool:
        """Either value of ``cell`` (both possible) leaves ``target`` one value."""
        return self.is_open(cell) and all(not self.is_open(target, self.where(cell, v)) for v in (0, 1))

    def fixed_by(self, cell: tuple[int, int], target: tuple[int, int]) -> list[tuple[int, int]]:
        """The open cells other than ``cell`` and ``target`` that either value of ``cell`` fixes."""
        return [x for x in self._fixes(cell) if x != target]

    @functools.lru_cache(maxsize=4096)  # noqa: B019 (small spaces, one per draw; bounded)
    def _fixes(self, cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
        sides = [self.where(cell, v) for v in (0, 1)]
        return tuple(x for x in self.cells() if x != cell and self.is_open(x)
                     and all(not self.is_open(x, side) for side in sides))


def cell_constraint(
    grid: list[list[int]], cell: tuple[int, int], target: tuple[int, int], space: GridSpace
) -> Constraint:
    """B's fact for ``cell`` of a d4-5 grid: its value, the grid's side, and the open cells it fixes either way."""
    settles = [cell_slot(*x) for x in space.fixed_by(cell, target)]
    return {"type": "cell", "row": cell[0], "col": cell[1], "value": grid[cell[0]][cell[1]], "size": space.n,
            "settles": settles}


def cell_pairs(space: GridSpace, grid: list[list[int]], target: tuple[int, int]) -> list[tuple[tuple[int, int], ...]]:
    """The k = 2 pairs for ``target``: open cells (c1, c2), neither of which settles it, that settle it together
    with their true values, each flip of one alone flipping it, and whose ``settles``
    lists share no cell (a request for a cell both facts fix would ask for two things)."""
    return list(_pairs(space, grid, target))


def has_cell_pair(space: GridSpace, grid: list[list[int]], target: tuple[int, int]) -> bool:
    return next(_pairs(space, grid, target), None) is not None


def _pairs(space: GridSpace, grid: list[list[int]], target: tuple[int, int]) -> Iterator[tuple[tuple[int, int], ...]]:
    good = space.where(target, grid[target[0]][target[1]])  # the grids with the target's true value
    bad = space.every & ~good
    # each cell of a pair meets the true target value with its true value, and the other value both with its true
    # value and (flipped) with its other value: a necessary filter that keeps the pair search small
    sides = {}
    for c in space.cells():
        if c == target or not space.is_open(c):
            continue
        true, other = space.where(c, grid[c[0]][c[1]]), space.where(c, 1 - grid[c[0]][c[1]])
        if true & good and true & bad and other & bad:
            sides[c] = (true, other)
    for c1, c2 in itertools.combinations(sides, 2):
        (t1, o1), (t2, o2) = sides[c1], sides[c2]
        both, flip1, flip2 = t1 & t2, o1 & t2, t1 & o2
        if not (both and flip1 and flip2) or both & bad or flip1 & good or flip2 & good:
            continue
        if not set(space.fixed_by(c1, target)) & set(space.fixed_by(c2, target)):
            yield c1, c2


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


def missing_domain(slot: str) -> Constraint:
    return missing_slot_note(slot, f"No cell values are given here; your partner knows the value of {slot}.")


def read_grid_facts(
    constraints: list[Constraint], n: int, statement: str
) -> tuple[dict[tuple[str, int], int], dict[tuple[int, int], int]]:
    """The line sums by (kind, index) and the known cells of an ``n`` x ``n`` grid; ``Inconsistent`` for a fact
    outside the grid, two values for one line or cell, a cell that is not 0/1, or a statement A is not told."""
    sums: dict[tuple[str, int], int] = {}
    cells: dict[tuple[int, int], int] = {}
    for c in constraints:
        kind = c["type"]
        if kind in ("row_sum", "col_sum"):
            key = (kind, c["row"] if kind == "row_sum" else c["col"])
            if not 0 <= key[1] < n:
                raise Inconsistent(f"{kind} of a line outside the grid")
            if sums.setdefault(key, c["value"]) != c["value"]:
                raise Inconsistent(f"two values for {kind} {key[1]}")
        elif kind == "cell":
            key2, v = (c["row"], c["col"]), c["value"]
            if not (0 <= key2[0] < n and 0 <= key2[1] < n) or isinstance(v, bool) or v not in (0, 1):
                raise Inconsistent(f"cell({key2[0]},{key2[1]}) = {v!r} is not a 0/1 cell of the grid")
            if cells.setdefault(key2, v) != v:
                raise Inconsistent(f"two values for cell({key2[0]},{key2[1]})")
        elif kind == "domain" and "missing_slot" not in c and c["statement"] != statement:
            raise Inconsistent("unknown domain statement")
    return sums, cells


class DiscreteTomography(Family):
    name = "discrete_tomography"
    prefix = "dis"
    type = "B"
    answer_type = "int"
    scales_with_difficulty = False

    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        if difficulty >= 4:
            return self._sample_large(rng, grid_size(difficulty))
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

    @staticmethod
    def _sample_large(rng: random.Random, n: int) -> dict[str, Any]:
        """A target that one cell settles or two cells settle together; the hint is uniform among the cells that
        settle it alone, or None (then ``views`` holds a cell of a pair, which the k = 1 checks reject)."""
        g = rng.randrange(1 << (n * n))  # uniform on {0,1}^(n x n)
        rows = [[nbit(g, n, i, j) for j in range(n)] for i in range(n)]
        grids = completions_of(g, n)
        if grids is None:
            raise Reject(f"the sums admit more than {MAX_COMPLETIONS} grids")
        space = GridSpace.over(grids, n)
        open_cells = [cell for cell in space.cells() if space.is_open(cell)]
        if not open_cells:
            raise Reject("the sums determine the whole grid")
        settling = {t: [c for c in open_cells if c != t and space.settles(c, t)] for t in open_cells}
        targets = [t for t in open_cells if settling[t] or has_cell_pair(space, rows, t)]
        if not targets:
            raise Reject("no cell that one cell, or two cells together, settle")
        target = rng.choice(targets)
        hint = list(rng.choice(settling[target])) if settling[target] else None
        return {"size": n, "grid": rows, "target": list(target), "hint": hint}

    def views(self, z: dict[str, Any]) -> Views:
        if z.get("size", SIZE) != SIZE:
            return self._views_large(z)
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

    def _views_large(self, z: dict[str, Any]) -> Views:
        n, grid = z["size"], z["grid"]
        (ti, tj) = z["target"]
        sums = tuple(sum(row) for row in grid) + tuple(sum(grid[i][j] for i in range(n)) for j in range(n))
        space = GridSpace.of(sums, n)
        hi, hj = z["hint"] or cell_pairs(space, grid, (ti, tj))[0][0]  # no single cell: k = 1 checks reject it
        hint = cell_constraint(grid, (hi, hj), (ti, tj), space)
        a: list[Constraint] = [grid_domain(n)]
        a += [{"type": "row_sum", "row": i, "value": sums[i]} for i in range(n)]
        a += [{"type": "col_sum", "col": j, "value": sums[n + j]} for j in range(n)]
        a.append(missing_domain(cell_slot(hi, hj)))
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=cell_slot(hi, hj),
            value=hint["value"],
            target={"type": "cell_value", "row": ti, "col": tj},
            question=f"What is the value (0 or 1) of cell({ti},{tj}), the entry in row {ti} and column {tj}?",
            unknowns=[f"cell({ti},{tj})"],
        )

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2 (d4-5): A's view holds only the sums, so both withheld facts are cells (docs at the top). Each
        choice is a pair, the second cell with the first as ``PairSlot.first``; ``withhold`` installs both."""
        n = z.get("size", SIZE)
        if n == SIZE:
            return []
        grid, target = z["grid"], tuple(z["target"])
        space = GridSpace.of(self._margins(views.a), n)
        return [PairSlot(cell_constraint(grid, c2, target, space), cell_slot(*c2), grid[c2[0]][c2[1]],
                         cell_constraint(grid, c1, target, space)) for c1, c2 in cell_pairs(space, grid, target)]

    def withhold(self, views: Views, second: HintSlot) -> Views:
        """Both cells of the drawn pair go to B; A keeps its sums (no cell was ever A's)."""
        if not isinstance(second, PairSlot):
            raise ValueError(f"{self.name}: a second hint is a pair of cells (PairSlot)")
        first = second.first
        rest = HintSlot(second.constraint, second.slot, second.value)
        return replace(views, a=without_notices(views.a), b=[first, second.constraint], hint=first,
                       slot=cell_slot(first["row"], first["col"]), value=first["value"], more_hints=[rest])

    # ------------------------------------------------------------------ solving from constraints
    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        n = self._size(constraints)
        if n != SIZE:
            return self._solve_large(constraints, target, n)
        sums, cells = read_grid_facts(constraints, SIZE, GRID_STATEMENT)
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

    @staticmethod
    def _size(constraints: list[Constraint]) -> int:
        """The grid's side from A's domain statement; without one, the paper's 3 (B's view holds only cells)."""
        stated = {c.get("size", SIZE) for c in constraints if c["type"] == "domain" and "missing_slot" not in c}
        if len(stated) > 1:
            raise Inconsistent("conflicting descriptions of the grid")
        if stated:
            return stated.pop()
        cell_sizes = {c["size"] for c in constraints if c["type"] == "cell" and "size" in c}
        if len(cell_sizes) == 1:
            return cell_sizes.pop()
        if any(isinstance(c.get(key), int) and c[key] >= SIZE for c in constraints for key in ("row", "col")):
            raise NotUnique("the grid is not described")
        return SIZE

    @staticmethod
    def _solve_large(constraints: list[Constraint], target: dict[str, Any], n: int) -> int:
        if not isinstance(n, int) or isinstance(n, bool) or not SIZE < n <= 5:
            raise Inconsistent(f"a grid of side {n!r} is not one this family draws")
        sums, cells = read_grid_facts(constraints, n, grid_statement(n))
        full = [sums.get(("row_sum", i)) for i in range(n)] + [sums.get(("col_sum", j)) for j in range(n)]
        if None in full:
            raise NotUnique("not every row and column sum is given")
        if any(isinstance(v, bool) or not isinstance(v, int) for v in full):
            raise Inconsistent("a line sum is not an integer")
        ti, tj = target["row"], target["col"]
        if not (0 <= ti < n and 0 <= tj < n):
            raise Inconsistent("the target cell is outside the grid")
        if (ti, tj) in cells:
            raise Inconsistent(f"the target cell({ti},{tj}) itself is given")
        mask = sum(1 << (n * i + j) for i, j in cells)
        want = sum(v << (n * i + j) for (i, j), v in cells.items())
        candidates = [g for g in completions(tuple(full), n) if g & mask == want]  # type: ignore[arg-type]
        if not candidates:
            raise Inconsistent("no binary grid satisfies the constraints")
        values = {nbit(g, n, ti, tj) for g in candidates}
        if len(values) > 1:
            raise NotUnique(f"cell({ti},{tj}) is 0 in some consistent grids and 1 in others")
        return values.pop()

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        for v in (0, 1):
            if v != hint["value"]:
                yield {**hint, "value": v}

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The cells the row and column sums leave open (a value for one of them is news to A)."""
        n = self._size(view_a)
        space = GridSpace.of(self._margins(view_a), n)
        return [cell_slot(*cell) for cell in space.cells() if space.is_open(cell)]

    def candidates_for(self, view_a: list[Constraint], target: dict[str, Any]) -> list[str]:
        """3x3: the cells other than the asked one whose value, whichever it is, settles the asked cell. Larger
        grids (d4-5): every cell the sums leave open other than the asked one (which of them settle it, alone or
        two together, is A's work; A is not told how many facts are missing)."""
        n = self._size(view_a)
        asked = (target["row"], target["col"])
        if n == SIZE:
            return [cell_slot(i, j) for i, j in settling_cells(self._margins(view_a), asked)]
        return [slot for slot in self.candidate_slots(view_a) if slot != cell_slot(*asked)]

    def _margins(self, view_a: list[Constraint]) -> tuple[int, ...]:
        n = self._size(view_a)
        rows = {c["row"]: c["value"] for c in view_a if c["type"] == "row_sum"}
        cols = {c["col"]: c["value"] for c in view_a if c["type"] == "col_sum"}
        if sorted(rows) != list(range(n)) or sorted(cols) != list(range(n)):
            raise NotUnique("not every row and column sum is given")
        return tuple(rows[i] for i in range(n)) + tuple(cols[j] for j in range(n))

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
                    text += f" (with the row and column sums, this also settles {and_list(c['settles'])})"
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
            n = c.get("size", SIZE)
            return SlotDescription("cell", (c["row"], c["col"]), axes=("row", "column"), base=0, owner="the grid",
                                   synonyms=("entry", "grid cell", "square"), extent=(n, n),
                                   meanings=_cell_meanings(c["row"], c["col"]))
        if c["type"] in ("row_sum", "col_sum"):
            axis = "row" if c["type"] == "row_sum" else "column"
            k = c["row" if axis == "row" else "col"]
            return SlotDescription(f"{axis} sum", (k,), base=0, owner="the grid",
                                   kind="line sum", meanings=_sum_meanings(axis, k))
        return None


def _cell_meanings(i: int, j: int) -> tuple[str, ...]:
    """Ways to ask for the bit in row ``i``, column ``j`` (both from 0): every phrase names both numbers."""
    at = (f"row {i}, column {j}", f"row {i} and column {j}", f"({i},{j})")
    return (
        *(f"the bit at {w}" for w in at), *(f"the pixel at {w}" for w in at), *(f"the 0 or 1 at {w}" for w in at),
        *(f"the binary value at {w}" for w in at), *(f"whether {w} is filled" for w in at),
        *(f"whether {w} is shaded" for w in at), *(f"whether there is a 1 at {w}" for w in at),
        f"the bit in row {i}, column {j}", f"the pixel in row {i}, column {j}", f"the square at row {i}, column {j}",
        f"whether the cell at row {i}, column {j} is on", f"whether the square in row {i}, column {j} is black",
        f"whether row {i}, column {j} holds a 1", f"whether row {i}, column {j} is occupied",
        f"is row {i}, column {j} a 1 or a 0", f"the entry at position ({i},{j})", f"the grid value at ({i},{j})",
        f"the cell where row {i} meets column {j}", f"where row {i} crosses column {j}",
        f"the intersection of row {i} and column {j}", f"the crossing of row {i} and column {j}",
        f"row {i}s entry in column {j}", f"column {j}s entry in row {i}", f"the entry of column {j} in row {i}",
        f"column {j}, row {i}", f"g at row {i}, column {j}", f"the state of the cell at row {i}, column {j}",
    )


def _sum_meanings(axis: str, k: int) -> tuple[str, ...]:
    """Ways to name the sum of one row or column ``k`` (from 0), a fact A holds."""
    return (
        f"the total of {axis} {k}", f"the {axis} {k} total", f"how many 1s are in {axis} {k}",
        f"how many ones are in {axis} {k}", f"the number of ones in {axis} {k}", f"the number of 1s in {axis} {k}",
        f"the count of filled cells in {axis} {k}", f"the projection of {axis} {k}", f"what {axis} {k} adds up to",
        f"what {axis} {k} sums to", f"the sum along {axis} {k}",
    )


@dataclass(frozen=True)
class PairSlot(HintSlot):
    """A k = 2 choice of ``second_hints``: the second cell, and the first cell it is withheld with."""

    first: Constraint = None  # type: ignore[assignment]


FAMILY = DiscreteTomography()
