"""Properties every registered MIRA-Math family must have (runs over all of them automatically)."""

from __future__ import annotations

import copy
import json

import pytest

from generators.answers import decode_answer, encode_answer
from generators.base import is_slot_notice, without_notices
from generators.families import FAMILIES
from generators.instances import build_instance
from generators.split import Slot, generate
from verifiers.validate import NOTICE_TEXT, instance_problems

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


def make_notice(name: str, difficulty: int, index: int) -> dict:
    family = FAMILIES[name]
    return build_instance(
        family, instance_id=f"{family.prefix}-{index:06d}", dataset_seed=1234, requested_difficulty=difficulty,
        index=index, slot_notice=True,
    )


@pytest.mark.parametrize("name", NAMES)
def test_default_view_never_says_what_is_missing(name: str) -> None:
    for difficulty in (1, 2, 3):
        inst = make(name, difficulty, 3)
        assert inst["view_variant"] == "default"
        a = inst["agent_views"][0]["private_data"]
        assert not [c for c in a["constraints_machine"] if is_slot_notice(c)]
        for text in a["constraints_text"]:
            assert not NOTICE_TEXT.search(text), (name, text)


@pytest.mark.parametrize("name", NAMES)
def test_candidate_slots_hold_the_hint_slot(name: str) -> None:
    family = FAMILIES[name]
    for difficulty in (1, 2, 3):
        for index in range(4):
            inst = make(name, difficulty, index)
            a = inst["agent_views"][0]["private_data"]["constraints_machine"]
            slot = inst["minimal_hint_spec"]["atomic_hints"][0]["slot"]
            candidates = family.candidates_for(a, inst["target"])
            assert slot in candidates, (name, difficulty, index, candidates)
            assert len(set(candidates)) == len(candidates)
            assert inst["verifier"]["candidate_slots"] == candidates
            assert "localizability" in inst["verifier"]["checks"]
            held = {family.slot_name(c) for c in a} - {None}
            assert not held & set(candidates), f"{name}: a candidate A already holds: {held & set(candidates)}"


@pytest.mark.parametrize("name", NAMES)
def test_wrong_stored_candidates_are_rejected(name: str) -> None:
    inst = make(name, 2, 1)
    inst["verifier"]["candidate_slots"] = ["somewhere else"]
    assert any("localizability" in message for _, message in instance_problems(inst))


@pytest.mark.parametrize("name", [n for n in NAMES if FAMILIES[n].type == "B"])
def test_notice_ablation_differs_only_by_the_notice(name: str) -> None:
    default, notice = make(name, 2, 3), make_notice(name, 2, 3)
    assert notice["view_variant"] == "slot_notice"
    assert instance_problems(notice) == []
    slot = notice["minimal_hint_spec"]["atomic_hints"][0]["slot"]
    a = notice["agent_views"][0]["private_data"]
    notes = [c for c in a["constraints_machine"] if is_slot_notice(c)]
    assert [c["missing_slot"] for c in notes] == [slot]
    assert without_notices(a["constraints_machine"]) == default["agent_views"][0]["private_data"]["constraints_machine"]
    for key in ("global_solution", "minimal_hint_spec", "verifier", "global_metadata"):
        assert notice[key] == default[key], key
    notes[0]["missing_slot"] = "somewhere else"
    assert any("slot_notice view must carry" in message for _, message in instance_problems(notice))


@pytest.mark.parametrize("name", [n for n in NAMES if FAMILIES[n].type == "B"])
def test_default_record_carrying_a_notice_is_rejected(name: str) -> None:
    default, notice = make(name, 2, 3), make_notice(name, 2, 3)
    default["agent_views"][0] = notice["agent_views"][0]
    problems = instance_problems(default)
    assert any("must not tell A which slot is missing" in message for _, message in problems), problems


def test_worded_notice_in_a_default_view_is_rejected() -> None:
    inst = make("bayes_missing_prior", 1, 0)
    a = inst["agent_views"][0]["private_data"]
    statement = "The prior P(H) is not given here; your partner knows it."
    a["constraints_machine"].append({"type": "domain", "statement": statement})
    a["constraints_text"].append(statement)
    problems = instance_problems(inst)
    assert any("must not tell A what is missing" in message for _, message in problems), problems
