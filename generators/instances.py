"""Build MIRA-Math instance records (the JSON of ``schemas/mira_instance.schema.json``)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from generators import GENERATOR_VERSION
from generators.answers import Answer, encode_answer
from generators.base import Constraint, Family, Reject, Views
from generators.checks import CheckFailed, Witness, check_views


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
    """Draw from ``random.Random(seed)`` until an instance passes all three checks."""
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
            witness = check_views(family, views.a, views.b, views.hint, views.target, answer)
            return z, views, answer, witness, attempt
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
    family: Family, *, instance_id: str, dataset_seed: int, requested_difficulty: int, index: int
) -> dict[str, Any]:
    seed = instance_seed(dataset_seed, family.name, requested_difficulty, index)
    difficulty = family.effective_difficulty(requested_difficulty)
    z, views, answer, witness, attempts = sample_valid(family, seed, difficulty)
    keys = list(family.keys_for(z))
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
        "agent_views": [
            {"agent_id": "A", "private_data": private_data(family, views, views.a)},
            {"agent_id": "B", "private_data": private_data(family, views, views.b)},
        ],
        "minimal_hint_spec": {"k_min": 1, "atomic_hints": [hint_record(family, views)]},
        "verifier": {
            "comparison": "exact",
            "checks": ["global_uniqueness", "local_underdetermination", "hint_sufficiency"],
            "underdetermination_witness": {
                "constraint": witness.constraint,
                "text": family.render(witness.constraint),
                "answer": encode_answer(family.answer_type, witness.answer, keys),
            },
        },
        "global_metadata": {"latent": z, "sampling_attempts": attempts},
    }

