"""The four worked examples of the four-shot regime, drawn from a pool that repeats no instance's facts.

**What "the same facts" means.** An instance's *facts* are the texts of A's constraints with slot notices left
out (``is_slot_notice``: they say where the gap is, not what A knows). A worked example *shows* the texts of its
constraints and of its hint. The example **repeats an instance's facts** when it shows every one of them: the
instance's problem then stands worked out before "Your problem", either exactly (same facts, often the same hint
and answer) or with another gap whose hint is one of the instance's facts. Texts, not machine fields, are
compared, because the text is what a model reads; a family renders each machine constraint one way, so equal
texts are equal facts. The validator applies the same test to a record (``repeating_examples``).

**The pool.** Each family's examples are the same for all its instances. Example ``k`` (at the requested
difficulty ``difficulties[k]``) is the first candidate, in a fixed seed order, that repeats the facts of no
instance of the family in the split and has facts different from the examples already chosen; candidate 0 is
the example every earlier release drew (seed namespace ``mira-math-fewshot``), so a family whose examples
repeated nothing keeps them.

**The hard tier** (docs/hard-tier.md) draws one set of examples per family for all its instances, at d4, d4, d5,
d5 with k = 1, 2, 1, 2 (``HARD_DIFFICULTIES``, ``HARD_KS``): a k = 1 and a k = 2 instance see the same examples,
so the examples never tell A how many facts it lacks. A k = 2 example shows the k = 2 protocol: besides
``request`` and ``hint`` (the first), it lists both in ``requests`` and ``hints``, and every hint it shows counts
among the texts it shows. k = 1 examples have neither key (the paper split's bytes).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from generators.answers import encode_answer
from generators.base import Family, is_slot_notice, without_notices
from generators.instances import derive_seed, render_all, sample_checked

DIFFICULTIES = (1, 2, 2, 3)
HARD_DIFFICULTIES = (4, 4, 5, 5)  # the hard tier's examples (d4 and d5) ...
HARD_KS = (1, 2, 1, 2)  # ... at k = 1 and k = 2 alike, so the examples never tell an instance how many facts it lacks
MAX_CANDIDATES = 64  # per difficulty; a family whose split covers its whole space fails loudly, never loops
STALE_AFTER = 16  # draws in a row without a view not drawn before: the difficulty's views are all known

Facts = frozenset[str]
Candidate = tuple[dict[str, Any], Facts, Facts]  # (example, its facts, the texts it shows)


def instance_facts(record: dict[str, Any]) -> Facts:
    """The texts of A's constraints in an instance record, slot notices left out; at k > 1 also the texts of the
    withheld facts (``problem_facts``)."""
    data = record["agent_views"][0]["private_data"]
    # unequal lengths are the validator's constraints_text problem, reported on their own
    pairs = zip(data["constraints_machine"], data["constraints_text"], strict=False)
    facts = [text for machine, text in pairs if not is_slot_notice(machine)]
    hints = record.get("minimal_hint_spec", {}).get("atomic_hints", [])
    return problem_facts(facts, [h.get("text") for h in hints] if len(hints) > 1 else [])


def problem_facts(facts: Iterable[str], withheld: Iterable[str]) -> Facts:
    """What counts as an instance's problem. At k = 1, A's facts (an example that shows them all shows the problem,
    or the same problem with another gap). At k > 1, A's facts and the withheld ones: A may then hold only the
    family's general statements (moment_problem without m1 and m2), which every instance of a difficulty shares,
    so A's facts alone no longer tell problems apart; an example repeats an instance only when it shows the whole
    problem (docs/hard-tier.md)."""
    return frozenset([*facts, *(t for t in withheld if isinstance(t, str))])


def shown_facts(example: dict[str, Any]) -> Facts:
    """Every constraint text a worked example shows (its hints included: ``hints`` at k > 1)."""
    return frozenset([*example["constraints"], example["hint"], *example.get("hints", ())])


def repeats(facts: Facts, shown: Facts) -> bool:
    """Whether an example that shows ``shown`` repeats an instance whose facts are ``facts``."""
    return bool(facts) and facts <= shown


def repeating_examples(record: dict[str, Any]) -> list[int]:
    """Indices of the record's worked examples that repeat its own facts (empty for a sound record)."""
    examples = record.get("few_shot_examples") or []
    if not examples:
        return []
    facts = instance_facts(record)
    return [k for k, example in enumerate(examples) if repeats(facts, shown_facts(example))]


