"""The Simple Reflex Agent (paper Section 5.2 and Appendix B.2).

It never designs a probe: it sends the probes of Pi_RSA (``elenchos.family.pi_rsa``: by default the 13 Level-0
probes, as the paper builds it; ``pi_rsa=cover`` the minimum set cover) in order, then compares
each kernel's observations with the expected table (the sound kernel and the 13 singletons):

* the corrupted kernel is the one whose observations differ from the sound kernel's; if neither differs
  it answers ``neither`` at Level 3 (and, below Level 3 where a corrupted kernel is promised, the fixed guess
  ``A`` / ``ID_01``, reported as a guess in its justification);
* the mutation set is the smallest set (of a size the prompt allows) that explains every observation
  additively -- each observation is the expected one of some member, and every member's signature is seen
  (``elenchos.classification.explanations``); ties go to the first set in ID order, and the justification says so.

By construction it scores V = 1 on every singleton (equation 4) and on every set that is additive under the
SRA-recoverable rule (``Candidate.kind_sra``); sets additive only under the paper's formula may have another
smallest explanation or a member it never sees. On interacting sets it reports what it matched.
"""

from __future__ import annotations

from typing import Any

from elenchos.classification import explanations
from elenchos.family import Family, PiRSA, family
from harness.elenchos.agents.common import allowed_sizes, evidence, key_of, key_of_json
from harness.elenchos.types import ElenchosAgent, ElenchosTurn, ToolCall


class SimpleReflexAgent(ElenchosAgent):
    def __init__(self, fam: Family | None = None):
        self.fam = fam or family()
        pi = self.fam.pi
        self.sources = [p.source for p in pi.probes]
        self.table = PiRSA(pi.probes, {name: tuple(key_of(o) for o in obs) for name, obs in pi.expected.items()},
                           pi.level0, pi.level0_unique, pi.search)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "pi_rsa_choice": self.fam.pi_choice, "pi_rsa": list(self.fam.pi.names),
                "library_sha256": self.fam.library.sha256}

    def act(self, turns: list[ElenchosTurn]) -> list[ToolCall]:
        return [self._one(turn) for turn in turns]

    def _one(self, turn: ElenchosTurn) -> ToolCall:
        done = turn.probe_results()
        if len(done) < len(self.sources) and not turn.must_submit and turn.budget_left > 0:
            return ToolCall.probe(self.sources[len(done)])
        return self._submit(turn, done)

    def _submit(self, turn: ElenchosTurn, done: list[tuple[str, dict[str, Any]]]) -> ToolCall:
        n = len(done)
        sound = self.table.expected["sound"][:n]
        observed = {side: tuple(key_of_json(content[side]) for _, content in done) for side in ("A", "B")}
        deviant = [side for side in ("A", "B") if observed[side] != sound]
        minimal, explanatory = evidence(turn)
        if not deviant:
            if turn.allow_neither:
                return ToolCall.submit("neither", [], f"All {n} Pi_RSA probes match the sound kernel on both sides.",
                                       minimal, explanatory)
            return ToolCall.submit("A", ["ID_01"], f"No divergence on the {n} Pi_RSA probes; guessing.",
                                   minimal, explanatory)
        side = max(deviant, key=lambda s: sum(o != e for o, e in zip(observed[s], sound, strict=True)))
        table = PiRSA(self.table.probes[:n], {k: v[:n] for k, v in self.table.expected.items()}, {}, {}, {})
        found = explanations(observed[side], table, allowed_sizes(turn))
        if found and found[0]:
            ids = list(found[0])
            note = "" if len(found) == 1 else (" Ambiguous: equally small explanations " +
                                              "; ".join("{" + ", ".join(f) + "}" for f in found) + ".")
            why = (f"Kernel {side} deviates from the sound kernel on Pi_RSA; its observations match the expected "
                   f"table of {{{', '.join(ids)}}}.{note}")
        else:
            ids = self._closest(observed[side], table, allowed_sizes(turn))
            why = (f"Kernel {side} deviates from the sound kernel on Pi_RSA, but no set of the allowed size explains "
                   f"every observation; closest singletons: {', '.join(ids)}.")
        return ToolCall.submit(side, ids, why, minimal, explanatory)

    @staticmethod
    def _closest(observed: tuple, table: PiRSA, sizes: list[int]) -> list[str]:
        """The singletons whose expected observations agree most with ``observed`` on diverging probes."""
        sound = table.expected["sound"]
        scores = []
        for m, expected in table.expected.items():
            if m == "sound":
                continue
            hits = sum(o == e and o != s for o, e, s in zip(observed, expected, sound, strict=True))
            scores.append((-hits, m))
        scores.sort()
        k = min(max(sizes), max(1, sum(1 for s, _ in scores if s < 0)))
        return sorted(m for _, m in scores[:k])
