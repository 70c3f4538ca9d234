"""Slots that describe themselves: what a slot *is*, in structured form, and the ways a reader refers to it.

Each family declares, next to ``slot_aliases``, ``describe_slot(slot, c)``: a ``SlotDescription`` such as
resistor 4 / resistance / ohms, or matrix M / row 1, column 0 / entry, or a prior probability of H with its
domain meanings ("the base rate"). ``reader_phrases`` turns one description, seen among the other slots of its
instance (``Layout``), into the phrases a reader uses for it, each tagged with how it refers:

* ``index``: "resistor 4", "resistor number 4", "resistor #4", "row 1, column 0";
* ``ordinal``: "the fourth resistor", "the 4th resistor", "the second row, first column";
* ``position``: first / last along an axis ("the last resistor"), and for two axes top / bottom rows and
  leftmost / rightmost columns ("the bottom row, first column", "the top-right entry");
* ``meaning``: the family's own domain phrases ("the base rate", "the chance the chain stays in state 2");
* ``role``: "the congruence I am missing", "the congruence that is not in my list", "the one I don't have".

Role phrases name whichever fact of that kind A lacks; the responder (``harness.mira.agents.rule_lexicon``)
counts them as the hint only when B holds exactly one fact of the kind, since B cannot tell which of
several is meant. Everything here is deterministic: the same description gives the same phrases.

Adding a family means filling ``describe_slot`` in; no vocabulary list is edited.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth", "eleventh", "twelfth")
ORDINAL_SHORT = ("0th", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th", "11th", "12th")
INDEX_MARKERS = ("{e} {k}", "{e} number {k}", "{e} #{k}", "{e} no. {k}", "{e} no {k}", "{e} with index {k}",
                 "{e} at index {k}", "{e} labelled {k}", "{e} labeled {k}")
ROLE_TEMPLATES = ("the missing {e}", "the {e} i am missing", "the {e} im missing", "the {e} i dont have",
                  "the {e} i do not have", "the {e} i lack", "the {e} not in my list", "the {e} that is not in my list",
                  "the {e} not listed", "the {e} missing from my list", "the {e} i was not given", "the {e} you hold",
                  "the {e} i need", "the {e} i still need", "the unknown {e}", "the remaining {e}",
                  "{e} am i missing", "{e} is missing", "{e} do i lack", "{e} dont i have", "{e} do i not have")
ANONYMOUS_ROLES = ("the one i am missing", "the one im missing", "the one i'm missing", "the one i dont have",
                   "the one i do not have", "the one i don't have", "the one not listed", "the one not in my list",
                   "the one that is not in my list", "the missing one", "the one that is missing",
                   "the one i lack", "the one you hold")
LOW_ENDS, HIGH_ENDS = ("leftmost", "lowest", "smallest"), ("rightmost", "highest", "largest")  # along one axis
TWO_AXIS_JOINS = ("{a}, {b}", "{a} and {b}", "{a} and the {b}", "{a} {b}", "{b}, {a}")


@dataclass(frozen=True)
class SlotDescription:
    """What one slot is. ``entity`` is the noun ("resistor", "entry", "congruence"); ``indices`` its numbers,
    one per axis (``axes`` names them: ``("",)`` for "resistor 4", ``("row", "column")`` for a cell), counted
    from ``base``; ``owner`` the thing it belongs to ("M", "the grid"); ``attribute`` and ``unit`` what is
    measured ("resistance", "ohms"); ``meanings`` the family's domain phrases for this very slot; ``kind``
    groups the facts that role phrases ("the one I am missing") choose among (default: ``entity``);
    ``synonyms`` are other nouns for the entity ("sample", "measurement")."""

    entity: str
    indices: tuple[int, ...] = ()
    axes: tuple[str, ...] = ("",)
    base: int | None = 1  # None: the indices are labels (x = -2, 0, 3), counted only among the others
    owner: str = ""
    attribute: str = ""
    unit: str = ""
    meanings: tuple[str, ...] = ()
    kind: str = ""
    synonyms: tuple[str, ...] = ()
    extent: tuple[int, ...] = ()  # how many positions each axis has, from ``base``, when the facts leave some out

    @property
    def group(self) -> str:
        return self.kind or self.entity

    def summary(self) -> str:
        """A short description for rationales: ``resistor 4 (resistance, ohms)``."""
        where = ", ".join(f"{a} {i}".strip() for a, i in zip(self.axes, self.indices, strict=False))
        what = ", ".join(x for x in (self.attribute, self.unit) if x)
        head = " ".join(x for x in (self.owner, self.entity, where) if x)
        return f"{head} ({what})" if what else head


@dataclass(frozen=True)
class Layout:
    """What ``reader_phrases`` needs to know about the other slots: the range of each axis of each entity
    (for first / last / top / bottom), as ``{(entity, owner, axis number): (lowest, highest)}``."""

    extents: dict[tuple[str, str, int], tuple[int, int]] = field(default_factory=dict)
    positions: dict[tuple[str, str, int], tuple[int, ...]] = field(default_factory=dict)  # the indices, sorted

    @staticmethod
    def of(descriptions: list[SlotDescription]) -> Layout:
        found: dict[tuple[str, str, int], set[int]] = {}
        for d in descriptions:
            for axis, index in enumerate(d.indices):
                found.setdefault((d.entity, d.owner, axis), set()).add(index)
                if axis < len(d.extent):  # a 3x3 grid of which the facts name three cells
                    found[(d.entity, d.owner, axis)].update(range(d.base or 0, (d.base or 0) + d.extent[axis]))
        positions = {key: tuple(sorted(indices)) for key, indices in found.items()}
        return Layout({key: (p[0], p[-1]) for key, p in positions.items()}, positions)

    def only(self, entity: str, owner: str) -> Layout:
        """The part of the layout one entity reads."""
        return Layout({k: v for k, v in self.extents.items() if k[:2] == (entity, owner)},
                      {k: v for k, v in self.positions.items() if k[:2] == (entity, owner)})

    def rank(self, d: SlotDescription, axis: int) -> int:
        """The place of ``d`` among the indices along ``axis``, counted from one ("the fourth of the five
        evaluation points" is x = 1 when they are -2, -1, 0, 1, 3), or from ``base`` when it stands alone."""
        k = d.indices[axis]
        here = self.positions.get((d.entity, d.owner, axis), ())
        return here.index(k) + 1 if len(here) > 1 and k in here else k - (d.base if d.base is not None else k) + 1

    def count(self, d: SlotDescription, axis: int) -> int:
        return len(self.positions.get((d.entity, d.owner, axis), ()))

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.extents.items())), tuple(sorted(self.positions.items()))))


