"""The ``rule`` responder's lexicon: every name one instance gives a thing, and finding them in a request.

Step 1 of ``harness.mira.agents.rule``: the hint slot (its ``request_aliases``, its slot name and the word
descriptions in ``rule_vocab``), the parts the hint fact alone fixes, every other slot of A's and B's views,
A's unknowns and the target, compiled into one longest-first trie regex over normalised text (shared by
every instance whose names differ only in their numbers); a linear expression equal to the hint's
left-hand side is a name of the hint too.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from generators.base import Family
from generators.describe import ANONYMOUS_ROLES, Layout, SlotDescription, reader_phrases, role_phrases
from generators.families import get_family
from harness.errors import HarnessError
from harness.mira.agents.rule_vocab import candidate_vocabulary, vocabulary
from harness.text import alias_form, normalize

HINT, PART, KNOWN, OTHER, TARGET, UNNAMED = "hint", "part", "known", "other", "target", "unnamed"
AMBIGUOUS = "ambiguous"  # a role phrase ("the one I am missing") that fits no single fact of B's
_PRIORITY = {HINT: 0, PART: 1, KNOWN: 2, OTHER: 3, TARGET: 4, AMBIGUOUS: 5}
LINEAR_EXPR = re.compile(r"(?<![\w)])[+-]?\d*\*?[a-z][a-z0-9]*(?:[+-]\d*\*?[a-z][a-z0-9]*)+(?![\w(])")
# After the word "a", a word that a variable named a is followed by ("a and b", "a is", "a itself"); any other
# word makes it the article.
ARTICLE_NEXT = re.compile(r"\s+(?!(?:and|or|is|equals|in|from|to|as|plus|minus|please|then|so|if|itself|alone|only|"
                          r"too|first|directly|would|will|given|since|because|for|with|but|at|by|of|on|also|via|"
                          r"exactly|value|now|here)\b)[a-z]")
LINEAR_TERM = re.compile(r"([+-]?)(\d*)\*?([a-z][a-z0-9]*)")


@dataclass(frozen=True)
class Name:
    kind: str  # HINT, PART, KNOWN, OTHER, TARGET, AMBIGUOUS
    slot: str  # what it names (the slot, or the target/unknown name)
    via: str = ""  # for a name made from the slot's description: how it refers and what it describes


@dataclass
class Lexicon:
    """Every name one instance gives a thing, found in normalised text by a regex shared per family shape.

    ``pattern`` finds, at every position, the longest *generic* name there (each run of digits in a name
    read as any run of digits, so that instances whose names differ only in their numbers share one
    compiled regex); ``find_mentions`` then takes the longest of this instance's own names at that
    position, which is exactly what a regex of this instance's names alone would find.
    """

    names: dict[str, Name]
    components: frozenset[str]  # forms of names that occur inside the hint fact (q1, q2 for m2)
    linear: dict[str, int] | None  # the hint's left-hand side, when it is a linear equation
    hint_slot: str = ""
    pattern: re.Pattern[str] | None = None  # generic_pattern(names) when not given
    judged: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # request -> judgement
    lengths: tuple[int, ...] = field(default=(), repr=False, compare=False)  # name lengths, longest first
    described: Described | None = field(default=None, repr=False, compare=False)  # names from descriptions
    slot_kinds: dict[str, str] = field(default_factory=dict, repr=False, compare=False)  # slot -> its kind here
    role_names: dict[str, Name] = field(default_factory=dict, repr=False, compare=False)  # kind -> what roles name

    def __post_init__(self) -> None:
        if self.pattern is None:
            self.pattern = generic_pattern(frozenset(generic_form(f) for f in self.names if f))
        if not self.lengths:
            self.lengths = _lengths(self.names)


def _lengths(names: dict[str, Name]) -> tuple[int, ...]:
    return tuple(sorted({len(f) for f in names if f}, reverse=True))


_DIGITS = re.compile(r"[0-9]+")
_ANY_NUMBER = "\x00"  # stands for a run of digits in a generic name


@lru_cache(maxsize=65536)
def generic_form(form: str) -> str:
    """``form`` with every run of digits replaced by one placeholder: ``row 1, column 0`` -> ``row #, column #``."""
    return _DIGITS.sub(_ANY_NUMBER, form)


