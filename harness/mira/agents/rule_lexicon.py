"""The ``rule`` responder's lexicon: every name one instance gives a thing, and finding them in a request.

Step 1 of ``harness.mira.agents.rule``: the hint slot (its ``request_aliases``, its slot name and the word
descriptions in ``rule_vocab``), the parts the hint fact alone fixes, every other slot of A's and B's views,
A's unknowns and the target, compiled into one longest-first trie regex over normalised text; a linear
expression equal to the hint's left-hand side is a name of the hint too.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

from generators.base import Family
from generators.families import get_family
from harness.errors import HarnessError
from harness.mira.agents.rule_vocab import candidate_vocabulary, vocabulary
from harness.text import alias_form, normalize

HINT, PART, KNOWN, OTHER, TARGET, UNNAMED = "hint", "part", "known", "other", "target", "unnamed"
_PRIORITY = {HINT: 0, PART: 1, KNOWN: 2, OTHER: 3, TARGET: 4}
LINEAR_EXPR = re.compile(r"(?<![\w)])[+-]?\d*\*?[a-z][a-z0-9]*(?:[+-]\d*\*?[a-z][a-z0-9]*)+(?![\w(])")
# After the word "a", a word that a variable named a is followed by ("a and b", "a is", "a itself"); any other
# word makes it the article.
ARTICLE_NEXT = re.compile(r"\s+(?!(?:and|or|is|equals|in|from|to|as|plus|minus|please|then|so|if|itself|alone|only|"
                          r"too|first|directly|would|will|given|since|because|for|with|but|at|by|of|on|also|via|"
                          r"exactly|value|now|here)\b)[a-z]")
LINEAR_TERM = re.compile(r"([+-]?)(\d*)\*?([a-z][a-z0-9]*)")


@dataclass(frozen=True)
class Name:
    kind: str  # HINT, PART, KNOWN, OTHER, TARGET
    slot: str  # what it names (the slot, or the target/unknown name)


@dataclass
class Lexicon:
    """Every name one instance gives a thing, as one longest-first regex over normalised text."""

    names: dict[str, Name]
    components: frozenset[str]  # forms of names that occur inside the hint fact (q1, q2 for m2)
    linear: dict[str, int] | None  # the hint's left-hand side, when it is a linear equation
    hint_slot: str = ""
    pattern: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        self.pattern = trie_pattern(list(self.names))


def trie_pattern(forms: list[str]) -> re.Pattern[str]:
    """One regex finding any of ``forms`` as a whole name, longest first, built as a trie.

    A flat alternation of a few hundred names tries every name at every position; the trie tries one
    branch per character, which keeps a request to a few microseconds.
    """
    alnum = [f for f in forms if f[:1].isalnum()]
    other = [f for f in forms if f and not f[:1].isalnum()]
    parts = []
    if alnum:
        parts.append(r"(?<![a-z0-9])" + _trie_regex(_trie(alnum)))
    if other:
        parts.append(_trie_regex(_trie(other)))
    return re.compile("|".join(parts)) if parts else re.compile(r"(?!)")


def _trie(forms: list[str]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for form in forms:
        node = root
        for ch in form:
            node = node.setdefault(ch, {})
        node[""] = form
    return root


def _trie_regex(node: dict[str, Any]) -> str:
    branches = [re.escape(ch) + _trie_regex(child) for ch, child in sorted(node.items()) if ch]
    if "" in node:  # a name ends here: after every longer continuation, try ending
        form = node[""]
        branches.append(r"(?![a-z0-9])" if form[-1:].isalnum() else "")
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
    family = get_family(instance["family"])
    hint = instance["minimal_hint_spec"]["atomic_hints"][0]
    views = {v["agent_id"]: v["private_data"] for v in instance["agent_views"]}
    extra = vocabulary(instance["family"], hint["constraint"], instance.get("target") or {})
    names: dict[str, Name] = {}

    def add(phrases: list[str], name: Name) -> None:
        for phrase in phrases:
            if not isinstance(phrase, str):
                continue
            form = alias_form(phrase)
            known = names.get(form)
            if form and (known is None or _PRIORITY[name.kind] < _PRIORITY[known.kind]):
                names[form] = name

    for other in _settled(family, hint):  # each candidate B's fact settles is a quantity of its own
        add([*_names_of(family, other), *candidate_vocabulary(instance["family"], other)], Name(HINT, other))
    add([*hint["request_aliases"], hint["slot"], *extra.get("hint", [])], Name(HINT, hint["slot"]))
    if not names:
        raise HarnessError(f"{instance['id']}: the hint has no usable request alias")
    add(extra.get("parts", []), Name(PART, hint["slot"]))
    for agent, kind in (("A", KNOWN), ("B", OTHER)):
        for constraint in views[agent]["constraints_machine"]:
            if constraint == hint["constraint"]:
                continue
            slot, phrases = slot_names(family, constraint)
            if slot is not None and slot != hint["slot"]:
                add(phrases, Name(kind, slot))
    unknowns = [u for u in views["A"]["unknowns"] if isinstance(u, str)]
    for unknown in unknowns:
        add([unknown], Name(TARGET, unknown))
    add(extra.get("target", []), Name(TARGET, "target"))
    hint_text = normalize(hint["text"])
    components = frozenset(f for f in names if f[:1].isalnum() and re.search(_bounded(f), hint_text))
    linear = None
    coeffs = hint["constraint"].get("coeffs") if isinstance(hint["constraint"], dict) else None
    if isinstance(coeffs, dict):
        linear = {alias_form(k): v for k, v in coeffs.items() if isinstance(v, int) and v}
    return Lexicon(names, components | _part_forms(names), linear, hint["slot"])


def _settled(family: Family, hint: dict[str, Any]) -> list[str]:
    constraint = hint.get("constraint")
    if not isinstance(constraint, dict):
        return []
    try:
        return [s for s in family.settled_slots(constraint) if s != hint["slot"]]
    except (KeyError, TypeError, ValueError):
        return []


def _names_of(family: Family, slot: str) -> list[str]:
    try:
        return [*family.slot_aliases(slot, {}), slot]
    except (KeyError, TypeError, ValueError, IndexError):
        return [slot]


def _part_forms(names: dict[str, Name]) -> frozenset[str]:
    return frozenset(f for f, n in names.items() if n.kind == PART)


@dataclass
class Mention:
    start: int
    end: int
    form: str
    name: Name


def find_mentions(text: str, lexicon: Lexicon) -> list[Mention]:
    """Names in normalised ``text``, longest first, not overlapping; linear forms of the hint first."""
    mentions: list[Mention] = []
    if lexicon.linear:
        for m in LINEAR_EXPR.finditer(text):
            if _linear_form(m.group()) == lexicon.linear:
                mentions.append(Mention(m.start(), m.end(), m.group(), Name(HINT, lexicon.hint_slot)))
    starts = [m.start for m in mentions]  # linear forms: sorted, not overlapping
    for m in lexicon.pattern.finditer(text):
        before = bisect_left(starts, m.end()) - 1  # the last linear form starting before this name ends
        if before >= 0 and mentions[before].end > m.start():
            continue
        if m.group() == "a" and ARTICLE_NEXT.match(text, m.end()):
            continue  # "give me a hint": the article, not an unknown named a
        mentions.append(Mention(m.start(), m.end(), m.group(), lexicon.names[m.group()]))
    mentions.sort(key=lambda m: m.start)
    return mentions


def _linear_form(expr: str) -> dict[str, int] | None:
    out: dict[str, int] = {}
    for sign, digits, var in LINEAR_TERM.findall(expr):
        value = int(digits) if digits else 1
        out[var] = out.get(var, 0) + (-value if sign == "-" else value)
    return {k: v for k, v in out.items() if v}
