"""An adaptive, information-optimal agent: the number of probes a perfect reasoner needs with our library.

Hypotheses: (corrupted kernel, mutation set) for every admissible set of a size the prompt allows, plus
``neither`` at Level 3. The agent knows what every hypothesis predicts on every library probe (each probe on
a fresh kernel; library probes are closed, so the persistent session state does not change them). Each turn
it keeps the hypotheses consistent with what it has observed and

* submits when one remains (or when no library probe separates the rest, or the budget is spent: then the
  first remaining one, smallest sets first);
* otherwise probes the library probe that maximises the expected information (the entropy of the partition
  of the remaining hypotheses, uniform prior), ties broken by the smallest worst-case remaining set, then
  library order.

This is a greedy (one-step) policy: an upper bound on the optimal expected number of probes over this
library and hypothesis space, and the reference point for how many probes an agent needs. Choices are
memoised on the set of remaining hypotheses, so a run over all sessions stays fast.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from elenchos.family import SOUND, Config, Family, family
from harness.elenchos.agents.common import allowed_sizes, evidence, key_of, key_of_json
from harness.elenchos.types import ElenchosAgent, ElenchosTurn, ToolCall

Hypothesis = tuple[str, Config]  # (label, set); ("neither", ())


class OptimalAgent(ElenchosAgent):
    def __init__(self, fam: Family | None = None):
        self.fam = fam or family()
        probes = self.fam.library.probes
        self.sources = [p.source for p in probes]
        self.index = {src: j for j, src in enumerate(self.sources)}
        self.codes: list[dict[tuple, int]] = [{} for _ in probes]  # per probe: observation key -> code
        self.config_codes: dict[Config, tuple[int, ...]] = {}
        for config, obs in self.fam.observations.items():
            self.config_codes[config] = tuple(self._code(j, key_of(o)) for j, o in enumerate(obs))
        self.spaces: dict[tuple, tuple[list[Hypothesis], list[tuple[int, ...]]]] = {}
        self.memo: dict[tuple, int | None] = {}

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "policy": "max entropy, then min worst case, then library order",
                "library_probes": len(self.sources), "library_sha256": self.fam.library.sha256}

    def _code(self, j: int, key: tuple) -> int:
        table = self.codes[j]
        if key not in table:
            table[key] = len(table)
        return table[key]

    def _space(self, turn: ElenchosTurn) -> tuple[tuple, list[Hypothesis], list[tuple[int, ...]]]:
        """The hypotheses the prompt allows and their predicted (A, B) code pairs per probe."""
        sizes = tuple(allowed_sizes(turn))
        key = (sizes, turn.allow_neither)
        if key not in self.spaces:
            hyps: list[Hypothesis] = [("neither", SOUND)] if turn.allow_neither else []
            for k in sorted(sizes):
                for cand in self.fam.admissible(k):
                    hyps.extend([("A", cand.ids), ("B", cand.ids)])
            sound = self.config_codes[SOUND]
            pairs = []
            for label, config in hyps:
                bad = self.config_codes[config]
                a, b = (bad, sound) if label == "A" else (sound, bad) if label == "B" else (sound, sound)
                pairs.append(tuple(x << 20 | y for x, y in zip(a, b, strict=True)))
            self.spaces[key] = (hyps, pairs)
        hyps, pairs = self.spaces[key]
        return key, hyps, pairs

    def act(self, turns: list[ElenchosTurn]) -> list[ToolCall]:
        return [self._one(turn) for turn in turns]

    def _one(self, turn: ElenchosTurn) -> ToolCall:
        key, hyps, pairs = self._space(turn)
        observed: list[tuple[int, int]] = []  # (probe index, observed pair code)
        for source, content in turn.probe_results():
            j = self.index.get(source)
            if j is None:
                continue
            a = self.codes[j].get(key_of_json(content["A"]), -1)
            b = self.codes[j].get(key_of_json(content["B"]), -1)
            observed.append((j, (a << 20 | b) if a >= 0 and b >= 0 else -1))
        remaining = [h for h in range(len(hyps)) if all(pairs[h][j] == code for j, code in observed)]
        if not remaining:  # nothing fits (e.g. a set outside the family): keep the best-agreeing ones
            best = max(sum(pairs[h][j] == code for j, code in observed) for h in range(len(hyps)))
            remaining = [h for h in range(len(hyps)) if sum(pairs[h][j] == code for j, code in observed) == best]
        choice = None
        if len(remaining) > 1 and not turn.must_submit and turn.budget_left > 0:
            choice = self._choose(key, remaining, pairs)
        if choice is not None:
            return ToolCall.probe(self.sources[choice])
        label, config = hyps[remaining[0]]
        minimal, explanatory = evidence(turn)
        why = (f"{len(remaining)} hypothesis(es) of {len(hyps)} consistent with the {len(observed)} probes: "
               + ("kernel " + label + " with {" + ", ".join(config) + "}" if label != "neither" else "neither kernel"))
        return ToolCall.submit(label, list(config), why, minimal, explanatory)

    def _choose(self, key: tuple, remaining: list[int], pairs: list[tuple[int, ...]]) -> int | None:
        memo_key = (key, tuple(remaining))
        if memo_key in self.memo:
            return self.memo[memo_key]
        n = len(remaining)
        best: tuple | None = None
        choice = None
        for j in range(len(self.sources)):
            counts = Counter(pairs[h][j] for h in remaining)
            if len(counts) == 1:
                continue
            entropy = -sum(c / n * math.log2(c / n) for c in counts.values())
            score = (round(entropy, 12), -max(counts.values()), -j)
            if best is None or score > best:
                best, choice = score, j
        self.memo[memo_key] = choice
        return choice
