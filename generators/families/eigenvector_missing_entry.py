"""B5 eigenvector_missing_entry: an integer matrix with a known eigenvector, one entry withheld; target (M^2)[i][t].

M is n x n (n = d + 1) with integer entries in [-K, K], K = 3 + 2(d - 1), and an integer eigenvector v with
eigenvalue lambda ~ Unif[1, K]: M v = lambda v. One component v[j] is 0, so no eigen-equation involves column j
of M and the withheld entry M[i][j] (i uniform over the rows, j = the zero component, uniform) is left free by
everything A knows. Target (M^2)[i][t] = sum_k M[i][k] M[k][t] for a column t with M[j][t] != 0 (the paper's
rule). Its dependence on x = M[i][j] is x * M[j][t] (+ x * M[i][i] when t = j != i; x^2 when i = j = t), so we
also require that this does not cancel (M[j][j] + M[i][i] != 0 when t = j != i), which the paper's check misses.

Construction (the paper gives none): v[c] ~ Unif[1, 3] for c != j (the authors' release), v[j] = 0; every row of
M is drawn uniformly in [-K, K] except one pivot entry per row, solved from the row's eigen-equation and redrawn
until it is an integer in [-K, K]; column j stays uniform. A is told M is an integer matrix, all of v, that v is
an eigenvector (lambda itself is not given: it follows from any row with v[r] != 0) and every other entry of M, row
by row, the withheld one absent from the list (only the slot-notice ablation says which entry is missing).

Hard tier (docs/hard-tier.md): the rule needs no extension, n = 5 / 6 and K = 9 / 11 at d4 / d5. k = 2 withholds a
second entry of column j (``second_hints``): only entries of that column are free (every other one is pinned by its
row's eigen-equation, so withholding it would lose nothing), and one of them, M[r][j] with r != i, enters the
target only when the target column is t = j, with coefficient M[i][r] != 0. So a k = 2 instance needs t = j (a
draw without such an entry is rejected); A's statement names every entry and none as missing, so it stands.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

from generators.base import (
    Constraint,
    Family,
    HintSlot,
    Reject,
    Views,
    absent_slots,
    missing_slot_note,
    stated_size,
)
from generators.describe import SlotDescription, ordinal_words
from generators.errors import Inconsistent, NotUnique
from generators.slots import (
    EntryFacts,
    component_notations,
    component_pattern,
    entry_notations,
    entry_pattern,
    entry_positions,
    nearby_values,
    parse_entry_slot,
)

ROW_TRIES = 200
_ENTRY = entry_pattern("M")
_COMPONENT = component_pattern("v")
_FACTS = EntryFacts("matrix_entry", "M", "eigvec", "v", "index")


def bound(difficulty: int) -> int:
    return 3 + 2 * (difficulty - 1)


def square_entry(m: list[list[int]], i: int, t: int) -> int:
    return sum(m[i][k] * m[k][t] for k in range(len(m)))


def matmul(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
    cols = list(zip(*b, strict=True))
    return [[sum(x * y for x, y in zip(row, col, strict=True)) for col in cols] for row in a]


def eigen_residual(m: list[list[int]], v: list[int]) -> Fraction | None:
    """The eigenvalue lambda if ``m v = lambda v`` for some lambda, else None (``v`` must be nonzero)."""
    mv = [sum(a * b for a, b in zip(row, v, strict=True)) for row in m]
    lam: Fraction | None = None
    for x, y in zip(mv, v, strict=True):
        if y == 0:
            if x != 0:
                return None
            continue
        r = Fraction(x, y)
        if lam is None:
            lam = r
        elif r != lam:
            return None
    return lam


@cache
def matrix_statement(n: int) -> str:
    idx = ", ".join(map(str, range(n)))
    comps = ", ".join(f"v[{c}]" for c in range(n))
    terms = " + ".join(f"M[r][{k}]·M[{k}][c]" for k in range(n))
    return (
        f"M is a {n}x{n} matrix with integer entries; M[r][c] is the entry in row r and column c, with rows and "
        f"columns numbered {idx}, so its entries are "
        f"{', '.join(f'M[{r}][{c}]' for r in range(n) for c in range(n))}. v = ({comps}) is an eigenvector of M: "
        "M·v = λ·v for a number λ (the eigenvalue, an unknown number). (M^2)[r][c] is the entry in row r and "
        "column c of M^2 = M·M, i.e. "
        f"(M^2)[r][c] = {terms}."
    )


def missing_statement(slot: str) -> str:
    r, c = parse_entry(slot)
    return f"The entry {slot} (row {r}, column {c} of M) is not given here; your partner knows it."


def parse_entry(slot: str) -> tuple[int, int]:
    return parse_entry_slot(_ENTRY, slot, "matrix-entry")


def entry_slot(r: int, c: int) -> str:
    return f"M[{r}][{c}]"


class EigenvectorMissingEntry(Family):
    name = "eigenvector_missing_entry"
    prefix = "eig"
    type = "B"
    answer_type = "int"

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        n, k = difficulty + 1, bound(difficulty)
        j = rng.randrange(n)  # the zero component of v = the column of the withheld entry
        i = rng.randrange(n)  # the row of the withheld entry
        v = [0 if c == j else rng.randint(1, 3) for c in range(n)]
        lam = rng.randint(1, k)
        others = [c for c in range(n) if c != j]
        pivot = min(others, key=lambda c: (v[c], c))  # smallest |v| keeps integrality likely
        m = []
        for r in range(n):
            for _ in range(ROW_TRIES):
                row = [rng.randint(-k, k) for _ in range(n)]
                rest = lam * v[r] - sum(row[c] * v[c] for c in others if c != pivot)
                if rest % v[pivot] == 0 and abs(rest // v[pivot]) <= k:
                    row[pivot] = rest // v[pivot]
                    break
            else:
                raise Reject(f"no row {r} with entries in [-{k}, {k}] satisfies the eigen-equation")
            m.append(row)
        # target column: the paper's M[j][t] != 0, and the x-dependence must not cancel (t = j != i)
        cols = [t for t in range(n) if m[j][t] != 0 and not (t == j != i and m[j][j] + m[i][i] == 0)]
        if not cols:
            raise Reject("no target column depends on the withheld entry")
        t = rng.choice(cols)
        return {"n": n, "entry_bound": k, "eigenvalue": lam, "M": m, "v": v, "missing": [i, j], "target": [i, t]}

    def views(self, z: dict[str, Any]) -> Views:
        n, m, v = z["n"], z["M"], z["v"]
        i, j = z["missing"]
        _, t = z["target"]
        slot = entry_slot(i, j)
        entries = [{"type": "matrix_entry", "row": r, "col": c, "value": m[r][c]} for r in range(n) for c in range(n)]
        hint = entries[i * n + j]
        a: list[Constraint] = [{"type": "domain", "statement": matrix_statement(n), "n": n}]
        a += [missing_slot_note(slot, missing_statement(slot)) if e is hint else e
              for e in entries]
        a += [{"type": "eigvec", "index": c, "value": v[c]} for c in range(n)]
        return Views(
            a=a,
            b=[hint],
            hint=hint,
            slot=slot,
            value=hint["value"],
            target={"type": "matrix_square_entry", "matrix": "M", "row": i, "col": t},
            question=f"What is (M^2)[{i}][{t}], the entry in row {i} and column {t} of M^2 = M·M? "
            "Give it as an integer.",
            unknowns=[f"(M^2)[{i}][{t}]"],
        )

    # ------------------------------------------------------------------ solving from constraints
    @staticmethod
    def _size(constraints: list[Constraint]) -> int:
        return stated_size(constraints, "n", matrix_statement, "matrix", minimum=2)

    def solve(self, constraints: list[Constraint], target: dict[str, Any]) -> int:
        n = self._size(constraints)
        entries: dict[tuple[int, int], int] = {}
        v: dict[int, int] = {}
        for c in constraints:
            if c["type"] == "matrix_entry":
                key, store, what = (c["row"], c["col"]), entries, entry_slot(c["row"], c["col"])
                inside = 0 <= c["row"] < n and 0 <= c["col"] < n
            elif c["type"] == "eigvec":
                key, store, what = c["index"], v, f"v[{c['index']}]"
                inside = 0 <= c["index"] < n
            else:
                continue
            val = c["value"]
            if isinstance(val, bool) or not isinstance(val, int):
                raise Inconsistent(f"{what} = {val!r} is not an integer")
            if not inside:
                raise Inconsistent(f"{what} is outside the {n}x{n} matrix")
            if store.setdefault(key, val) != val:
                raise Inconsistent(f"two values for {what}")
        i, t = target["row"], target["col"]
        if not (0 <= i < n and 0 <= t < n):
            raise Inconsistent("the target entry is outside the matrix")
        if len(v) < n:
            raise NotUnique("the eigenvector is not fully given")
        vec = [v[c] for c in range(n)]
        if not any(vec):
            raise Inconsistent("an eigenvector is nonzero")
        missing = [(r, c) for r in range(n) for c in range(n) if (r, c) not in entries]
        if not missing:
            m = [[entries[r, c] for c in range(n)] for r in range(n)]
            if eigen_residual(m, vec) is None:
                raise Inconsistent("v is not an eigenvector of M")
            return square_entry(m, i, t)
        if len(missing) > 1:
            # Conservative: several unknown entries are only reported as determined when the target uses none.
            used = {(i, k) for k in range(n)} | {(k, t) for k in range(n)}
            if used.intersection(missing):
                raise NotUnique(f"{len(missing)} entries of M are not given")
            m = [[entries.get((r, c), 0) for c in range(n)] for r in range(n)]
            return square_entry(m, i, t)
        (r0, c0) = missing[0]
        values = set()
        for x in self._admissible(entries, vec, n, r0, c0):
            m = [[entries[r, c] if (r, c) != (r0, c0) else x for c in range(n)] for r in range(n)]
            values.add(square_entry(m, i, t))
        if len(values) != 1:
            raise NotUnique(f"{entry_slot(r0, c0)} is not given and the target depends on it")
        return values.pop()

    @staticmethod
    def _admissible(entries: dict[tuple[int, int], int], v: list[int], n: int, r0: int, c0: int) -> list[int]:
        """Integer values of the one unknown entry consistent with the eigen-equations (3 samples if free).

        The target is a polynomial of degree <= 2 in the entry, so 3 points decide whether it is constant.
        """
        def with_x(x: int) -> list[list[int]]:
            return [[entries[r, c] if (r, c) != (r0, c0) else x for c in range(n)] for r in range(n)]

        if v[c0] == 0:  # column c0 drops out of every eigen-equation: x is free
            if eigen_residual(with_x(0), v) is None:
                raise Inconsistent("v is not an eigenvector of M")
            return [0, 1, 2]
        # x enters row r0's eigen-equation; it is pinned by lambda unless row r0 alone defines lambda
        pinned = [x for x in (0, 1, 2) if eigen_residual(with_x(x), v) is not None]
        if len(pinned) >= 2:
            return [0, 1, 2]
        others = [r for r in range(n) if r != r0 and v[r] != 0]
        if not others:
            raise Inconsistent("v is not an eigenvector of M for any value of the missing entry")
        r1 = others[0]
        lam = Fraction(sum(entries[r1, c] * v[c] for c in range(n)), v[r1])
        x = (lam * v[r0] - sum(entries[r0, c] * v[c] for c in range(n) if c != c0)) / v[c0]
        if x.denominator != 1 or eigen_residual(with_x(x.numerator), v) is None:
            raise Inconsistent("no integer value of the missing entry makes v an eigenvector")
        return [x.numerator]

    def second_hints(self, z: dict[str, Any], views: Views) -> list[HintSlot]:
        """k = 2: another entry M[r][j] of the free column j that the target depends on (t = j, M[i][r] != 0)."""
        (i, j), (_, t), m = z["missing"], z["target"], z["M"]
        if t != j:
            return []
        return [HintSlot(c, entry_slot(c["row"], c["col"]), c["value"]) for c in views.a
                if c["type"] == "matrix_entry" and c["col"] == j and c["row"] != i and m[i][c["row"]] != 0]

    def hint_alternatives(self, hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
        return nearby_values(hint)

    def candidate_slots(self, view_a: list[Constraint]) -> list[str]:
        """The entries M[r][c] (row by row) that A's statement declares and A is given no value for."""
        n = self._size(view_a)
        return absent_slots(self, [entry_slot(r, c) for r in range(n) for c in range(n)], view_a)

    def answer_from_latent(self, z: dict[str, Any]) -> int:
        i, t = z["target"]
        return matmul(z["M"], z["M"])[i][t]

    # ------------------------------------------------------------------ surface forms
    def render(self, c: Constraint) -> str:
        return _FACTS.render(c)

    def slot_name(self, c: Constraint) -> str | None:
        return _FACTS.slot_name(c)

    def slot_aliases(self, slot: str, hint: Constraint) -> list[str]:
        if m := _COMPONENT.match(slot):
            k = m.group(1)
            return [
                f"the eigenvector component v[{k}]",
                *component_notations("v", k),
                f"component {k} of the eigenvector v",
                f"the {k}-th component of v",
            ]
        r, c = parse_entry(slot)
        return [
            f"the entry M[{r}][{c}]",
            *entry_notations("M", r, c),
            f"m{r}{c}",
            f"m_{r}{c}",
            f"M({r},{c})",
            *entry_positions("M", r, c),
            f"the entry of M in row {r} and column {c}",
            f"row {r}, column {c} of M",
        ]

    def describe_slot(self, slot: str, c: Constraint) -> SlotDescription | None:
        """What the slot is, for readers' phrases (``generators.describe``)."""
        if c["type"] != "matrix_entry":
            return None
        return SlotDescription("entry", (c["row"], c["col"]), axes=("row", "column"), base=0, owner="M",
                               synonyms=("element", "cell", "matrix entry"),
                               meanings=entry_meanings(c["row"], c["col"]))