def few_shot_examples(
    family: Family,
    dataset_seed: int,
    split_facts: Iterable[Facts] = (),
    slot_notice: bool = False,
    difficulties: Sequence[int] = DIFFICULTIES,
    k: int | Sequence[int] = 1,
) -> list[dict[str, Any]]:
    """The family's worked examples, none of which repeats any of ``split_facts`` (its instances' facts).

    ``slot_notice`` (the ablation) shows A's slot notices in the examples as in the instances; by default the
    examples show the notice-free view, like the instances. ``k`` is the number of withheld facts of every
    example, or of each example in turn (the hard tier: ``HARD_KS``); k = 2 examples draw from seeds of their own.
    """
    ks = [k] * len(difficulties) if isinstance(k, int) else list(k)
    if len(ks) != len(difficulties):
        raise ValueError("one k per example difficulty")
    if slot_notice and set(ks) != {1}:
        raise ValueError("the slot-notice ablation exists for k = 1 only")
    top = max(3, *difficulties)
    chosen: list[Facts] = []  # shared: the examples differ from each other whatever their k
    avoid = list(split_facts)
    pools = {one: _Pool(family, dataset_seed, avoid, slot_notice, chosen, one, top) for one in sorted(set(ks))}
    return [pools[one].take(i, requested) for i, (requested, one) in enumerate(zip(difficulties, ks, strict=True))]


class _Pool:
    """Candidates in a fixed order, each drawn once: example ``k``'s own seed first (the seed of every earlier
    release), then one shared stream per difficulty, the requested one first (``fallback_order``).

    A stream ends after ``MAX_CANDIDATES`` draws, or earlier once ``STALE_AFTER`` draws in a row brought no view
    it had not drawn before (the difficulty's views are then all known, and the split holds the rest).
    """

    def __init__(self, family: Family, dataset_seed: int, avoid: list[Facts], slot_notice: bool,
                 chosen: list[Facts], k: int, top: int):
        self.family, self.dataset_seed, self.avoid, self.slot_notice = family, dataset_seed, avoid, slot_notice
        self.chosen, self.k, self.top = chosen, k, top
        self.streams: dict[int, list[Candidate]] = {}

    def take(self, k: int, requested: int) -> dict[str, Any]:
        first = derive_seed("mira-math-fewshot", self.dataset_seed, self.family.name, k, *self._k_part())
        streams = (c for d in fallback_order(requested, self.top) for c in self.stream(d))
        first_candidate = _candidate(self.family, first, requested, self.slot_notice, self.k)
        for candidate in itertools.chain([first_candidate], streams):
            example, facts, shown = candidate
            if facts not in self.chosen and not any(repeats(other, shown) for other in self.avoid):
                self.chosen.append(facts)
                return example
        raise RuntimeError(f"{self.family.name}: no worked example {k} repeats none of the split's instances "
                           "(the split covers the family's instance space)")

    def stream(self, difficulty: int) -> Iterator[Candidate]:
        drawn = self.streams.setdefault(difficulty, [])
        seen: set[Facts] = set()
        stale = 0
        for i in range(MAX_CANDIDATES):
            if stale >= STALE_AFTER:
                return
            if i == len(drawn):
                seed = derive_seed("mira-math-fewshot-pool", self.dataset_seed, self.family.name, difficulty, i,
                                   *self._k_part())
                drawn.append(_candidate(self.family, seed, difficulty, self.slot_notice, self.k))
            stale = stale + 1 if drawn[i][1] in seen else 0
            seen.add(drawn[i][1])
            yield drawn[i]

    def _k_part(self) -> tuple[str, ...]:
        """k = 1 seeds are every earlier release's; k = 2 examples draw from seeds of their own."""
        return () if self.k == 1 else (f"k{self.k}",)


def fallback_order(requested: int, top: int = 3) -> list[int]:
    """The requested difficulty first, then the harder ones up to ``top``, then the easier ones (for a split that
    uses up every instance of a small difficulty, e.g. graph_path_sums at d1)."""
    return [requested, *range(requested + 1, top + 1), *range(min(requested, top + 1) - 1, 0, -1)]


def _candidate(family: Family, seed: int, requested: int, slot_notice: bool, k: int = 1) -> Candidate:
    difficulty = family.effective_difficulty(requested)
    z, views, answer, *_ = sample_checked(family, seed, difficulty, k)
    keys = list(family.keys_for(z))
    facts = render_all(family, without_notices(views.a))
    example: dict[str, Any] = {
        "family": family.name,
        "difficulty": difficulty,
        "seed": seed,
        "question": views.question,
        "constraints": render_all(family, views.a) if slot_notice else facts,
        "unknowns": list(views.unknowns),
        "request": family.canonical_request(views.slot, views.hint),
        "hint": family.render(views.hint),
        "answer": encode_answer(family.answer_type, answer, keys),
        "answer_type": family.answer_type,
        "answer_keys": keys,
    }
    if k > 1:  # the k = 2 protocol: one request and one offer per withheld fact
        hints = views.hints()
        example["requests"] = [family.canonical_request(h.slot, h.constraint) for h in hints]
        example["hints"] = [family.render(h.constraint) for h in hints]
    return example, problem_facts(facts, example.get("hints", ())), shown_facts(example)

