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
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
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
    candidate: str = ""  # for a name of another slot that the hint fact also settles (issue 24): that slot


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
    candidates: dict[str, Name] = field(default_factory=dict, repr=False, compare=False)  # slot B's fact settles
    typo_index: TypoIndex | None = field(default=None, repr=False, compare=False)  # built on first need

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
    hint_description = _cached(_SLOTS, (family.name, _structure(hint["constraint"])),
                               lambda: _slot_forms(family, hint["constraint"]))[2]
    slots = {agent: [(c, _cached(_SLOTS, (family.name, _structure(c)), lambda c=c: _slot_forms(family, c)))
                     for c in views[agent]["constraints_machine"]] for agent in ("A", "B")}  # each looked up once
    held = {names[0] for agent in ("A", "B") for _, names in slots[agent] if names[0]}
    counting = tuple(s for s in (instance.get("verifier") or {}).get("candidate_slots") or ()
                     if isinstance(s, str) and s not in held)
    candidates = _cached(_CANDIDATES, (family.name, _freeze(hint), counting),
                         lambda: _candidate_groups(family, hint, counting))
    relations = _relations(family, [c for agent in ("A", "B") for c, _ in slots[agent]])
    groups: list[tuple[str, Any, int, int | None]] = [
        *candidates, (HINT, hint["slot"], hint_forms, _related_id(hint_description, relations.get(hint["slot"]))),
        (PART, hint["slot"], vocab["parts"], None)]
    for agent, kind in (("A", KNOWN), ("B", OTHER)):
        for constraint, (slot, forms, description) in slots[agent]:
            if constraint == hint["constraint"]:
                continue
            if slot is not None and slot != hint["slot"]:
                groups.append((kind, slot, forms, _related_id(description, relations.get(slot))))
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
                                                   candidates=shape.candidates,
                                                   role_names=shape.role_names))


def _relations(family: Family, constraints: list[dict[str, Any]]) -> dict[str, tuple[str, ...]]:
    """The family's meanings of slots within this instance (``Family.relation_meanings``), cached by the
    constraints without their values (the circuit's topology and resistor names, not its resistances)."""
    if type(family).relation_meanings is Family.relation_meanings:  # most families: none, and nothing to freeze
        return {}
    structure = tuple(_freeze({k: v for k, v in c.items() if k not in _VALUE_FIELDS}) for c in constraints)
    return _cached(_RELATIONS, (family.name, structure), lambda: family.relation_meanings(constraints))


def _related_id(description: int | None, relations: tuple[str, ...] | None) -> int | None:
    """A slot's description with the meanings it has within its instance added."""
    if description is None or not relations:
        return description
    d = _DESCRIPTIONS[description]
    return _description_id(replace(d, meanings=(*d.meanings, *relations)))


def _candidate_groups(family: Family, hint: dict[str, Any],
                      counting: tuple[str, ...] = ()) -> tuple[tuple[str, Name, int, int | None], ...]:
    """The other slots B's one fact settles (issue 24: where several slots would each complete A's facts, B's
    one fact names them all), as name groups of the hint marked with the candidate: a request for one of them
    asks for the hint, a request for two of them (or for one and the hint) asks two things. Found generically:
    a hint alias (tomography's ``settles``, markov's ``row_partner``) or one of the instance's counting slots
    (``verifier.candidate_slots``, those neither A nor B holds: the separator's a when B holds c, phase's other
    signs) that is the slot name (``family.slot_name``) of the hint's constraint moved to it; it is described
    as that moved constraint."""
    slot, constraint = hint["slot"], hint["constraint"]
    try:
        own = set(family.slot_aliases(slot, {}))  # rho(1,0) is rho(0,1)
    except (KeyError, TypeError, ValueError, IndexError):
        return ()
    out = []
    settled = _settled(family, hint)
    for alias in dict.fromkeys(a for a in (*settled, *hint.get("request_aliases", ()), *counting)
                               if isinstance(a, str) and a != slot and a not in own):
        moved = _moved(constraint, slot, alias)
        try:
            if not moved or family.slot_name(moved) != alias:
                continue
            aliases = (*family.slot_aliases(alias, {}), alias, *candidate_vocabulary(family.name, alias))
        except (KeyError, TypeError, ValueError, IndexError):
            continue
        d = _description(family, alias, moved)
        described = None if d is None else _description_id(d)
        out.append((HINT, Name(HINT, slot, candidate=alias), _forms(aliases), described))
    return tuple(out)


_INT = re.compile(r"-?\d+")


def _moved(constraint: dict[str, Any], slot: str, other: str) -> dict[str, Any]:
    """The hint's constraint moved to the slot ``other`` of the same kind, for describing it: the integer
    fields that spell the hint slot's numbers, in order (``cell(0,1)``: row 0, col 1), take ``other``'s."""
    ours, theirs = [int(x) for x in _INT.findall(slot)], [int(x) for x in _INT.findall(other)]
    if not ours and not theirs:  # a slot named by a field ("c": var c -> var a)
        named = [k for k, v in constraint.items() if v == slot]
        return {**constraint, named[0]: other} if len(named) == 1 else {}
    if len(ours) != len(theirs) or not ours:
        return {}
    moved, fields = dict(constraint), [k for k, v in constraint.items() if type(v) is int]
    for number, new in zip(ours, theirs, strict=True):
        field_name = next((k for k in fields if constraint[k] == number), None)
        if field_name is None:
            return {}
        fields.remove(field_name)
        moved[field_name] = new
    return moved


def _settled(family: Family, hint: dict[str, Any]) -> list[str]:
    constraint = hint.get("constraint")
    if not isinstance(constraint, dict):
        return []
    try:
        return [s for s in family.settled_slots(constraint) if s != hint["slot"]]
    except (KeyError, TypeError, ValueError):
        return []


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
_CANDIDATES: dict[Any, tuple[Any, ...]] = {}
_SLOTS: dict[Any, tuple[str | None, int]] = {}
_RELATIONS: dict[Any, dict[str, tuple[str, ...]]] = {}
_SHAPES: dict[Any, Shape] = {}
_LEXICONS: dict[Any, Lexicon] = {}
_PATTERNS: dict[frozenset[str], re.Pattern[str]] = {}
_PHRASE_FORMS: dict[str, str] = {}  # reader phrase -> its form
_PLAIN_NAMES: dict[Any, frozenset[str]] = {}  # (the hint's aliases, its slot) -> their forms
_ROLE_PHRASES: dict[SlotDescription, tuple[str, ...]] = {}  # a description -> its role phrases (shared by its kind)


