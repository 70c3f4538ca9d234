"""The main job sets aside (never deletes) an earlier run made with agents that have changed since."""

from __future__ import annotations

import json
from pathlib import Path

from harness.mira.cli import _describe_agents, _set_aside_if_stale
from harness.rundir import sha256_file


def _run_dir(path: Path, dataset: Path, agents: dict) -> None:
    path.mkdir()
    info = {"config": {"dataset_sha256": sha256_file(dataset)}, "agents": agents}
    (path / "run.json").write_text(json.dumps(info), encoding="utf-8")


def test_run_made_with_an_older_rule_responder_is_kept_aside(tmp_path: Path) -> None:
    dataset = tmp_path / "data.jsonl"
    dataset.write_text("{}\n", encoding="utf-8")
    old = _describe_agents("oracle", "rule")
    old["responder"]["matcher"] = "an older matcher"
    _run_dir(tmp_path / "run", dataset, old)
    _set_aside_if_stale(tmp_path / "run", dataset, "oracle", "rule")
    assert not (tmp_path / "run").exists() and (tmp_path / "run.stale-1" / "run.json").exists()


def test_run_made_with_the_same_agents_is_resumed(tmp_path: Path) -> None:
    dataset = tmp_path / "data.jsonl"
    dataset.write_text("{}\n", encoding="utf-8")
    _run_dir(tmp_path / "run", dataset, _describe_agents("oracle", "rule"))
    _set_aside_if_stale(tmp_path / "run", dataset, "oracle", "rule")
    assert (tmp_path / "run" / "run.json").exists() and not (tmp_path / "run.stale-1").exists()
