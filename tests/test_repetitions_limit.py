"""One bound on Elenchos repetitions (``generators.limits.MAX_REPETITIONS``), with one wording, for generation,
exports, their manifests, ``run_eval.py elenchos`` and ``run_eval.py main``: a count generation accepts can be run."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from builder import untrusted as export_untrusted
from builder.export import check_counts
from generators.limits import MAX_REPETITIONS, REPETITIONS_RULE, repetitions_problem
from harness.elenchos.cli import main_step
from harness.elenchos.run import ElenchosRunConfig, validate
from harness.errors import HarnessError

ROOT = Path(__file__).resolve().parent.parent
RULE = "must be 1 to 1,000 (sessions per set and level; the papers use 5)"


def test_the_one_limit_and_its_wording() -> None:
    assert MAX_REPETITIONS == 1_000 and REPETITIONS_RULE == RULE
    assert repetitions_problem(1) is None and repetitions_problem(MAX_REPETITIONS) is None
    for bad in (0, -3, MAX_REPETITIONS + 1, True, "5", 2.0):
        assert repetitions_problem(bad, "--x") == f"--x {bad}: {RULE}"


@pytest.mark.parametrize("count", [1, 101, 500, MAX_REPETITIONS])
def test_a_run_accepts_what_generation_accepts(count: int) -> None:
    validate(ElenchosRunConfig(out="unused", repetitions=count))  # run side was capped at 100


@pytest.mark.parametrize("count", [0, MAX_REPETITIONS + 1, 10**9])
def test_every_reader_refuses_with_the_same_words(count: int, tmp_path: Path) -> None:
    with pytest.raises(HarnessError) as run_side:
        validate(ElenchosRunConfig(out="unused", repetitions=count))
    assert str(run_side.value) == f"--repetitions {count}: {RULE}"
    with pytest.raises(HarnessError) as main_side:
        main_step(tmp_path / "main", argparse.Namespace(elenchos_repetitions=count))
    assert str(main_side.value) == f"--elenchos-repetitions {count}: {RULE}"
    assert not (tmp_path / "main").exists()
    with pytest.raises(ValueError) as export_side:
        check_counts({"repetitions": count})
    assert str(export_side.value) == f"--repetitions {count}: {RULE}"
    with pytest.raises(export_untrusted.ExportError) as manifest_side:
        export_untrusted._validate_params("elenchos_ladder", {"seed": 1, "repetitions": count}, "manifest.json")
    assert str(manifest_side.value).endswith(f".repetitions {count}: {RULE}")


def test_generation_refuses_with_the_same_words(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "generators", "elenchos", "--sessions", "--repetitions", "1001",
                           "--out", str(tmp_path / "e")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert f"argument --repetitions: 1001: {RULE}" in proc.stderr
    assert not (tmp_path / "e").exists()
