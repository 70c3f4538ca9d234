"""Command line: probe, diff and the REPL."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from lambdapy import Kernel, KernelConfig
from lambdapy.__main__ import main
from lambdapy.repl import run_repl

ROOT = Path(__file__).resolve().parents[2]
PROBE = "assume A : Type\nassume x y : A\neval (((\\u -> \\v -> u) : A -> A -> A) x) y\n"


def test_probe_command_prints_the_observation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "probe.lp"
    path.write_text(PROBE)
    assert main(["probe", "--mutations", "ID_04,ID_06", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"sigma": "accept", "result": "y : A", "epsilon": None}


def test_diff_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "probe.lp"
    path.write_text(PROBE)
    assert main(["diff", "--a", "ID_08", "--b", "none", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mutations_A"] == ["ID_08"] and report["mutations_B"] == []
    assert report["K_A"]["result"] == "_ : A" and report["K_B"]["result"] == "x : A"
    assert report["diff"] == "result divergence: A=_ : A, B=x : A"


def test_unknown_mutation_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "probe.lp"
    path.write_text(PROBE)
    with pytest.raises(SystemExit) as caught:
        main(["probe", "--mutations", "ID_99", str(path)])
    assert caught.value.code == 2


def test_module_runs_as_a_script_reading_stdin() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "lambdapy", "probe", "-"],
        input="eval Succ Zero : Nat\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert json.loads(completed.stdout)["result"] == "Succ Zero : Nat"


def test_repl_session() -> None:
    lines = "\n".join(
        [
            "assume A : Type",
            "let id = (\\x -> x) : A -> A",
            ":context",
            "eval id",
            "eval Zero : A",
            ":reset",
            ":context",
            ":quit",
            "eval Zero",
        ]
    )
    out = io.StringIO()
    run_repl(Kernel(KernelConfig()), io.StringIO(lines + "\n"), out)
    assert out.getvalue().splitlines() == [
        "A : Type",
        "id : A -> A",
        "assume A : Type",
        "let id : A -> A = \\x -> x",
        "\\x -> x : A -> A",
        "error: type_error: type mismatch: expected A, but `Zero` has type Nat",
        "context cleared",
        "(empty context)",
    ]
