"""The ``oracle`` solver: asks for the canonical slot, then solves exactly.

* First turn: ``family.canonical_request(slot, hint)`` (``"What is <first alias>?"``).
* After a decline: asks again with the next alias of the slot (cycling), while budget remains.
* After an offer: maps each offered quote back to B's machine constraint (by normalised text) and
  answers ``family.solve(A's view + offered constraints)`` in the instance's answer format. If the offers
  do not determine the target (a non-canonical offer), it asks again, or guesses 0 on its last turn.
* k > 1 (the hard tier): asks for each withheld fact in turn (``h1``, then ``h2``), each as above (its
  canonical request first, then its aliases, counted from the last offer), until the offers determine the target.
* Oracle-hint condition: solves at once with the hints it is given.

It is ``privileged`` (reads the instance) only to turn quoted text into machine constraints and to know
the slot's aliases; its answer depends on what the responder actually offered.
"""

from __future__ import annotations

import json
from typing import Any

from generators.answers import encode_answer
from generators.errors import Inconsistent, NotUnique
from generators.families import get_family
from harness.errors import HarnessError
from harness.mira.agents.common import SimulatedLatency, reject_unknown_options, typed_zero
from harness.mira.audit import audit_form
from harness.mira.types import Solver, SolverAction, SolverTurn


class OracleSolver(Solver):
    privileged = True

    def __init__(self, latency: SimulatedLatency | None = None):
        self.latency = latency or SimulatedLatency({})

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> OracleSolver:
        latency = SimulatedLatency(options)
        reject_unknown_options("oracle", arg, options)
        return cls(latency)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "strategy": "canonical request, then family.solve on A's view + offer"}

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        self.latency.wait()
        return [self.decide(turn) for turn in turns]

    def decide(self, turn: SolverTurn) -> SolverAction:
        instance = turn.privileged
        if instance is None:
            raise HarnessError("the oracle solver needs the instance record (privileged turn)")
        offered = (turn.hints or [turn.hint]) if turn.hint is not None else _offered_texts(turn)
        if offered:
            answer = _solve_with(instance, turn, offered)
            if answer is not None:
                return SolverAction.final(answer, json.dumps(answer))
        if turn.must_answer:
            guess = typed_zero(turn.answer_type, turn.answer_keys)
            return SolverAction.final(guess, json.dumps(guess))
        return SolverAction.ask(_request(instance, turn))


def _offered_texts(turn: SolverTurn) -> list[str]:
    texts = []
    for exchange in turn.history:
        decision = exchange.decision
        if decision is not None and decision.kind == "offer":
            texts.extend(t for t in (decision.constraint_quoted, decision.hint) if t)
    return texts


def _solve_with(instance: dict[str, Any], turn: SolverTurn, texts: list[str]) -> dict[str, Any] | None:
    family = get_family(turn.family)
    b_view = next(v["private_data"] for v in instance["agent_views"] if v["agent_id"] == "B")
    pairs = zip(b_view["constraints_text"], b_view["constraints_machine"], strict=False)
    by_text = {audit_form(text): constraint for text, constraint in pairs}
    extra = [by_text[audit_form(t)] for t in texts if audit_form(t) in by_text]
    if not extra:
        return None
    try:
        value = family.solve([*turn.view_machine, *extra], turn.target)
    except (NotUnique, Inconsistent):
        return None
    return encode_answer(turn.answer_type, value, turn.answer_keys)


def _request(instance: dict[str, Any], turn: SolverTurn) -> str:
    hints = instance["minimal_hint_spec"]["atomic_hints"]
    if len(hints) > 1:
        return _next_request(hints, turn)
    hint = hints[0]
    asked = sum(1 for exchange in turn.history if exchange.request)
    if asked == 0:
        return get_family(turn.family).canonical_request(hint["slot"], hint["constraint"])
    aliases = hint["request_aliases"]
    return f"What is {aliases[asked % len(aliases)]}?"


def _next_request(hints: list[dict[str, Any]], turn: SolverTurn) -> str:
    """k > 1: the request for the first withheld fact not offered yet, counting the requests since the last offer."""
    offered = {audit_form(t) for t in _offered_texts(turn)}
    hint = next((h for h in hints if audit_form(h["text"]) not in offered), hints[-1])
    asked = 0
    for exchange in turn.history:
        if exchange.decision is not None and exchange.decision.kind == "offer":
            asked = 0
        elif exchange.request:
            asked += 1
    if asked == 0:
        return get_family(turn.family).canonical_request(hint["slot"], hint["constraint"])
    aliases = hint["request_aliases"]
    return f"What is {aliases[asked % len(aliases)]}?"