def _cached(cache: dict[Any, Any], key: Any, make: Any) -> Any:
    found = cache.get(key)
    if found is None:
        if len(cache) >= _CACHE_SIZE:
            cache.clear()
        found = cache[key] = make()
    return found


def clear_caches() -> None:
    """Forget every cached name table and lexicon (and so every remembered judgement)."""
    caches = (_SIGNATURES, _VOCAB, _CANDIDATES, _SLOTS, _RELATIONS, _SHAPES, _LEXICONS, _PATTERNS, _INTERNED, _BY_ID,
              _GENERIC, _ALNUM, _DESCRIBED, _TABLES,
              _DESCRIPTION_IDS, _DESCRIPTIONS, _ROLES, _PHRASE_FORMS, _ROLE_PHRASES, _PLAIN_NAMES)
    for cache in caches:
        cache.clear()


def _freeze(value: Any) -> str:
    """A key equal for equal constraints: their ``repr`` (a family writes its fields in one order; ``repr``
    tells ``1`` from ``True`` and is computed in C, several times faster than walking nested values)."""
    return repr(value)


# Fields that give a fact's value, never which slot it fills: no family's ``slot_name``, ``slot_aliases`` or
# ``describe_slot`` reads them (checked on the default split and the hard tier: the constraints equal without
# them give equal names and descriptions), so facts that differ only in them share one entry of ``_SLOTS``.
_VALUE_FIELDS = frozenset(("value", "num", "denom", "values", "residue", "rhs", "y", "statement"))


def _structure(constraint: Any) -> str:
    """``_freeze`` of a constraint without its value fields: the key of its slot's names and description."""
    if isinstance(constraint, dict) and not _VALUE_FIELDS.isdisjoint(constraint):
        return repr({k: v for k, v in constraint.items() if k not in _VALUE_FIELDS})
    return repr(constraint)


def _forms(phrases: tuple[Any, ...]) -> int:
    """The id of the name forms (``alias_form``) of ``phrases``; equal phrase lists share one id."""
    found = _INTERNED.get(phrases)
    if found is None:
        found = _INTERNED[phrases] = len(_BY_ID)
        _BY_ID.append(tuple(_phrase_form(p) for p in phrases if isinstance(p, str)))
    return found


_PLAIN = re.compile(r"[a-z]+(?: [a-z]+)*")
_PLAIN_WITH_DIGITS = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")
_ASCII_WORDS = re.compile(r"[A-Za-z0-9]+(?:(?:, | |-)[A-Za-z0-9]+)*")
_SPACE_BEFORE_DIGIT = re.compile(r"(?<=[a-z]) (?=[0-9])")
_HYPHEN_IN_WORD = re.compile(r"(?<=[a-z])-(?=[a-z])")


def _alias_form(phrase: str) -> str:
    """``alias_form``, with fast paths for the plain words (and numbers) most described phrases are: normalising
    them only joins a number to the word before it ("resistor 4" -> "resistor4"), and the article goes after;
    with capitals, commas and hyphens between words ("row 1 of M, column 0", "the top-left entry"), it also
    lowers the case, reads a hyphen between letters as a space and drops the space after a comma (checked equal
    by tests/harness/test_harness_rule.py)."""
    if _PLAIN.fullmatch(phrase):
        return _without_article(phrase)
    if _PLAIN_WITH_DIGITS.fullmatch(phrase):
        return _without_article(_SPACE_BEFORE_DIGIT.sub("", phrase))
    if _ASCII_WORDS.fullmatch(phrase):
        form = phrase.lower()
        if "-" in form:
            form = _HYPHEN_IN_WORD.sub(" ", form)
        return _without_article(_SPACE_BEFORE_DIGIT.sub("", form.replace(", ", ",")))
    return alias_form(phrase)


def _without_article(form: str) -> str:
    """``form`` without a leading article (``alias_form``'s, for a form with single spaces), without a regex."""
    if form.startswith(_ARTICLES):
        return form[form.index(" ") + 1:]
    return form


_ARTICLES = ("the ", "a ", "an ", "your ")


