"""The MIRA-Math configs: ``mira_zero_shot`` and ``mira_few_shot`` (one ``test`` split each), and the slot-notice
ablation ``mira_zero_shot_notice`` / ``mira_few_shot_notice`` (the same instances, A also told which slot is
missing; exported only when named, ``--configs``), and the hard tier ``mira_hard`` / ``mira_hard_four_shot``
(difficulties 4-5, one and two withheld facts; also exported only when named).

Rows are the instances of ``python -m generators mira`` (``schemas/mira_instance.schema.json``), in the
same order and with the same ids. Everything users select on is a typed column (``type``, ``family``,
``difficulty``, ``requested_difficulty``, ``answer_type``, ``id``, ``seed``); the variable-shaped parts
(answers, machine constraints and targets, hint values, latent state) are canonical JSON text.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from builder.registry import ConfigSpec, register
from builder.shape import JSON

ANSWER = JSON  # {"value"} | {"numerator", "denominator"} | {key: int, ...}

MIRA_SHAPE: dict[str, Any] = {
    "id": "string",
    "family": "string",
    "type": "string",
    "difficulty": "int32",
    "requested_difficulty": "int32",
    "seed": "int64",
    "dataset_seed": "int64",
    "generator_version": "string",
    "n_agents": "int32",
    "answer_type": "string",
    "answer_keys": ["string"],
    "global_solution": ANSWER,
    "question": "string",
    "target": JSON,
    "request_budget": "int32",
    "view_variant": "string",
    "agent_views": [
        {
            "agent_id": "string",
            "private_data": {
                "unknowns": ["string"],
                "externals": JSON,
                "constraints_text": ["string"],
                "constraints_machine": JSON,
            },
        }
    ],
    "minimal_hint_spec": {
        "k_min": "int32",
        "atomic_hints": [
            {
                "hint_id": "string",
                "kind": "string",
                "slot": "string",
                "value": JSON,
                "text": "string",
                "constraint": JSON,
                "request_aliases": ["string"],
                "providers": ["string"],
                "consumers": ["string"],
            }
        ],
    },
    "verifier": {
        "comparison": "string",
        "checks": ["string"],
        "underdetermination_witness": {"constraint": JSON, "text": "string", "answer": ANSWER},
        "candidate_slots": ["string"],
    },
    "global_metadata": JSON,
}

FEW_SHOT_EXAMPLE: dict[str, Any] = {
    "family": "string",
    "difficulty": "int32",
    "seed": "int64",
    "question": "string",
    "constraints": ["string"],
    "unknowns": ["string"],
    "request": "string",
    "hint": "string",
    "answer": ANSWER,
    "answer_type": "string",
    "answer_keys": ["string"],
}

MIRA_FEW_SHOT_SHAPE: dict[str, Any] = {**MIRA_SHAPE, "few_shot_examples": [FEW_SHOT_EXAMPLE]}

MIRA_PARAMS = ("seed", "n_a", "n_b", "difficulties", "families")


def _normalize(params: dict[str, Any]) -> dict[str, Any]:
    """Record the family list explicitly, so that a later family addition never changes an export's meaning."""
    if params.get("families") is None:
        from generators.families import FAMILIES

        params = {**params, "families": list(FAMILIES)}
    return params


def mira_count(params: Mapping[str, Any], split: str) -> int:
    from generators.split import slot_count

    return slot_count(params["n_a"], params["n_b"], params["difficulties"], params["families"])


def mira_records(params: Mapping[str, Any], split: str, start: int, stop: int) -> Iterator[dict]:
    from generators.split import generate, iter_typed_slots, typed_slots

    slots = iter_typed_slots(params["n_a"], params["n_b"], params["difficulties"], params["families"], start, stop)
    whole = None
    if params["few_shot"]:  # the four-shot pool is drawn against the whole split, so every chunk gets its examples
        whole = typed_slots(params["n_a"], params["n_b"], params["difficulties"], params["families"])
    yield from generate(slots, params["seed"], few_shot=params["few_shot"], start_index=start,
                        slot_notice=params.get("slot_notice", False), split_slots=whole)


