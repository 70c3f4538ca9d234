"""Bad arguments and bad input files for ``generators mira`` and ``verifiers validate`` (issue 17).

Each case runs the real command in a subprocess and checks the exit code, one clear error line, no
traceback, and that an existing output file is untouched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.errors import InputErrors
from harness.mira.dataset import load_dataset
from verifiers.validate import validate_file

ROOT = Path(__file__).resolve().parents[2]
GOOD = '{"placeholder": "an earlier good output"}\n'


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def assert_one_line_error(proc: subprocess.CompletedProcess[str], code: int, text: str) -> None:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    usage = proc.stderr.startswith("usage:")  # argparse prints its usage (indented lines) before the error
    errors = [line for line in proc.stderr.splitlines()[1 if usage else 0:] if not line.startswith(" ")]
    assert len(errors) == 1 and text in errors[0], proc.stderr


# --- generators mira ---------------------------------------------------------------------------

BAD_ARGUMENTS = [
    (["--family", "moment_problem", "--n", "0"], "argument --n: must be at least 1, got 0"),
    (["--family", "moment_problem", "--n", "-3"], "argument --n: must be at least 1, got -3"),
    (["--n-a", "-1"], "argument --n-a: must be at least 0, got -1"),
    (["--n-a", "0", "--n-b", "0"], "--n-a 0 --n-b 0 generates nothing"),
    (["--jobs", "0"], "argument --jobs: must be at least 1, got 0"),
    (["--jobs", "-2"], "argument --jobs: must be at least 1, got -2"),
    (["--n", "5"], "--n and --difficulty need --family"),
    (["--difficulty", "2"], "--n and --difficulty need --family"),
    (["--difficulties", "abc"], "argument --difficulties: expected a comma-separated subset of 1,2,3, got 'abc'"),
    (["--difficulties", "1,4"], "argument --difficulties: expected a comma-separated subset of 1,2,3, got '1,4'"),
    (["--family", "circuit_missing_resistance", "--n-b", "0"], "--family circuit_missing_resistance with --n-b 0"),
]


@pytest.mark.parametrize(("args", "message"), BAD_ARGUMENTS)
def test_bad_arguments_are_refused_before_the_output_is_touched(
    args: list[str], message: str, tmp_path: Path
) -> None:
    out = tmp_path / "split.jsonl"
    out.write_text(GOOD)
    proc = run("generators", "mira", *args, "--out", str(out))
    assert_one_line_error(proc, 2, message)
    assert out.read_text() == GOOD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["split.jsonl"]  # no stray .tmp


def test_out_that_is_a_directory_or_a_symlink_to_one(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "folder")
    for name in ("folder", "link"):
        proc = run("generators", "mira", "--family", "moment_problem", "--n", "1", "--out", str(tmp_path / name))
        assert_one_line_error(proc, 2, f"--out {tmp_path / name} is a directory; give a file name")
    assert list((tmp_path / "folder").iterdir()) == []


def test_out_below_a_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    proc = run("generators", "mira", "--family", "moment_problem", "--n", "1", "--out", str(tmp_path / "afile/x"))
    assert_one_line_error(proc, 2, "is not a directory")


def test_out_that_cannot_be_written_leaves_no_temp_file() -> None:
    proc = run("generators", "mira", "--family", "moment_problem", "--n", "1", "--out", "/proc/mira-test.jsonl")
    assert_one_line_error(proc, 1, "error: cannot write /proc/mira-test.jsonl")
    assert not Path("/proc/mira-test.jsonl.tmp").exists()


def test_out_that_is_a_symlink_to_a_file_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    target.write_text(GOOD)
    (tmp_path / "link.jsonl").symlink_to(target)
    proc = run("generators", "mira", "--family", "moment_problem", "--n", "1", "--out", str(tmp_path / "link.jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "link.jsonl").is_symlink()
    assert json.loads(target.read_text().splitlines()[0])["family"] == "moment_problem"


def test_difficulties_help_shows_the_default() -> None:
    proc = run("generators", "mira", "--help")
    assert "--difficulties D[,D...]" in proc.stdout
    assert "(default 1,2,3)" in " ".join(proc.stdout.split())
    assert "--four-shot, --few-shot" in proc.stdout


# --- verifiers validate ---------------------------------------------------------------------------

def _validate(tmp_path: Path, content: bytes, *extra: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "input.jsonl"
    path.write_bytes(content)
    return run("verifiers", "validate", str(path), *extra)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"id": "caf\xe9"}\n', "input.jsonl:1: (line): not UTF-8 text (byte 12 is 0xE9)"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "input.jsonl:1: (line): not UTF-8 text (byte 1 is 0x89)"),
        (b"[" * 100_000 + b"]" * 100_000 + b"\n", "input.jsonl:1: (line): malformed JSON: nested too deeply"),
        (b'{"id": ' + b"7" * 5000 + b"}\n", "input.jsonl:1: (line): malformed JSON: Exceeds the limit (4300 digits)"),
    ],
    ids=["latin-1", "binary", "deep", "huge-integer"],
)
def test_validate_reports_unreadable_lines(tmp_path: Path, content: bytes, message: str) -> None:
    proc = _validate(tmp_path, content)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0].endswith(message) or message in proc.stderr.splitlines()[0]


def test_validate_empty_file_fails(tmp_path: Path) -> None:
    proc = _validate(tmp_path, b"", "--json")
    assert_one_line_error(proc, 1, "input.jsonl: no instances (the file is empty)")
    assert json.loads(proc.stdout) == {"file": str(tmp_path / "input.jsonl"), "instances": 0, "errors": 1,
                                      "candidates": {}}


def test_validate_unknown_family(tmp_path: Path) -> None:
    proc = _validate(tmp_path, b'{"id": "xyz-1", "family": "no_such_family", "type": "A"}\n')
    assert proc.returncode == 1
    expected = f"{tmp_path / 'input.jsonl'}:1 [xyz-1]: family: unknown family 'no_such_family'"
    assert proc.stderr.splitlines() == [expected]


def test_validate_raw_release_hints_at_import_reference(tmp_path: Path) -> None:
    sample = ROOT.parent / "shared" / "reference-release" / "sample_instances.jsonl"
    if not sample.exists():
        pytest.skip("the authors' release sample is not next to this checkout (../shared/reference-release)")
    proc = _validate(tmp_path, sample.read_bytes())
    lines = proc.stderr.splitlines()
    assert proc.returncode == 1 and len(lines) == 23  # one line per instance, then the hint
    assert "python -m verifiers import-reference" in lines[-1]


def test_validate_keeps_bounded_errors_and_counts_all(tmp_path: Path) -> None:
    bad = json.dumps({"id": "x", "family": "moment_problem", "type": "Z"}) + "\n"
    path = tmp_path / "many.jsonl"
    path.write_text(bad * 5000)
    result = validate_file(str(path), keep=7)
    assert len(result.errors) == 7
    assert result.error_count > 5000 and result.instances == 5000
    proc = run("verifiers", "validate", str(path), "--max-errors", "3")
    assert proc.returncode == 1
    assert len(proc.stderr.splitlines()) == 4 and "more error(s) not printed" in proc.stderr.splitlines()[-1]


@pytest.mark.parametrize(
    "line", [b'{"id": "x",, "family": 1}', b'{"id":\r "x",, "family": 1}', b'{"a": [1, 2,]}', b'\xef\xbb\xbf{"a": 1}']
)
def test_validate_and_run_eval_agree_on_a_malformed_line(tmp_path: Path, line: bytes) -> None:
    path = tmp_path / "input.jsonl"
    path.write_bytes(line + b"\n")
    validate_message = str(validate_file(str(path)).errors[0]).replace(": (line): ", ": ")
    with pytest.raises(InputErrors) as caught:
        load_dataset(path)
    assert str(caught.value.errors[0]) == validate_message
