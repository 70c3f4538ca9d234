"""run_eval.py: the main job, score, agents, and the Elenchos extension point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import plugins
from harness.cli import main

FEW = ("--elenchos-repetitions", "1")  # the main job's shape; one Elenchos session per set and level keeps it quick


def test_main_job_regenerates_validates_runs_and_prints_tables(tmp_path: Path, capsys) -> None:
    out = tmp_path / "default"
    assert main(["main", "--out", str(out), "--n-a", "1", "--n-b", "1", "--no-figures", *FEW]) == 0
    printed = capsys.readouterr().out
    assert "Overall metrics (Table 6 style)" in printed and "Trace decomposition (Table 3 style)" in printed
    assert "ZS vs 4S" in printed
    summary = json.loads(printed.strip().splitlines()[-1])["mira"]
    assert summary["oracle/rule ZS"]["accuracy"] == summary["oracle/rule 4S"]["accuracy"] == 1.0
    assert summary["guess/rule ZS"]["accuracy"] < 0.5
    for name in ("mira_oracle_rule_zs", "mira_oracle_rule_4s", "mira_guess_zs", "mira_guess_4s"):
        assert json.loads((out / name / "run.json").read_text())["status"] == "complete"
    assert (out / "mira_report" / "comparison.md").exists()
    transcripts = (out / "mira_oracle_rule_zs" / "transcripts.jsonl").read_bytes()
    assert main(["main", "--out", str(out), "--n-a", "1", "--n-b", "1", "--no-figures", *FEW]) == 0  # resumes: no-op
    assert (out / "mira_oracle_rule_zs" / "transcripts.jsonl").read_bytes() == transcripts
    data = (out / "data" / "mira_zero_shot.jsonl").read_bytes()
    capsys.readouterr()
    assert main(["main", "--out", str(out), "--n-a", "1", "--n-b", "2", "--no-figures", *FEW]) == 2  # other settings
    assert "holds the main job for --n-b 1 (now 2)" in capsys.readouterr().err
    assert (out / "data" / "mira_zero_shot.jsonl").read_bytes() == data  # untouched
    run_json = out / "mira_oracle_rule_zs" / "run.json"  # a run made on other data (the generators changed)
    info = json.loads(run_json.read_text())
    info["config"]["dataset_sha256"] = "0" * 64
    run_json.write_text(json.dumps(info))
    assert main(["main", "--out", str(out), "--n-a", "1", "--n-b", "1", "--no-figures", *FEW]) == 0
    assert "kept as mira_oracle_rule_zs.stale-1" in capsys.readouterr().err
    assert (out / "mira_oracle_rule_zs.stale-1" / "transcripts.jsonl").read_bytes() == transcripts


def test_score_command_compares_runs(split_files: dict[str, Path], tmp_path: Path, capsys) -> None:
    for regime, path in split_files.items():
        assert main(["mira", "--dataset", str(path), "--out", str(tmp_path / regime), "--limit", "30", "--quiet"]) == 0
    code = main(["score", str(tmp_path / "zero_shot"), str(tmp_path / "four_shot"), "--compare-out",
                 str(tmp_path / "cmp"), "--no-figures"])
    assert code == 0
    assert "ZS vs 4S" in capsys.readouterr().out
    assert json.loads((tmp_path / "cmp" / "comparison.json").read_text())["zs_vs_4s"]


def test_agents_are_listed(capsys) -> None:
    assert main(["agents"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {"oracle", "guess"} <= set(listed["mira.solver"]) and "rule" in listed["mira.responder"]


def test_elenchos_says_not_available_until_its_plugin_exists(capsys) -> None:
    if plugins.benchmarks()["elenchos"].available:
        pytest.skip("the Elenchos harness is installed")
    assert main(["elenchos", "--suite", "ladder", "--agent", "sra", "--out", "x"]) == 2
    assert "not available yet" in capsys.readouterr().err