MIRA_ZERO_SHOT = register(
    ConfigSpec(
        name="mira_zero_shot",
        benchmark="mira",
        description="MIRA-Math instances without worked examples (the release's family_types_20_50.jsonl).",
        shape=MIRA_SHAPE,
        count=mira_count,
        records=mira_records,
        params=MIRA_PARAMS,
        fixed={"few_shot": False},
        normalize=_normalize,
    )
)
MIRA_FEW_SHOT = register(
    ConfigSpec(
        name="mira_few_shot",
        benchmark="mira",
        description="The same instances with the family's four worked examples attached "
        "(the release's family_types_20_50_few_shot.jsonl).",
        shape=MIRA_FEW_SHOT_SHAPE,
        count=mira_count,
        records=mira_records,
        params=MIRA_PARAMS,
        fixed={"few_shot": True},
        normalize=_normalize,
    )
)


def _slot_notice_ablation(base: ConfigSpec, description: str) -> ConfigSpec:
    """``base`` with A's view also naming the withheld slot; exported only when named."""
    return replace(base, name=f"{base.name}_notice", description=description,
                   fixed={**base.fixed, "slot_notice": True}, default_export=False)


register(_slot_notice_ablation(
    MIRA_ZERO_SHOT,
    "The slot-notice ablation of mira_zero_shot: the same instances, with A's view also naming the withheld slot "
    "(view_variant slot_notice), to measure how much of a score comes from being told where the gap is.",
))
register(_slot_notice_ablation(
    MIRA_FEW_SHOT,
    "The slot-notice ablation of mira_few_shot (the same instances and worked examples, A's view also naming the "
    "withheld slot).",
))


# ------------------------------------------------------------------ the hard tier (docs/hard-tier.md)
# Records at difficulties 4-5 with one or two withheld facts. Their optional parts differ by k (``verifier.
# single_hint_witnesses`` and the k = 2 examples' ``requests``/``hints``), so those two fields are JSON text here;
# the rest is the paper split's shape.
MIRA_HARD_SHAPE: dict[str, Any] = {**MIRA_SHAPE, "verifier": JSON}
MIRA_HARD_FOUR_SHOT_SHAPE: dict[str, Any] = {**MIRA_HARD_SHAPE, "few_shot_examples": JSON}
MIRA_HARD_PARAMS = ("seed", "n_hard", "families")


def mira_hard_count(params: Mapping[str, Any], split: str) -> int:
    from generators.split import hard_slot_count

    return hard_slot_count(params["n_hard"], params["families"])


def mira_hard_records(params: Mapping[str, Any], split: str, start: int, stop: int) -> Iterator[dict]:
    import itertools

    from generators.split import generate, hard_slots

    slots = itertools.islice(hard_slots(params["n_hard"], params["families"]), start, stop)
    whole = list(hard_slots(params["n_hard"], params["families"])) if params["few_shot"] else None
    yield from generate(slots, params["seed"], few_shot=params["few_shot"], start_index=start, split_slots=whole)


def _hard_config(name: str, description: str, shape: dict[str, Any], few_shot: bool) -> ConfigSpec:
    # Exported only when named (--configs): the tier has its own generator version and its own release tag.
    return ConfigSpec(name=name, benchmark="mira", description=description, shape=shape, count=mira_hard_count,
                      records=mira_hard_records, params=MIRA_HARD_PARAMS, fixed={"few_shot": few_shot},
                      normalize=_normalize, version="generators:HARD_TIER_VERSION", default_export=False)


MIRA_HARD = register(_hard_config(
    "mira_hard",
    "The MIRA-Math hard tier (docs/hard-tier.md): difficulties 4 and 5, one and two withheld facts, n_hard instances "
    "per family, difficulty and k, without worked examples.",
    MIRA_HARD_SHAPE, few_shot=False,
))
MIRA_HARD_FOUR_SHOT = register(_hard_config(
    "mira_hard_four_shot",
    "The same hard-tier instances with four worked examples per family and k (difficulties 4, 4, 5, 5; the k = 2 "
    "examples show both requests and both offers).",
    MIRA_HARD_FOUR_SHOT_SHAPE, few_shot=True,
))
