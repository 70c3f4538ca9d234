"""Typed splits: which instances a dataset seed produces, in the release's order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from generators.families import FAMILIES, get_family
from generators.instances import build_instance, few_shot_examples


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


def generate(slots: Sequence[Slot], seed: int, few_shot: bool = False, start_index: int = 0) -> Iterator[dict]:
    """Instances for ``slots``; ids are the family prefix plus the global position in the split."""
    examples: dict[str, list[dict]] = {}
    for position, slot in enumerate(slots, start=start_index):
        family = get_family(slot.family)
        instance = build_instance(
            family,
            instance_id=f"{family.prefix}-{position:06d}",
            dataset_seed=seed,
            requested_difficulty=slot.requested_difficulty,
            index=slot.index,
        )
        if few_shot:
            if slot.family not in examples:
                examples[slot.family] = few_shot_examples(family, seed)
            instance["few_shot_examples"] = examples[slot.family]
        yield instance
