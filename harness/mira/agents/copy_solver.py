"""The ``copy`` solver: asks for what its view names as missing, then guesses (issue 24's standing check).

It reads nothing but its own turn (not ``privileged``) and never reasons about the mathematics:

* first turn: if A's view carries a slot notice (a ``domain`` constraint with ``missing_slot``, as in the
  ``slot_notice`` ablation), it asks ``"What is <missing_slot>?"``; otherwise it asks for the first quantity
  its view mentions without giving a value, its first unknown (``"What is <unknowns[0]>?"``);
* every later turn: the fixed guess of ``guess`` (0 in the answer format).

Its first-request success is therefore what a solver gets from copying a name: near 1 when the views
announce the gap, near 0 when they do not (a view that names the withheld quantity some other way shows up
here). The fallback is deliberately naive; finding the slot from the structure of the facts is the skill the
benchmark measures, so it is not this agent's job.
"""

from __future__ import annotations

import json
from typing import Any

from generators.base import is_slot_notice
from harness.mira.agents.common import SimulatedLatency, reject_unknown_options, typed_zero
from harness.mira.types import Solver, SolverAction, SolverTurn


class CopySolver(Solver):
    def __init__(self, latency: SimulatedLatency | None = None):
        self.latency = latency or SimulatedLatency({})

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> CopySolver:
        latency = SimulatedLatency(options)
        reject_unknown_options("copy", arg, options)
        return cls(latency)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(),
                "strategy": "asks for the slot its view names as missing, else its first unknown; then answers 0"}

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        self.latency.wait()
        return [self.decide(turn) for turn in turns]

    def decide(self, turn: SolverTurn) -> SolverAction:
        if turn.history or turn.must_answer:
            guess = typed_zero(turn.answer_type, turn.answer_keys)
            return SolverAction.final(guess, json.dumps(guess))
        return SolverAction.ask(copied_request(turn))


def copied_request(turn: SolverTurn) -> str:
    """The request a copier composes from its view alone."""
    named = [c["missing_slot"] for c in turn.view_machine if is_slot_notice(c) and isinstance(c["missing_slot"], str)]
    if named:
        return f"What is {named[0]}?"
    if turn.unknowns:
        return f"What is {turn.unknowns[0]}?"
    return "What is the value you hold?"
