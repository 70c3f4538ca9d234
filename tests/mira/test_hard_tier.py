"""The hard tier (docs/hard-tier.md): difficulties 4 and 5, one or two withheld facts, for every family."""

from __future__ import annotations

import json

import pytest

from generators import HARD_TIER_VERSION
from generators.families import FAMILIES
from generators.instances import build_instance
from generators.split import HARD_DIFFICULTIES, HARD_KS, generate, hard_slots
from verifiers.validate import instance_problems

NAMES = list(FAMILIES)
PER_BLOCK = 5


def make(name: str, difficulty: int, index: int, k: int, seed: int = 1234) -> dict:
    family = FAMILIES[name]
    return build_instance(family, instance_id=f"{family.prefix}-{index:06d}", dataset_seed=seed,
                          requested_difficulty=difficulty, index=index, k=k)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("difficulty", HARD_DIFFICULTIES)
@pytest.mark.parametrize("k", HARD_KS)
def test_hard_instances_pass_the_validator(name: str, difficulty: int, k: int) -> None:
    for index in range(PER_BLOCK):
        inst = make(name, difficulty, index, k)
        assert instance_problems(inst) == [], (name, difficulty, k, index)
        assert inst["difficulty"] == difficulty
        assert inst["generator_version"] == HARD_TIER_VERSION
        hints = inst["minimal_hint_spec"]["atomic_hints"]
        assert inst["minimal_hint_spec"]["k_min"] == len(hints) == k
        assert inst["request_budget"] == 3 * difficulty * k
        slots = [h["slot"] for h in hints]
        assert len(set(slots)) == k and set(slots) <= set(inst["verifier"]["candidate_slots"])
        if k == 2:
            missing = [w["missing"] for w in inst["verifier"]["single_hint_witnesses"]]
            assert missing == ["h1", "h2"]


@pytest.mark.parametrize("name", NAMES)
def test_k2_instances_vary(name: str) -> None:
    views = {json.dumps(make(name, 4, i, 2)["agent_views"]) for i in range(6)}
    assert len(views) >= 4, f"{name}: only {len(views)} distinct k = 2 views in 6 draws"


def test_hard_slots_order_and_regeneration() -> None:
    slots = list(hard_slots(2, ["bayes_missing_prior"]))
    assert [(s.requested_difficulty, s.k, s.index) for s in slots] == [
        (d, k, i) for d in (4, 5) for k in (1, 2) for i in range(2)]
    first = [json.dumps(x) for x in generate(slots, 7)]
    assert first == [json.dumps(x) for x in generate(slots, 7)]


def test_a_k2_instance_without_its_second_witness_is_rejected() -> None:
    inst = make("bayes_missing_prior", 4, 0, 2)
    del inst["verifier"]["single_hint_witnesses"]
    assert any(field == "verifier.single_hint_witnesses" for field, _ in instance_problems(inst))


def test_a_k2_instance_whose_second_hint_is_given_to_a_is_rejected() -> None:
    inst = make("bayes_missing_prior", 5, 1, 2)
    view_a = inst["agent_views"][0]["private_data"]
    second = inst["minimal_hint_spec"]["atomic_hints"][1]
    view_a["constraints_machine"].append(second["constraint"])
    view_a["constraints_text"].append(second["text"])
    assert instance_problems(inst) != []


@pytest.mark.parametrize("mutation, field", [
    (lambda r: r["minimal_hint_spec"]["atomic_hints"][1].update(slot=r["minimal_hint_spec"]["atomic_hints"][0]["slot"]),
     "minimal_hint_spec.atomic_hints[1].slot"),
    (lambda r: r["minimal_hint_spec"]["atomic_hints"][1].update(
        request_aliases=r["minimal_hint_spec"]["atomic_hints"][0]["request_aliases"]),
     "minimal_hint_spec.atomic_hints[1].request_aliases"),
    (lambda r: r["minimal_hint_spec"]["atomic_hints"][1].update(request_aliases=["the weather in Paris"]),
     "minimal_hint_spec.atomic_hints[1].request_aliases"),
    (lambda r: r["verifier"]["checks"].remove("each_hint_necessary"), "verifier.checks"),
    (lambda r: r.update(generator_version="2.0.0"), "generator_version"),
], ids=["slot-of-h1", "aliases-of-h1", "foreign-aliases", "no-each-hint-check", "paper-version"])
def test_a_k2_record_with_mislabelled_fields_is_rejected(mutation, field: str) -> None:
    for name in ("bayes_missing_prior", "markov_missing_transition", "circuit_missing_resistance"):
        inst = make(name, 4, 0, 2)
        mutation(inst)
        assert field in [f for f, _ in instance_problems(inst)], name
