"""Properties every registered MIRA-Math family must have (runs over all of them automatically)."""

from __future__ import annotations

import copy
import json

import pytest

from generators.answers import decode_answer, encode_answer
from generators.families import FAMILIES
from generators.instances import build_instance
from generators.split import Slot, generate
from verifiers.validate import instance_problems

SEEDS = range(12)
NAMES = list(FAMILIES)


def make(name: str, difficulty: int, index: int, seed: int = 1234) -> dict:
    family = FAMILIES[name]
    return build_instance(
        family, instance_id=f"{family.prefix}-{index:06d}", dataset_seed=seed, requested_difficulty=difficulty,
        index=index,
    )


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_generated_instances_are_valid(name: str, difficulty: int) -> None:
    for index in SEEDS:
        inst = make(name, difficulty, index)
        assert instance_problems(inst) == [], (name, difficulty, index)
        assert inst["difficulty"] == FAMILIES[name].effective_difficulty(difficulty)
        assert inst["request_budget"] == 3 * inst["difficulty"]


@pytest.mark.parametrize("name", NAMES)
def test_instances_vary_with_the_seed(name: str) -> None:
    views = {json.dumps(make(name, 2, i)["agent_views"]) for i in range(8)}
    assert len(views) >= 4, f"{name}: only {len(views)} distinct views in 8 draws"


@pytest.mark.parametrize("name", NAMES)
def test_regeneration_is_identical(name: str) -> None:
    slots = [Slot(name, d, i) for d in (1, 2, 3) for i in range(3)]
    first = [json.dumps(x) for x in generate(slots, 99, few_shot=True)]
    second = [json.dumps(x) for x in generate(slots, 99, few_shot=True)]
    assert first == second


@pytest.mark.parametrize("name", NAMES)
def test_changed_answer_is_rejected(name: str) -> None:
    inst = make(name, 1, 0)
    family = FAMILIES[name]
    answer = decode_answer(inst["answer_type"], inst["global_solution"], inst["answer_keys"])
    if isinstance(answer, tuple):
        wrong = (answer[0] + 1, *answer[1:])
    else:
        wrong = answer + 1
    inst["global_solution"] = encode_answer(family.answer_type, wrong, inst["answer_keys"])
    fields = [f for f, _ in instance_problems(inst)]
    assert "global_solution" in fields


@pytest.mark.parametrize("name", NAMES)
def test_hint_removed_from_b_is_rejected(name: str) -> None:
    inst = make(name, 2, 1)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]["constraint"]
    b = inst["agent_views"][1]["private_data"]
    keep = [i for i, c in enumerate(b["constraints_machine"]) if c != hint]
    b["constraints_machine"] = [b["constraints_machine"][i] for i in keep]
    b["constraints_text"] = [b["constraints_text"][i] for i in keep]
    assert instance_problems(inst), "an instance whose hint B does not hold must be rejected"


@pytest.mark.parametrize("name", NAMES)
def test_view_that_already_determines_the_answer_is_rejected(name: str) -> None:
    inst = make(name, 2, 2)
    family = FAMILIES[name]
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]["constraint"]
    a = inst["agent_views"][0]["private_data"]
    a["constraints_machine"].append(copy.deepcopy(hint))
    a["constraints_text"].append(family.render(hint))
    problems = instance_problems(inst)
    assert problems
    assert any("agent_views" in f or "atomic_hints" in f for f, _ in problems)


@pytest.mark.parametrize("name", NAMES)
def test_every_slot_has_aliases(name: str) -> None:
    family = FAMILIES[name]
    inst = make(name, 3, 4)
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]
    assert hint["request_aliases"] and hint["request_aliases"][0]
    assert family.slot_name(hint["constraint"]) == hint["slot"]
    for c in inst["agent_views"][0]["private_data"]["constraints_machine"]:
        slot = family.slot_name(c)
        if slot is not None:
            assert slot != hint["slot"]
            assert family.slot_aliases(slot, c)


@pytest.mark.parametrize("name", NAMES)
def test_texts_contain_no_float_noise(name: str) -> None:
    inst = make(name, 3, 5)
    text = json.dumps(inst["agent_views"])
    assert "e-" not in text.lower().replace("e-mail", "")
    for view in inst["agent_views"]:
        for c in view["private_data"]["constraints_machine"]:
            for value in c.values():
                assert not isinstance(value, float), (name, c)


@pytest.mark.parametrize("name", [n for n in NAMES if FAMILIES[n].type == "B"])
def test_type_b_view_names_the_missing_slot(name: str) -> None:
    inst = make(name, 2, 3)
    slot = inst["minimal_hint_spec"]["atomic_hints"][0]["slot"]
    a = inst["agent_views"][0]["private_data"]
    notes = [c for c in a["constraints_machine"] if c["type"] == "domain" and c.get("missing_slot") == slot]
    assert len(notes) == 1
    notes[0]["missing_slot"] = "somewhere else"
    assert any("is missing" in message for _, message in instance_problems(inst))
