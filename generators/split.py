"""Typed splits: which instances a dataset seed produces, in the release's order."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
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
    names = list(families) if families is not None else list(FAMILIES)
    slots = []
    for name in names:
        family = get_family(name)
        n = n_a if family.type == "A" else n_b
        for d in difficulties:
            slots.extend(Slot(name, d, i) for i in range(n))
    return slots


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
    )


def generate(
    slots: Sequence[Slot],
    seed: int,
    few_shot: bool = False,
    start_index: int = 0,
    jobs: int = 1,
    slot_notice: bool = False,
) -> Iterator[dict]:
    """Instances for ``slots`` in order; ids are the family prefix plus the global position.

    ``jobs > 1`` builds instances in worker processes; the output is identical (each instance depends only
    on its own seed). ``slot_notice`` gives the ablation views (A is told which slot is missing); the
    instances are otherwise the same as the default's.
    """
    work = [(position, slot, seed, slot_notice) for position, slot in enumerate(slots, start=start_index)]
    examples: dict[str, list[dict]] = {}
    if jobs > 1 and len(work) > CHUNK:
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
