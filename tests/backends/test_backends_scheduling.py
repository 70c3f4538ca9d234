"""Model agents on the batched scheduler, with a deterministic fake engine (no model, no network)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import registry
from harness.backends import mira_agents, pool
from harness.mira.run import MiraRunConfig, run_mira


@pytest.fixture
def fake_backend(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(mira_agents.ENGINE_MODULES, "fakellm", "tests.backends.fakes")
    registry.register("mira.solver", "fakellm", mira_agents._factory("mira.solver", "fakellm"))
    registry.register("mira.responder", "fakellm", mira_agents._factory("mira.responder", "fakellm"))
    yield
    registry._factories["mira.solver"].pop("fakellm", None)
    registry._factories["mira.responder"].pop("fakellm", None)


def _run(dataset: Path, out: Path, **kw) -> tuple[dict, list[str]]:
    cfg = MiraRunConfig(dataset=str(dataset), out=str(out), solver="fakellm:m", responder="fakellm:m",
                        progress=False, **kw)
    run_mira(cfg)
    info = json.loads((out / "run.json").read_text())
    return info, (out / "transcripts.jsonl").read_text().splitlines()


def test_batched_run_equals_one_by_one_and_makes_few_engine_calls(fake_backend, mira_files, tmp_path) -> None:
    batched, lines_b = _run(mira_files["zero_shot"], tmp_path / "batched")
    single, lines_1 = _run(mira_files["zero_shot"], tmp_path / "single", max_concurrent=1)
    by_id = lambda lines: {json.loads(line)["instance_id"]: line for line in lines}  # noqa: E731
    assert by_id(lines_b) == by_id(lines_1)  # identical transcript lines (written in finishing order)
    n = len(lines_b)
    max_turns = max(json.loads(line)["budget"] for line in lines_b) + 1
    calls = batched["engine_calls"]
    assert calls["engine_calls"] <= 2 * (max_turns + 1)
    assert calls["by_role"]["solver"]["max_batch"] == n
    assert single["engine_calls"]["engine_calls"] > 5 * calls["engine_calls"]
    # the agents' own counters agree with the scheduler's, and the model was loaded once for both roles
    backends = batched["sessions"][-1]["backends"]
    assert backends["solver"]["engine_calls"] == calls["by_role"]["solver"]["calls"]
    assert backends["responder"]["engine_calls"] == calls["by_role"]["responder"]["calls"]
    assert backends["solver"]["engine_shared"] is True
    totals = backends["solver"]["engine_totals"]
    assert totals["calls"] == calls["engine_calls"] and totals["prompt_tokens"] > 0
    assert batched["usage"]["solver"]["prompt_tokens"] == backends["solver"]["prompt_tokens"]
    assert batched["prompt_versions"]["solver"] == "mira-solver/3"
    assert batched["prompt_versions"]["responder"] == "mira-responder/1"
    assert batched["decoding"]["solver"] == {"temperature": 0.0, "seed": 1234, "max_tokens": 1024, "top_p": 1.0}
    assert not pool._engines  # released when the run ended


def test_parse_errors_are_recorded_never_fatal(fake_backend, mira_files, tmp_path) -> None:
    _, lines = _run(mira_files["zero_shot"], tmp_path / "r")
    records = [json.loads(line) for line in lines]
    events = [e for r in records for e in r["events"]]
    solver_errors = [e for e in events if e["type"] == "parse_error"]
    responder_errors = [e for e in events if e["type"] == "decline" and e.get("parse_error")]
    assert solver_errors and all(e["parse_error"] and "message" in e for e in solver_errors)
    assert responder_errors and all(e["message"] for e in responder_errors)
    # lenient parsing accepted fenced JSON, prose around JSON and alternative keys ("question", "decision")
    requests = [e for e in events if e["type"] == "request"]
    assert any(e["message"].startswith("```json") for e in requests)
    assert any(e["message"].startswith("Sure.") for e in requests)
    offers = [e for e in events if e["type"] == "offer"]
    assert offers and all(e["has_exact_match"] is True for e in offers)
    metrics = json.loads((tmp_path / "r" / "metrics.json").read_text())["overall"]
    assert metrics["solver_parse_errors"] == len(solver_errors)
    assert metrics["responder_parse_errors"] == len(responder_errors)
    assert all(r["end_reason"] for r in records)


def test_fake_model_against_rule_responder_and_four_shot(fake_backend, mira_files, tmp_path) -> None:
    cfg = MiraRunConfig(dataset=str(mira_files["four_shot"]), out=str(tmp_path / "fs"), solver="fakellm:m",
                        responder="rule", progress=False, limit=22)
    result = run_mira(cfg)
    assert result.info["config"]["regime"] == "four_shot"
    assert result.metrics["overall"]["n"] == 22


def test_unknown_option_and_missing_model_are_clear(fake_backend, mira_files, tmp_path) -> None:
    from harness.errors import HarnessError

    with pytest.raises(HarnessError, match="unknown option"):
        registry.create("mira.solver", "fakellm:m", {"max_tokenz": "3"})
    with pytest.raises(HarnessError, match="needs a model"):
        registry.create("mira.solver", "fakellm", {})
    with pytest.raises(HarnessError, match="must be an integer"):
        registry.create("mira.solver", "fakellm:m", {"max_tokens": "many"})
    assert not pool._engines
