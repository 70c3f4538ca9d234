"""generators.safefs: writes never go through a link, one writer per folder, reads stay inside."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generators.safefs import FolderBusy, FolderLock, UnsafePath, atomic_write, atomic_writer, inside, open_regular


def test_atomic_write_replaces_a_planted_link_instead_of_writing_through_it(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    run = tmp_path / "run"
    run.mkdir()
    (run / "report.md").symlink_to(outside)
    atomic_write(run / "report.md", "new report")
    assert outside.read_text() == "precious"
    assert not (run / "report.md").is_symlink()
    assert (run / "report.md").read_text() == "new report"


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "metrics.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_writer(target) as f:
        f.write("half")
        raise RuntimeError("killed")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["metrics.json"]


_HOLDER = """
import sys, time
from generators.safefs import FolderLock
FolderLock(sys.argv[1]).acquire()
print("locked", flush=True)
time.sleep(60)
"""


def _start_holder(folder: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen([sys.executable, "-c", _HOLDER, str(folder)], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_a_second_writer_is_refused_with_the_holders_pid_and_kill_9_releases_it(tmp_path: Path) -> None:
    holder = _start_holder(tmp_path)
    try:
        with pytest.raises(FolderBusy) as err:
            FolderLock(tmp_path).acquire()
        assert str(holder.pid) in str(err.value)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    deadline = time.monotonic() + 5
    while True:
        try:
            with FolderLock(tmp_path):
                break
        except FolderBusy:
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_inside_refuses_names_that_leave_the_folder(tmp_path: Path) -> None:
    root = tmp_path / "export"
    root.mkdir()
    (root / "out").symlink_to(tmp_path)
    assert inside(root, "data/x.parquet") == (root / "data/x.parquet").resolve()
    for name in ("../x.parquet", "/etc/passwd", "out/x.parquet", "data/../../x"):
        with pytest.raises(UnsafePath):
            inside(root, name)


def test_open_regular_refuses_links_fifos_devices_and_oversized_files(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    real.write_bytes(b"x" * 100)
    with open_regular(real, 100) as f:
        assert f.read() == b"x" * 100
    (tmp_path / "link.jsonl").symlink_to(real)
    os.mkfifo(tmp_path / "fifo.jsonl")
    (tmp_path / "zero.jsonl").symlink_to("/dev/zero")
    for name, limit in (("link.jsonl", 100), ("fifo.jsonl", 100), ("zero.jsonl", 100), ("real.jsonl", 99)):
        with pytest.raises(UnsafePath):
            open_regular(tmp_path / name, limit)
    with pytest.raises(UnsafePath):
        open_regular("/dev/zero", 100)


def test_a_lock_on_a_removed_lock_file_is_taken_again_on_the_file_at_the_path(tmp_path: Path, monkeypatch) -> None:
    first = FolderLock(tmp_path)
    real = FolderLock._lock_once
    calls = []

    def remove_after_first_lock(self):  # another process removes the lock file between our open and our check
        fd = real(self)
        calls.append(fd)
        if len(calls) == 1:
            os.unlink(tmp_path / ".lock")
        return fd

    monkeypatch.setattr(FolderLock, "_lock_once", remove_after_first_lock)
    with first:
        assert len(calls) == 2  # the orphaned lock was dropped and the new file locked
        monkeypatch.setattr(FolderLock, "_lock_once", real)
        with pytest.raises(FolderBusy):
            FolderLock(tmp_path).acquire()


def test_run_folder_and_export_readers_refuse_in_the_same_words(tmp_path: Path) -> None:
    """One wrapper (``open_or_refuse``) for both readers: the same refusal, the same words, each its own error."""
    from builder.untrusted import ExportError, open_data
    from generators.safefs import open_or_refuse
    from harness.errors import HarnessError
    from harness.untrusted import open_file

    (tmp_path / "big").write_bytes(b"x" * 100)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "big")
    for name, why in (("fifo", "not a regular file; refusing to read it"), ("link", "is a symbolic link; refusing "
                      "to read it"), ("big", "100 bytes, more than the limit of 10; refusing to read it"),
                      ("gone", "missing")):
        with pytest.raises(HarnessError) as harness:
            open_file(tmp_path / name, 10)
        with pytest.raises(ExportError) as export:
            open_data(tmp_path, name, name, 10)
        assert str(harness.value) == f"{tmp_path / name}: {why}" and str(export.value) == f"{name}: {why}"
    with pytest.raises(KeyError, match="elsewhere: outside"):
        open_or_refuse(tmp_path / ".." / "elsewhere", 10, KeyError, root=tmp_path, name="elsewhere")
