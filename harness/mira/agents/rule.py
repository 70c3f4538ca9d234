"""The ``rule`` responder: a deterministic matcher from request text to the instance's hint slot.

It offers B's canonical hint constraint when, and only when, the request names the hint slot precisely:

1. the normalised request (``harness.text.normalize``: case, unicode, Greek letters, underscores,
   spaces; ``"μ4" == "mu_4" == "mu4"``) contains one of the slot's names: the hint's ``request_aliases``
   and its ``slot``, matched as whole names (``mu4`` does not match ``mu42``), a leading article ignored;
2. it names no other slot: no name (``family.slot_name`` + ``family.slot_aliases``) of any slot-bearing
   constraint A already holds, nor of B's other constraints, nor one of the problem's unknowns (so
   ``"the solution (a, b, c)"`` is not a request for ``c``). A name found inside a longer name of the
   other kind counts as part of that longer name (``"p(h)"`` is not found in ``"p(h|e)"`` anyway).

Everything else is declined with the fixed message: vague requests ("what is missing?"), requests for
the target, for a slot B does not hold, for a fact A already has, or for two slots at once. B's other
(non-canonical) constraints are never offered by this responder.

It is ``privileged``: it reads the instance's machine-readable hint specification and A's slot names to
adjudicate; what it *reveals* is only ever the canonical hint text, or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generators.base import Family
from generators.families import get_family
from harness.errors import HarnessError
from harness.mira.agents.common import SimulatedLatency, reject_unknown_options
from harness.mira.types import Responder, ResponderDecision, ResponderTurn
from harness.text import alias_form, find_spans, normalize


@dataclass
class SlotMatcher:
    """Names of the hint slot (``canonical``) and of every other slot in the instance (``others``)."""

    canonical: list[str]
    others: list[str] = field(default_factory=list)

    def matches(self, request: str) -> bool:
        text = normalize(request)
        canon = find_spans(text, self.canonical)
        if not canon:
            return False
        other = find_spans(text, self.others)
        other = [o for o in other if not any(_inside(o, c) for c in canon)]
        canon = [c for c in canon if not any(_inside(c, o) for o in other)]
        return bool(canon) and not other


def _inside(inner: tuple[int, int], outer: tuple[int, int]) -> bool:
    """``inner`` lies within ``outer`` and is strictly shorter."""
    return outer[0] <= inner[0] and inner[1] <= outer[1] and (inner[1] - inner[0]) < (outer[1] - outer[0])


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


def build_matcher(instance: dict[str, Any]) -> SlotMatcher:
    family = get_family(instance["family"])
    hint = instance["minimal_hint_spec"]["atomic_hints"][0]
    canonical = [*hint["request_aliases"], hint["slot"]]
    canonical_forms = {alias_form(a) for a in canonical}
    views = {v["agent_id"]: v["private_data"]["constraints_machine"] for v in instance["agent_views"]}
    others: list[str] = []
    for constraint in [*views["A"], *views["B"]]:
        if constraint == hint["constraint"]:
            continue
        slot, names = slot_names(family, constraint)
        if slot is None or slot == hint["slot"]:
            continue
        others.extend(n for n in names if alias_form(n))
    unknowns = next(v["private_data"]["unknowns"] for v in instance["agent_views"] if v["agent_id"] == "A")
    others.extend(u for u in unknowns if isinstance(u, str) and alias_form(u) not in canonical_forms)
    if not any(canonical_forms):
        raise HarnessError(f"{instance['id']}: the hint has no usable request alias")
    return SlotMatcher(_unique_forms(canonical), _unique_forms(others))


def _unique_forms(names: list[str]) -> list[str]:
    """One representative per normalised form (matching only depends on the form)."""
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(alias_form(name), name)
    return [name for form, name in seen.items() if form]


class RuleResponder(Responder):
    privileged = True

    def __init__(self, latency: SimulatedLatency | None = None):
        self.latency = latency or SimulatedLatency({})
        self._matchers: dict[str, SlotMatcher] = {}

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> RuleResponder:
        latency = SimulatedLatency(options)
        reject_unknown_options("rule", arg, options)
        return cls(latency)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "matcher": "request_aliases + family slot names; offer on precise match"}

    def respond(self, turns: list[ResponderTurn]) -> list[ResponderDecision]:
        self.latency.wait()
        return [self.decide(turn) for turn in turns]

    def decide(self, turn: ResponderTurn) -> ResponderDecision:
        instance = turn.privileged
        if instance is None:
            raise HarnessError("the rule responder needs the instance record (privileged turn)")
        matcher = self._matchers.get(turn.instance_id)
        if matcher is None:
            matcher = self._matchers[turn.instance_id] = build_matcher(instance)
        if not matcher.matches(turn.request):
            return ResponderDecision.decline()
        text = instance["minimal_hint_spec"]["atomic_hints"][0]["text"]
        return ResponderDecision.offer(text, text)
