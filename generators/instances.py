"""Build MIRA-Math instance records (the JSON of ``schemas/mira_instance.schema.json``)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from generators import GENERATOR_VERSION, HARD_TIER_VERSION
from generators.answers import Answer, encode_answer
from generators.base import Constraint, Family, HintSlot, Reject, Views, without_notices
from generators.checks import THREE_CHECKS, CheckFailed, Witness, check_hints, check_localizability

MAX_K = 2  # withheld facts per instance: 1 (the paper) or 2 (the hard tier, docs/hard-tier.md)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the SHA-256 of the parts (stable across processes and Python versions)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def instance_seed(dataset_seed: int, family: str, requested_difficulty: int, index: int, k: int = 1) -> int:
    """k = 1 seeds are the paper split's; a k = 2 instance at the same position has a seed of its own."""
    if k == 1:
        return derive_seed("mira-math", dataset_seed, family, requested_difficulty, index)
    return derive_seed("mira-math", dataset_seed, family, requested_difficulty, index, f"k{k}")


def generator_version(requested_difficulty: int, k: int = 1) -> str:
    """The paper's tier (difficulty 1-3, k = 1) carries ``GENERATOR_VERSION``; the hard tier its own version."""
    return GENERATOR_VERSION if requested_difficulty <= 3 and k == 1 else HARD_TIER_VERSION


def request_budget(difficulty: int, k: int = 1) -> int:
    """3 / 6 / 9 / 12 / 15 requests at (effective) difficulty 1-5, times the number of withheld facts."""
    return 3 * difficulty * k


def render_all(family: Family, constraints: list[Constraint]) -> list[str]:
    return [family.render(c) for c in constraints]


def sample_valid(family: Family, seed: int, difficulty: int) -> tuple[dict[str, Any], Views, Answer, Witness, int]:
    """Draw from ``random.Random(seed)`` until an instance passes every check.

    The checks run on A's view without its slot notice (what A sees by default), so both view variants of a
    seed share one draw.
    """
    z, views, answer, witnesses, _, attempts = sample_checked(family, seed, difficulty)
    return z, views, answer, witnesses[0], attempts


def sample_checked(
    family: Family, seed: int, difficulty: int, k: int = 1
) -> tuple[dict[str, Any], Views, Answer, list[Witness], list[str], int]:
    """``sample_valid`` plus A's candidate slots from its localizability check; ``k`` withheld facts, one
    witness per fact."""
    if not 1 <= k <= MAX_K:
        raise ValueError(f"k must be between 1 and {MAX_K}, not {k}")
    rng = random.Random(seed)
    last: Exception | None = None
    for attempt in range(1, family.max_attempts + 1):
        try:
            z = family.sample(rng, difficulty)
            views = family.views(z)
            if k == 2:
                views = withhold_second(family, views, family.second_hints(z, views), rng)
            hints = [h.constraint for h in views.hints()]
            answer = family.solve([*views.a, *hints], views.target)
            latent = family.answer_from_latent(z)
            if latent is not None and latent != answer:
                raise CheckFailed("answer", f"solver gives {answer}, latent state gives {latent}")
            view_a = without_notices(views.a)
            witnesses = check_hints(family, view_a, views.b, hints, views.target, answer)
            candidates = check_localizability(family, view_a, [h.slot for h in views.hints()], views.target)
            return z, views, answer, witnesses, candidates, attempt
        except (Reject, CheckFailed) as exc:
            last = exc
        except Exception as exc:
            from generators.errors import Inconsistent, NotUnique

            if not isinstance(exc, NotUnique | Inconsistent):
                raise
            last = exc
    raise RuntimeError(f"{family.name}: no valid instance in {family.max_attempts} draws (last: {last})")


def withhold_second(family: Family, views: Views, choices: list[HintSlot], rng: random.Random) -> Views:
    """``views`` with one of ``choices`` (facts of A's view), drawn with ``rng``, withheld as well."""
    if not choices:
        raise Reject("no second fact to withhold")
    return family.withhold(views, choices[rng.randrange(len(choices))])


