"""The hard tier as files: the generation CLI, its four-shot examples, and how the harness reads them."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from generators import HARD_TIER_VERSION
from generators.__main__ import main as generators_cli
from generators.families import FAMILIES
from generators.fewshot import HARD_DIFFICULTIES, HARD_KS, few_shot_examples, instance_facts, repeating_examples
from generators.jsonl import dumps
from generators.split import example_plans, generate, hard_slots, typed_slots
from harness.errors import InputErrors
from harness.mira.dataset import load_dataset
from harness.prompts.mira import render_examples
from verifiers.validate import instance_problems

FAMILY = "bayes_missing_prior"  # the first family with k = 2 (the generic tests cover the others)


def hard_file(tmp_path: Path, *extra: str, n: int = 2) -> Path:
    out = tmp_path / f"hard{''.join(extra)}.jsonl"
    assert generators_cli(["mira", "--tier", "hard", "--family", FAMILY, "--n-hard", str(n), "--seed", "7",
                           "--out", str(out), *extra]) == 0
    return out


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_cli_writes_the_tier_in_hard_slots_order(tmp_path, capsys) -> None:
    path = hard_file(tmp_path, "--json")
    summary = json.loads(capsys.readouterr().out)
    expected = "".join(dumps(r) + "\n" for r in generate(list(hard_slots(2, [FAMILY])), 7))
    assert path.read_text() == expected
    assert summary["generator_version"] == HARD_TIER_VERSION and summary["tier"] == "hard"
    assert summary["counts"] == {f"{FAMILY}/d{d}k{k}": 2 for d in (4, 5) for k in (1, 2)}
    got = [(r["requested_difficulty"], r["minimal_hint_spec"]["k_min"]) for r in records(path)]
    assert got == [(d, k) for d in (4, 5) for k in (1, 2) for _ in range(2)]
    again = tmp_path / "again"
    again.mkdir()
    assert hard_file(again).read_bytes() == path.read_bytes()  # the same bytes, table summary or JSON


@pytest.mark.parametrize("args", [["--n-a", "3"], ["--difficulties", "1,2"], ["--slot-notice"], ["--n", "2"]])
def test_the_hard_tier_refuses_the_default_splits_options(tmp_path, capsys, args) -> None:
    with pytest.raises(SystemExit) as exc:
        generators_cli(["mira", "--tier", "hard", "--out", str(tmp_path / "x.jsonl"), *args])
    assert exc.value.code == 2
    assert "--tier hard takes --n-hard" in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()


def test_n_hard_needs_the_hard_tier(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit):
        generators_cli(["mira", "--n-hard", "3", "--out", str(tmp_path / "x.jsonl")])
    assert "--n-hard needs --tier hard" in capsys.readouterr().err


def test_four_shot_examples_mix_k_so_they_never_tell_an_instance_its_k(tmp_path) -> None:
    tier = records(hard_file(tmp_path, "--four-shot"))
    assert [instance_problems(r) for r in tier] == [[]] * len(tier)
    examples = tier[0]["few_shot_examples"]
    assert [e["difficulty"] for e in examples] == list(HARD_DIFFICULTIES)
    assert [len(e.get("hints", [e["hint"]])) for e in examples] == list(HARD_KS) == [1, 2, 1, 2]
    for e in examples:
        if "hints" in e:
            assert len(e["requests"]) == len(e["hints"]) == 2
            assert (e["requests"][0], e["hints"][0]) == (e["request"], e["hint"])
            assert e["hints"][0] != e["hints"][1]
        else:
            assert "requests" not in e
    # the same examples for every instance of the family, whatever its k
    assert all(r["few_shot_examples"] == examples for r in tier)
    assert len({e["seed"] for e in examples}) == 4


def test_a_k2_example_that_shows_the_facts_through_its_second_hint_is_rejected(tmp_path) -> None:
    record = next(r for r in records(hard_file(tmp_path, "--four-shot")) if r["minimal_hint_spec"]["k_min"] == 2)
    facts = sorted(instance_facts(record))
    assert repeating_examples(record) == []
    example = record["few_shot_examples"][3]
    # all but the last fact in the constraints, the last only as the example's second offer
    record["few_shot_examples"][3] = dict(example, constraints=facts[:-1], hints=[example["hint"], facts[-1]])
    assert repeating_examples(record) == [3]
    assert [f for f, _ in instance_problems(record) if f.startswith("few_shot")] == ["few_shot_examples[3]"]


def test_the_default_splits_example_plan_is_unchanged() -> None:
    assert example_plans(typed_slots(1, 1, families=[FAMILY])) == {FAMILY: ((1, 2, 2, 3), (1, 1, 1, 1))}
    assert example_plans(hard_slots(1, [FAMILY])) == {FAMILY: ((4, 4, 5, 5), (1, 2, 1, 2))}
    with pytest.raises(ValueError):
        few_shot_examples(FAMILIES[FAMILY], 7, slot_notice=True, k=2)


def test_the_prompt_shows_one_exchange_per_hint(tmp_path) -> None:
    examples = records(hard_file(tmp_path, "--four-shot"))[0]["few_shot_examples"]
    k1, k2 = examples[0:1], examples[1:2]
    one = render_examples(k1[:1])
    assert one.count('"action": "request"') == 1 and one.count("B: offers") == 1
    two = render_examples(k2[:1])
    assert two.count('"action": "request"') == 2
    assert [line for line in two.splitlines() if line.startswith("B: offers")] == \
        [f'B: offers "{h}"' for h in k2[0]["hints"]]
    plain = {key: value for key, value in k2[0].items() if key not in ("requests", "hints")}
    assert render_examples([plain]).count("B: offers") == 1  # an example without the lists: as at k = 1


def test_the_harness_loads_hard_records_with_their_budget(tmp_path) -> None:
    path = hard_file(tmp_path, "--four-shot")
    dataset = load_dataset(path)
    assert dataset.has_few_shot and dataset.generator_versions() == [HARD_TIER_VERSION]
    assert {i["difficulty"] for i in dataset.instances} == {4, 5}
    assert {(i["difficulty"], i["minimal_hint_spec"]["k_min"], i["request_budget"]) for i in dataset.instances} == {
        (4, 1, 12), (4, 2, 24), (5, 1, 15), (5, 2, 30)}


def test_the_harness_names_a_k2_record_whose_second_hint_is_broken(tmp_path) -> None:
    lines = records(hard_file(tmp_path))
    bad = copy.deepcopy(next(r for r in lines if r["minimal_hint_spec"]["k_min"] == 2))
    del bad["minimal_hint_spec"]["atomic_hints"][1]["slot"]
    lines[2] = bad
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(dumps(r) + "\n" for r in lines))
    with pytest.raises(InputErrors) as exc:
        load_dataset(path)
    assert "bad.jsonl:3" in str(exc.value) and "atomic_hints[1].slot" in str(exc.value)


def test_an_example_with_unmatched_requests_and_hints_is_named(tmp_path) -> None:
    record = records(hard_file(tmp_path, "--four-shot"))[0]
    reversed_hints = copy.deepcopy(record)
    reversed_hints["few_shot_examples"][1]["hints"].reverse()
    assert [f for f, _ in instance_problems(reversed_hints)] == ["few_shot_examples[1]"]
    record["few_shot_examples"][3]["requests"].pop()
    assert [f for f, _ in instance_problems(record)] == ["few_shot_examples[3].requests"]


def test_a_family_that_cannot_withhold_two_facts_is_one_line_and_no_file(tmp_path, monkeypatch, capsys) -> None:
    def no_second(*_args):
        raise NotImplementedError(f"{FAMILY} does not declare second_hints (no k = 2 instances)")

    monkeypatch.setattr(type(FAMILIES[FAMILY]), "second_hints", no_second)
    out = tmp_path / "x.jsonl"
    with pytest.raises(SystemExit) as exc:
        generators_cli(["mira", "--tier", "hard", "--family", FAMILY, "--n-hard", "1", "--out", str(out)])
    assert "does not declare second_hints" in str(exc.value.code) and "was not written" in str(exc.value.code)
    assert not out.exists()


@pytest.mark.parametrize("edit, message", [
    (lambda r: r["minimal_hint_spec"].update(k_min=20), "minimal_hint_spec.k_min is 20"),
    (lambda r: r["minimal_hint_spec"]["atomic_hints"][1].update(hint_id="h1"), "atomic_hints[1].hint_id is 'h1'"),
], ids=["k20", "repeated-id"])
def test_the_harness_refuses_bad_hint_specs_before_any_episode(tmp_path, edit, message) -> None:
    lines = records(hard_file(tmp_path))
    bad = copy.deepcopy(next(r for r in lines if r["minimal_hint_spec"]["k_min"] == 2))
    edit(bad)
    path = tmp_path / "bad.jsonl"
    path.write_text(dumps(bad) + "\n")
    with pytest.raises(InputErrors) as exc:
        load_dataset(path)
    assert "bad.jsonl:1" in str(exc.value) and message in str(exc.value)
