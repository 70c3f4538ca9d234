"""The ``guess`` solver: never asks; answers a fixed guess (0 in the instance's answer format).

A floor that uses no information at all: its accuracy is the share of instances whose answer happens
to be 0 (or all zeros), which is not 0 for families with small answer ranges (e.g. binary cells).
"""

from __future__ import annotations

import json
from typing import Any

from harness.mira.agents.common import SimulatedLatency, reject_unknown_options, typed_zero
from harness.mira.types import Solver, SolverAction, SolverTurn


class GuessSolver(Solver):
    def __init__(self, latency: SimulatedLatency | None = None):
        self.latency = latency or SimulatedLatency({})

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> GuessSolver:
        latency = SimulatedLatency(options)
        reject_unknown_options("guess", arg, options)
        return cls(latency)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "strategy": "no requests; answers 0 in the answer format"}

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        self.latency.wait()
        actions = []
        for turn in turns:
            guess = typed_zero(turn.answer_type, turn.answer_keys)
            actions.append(SolverAction.final(guess, json.dumps(guess)))
        return actions
