"""The inspect front end runs k = 2 instances (docs/hard-tier.md) as ``run_eval.py mira`` does: the same
episode, the same transcript lines for the same scripted replies, and the hard tier's count-neutral prompt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install -e '.[inspect]')")

from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from generators.jsonl import write_jsonl
from generators.split import generate, hard_slots
from harness.inspect_adapter.importer import import_log
from harness.inspect_adapter.mira import ASK_PARTNER_UNSTATED, mira_task, mock_outputs, tool_system_prompt
from harness.mira.run import MiraRunConfig, run_mira
from harness.rundir import read_transcripts


def _ask(inst: dict[str, Any], *hints: int) -> dict[str, Any]:
    names = [inst["minimal_hint_spec"]["atomic_hints"][n]["request_aliases"][0] for n in hints]
    return {"tool": "ask_partner", "arguments": {"request": f"What is {' and '.join(names)}?"}}


@pytest.fixture(scope="module")
def k2_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("inspect_k2")
    records = [r for r in generate(list(hard_slots(1, ["bayes_missing_prior"])), 1234)
               if r["minimal_hint_spec"]["k_min"] == 2]
    path = root / "k2.jsonl"
    write_jsonl(path, records)
    right = [{"tool": "submit_answer", "arguments": {"answer": r["global_solution"]}} for r in records]
    script = {records[0]["id"]: [_ask(records[0], 0), _ask(records[0], 1), right[0]],  # one, the other, answer
              records[1]["id"]: [_ask(records[1], 0, 1), _ask(records[1], 1), _ask(records[1], 0), right[1]]}
    script_path = root / "script.json"
    script_path.write_text(json.dumps({"format": "scripted-replies/1", "replies": script}), encoding="utf-8")
    return {"dataset": path, "records": records, "script": script, "script_path": script_path}


def _lines(run_dir: Path) -> dict[str, dict[str, Any]]:
    records = read_transcripts(run_dir / "transcripts.jsonl").records
    return {k: {f: v for f, v in r.items() if f != "usage"} for k, r in records.items()}


def test_k2_through_inspect_gives_run_evals_lines(k2_files: dict[str, Any], tmp_path: Path) -> None:
    ours = tmp_path / "ours"
    run_mira(MiraRunConfig(dataset=str(k2_files["dataset"]), out=str(ours),
                           solver=f"scripted:{k2_files['script_path']}", responder="rule", progress=False))
    ids = [r["id"] for r in k2_files["records"]]
    model = get_model("mockllm/model", custom_outputs=mock_outputs(k2_files["script"], ids), memoize=False)
    logs = inspect_eval(mira_task(str(k2_files["dataset"])), model=model, max_samples=1,
                        log_dir=str(tmp_path / "logs"), display="none")
    assert logs[0].status == "success", logs[0].error
    imported = tmp_path / "imported"
    import_log(logs[0].location, str(imported))
    a, b = _lines(ours), _lines(imported)
    assert sorted(a) == sorted(b) == sorted(ids)
    for key in a:
        assert a[key] == b[key], key
    first, second = (a[i] for i in ids)
    assert first["live_metrics"]["hints_acquired"] == ["h1", "h2"] and first["live_metrics"]["correct"] == 1
    assert [e["type"] for e in second["events"] if e["agent"] == "B"] == ["decline", "offer", "offer"]
    assert second["live_metrics"]["first_request_success_per_hint"] == 0.5 and second["live_metrics"]["C"] == 1
    sample = logs[0].samples[0]
    assert sample.messages[0].content == tool_system_prompt(gaps_unstated=True) != tool_system_prompt()
    assert "one piece" not in sample.messages[0].content
    tools = next(e for e in sample.events if e.event == "model").tools
    assert next(t.description for t in tools if t.name == "ask_partner") == ASK_PARTNER_UNSTATED
