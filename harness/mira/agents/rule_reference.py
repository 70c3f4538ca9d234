"""Slots referred to by where they sit or by what A lacks, read as a small grammar rather than listed phrases.

Three readers, each used when the request names nothing else: ``structured_reference`` (coordinates, rule/5, below),
``role_by_clause`` (a clause stating a lack, in any word order, rule/6) and ``blank_in_matrix`` (the one blank of a
matrix typed out, rule/6).

A request that names nothing may still pin a slot down by where it sits: "in row 1 of the transition matrix, what's
the last entry?", "the middle value along the top boundary row", "the corner where row 0 meets column 0", "the
first entry of row 2 of M", "the measured value at k = 0", "the seed value of the sequence at index 1". The reader
finds, in the asking text, a row and a column (by number, by ordinal, by edge or corner words, or by the place of
an entry within a given row or column) for the instance's one grid of slots, or an index for one kind of
one-axis slot whose noun the text uses, and returns the slot there. Positions count among the slots the instance
has (``Layout.positions``, which includes a grid's declared extent); numbers are the family's own indices, as its
names use them. Nothing is listed per family: the slots' declarations (``generators.describe``) are all it reads.
"""

from __future__ import annotations

import re

from generators.describe import ORDINAL_SHORT, ORDINALS, Layout, SlotDescription
from harness.mira.agents.rule_lexicon import (
    AMBIGUOUS,
    HINT,
    ONE,
    OTHER,
    STATES_LACK,
    Lexicon,
    Mention,
    Name,
    role_kinds,
    role_name,
)

_RANK_WORDS = {**{w: i for i, w in enumerate(ORDINALS) if i}, **{w: i for i, w in enumerate(ORDINAL_SHORT) if i},
               "last": -1, "final": -1, "penultimate": -2, "second to last": -2, "next to last": -2, "middle": 0,
               "center": 0, "centre": 0, "central": 0}
RANK = "(?:" + "|".join(sorted(_RANK_WORDS, key=len, reverse=True)) + ")"  # an ordinal or position word
NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10}
_NUMBER = r"(-?\d+|" + "|".join(NUMBER_WORDS) + r")\b"
_ROW, _COLUMN = r"(?:row|line)", r"(?:column|col)"

# an axis given by number ("row 1", "column #2", "row number 0"), by rank ("the third column", "the last row"), or
# by an edge ("the top row", "the left edge", "the rightmost column")
_BY_NUMBER = r"\b{axis}\s*(?:number\s*|no\.?\s*|#\s*|index\s*)?" + _NUMBER
_BY_RANK = r"\b(" + RANK + r")\s+{axis}\b"
_EDGES = {0: (r"\b(?:top|upper|uppermost|topmost)\b", r"\b(?:bottom|lower|lowest|bottommost)\b"),
          1: (r"\b(?:left|leftmost|left hand|left-hand)\b", r"\b(?:right|rightmost|right hand|right-hand)\b")}
_EDGE_NOUN = (r"\s+(?:boundary\s+|edge\s+)?(?:{axis}|edge|side|boundary|border|end|cell|entry|element|value|square|"
              r"number|one|coefficient|probability)\b")
_CORNER = re.compile(r"\b(top|upper|bottom|lower)[\s-]*(left|right)\b")
_ROW_MAJOR = re.compile(r"\b(first|last|final)\s+(?:entry|element|cell|value|number|coefficient|one)s?\b[^?.;]*"
                        r"\b(?:row|reading) major\b|\brow major\b[^?.;]*\b(first|last|final)\b")
# the place of an entry within a row or column given otherwise: "the last entry of row 2", "row 1's first cell"
_WITHIN = re.compile(r"\b(" + RANK + r")\s+(?:entry|element|cell|value|number|coefficient|probability|term|one|"
                     r"item|component)s?\b")
_COORDINATE_WORD = re.compile(r"\b(?:row|line|column|col|top|upper|bottom|lower|left|right|leftmost|rightmost|corner|"
                              r"major|index|position|step|time|lag|slot|[kntij]\s*=|(?:at|for|with|of|in) [kntij])")