def generic_pattern(forms: frozenset[str]) -> re.Pattern[str]:
    """A regex matching, at every position (a lookahead, so matches may overlap), the longest of ``forms``.

    Cached: the generic names of a family shape are few (26 sets for the 2,310 instances of the default split).
    """
    found = _PATTERNS.get(forms)
    if found is None:
        if len(_PATTERNS) >= _CACHE_SIZE:
            _PATTERNS.clear()
        found = _PATTERNS[forms] = re.compile(f"(?=({trie_regex(sorted(forms))}))")
    return found


def trie_regex(forms: list[str]) -> str:
    """A regex (source) finding any of ``forms`` as a whole name, longest first, built as a trie.

    A flat alternation of a few hundred names tries every name at every position; the trie tries one
    branch per character, which keeps a request to a few microseconds. The placeholder of ``generic_form``
    matches a run of digits (it counts as a letter or digit for the whole-name boundaries).
    """
    alnum = [f for f in forms if _word_char(f[:1])]
    other = [f for f in forms if f and not _word_char(f[:1])]
    parts = []
    if alnum:
        parts.append(r"(?<![a-z0-9])" + _trie_regex(_trie(alnum)))
    if other:
        parts.append(_trie_regex(_trie(other)))
    return "|".join(parts) if parts else r"(?!)"


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == _ANY_NUMBER