def ordinal_words(n: int) -> tuple[str, ...]:
    """``3 -> ("third", "3rd")``; numbers past the table get only the short form."""
    if 0 <= n < len(ORDINALS):
        return ORDINALS[n], ORDINAL_SHORT[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return (f"{n}{suffix}",)


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")


def and_list(items: list[str] | tuple[str, ...]) -> str:
    """``a``, ``a and b``, ``a, b and d``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def plural(noun: str) -> str:
    """``entry -> entries``, ``moment equation -> moment equations``, ``sum of squares`` stays as is."""
    head, _, last = noun.rpartition(" ")
    if " of " in noun or not last:
        return noun
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        last = last[:-1] + "ies"
    elif last.endswith(("s", "x", "sh", "ch")):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}".strip()


def _of_the_n(word: str, noun: str, n: int) -> list[str]:
    """"the last of the three unknowns", "the fourth of the 5 evaluation points", "the last of the unknowns"."""
    many = plural(noun)
    counts = [str(n)] + ([NUMBER_WORDS[n]] if n < len(NUMBER_WORDS) else [])
    return [f"the {word} of the {many}", *(f"the {word} of the {c} {many}" for c in counts)]


def reader_phrases(d: SlotDescription, layout: Layout) -> Iterator[tuple[str, str]]:
    """Every (phrase, how) a reader might use for the slot ``d``; ``how`` is index, ordinal, position or
    meaning. A phrase that only adds words around one of these ("the resistance of the fourth resistor",
    "resistor 4 in ohms", "the entry of M in row 1, column 0") contains it, and the responder finds names
    inside longer text, so those are not listed. Role phrases are separate (``role_phrases``): they depend
    on who holds what."""
    if len(d.indices) == 1:
        yield from _one_axis(d, layout)
    elif len(d.indices) == 2:
        yield from _two_axes(d, layout)
    for meaning in d.meanings:
        yield meaning, "meaning"
        inverted = _QUESTION_ORDER.sub(r"\1 \3 \2 ", meaning)  # "how likely state 2 is" -> "how likely is state 2"
        if inverted != meaning:
            yield inverted, "meaning"
        asked = _WHERE_ORDER.match(meaning)  # "where the rule changes" -> "where does the rule change"
        if asked:
            verb = asked.group(3)
            verb = verb[:-2] if verb.endswith(("ches", "shes", "sses", "xes")) else verb[:-1]
            yield f"{asked.group(1)} does {asked.group(2)} {verb}{asked.group(4)}", "meaning"


_QUESTION_ORDER = re.compile(r"^(how \w+) (.+?) (is|are|does|do) ")
_WHERE_ORDER = re.compile(r"^(where|when|at which x|at what x) ((?:the )?[a-z]+(?: [a-z]+)?) ([a-z]+[^s]s)\b(.*)$")


def _one_axis(d: SlotDescription, layout: Layout) -> list[tuple[str, str]]:
    k = d.indices[0]
    axis = d.axes[0] if d.axes else ""
    out: list[tuple[str, str]] = []
    rank, n = layout.rank(d, 0), layout.count(d, 0)
    here = layout.positions.get((d.entity, d.owner, 0), ())
    for noun in (d.entity, *d.synonyms):
        head = f"{noun} {axis}".strip()
        if d.base is not None:
            out += [(m.format(e=head, k=k), "index") for m in INDEX_MARKERS]
            out += [(f"the {word} {noun}", "ordinal") for word in ordinal_words(k - d.base + 1)]
        if n > 1:  # counted among the others: "the fourth of the five evaluation points"
            out += [(phrase, "ordinal") for phrase in _of_the_n(ordinal_words(rank)[0], noun, n)]
        low, high = layout.extents.get((d.entity, d.owner, 0), (k, k))
        # labels (x = -3, 0, 2) are listed in order, so "the leftmost point" is the first as surely as "the first"
        # is; "the smallest value" is not (it reads as the smallest p(x)), so labels take only left and right
        low_ends, high_ends = (LOW_ENDS, HIGH_ENDS) if d.base is not None else (LOW_ENDS[:1], HIGH_ENDS[:1])
        if high > low:
            if k == low:
                out += [(f"the {w} {noun}", "position") for w in ("first", "earliest", *low_ends)]
                out += [(f"the {noun} that comes first", "position")]
                out += [(phrase, "position") for w in ("first", *low_ends) for phrase in _of_the_n(w, noun, n)]
            if k == high:
                out += [(f"the {w} {noun}", "position") for w in ("last", "final", "latest", *high_ends)]
                out += [(f"the {noun} that comes last", "position")]
                out += [(phrase, "position") for w in ("last", "final", *high_ends) for phrase in _of_the_n(w, noun, n)]
            if len(here) > 2 and k == here[-2]:
                out += [(f"the {w} {noun}", "position") for w in ("second to last", "second last", "penultimate")]
            if d.base is not None and len(here) > 2 and len(here) % 2 == 1 and k == here[len(here) // 2]:
                out += [(f"the {w} {noun}", "position") for w in ("middle", "central")]
                out += [(phrase, "position") for phrase in _of_the_n("middle", noun, n)]
    return out


def _axis_words(d: SlotDescription, layout: Layout, axis: int) -> list[tuple[str, str]]:
    """(words, how) naming ``d.indices[axis]`` along its axis: "row 1", "the second row", "the bottom row"."""
    name = d.axes[axis] if axis < len(d.axes) else ""
    k = d.indices[axis]
    words = [(f"{name} {k}", "index")]
    words += [(f"{w} {name}", "ordinal") for w in ordinal_words(k - (d.base if d.base is not None else k) + 1)]
    low, high = layout.extents.get((d.entity, d.owner, axis), (k, k))
    ends = {"row": (("top", "first", "upper"), ("bottom", "last", "lower")),
            "column": (("leftmost", "first", "left"), ("rightmost", "last", "right"))}.get(name)
    here = layout.positions.get((d.entity, d.owner, axis), ())
    if ends and high > low:
        for position in ends[0] if k == low else ends[1] if k == high else ():
            words.append((f"{position} {name}", "position"))
        if k in here:  # counted from either end: "second from the left", "the first from the bottom"
            sides = {"row": ("top", "bottom"), "column": ("left", "right")}[name]
            for side, rank in ((sides[0], here.index(k) + 1), (sides[1], len(here) - here.index(k))):
                if rank > 1:
                    words.append((f"{ordinal_words(rank)[0]} from the {side}", "position"))
        if len(here) % 2 == 1 and len(here) > 2 and k == here[len(here) // 2]:
            words += [(f"{w} {name}", "position") for w in ("middle", "center", "centre", "central")]
    return list(dict.fromkeys(words))


def _nouns(d: SlotDescription) -> tuple[str, ...]:
    """The nouns for a slot on two axes: its own, and for a matrix's (one with an owner) "entry" and "element"."""
    extra = ("entry", "element") if d.owner and len(d.indices) == 2 else ()
    heads = tuple(n.rsplit(" ", 1)[-1] for n in (d.entity, *d.synonyms) if " " in n)
    return tuple(dict.fromkeys((d.entity, *d.synonyms, *extra, *heads)))


def _two_axes(d: SlotDescription, layout: Layout) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for a, how_a in _axis_words(d, layout, 0):
        for b, how_b in _axis_words(d, layout, 1):
            how = "position" if "position" in (how_a, how_b) else "ordinal" if "ordinal" in (how_a, how_b) \
                else "index"
            out += [(join.format(a=a, b=b), how) for join in TWO_AXIS_JOINS]
    rows, cols = _axis_words(d, layout, 0), _axis_words(d, layout, 1)
    vertical = [w.split()[0] for w, how in rows if how == "position" and w.split()[0] in ("top", "bottom", "upper",
                                                                                           "lower")]
    horizontal = [w.split()[0].replace("most", "") for w, how in cols if how == "position"
                  and w.split()[0] in ("leftmost", "rightmost")]
    out += _along_edges(d, layout)
    for v in vertical:  # corners: "the bottom-left entry", "the top right cell"
        for h in horizontal:
            for noun in (*_nouns(d), "corner"):
                out += [(f"the {v}-{h} {noun}", "position"), (f"the {v} {h} {noun}", "position")]
    # the column's word before the noun and the row after it: "the middle cell of the bottom row", "the first
    # entry of the second row", "the last entry in row 2"; the owner between: "the bottom row of M, second column"
    # (kept few: every phrase here is built for every cell of every matrix of a run)
    owner = f" of {d.owner}" if d.owner and " " not in d.owner else ""  # "... of E" is E's, whatever P's says
    nouns = tuple(dict.fromkeys((d.entity, "entry" if d.owner else (d.synonyms or (d.entity,))[0])))
    for a, how_a in rows:
        for b, how_b in cols:
            how = "position" if "position" in (how_a, how_b) else "ordinal" if "ordinal" in (how_a, how_b) \
                else "index"
            position = b.rsplit(" ", 1)[0]
            if how_b != "index" and not position[:1].isdigit() and " from the " not in b:
                for noun in nouns:
                    out += [(f"{position} {noun} {prep} the {a}", how) for prep in ("of", "in")]
                    if owner:
                        out.append((f"{position} {noun} of the {a}{owner}", how))
            if owner:
                out.append((f"{a}{owner}, {b}", how))
    middle_rows = [w for w, _ in rows if w.split()[0] in ("middle", "center", "centre", "central")]
    middle_cols = [w for w, _ in cols if w.split()[0] in ("middle", "center", "centre", "central")]
    if middle_rows and middle_cols:  # the centre of an odd grid
        for w in ("middle", "center", "centre", "central"):
            out += [(f"the {w} {noun}", "position") for noun in _nouns(d)]
    return out


def _along_edges(d: SlotDescription, layout: Layout) -> list[tuple[str, str]]:
    """A cell on an edge of a row-by-column grid, counted along that edge: "the last boundary value on the
    left edge", "the second cell along the top edge" (the grid's extents are taken to be filled)."""
    if tuple(d.axes[:2]) != ("row", "column"):
        return []
    (r, c), out = d.indices, []
    low_r, high_r = layout.extents.get((d.entity, d.owner, 0), (r, r))
    low_c, high_c = layout.extents.get((d.entity, d.owner, 1), (c, c))
    edges = []
    if high_c > low_c and high_r > low_r:
        edges += [(edge, r, low_r, high_r) for edge, on in (("left", c == low_c), ("right", c == high_c)) if on]
        edges += [(edge, c, low_c, high_c) for edge, on in (("top", r == low_r), ("bottom", r == high_r)) if on]
    for edge, k, low, high in edges:
        words = [*ordinal_words(k - low + 1)] + (["first"] if k == low else []) + (["last"] if k == high else [])
        words += ["second to last", "second last", "penultimate"] if k == high - 1 and high - low > 1 else []
        words += ["middle", "center", "centre", "central"] if (high - low) % 2 == 0 and 2 * k == low + high else []
        axis_name = "row" if edge in ("left", "right") else "column"
        out += [(f"{edge} edge {of}, in {axis_name} {k}", "position") for of in ("of the grid", "of the grid,", "")]
        out += [(f"{edge} edge in {axis_name} {k}", "position"), (f"{axis_name} {k} on the {edge} edge", "position"),
                (f"{axis_name} {k} of the {edge} edge", "position")]
        for word in dict.fromkeys(words):
            for noun in _nouns(d):
                out += [(f"the {word} {noun} {where} the {edge} edge", "position")
                        for where in ("on", "along", "of")]
        # counted from a corner: "on the bottom edge, second from the left"
        sides = ("top", "bottom") if edge in ("left", "right") else ("left", "right")
        for side, rank in ((sides[0], k - low + 1), (sides[1], high - k + 1)):
            if rank > 1:
                words_from = f"{ordinal_words(rank)[0]} from the {side}"
                out += [(f"{edge} edge, {words_from}", "position"), (f"{edge} edge {words_from}", "position"),
                        (f"{words_from} on the {edge} edge", "position"), (f"{words_from} along the {edge} edge",
                                                                           "position")]
    return out


def role_phrases(d: SlotDescription) -> list[str]:
    """Phrases naming "the fact of this kind that A lacks" ("the congruence I am missing")."""
    nouns = list(dict.fromkeys([d.group, d.entity, *d.synonyms, *([d.attribute] if d.attribute else [])]))
    return [t.format(e=noun) for noun in nouns for t in ROLE_TEMPLATES]