_INDEX = re.compile(r"\b(?:at|for|with|of|in)\s+(?:the\s+)?(?:(?:time\s+)?(?:index|position|step|time|lag|slot)|"
                    r"[kntij])\s*(?:=|is|of)?\s*(-?\d+)\b|\b(?:index|position)\s*(-?\d+)\b")


def structured_reference(text: str, lexicon: Lexicon) -> Mention | None:
    """The slot ``text`` locates by coordinates, as a mention of it; None if it locates none or several."""
    table = lexicon.described
    if table is None or not _COORDINATE_WORD.search(text):
        return None
    found = _grid_cell(text, table.slots, table.layout) or _indexed(text, table.slots)
    if found is None:
        return None
    slot, how = found
    via = f"reference: {how} ({table.slots[slot].summary()})"
    if slot in lexicon.candidates:
        name = Name(HINT, lexicon.candidates[slot].slot, via, candidate=slot)
    else:
        name = Name(lexicon.slot_kinds.get(slot, OTHER), slot, via)
    return Mention(0, 0, how, name)


def _grid_cell(text: str, slots: dict[str, SlotDescription], layout: Layout) -> tuple[str, str] | None:
    grids = _groups(slots, axes=2)
    grid = _the_one_meant(text, grids, slots)
    if grid is None:
        return None
    cells = grids[grid]
    positions = [layout.positions.get((*grid, axis), ()) for axis in (0, 1)]
    if not all(positions):
        return None
    corner = _CORNER.search(text)
    major = _ROW_MAJOR.search(text)
    if corner:
        row = 1 if corner.group(1) in ("top", "upper") else -1  # ranks count from 1 (0 is the middle)
        col = 1 if corner.group(2) == "left" else -1
        at = (_pick(positions[0], ("rank", row)), _pick(positions[1], ("rank", col)))
        how = f"{corner.group()} corner"
    elif major:
        rank = 1 if (major.group(1) or major.group(2)) == "first" else -1
        at = (_pick(positions[0], ("rank", rank)), _pick(positions[1], ("rank", rank)))
        how = major.group()
    else:
        row, col = _axis(text, 0, positions[0]), _axis(text, 1, positions[1])
        if row is None and col is None:
            return None
        within = _WITHIN.search(text)
        if within and (row is None) != (col is None):
            rank = ("rank", rank_of(within.group(1)))
            row, col = (row, _pick(positions[1], rank)) if col is None else (_pick(positions[0], rank), col)
        at = (row, col)
        how = "row and column"
    if None in at:
        return None
    slot = cells.get(at)  # type: ignore[arg-type]
    return (slot, f"{how}: {at[0]}, {at[1]}") if slot else None


def _indexed(text: str, slots: dict[str, SlotDescription]) -> tuple[str, str] | None:
    numbers = {int(a or b) for a, b in _INDEX.findall(text)}
    if len(numbers) != 1:
        return None
    groups = _groups(slots, axes=1)
    group = _the_one_meant(text, groups, slots, required=True)
    if group is None:
        return None
    k = numbers.pop()
    slot = groups[group].get((k,))
    return (slot, f"index {k}") if slot else None


def _groups(slots: dict[str, SlotDescription], axes: int) -> dict[tuple[str, str], dict[tuple[int, ...], str]]:
    out: dict[tuple[str, str], dict[tuple[int, ...], str]] = {}
    for slot, d in slots.items():
        if len(d.indices) == axes:
            out.setdefault((d.entity, d.owner), {})[tuple(d.indices)] = slot
    return out


def _the_one_meant(text: str, groups: dict[tuple[str, str], dict[tuple[int, ...], str]],
                   slots: dict[str, SlotDescription], required: bool = False) -> tuple[str, str] | None:
    """The one group of slots whose noun (entity, synonym, kind, or their last word) or owner the text uses; with
    one group only and ``required`` False, that group."""
    if not groups:
        return None
    used = [g for g in groups if _uses_noun(text, g, [slots[s] for s in groups[g].values()])]
    if len(used) == 1:
        return used[0]
    if not used and len(groups) == 1 and not required:
        return next(iter(groups))
    return None


