"""The random baseline: no probes, a uniformly random answer of the kind the prompt allows.

Per session (seeded by the agent seed and the session id, never by the session's own seed, which fixes the
corrupted kernel): a label uniform among ``A``/``B`` (and ``neither`` at Level 3); for A/B, a size uniform
among the sizes the prompt allows, then a set uniform among our admissible sets of that size. Its expected V
is the paper's chance level (1/13 at k = 1, 1/|F_2| at k = 2, 1/3 for the label), reported as ``chance_V``
by the scorer.
"""

from __future__ import annotations

import random
from typing import Any

from elenchos.family import Family, family
from harness.elenchos.agents.common import allowed_sizes
from harness.elenchos.types import ElenchosAgent, ElenchosTurn, ToolCall


class RandomAgent(ElenchosAgent):
    def __init__(self, seed: int = 1234, fam: Family | None = None):
        self.seed = seed
        self.fam = fam or family()
        self.pool = {k: [list(c.ids) for c in self.fam.admissible(k)] for k in range(1, self.fam.max_k + 1)}

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "seed": self.seed, "library_sha256": self.fam.library.sha256}

    def act(self, turns: list[ElenchosTurn]) -> list[ToolCall]:
        return [self._one(turn) for turn in turns]

    def _one(self, turn: ElenchosTurn) -> ToolCall:
        rng = random.Random(f"elenchos-random|{self.seed}|{turn.session_id}")
        labels = ["A", "B", "neither"] if turn.allow_neither else ["A", "B"]
        label = rng.choice(labels)
        if label == "neither":
            return ToolCall.submit("neither", [], "Random guess.", "", "")
        k = rng.choice([s for s in allowed_sizes(turn) if self.pool.get(s)])
        return ToolCall.submit(label, rng.choice(self.pool[k]), "Random guess.", "", "")