def _trie(forms: list[str]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for form in forms:
        node = root
        for ch in form:
            node = node.setdefault(ch, {})
        node[""] = form
    return root


def _trie_regex(node: dict[str, Any]) -> str:
    branches = [("[0-9]+" if ch == _ANY_NUMBER else re.escape(ch)) + _trie_regex(child)
                for ch, child in sorted(node.items()) if ch]
    if "" in node:  # a name ends here: after every longer continuation, try ending
        form = node[""]
        branches.append(r"(?![a-z0-9])" if _word_char(form[-1:]) else "")
    if len(branches) == 1:
        return branches[0]
    return "(?:" + "|".join(branches) + ")"


def _bounded(form: str) -> str:
    head = r"(?<![a-z0-9])" if form[:1].isalnum() else ""
    tail = r"(?![a-z0-9])" if form[-1:].isalnum() else ""
    return head + re.escape(form) + tail


def slot_names(family: Family, constraint: dict[str, Any]) -> tuple[str | None, list[str]]:
    """(slot name, every phrase naming it) for one constraint; (None, []) for context facts."""
    try:
        slot = family.slot_name(constraint)
    except (KeyError, TypeError, ValueError):
        slot = None
    if slot is None:
        return None, []
    try:
        aliases = list(family.slot_aliases(slot, constraint))
    except (KeyError, TypeError, ValueError, IndexError):
        aliases = []
    return slot, [*aliases, slot]


def build_lexicon(instance: dict[str, Any]) -> Lexicon:
    """The instance's lexicon, shared with every instance of the same shape (see ``Shape``)."""
    if len(_BY_ID) > 16 * _CACHE_SIZE:  # interned phrase lists are only ever dropped all together
        clear_caches()
    family = get_family(instance["family"])
    hint = instance["minimal_hint_spec"]["atomic_hints"][0]
    views = {v["agent_id"]: v["private_data"] for v in instance["agent_views"]}
    target = instance.get("target") or {}
    vocab = _cached(_VOCAB, (family.name, _freeze(hint["constraint"]), _freeze(target)),
                    lambda: _vocab_forms(family.name, hint["constraint"], target))
    hint_forms = _joined(_forms((*hint["request_aliases"], hint["slot"])), vocab["hint"])
    if not any(_BY_ID[hint_forms]):
        raise HarnessError(f"{instance['id']}: the hint has no usable request alias")
    hint_description = _cached(_SLOTS, (family.name, _freeze(hint["constraint"])),
                               lambda: _slot_forms(family, hint["constraint"]))[2]
    # Each candidate B's fact settles is a quantity of its own (two of them are two quantities); their groups come
    # first, so that a candidate's own name, also among the hint's aliases, names that candidate.
    candidates = [_cached(_SLOTS, (family.name, "\x00candidate", other), lambda o=other: _candidate_group(family, o))
                  for other in _settled(family, hint)]
    groups: list[tuple[str, str, int, int | None]] = [
        *candidates, (HINT, hint["slot"], hint_forms, hint_description), (PART, hint["slot"], vocab["parts"], None)]
    for agent, kind in (("A", KNOWN), ("B", OTHER)):
        for constraint in views[agent]["constraints_machine"]:
            if constraint == hint["constraint"]:
                continue
            slot, forms, description = _cached(_SLOTS, (family.name, _freeze(constraint)),
                                               lambda c=constraint: _slot_forms(family, c))
            if slot is not None and slot != hint["slot"]:
                groups.append((kind, slot, forms, description))
    for unknown in views["A"]["unknowns"]:
        if isinstance(unknown, str):
            groups.append((TARGET, unknown, _forms((unknown,)), None))
    groups.append((TARGET, "target", vocab["target"], None))
    shape = _cached(_SHAPES, tuple(groups), lambda: Shape(tuple(groups)))
    hint_text = normalize(hint["text"])
    components = frozenset(f for f in shape.alnum_forms if f in hint_text and re.search(_bounded(f), hint_text))
    linear = None
    coeffs = hint["constraint"].get("coeffs") if isinstance(hint["constraint"], dict) else None
    if isinstance(coeffs, dict):
        linear = {alias_form(k): v for k, v in coeffs.items() if isinstance(v, int) and v}
    key = (shape.id, components, tuple(sorted(linear.items())) if linear is not None else None)
    return _cached(_LEXICONS, key, lambda: Lexicon(shape.names, components | shape.part_forms, linear,
                                                   hint["slot"], shape.pattern, lengths=shape.lengths,
                                                   described=shape.described, slot_kinds=shape.slot_kinds,
                                                   role_names=shape.role_names))


def _settled(family: Family, hint: dict[str, Any]) -> list[str]:
    constraint = hint.get("constraint")
    if not isinstance(constraint, dict):
        return []
    try:
        return [s for s in family.settled_slots(constraint) if s != hint["slot"]]
    except (KeyError, TypeError, ValueError):
        return []


def _candidate_group(family: Family, slot: str) -> tuple[str, str, int, None]:
    """A settled candidate's names (no description: role phrases count only the facts B holds)."""
    return HINT, slot, _forms((*_names_of(family, slot), *candidate_vocabulary(family.name, slot))), None


def _names_of(family: Family, slot: str) -> list[str]:
    try:
        return [*family.slot_aliases(slot, {}), slot]
    except (KeyError, TypeError, ValueError, IndexError):
        return [slot]


# ------------------------------------------------------------------------------------ caches
# Building a lexicon from scratch costs milliseconds (mostly compiling its regex), and a run builds one per
# instance; but instances of one family shape share their names. So the work is cached by what it depends
# on: each constraint's names by the constraint, the name table and its regex by the (kind, slot, names)
# groups of the instance (its shape), the lexicon by the shape plus the few names that depend on the hint's
# values (the names inside its text, its linear form). Phrase lists are interned as ids, so a shape key is a
# short tuple of ints. The caches are bounded: past their size they are emptied and refilled.
_CACHE_SIZE = 8192
_INTERNED: dict[tuple[Any, ...], int] = {}  # phrases -> id of their forms
_BY_ID: list[tuple[str, ...]] = []  # id -> forms (alias_form of each phrase)
_GENERIC: dict[int, tuple[str, ...]] = {}  # id -> generic forms
_ALNUM: dict[int, tuple[str, ...]] = {}  # id -> the forms that start with a letter or digit
_DESCRIBED: dict[Any, Any] = {}  # (slot, description, the extents of its axes) -> its phrases
_DESCRIPTION_IDS: dict[SlotDescription, int] = {}
_DESCRIPTIONS: list[SlotDescription] = []
_ROLES: dict[Any, dict[str, Name]] = {}  # the (kind, slot, description) of the slots -> what role phrases name
_TABLES: dict[Any, Described] = {}  # the (slot, description) pairs of an instance -> their phrases
_VOCAB: dict[Any, dict[str, int]] = {}
_SLOTS: dict[Any, tuple[str | None, int]] = {}
_SHAPES: dict[Any, Shape] = {}
_LEXICONS: dict[Any, Lexicon] = {}
_PATTERNS: dict[frozenset[str], re.Pattern[str]] = {}


def _cached(cache: dict[Any, Any], key: Any, make: Any) -> Any:
    found = cache.get(key)
    if found is None:
        if len(cache) >= _CACHE_SIZE:
            cache.clear()
        found = cache[key] = make()
    return found


def clear_caches() -> None:
    """Forget every cached name table and lexicon (and so every remembered judgement)."""
    caches = (_VOCAB, _SLOTS, _SHAPES, _LEXICONS, _PATTERNS, _INTERNED, _BY_ID, _GENERIC, _ALNUM, _DESCRIBED, _TABLES,
              _DESCRIPTION_IDS, _DESCRIPTIONS, _ROLES)
    for cache in caches:
        cache.clear()


def _freeze(value: Any) -> str:
    """A key equal for equal constraints: their ``repr`` (a family writes its fields in one order; ``repr``
    tells ``1`` from ``True`` and is computed in C, several times faster than walking nested values)."""
    return repr(value)


def _forms(phrases: tuple[Any, ...]) -> int:
    """The id of the name forms (``alias_form``) of ``phrases``; equal phrase lists share one id."""
    found = _INTERNED.get(phrases)
    if found is None:
        found = _INTERNED[phrases] = len(_BY_ID)
        _BY_ID.append(tuple(alias_form(p) for p in phrases if isinstance(p, str)))
    return found


def _joined(first: int, second: int) -> int:
    """The id of the forms of ``first`` followed by those of ``second``."""
    key = ("\x00joined", first, second)  # not a tuple of phrases: a key of its own
    found = _INTERNED.get(key)
    if found is None:
        found = _INTERNED[key] = len(_BY_ID)
        _BY_ID.append(_BY_ID[first] + _BY_ID[second])
    return found


def _alnum(forms_id: int) -> tuple[str, ...]:
    found = _ALNUM.get(forms_id)
    if found is None:
        found = _ALNUM[forms_id] = tuple(f for f in _BY_ID[forms_id] if f[:1].isalnum())
    return found


def _generic(forms_id: int) -> tuple[str, ...]:
    found = _GENERIC.get(forms_id)
    if found is None:
        found = _GENERIC[forms_id] = tuple(generic_form(f) for f in _BY_ID[forms_id] if f)
    return found


def _vocab_forms(family: str, hint_constraint: dict[str, Any], target: dict[str, Any]) -> dict[str, int]:
    extra = vocabulary(family, hint_constraint, target)
    return {key: _forms(tuple(extra.get(key, []))) for key in ("hint", "parts", "target")}


def _slot_forms(family: Family, constraint: dict[str, Any]) -> tuple[str | None, int, int | None]:
    slot, phrases = slot_names(family, constraint)
    d = _description(family, slot, constraint)
    return slot, _forms(tuple(phrases)), None if d is None else _description_id(d)


def _description_id(d: SlotDescription) -> int:
    """Descriptions are interned, so that shape keys hash ints, not whole descriptions."""
    found = _DESCRIPTION_IDS.get(d)
    if found is None:
        found = _DESCRIPTION_IDS[d] = len(_DESCRIPTIONS)
        _DESCRIPTIONS.append(d)
    return found


def _description(family: Family, slot: str | None, constraint: dict[str, Any]) -> SlotDescription | None:
    if slot is None:
        return None
    try:
        found = family.describe_slot(slot, constraint)
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return found if isinstance(found, SlotDescription) else None


class Shape:
    """The names of one family shape: (kind, slot, phrase-list id, description) groups, in priority order.

    Names made from the slots' descriptions (``generators.describe``) come after every name the family and
    the vocabulary give: they never change what an existing name means.
    """

    _count = 0

    def __init__(self, groups: tuple[tuple[str, str, int, int | None], ...]):
        Shape._count += 1
        self.id = Shape._count
        named = [(kind, slot, forms_id) for kind, slot, forms_id, _ in groups]
        slots = [(kind, slot, _DESCRIPTIONS[d]) for kind, slot, _, d in groups
                 if d is not None and kind in (HINT, KNOWN, OTHER)]
        self.role_names = _cached(_ROLES, tuple((kind, slot, d) for kind, slot, _, d in groups
                                                if d is not None and kind in (HINT, KNOWN, OTHER)),
                                  lambda: _role_names(slots))
        names = _fill(named)
        names.pop("", None)
        self.names = names
        ids = [forms_id for _, _, forms_id in named]
        self.alnum_forms = frozenset().union(*(_alnum(forms_id) for _, _, forms_id in named))
        self.part_forms = frozenset(f for kind, _, forms_id in named if kind == PART for f in _BY_ID[forms_id]
                                    if names.get(f) is not None and names[f].kind == PART)
        self.lengths = _lengths(names)
        self.pattern = generic_pattern(frozenset().union(*(_generic(forms_id) for forms_id in ids)))
        self.slot_kinds: dict[str, str] = {}
        for kind, slot, _ in reversed(slots):  # the most specific kind of a slot held twice (KNOWN over OTHER)
            if slot not in self.slot_kinds or _PRIORITY[kind] < _PRIORITY[self.slot_kinds[slot]]:
                self.slot_kinds[slot] = kind
        self.described = _described_table([(slot, d) for kind, slot, _, d in groups
                                           if d is not None and kind in (HINT, KNOWN, OTHER)]) if slots else None


def _fill(groups: list[tuple[str, Any, int]]) -> dict[str, Name]:
    """A form names what its first group of the most specific kind names: fill from the least specific
    kind to the most, each kind's groups last to first, so that the right one is written last."""
    names: dict[str, Name] = {}
    for kind in sorted(_PRIORITY, key=_PRIORITY.__getitem__, reverse=True):
        for group_kind, slot, forms_id in reversed(groups):
            if group_kind == kind:
                name = slot if isinstance(slot, Name) else Name(kind, slot)
                names.update(dict.fromkeys(_BY_ID[forms_id], name))
    return names


def _role_names(slots: list[tuple[str, str, SlotDescription]]) -> dict[str, Name]:
    """What each role phrase names here, by kind ("the congruence I am missing"; ``ONE`` for "the one not
    listed"): the hint when B holds exactly one fact of that kind, since B cannot tell which of several A
    means; otherwise ``AMBIGUOUS``."""
    out = {}
    held_by_b = [(kind, slot, d) for kind, slot, d in slots if kind in (HINT, OTHER)]
    b_slots = {slot for _, slot, _ in held_by_b}
    for group in dict.fromkeys(d.group for _, _, d in slots):
        of_group = [(kind, slot, d) for kind, slot, d in held_by_b if d.group == group]
        if len(of_group) == 1 and of_group[0][0] == HINT:
            _, slot, d = of_group[0]
            out[group] = Name(HINT, slot, f"role: the only {group} B holds, {d.summary()}")
        else:
            out[group] = Name(AMBIGUOUS, group, f"role: B holds {len(of_group)} of kind {group}")
    hint = next(((slot, d) for kind, slot, d in slots if kind == HINT), None)
    if hint is not None and len(b_slots) == 1:
        out[ONE] = Name(HINT, hint[0], f"role: B's only fact, {hint[1].summary()}")
    else:
        out[ONE] = Name(AMBIGUOUS, ONE, f"role: B holds {len(b_slots)} facts")
    return out


ROLE = "\x00role:"  # marks a role phrase in a ``Described`` table: what it names depends on who holds what
ONE = "one"  # the kind of "the one I am missing", with no noun


@dataclass
class Described:
    """The phrases made from the descriptions of an instance's slots, whoever holds them: form -> (slot, how
    it refers), and by first word the lengths of the forms starting with it (longest first). It does not
    depend on which slot is the hint, so every instance of a family size shares one."""

    forms: dict[str, tuple[str, str]]
    by_first_word: dict[str, tuple[int, ...]]


def _described_table(slots: list[tuple[str, int]]) -> Described:
    described = tuple(sorted(set(slots)))  # (slot, description id): whichever slot is the hint
    return _cached(_TABLES, described, lambda: _make_described(tuple((s, _DESCRIPTIONS[d]) for s, d in described)))


def _make_described(described: tuple[tuple[str, SlotDescription], ...]) -> Described:
    layout = Layout.of([d for _, d in described])
    forms: dict[str, tuple[str, str]] = {}
    lengths: dict[str, set[int]] = {}
    for slot, d in reversed(described):  # the first slot to give a form keeps it: written last
        own = Layout({k: v for k, v in layout.extents.items() if k[:2] == (d.entity, d.owner)})  # all it reads
        one_forms, one_lengths = _cached(_DESCRIBED, (slot, d, own), lambda s=slot, d=d, own=own: _one_slot(s, d, own))
        forms.update(one_forms)
        for word, ls in one_lengths.items():
            lengths.setdefault(word, set()).update(ls)
    roles: dict[str, tuple[str, str]] = {}
    for group, forms_id in reversed(_role_forms(tuple(d for _, d in described))):
        roles.update(dict.fromkeys(_BY_ID[forms_id], (ROLE + group, "")))
    roles.pop("", None)
    forms.update(roles)  # a role phrase is read as a role, whatever else it says
    for form in roles:
        first = _FIRST_WORD.match(form)
        if first:
            lengths.setdefault(first.group(), set()).add(len(form))
    return Described(forms, {w: tuple(sorted(ls, reverse=True)) for w, ls in lengths.items()})


def _role_forms(descriptions: tuple[SlotDescription, ...]) -> list[tuple[str, int]]:
    """(kind, forms id) of the role phrases for each kind of slot here, and for "the one I am missing"."""
    phrases: dict[str, list[str]] = {}
    for d in descriptions:
        phrases.setdefault(d.group, []).extend(role_phrases(d))
    return [*((group, _forms(tuple(dict.fromkeys(ps)))) for group, ps in phrases.items()),
            (ONE, _forms(ANONYMOUS_ROLES))]


def _one_slot(slot: str, d: SlotDescription, layout: Layout) -> tuple[dict[str, tuple[str, str]], dict[str, set[int]]]:
    """The phrases of one slot's description: form -> (slot, how), and first word -> lengths."""
    forms: dict[str, tuple[str, str]] = {}
    for how, forms_id in reversed(_description_forms(d, layout)):
        forms.update(dict.fromkeys(_BY_ID[forms_id], (slot, f"{how}: {d.summary()}")))
    forms.pop("", None)
    lengths: dict[str, set[int]] = {}
    for form in forms:
        first = _FIRST_WORD.match(form)
        if first:
            lengths.setdefault(first.group(), set()).add(len(form))
    return forms, lengths


_FIRST_WORD = re.compile(r"[a-z0-9]+")
_WORDS = re.compile(r"(?<![a-z0-9])[a-z0-9]+")


def _description_forms(d: SlotDescription, layout: Layout) -> list[tuple[str, int]]:
    """(how, forms id) for the reader phrases of one description, grouped by how they refer."""
    by_how: dict[str, list[str]] = {}
    for phrase, how in reader_phrases(d, layout):
        by_how.setdefault(how, []).append(phrase)
    return [(how, _forms(tuple(phrases))) for how, phrases in by_how.items()]


@dataclass
class Mention:
    start: int
    end: int
    form: str
    name: Name


def find_mentions(text: str, lexicon: Lexicon) -> list[Mention]:
    """Names in normalised ``text``, longest first, not overlapping; linear forms of the hint first.

    At each position the longest name wins: one of the family's names (and role phrases), found by the shared
    regex, or a phrase made from a slot's description, found by its first word; on equal length the former.
    """
    mentions: list[Mention] = []
    if lexicon.linear:
        for m in LINEAR_EXPR.finditer(text):
            if _linear_form(m.group()) == lexicon.linear:
                mentions.append(Mention(m.start(), m.end(), m.group(), Name(HINT, lexicon.hint_slot)))
    starts = [m.start for m in mentions]  # linear forms: sorted, not overlapping
    names, lengths = lexicon.names, lexicon.lengths
    best: dict[int, int] = {}
    for m in lexicon.pattern.finditer(text):  # type: ignore[union-attr]
        start = m.start()
        form = _longest_name_at(text, start, len(m.group(1)), names, lengths)
        if form is not None:
            best[start] = len(form)
    described = _described_at(text, lexicon) if lexicon.described else {}
    at = 0
    for start in sorted(best.keys() | described.keys()) if described else best:  # finditer's order: ascending
        if start < at:
            continue
        length = best.get(start, 0)
        extra = described.get(start)
        if extra is not None and extra[0] > length:
            length = extra[0]
            form = text[start:start + length]
            slot, via = extra[1]
            if slot.startswith(ROLE):
                name = lexicon.role_names.get(slot[len(ROLE):]) or Name(AMBIGUOUS, slot[len(ROLE):], "role")
            else:
                name = Name(lexicon.slot_kinds.get(slot, OTHER), slot, via)
        else:
            form = text[start:start + length]
            name = names[form]
        if form == "a" and ARTICLE_NEXT.match(text, start + length):
            continue  # "give me a hint": the article, not an unknown named a
        end = at = start + length
        before = bisect_left(starts, end) - 1  # the last linear form starting before this name ends
        if before >= 0 and mentions[before].end > start:
            continue
        mentions.append(Mention(start, end, form, name))
    mentions.sort(key=lambda m: m.start)
    return mentions


def _described_at(text: str, lexicon: Lexicon) -> dict[int, tuple[int, tuple[str, str]]]:
    """start -> (length, (slot, how)) of the longest described phrase starting at each word of ``text``."""
    table = lexicon.described
    assert table is not None
    out: dict[int, tuple[int, tuple[str, str]]] = {}
    if table.by_first_word.keys().isdisjoint(_WORDS.findall(text)):  # the usual case, decided in C
        return out
    for word in _WORDS.finditer(text):
        lengths = table.by_first_word.get(word.group())
        if not lengths:
            continue
        start = word.start()
        for length in lengths:
            if start + length > len(text):
                continue
            form = text[start:start + length]
            entry = table.forms.get(form)
            if entry is not None and form not in lexicon.names:
                end = start + length
                if not form[-1].isalnum() or end == len(text) or text[end] not in _WORD:
                    out[start] = (length, entry)
                    break
    return out


def _longest_name_at(text: str, start: int, longest: int, names: dict[str, Name],
                     lengths: tuple[int, ...]) -> str | None:
    """The longest of the instance's names at ``start`` no longer than the generic match there, as a whole name."""
    for length in lengths:
        if length > longest:
            continue
        form = text[start:start + length]
        if form in names:
            end = start + length
            if not form[-1].isalnum() or end == len(text) or text[end] not in _WORD:
                return form
    return None


_WORD = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def _linear_form(expr: str) -> dict[str, int] | None:
    out: dict[str, int] = {}
    for sign, digits, var in LINEAR_TERM.findall(expr):
        value = int(digits) if digits else 1
        out[var] = out.get(var, 0) + (-value if sign == "-" else value)
    return {k: v for k, v in out.items() if v}
