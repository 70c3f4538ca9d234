"""Typed splits: which instances a dataset seed produces, in the release's order."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass

from generators.families import FAMILIES, get_family
from generators.instances import build_instance, few_shot_examples

CHUNK = 64


@dataclass(frozen=True)
class Slot:
    """One position of a split: (family, requested difficulty, index within that block)."""

    family: str
    requested_difficulty: int
    index: int


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


def slot_count(
    n_a: int, n_b: int, difficulties: Sequence[int] = (1, 2, 3), families: Sequence[str] | None = None
) -> int:
    """``len(typed_slots(...))`` without listing them."""
    names = list(families) if families is not None else list(FAMILIES)
    return sum(n_a if get_family(name).type == "A" else n_b for name in names) * len(difficulties)


def _build(job: tuple[int, Slot, int]) -> dict:
    position, slot, seed = job
    family = get_family(slot.family)
    return build_instance(
        family,
        instance_id=f"{family.prefix}-{position:06d}",
        dataset_seed=seed,
        requested_difficulty=slot.requested_difficulty,
        index=slot.index,
    )


def generate(
    slots: Iterable[Slot], seed: int, few_shot: bool = False, start_index: int = 0, jobs: int = 1
) -> Iterator[dict]:
    """Instances for ``slots`` in order; ids are the family prefix plus the global position.

    ``jobs > 1`` builds instances in worker processes; the output is identical (each instance depends only
    on its own seed). ``slots`` may be an iterator: the instances stream, memory does not grow with the count.
    """
    work = ((position, slot, seed) for position, slot in enumerate(slots, start=start_index))
    examples: dict[str, list[dict]] = {}
    small = isinstance(slots, Sized) and len(slots) <= CHUNK  # an iterator streams: its length is unknown
    if jobs > 1 and not small:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            yield from _attach(pool.imap(_build, work, chunksize=CHUNK), few_shot, seed, examples)
    else:
        yield from _attach(map(_build, work), few_shot, seed, examples)


def _attach(instances: Iterator[dict], few_shot: bool, seed: int, examples: dict[str, list[dict]]) -> Iterator[dict]:
    for instance in instances:
        if few_shot:
            name = instance["family"]
            if name not in examples:
                examples[name] = few_shot_examples(get_family(name), seed)
            instance["few_shot_examples"] = examples[name]
        yield instance
