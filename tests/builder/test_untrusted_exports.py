"""Export folders from elsewhere and generation arguments (issue 25): refused with one line, exit 2, within 5 s,
nothing outside the scratch folder touched. The cases live in ``untrusted_cases`` (shared with
``benchmarks/bench_untrusted_exports.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from builder.__main__ import main as builder_cli
from generators.safefs import FolderLock
from tests.builder import untrusted_cases as cases

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def zs_export(tmp_path_factory):
    return cases.make_export(tmp_path_factory.mktemp("zs") / "MIRA-MATH")


def test_the_untouched_export_reads_cleanly(zs_export, tmp_path):
    """The readers accept the real thing, so a refusal below is about the change each case makes."""
    for reader in ("verify", "to-jsonl"):
        outcome = cases.run_reader(reader, zs_export, tmp_path)
        assert outcome.code == 0 and not outcome.crash, outcome.stderr + outcome.crash


@pytest.mark.parametrize("case", cases.FOLDER_CASES, ids=lambda c: f"{c.category}:{c.name}")
def test_a_crafted_export_folder_is_refused_with_one_line(case, zs_export, tmp_path):
    assert cases.run_folder_case(case, zs_export, tmp_path) == []


@pytest.mark.parametrize("case", cases.ARG_CASES, ids=lambda c: f"{c.category}:{c.name}")
def test_unbounded_work_is_refused_before_it_starts(case, tmp_path):
    proc = subprocess.run([sys.executable, *(a.replace("OUT", str(tmp_path)) for a in case.argv)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip() and not ln.startswith(("usage:", " "))]
    assert "Traceback" not in proc.stderr
    assert proc.returncode == case.code, proc.stderr
    assert case.message in proc.stderr
    if case.code:
        assert len(lines) == 1, proc.stderr


def test_mira_generation_streams_to_disk(tmp_path):
    """``--n 1000000`` writes its first instances within seconds with the memory of a small run (40 MB here; main
    listed the 1,000,000 slots first: 290 MB and 5 s before the first byte)."""
    out = tmp_path / "big.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "generators", "mira", "--family", "moment_problem", "--n",
                             "1000000", "--difficulty", "1", "--out", str(out)], cwd=ROOT, stderr=subprocess.PIPE)
    try:
        deadline, written, peak_kb = time.monotonic() + 20, 0, 0
        while time.monotonic() < deadline and not written:
            time.sleep(0.2)
            status = Path(f"/proc/{proc.pid}/status").read_text()
            peak_kb = int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmHWM")))
            written = sum(p.stat().st_size for p in tmp_path.glob(".big.jsonl.*.tmp"))
        assert written > 0, "nothing reached the disk"
        assert peak_kb < 150_000, f"{peak_kb} kB before the first bytes were written"
    finally:
        proc.kill()
        proc.wait()


def test_a_second_export_to_the_same_folder_is_refused_naming_the_holder(tmp_path, capsys):
    out = tmp_path / "X"
    lock = FolderLock(tmp_path, ".X.lock").acquire()  # as a running `builder export --out X` holds it
    try:
        code = builder_cli(["export", "--out", str(out), "--configs", "mira_zero_shot", "--n-a", "1", "--n-b", "1"])
    finally:
        lock.release()
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"process {os.getpid()}" in err and str(out) in err
    assert not out.exists()


SLOW_EXPORT = """
import sys, time
from pathlib import Path
import builder.export as export
locked = export._export_locked
def slow(*args):  # hold the lock until the test says go (at most 120 s), as a large export would
    deadline = time.monotonic() + 120
    while not Path(sys.argv[1]).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return locked(*args)
export._export_locked = slow
from builder.__main__ import main
sys.exit(main(sys.argv[2:]))
"""


def test_two_concurrent_exports_one_proceeds(tmp_path):
    """Two real processes: the second gets one line naming the first's pid; the first finishes a good export."""
    out = tmp_path / "X"
    args = ["export", "--out", str(out), "--configs", "mira_zero_shot", "--n-a", "1", "--n-b", "1",
            "--difficulties", "1", "--code-commit", "0" * 40]
    go = tmp_path / "go"
    first = subprocess.Popen([sys.executable, "-c", SLOW_EXPORT, str(go), *args], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    lock = tmp_path / ".X.lock"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (lock.exists() and lock.read_text().strip()):
        time.sleep(0.05)
    second = subprocess.run([sys.executable, "-m", "builder", *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    go.touch()
    first_out, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert second.returncode == 2 and f"process {first.pid}" in second.stderr, second.stderr
    assert "Traceback" not in second.stderr and len(second.stderr.strip().splitlines()) == 1
    assert json.loads(first_out)["rows"] == {"mira_zero_shot": 22}
    assert builder_cli(["verify", str(out), "--no-regenerate"]) == 0
    assert builder_cli([*args, "--force"]) == 0  # the lock went with its holder: the folder can be written again


def test_a_lock_file_planted_as_a_link_is_refused_not_followed(tmp_path, capsys):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep\n")
    (tmp_path / ".X.lock").symlink_to(outside)
    assert builder_cli(["export", "--out", str(tmp_path / "X"), "--configs", "mira_zero_shot", "--n-a", "1"]) == 2
    assert "cannot take the export lock" in capsys.readouterr().err and outside.read_text() == "keep\n"


def test_elenchos_writes_replace_a_planted_link_never_follow_it(tmp_path):
    from elenchos.cli import write_json, write_jsonl

    outside = tmp_path / "outside.txt"
    outside.write_text("keep\n")
    out = tmp_path / "run"
    out.mkdir()
    for planted in ("counts.json.tmp", "counts.json", "ladder.jsonl"):
        (out / planted).symlink_to(outside)
    write_json(out / "counts.json", {"a": 1})
    write_jsonl(out / "ladder.jsonl", iter([]), "elenchos_session")
    assert outside.read_text() == "keep\n"
    assert not (out / "counts.json").is_symlink() and json.loads((out / "counts.json").read_text()) == {"a": 1}
    assert not (out / "ladder.jsonl").is_symlink()


def test_to_jsonl_replaces_a_link_at_out(zs_export, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep\n")
    (tmp_path / "o.jsonl").symlink_to(outside)
    assert builder_cli(["to-jsonl", str(zs_export), "--out", str(tmp_path / "o.jsonl")]) == 0
    assert outside.read_text() == "keep\n" and not (tmp_path / "o.jsonl").is_symlink()


def test_export_writes_leave_no_temp_files_and_verify(zs_export):
    names = [p.name for p in zs_export.rglob("*")]
    assert not [n for n in names if n.endswith(".tmp") or n.startswith(".")]
