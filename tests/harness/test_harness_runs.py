"""Whole runs: oracle+rule is perfect on every family, guess is the floor, resume loses and duplicates
nothing, re-scoring reproduces the live metrics, bad input gives file:line messages."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generators.families import FAMILIES
from harness.errors import ConfigMismatch, HarnessError, InputError, InputErrors
from harness.mira.metrics import instance_metrics
from harness.mira.run import MiraRunConfig, run_mira
from harness.mira.score import score_run, score_runs
from harness.rundir import sha256_file

ROOT = Path(__file__).resolve().parents[2]


def run(dataset: Path, out: Path, **kw) -> dict:
    return run_mira(MiraRunConfig(dataset=str(dataset), out=str(out), progress=False, **kw)).metrics


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def oracle_runs(split_files: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("runs")
    out = {}
    for regime, path in split_files.items():
        out[regime] = root / f"oracle_{regime}"
        run(path, out[regime])
    return out


@pytest.mark.parametrize("regime", ["zero_shot", "four_shot"])
def test_oracle_rule_is_perfect_on_every_family(oracle_runs: dict[str, Path], regime: str) -> None:
    metrics = json.loads((oracle_runs[regime] / "metrics.json").read_text())
    assert set(metrics["by_family"]) == set(FAMILIES)
    for name, m in [("overall", metrics["overall"]), *metrics["by_family"].items()]:
        assert m["accuracy"] == 1.0 and m["first_request_success"] == 1.0, name
        assert m["hit_rate"] == 1.0 and m["avg_requests"] == 1.0 and m["p_success"] == 1.0, name
    info = json.loads((oracle_runs[regime] / "run.json").read_text())
    assert info["config"]["regime"] == regime and info["status"] == "complete"
    assert info["transcript_sha256"] == sha256_file(oracle_runs[regime] / "transcripts.jsonl")


def test_few_shot_examples_reach_the_solver_only_in_four_shot(oracle_runs: dict[str, Path]) -> None:
    for regime in ("zero_shot", "four_shot"):
        assert all(r["regime"] == regime for r in lines(oracle_runs[regime] / "transcripts.jsonl"))


def test_guess_is_the_floor(split_files: dict[str, Path], instances: list[dict], tmp_path: Path) -> None:
    metrics = run(split_files["zero_shot"], tmp_path / "guess", solver="guess")["overall"]
    zeros = sum(all(v == 0 for k, v in i["global_solution"].items() if k != "denominator") for i in instances)
    assert metrics["accuracy"] == zeros / len(instances) < 0.5
    assert metrics["avg_requests"] == 0 and metrics["hit_rate"] is None and metrics["hit_rate_zero_filled"] == 0
    assert metrics["p_no_canonical"] + metrics["p_success"] == pytest.approx(1.0)


def test_oracle_hint_condition(split_files: dict[str, Path], tmp_path: Path) -> None:
    metrics = run(split_files["four_shot"], tmp_path / "oh", condition="oracle_hint")["overall"]
    assert metrics["accuracy"] == 1.0 and metrics["hit_rate"] is None and metrics["avg_requests"] is None
    info = json.loads((tmp_path / "oh" / "run.json").read_text())
    assert info["config"]["responder"] is None and info["engine_calls"]["engine_calls"] == 1


def test_rescoring_reproduces_the_live_metrics_exactly(oracle_runs: dict[str, Path], split_files, tmp_path) -> None:
    guess = tmp_path / "guess"
    run(split_files["zero_shot"], guess, solver="guess")
    for path in (oracle_runs["zero_shot"], guess):
        live = json.loads((path / "metrics.json").read_text())
        scored = score_run(path, figures=False)
        assert json.loads((path / "metrics.json").read_text()) == live
        assert json.loads(json.dumps({"benchmark": "mira", "label": scored.label, **scored.summary})) == live
        for record in lines(path / "transcripts.jsonl"):
            assert instance_metrics(record) == record["live_metrics"], record["instance_id"]


def test_reports_and_zs_vs_4s_deltas(oracle_runs: dict[str, Path], tmp_path: Path) -> None:
    runs = score_runs([str(oracle_runs["zero_shot"]), str(oracle_runs["four_shot"])], out=str(tmp_path), quiet=True)
    for name in ("scores.json", "per_instance.csv", "by_family.csv", "by_group.csv", "report.md",
                 "accuracy_by_family.png", "accuracy_by_difficulty.png"):
        assert (runs[0].path / name).stat().st_size > 0, name
    for name in ("comparison.md", "comparison.csv", "accuracy_by_regime.png", "accuracy_by_type.png",
                 "accuracy_by_difficulty.png"):
        assert (tmp_path / name).stat().st_size > 0, name
    deltas = json.loads((tmp_path / "comparison.json").read_text())["zs_vs_4s"]
    assert len(deltas) == 1 and deltas[0]["overall"]["accuracy"] == 0
    assert "Table 6 style" in (tmp_path / "comparison.md").read_text()


# ------------------------------------------------------------------------------ resume
def sorted_lines(path: Path) -> list[dict]:
    return sorted(lines(path), key=lambda r: r["instance_id"])


def test_resume_after_kill_loses_and_duplicates_nothing(split_files: dict[str, Path], tmp_path: Path) -> None:
    dataset, out, reference = split_files["zero_shot"], tmp_path / "killed", tmp_path / "reference"
    opts = ["--solver-opt", "delay_s=0.005", "--responder-opt", "delay_s=0.005"]
    cmd = [sys.executable, str(ROOT / "run_eval.py"), "mira", "--dataset", str(dataset), "--out", str(out),
           "--max-concurrent", "2", "--quiet", *opts]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    transcripts = out / "transcripts.jsonl"
    deadline = time.time() + 30
    while time.time() < deadline and (not transcripts.exists() or transcripts.read_bytes().count(b"\n") < 20):
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = transcripts.read_bytes().count(b"\n")
    assert 20 <= done_before < 132, "the run must be killed mid-way"
    with open(transcripts, "ab") as f:  # and a line cut by the crash
        f.write(b'{"format":"mira-transcript/1","instance_id":"cut-')
    resumed = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    assert "cut by a crash" in resumed.stderr
    run(dataset, reference, max_concurrent=2, solver_options={"delay_s": "0.005"},
        responder_options={"delay_s": "0.005"})
    got, want = sorted_lines(transcripts), sorted_lines(reference / "transcripts.jsonl")
    assert [r["instance_id"] for r in got] == [r["instance_id"] for r in want]
    assert got == want
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "complete" and info["sessions"][-1]["resumed_with"] == done_before
    assert json.loads((out / "metrics.json").read_text())["overall"] == json.loads(
        (reference / "metrics.json").read_text())["overall"]


def test_partial_last_line_is_redone(oracle_runs: dict[str, Path], split_files, tmp_path: Path) -> None:
    out = tmp_path / "partial"
    shutil.copytree(oracle_runs["zero_shot"], out)
    data = (out / "transcripts.jsonl").read_bytes()
    cut = data.rstrip(b"\n").rfind(b"\n") + 1
    (out / "transcripts.jsonl").write_bytes(data[: cut + 40])
    run(split_files["zero_shot"], out)
    assert (out / "transcripts.jsonl").read_bytes() == data
    assert (out / "transcripts.partial").exists()


def test_refuses_to_resume_onto_other_data_or_settings(oracle_runs, split_files, tmp_path: Path) -> None:
    out = tmp_path / "r"
    shutil.copytree(oracle_runs["zero_shot"], out)
    before = sha256_file(out / "transcripts.jsonl")
    with pytest.raises(ConfigMismatch, match="dataset_sha256"):
        run(split_files["four_shot"], out)
    with pytest.raises(ConfigMismatch, match="solver"):
        run(split_files["zero_shot"], out, solver="guess")
    with pytest.raises(ConfigMismatch, match="limit"):
        run(split_files["zero_shot"], out, limit=5)
    assert sha256_file(out / "transcripts.jsonl") == before


def test_corrupt_middle_transcript_line_is_reported_and_untouched(oracle_runs, split_files, tmp_path) -> None:
    out = tmp_path / "corrupt"
    shutil.copytree(oracle_runs["zero_shot"], out)
    text = (out / "transcripts.jsonl").read_text().splitlines(keepends=True)
    text[2] = text[2][:30] + "\n"
    (out / "transcripts.jsonl").write_text("".join(text))
    before = sha256_file(out / "transcripts.jsonl")
    with pytest.raises(InputError, match=r"transcripts.jsonl:3: corrupt transcript line"):
        run(split_files["zero_shot"], out)
    assert sha256_file(out / "transcripts.jsonl") == before


# ------------------------------------------------------------------------------ bad input
@pytest.fixture
def bad_dataset(split_files: dict[str, Path], tmp_path: Path) -> Path:
    rows = split_files["zero_shot"].read_text().splitlines()
    rows[2] = rows[2][:50]  # malformed JSON
    rec = json.loads(rows[4])
    rec["family"] = "no_such_family"
    rows[4] = json.dumps(rec)
    rec = json.loads(rows[6])
    del rec["minimal_hint_spec"]["atomic_hints"][0]["request_aliases"]
    rows[6] = json.dumps(rec)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_bad_dataset_lines_are_named_and_nothing_runs(bad_dataset: Path, tmp_path: Path) -> None:
    with pytest.raises(InputErrors) as err:
        run(bad_dataset, tmp_path / "out")
    message = str(err.value)
    assert f"{bad_dataset}:3: malformed JSON at column" in message
    assert f"{bad_dataset}:5 [" in message and "unknown family 'no_such_family'" in message
    assert f"{bad_dataset}:7 [" in message and "request_aliases" in message
    assert not (tmp_path / "out").exists()


def test_cli_reports_bad_input_without_traceback(bad_dataset: Path, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "run_eval.py"), "mira", "--dataset", str(bad_dataset),
                           "--out", str(tmp_path / "o")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and f"{bad_dataset}:3:" in proc.stderr


def test_unknown_agent_and_missing_file_are_clear(split_files: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(HarnessError, match=r"unknown mira\.solver agent 'nosuch'.*known: (.*, )?guess, (.*, )?oracle"):
        run(split_files["zero_shot"], tmp_path / "a", solver="nosuch:model")
    with pytest.raises(HarnessError, match="cannot read dataset"):
        run(tmp_path / "missing.jsonl", tmp_path / "b")
    with pytest.raises(HarnessError, match="four-shot regime needs few_shot_examples"):
        run(split_files["zero_shot"], tmp_path / "c", regime="four_shot")