def _uses_noun(text: str, group: tuple[str, str], descriptions: list[SlotDescription]) -> bool:
    """Whether ``text`` uses a noun of the group (its entity, synonyms or kind, or their last word) or its owner."""
    owner = group[1]
    nouns = {n for d in descriptions for noun in (d.entity, *d.synonyms, d.kind) if noun
             for n in (noun, *noun.split())}
    if owner and len(owner) > 1:
        nouns.add(owner.removeprefix("the "))
    for word in nouns - _VAGUE:
        if re.search(rf"\b{re.escape(word)}(?:s|es)?\b", text):
            return True
    return bool(owner and len(owner) == 1 and re.search(rf"\bof\s+{re.escape(owner.lower())}\b", text))


_VAGUE = {"value", "values", "number", "entry", "one", "quantity", "probability", "matrix"}


def _axis(text: str, axis: int, positions: tuple[int, ...]) -> int | None:
    """The one position along the rows (axis 0) or columns (axis 1) that ``text`` gives, by number, rank or edge
    (several ways to the same position are one); None if it gives none or two."""
    word = _ROW if axis == 0 else _COLUMN
    specs: list[tuple[str, int]] = [("index", _number(m.group(1)))
                                    for m in re.finditer(_BY_NUMBER.format(axis=word), text)]
    specs += [("rank", rank_of(m.group(1))) for m in re.finditer(_BY_RANK.format(axis=word), text)]
    if _BOTH_LETTERS.search(text):  # "the entry with i = 1 and j = 0": i counts rows, j columns
        specs += [("index", int(m.group(1))) for m in re.finditer(_LETTER[axis], text)]
    first, last = _EDGES[axis]
    noun = _EDGE_NOUN.format(axis=word)
    if re.search(first + noun, text):
        specs.append(("rank", 1))
    if re.search(last + noun, text):
        specs.append(("rank", -1))
    found = {_pick(positions, spec) for spec in specs}
    return found.pop() if len(found) == 1 else None


_LETTER = (re.compile(r"(?<![a-z0-9_])i\s*=\s*(\d+)\b"), re.compile(r"(?<![a-z0-9_])j\s*=\s*(\d+)\b"))
_BOTH_LETTERS = re.compile(r"(?<![a-z0-9_])i\s*=\s*\d+\b.*(?<![a-z0-9_])j\s*=\s*\d+\b")


def _number(word: str) -> int:
    return NUMBER_WORDS[word] if word in NUMBER_WORDS else int(word)


def rank_of(word: str) -> int:
    """The place an ordinal or position word names: 1 for "first", -1 for "last", -2 for "second to last", 0 for
    "middle"."""
    return _RANK_WORDS[word]




def _pick(positions: tuple[int, ...], spec: tuple[str, int]) -> int | None:
    kind, n = spec
    if kind == "index":
        return n if n in positions else None
    if n == 0:  # the middle
        return positions[len(positions) // 2] if len(positions) % 2 == 1 else None
    if n < 0:
        return positions[n] if -n <= len(positions) else None
    return positions[n - 1] if n <= len(positions) else None


# Role readings in free word order (rule/6): a clause that says a fact is missing from A's side or held on B's
# (``STATES_LACK``: "the one resistor I haven't been told about", "there's exactly one matrix entry absent from my
# list", "you have a moment equation that I don't") refers to B's fact of the kind its noun names, wherever the noun
# and the lack stand in the clause. It names the hint only where B holds exactly one fact of that kind (as the
# listed role phrases do); plural asks ("which entries am I missing") name several.
_CLAUSE = re.compile(r"[^.;?!]+[.;?!]*")
_ROLE_PLURAL = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(?:entries|values|ones|numbers|facts|quantities)\b|"
                          r"\b(?:all|both|every|each)\b")
_NOUN_WORD = re.compile(r"[a-z]+")
_POINTER = re.compile(r"\b(?:the|that|this) one\b|\bits?\b")


