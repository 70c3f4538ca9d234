"""Four-shot examples never show an instance its own problem (issue 24, item 6)."""

from __future__ import annotations

import copy
from functools import cache

from generators.families import FAMILIES
from generators.fewshot import few_shot_examples, instance_facts, repeating_examples
from generators.split import generate, typed_slots
from tests.mira.default_split import default_split
from verifiers.validate import few_shot_problems, instance_problems


@cache
def default_four_shot() -> tuple[dict, ...]:
    return default_split(few_shot=True)  # generated once per run (tests/mira/default_split.py)


def test_no_instance_of_the_default_four_shot_split_is_shown_its_own_facts() -> None:
    records = default_four_shot()
    assert len(records) == 2310
    assert [r["id"] for r in records if repeating_examples(r)] == []
    # the pool is disjoint from every instance of the family, not only from the one it is attached to
    for name in FAMILIES:
        family_records = [r for r in records if r["family"] == name]
        shown = [frozenset([*e["constraints"], e["hint"]]) for e in family_records[0]["few_shot_examples"]]
        assert not any(instance_facts(r) <= s for r in family_records for s in shown), name


def test_a_record_whose_example_repeats_its_facts_is_rejected() -> None:
    record = copy.deepcopy(next(r for r in default_four_shot() if r["family"] == "crt_reconstruction"))
    assert few_shot_problems(record) == []
    data = record["agent_views"][0]["private_data"]
    own = dict(record["few_shot_examples"][0], constraints=list(data["constraints_text"]),
               hint=record["minimal_hint_spec"]["atomic_hints"][0]["text"])
    record["few_shot_examples"][2] = own
    problems = [p for p in instance_problems(record) if p[0].startswith("few_shot")]
    assert [field for field, _ in problems] == ["few_shot_examples[2]"]
    assert "repeats this instance's facts" in problems[0][1]


def test_an_example_with_another_gap_that_shows_all_the_facts_is_rejected() -> None:
    record = copy.deepcopy(next(r for r in default_four_shot() if r["family"] == "discrete_tomography"))
    facts = sorted(instance_facts(record))
    assert few_shot_problems(record) == []  # not before it is tampered with
    record["few_shot_examples"][1] = dict(record["few_shot_examples"][1], constraints=facts[1:], hint=facts[0])
    assert [f for f, _ in instance_problems(record) if f.startswith("few_shot")] == ["few_shot_examples[1]"]


def test_a_part_of_the_split_gets_the_whole_files_examples() -> None:
    slots = typed_slots(3, 4, families=["graph_path_sums", "discrete_tomography"])
    whole = list(generate(slots, 7, few_shot=True))
    part = list(generate(slots[5:20], 7, few_shot=True, start_index=5, split_slots=slots))
    assert part == whole[5:20]


def test_examples_show_the_default_view_unless_the_ablation_asks_for_notices() -> None:
    family = FAMILIES["birth_death_missing_rate"]
    default = few_shot_examples(family, 1234)
    ablation = few_shot_examples(family, 1234, slot_notice=True)
    assert [e["seed"] for e in default] == [e["seed"] for e in ablation]
    assert not any("partner" in text for e in default for text in e["constraints"])
    assert all(any("partner" in text for text in e["constraints"]) for e in ablation)
    assert all(e["request"].startswith("What is ") for e in default)
