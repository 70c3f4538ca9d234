"""The generation and validation command lines, run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def small_split(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("split") / "split.jsonl"
    proc = run("-m", "generators", "mira", "--n-a", "2", "--n-b", "2", "--seed", "7", "--few-shot", "--out", str(out),
               "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["instances"] == len(out.read_text().splitlines())
    assert len(summary["sha256"]) == 64
    return out


def test_generation_is_byte_identical(small_split: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.jsonl"
    proc = run("-m", "generators", "mira", "--n-a", "2", "--n-b", "2", "--seed", "7", "--few-shot", "--out", str(again))
    assert proc.returncode == 0
    assert again.read_bytes() == small_split.read_bytes()


def test_validate_accepts_generated_file(small_split: Path) -> None:
    proc = run("-m", "verifiers", "validate", str(small_split), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["errors"] == 0
    plain = run("-m", "verifiers", "validate", str(small_split))
    assert plain.returncode == 0 and plain.stdout.splitlines()[0].endswith(" instances, 0 error(s)")


def _rewrite(src: Path, dst: Path, lineno: int, edit) -> None:
    lines = src.read_text().splitlines()
    lines[lineno - 1] = edit(lines[lineno - 1])
    dst.write_text("\n".join(lines) + "\n")


def test_changed_answer_names_the_line(small_split: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"

    def change(line: str) -> str:
        inst = json.loads(line)
        sol = inst["global_solution"]
        key = "value" if "value" in sol else "numerator" if "numerator" in sol else next(iter(sol))
        sol[key] += 1
        return json.dumps(inst)

    _rewrite(small_split, bad, 3, change)
    proc = run("-m", "verifiers", "validate", str(bad))
    assert proc.returncode == 1
    assert f"{bad}:3 [" in proc.stderr and "global_solution" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_bad_json_duplicate_id_and_schema_errors(small_split: Path, tmp_path: Path) -> None:
    lines = small_split.read_text().splitlines()
    broken = json.loads(lines[1])
    del broken["question"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], "{not json", lines[0], json.dumps(broken)]) + "\n")
    proc = run("-m", "verifiers", "validate", str(bad))
    assert proc.returncode == 1
    assert f"{bad}:2: (line): malformed JSON at column" in proc.stderr
    assert f"{bad}:3 [" in proc.stderr and "duplicate id (first on line 1)" in proc.stderr
    assert f"{bad}:4 [" in proc.stderr and "'question' is a required property" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    proc = run("-m", "verifiers", "validate", str(tmp_path / "nope.jsonl"))
    assert proc.returncode == 2
    assert "cannot read" in proc.stderr and "Traceback" not in proc.stderr


def test_malformed_constraint_is_reported_not_raised(small_split: Path, tmp_path: Path) -> None:
    def drop_field(line: str) -> str:
        inst = json.loads(line)
        constraint = inst["agent_views"][0]["private_data"]["constraints_machine"][0]
        for key in list(constraint):
            if key != "type":
                del constraint[key]
        return json.dumps(inst)

    bad = tmp_path / "bad.jsonl"
    _rewrite(small_split, bad, 1, drop_field)
    proc = run("-m", "verifiers", "validate", str(bad))
    assert proc.returncode == 1
    assert f"{bad}:1 [" in proc.stderr and "Traceback" not in proc.stderr