def role_by_clause(text: str, lexicon: Lexicon) -> Mention | None:
    """B's one fact of the kind that clauses stating a lack name by a noun, in any word order; None when no such
    clause, when their nouns name no kind or several, or when B holds several facts of the kind."""
    table = lexicon.described
    if table is None or not table.role_nouns or not STATES_LACK.search(text) or _ROLE_PLURAL.search(text):
        return None
    kinds: set[str] = set()
    clauses = _CLAUSE.findall(text)
    lacking = [clause for clause in clauses if STATES_LACK.search(clause)]
    for clause in lacking:
        kinds.update(_kinds_named(clause, table.role_nouns))
    if not kinds and any(_POINTER.search(clause) for clause in lacking):
        # "Which measured sample do you have? It's the one not among y_0, ...": the lack points back at the question
        for clause in clauses:
            if "?" in clause:
                kinds.update(_kinds_named(clause, table.role_nouns))
    names = {role_name(lexicon, k) for k in kinds}
    if len(names) != 1:
        return None
    name = names.pop()
    if name.kind == AMBIGUOUS:
        return None
    return Mention(0, 0, "role: " + "/".join(sorted(kinds)), Name(name.kind, name.slot, name.via + " (by clause)",
                                                                  candidate=name.candidate))


def _kinds_named(clause: str, nouns: dict[str, str]) -> set[str]:
    """The kinds of the instance's role nouns that ``clause`` uses (the longest ending at each word, singular or
    plural), the generic "one" aside."""
    words = _NOUN_WORD.findall(clause)
    found = {role_kinds(" ".join(words[max(0, i - 1):i + 1]), nouns) for i in range(len(words))}
    return {kinds for kinds in found if kinds and kinds != ONE}


# A matrix typed out with one blank ("$$M = \\begin{pmatrix} -3 & 3 \\\\ -3 & ? \\end{pmatrix}$$ What goes in place of
# the ?", "[[1, 2], [3, ?]]"): the blank's row and column locate the slot, among the rows and columns the instance's
# grid has (rule/6).
_LATEX_MATRIX = re.compile(r"(?:([A-Za-z])\s*=\s*)?\\begin\{([pbBvV]?matrix|array)\}(?:\{[^}]*\})?(.*?)"
                           r"\\end\{\2\}", re.DOTALL)
_BRACKET_MATRIX = re.compile(r"(?:([A-Za-z])\s*=\s*)?\[\s*(\[[^\[\]]*\](?:\s*,?\s*\[[^\[\]]*\])+)\s*\]")
_BLANK = re.compile(r"^\s*(?:\\?\?+|_+|\\_+|\\square|\\Box|\\boxed\{\s*\??\s*\}|\\text\{\s*\?\s*\})\s*$")


def blank_in_matrix(request: str, lexicon: Lexicon) -> Mention | None:
    """The slot at the one blank of a matrix typed out in ``request``; None if there is no such matrix, several
    blanks, or no single grid of the instance's slots of that shape."""
    table = lexicon.described
    if table is None:
        return None
    found = [(m.group(1), [row.split("&") for row in re.split(r"\\\\", m.group(3)) if row.strip()])
             for m in _LATEX_MATRIX.finditer(request)]
    found += [(m.group(1), [row.strip("[] ").split(",") for row in re.findall(r"\[[^\[\]]*\]", m.group(2))])
              for m in _BRACKET_MATRIX.finditer(request)]
    blanks = [(owner, len(rows), max(len(r) for r in rows), i, j) for owner, rows in found
              for i, row in enumerate(rows) for j, cell in enumerate(row) if _BLANK.match(cell)]
    if len(blanks) != 1:
        return None
    owner, n_rows, n_cols, i, j = blanks[0]
    grids = _groups(table.slots, axes=2)
    if owner:
        grids = {g: cells for g, cells in grids.items() if g[1].lower() in (owner.lower(), "")} or grids
    fits = []
    for grid in grids:
        rows, cols = (table.layout.positions.get((*grid, axis), ()) for axis in (0, 1))
        if len(rows) == n_rows and len(cols) == n_cols and (rows[i], cols[j]) in grids[grid]:
            fits.append(grids[grid][(rows[i], cols[j])])
    if len(fits) != 1:
        return None
    slot = fits[0]
    via = f"reference: the blank in a matrix typed out, row {i + 1}, column {j + 1} ({table.slots[slot].summary()})"
    if slot in lexicon.candidates:
        name = Name(HINT, lexicon.candidates[slot].slot, via, candidate=slot)
    else:
        name = Name(lexicon.slot_kinds.get(slot, OTHER), slot, via)
    return Mention(0, 0, f"the blank at row {i + 1}, column {j + 1}", name)
