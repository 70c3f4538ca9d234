"""``run_eval.py rejudge``: a run's requests judged again by another responder, offline and resumable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import registry
from harness.cli import main as cli_main
from harness.errors import ConfigMismatch
from harness.mira.agents.rule import RuleResponder
from harness.mira.rejudge import rejudge
from harness.mira.run import MiraRunConfig, run_mira
from harness.mira.types import Responder, ResponderDecision, ResponderTurn


class ScriptedResponder(Responder):
    """Declines every bayes request, offers B's first constraint for every other family (known disagreement)."""

    privileged = False

    def describe(self):
        return {"spec": "scripted", "kind": "ScriptedResponder", "deterministic": True}

    def respond(self, turns: list[ResponderTurn]) -> list[ResponderDecision]:
        out = []
        for turn in turns:
            if turn.family == "bayes_missing_prior":
                out.append(ResponderDecision.decline())
            else:
                out.append(ResponderDecision.offer(turn.constraints[0], turn.constraints[0]))
        return out


class FlakyRule(RuleResponder):
    """The rule responder that is 'killed' (KeyboardInterrupt) on its ``calls_left``-th batched call."""

    calls_left = 10**9

    def __init__(self, options=None):
        super().__init__()
        self.options = dict(options or {})

    def describe(self):
        return {**super().describe(), **self.options}  # as the engine responders describe their options

    def respond(self, turns):
        FlakyRule.calls_left -= 1
        if FlakyRule.calls_left < 0:
            raise KeyboardInterrupt
        return super().respond(turns)


@pytest.fixture(scope="module")
def source_run(split_files, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rejudge") / "src"
    run_mira(MiraRunConfig(dataset=str(split_files["zero_shot"]), out=str(out), solver="oracle", responder="rule",
                           progress=False))
    return out


@pytest.fixture(autouse=True)
def fake_responders():
    registry.register("mira.responder", "scripted", lambda arg, options: ScriptedResponder())
    registry.register("mira.responder", "flakyrule", lambda arg, options: FlakyRule(options))
    yield
    registry.unregister("mira.responder", "scripted")
    registry.unregister("mira.responder", "flakyrule")


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_rule_against_rule_agrees_fully(source_run: Path, tmp_path: Path) -> None:
    code = cli_main(["rejudge", str(source_run), "--responder", "rule", "--out", str(tmp_path / "rj"), "--quiet"])
    assert code == 0
    agreement = json.loads((tmp_path / "rj" / "agreement.json").read_text())
    transcript = lines(source_run / "transcripts.jsonl")
    n_requests = sum(1 for r in transcript for e in r["events"] if e["type"] == "request")
    overall = agreement["overall"]
    assert overall["requests"] == n_requests > 0
    assert overall["full_agreement"] == 1.0 and overall["both_offered_other_fact"] == 0
    assert (tmp_path / "rj" / "disagreements.jsonl").read_text() == ""
    rejudged = lines(tmp_path / "rj" / "transcripts.jsonl")
    assert len(rejudged) == len(transcript)
    assert all(j["rejudged"]["rationale"]["rule"] == "hint" for r in rejudged for j in r["judgements"])


def test_rejudge_finds_a_relative_dataset_from_another_directory(split_files, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "small.jsonl").write_text("".join(split_files["zero_shot"].read_text().splitlines(keepends=True)[:3]))
    monkeypatch.chdir(work)
    run_mira(MiraRunConfig(dataset="small.jsonl", out="runs/src", progress=False))
    info = json.loads((work / "runs" / "src" / "run.json").read_text())
    assert info["dataset"]["path"] == "small.jsonl"
    assert info["dataset"]["path_resolved"] == str(work / "small.jsonl")
    monkeypatch.chdir(tmp_path)  # elsewhere: "small.jsonl" is not here
    assert cli_main(["rejudge", "work/runs/src", "--responder", "rule", "--out", "rj", "--quiet"]) == 0
    assert json.loads((tmp_path / "rj" / "agreement.json").read_text())["overall"]["full_agreement"] == 1.0


def test_scripted_responder_gives_the_known_disagreement(source_run: Path, tmp_path: Path) -> None:
    summary = rejudge(str(source_run), "scripted", {}, str(tmp_path / "rj"))
    transcript = lines(source_run / "transcripts.jsonl")
    bayes = sum(1 for r in transcript if r["family"] == "bayes_missing_prior" for e in r["events"]
                if e["type"] == "request")
    others = [r for r in transcript if r["family"] != "bayes_missing_prior"]
    # the oracle's requests were all offered the hint; the script offers B's first constraint instead
    first_is_hint = sum(1 for r in others if r["b_constraints"][0] == r["canonical_hint"]["text"])
    m = summary["overall"]["matrix"]
    assert m["offer"]["decline"] == bayes > 0
    assert m["offer"]["offer"] == len(others)
    assert summary["overall"]["both_offered_same_fact"] == first_is_hint
    assert summary["overall"]["both_offered_other_fact"] == len(others) - first_is_hint > 0
    assert summary["by_family"]["bayes_missing_prior"]["matrix"]["offer"]["decline"] == bayes
    disagreements = lines(tmp_path / "rj" / "disagreements.jsonl")
    assert len(disagreements) == bayes + len(others) - first_is_hint
    assert {d["rejudged"]["type"] for d in disagreements if d["family"] == "bayes_missing_prior"} == {"decline"}


def test_killed_rejudge_resumes_without_duplicates(source_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "rj"
    FlakyRule.calls_left = 2
    with pytest.raises(KeyboardInterrupt):
        rejudge(str(source_run), "flakyrule", {}, str(out), max_concurrent=10)
    partial = lines(out / "transcripts.jsonl")
    assert 0 < len(partial) < len(lines(source_run / "transcripts.jsonl"))
    FlakyRule.calls_left = 10**9
    summary = rejudge(str(source_run), "flakyrule", {}, str(out), max_concurrent=10)
    done = lines(out / "transcripts.jsonl")
    ids = [r["instance_id"] for r in done]
    assert len(ids) == len(set(ids)) == len(lines(source_run / "transcripts.jsonl"))
    assert done[: len(partial)] == partial
    assert summary["overall"]["full_agreement"] == 1.0
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "complete" and info["sessions"][-1]["resumed_with"] == len(partial)


def test_resume_with_another_responder_is_refused(source_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "rj"
    FlakyRule.calls_left = 1
    with pytest.raises(KeyboardInterrupt):
        rejudge(str(source_run), "flakyrule", {}, str(out), max_concurrent=10)
    FlakyRule.calls_left = 10**9
    with pytest.raises(ConfigMismatch):
        rejudge(str(source_run), "scripted", {}, str(out))


def test_resume_with_another_execution_option_continues(source_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "rj"
    FlakyRule.calls_left = 1
    with pytest.raises(KeyboardInterrupt):
        rejudge(str(source_run), "flakyrule", {"timeout": "10"}, str(out), max_concurrent=10)
    FlakyRule.calls_left = 10**9
    summary = rejudge(str(source_run), "flakyrule", {"timeout": "20"}, str(out), max_concurrent=10)
    assert summary["overall"]["full_agreement"] == 1.0
    with pytest.raises(ConfigMismatch):
        rejudge(str(source_run), "flakyrule", {"timeout": "20", "seed": "1"}, str(out))
