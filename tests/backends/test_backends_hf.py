"""The transformers backend on a tiny random Llama built in the session (no download): engine and full runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("transformers")
pytest.importorskip("torch")

from harness.backends import pool
from harness.backends.base import ChatRequest, Decoding
from harness.mira.run import MiraRunConfig, run_mira
from verifiers.jsonparse import first_json_object

SMALL = {"max_tokens": "40", "reasoning": "false", "request_chars": "20", "threads": "2"}
SMALL_B = {"max_tokens": "40", "hint_chars": "12", "threads": "2"}


@pytest.fixture(scope="module")
def engine(tiny_model: Path):
    from harness.backends.hf_engine import HFEngine

    e = HFEngine(str(tiny_model), threads=2)
    yield e
    e.close()


def test_engine_batched_greedy_is_deterministic_and_counts_tokens(engine) -> None:
    convs = [[{"role": "system", "content": "Be terse."}, {"role": "user", "content": "What is 2+3?"}],
             [{"role": "user", "content": "A much longer question about the missing value of mu_4 in a chain."}]]
    requests = [ChatRequest(c) for c in convs]
    first = engine.generate(requests, Decoding(max_tokens=12))
    again = engine.generate(requests, Decoding(max_tokens=12))
    assert [c.text for c in first] == [c.text for c in again]
    for conv, c in zip(convs, first, strict=True):
        assert c.prompt_tokens == len(engine.encode(conv))
        assert 1 <= c.completion_tokens <= 12 and c.finish_reason in ("stop", "length")
    assert engine.stats.calls == 2 and engine.stats.requests == 4


def test_engine_enforces_a_json_schema(engine) -> None:
    assert engine.supports_schema, "xgrammar should be installed with the transformers extra"
    schema = {"type": "object", "properties": {"value": {"type": "integer", "minimum": -99, "maximum": 99}},
              "required": ["value"], "additionalProperties": False}
    outs = engine.generate([ChatRequest([{"role": "user", "content": f"Pick {i}"}], schema) for i in range(4)],
                           Decoding(max_tokens=16))
    for out in outs:
        obj, error = first_json_object(out.text)
        assert error is None and isinstance(obj["value"], int) and -99 <= obj["value"] <= 99
        assert out.finish_reason == "stop"


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "transcripts.jsonl").read_text().splitlines()]


def _complete(records: list[dict], n: int) -> None:
    assert len(records) == n
    for r in records:
        assert r["events"] and r["events"][0]["agent"] == "A" and r["end_reason"]
        assert all(e.get("message") is not None for e in r["events"] if e["agent"] in ("A", "B"))
        assert r["final_answer"]["submitted"] == (r["end_reason"] == "answered")


def test_hf_solver_with_rule_responder_constrained(tiny_model: Path, easy_files, tmp_path: Path) -> None:
    out = tmp_path / "hf-rule"
    cfg = MiraRunConfig(dataset=str(easy_files["zero_shot"]), out=str(out), solver=f"hf:{tiny_model}",
                        responder="rule", solver_options=dict(SMALL), progress=False)
    result = run_mira(cfg)
    records = _records(out)
    _complete(records, 6)
    info = result.info
    assert info["agents"]["solver"]["structured"] is True and info["agents"]["solver"]["engine"]["grammar"]
    assert info["engine_calls"]["engine_calls"] <= 2 * (3 + 1 + 1)  # budget 3: at most 4 solver turns
    assert info["usage"]["solver"]["completion_tokens"] > 0
    backends = info["sessions"][-1]["backends"]["solver"]
    assert backends["engine_calls"] == info["engine_calls"]["by_role"]["solver"]["calls"]
    # constrained decoding: every reply the model finished is a valid action (errors only from the token cap)
    solver_events = [e for r in records for e in r["events"] if e["agent"] == "A"]
    assert any(e["type"] in ("request", "final") for e in solver_events)
    for e in solver_events:
        if e["type"] == "parse_error":
            assert "cut at max_tokens" in e["parse_error"]


def test_same_local_model_for_both_roles_unconstrained(tiny_model: Path, easy_files, tmp_path: Path) -> None:
    out = tmp_path / "hf-hf"
    spec = f"hf:{tiny_model}"
    cfg = MiraRunConfig(dataset=str(easy_files["zero_shot"]), out=str(out), solver=spec, responder=spec,
                        solver_options={**SMALL, "structured": "off"},
                        responder_options={**SMALL_B, "structured": "off"}, progress=False)
    result = run_mira(cfg)
    records = _records(out)
    _complete(records, 6)
    overall = result.metrics["overall"]
    assert overall["solver_parse_errors"] > 0  # random text: recorded, never fatal
    stats = result.info["sessions"][-1]["backends"]
    assert stats["solver"]["engine_shared"] is True  # one model in memory for both roles
    assert stats["solver"]["engine_totals"] == stats["responder"]["engine_totals"]
    assert result.info["agents"]["solver"]["structured"] is False
    assert not pool._engines


def test_four_shot_both_roles_constrained(tiny_model: Path, easy_files, tmp_path: Path) -> None:
    out = tmp_path / "hf-4s"
    spec = f"hf:{tiny_model}"
    cfg = MiraRunConfig(dataset=str(easy_files["four_shot"]), out=str(out), solver=spec, responder=spec,
                        solver_options=dict(SMALL), responder_options=dict(SMALL_B), limit=3, progress=False)
    result = run_mira(cfg)
    assert result.info["config"]["regime"] == "four_shot"
    records = _records(out)
    _complete(records, 3)
    for e in (e for r in records for e in r["events"] if e["agent"] == "B"):
        assert e["type"] in ("offer", "decline")
        if e["type"] == "offer":  # the grammar only lets it quote one of B's own constraints
            assert e["constraint_quoted"] in next(r for r in records if e in r["events"])["b_constraints"]


def test_quiet_silences_the_loading_bar(tiny_model: Path, easy_files, tmp_path: Path) -> None:
    """``--quiet`` prints nothing but errors, transformers' "Loading weights" bar included (issue 17)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    args = [sys.executable, str(root / "run_eval.py"), "mira", "--dataset", str(easy_files["zero_shot"]), "--limit",
            "1", "--solver", f"hf:{tiny_model}", "--solver-opt", "max_tokens=4", "--solver-opt", "grammar=none"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.run([*args, "--out", str(tmp_path / "quiet"), "--quiet"], capture_output=True, text=True,
                          env=env, cwd=root, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
