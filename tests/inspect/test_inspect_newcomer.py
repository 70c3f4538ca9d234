"""docs/inspect.md's commands as a newcomer types them (issue 26, item 2): a relative ``-T dataset=`` is read from
the directory ``inspect eval`` runs in, the entry-point name ``mira_elenchos/mira_math`` finds the task, and
inspect's own ``hit_rate`` equals ours (no ``None`` turned into 0)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install -e '.[inspect]')")

from inspect_ai import eval as inspect_eval
from inspect_ai._util.registry import registry_lookup
from inspect_ai.log import read_eval_log

from harness.inspect_adapter.importer import import_log
from harness.inspect_adapter.mira import mira_task, mock_outputs

ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINT_INSTALLED = any(ep.name == "mira_elenchos" for ep in entry_points(group="inspect_ai"))


def _inspect(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("inspect")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "inspect_ai"]
    # PWD: what a shell sets for the directory the command is typed in
    env = {**os.environ, "INSPECT_DISPLAY": "none", "PYTHONPATH": str(ROOT), "PWD": str(cwd)}
    return subprocess.run(cmd + args, cwd=cwd, capture_output=True, text=True, timeout=600, env=env)


def _hit_rates(log_file: Path, tmp_path: Path) -> tuple[float, float]:
    """(inspect's hit_rate metric, ours after import-inspect) for one log."""
    log = read_eval_log(str(log_file))
    assert log.status == "success", log.error
    (theirs,) = [s.metrics["defined_mean"].value for s in log.results.scores if s.name == "hit_rate"]
    run_dir = tmp_path / f"imported-{log_file.stem}"
    import_log(str(log_file), str(run_dir))
    ours = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))["overall"]["hit_rate"]
    return theirs, ours


def test_a_relative_dataset_is_read_from_where_inspect_runs(mira_files: dict[str, Any], tmp_path: Path) -> None:
    """``inspect eval harness/inspect_tasks.py@mira_math -T dataset=REL`` (inspect runs the file's code in harness/)."""
    root: Path = mira_files["root"]
    logs = tmp_path / "logs"
    proc = _inspect(["eval", str(ROOT / "harness" / "inspect_tasks.py") + "@mira_math", "-T",
                     f"dataset={mira_files['dataset'].name}", "--model", f"scripted/{mira_files['script_path']}",
                     "--log-dir", str(logs)], root)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Unable to convert value to float" not in proc.stdout + proc.stderr
    (log_file,) = logs.glob("*.eval")
    theirs, ours = _hit_rates(log_file, tmp_path)
    assert ours is not None and theirs == pytest.approx(ours)


def test_the_entry_point_names_both_tasks() -> None:
    import harness.inspect_adapter._registry  # noqa: F401  (what inspect loads for the entry point)

    assert registry_lookup("task", "mira_elenchos/mira_math") is not None
    assert registry_lookup("task", "mira_elenchos/elenchos") is not None


@pytest.mark.skipif(not ENTRY_POINT_INSTALLED, reason="the package's inspect_ai entry point is not installed "
                                                      "(pip install -e '.[inspect]')")
def test_inspect_eval_through_the_entry_point(mira_files: dict[str, Any], tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    proc = _inspect(["eval", "mira_elenchos/mira_math", "-T", f"dataset={mira_files['dataset'].name}", "-T",
                     "limit=2", "--model", f"scripted/{mira_files['script_path']}", "--log-dir", str(logs)],
                    mira_files["root"])
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (log_file,) = logs.glob("*.eval")
    assert read_eval_log(str(log_file), header_only=True).results.total_samples == 2


def test_inspect_hit_rate_skips_instances_without_responder_messages(mira_files: dict[str, Any],
                                                                     tmp_path: Path) -> None:
    """One instance of the script answers without asking (our hit_rate is None there): inspect must not count 0."""
    ids = [inst["id"] for inst in mira_files["instances"]]
    from inspect_ai.model import get_model

    model = get_model("mockllm/model", custom_outputs=mock_outputs(mira_files["script"], ids), memoize=False)
    logs = inspect_eval(mira_task(str(mira_files["dataset"])), model=model, max_samples=1,
                        log_dir=str(tmp_path / "logs"), display="none")
    log_file = Path(logs[0].location)
    theirs, ours = _hit_rates(log_file, tmp_path)
    undefined = [s for s in read_eval_log(str(log_file)).samples if s.scores["mira_scorer"].value["hit_rate"]
                 != s.scores["mira_scorer"].value["hit_rate"]]  # NaN: no responder message
    assert undefined, "the script should have an instance without responder messages"
    assert theirs == pytest.approx(ours)


def test_a_relative_model_folder_of_the_responder_is_read_from_the_caller(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.inspect_tasks import TASK_DIR, spec_from_caller

    (tmp_path / "runs" / "tiny").mkdir(parents=True)
    monkeypatch.chdir(TASK_DIR)  # where inspect runs a task file's code
    monkeypatch.setenv("PWD", str(tmp_path))  # where `inspect eval` was started
    assert spec_from_caller("hf:./runs/tiny") == f"hf:{tmp_path / 'runs' / 'tiny'}"
    assert spec_from_caller("cascade:hf:runs/tiny") == f"cascade:hf:{tmp_path / 'runs' / 'tiny'}"
    for kept in ("rule", "openai:gpt-4o-mini", "hf:ORG/NAME", "hf:/models/x"):
        assert spec_from_caller(kept) == kept
