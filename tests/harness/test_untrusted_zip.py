"""Hostile inspect ``.eval`` logs (zip archives): ``run_eval.py import-inspect`` refuses each with one line naming
the log and the member (exit 2) and writes nothing; ``harness.untrusted.check_zip`` counts the bytes that come out
of each member, not the sizes its headers claim."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

from harness import untrusted
from harness.errors import HarnessError

ROOT = Path(__file__).resolve().parents[2]


def _zip(path: Path, members: dict[str, bytes], level: int = 9) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _check(path: Path) -> bool:
    with path.open("rb") as f:
        return untrusted.check_zip(f, path)


def _import(log: Path, out: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("inspect_ai")
    return subprocess.run([sys.executable, "run_eval.py", "import-inspect", str(log), "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_a_plain_archive_passes_and_a_json_log_is_not_a_zip(tmp_path: Path) -> None:
    assert _check(_zip(tmp_path / "ok.eval", {"header.json": b"{}", "samples/a_epoch_1.json": b"{}" * 1000}))
    (tmp_path / "log.json").write_text('{"version": 2}', encoding="utf-8")
    assert not _check(tmp_path / "log.json")


def test_a_bomb_is_refused_by_the_bytes_that_come_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(untrusted, "MAX_ZIP_MEMBER_BYTES", 4 << 20)
    bomb = _zip(tmp_path / "bomb.eval", {"header.json": b"{}", "samples/x_epoch_1.json": bytes(5 << 20)})
    assert bomb.stat().st_size < 64 << 10  # highly compressible: a few KB that unpack to 5 MB
    with pytest.raises(HarnessError, match=r"bomb\.eval: member 'samples/x_epoch_1\.json': decompresses to more "
                                           r"than 4194304 bytes"):
        _check(bomb)
    monkeypatch.setattr(untrusted, "MAX_ZIP_MEMBER_BYTES", 8 << 20)
    monkeypatch.setattr(untrusted, "MAX_ZIP_TOTAL_BYTES", 8 << 20)
    spread = _zip(tmp_path / "spread.eval", {f"samples/{i}.json": bytes(3 << 20) for i in range(3)})
    with pytest.raises(HarnessError, match=r"member 'samples/2\.json': the archive decompresses to more than"):
        _check(spread)


def test_a_lying_header_is_refused(tmp_path: Path) -> None:
    """The directory says 10 bytes; the member really unpacks to 2 MB: the reader stops at what it counts."""
    data = bytes(2 << 20)
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = raw.compress(data) + raw.flush()
    archive = bytearray(_zip(tmp_path / "honest.eval", {"samples/a.json": data}).read_bytes())
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # local header, directory entry
        at = archive.find(signature)
        assert struct.unpack("<I", archive[size_at + at:size_at + at + 4])[0] == len(data)
        archive[at + size_at:at + size_at + 4] = struct.pack("<I", 10)
    assert len(deflated) < len(archive)
    liar = tmp_path / "liar.eval"
    liar.write_bytes(bytes(archive))
    with pytest.raises(HarnessError, match=r"liar\.eval: not a readable zip archive \(Bad CRC-32 .*samples/a\.json"):
        _check(liar)


def test_too_many_members_are_refused_before_the_directory_is_read(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(untrusted, "MAX_ZIP_MEMBERS", 50)
    many = _zip(tmp_path / "many.eval", {f"samples/{i}.json": b"{}" for i in range(51)})
    monkeypatch.setattr(zipfile, "ZipFile", None)  # refused from the end record alone
    with pytest.raises(HarnessError, match=r"many\.eval: a zip archive of 51 members, more than the limit of 50"):
        _check(many)


@pytest.mark.parametrize(("name", "why"), [("/etc/passwd", "an absolute path"), ("C:/x.json", "an absolute path"),
                                           ("samples/../../x.json", "a '..' component"),
                                           ("..\\x.json", "a '..' component"), ("a\nb", "a NUL or control")])
def test_member_names_are_checked(tmp_path: Path, name: str, why: str) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("header.json", b"{}")
        archive.writestr(zipfile.ZipInfo(name), b"{}")
    log = tmp_path / "names.eval"
    log.write_bytes(buffer.getvalue())
    with pytest.raises(HarnessError, match=rf"names\.eval: member {__import__('re').escape(ascii(name))}: {why}"):
        _check(log)


def test_import_inspect_refuses_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    """Through the command line: exit 2, one line naming the log and the member, no run folder."""
    log = _zip(tmp_path / "evil.eval", {"header.json": b"{}", "samples/../../../etc/x.json": b"{}"})
    proc = _import(log, tmp_path / "run")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"error: {log}: member 'samples/../../../etc/x.json': a '..' component; refusing to read it"]
    assert not (tmp_path / "run").exists()
