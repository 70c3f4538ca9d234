"""Metrics, reports and rejudge on transcript lines of k = 2 instances (docs/hard-tier.md), built by hand per the
contract: ``k``, ``canonical_hints``, offer events matched to a hint by their quote, never by their ``hint_id``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from generators.families import FAMILIES
from generators.instances import build_instance
from harness.errors import InputError
from harness.mira import rejudge
from harness.mira.episode import HINT_FIELDS
from harness.mira.metrics import aggregate, hint_metrics, instance_metrics, summarize
from harness.mira.run import MetricInputs, finish_metrics
from harness.mira.score import score_run
from harness.mira.types import ResponderDecision
from harness.rundir import RunDir

H1, H2 = "P(H) = 3/5", "P(E|H) = 2/3"  # the two facts B holds in bay-000000 at d4, k = 2
RIGHT, WRONG = {"numerator": 3, "denominator": 4}, {"numerator": 1, "denominator": 2}


@pytest.fixture(scope="module")
def instance() -> dict:
    inst = build_instance(FAMILIES["bayes_missing_prior"], instance_id="bay-000000", dataset_seed=1,
                          requested_difficulty=4, index=0, k=2)
    assert [h["text"] for h in inst["minimal_hint_spec"]["atomic_hints"]] == [H1, H2]
    return inst


def transcript_line(inst: dict, events: list[dict], condition: str = "standard", k: int | None = 2) -> dict:
    """A transcript line as the episode writes one (``k=None``: the k = 1 form, one canonical hint)."""
    hints = [{"hint_id": h["hint_id"], **{f: h[f] for f in HINT_FIELDS if f in h}}
             for h in inst["minimal_hint_spec"]["atomic_hints"]]
    b_view = next(v["private_data"] for v in inst["agent_views"] if v["agent_id"] == "B")
    line = {
        "format": "mira-transcript/1", "instance_id": inst["id"], "family": inst["family"], "type": inst["type"],
        "difficulty": inst["difficulty"], "condition": condition, "regime": "zero_shot", "after_offer": "answer",
        "budget": inst["request_budget"], "answer_type": inst["answer_type"], "answer_keys": inst["answer_keys"],
        "expected": inst["global_solution"], "canonical_hint": {k_: v for k_, v in hints[0].items() if k_ != "hint_id"},
        "b_constraints": list(b_view["constraints_text"]), "events": events, "end_reason": "answered",
        "view_variant": "default",
    }
    if k is not None:
        line.update(k=k, canonical_hints=hints)
    return line


def ask(turn: int, text: str = "What else?") -> dict:
    return {"turn": turn, "agent": "A", "type": "request", "message": text, "request": text}


def offer(turn: int, quoted: str, claimed: str | None = None) -> dict:
    return {"turn": turn, "agent": "B", "type": "offer", "message": quoted, "has_exact_match": True,
            "constraint_quoted": quoted, "hint": quoted, "hint_id": claimed}


def decline(turn: int) -> dict:
    return {"turn": turn, "agent": "B", "type": "decline", "message": "no"}


def final(turn: int, answer: dict) -> dict:
    return {"turn": turn, "agent": "A", "type": "final", "message": "done", "answer": answer}


def h2_then_h1_after_a_wasted_request(inst: dict) -> dict:
    # the events' own hint_id fields lie: the scorer must match the quotes itself
    events = [ask(1, "P(E|H)?"), offer(1, H2, claimed="h1"), ask(2), decline(2), ask(3, "P(H)?"),
              offer(3, f"Constraint 1: {H1}.", claimed=None), final(4, RIGHT)]
    return transcript_line(inst, events)


def only_h1_then_wrong(inst: dict) -> dict:
    events = [ask(1, "the prior"), offer(1, H1), ask(2, "the prior again"), offer(2, H1), ask(3), decline(3),
              final(4, WRONG)]
    return transcript_line(inst, events)


def correct_without_hints(inst: dict) -> dict:
    return transcript_line(inst, [final(1, RIGHT)])


def no_hint_then_wrong(inst: dict) -> dict:
    both_at_once = f"{H1} and {H2}"  # one quote with both facts is canonical for neither
    events = [ask(1, "both?"), offer(1, both_at_once, claimed="h1"), ask(2), offer(2, "P(E|not H) = 1/3"),
              final(3, WRONG)]
    return transcript_line(inst, events)


def both_then_wrong(inst: dict) -> dict:
    events = [ask(1), offer(1, H1), ask(2), offer(2, H2), final(3, WRONG)]
    return transcript_line(inst, events)


def test_two_hints_acquired_h2_then_h1_after_a_wasted_request(instance: dict) -> None:
    m = instance_metrics(h2_then_h1_after_a_wasted_request(instance))
    assert m["k"] == 2 and m["hints_acquired"] == ["h2", "h1"]
    assert (m["all_hints"], m["some_hints"], m["C"], m["F"], m["O"]) == (1, 0, 1, 1, 1)
    assert m["requests"] == 3 and m["offers"] == 2 and m["declines"] == 1 and m["canonical_offers"] == 2
    assert m["requests_per_acquired_hint"] == 1.5
    assert m["first_request_success_per_hint"] == 0.5  # h2 at the first request, h1 after a wasted one
    assert m["first_request_success"] == 1 and m["hit_rate"] == pytest.approx(2 / 3)


def test_one_hint_of_two_is_some_hints(instance: dict) -> None:
    m = instance_metrics(only_h1_then_wrong(instance))
    assert m["hints_acquired"] == ["h1"] and (m["all_hints"], m["some_hints"], m["C"], m["F"]) == (0, 1, 0, 0)
    assert m["canonical_offers"] == 2 and m["noncanonical_offers"] == 0  # the repeat is canonical, not new
    assert m["requests_per_acquired_hint"] == 3.0 and m["first_request_success_per_hint"] == 1.0


def test_correct_without_any_hint(instance: dict) -> None:
    m = instance_metrics(correct_without_hints(instance))
    assert m["hints_acquired"] == [] and (m["all_hints"], m["some_hints"], m["C"], m["F"], m["O"]) == (0, 0, 0, 1, 0)
    assert m["requests_per_acquired_hint"] is None and m["first_request_success_per_hint"] is None


def test_a_quote_of_both_facts_and_a_foreign_fact_are_noncanonical(instance: dict) -> None:
    m = instance_metrics(no_hint_then_wrong(instance))
    assert m["hints_acquired"] == [] and m["noncanonical_offers"] == 2 and m["canonical_offers"] == 0
    assert (m["O"], m["C"], m["some_hints"]) == (1, 0, 0)


def test_oracle_hint_gives_every_hint(instance: dict) -> None:
    events = [{"turn": 0, "agent": "harness", "type": "hint_given", "hint": H1},
              {"turn": 0, "agent": "harness", "type": "hint_given", "hint": H2}, final(1, RIGHT)]
    m = instance_metrics(transcript_line(instance, events, condition="oracle_hint"))
    assert m["hints_acquired"] == ["h1", "h2"] and (m["all_hints"], m["some_hints"], m["C"]) == (1, 0, 1)
    assert m["requests_per_acquired_hint"] is None and m["first_request_success_per_hint"] is None


def test_a_k1_line_keeps_exactly_the_k1_metrics(instance: dict) -> None:
    line = transcript_line(instance, [ask(1), offer(1, H1), final(2, RIGHT)], k=None)
    m = instance_metrics(line)
    assert "k" not in m and "hints_acquired" not in m and m["C"] == 1
    assert hint_metrics(line) == {"k": 1, "hints_acquired": ["h1"], "all_hints": 1, "some_hints": 0,
                                  "requests_per_acquired_hint": 1.0, "first_request_success_per_hint": 1.0}
    assert "p_some_hints" not in aggregate([m]) and "acquired_all_hints" not in aggregate([m])


def five_lines(inst: dict) -> list[dict]:
    makers = (h2_then_h1_after_a_wasted_request, only_h1_then_wrong, correct_without_hints, no_hint_then_wrong,
              both_then_wrong)
    return [{**make(inst), "instance_id": f"bay-{i:06d}"} for i, make in enumerate(makers)]


def test_decomposition_has_four_classes_that_sum_to_one(instance: dict) -> None:
    agg = aggregate([instance_metrics(r) for r in five_lines(instance)])
    assert agg["p_success"] == pytest.approx(0.4) and agg["p_integration_fail"] == pytest.approx(0.2)
    assert agg["p_some_hints"] == pytest.approx(0.2) and agg["p_no_canonical"] == pytest.approx(0.2)
    terms = ("p_success", "p_integration_fail", "p_some_hints", "p_no_canonical")
    assert sum(agg[t] for t in terms) == pytest.approx(1.0)
    assert agg["acquired_all_hints"] == pytest.approx(0.4) and agg["acquired_some_hints"] == pytest.approx(0.2)
    assert agg["avg_hints_acquired"] == pytest.approx(1.0)
    assert agg["requests_per_acquired_hint"] == pytest.approx((1.5 + 3.0 + 1.0) / 3)
    assert agg["first_request_success_per_hint"] == pytest.approx((0.5 + 1.0 + 1.0) / 3)
    assert agg["acc_given_canonical"] == pytest.approx(0.5)  # of the two with every hint, one is right


def test_a_mixed_run_groups_by_k_and_fills_the_k1_rows(instance: dict) -> None:
    k1 = {**transcript_line(instance, [ask(1), offer(1, H1), final(2, RIGHT)], k=None), "instance_id": "bay-k1"}
    records = [*five_lines(instance), k1]
    summary = summarize(records, [instance_metrics(r) for r in records])
    assert list(summary["by_k"]) == ["k1", "k2"] and summary["by_k"]["k1"]["acquired_all_hints"] == 1.0
    assert summary["by_k"]["k2"]["n"] == 5 and list(summary["by_difficulty_k"]) == ["d4_k1", "d4_k2"]
    o = summary["overall"]
    assert o["p_success"] + o["p_integration_fail"] + o["p_some_hints"] + o["p_no_canonical"] == pytest.approx(1.0)
    assert o["first_request_success_per_hint"] == pytest.approx((0.5 + 1.0 + 1.0 + 1.0) / 4)


def test_a_k1_only_summary_has_no_k_keys(instance: dict) -> None:
    k1 = transcript_line(instance, [ask(1), offer(1, H1), final(2, RIGHT)], k=None)
    summary = summarize([k1], [instance_metrics(k1)])
    assert "by_k" not in summary and "p_some_hints" not in summary["overall"]


def write_run(path: Path, lines: list[dict]) -> Path:
    path.mkdir()
    (path / "transcripts.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_score_writes_the_k_groups(instance: dict, tmp_path: Path) -> None:
    run = score_run(write_run(tmp_path / "run", five_lines(instance)), figures=False)
    assert run.multi_hint
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "hint acquisition by k" in report and "Some hints, not all" in report
    rows = list(csv.DictReader(io.StringIO((tmp_path / "run" / "per_instance.csv").read_text(encoding="utf-8"))))
    assert [r["hints_acquired"] for r in rows] == ["h2 h1", "h1", "", "", "h1 h2"]
    groups = list(csv.DictReader(io.StringIO((tmp_path / "run" / "by_group.csv").read_text(encoding="utf-8"))))
    assert {(g["grouping"], g["group"]) for g in groups} >= {("by_k", "k2"), ("by_difficulty_k", "d4_k2")}
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["overall"]["p_some_hints"] == pytest.approx(0.2)


def test_a_run_with_k2_lines_makes_metrics_json_as_score_does(instance: dict, tmp_path: Path) -> None:
    k1 = {**transcript_line(instance, [ask(1), offer(1, H1), final(2, RIGHT)], k=None), "instance_id": "bay-k1"}
    lines = [{**line, "live_metrics": instance_metrics(line)} for line in [*five_lines(instance), k1]]
    inputs = MetricInputs(lines)
    assert inputs.exact
    metrics, _ = finish_metrics(RunDir(write_run(tmp_path / "run", lines)), {}, inputs)
    assert metrics["by_k"]["k1"]["first_request_success_per_hint"] == 1.0  # from the k = 1 line's events
    rescored = {"benchmark": "mira", "label": None, **summarize(lines, [instance_metrics(x) for x in lines])}
    assert json.loads(json.dumps(metrics)) == json.loads(json.dumps(rescored))


@pytest.mark.parametrize(("change", "field"), [({"k": 3}, "canonical_hints"), ({"canonical_hints": None}, "k"),
                                               ({"k": "2"}, "k")])
def test_inconsistent_hint_fields_are_named(instance: dict, tmp_path: Path, change: dict, field: str) -> None:
    line = {**both_then_wrong(instance), **change}
    if line["canonical_hints"] is None:
        del line["canonical_hints"]
    with pytest.raises(InputError) as err:
        score_run(write_run(tmp_path / "bad", [line]), figures=False, write=False)
    assert "transcripts.jsonl:1" in str(err.value) and field in str(err.value)


def test_rejudge_matches_each_decision_against_all_hints(instance: dict) -> None:
    episode = rejudge.RejudgeEpisode(h2_then_h1_after_a_wasted_request(instance), None, privileged=False)
    assert [r.original.get("hint_id") for r in episode.requests] == ["h2", None, "h1"]
    for reply in (ResponderDecision.offer(H2, H2), ResponderDecision.decline(), ResponderDecision.offer(H2, H2)):
        assert episode.pending() is not None
        episode.deliver("responder", reply)
    line = episode.line()
    assert line["k"] == 2 and [h["hint_id"] for h in line["canonical_hints"]] == ["h1", "h2"]
    assert [j["rejudged"]["hint_id"] for j in line["judgements"]] == ["h2", None, "h2"]
    summary, disagreements = rejudge.summarize([line])
    overall = summary["overall"]
    assert overall["both_offered_same_fact"] == 1 and overall["both_offered_other_fact"] == 1
    assert overall["canonical_offers"] == {"original": 2, "rejudged": 2}
    assert [d["request_index"] for d in disagreements] == [3]
