"""Run folders at the edges (issue 17, and issue 13 item 5): nothing is created for a run that cannot start,
every session is recorded with how it ended, labels, benchmarks and main-job settings are checked, and only
options that can change results stop a resume.

CLI cases run ``run_eval.py`` in a subprocess (exit code, one line, no traceback, files untouched).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness import registry
from harness.errors import ConfigMismatch
from harness.mira.agents.oracle import OracleSolver
from harness.mira.run import MiraRunConfig, run_mira
from harness.mira.types import SolverAction, SolverTurn

ROOT = Path(__file__).resolve().parents[2]
CLOSED_PORT_URL = "http://127.0.0.1:9/v1"  # the discard port: nothing listens, the connection is refused


def run_eval(*args: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    environment["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, str(ROOT / "run_eval.py"), *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=300)


def one_line_error(proc: subprocess.CompletedProcess[str], text: str, code: int = 2) -> str:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], proc.stderr
    return lines[0]


@pytest.fixture()
def small_dataset(split_files: dict[str, Path], tmp_path: Path) -> Path:
    path = tmp_path / "small.jsonl"
    path.write_text("".join(split_files["zero_shot"].read_text().splitlines(keepends=True)[:3]))
    return path


# --- nothing is created for a run that cannot start ----------------------------------------------------

@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--solver", "nosuch"], "unknown mira.solver agent 'nosuch'"),
        (["--solver", "rule"], "unknown mira.solver agent 'rule' in spec 'rule' ('rule' is a mira.responder agent: "
                               "use --responder)"),
        (["--solver", "oracle", "--solver-opt", "colour=blue"], "unknown option"),
        (["--solver", "hf:./no-such-model"], "model path ./no-such-model does not exist"),
        (["--solver", "hf:tests/no-such-model"], "model path tests/no-such-model does not exist"),  # not a Hub id
        (["--solver", "openai:gpt-4o-mini"], "OPENAI_API_KEY"),
        (["--condition", "oracle_hint", "--responder", "rule"], "there is no responder; drop --responder"),
        (["--solver", "vllm:./some-model"], "vllm backend: vLLM is not installed"),
    ],
    ids=["unknown-agent", "responder-as-solver", "bad-option", "missing-model-path", "missing-model-path-without-dot",
         "missing-api-key", "oracle-hint-with-responder", "vllm-not-installed"],
)
def test_a_run_that_cannot_start_leaves_no_folder(small_dataset: Path, tmp_path: Path, args: list[str],
                                                  message: str) -> None:
    if args[1].startswith("vllm:") and importlib.util.find_spec("vllm") is not None:
        pytest.skip("vLLM is installed here")
    out = tmp_path / "run"
    one_line_error(run_eval("mira", "--dataset", str(small_dataset), "--out", str(out), *args), message)
    assert not out.exists()


@pytest.mark.parametrize(("model", "folder"), [("gpt2", False), ("meta-llama/Llama-3.2-1B", False),
                                               ("tests/tiny", True), ("a/b/c", True), ("./x", True), ("~/x", True)])
def test_a_model_spec_is_a_path_or_a_hub_repo_id(model: str, folder: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.backends.hf_engine import _names_a_folder

    monkeypatch.chdir(ROOT)  # where "tests" is a folder
    assert _names_a_folder(model, Path(model).expanduser()) is folder



def test_elenchos_bad_agent_leaves_no_folder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    one_line_error(run_eval("elenchos", "--agent", "nosuch", "--out", str(out)), "unknown elenchos.agent agent")
    assert not out.exists()


# --- sessions and their end status ---------------------------------------------------------------------

class InterruptingSolver(OracleSolver):
    """The oracle, but the first engine call of a session is interrupted as by Ctrl-C while ``armed``."""

    armed = True

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        if InterruptingSolver.armed:
            raise KeyboardInterrupt
        return super().act(turns)


@pytest.fixture()
def interrupting_solver():
    registry.register("mira.solver", "interrupting", lambda arg, options: InterruptingSolver())
    InterruptingSolver.armed = True
    yield
    registry.unregister("mira.solver", "interrupting")


def test_ctrl_c_is_recorded_and_every_session_is_kept(small_dataset: Path, tmp_path: Path,
                                                      interrupting_solver: None) -> None:
    cfg = MiraRunConfig(dataset=str(small_dataset), out=str(tmp_path / "run"), solver="interrupting",
                        progress=False)
    with pytest.raises(KeyboardInterrupt):
        run_mira(cfg)
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert info["status"] == "interrupted"
    assert [s["end_status"] for s in info["sessions"]] == ["interrupted"]
    InterruptingSolver.armed = False
    result = run_mira(cfg)
    assert result.ran == 3
    assert [s["end_status"] for s in result.info["sessions"]] == ["interrupted", "complete"]
    assert result.info["status"] == "complete"


def test_a_killed_session_is_marked_on_resume(small_dataset: Path, tmp_path: Path) -> None:
    cfg = MiraRunConfig(dataset=str(small_dataset), out=str(tmp_path / "run"), progress=False, limit=2)
    run_mira(cfg)
    run_json = tmp_path / "run" / "run.json"
    info = json.loads(run_json.read_text())
    info["sessions"][0]["end_status"] = "running"  # as a SIGKILL leaves it
    info["status"] = "running"
    (tmp_path / "run" / "transcripts.jsonl").write_text("")
    run_json.write_text(json.dumps(info))
    result = run_mira(cfg)
    assert [s["end_status"] for s in result.info["sessions"]] == ["killed (no end recorded)", "complete"]


def test_api_failure_is_recorded_names_the_url_and_resumes_with_other_retry_settings(
    small_dataset: Path, tmp_path: Path
) -> None:
    pytest.importorskip("openai")
    out = tmp_path / "run"
    base = ["mira", "--dataset", str(small_dataset), "--out", str(out), "--quiet", "--solver", "openai:some-model",
            "--solver-opt", f"base_url={CLOSED_PORT_URL}", "--solver-opt", "backoff_base=0"]
    first = run_eval(*base, "--solver-opt", "max_retries=0")
    line = one_line_error(first, f"APIConnectionError after 1 attempt(s) at {CLOSED_PORT_URL}")
    assert "can be resumed" in line
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "failed"
    assert info["sessions"][0]["end_status"] == "failed" and CLOSED_PORT_URL in info["sessions"][0]["error"]
    # Execution-only options may change between sessions: the resume runs (and fails on the network again).
    second = run_eval(*base, "--solver-opt", "max_retries=1", "--solver-opt", "timeout=5",
                      "--solver-opt", "concurrency=2", "--solver-opt", "on_error=raise")
    one_line_error(second, "APIConnectionError after 2 attempt(s)")
    info = json.loads((out / "run.json").read_text())
    assert [s["end_status"] for s in info["sessions"]] == ["failed", "failed"]
    assert info["sessions"][1]["execution"]["solver_options"] == {
        "backoff_base": "0", "max_retries": "1", "timeout": "5", "concurrency": "2", "on_error": "raise"}
    # What can change results still refuses.
    for changed in ("max_tokens=7", "base_url=http://127.0.0.1:10/v1"):
        third = run_eval(*base, "--solver-opt", changed)
        assert third.returncode == 2 and "refusing to resume" in third.stderr and "Traceback" not in third.stderr


# --- labels, benchmarks, run.json -----------------------------------------------------------------------

def test_a_changed_label_on_resume_is_applied_and_said(small_dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = run_eval("mira", "--dataset", str(small_dataset), "--out", str(out), "--quiet", "--label", "A")
    assert first.returncode == 0
    again = run_eval("mira", "--dataset", str(small_dataset), "--out", str(out), "--label", "B")
    assert again.returncode == 0
    assert f"{out}: label changed from 'A' to 'B'" in again.stderr.splitlines()
    assert json.loads((out / "run.json").read_text())["label"] == "B"
    assert json.loads((out / "metrics.json").read_text())["label"] == "B"


def test_elenchos_into_a_mira_folder_says_so_in_one_line(small_dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert run_eval("mira", "--dataset", str(small_dataset), "--out", str(out), "--quiet").returncode == 0
    before = (out / "run.json").read_bytes()
    one_line_error(run_eval("elenchos", "--out", str(out), "--limit", "1", "--quiet"),
                   f"{out} is a MIRA-Math run, not Elenchos; use a new --out directory")
    assert (out / "run.json").read_bytes() == before


@pytest.mark.parametrize("content", [b"\x89PNG\r\n\x1a\n\x00\x00", b"[1, 2, 3]\n"], ids=["binary", "not-an-object"])
def test_an_unreadable_run_json_is_one_line(small_dataset: Path, tmp_path: Path, content: bytes) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_bytes(content)
    one_line_error(run_eval("mira", "--dataset", str(small_dataset), "--out", str(out)), "run.json")
    assert (out / "run.json").read_bytes() == content


# --- the main job and options -----------------------------------------------------------------------------

def test_main_rerun_with_another_seed_is_refused_before_touching_data(tmp_path: Path) -> None:
    out = tmp_path / "main"
    (out / "data").mkdir(parents=True)
    (out / "main.json").write_text(json.dumps({"seed": 1234, "n_a": 20, "n_b": 50}))
    (out / "data" / "mira_zero_shot.jsonl").write_text("earlier data\n")
    proc = run_eval("main", "--out", str(out), "--seed", "7")
    one_line_error(proc, "holds the main job for --seed 1234 (now 7); use a new --out directory, or --fresh")
    assert (out / "data" / "mira_zero_shot.jsonl").read_text() == "earlier data\n"


def test_a_folder_of_runs_and_a_run_folder_are_not_mistaken_for_each_other(tmp_path: Path, small_dataset) -> None:
    main = tmp_path / "default"
    (main / "mira_oracle_rule_zs").mkdir(parents=True)
    (main / "main.json").write_text(json.dumps({"seed": 1234}))
    proc = run_eval("mira", "--dataset", str(small_dataset), "--out", str(main))  # a run into the main job's folder
    one_line_error(proc, f"{main} is a folder of runs (the main job's, main.json), not a run directory")
    (main / "main.json").unlink()
    (main / "mira_oracle_rule_zs" / "run.json").write_text("{}")
    one_line_error(run_eval("mira", "--dataset", str(small_dataset), "--out", str(main)),
                   "is a folder of runs (mira_oracle_rule_zs/run.json)")
    assert sorted(p.name for p in main.iterdir() if p.name != ".lock") == ["mira_oracle_rule_zs"]
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text("{}")
    one_line_error(run_eval("main", "--out", str(run)), f"{run} is a run directory (it has run.json)")
    assert sorted(p.name for p in run.iterdir() if p.name != ".lock") == ["run.json"]


def test_score_on_a_folder_sets_aside_what_it_cannot_score_and_scores_the_rest(small_dataset: Path, tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture[str]
                                                                              ) -> None:
    import shutil

    from harness.cli import main

    runs = tmp_path / "runs"
    assert main(["mira", "--dataset", str(small_dataset), "--out", str(runs / "a"), "--quiet"]) == 0
    assert main(["rejudge", str(runs / "a"), "--responder", "rule", "--out", str(runs / "a-rejudged")]) == 0
    (runs / "down").mkdir()  # a run that stopped before its first instance (a server that was down)
    shutil.copy(runs / "a" / "run.json", runs / "down" / "run.json")
    (runs / "down" / "transcripts.jsonl").write_text("")
    capsys.readouterr()
    assert main(["score", str(runs), "--no-figures"]) == 0
    err = capsys.readouterr().err
    assert f"{runs / 'a-rejudged'}: a rejudge folder (its agreement is in agreement.json); not scored" in err
    assert f"{runs / 'down'}: no finished instance yet; not scored" in err
    assert f"{runs} is a folder of 1 run(s); scoring each: a" in err
    shutil.rmtree(runs / "a")
    assert main(["score", str(runs), "--no-figures"]) == 2
    assert "none of its runs can be scored" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["mira", "elenchos"])
def test_fsync_has_help(command: str) -> None:
    text = " ".join(run_eval(command, "--help").stdout.split())
    assert "--fsync {step,each} when finished transcript lines are forced to disk" in text


def test_resume_identity_ignores_only_execution_options() -> None:
    from harness.rundir import check_config, same_identity

    old = {"benchmark": "mira", "solver": "openai:m", "solver_options": {"max_retries": "6", "max_tokens": "64"}}
    check_config(old, {**old, "solver_options": {"max_retries": "0", "timeout": "9", "max_tokens": "64"}}, Path("r"))
    with pytest.raises(ConfigMismatch):
        check_config(old, {**old, "solver_options": {"max_tokens": "65"}}, Path("r"))
    agent: dict[str, Any] = {"engine": {"backend": "openai", "base_url": None, "concurrency": 16}}
    assert same_identity(agent, {"engine": {"backend": "openai", "base_url": None, "concurrency": 4}})
    assert not same_identity(agent, {"engine": {"backend": "openai", "base_url": "http://x", "concurrency": 16}})
