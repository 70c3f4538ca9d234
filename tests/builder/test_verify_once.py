"""Issue 27: verify regenerates each config once (in processes, same result for any number), shows progress,
and publish reuses a full verification of the same bytes by the same code (a stamp outside the export)."""

import json
import shutil

import pytest

import builder.regenerate as regenerate_module
import builder.verify as verify_module
from builder.__main__ import main as cli
from builder.export import CHECKSUMS, MANIFEST
from builder.publish import PublishError, publish
from builder.verified import load_stamp, stamp_key
from builder.verify import Report, verify, verify_stamped

ZS = "mira_zero_shot/test-00000-of-00001.parquet"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """No stamp of another test's verification of the same bytes (the session shares one export)."""
    monkeypatch.setenv("MIRA_ELENCHOS_CACHE", str(tmp_path / "cache"))


def test_each_config_is_regenerated_once(small_export, monkeypatch):
    chunks = []
    real = regenerate_module._regenerate_chunk
    monkeypatch.setattr(regenerate_module, "_regenerate_chunk", lambda c: chunks.append(c) or real(c))
    assert verify(small_export, num_proc=1).ok
    manifest = json.loads((small_export / MANIFEST).read_text())
    for name, c in manifest["configs"].items():
        for split, s in c["splits"].items():
            ranges = sorted((x.start, x.stop) for x in chunks if (x.config, x.split) == (name, split))
            covered = [i for a, b in ranges for i in range(a, b)]
            assert covered == list(range(s["num_examples"])), (name, split, ranges)  # every row once, no more


def test_any_number_of_processes_gives_the_same_report(export_copy):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(export_copy / ZS)
    rows = table.to_pylist()
    rows[4]["question"] = "What is 3 + 3?"
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), export_copy / ZS)
    reports = [verify(export_copy, num_proc=n) for n in (1, 2, 3)]
    assert not reports[0].ok and any("row 4" in p and "question" in p for p in reports[0].problems)
    assert all((r.problems, r.notes) == (reports[0].problems, reports[0].notes) for r in reports)


def test_progress_goes_to_stderr(small_export, capsys):
    assert verify(small_export, num_proc=1, progress=True).ok
    assert "verify" in capsys.readouterr().err


def _no_regeneration(monkeypatch):
    def refuse(*_a, **_k):
        raise AssertionError("regenerated again")

    monkeypatch.setattr(verify_module, "Regeneration", refuse)


def test_publish_reuses_the_verification_of_the_same_bytes(export_copy, monkeypatch, capsys):
    assert load_stamp(stamp_key(export_copy)) is None
    assert cli(["verify", str(export_copy)]) == 0
    assert load_stamp(stamp_key(export_copy)) is not None
    _no_regeneration(monkeypatch)
    report = verify_stamped(export_copy, reuse=True)
    assert report.ok and any("verified before" in n for n in report.notes)
    # the same bytes elsewhere are the same export: the stamp is keyed by content, not by the folder's name
    moved = export_copy.parent / "moved"
    shutil.copytree(export_copy, moved)
    assert verify_stamped(moved, reuse=True).ok


def test_other_bytes_behind_a_verified_checksums_file_are_verified_again(export_copy, monkeypatch, tmp_path):
    assert cli(["verify", str(export_copy)]) == 0
    forged = tmp_path / "forged"
    shutil.copytree(export_copy, forged)
    data = bytearray((forged / ZS).read_bytes())
    data[len(data) // 2] ^= 1  # one bit of the zero-shot file; CHECKSUMS (and the manifest) stay those verified
    (forged / ZS).write_bytes(bytes(data))
    assert (forged / CHECKSUMS).read_bytes() == (export_copy / CHECKSUMS).read_bytes()
    assert stamp_key(forged) != stamp_key(export_copy)
    _no_regeneration(monkeypatch)
    with pytest.raises(AssertionError, match="regenerated again"):
        verify_stamped(forged, reuse=True)


def test_a_stamp_is_only_trusted_for_its_own_key(export_copy):
    from builder.verified import _stamps

    key = stamp_key(export_copy)
    _stamps().mkdir(parents=True, exist_ok=True)
    (_stamps() / f"{key}.json").write_text(json.dumps({"format": "mira-elenchos-verify-stamp/1", "key": "0" * 64,
                                                       "notes": []}))
    assert load_stamp(key) is None
    (_stamps() / f"{key}.json").write_text("not json")
    assert load_stamp(key) is None


def test_a_failed_verification_leaves_no_stamp_and_publish_asks_for_reuse(export_copy, monkeypatch):
    (export_copy / ZS).write_bytes(b"junk")
    assert not verify_stamped(export_copy).ok
    assert load_stamp(stamp_key(export_copy)) is None
    seen = {}

    def fake(folder, **kwargs):
        seen.update(kwargs)
        return Report(problems=["stop here"])

    monkeypatch.setattr("builder.publish.verify_stamped", fake)
    with pytest.raises(PublishError, match="stop here"):
        publish(export_copy, "org/name", dry_run=True, log=lambda _: None)
    assert seen == {"reuse": True, "regenerate": True, "record_digests": True}
    with pytest.raises(PublishError):
        publish(export_copy, "org/name", dry_run=True, reuse_verification=False, log=lambda _: None)
    assert seen["reuse"] is False
