"""Build MIRA-Math instance records (the JSON of ``schemas/mira_instance.schema.json``)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from generators import GENERATOR_VERSION
from generators.answers import Answer, encode_answer
from generators.base import Constraint, Family, Reject, Views, without_notices
from generators.checks import THREE_CHECKS, CheckFailed, Witness, check_localizability, check_views


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the SHA-256 of the parts (stable across processes and Python versions)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def instance_seed(dataset_seed: int, family: str, requested_difficulty: int, index: int) -> int:
    return derive_seed("mira-math", dataset_seed, family, requested_difficulty, index)


def request_budget(difficulty: int) -> int:
    """3 / 6 / 9 requests at (effective) difficulty 1 / 2 / 3."""
    return 3 * difficulty


def render_all(family: Family, constraints: list[Constraint]) -> list[str]:
    return [family.render(c) for c in constraints]


def sample_valid(family: Family, seed: int, difficulty: int) -> tuple[dict[str, Any], Views, Answer, Witness, int]:
    """Draw from ``random.Random(seed)`` until an instance passes every check.

    The checks run on A's view without its slot notice (what A sees by default), so both view variants of a
    seed share one draw.
    """
    z, views, answer, witness, _, attempts = sample_checked(family, seed, difficulty)
    return z, views, answer, witness, attempts


def sample_checked(
    family: Family, seed: int, difficulty: int
) -> tuple[dict[str, Any], Views, Answer, Witness, list[str], int]:
    """``sample_valid`` plus A's candidate slots from its localizability check."""
    rng = random.Random(seed)
    last: Exception | None = None
    for attempt in range(1, family.max_attempts + 1):
        try:
            z = family.sample(rng, difficulty)
            views = family.views(z)
            answer = family.solve([*views.a, views.hint], views.target)
            latent = family.answer_from_latent(z)
            if latent is not None and latent != answer:
                raise CheckFailed("answer", f"solver gives {answer}, latent state gives {latent}")
            view_a = without_notices(views.a)
            witness = check_views(family, view_a, views.b, views.hint, views.target, answer)
            candidates = check_localizability(family, view_a, views.slot, views.target)
            return z, views, answer, witness, candidates, attempt
        except (Reject, CheckFailed) as exc:
            last = exc
        except Exception as exc:
            from generators.errors import Inconsistent, NotUnique

            if not isinstance(exc, NotUnique | Inconsistent):
                raise
            last = exc
    raise RuntimeError(f"{family.name}: no valid instance in {family.max_attempts} draws (last: {last})")


def private_data(family: Family, views: Views, constraints: list[Constraint]) -> dict[str, Any]:
    return {
        "unknowns": list(views.unknowns),
        "externals": [],
        "constraints_text": render_all(family, constraints),
        "constraints_machine": constraints,
    }


def hint_record(family: Family, views: Views) -> dict[str, Any]:
    return {
        "hint_id": "h1",
        "kind": views.hint["type"],
        "slot": views.slot,
        "value": views.value,
        "text": family.render(views.hint),
        "constraint": views.hint,
        "request_aliases": family.slot_aliases(views.slot, views.hint),
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
) -> dict[str, Any]:
    """One record. By default A's view has no slot notice; ``slot_notice`` keeps it (the ablation view).

    Both variants of a seed have the same draw, hint, answer and witness; they differ only by the notice.
    """
    seed = instance_seed(dataset_seed, family.name, requested_difficulty, index)
    difficulty = family.effective_difficulty(requested_difficulty)
    z, views, answer, witness, candidates, attempts = sample_checked(family, seed, difficulty)
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
        "generator_version": GENERATOR_VERSION,
        "n_agents": 2,
        "answer_type": family.answer_type,
        "answer_keys": keys,
        "global_solution": encode_answer(family.answer_type, answer, keys),
        "question": views.question,
        "target": views.target,
        "request_budget": request_budget(difficulty),
        "view_variant": "slot_notice" if slot_notice else "default",
        "agent_views": [
            {"agent_id": "A", "private_data": private_data(family, views, view_a)},
            {"agent_id": "B", "private_data": private_data(family, views, views.b)},
        ],
        "minimal_hint_spec": {"k_min": 1, "atomic_hints": [hint_record(family, views)]},
        "verifier": verifier_record(family, witness, candidates, keys),
        "global_metadata": {"latent": z, "sampling_attempts": attempts},
    }


def verifier_record(family: Family, witness: Witness, candidates: list[str], keys: list[str]) -> dict:
    """The checks passed, the underdetermination witness and A's candidate slots."""
    return {
        "comparison": "exact",
        "checks": [*THREE_CHECKS, "localizability"],
        "underdetermination_witness": {
            "constraint": witness.constraint,
            "text": family.render(witness.constraint),
            "answer": encode_answer(family.answer_type, witness.answer, keys),
        },
        "candidate_slots": candidates,
    }