def hint_name_forms(aliases: tuple[str, ...], slot: str) -> frozenset[str]:
    """The forms of the hint's own names (its request aliases and slot), as ``build_lexicon`` gives them."""
    key = ("\x00plain", aliases, slot)
    found = _PLAIN_NAMES.get(key)
    if found is None:
        if len(_PLAIN_NAMES) >= _CACHE_SIZE:
            _PLAIN_NAMES.clear()
        found = _PLAIN_NAMES[key] = frozenset(_phrase_form(p) for p in (*aliases, slot) if isinstance(p, str))
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
        self.candidates = {slot.candidate: slot for _, slot, _, _ in groups if isinstance(slot, Name)}
        groups = tuple((kind, slot.candidate if isinstance(slot, Name) else slot, f, d) for kind, slot, f, d in groups)
        slots = [(kind, slot, _DESCRIPTIONS[d]) for kind, slot, _, d in groups
                 if d is not None and kind in (HINT, KNOWN, OTHER) and slot not in self.candidates]
        self.role_names = _cached(_ROLES, tuple((kind, slot, d) for kind, slot, _, d in groups
                                                if d is not None and kind in (HINT, KNOWN, OTHER)
                                                and slot not in self.candidates),
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
    known = {slot for kind, slot, _ in slots if kind == KNOWN}  # B's copy of a fact A holds is not missing
    held_by_b = [(kind, slot, d) for kind, slot, d in slots if kind in (HINT, OTHER) and slot not in known]
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
    by_prefix: dict[str, tuple[int, ...]]  # a form's first two words (or its one word) -> the forms' lengths
    first_words: re.Pattern[str]  # the forms' first words, as whole words
    roles: re.Pattern[str] | None = None  # role phrases in free word order (``role_pattern``)
    role_nouns: dict[str, str] = field(default_factory=dict)  # noun -> the kind(s) it names, "|"-joined
    slots: dict[str, SlotDescription] = field(default_factory=dict)  # slot -> its description
    at: dict[tuple[str, str, tuple[int, ...]], str] = field(default_factory=dict)  # (entity, owner, indices) -> slot
    layout: Layout = field(default_factory=Layout)
    indexed: dict[str, tuple[str, str]] = field(default_factory=dict)  # noun of a one-axis slot -> (entity, owner)


def _described_table(slots: list[tuple[str, int]]) -> Described:
    described = tuple(sorted(set(slots)))  # (slot, description id): whichever slot is the hint
    return _cached(_TABLES, described, lambda: _make_described(tuple((s, _DESCRIPTIONS[d]) for s, d in described)))


def _make_described(described: tuple[tuple[str, SlotDescription], ...]) -> Described:
    layout = Layout.of([d for _, d in described])
    forms: dict[str, tuple[str, str]] = {}
    shared: set[str] = set()
    for slot, d in described:
        one_forms = _cached(_DESCRIBED, (slot, d, _layout_read(d, layout)), lambda s=slot, d=d: _one_slot(s, d, layout))
        shared.update(f for f in one_forms if f in forms and forms[f][0] != slot)
        for form, entry in one_forms.items():
            forms.setdefault(form, entry)
    for form in shared:  # "row 1, column 1" of E and of P: a phrase two slots give names neither
        del forms[form]
    for form, entry in _unique_nouns(described).items():  # "the correlation" where there is one
        if form not in forms:
            forms[form] = entry
    roles: dict[str, tuple[str, str]] = {}
    for group, forms_id in reversed(_role_forms(tuple(d for _, d in described))):
        roles.update(dict.fromkeys(_BY_ID[forms_id], (ROLE + group, "")))
    roles.pop("", None)
    forms.update(roles)  # a role phrase is read as a role, whatever else it says
    nouns = _role_nouns(tuple(d for _, d in described))
    slots = dict(described)
    at = {(d.entity, d.owner, d.indices): slot for slot, d in reversed(described) if d.indices}
    indexed: dict[str, tuple[str, str]] = {}
    for _, d in described:
        if len(d.indices) == 1 and d.base is not None:
            for noun in (d.entity, *d.synonyms):
                head = alias_form(noun).rsplit(" ", 1)[-1]
                if head not in _VAGUE_NOUNS:
                    indexed.setdefault(head, (d.entity, d.owner))
    by_prefix = _by_prefix(forms)
    words = sorted({_FIRST_WORD.match(key).group() for key in by_prefix}, key=lambda w: (-len(w), w))  # type: ignore
    first_words = re.compile(r"(?<![a-z0-9])(?:" + "|".join(words) + r")(?![a-z0-9])" if words else r"(?!)")
    return Described(forms, by_prefix, first_words, role_pattern() if nouns else None, nouns, slots, at, layout,
                     indexed)


def _layout_read(d: SlotDescription, layout: Layout) -> tuple[Any, ...]:
    """What ``reader_phrases(d, layout)`` reads of the layout (only its entity's axes, ``generators.describe``): for
    one axis, the slot's rank among the others, their count, the axis's range and whether the slot is the second
    to last; for two, both axes' indices and ranges; for none, nothing. Slots whose phrases are made from equal
    readings share them."""
    axes = len(d.indices)
    if axes == 1:
        key, k = (d.entity, d.owner, 0), d.indices[0]
        here = layout.positions.get(key, ())
        return layout.rank(d, 0), len(here), layout.extents.get(key), len(here) > 2 and k == here[-2]
    if axes == 2:
        keys = ((d.entity, d.owner, 0), (d.entity, d.owner, 1))
        return tuple((layout.positions.get(key), layout.extents.get(key)) for key in keys)
    return ()


def _unique_nouns(described: tuple[tuple[str, SlotDescription], ...]) -> dict[str, tuple[str, str]]:
    """"the NOUN" for a noun that only one slot here carries (its entity, kind or a synonym): a definite
    description names the one thing it fits ("the correlation" when the portfolio has two assets)."""
    carriers: dict[str, set[str]] = {}
    for slot, d in described:
        for noun in dict.fromkeys((d.entity, d.group, *d.synonyms)):  # in order: the same on every run
            carriers.setdefault(alias_form(noun), set()).add(slot)
    out = {}
    for noun, slots in carriers.items():
        if len(slots) == 1 and noun and noun.rsplit(" ", 1)[-1] not in _VAGUE_NOUNS:
            slot = next(iter(slots))
            d = dict(described)[slot]
            out[_alias_form(f"the {noun}")] = (slot, f"unique: the only {noun} here, {d.summary()}")
    return out


_VAGUE_NOUNS = frozenset(("value", "number", "quantity", "fact", "information", "data", "parameter", "probability"))
GENERIC_ROLE_NOUNS = ("one",)  # "the missing value", "the information I lack" stay vague (labelled so)


def _role_nouns(descriptions: tuple[SlotDescription, ...]) -> dict[str, str]:
    """Every noun a role phrase may use, with the kinds of slot it names: the kind, the entity, its synonyms and
    attribute, and the last word of each ("sample" for "output sample"); generic nouns ("value", "one") name
    any fact (``ONE``)."""
    kinds: dict[str, list[str]] = {}
    for d in descriptions:
        for noun in (d.group, d.entity, *d.synonyms, *([d.attribute] if d.attribute.isalpha() else [])):
            head = noun.rsplit(" ", 1)[-1]
            for form in (noun, *([head] if head not in _VAGUE_NOUNS else [])):
                form = alias_form(form)
                if form and d.group not in kinds.setdefault(form, []):
                    kinds[form].append(d.group)
    out = {noun: "|".join(groups) for noun, groups in kinds.items()}
    for noun in GENERIC_ROLE_NOUNS:
        out.setdefault(noun, ONE)
    return out


_LACK = (r"(?:(?:(?:(?:thats|that is|whichs|which is)\s+(?:still\s+)?(?:missing|absent|unknown|unlisted|"
         r"not\s+(?:in|on|among|listed|given|provided|part of)\b)|(?:(?:that|which)\s+)?(?:isnt|arent|wasnt)\s+"
         r"(?:in|on|among|listed|given|provided|part of)\b)(?:\s+(?:from|in)?\s*(?:my|our|the)\s+\w+)?)|"
         r"(?:that\s+|which\s+)?(?:(?:my|our|the)\s+(?:list|facts|view|data|constraints)\s+(?:leaves?\s+out|omits?|"
         r"skips?|lacks?|is\s+missing|misses|doesnt\s+(?:have|include|list|give)|does\s+not\s+(?:have|include|list|give))|"
         r"(?:i|we)\s+(?:wasnt|werent)\s+(?:given|told)|(?:is|are|was|were)\s+neither\s+(?:given|listed|provided|known)|"
         r"(?:i|we)\s+(?:still\s+)?(?:dont|do not|didnt|did not|cant|cannot|havent|have not|"
         r"hadnt|had not)\s+(?:yet\s+)?(?:have|know|hold|see|get|got|been given)|(?:i|we)\s+(?:have|had|got)\s+no\b"
         r"(?:\s+(?:value|number|data|info))?(?:\s+for)?|(?:i|we)\s*(?:am|m|are|re)?\s+(?:still\s+)?missing|"
         r"(?:is|are|remains?)\s+(?:still\s+)?(?:missing|unknown|absent|unlisted|unspecified)|missing\s+(?:from|in)\s+"
         r"(?:my|our|the)\s+\w+|(?:(?:is|are|was)\s+)?not\s+(?:in|on|among|part of)\s+(?:my|our)\s+\w+|"
         r"(?:is\s+|was\s+)?not\s+"
         r"(?:listed|given|provided|known)(?:\s+to\s+(?:me|us))?|(?:i|we)\s+(?:was|were)\s+not\s+(?:given|told)|"
         r"(?:i|we)\s+lack|(?:i|we)\s*(?:am|m|are|re)?\s+short(?:\s+of)?|(?:is|are)\s+neither\s+given|(?:that\s+|which\s+)?(?:only\s+)?you\s+(?:hold|have)))")
_LACK_WORD = r"(?:remaining|missing|unknown|other|outstanding|absent|unlisted|lacking|unspecified|unprovided)"


_NOT_NOUN = (r"(?!(?:i|we|you|that|thats|which|whichs|is|isnt|are|arent|was|wasnt|do|does|did|of|in|on|from|for|not|"
             r"have|has|am|im|the|a|an)\b)")
_NOUN_PHRASE = r"(?P<n{}>(?:" + _NOT_NOUN + r"[a-z0-9]+\s+){{0,3}}?" + _NOT_NOUN + r"[a-z0-9]+)"


def role_pattern() -> re.Pattern[str]:
    """Role phrases in free word order: "the NOUN ... I have no value for", "the only NOUN of M missing from
    my list", "the remaining NOUN", "that NOUN?". Groups ``n1``..``n3`` hold the noun phrase, whose last words
    must be a noun of the instance (``role_kinds``). One regex for every instance, compiled once."""
    global _ROLE_PATTERN
    if _ROLE_PATTERN is None:
        det = r"(?<![a-z0-9])(?:the|which|what|whats|that|this|a|an|one)(?:\s+(?:only|one|single|sole|lone|last|very))*"
        tail = (r"(?:\s+(?:of|in|on|from|for|along)(?:\s+(?!(?:i|we|that|which)\b)[a-z0-9^_()\[\]]+){1,3}?"
                r"|\s+(?:value|values|number|entry|sign|equation|rate|probability))?")  # "of M", "resistor's value"
        pattern = (f"{det}\\s+{_NOUN_PHRASE.format(1)}{tail}\\s+{_LACK}"
                   f"|{det}\\s+{_LACK_WORD}(?:\\s+(?:only|one|single))?\\s+{_NOUN_PHRASE.format(2)}(?![a-z0-9])"
                   f"|(?<![a-z0-9])(?:that|this)(?:\\s+other)?\\s+{_NOUN_PHRASE.format(3)}"
                   r"(?=\s*(?:[?.,!]|$|please|for me|to me|is (?:what|all|the one) (?:i|we)\b))"
                   # "which congruence does x satisfy apart from the ones modulo 13 and modulo 5": to the clause's end
                   f"|(?<![a-z0-9])(?:which|what)\\s+{_NOUN_PHRASE.format(4)}\\s+(?:do|does|did|is|are|else)\\b[^?.;]{{0,40}}?"
                   r"\b(?:apart from|other than|besides|except|in addition to)\b[^?.;!]*"
                   # "the resistor that sits in series with R6", "which line crosses L1 at P": described by what it
                   # does among the others (B's only fact of the kind; else ambiguous)
                   f"|(?<![a-z0-9])(?:the|which)\\s+{_NOUN_PHRASE.format(5)}\\s+(?:that|which|who)\\s+"
                   r"(?!(?:i|we|you|is not|isnt|are not|was not)\b)(?:has|have|sits|lies|connects|crosses|meets|"
                   r"intersects|passes|goes|contains|appears|belongs|comes|separates|divides|splits|"
                   r"is\s+(?:in\s+(?:series|parallel)|connected|between|adjacent|next))\b[^?.;!]*"
                   f"|(?<![a-z0-9])which\\s+{_NOUN_PHRASE.format(6)}\\s+(?:crosses|meets|intersects|passes|connects|"
                   r"contains|sits|lies|separates|is\s+(?:in\s+(?:series|parallel)|connected))\b[^?.;!]*"
                   # "my list of samples skips one": the list of a kind, short of one
                   f"|(?<![a-z0-9])(?:my|our)\\s+(?:list|set)\\s+of\\s+{_NOUN_PHRASE.format(7)}\\s+(?:skips|omits|"
                   r"leaves\s+out|lacks|misses|is\s+missing|is\s+short)\s+(?:one|a\s+value|an\s+entry)\b")
        _ROLE_PATTERN = re.compile(pattern)
    return _ROLE_PATTERN


def role_kinds(phrase: str, nouns: dict[str, str]) -> str | None:
    """The kinds named by the longest tail of ``phrase`` ("one measured sample") that is a noun here, singular
    or plural."""
    words = phrase.split()
    for n in range(min(3, len(words)), 0, -1):
        tail = " ".join(words[-n:])
        for form in (tail, tail[:-1] if tail.endswith("s") else "", tail[:-2] if tail.endswith("es") else ""):
            if form and form in nouns:
                return nouns[form]
    return None


_ROLE_PATTERN: re.Pattern[str] | None = None



def _role_forms(descriptions: tuple[SlotDescription, ...]) -> list[tuple[str, int]]:
    """(kind, forms id) of the role phrases for each kind of slot here, and for "the one I am missing"."""
    phrases: dict[str, dict[tuple[str, ...], None]] = {}  # kind -> its slots' distinct role phrase lists, in order
    for d in descriptions:
        phrases.setdefault(d.group, {})[_cached(_ROLE_PHRASES, d, lambda d=d: tuple(role_phrases(d)))] = None
    return [*((group, _forms(tuple(dict.fromkeys(p for ps in lists for p in ps)))) for group, lists in phrases.items()),
            (ONE, _forms(ANONYMOUS_ROLES))]


def _one_slot(slot: str, d: SlotDescription, layout: Layout) -> dict[str, tuple[str, str]]:
    """The phrases of one slot's description: form -> (slot, how). A form read in several ways keeps the way that
    came first (the ways are written last to first)."""
    by_how: dict[str, list[str]] = {}
    for phrase, how in reader_phrases(d, layout):
        by_how.setdefault(how, []).append(phrase)
    summary = d.summary()
    forms: dict[str, tuple[str, str]] = {}
    known = _PHRASE_FORMS.get
    for how, phrases in reversed(by_how.items()):
        forms.update(dict.fromkeys([known(p) or _phrase_form(p) for p in phrases], (slot, f"{how}: {summary}")))
    forms.pop("", None)
    return forms


def _by_prefix(forms: Iterable[str]) -> dict[str, tuple[int, ...]]:
    """The lengths of the forms, longest first, by their first two words as written ("the correlation", "row 1"),
    or their one word: where a phrase can start in a request, only the forms that share its first two words are
    tried (the paraphrase banks give hundreds of forms starting with "the")."""
    lengths: dict[str, set[int]] = {}
    for form in forms:
        words = _FIRST_WORD.finditer(form)
        first = next(words, None)
        if first is None or first.start():
            continue
        second = next(words, None)
        lengths.setdefault(form[:(second or first).end()], set()).add(len(form))
    return {key: tuple(sorted(ls, reverse=True)) for key, ls in lengths.items()}


_FIRST_WORD = re.compile(r"[a-z0-9]+")
_WORDS = re.compile(r"(?<![a-z0-9])[a-z0-9]+")


def _phrase_form(phrase: str) -> str:
    """``_alias_form`` of one reader phrase, remembered: the slots of a run share most of their phrases (a cell's
    index phrases are the same whatever the size of its matrix; 17,000 distinct among 90,000 in the default
    split)."""
    found = _PHRASE_FORMS.get(phrase)
    if found is None:
        if len(_PHRASE_FORMS) >= 64 * _CACHE_SIZE:
            _PHRASE_FORMS.clear()
        found = _PHRASE_FORMS[phrase] = _alias_form(phrase)
    return found


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
        if extra is not None and extra[0] > length and not _cut_through(best, start, start + extra[0]):
            length = extra[0]
            form = text[start:start + length]
            slot, via = extra[1]
            if slot.startswith(ROLE):
                name = role_name(lexicon, slot[len(ROLE):])
            elif slot in lexicon.candidates:
                name = Name(HINT, lexicon.candidates[slot].slot, via, candidate=slot)
            else:
                name = Name(lexicon.slot_kinds.get(slot, OTHER), slot, via)
        elif length:
            form = text[start:start + length]
            name = names[form]
        else:  # only a described phrase started here, and it would cut a name in two
            continue
        if form == "a" and ARTICLE_NEXT.match(text, start + length):
            continue  # "give me a hint": the article, not an unknown named a
        end = at = start + length
        before = bisect_left(starts, end) - 1  # the last linear form starting before this name ends
        if before >= 0 and mentions[before].end > start:
            continue
        mentions.append(Mention(start, end, form, name))
    mentions.sort(key=lambda m: m.start)
    if lexicon.described is not None and lexicon.described.at and _RELATION_WORD.search(text):
        mentions = [_related(text, m, lexicon) for m in mentions]
    return mentions


def _cut_through(best: dict[int, int], start: int, end: int) -> bool:
    """Whether a family name starts inside ``start:end`` and runs past it: a described phrase ("the sign") never
    cuts a name ("sign bit of x0") in two."""
    return any(s + best[s] > end for s in range(start + 1, end) if s in best)


# "the term right after a(0)", "the entry directly below m00", "the equation that comes right after Equation (2)"
_RELATION_WORD = re.compile(r"\b(?:after|following|before|preceding|below|beneath|under|above|over|left of|right of)\b")
_RELATION = re.compile(r"(?:(?:right|just|immediately|directly|straight)\s+)?(?:to the\s+|on the\s+)?(after|following|"
                       r"before|preceding|below|beneath|under|above|over|left of|right of)\s*(?:the\s+)?$")
_STEPS = {"after": (0, 1), "following": (0, 1), "before": (0, -1), "preceding": (0, -1), "below": (0, 1),
          "beneath": (0, 1), "under": (0, 1), "above": (0, -1), "over": (0, -1), "left of": (1, -1),
          "right of": (1, 1)}
_ACROSS = ("below", "beneath", "under", "above", "over", "left of", "right of")  # steps on a grid, not along a line


def _related(text: str, m: Mention, lexicon: Lexicon) -> Mention:
    """``m`` read with a relation word before it as the slot next to it along its axis (one axis: after and
    before; rows: below and above), when the instance has that slot; otherwise ``m`` itself."""
    table = lexicon.described
    assert table is not None
    relation = _RELATION.search(text, max(0, m.start - 40), m.start)
    if relation is None:
        return m
    d = table.slots.get(m.name.candidate or m.name.slot) or _by_analogy(m.name.slot, table)
    if d is None or len(d.indices) not in (1, 2):
        return m
    word = relation.group(1)
    if (len(d.indices) == 1) == (word in _ACROSS):
        return m
    axis, step = _STEPS[word]
    here = table.layout.positions.get((d.entity, d.owner, axis), ())
    k = d.indices[axis]
    if k not in here or not 0 <= here.index(k) + step < len(here):
        return m
    indices = list(d.indices)
    indices[axis] = here[here.index(k) + step]
    slot = table.at.get((d.entity, d.owner, tuple(indices)))
    if slot is None:
        return m
    via = f"relation: {relation.group().strip()} {m.form}: {table.slots[slot].summary()}"
    if slot in lexicon.candidates:
        name = Name(HINT, lexicon.candidates[slot].slot, via, candidate=slot)
    else:
        name = Name(lexicon.slot_kinds.get(slot, OTHER), slot, via)
    return Mention(relation.start(), m.end, text[relation.start():m.end], name)


def _by_analogy(slot: str, table: Described) -> SlotDescription | None:
    """A description for a name with no slot of its own (the unknown u_1_3 of a grid whose facts are u_0_3, ...):
    that of the described slots whose names differ from it only in their numbers, which are their indices, with
    its own numbers as indices ("the boundary value above u_1_3" is u_0_3)."""
    numbers = tuple(int(n) for n in _DIGITS.findall(slot))
    shape = _DIGITS.sub("#", slot)
    for other, d in table.slots.items():
        if d.indices and len(d.indices) == len(numbers) and _DIGITS.sub("#", other) == shape and tuple(
                int(n) for n in _DIGITS.findall(other)) == d.indices:
            return replace(d, indices=numbers)
    return None


_QUALIFIED = re.compile(r"\s*(?:of|in|for|at|between|from|on)\b")
_ROLE_HINT = re.compile(r"\b(?:dont|do not|didnt|did not|havent|have not|have no|had no|missing|not in|not on|short|"
                       r"not among|not part|not listed|not given|not provided|not known|not told|lack|neither|you hold|"
                       r"you have|remaining|unknown|other|outstanding|absent|unlisted|unspecified|apart from|besides|"
                       r"except|crosses|meets|intersects|passes|connects|contains|sits|lies|has|appears|belongs|"
                       r"leaves|leave|omits|omit|skips|skip|wasnt|werent|separates|divides|splits|series|parallel)\b|"
                       r"\b(?:that|this)(?: other)? [a-z0-9]+"
                       r"(?: [a-z0-9]+)?\s*(?:[?.,!]|$|please|for me|to me|is (?:what|all|the one) (?:i|we)\b)")


def role_name(lexicon: Lexicon, kinds: str) -> Name:
    """What a role phrase for ``kinds`` ("|"-joined when its noun fits several) names: the hint when it is B's
    only fact of one of those kinds and B holds none of the others."""
    names = [lexicon.role_names.get(kind) or Name(AMBIGUOUS, kind, f"role: B holds 0 of kind {kind}")
             for kind in kinds.split("|")]
    held = [n for n in names if not n.via.startswith("role: B holds 0 ")]
    return held[0] if len(held) == 1 else names[0]


def _described_at(text: str, lexicon: Lexicon) -> dict[int, tuple[int, tuple[str, str]]]:
    """start -> (length, (slot, how)) of the longest described phrase starting at each word of ``text``."""
    table = lexicon.described
    assert table is not None
    out: dict[int, tuple[int, tuple[str, str]]] = {}
    if table.roles is not None and _ROLE_HINT.search(text):
        for m in table.roles.finditer(text):
            kinds = role_kinds(m.group(m.lastgroup or 0), table.role_nouns)
            if m.lastgroup == "n3" and m.group("n3") == "one" and not STATES_LACK.search(text):
                continue  # "I'm stuck on this one": a pointer with no noun and no lack names nothing
            if kinds is None and m.lastgroup:  # "which birth rate is not ...": the noun's last word read as a tail
                tail = _NEXT_WORD.match(text, m.end(m.lastgroup))
                kinds = role_kinds(m.group(m.lastgroup) + " " + tail.group(1), table.role_nouns) if tail else None
            if kinds is not None:
                out.setdefault(m.start(), (m.end() - m.start(), (ROLE + kinds, "")))
    if table.indexed and ("index" in text or "position" in text or "step" in text or "time" in text):
        for start, length, slot in _index_after_words(text, table):
            out.setdefault(start, (length, (slot, f"index: {table.slots[slot].summary()}")))
    by_prefix = table.by_prefix
    for word in table.first_words.finditer(text):
        start = word.start()
        if start in out:
            continue
        second = _FIRST_WORD.search(text, word.end())
        lengths = by_prefix.get(text[start:second.end()], ()) if second else ()
        one = by_prefix.get(word.group())
        if one:
            lengths = lengths + one if not lengths or lengths[-1] > one[0] else tuple(sorted((*lengths, *one),
                                                                                            reverse=True))
        for length in lengths:
            if start + length > len(text):
                continue
            form = text[start:start + length]
            entry = table.forms.get(form)
            if entry is not None and entry[1].startswith("unique:") and (
                    text[max(0, start - 4):start] != "the " or _names_another(text, start + length, lexicon)):
                continue  # only "the sign" alone: "the sign of x0" is x0's sign, "sign(x9)" another's
            if entry is not None and form not in lexicon.names:
                end = start + length
                if not form[-1].isalnum() or end == len(text) or text[end] not in _WORD:
                    out[start] = (length, entry)
                    break
    return out


# A clause saying a fact is missing from A's side or held on B's, in any words ("I haven't been told", "absent from
# my list", "you have ... that I don't", "the only gap"): what role readings in free word order look for
# (``rule_reference.role_by_clause``), and what makes "that one" a role ("I don't have that one").
STATES_LACK = re.compile(
    r"\b(?:missing|absent|unlisted|gaps?|lacks?|lacking|neither|except|omitted|left out|one more|"
    r"(?:isnt|arent|wasnt|is not|are not|was not|not)\s+(?:in|on|among|part of|listed|given|provided)|"
    r"(?:havent|have not|hasnt|has not|wasnt|was not|werent|were not|not)\s+(?:yet\s+)?(?:been\s+)?(?:told|given|"
    r"provided|shown|listed)|"
    r"(?:dont|do not|didnt|did not|cant|cannot|havent|have not)\s+(?:yet\s+)?(?:have|know|hold|see|get|got|possess)|"
    r"(?:i|we)\s+(?:have|had|got)\s+no\b|(?:only\s+)?half\s+have|"
    r"(?<!\bdo )(?<!\bdid )(?<!\bwhat )(?<!\bwhatever )(?<!\beverything )"  # "do you know ..." asks B
    r"you\s+(?:hold|have|know|possess|were\s+(?:given|told)|got|alone\s+(?:have|hold|know)))\b")
_NEXT_WORD = re.compile(r"\s+([a-z]+)")
_QUALIFIER = re.compile(r"[^,;?.!]*")
_TOKEN = re.compile(r"[a-z0-9_()\[\]|>-]+")


def _names_another(text: str, at: int, lexicon: Lexicon) -> bool:
    """Whether a qualifier after a definite description ("of x0", "between asset 1 and asset 2") names something:
    a number or one of the instance's names. "the correlation between the two assets" names nothing more."""
    if not _QUALIFIED.match(text, at):
        return False
    qualifier = _QUALIFIER.match(text, at).group()  # type: ignore[union-attr]
    return any(ch.isdigit() for ch in qualifier) or any(t in lexicon.names for t in _TOKEN.findall(qualifier))


# "the output of the convolution at time index k = 4", "the value measured at position 2": a one-axis noun, a few
# words without numbers, then its index
_INDEX_AT = re.compile(r"(?:\s+(?:at|with|for|of))?(?:\s+(?:the|time|sample))*\s+(?:index|position|step|time)\s*"
                       r"(?:[a-z]=)?(\d+)"
                       r"(?![\d\[(])")


def _index_after_words(text: str, table: Described) -> list[tuple[int, int, str]]:
    """(start, length, slot) for each "NOUN ... index K" whose noun is one of a one-axis slot here, nearest first."""
    out = []
    for m in _INDEX_AT.finditer(text):
        words = text[max(0, m.start() - 60):m.start()].split(" ")
        span = 0
        for back, word in enumerate(reversed(words)):
            if back > 6 or any(ch.isdigit() for ch in word):
                break
            span += len(word) + (1 if back else 0)
            owner = table.indexed.get(word.strip(",")) or table.indexed.get(word.strip(",")[:-1])
            if owner is None:
                continue
            slot = table.at.get((*owner, (int(m.group(1)),)))
            if slot is not None:
                start = m.start() - span
                out.append((start, m.end() - start, slot))
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


# ------------------------------------------------------------------------------------ meanings, loosely
# A meaning reworded ("How likely is the chain to stay put in state 0", "jumps from state 0 straight to state 3")
# is still recognisable by its numbered words ("state0", "state3", "x=3") in order and one of its content words.
# Tried only when a request names nothing else, so it can only turn a "nothing named" into a reading.
_ANCHOR = re.compile(r"(?<![a-z0-9])[a-z]+=?-?\d+(?![a-z0-9])")
_CONTENT = re.compile(r"[a-z]{4,}")
_STOP = frozenset(("what", "which", "that", "this", "with", "from", "into", "when", "have", "does", "value", "the",
                   "probability", "chance", "state", "symbol", "equal", "equals"))


PLURAL_ASK = re.compile(r"\b(?:probabilities|rates|entries|values|numbers|coefficients|equations|samples|terms|"
                         r"weights|cells|transitions|emissions|moments|sums|signs|correlations|all|both|every)\b")


def _meaning_signatures(table: Described) -> list[tuple[str, tuple[str, ...], frozenset[str]]]:
    found = _SIGNATURES.get(id(table))
    if found is None or found[0] is not table:
        signatures = {}
        for form, (slot, via) in table.forms.items():
            if not via.startswith("meaning"):
                continue
            anchors = tuple(_ANCHOR.findall(form))
            content = frozenset(w for w in _CONTENT.findall(_ANCHOR.sub(" ", form)) if w not in _STOP)
            if anchors and content:
                key = (slot, anchors)
                signatures[key] = signatures.get(key, frozenset()) | content
        found = _SIGNATURES[id(table)] = (table, [(slot, anchors, content) for (slot, anchors), content
                                                  in sorted(signatures.items())])
        if len(_SIGNATURES) > _CACHE_SIZE:
            _SIGNATURES.clear()
    return found[1]


_SIGNATURES: dict[int, tuple[Described, list[tuple[str, tuple[str, ...], frozenset[str]]]]] = {}


_ANCHOR_HEAD = re.compile(r"[a-z]+")


def _in_order(anchors: tuple[str, ...], tokens: list[str]) -> bool:
    """Whether ``anchors`` occur in ``tokens`` in order, among those of one kind ("state2" before "state1"); anchors
    of different kinds ("state2", "symbol1") may come in either order ("symbol 1 from state 2")."""
    if not all(a in tokens for a in anchors):
        return False
    if len(anchors) == 1:
        return True
    for head in dict.fromkeys(_ANCHOR_HEAD.match(a).group() for a in anchors):  # type: ignore[union-attr]
        at = 0
        same = [t for t in tokens if t.startswith(head) and not t[len(head)].isalpha()]
        for anchor in anchors:
            if not anchor.startswith(head) or anchor[len(head)].isalpha():
                continue
            try:
                at = same.index(anchor, at) + 1
            except ValueError:
                return False
    return True


def _shares_stem(content: frozenset[str], words: list[str]) -> bool:
    """One content word of a meaning in ``words``: the same first four letters, or for long words the same first
    three ("emission", "emitting")."""
    stems = {w[:4] for w in words}
    short = {w[:3] for w in words if len(w) >= 6}
    return any(c[:4] in stems or (len(c) >= 6 and c[:3] in short) for c in content)


def loose_meaning(text: str, lexicon: Lexicon) -> Mention | None:
    """The one slot whose meaning's numbered words all occur in ``text`` in order, with one of its content
    words (the stem of at least four letters), preferring the meaning with most numbered words; None if none
    or several fit."""
    table = lexicon.described
    if table is None:
        return None
    tokens = _ANCHOR.findall(text)
    if PLURAL_ASK.search(text):  # "the transition probabilities out of state 1" asks for several
        return None
    words = [w for w in _CONTENT.findall(text) if w not in _STOP]
    if not tokens:
        return _by_content(words, table, lexicon, places(text))
    fits: dict[str, int] = {}
    for slot, anchors, content in _meaning_signatures(table):
        if len(anchors) >= fits.get(slot, 0) and _in_order(anchors, tokens) and _shares_stem(content, words):
            fits[slot] = len(anchors)
    if not fits:
        return None
    best = max(fits.values())
    slots = [slot for slot, n in fits.items() if n == best]
    if len(slots) != 1:
        return None
    slot = slots[0]
    via = f"meaning, loosely: {' '.join(a for a in tokens)} ({table.slots[slot].summary()})" if slot in table.slots \
        else "meaning, loosely"
    if slot in lexicon.candidates:
        name = Name(HINT, lexicon.candidates[slot].slot, via, candidate=slot)
    else:
        name = Name(lexicon.slot_kinds.get(slot, OTHER), slot, via)
    return Mention(0, 0, " ".join(tokens), name)


def _by_content(words: list[str], table: Described, lexicon: Lexicon, placed: frozenset[str] = frozenset()
                ) -> Mention | None:
    """A meaning with no numbers in it, reworded: the one slot with a meaning that shares the most content stems with
    the request ("how strongly do the returns of the two assets move together", "how likely is H before any
    evidence"): ranked first by the stems its best single meaning shares, then by those all its meanings share (at
    least three), ahead of every other slot. The single meaning comes first: with many phrasings per slot, the
    union of a slot's words also fits requests for its neighbours."""
    stems, signatures = {w[:4] for w in words}, _content_signatures(table)
    scores = []
    for slot, (every, meanings) in signatures.items():
        shared_by_all = len(stems & every)
        # "the bottom-right entry" is not a slot whose meanings place it in another corner, or nowhere
        best = max((len(stems & own) for own, where in meanings if placed <= where), default=0) \
            if shared_by_all else 0
        if not best:
            continue
        scores.append(((best, shared_by_all), slot))
    scores.sort(reverse=True)
    if not scores or scores[0][0][1] < 3 or (len(scores) > 1 and scores[1][0] == scores[0][0]):
        return None
    slot = scores[0][1]
    shared = signatures[slot][0]
    matched = " ".join(dict.fromkeys(w for w in words if w[:4] in shared))
    via = f"meaning, by its words: {matched}" + (f" ({table.slots[slot].summary()})" if slot in table.slots else "")
    if slot in lexicon.candidates:
        name = Name(HINT, lexicon.candidates[slot].slot, via, candidate=slot)
    else:
        name = Name(lexicon.slot_kinds.get(slot, OTHER), slot, via)
    return Mention(0, 0, matched, name)


# a place in a matrix, as "top right", "bottom left", "diagonal" ("upper" is "top", "off-diagonal" is "diagonal")
_PLACE = re.compile(r"\b(?:(top|bottom|upper|lower)[\s-]*(left|right)|(diagonal|corner))\b")
_SAME_PLACE = {"upper": "top", "lower": "bottom"}


def places(text: str) -> frozenset[str]:
    """The places in a matrix that ``text`` names ("the top-right entry": {"top right"})."""
    return frozenset(m.group(3) or f"{_SAME_PLACE.get(m.group(1), m.group(1))} {m.group(2)}"
                     for m in _PLACE.finditer(text))


def _content_signatures(table: Described) -> dict[str, tuple[frozenset[str], tuple[tuple[frozenset[str],
                                                                                          frozenset[str]], ...]]]:
    """slot -> the content stems (first four letters) of all its meanings, and of each with the places it names."""
    found = _CONTENT_SIGNATURES.get(id(table))
    if found is None or found[0] is not table:
        out: dict[str, dict[tuple[frozenset[str], frozenset[str]], None]] = {}
        for form, (slot, via) in table.forms.items():
            if via.startswith("meaning"):
                own = frozenset(w[:4] for w in _CONTENT.findall(form) if w not in _STOP)
                if own:
                    out.setdefault(slot, {})[own, places(form)] = None
        found = _CONTENT_SIGNATURES[id(table)] = (table, {k: (frozenset().union(*(own for own, _ in v)), tuple(v))
                                                         for k, v in out.items()})
        if len(_CONTENT_SIGNATURES) > _CACHE_SIZE:
            _CONTENT_SIGNATURES.clear()
    return found[1]


_CONTENT_SIGNATURES: dict[int, tuple[Described, dict[str, tuple[frozenset[str], tuple[tuple[frozenset[str],
                                                                                      frozenset[str]], ...]]]]] = {}


# ------------------------------------------------------------------------------------ misspelt names
# A word of seven letters or more that is not a word of the instance's names but one edit (a letter left out,
# added, changed, or two swapped) away from exactly one of them is read as that word ("congrunce": congruence); a
# word of five or six letters only for two letters swapped or one left out ("thrid", "elemnt"), since changing a
# letter of a short word often makes another word ("simple", "sample").
# The responder only uses the correction when the request, read as written, is declined.
_LONG_WORD = re.compile(r"(?<![a-z0-9])[a-z]{5,}(?![a-z])")  # "eqation3": a name glued to its number
_NAME_WORD = re.compile(r"[a-z]{5,}")
SHORT_WORD = 7  # shorter words are corrected only for a swap or a dropped letter ("thrid", "elemnt"), never a change


@dataclass
class TypoIndex:
    words: frozenset[str]  # every long word of the instance's names
    # by first two letters and by last two: one edit of a word of five letters or more keeps one of the two
    ends: dict[str, tuple[str, ...]]


def _typo_index(lexicon: Lexicon) -> TypoIndex:
    if lexicon.typo_index is None:
        words: set[str] = set()
        for form in (*lexicon.names, *(lexicon.described.forms if lexicon.described else ()),
                     *(lexicon.described.role_nouns if lexicon.described else ())):
            words.update(_NAME_WORD.findall(form))
        ends: dict[str, list[str]] = {}
        for word in sorted(words):
            for key in dict.fromkeys((word[:2] + "<", ">" + word[-2:])):
                ends.setdefault(key, []).append(word)
        lexicon.typo_index = TypoIndex(frozenset(words), {k: tuple(v) for k, v in ends.items()})
    return lexicon.typo_index


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one insertion, deletion, substitution or swap of neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[i:] == long[i + 1:]


def _inflected(a: str, b: str) -> bool:
    """"resistor" and "resistors", "emission" and "emissions": a plural is not a misspelling."""
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return long == short + "s" or (long[:-1] == short[:-1] and long[-1] + short[-1] in ("sy", "ys"))


def typo_corrections(text: str, lexicon: Lexicon) -> list[tuple[str, str]]:
    """(misspelt word, the word of the instance's names it stands for) for each correctable word of ``text``."""
    found = _LONG_WORD.findall(text)
    if not found:
        return []
    index = _typo_index(lexicon)
    out = []
    for word in dict.fromkeys(found):
        if word in index.words:
            continue
        near = {w for key in (word[:2] + "<", ">" + word[-2:]) for w in index.ends.get(key, ())
                if abs(len(w) - len(word)) <= 1 and _one_edit(word, w) and not _inflected(word, w)
                and (len(word) >= SHORT_WORD or len(w) > len(word) or sorted(w) == sorted(word))}
        if len(near) == 1:
            out.append((word, near.pop()))
    return out