def private_data(family: Family, views: Views, constraints: list[Constraint]) -> dict[str, Any]:
    return {
        "unknowns": list(views.unknowns),
        "externals": [],
        "constraints_text": render_all(family, constraints),
        "constraints_machine": constraints,
    }


def hint_record(family: Family, hint: HintSlot, number: int = 1) -> dict[str, Any]:
    return {
        "hint_id": f"h{number}",
        "kind": hint.constraint["type"],
        "slot": hint.slot,
        "value": hint.value,
        "text": family.render(hint.constraint),
        "constraint": hint.constraint,
        "request_aliases": family.slot_aliases(hint.slot, hint.constraint),
        "providers": ["B"],
        "consumers": ["A"],
    }


def build_instance(
    family: Family,
    *,
    instance_id: str,
    dataset_seed: int,
    requested_difficulty: int,
    index: int,
    slot_notice: bool = False,
    k: int = 1,
) -> dict[str, Any]:
    """One record. By default A's view has no slot notice; ``slot_notice`` keeps it (the ablation view).

    Both variants of a seed have the same draw, hint, answer and witness; they differ only by the notice.
    ``k = 2`` withholds two facts (the hard tier); it has no slot-notice variant.
    """
    if slot_notice and k != 1:
        raise ValueError("the slot-notice ablation exists for k = 1 only")
    seed = instance_seed(dataset_seed, family.name, requested_difficulty, index, k)
    difficulty = family.effective_difficulty(requested_difficulty)
    z, views, answer, witnesses, candidates, attempts = sample_checked(family, seed, difficulty, k)
    keys = list(family.keys_for(z))
    view_a = views.a if slot_notice else without_notices(views.a)
    return {
        "id": instance_id,
        "family": family.name,
        "type": family.type,
        "difficulty": difficulty,
        "requested_difficulty": requested_difficulty,
        "seed": seed,
        "dataset_seed": dataset_seed,
        "generator_version": generator_version(requested_difficulty, k),
        "n_agents": 2,
        "answer_type": family.answer_type,
        "answer_keys": keys,
        "global_solution": encode_answer(family.answer_type, answer, keys),
        "question": views.question,
        "target": views.target,
        "request_budget": request_budget(difficulty, k),
        "view_variant": "slot_notice" if slot_notice else "default",
        "agent_views": [
            {"agent_id": "A", "private_data": private_data(family, views, view_a)},
            {"agent_id": "B", "private_data": private_data(family, views, views.b)},
        ],
        "minimal_hint_spec": {
            "k_min": k,
            "atomic_hints": [hint_record(family, hint, i) for i, hint in enumerate(views.hints(), start=1)],
        },
        "verifier": verifier_record(family, witnesses, candidates, keys),
        "global_metadata": {"latent": z, "sampling_attempts": attempts},
    }


def verifier_record(family: Family, witnesses: list[Witness], candidates: list[str], keys: list[str]) -> dict:
    """The checks passed, the underdetermination witness (k > 1: one per withheld fact) and A's candidate slots."""
    record: dict[str, Any] = {
        "comparison": "exact",
        "checks": [*THREE_CHECKS, "localizability"],
        "underdetermination_witness": witness_record(family, witnesses[0], keys),
        "candidate_slots": candidates,
    }
    if len(witnesses) > 1:
        record["checks"].append("each_hint_necessary")
        record["single_hint_witnesses"] = [
            {"missing": f"h{w.missing + 1}", **witness_record(family, w, keys)} for w in witnesses
        ]
    return record


def witness_record(family: Family, witness: Witness, keys: list[str]) -> dict[str, Any]:
    return {
        "constraint": witness.constraint,
        "text": family.render(witness.constraint),
        "answer": encode_answer(family.answer_type, witness.answer, keys),
    }
