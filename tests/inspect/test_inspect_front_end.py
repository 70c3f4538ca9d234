"""The inspect_ai front end gives the same per-instance results as ``run_eval.py`` for the same replies.

Both front ends are driven by one script (``harness.scripted``): ``run_eval.py`` through the ``scripted:``
agents, inspect through its ``mockllm`` provider (outputs in sample order, ``max_samples=1``) and, from the
command line, through our ``scripted`` provider. The transcripts, once imported with ``import-inspect``, must
equal ours line for line (token usage aside: only inspect's providers report it), and so must the metrics.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install -e '.[inspect]')")

from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from harness.elenchos.run import ElenchosRunConfig, run_elenchos
from harness.inspect_adapter.elenchos import elenchos_task
from harness.inspect_adapter.importer import import_log
from harness.inspect_adapter.mira import mira_task, mock_outputs, tool_system_prompt
from harness.mira.run import MiraRunConfig, run_mira
from harness.rundir import read_transcripts

ROOT = Path(__file__).resolve().parents[2]


def _lines(run_dir: Path) -> dict[str, dict[str, Any]]:
    records = read_transcripts(run_dir / "transcripts.jsonl").records
    return {k: {f: v for f, v in r.items() if f != "usage"} for k, r in records.items()}


def _metrics(run_dir: Path) -> dict[str, Any]:
    data = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))
    data.pop("label", None)
    data.pop("agent", None)
    return data


def _mock(script: dict[str, list[dict[str, Any]]], ids: list[str]) -> Any:
    return get_model("mockllm/model", custom_outputs=mock_outputs(script, ids), memoize=False)


def _log(logs: list[Any]) -> str:
    assert len(logs) == 1 and logs[0].status == "success", logs[0].error
    return logs[0].location


def _assert_same(ours: Path, theirs: Path) -> None:
    a, b = _lines(ours), _lines(theirs)
    assert sorted(a) == sorted(b)
    for key in a:
        assert a[key] == b[key], key
    assert _metrics(ours) == _metrics(theirs)


# ---------------------------------------------------------------------------------------------- MIRA-Math
@pytest.fixture(scope="module")
def mira_reference(mira_files: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ours") / "mira"
    run_mira(MiraRunConfig(dataset=str(mira_files["dataset"]), out=str(out),
                           solver=f"scripted:{mira_files['script_path']}", responder="rule", progress=False))
    return out


def test_mira_script_covers_the_protocol(mira_reference: Path, mira_files: dict[str, Any]) -> None:
    lines = _lines(mira_reference)
    reasons = {line["end_reason"] for line in lines.values()}
    assert {"answered", "request_after_offer"} <= reasons
    assert any(line["live_metrics"]["solver_parse_errors"] for line in lines.values())
    assert any(line["live_metrics"]["declines"] for line in lines.values())
    correct = [line["live_metrics"]["correct"] for line in lines.values()]
    assert 0 < sum(correct) < len(correct)
    # every scripted reply was used, so the mock's single output stream lines up with the samples
    used = sum(len(line["events"]) - sum(e["agent"] == "B" for e in line["events"]) for line in lines.values())
    assert used == sum(len(v) for v in mira_files["script"].values())


def test_mira_same_results_through_inspect_mockllm(mira_reference: Path, mira_files: dict[str, Any],
                                                   tmp_path: Path) -> None:
    ids = [inst["id"] for inst in mira_files["instances"]]
    logs = inspect_eval(mira_task(str(mira_files["dataset"])), model=_mock(mira_files["script"], ids),
                        max_samples=1, log_dir=str(tmp_path / "logs"), display="none")
    log = logs[0]
    assert log.status == "success", log.error
    imported = tmp_path / "imported"
    result = import_log(_log(logs), str(imported))
    assert result["imported"] == len(ids) and not result["skipped"]
    _assert_same(mira_reference, imported)
    # inspect's own scores are ours too
    ours = _lines(mira_reference)
    for sample in log.samples:
        value = next(iter(sample.scores.values())).value
        assert value["correct"] == ours[sample.id]["live_metrics"]["correct"]
        assert value["requests"] == ours[sample.id]["live_metrics"]["requests"]
    info = json.loads((imported / "run.json").read_text(encoding="utf-8"))
    assert info["config"]["solver"] == "inspect:mockllm/model" and info["source"]["task"] == "mira_math"
    # the model saw native tools and no JSON reply format
    first = log.samples[0]
    assert first.messages[0].content == tool_system_prompt()
    assert "JSON object" not in tool_system_prompt() and "ask_partner" in tool_system_prompt()
    model_event = next(e for e in first.events if e.event == "model")
    assert {t.name for t in model_event.tools} == {"ask_partner", "submit_answer"}


def test_mira_scored_by_run_eval_after_import(mira_files: dict[str, Any], tmp_path: Path) -> None:
    ids = [inst["id"] for inst in mira_files["instances"]]
    logs = inspect_eval(mira_task(str(mira_files["dataset"]), limit=2), model=_mock(mira_files["script"], ids[:2]),
                        max_samples=1, log_dir=str(tmp_path / "logs"), display="none")
    run_dir = tmp_path / "run"
    import_log(_log(logs), str(run_dir))
    proc = subprocess.run([sys.executable, "run_eval.py", "score", str(run_dir), "--no-figures"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "reproduced exactly" in proc.stdout + proc.stderr
    assert (run_dir / "report.md").exists()
    again = subprocess.run([sys.executable, "run_eval.py", "import-inspect", _log(logs), "--out", str(run_dir)],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode != 0 and "not empty" in again.stderr


def test_mira_oracle_hint_condition(mira_files: dict[str, Any], tmp_path: Path) -> None:
    inst = mira_files["instances"][0]
    script = {inst["id"]: [{"tool": "ask_partner", "arguments": {"request": "What is it?"}}]}
    logs = inspect_eval(mira_task(str(mira_files["dataset"]), condition="oracle_hint", limit=1),
                        model=_mock(script, [inst["id"]]), log_dir=str(tmp_path / "logs"), display="none")
    line = logs[0].samples[0].store["mira_transcript"]
    assert line["condition"] == "oracle_hint" and line["end_reason"] == "request_after_budget"
    assert line["events"][0]["type"] == "hint_given"


# ---------------------------------------------------------------------------------------------- Elenchos
@pytest.fixture(scope="module")
def elenchos_reference(elenchos_files: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ours") / "elenchos"
    run_elenchos(ElenchosRunConfig(out=str(out), agent=f"scripted:{elenchos_files['script_path']}",
                                   sessions_file=str(elenchos_files["sessions"]), progress=False))
    return out


def test_elenchos_same_results_through_inspect_mockllm(elenchos_reference: Path, elenchos_files: dict[str, Any],
                                                       tmp_path: Path) -> None:
    lines = _lines(elenchos_reference)
    assert [line["end_reason"] for line in lines.values()] == ["submitted"] * 3
    assert sorted(line["live_metrics"]["V"] for line in lines.values()) == [0, 1, 1]
    assert any(not e["ok"] for line in lines.values() for e in line["events"])
    ids = [r["id"] for r in elenchos_files["records"]]
    logs = inspect_eval(elenchos_task(sessions=str(elenchos_files["sessions"])),
                        model=_mock(elenchos_files["script"], ids), max_samples=1, log_dir=str(tmp_path / "logs"),
                        display="none")
    imported = tmp_path / "imported"
    import_log(_log(logs), str(imported))
    _assert_same(elenchos_reference, imported)
    sample = logs[0].samples[0]
    system = sample.messages[0].content
    assert "Your job is to identify whether any kernel is corrupted" in system  # the Level-3 prompt
    assert "How to call a tool" not in system  # native tools: no JSON calling convention
    for s in logs[0].samples:
        value = next(iter(s.scores.values())).value
        assert value["V"] == lines[s.id]["live_metrics"]["V"]
        assert value["E_ELX"] == pytest.approx(lines[s.id]["live_metrics"]["E_ELX"])


# ---------------------------------------------------------------------------------------------- command line
def _inspect_cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("inspect")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "inspect_ai"]
    env = {**os.environ, "INSPECT_DISPLAY": "none"}
    return subprocess.run(cmd + args, cwd=cwd, capture_output=True, text=True, timeout=600, env=env)


def test_both_tasks_under_inspect_eval_cli(mira_reference: Path, elenchos_reference: Path,
                                           mira_files: dict[str, Any], elenchos_files: dict[str, Any],
                                           tmp_path: Path) -> None:
    """``inspect eval harness/inspect_tasks.py@...`` with the ``scripted`` provider (samples run concurrently)."""
    for task, params, script, reference in (
        ("mira_math", ["-T", f"dataset={mira_files['dataset']}"], mira_files["script_path"], mira_reference),
        ("elenchos", ["-T", f"sessions={elenchos_files['sessions']}"], elenchos_files["script_path"],
         elenchos_reference),
    ):
        logs = tmp_path / f"logs_{task}"
        proc = _inspect_cli(["eval", f"harness/inspect_tasks.py@{task}", *params, "--model", f"scripted/{script}",
                             "--log-dir", str(logs)], ROOT)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        (log_file,) = list(logs.glob("*.eval"))
        imported = tmp_path / f"imported_{task}"
        import_log(str(log_file), str(imported))
        _assert_same(reference, imported)


# ---------------------------------------------------------------------------------------------- export folders
def test_tasks_read_our_export_folders(tmp_path: Path) -> None:
    from builder.export import export
    from elenchos.sessions import sessions
    from generators.split import generate, typed_slots

    out = tmp_path / "export"
    export(out, configs=["mira_zero_shot", "elenchos_benchmark"], code_commit="0" * 40, log=lambda _m: None,
           seed=4321, n_a=1, n_b=1, difficulties=(1,), repetitions=1)
    task = mira_task(dataset=str(out), limit=3)
    expected = list(generate(typed_slots(1, 1, (1,))[:3], 4321))
    assert [s.metadata["instance"] for s in task.dataset] == expected
    assert task.metadata["mira_run"]["dataset"] == f"export:{out}:mira_zero_shot"
    task = elenchos_task(suite="benchmark", sessions=str(out), limit=2)
    assert [s.metadata["session"] for s in task.dataset] == list(sessions("benchmark", 4321, 1))[:2]


def test_import_refuses_what_it_cannot_read(tmp_path: Path, mira_files: dict[str, Any]) -> None:
    from harness.errors import HarnessError

    with pytest.raises(HarnessError, match="no such inspect log"):
        import_log(str(tmp_path / "missing.eval"), str(tmp_path / "run"))
    junk = tmp_path / "junk.eval"
    junk.write_bytes(b"not a zip")
    with pytest.raises(HarnessError, match="not a readable inspect log"):
        import_log(str(junk), str(tmp_path / "run"))
    inst = mira_files["instances"][0]
    script = {inst["id"]: [{"tool": "submit_answer", "arguments": {"answer": inst["global_solution"]}}] * 2}
    logs = inspect_eval(mira_task(str(mira_files["dataset"]), limit=1), model=_mock(script, [inst["id"]]), epochs=2,
                        log_dir=str(tmp_path / "logs"), display="none")
    with pytest.raises(HarnessError, match="several epochs"):
        import_log(_log(logs), str(tmp_path / "run"))
    assert not (tmp_path / "run").exists()


def test_mira_responder_as_an_inspect_model_role(mira_files: dict[str, Any], tmp_path: Path) -> None:
    """``responder=role``: B is ``--model-role responder=...``, read like our model responders."""
    from inspect_ai.model import ModelOutput, ModelUsage

    inst = mira_files["instances"][0]
    view_b = next(v["private_data"] for v in inst["agent_views"] if v["agent_id"] == "B")
    hint = inst["minimal_hint_spec"]["atomic_hints"][0]["text"]
    b_replies = ["Sorry, I am not sure what you need.",  # unreadable: a decline with a parse error
                 '{"type": "decline", "has_exact_match": false, "constraint_quoted": null, "hint": null}',
                 json.dumps({"type": "offer", "has_exact_match": True, "constraint_quoted": hint, "hint": hint})]
    assert hint in view_b["constraints_text"]
    outputs = []
    for text in b_replies:
        out = ModelOutput.from_content(model="mockllm/model", content=text)
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        outputs.append(out)
    ask = {"tool": "ask_partner", "arguments": {"request": "What is the missing value?"}}
    script = {inst["id"]: [ask, ask, ask, {"tool": "submit_answer", "arguments": {"answer": inst["global_solution"]}}]}
    logs = inspect_eval(mira_task(str(mira_files["dataset"]), responder="role", limit=1),
                        model=_mock(script, [inst["id"]]),
                        model_roles={"responder": get_model("mockllm/model", custom_outputs=outputs, memoize=False)},
                        log_dir=str(tmp_path / "logs"), display="none")
    line = logs[0].samples[0].store["mira_transcript"]
    kinds = [(e["agent"], e["type"]) for e in line["events"]]
    assert kinds == [("A", "request"), ("B", "decline"), ("A", "request"), ("B", "decline"), ("A", "request"),
                     ("B", "offer"), ("A", "final")]
    assert line["events"][1]["parse_error"] and "parse_error" not in line["events"][3]
    assert line["live_metrics"]["correct"] == 1 and line["live_metrics"]["requests_before_first_offer"] == 2
    assert line["usage"]["responder"]["completion_tokens"] == 15
    run = logs[0].samples[0].store["mira_run"]
    assert run["responder_describe"]["model_role"] == "responder"


def test_import_refuses_a_store_entry_that_is_not_a_transcript_line() -> None:
    from types import SimpleNamespace

    from harness.errors import HarnessError
    from harness.inspect_adapter.importer import _transcripts

    sample = SimpleNamespace(id="bay-1", error=None, store={"mira_transcript": ["edited"], "mira_run": {}})
    with pytest.raises(HarnessError, match=r"log.eval \[bay-1\]: store\['mira_transcript'\] is not a transcript"):
        _transcripts("log.eval", [sample])