def entry_meanings(r: int, c: int) -> tuple[str, ...]:
    """Domain phrases for M[r][c]: its place in M itself (never ending in "of M", which would also name M^2's
    entry), its role in M·v and as the map's weight from input coordinate c to output coordinate r."""
    ro, co = ordinal_words(r + 1)[0], ordinal_words(c + 1)[0]
    return (
        f"how much of input coordinate {c} shows up in output coordinate {r}",
        f"how much input coordinate {c} contributes to output coordinate {r}",
        f"the weight of input coordinate {c} in output coordinate {r}",
        f"how much output {r} depends on input {c}",
        f"the gain from input {c} to output {r}",
        f"how strongly coordinate {c} feeds into coordinate {r} under M",
        f"coordinate {r} of the image of basis vector {c}",
        f"component {r} of M applied to basis vector {c}",
        f"the coefficient of x{c} in component {r} of Mx",
        f"the coefficient of v[{c}] in component {r} of Mv",
        f"the coefficient of v[{c}] in the eigen-equation for row {r}",
        f"the coefficient of v{c} in the row {r} eigen-equation",
        f"the multiplier of v[{c}] in row {r} of the eigen-equation",
        f"the number multiplying v[{c}] in row {r} of M times v",
        f"the weight row {r} of M puts on v[{c}]",
        f"row {r}'s coefficient on v[{c}]",
        f"the multiplier row {r} of M puts on component {c}",
        f"M's entry at row {r}, column {c}",
        f"M's ({r},{c}) entry",
        f"M's ({r}, {c}) element",
        f"M's row {r}, column {c} value",
        f"the entry in M at row {r} and column {c}",
        f"the number in M at row {r}, column {c}",
        f"the element of M sitting at row {r}, column {c}",
        f"the value M holds at ({r}, {c})",
        f"the value at position ({r},{c}) in M",
        f"the entry in row {r}, column {c} of M itself",
        f"the row {r} column {c} entry of M before squaring",
        f"the entry of M before squaring at row {r}, column {c}",
        f"the ({r},{c}) entry of the original matrix",
        f"the original matrix's entry in row {r}, column {c}",
        f"row {r}, column {c} of the original matrix",
        f"the entry of the unsquared matrix at ({r},{c})",
        f"the row {r}, column {c} value of M, not M^2",
        f"the {co} number in M's {ro} row",
        f"the {co} entry of M's {ro} row",
        f"the {ro} entry of M's {co} column",
        f"M's {ro} row, {co} column",
        f"in M, the {ro} row's {co} entry",
        f"the {ro} row {co} column entry of M itself",
    )


FAMILY = EigenvectorMissingEntry()
