"""Typed splits: which instances a dataset seed produces, in the release's order."""

from __future__ import annotations

import functools
import multiprocessing
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass

from generators.families import FAMILIES, get_family
from generators.fewshot import DIFFICULTIES, Facts, few_shot_examples, instance_facts
from generators.fewshot import HARD_DIFFICULTIES as HARD_EXAMPLE_DIFFICULTIES
from generators.fewshot import HARD_KS as HARD_EXAMPLE_KS
from generators.instances import build_instance

CHUNK = 64


@dataclass(frozen=True)
class Slot:
    """One position of a split: (family, requested difficulty, index within that block[, withheld facts k])."""

    family: str
    requested_difficulty: int
    index: int
    k: int = 1


def typed_slots(
    n_a: int, n_b: int, difficulties: Sequence[int] = (1, 2, 3), families: Sequence[str] | None = None
) -> list[Slot]:
    """Type A families alphabetically, then Type B; difficulties ascending; ``n`` per block."""
    return list(iter_typed_slots(n_a, n_b, difficulties, families))


def iter_typed_slots(
    n_a: int, n_b: int, difficulties: Sequence[int] = (1, 2, 3), families: Sequence[str] | None = None,
    start: int = 0, stop: int | None = None,
) -> Iterator[Slot]:
    """``typed_slots(...)[start:stop]`` one at a time (memory independent of the counts; blocks before
    ``start`` are skipped without listing them)."""
    position = 0
    for name in list(families) if families is not None else list(FAMILIES):
        n = n_a if get_family(name).type == "A" else n_b
        for d in difficulties:
            first, last = max(start - position, 0), n if stop is None else min(n, stop - position)
            for i in range(first, last):
                yield Slot(name, d, i)
            position += n
            if stop is not None and position >= stop:
                return


HARD_DIFFICULTIES = (4, 5)
HARD_KS = (1, 2)
HARD_PER_BLOCK = 10  # the hard tier's default: 22 families x 2 difficulties x 2 k x 10 = 880 instances


def hard_slots(n: int, families: Sequence[str] | None = None) -> Iterator[Slot]:
    """The hard tier (docs/hard-tier.md): per family (Type A alphabetically, then Type B), difficulties 4 and 5,
    each at k = 1 then k = 2, ``n`` instances per block."""
    for name in list(families) if families is not None else list(FAMILIES):
        for d in HARD_DIFFICULTIES:
            for k in HARD_KS:
                for i in range(n):
                    yield Slot(name, d, i, k)


def hard_slot_count(n: int, families: Sequence[str] | None = None) -> int:
    """``len(list(hard_slots(n, families)))`` without listing them (every family when ``families`` is None)."""
    return n * len(HARD_DIFFICULTIES) * len(HARD_KS) * len(FAMILIES if families is None else families)


def slot_count(
    n_a: int, n_b: int, difficulties: Sequence[int] = (1, 2, 3), families: Sequence[str] | None = None
) -> int:
    """``len(typed_slots(...))`` without listing them."""
    names = list(families) if families is not None else list(FAMILIES)
    return sum(n_a if get_family(name).type == "A" else n_b for name in names) * len(difficulties)


def _build(job: tuple[int, Slot, int] | tuple[int, Slot, int, bool]) -> dict:
    """One instance from (position, slot, dataset seed[, slot_notice])."""
    position, slot, seed, *notice = job
    slot_notice = bool(notice and notice[0])
    family = get_family(slot.family)
    return build_instance(
        family,
        instance_id=f"{family.prefix}-{position:06d}",
        dataset_seed=seed,
        requested_difficulty=slot.requested_difficulty,
        index=slot.index,
        slot_notice=slot_notice,
        k=slot.k,
    )


def generate(
    slots: Iterable[Slot],
    seed: int,
    few_shot: bool = False,
    start_index: int = 0,
    jobs: int = 1,
    slot_notice: bool = False,
    split_slots: Sequence[Slot] | None = None,
) -> Iterator[dict]:
    """Instances for ``slots`` in order; ids are the family prefix plus the global position.

    ``jobs > 1`` builds instances in worker processes; the output is identical (each instance depends only
    on its own seed). ``slot_notice`` gives the ablation views (A is told which slot is missing); the
    instances are otherwise the same as the default's. ``slots`` may be an iterator: without ``few_shot`` the
    instances stream and memory does not grow with the count. ``few_shot`` attaches each family's worked
    examples, which repeat the facts of none of the family's instances in the split (``generators.fewshot``),
    so it lists the slots first; ``split_slots`` is the whole split when ``slots`` is a part of it (a builder
    chunk), so that the part gets the whole file's examples.
    """
    if few_shot:
        slots = list(slots)
    work = ((position, slot, seed, slot_notice) for position, slot in enumerate(slots, start=start_index))
    small = isinstance(slots, Sized) and len(slots) <= CHUNK  # an iterator streams: its length is unknown
    if jobs > 1 and not small:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            instances = pool.imap(_build, work, chunksize=CHUNK)
            yield from _attach(instances, few_shot, seed, slots, split_slots, slot_notice)
    else:
        yield from _attach(map(_build, work), few_shot, seed, slots, split_slots, slot_notice)


def _attach(
    instances: Iterator[dict], few_shot: bool, seed: int, slots: Sequence[Slot], split_slots: Sequence[Slot] | None,
    slot_notice: bool,
) -> Iterator[dict]:
    """The instances in order, each with its family's examples once all that family's instances are built.

    An instance waits until the last instance of its family is built (the split lists a family's slots
    together, so at most one family's instances wait at a time). A family gets one set of examples for all its
    instances (``example_plans``).
    """
    if not few_shot:
        yield from instances
        return
    left = Counter(slot.family for slot in slots)
    facts: dict[str, list[Facts]] = {name: _facts_outside(name, slots, split_slots, seed) for name in left}
    plans = example_plans([*slots, *(split_slots or ())])
    examples: dict[str, list[dict]] = {}
    waiting: deque[dict] = deque()
    for instance in instances:
        name = instance["family"]
        facts[name].append(instance_facts(instance))
        left[name] -= 1
        if left[name] == 0:
            difficulties, ks = plans[name]
            examples[name] = few_shot_examples(get_family(name), seed, facts.pop(name), slot_notice, difficulties, ks)
        waiting.append(instance)
        while waiting and waiting[0]["family"] in examples:
            ready = waiting.popleft()
            ready["few_shot_examples"] = examples[ready["family"]]
            yield ready


def example_plans(slots: Iterable[Slot]) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per family, its examples' difficulties and k: the paper's split 1, 2, 2, 3 at k = 1; a family whose slots
    reach past difficulty 3 or k = 1 (the hard tier) d4, d4, d5, d5 at k = 1, 2, 1, 2, the same for all its
    instances."""
    hard: dict[str, bool] = {}
    for slot in slots:
        hard[slot.family] = hard.get(slot.family, False) or slot.requested_difficulty > 3 or slot.k > 1
    return {name: (HARD_EXAMPLE_DIFFICULTIES, HARD_EXAMPLE_KS) if is_hard else (DIFFICULTIES, (1,) * len(DIFFICULTIES))
            for name, is_hard in hard.items()}


def _facts_outside(family: str, slots: Sequence[Slot], split_slots: Sequence[Slot] | None, seed: int) -> list[Facts]:
    """The facts of the family's instances in ``split_slots`` that ``slots`` does not build."""
    if split_slots is None:
        return []
    inside = set(slots)
    return [_slot_facts(slot, seed) for slot in split_slots if slot.family == family and slot not in inside]


@functools.cache
def _slot_facts(slot: Slot, seed: int) -> Facts:
    return instance_facts(_build((0, slot, seed, False)))  # facts leave notices out: either variant gives them
