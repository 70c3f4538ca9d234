import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq

from builder.__main__ import main as cli
from builder.export import CHECKSUMS, MANIFEST, write_checksums
from builder.mira_elenchos import record_sha256
from builder.rows import row_to_record
from builder.verify import verify

ZS = "mira_zero_shot/test-00000-of-00001.parquet"


def edit_row(folder, index, column, new_value, fix_row_hash=False):
    path = folder / ZS
    table = pq.read_table(path)
    rows = table.to_pylist()
    rows[index][column] = new_value
    if fix_row_hash:
        rows[index]["sha256"] = record_sha256(row_to_record("mira_zero_shot", rows[index]))
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)
    return rows[index]["id"]


def test_a_fresh_export_verifies(small_export, capsys):
    report = verify(small_export)
    assert report.ok, report.problems
    assert cli(["verify", str(small_export)]) == 0
    assert "verify: OK" in capsys.readouterr().out


def test_a_hand_edited_parquet_fails_naming_file_and_row(export_copy, capsys):
    rid = edit_row(export_copy, 3, "question", "What is 2 + 2?")
    assert cli(["verify", str(export_copy)]) == 1
    err = capsys.readouterr().err
    first = err.split("verify: FAILED", 1)[1].splitlines()[0]
    assert ZS in first and f"row 3 (id {rid})" in first
    assert "differs from the regenerated row in question" in err
    assert cli(["verify", str(export_copy), "--no-regenerate"]) == 1  # caught without regenerating too


def test_a_consistent_forgery_is_caught_by_regeneration(export_copy):
    edit_row(export_copy, 5, "global_solution", json.dumps({"value": 424242}), fix_row_hash=True)
    manifest = json.loads((export_copy / MANIFEST).read_text())
    size = (export_copy / ZS).stat().st_size
    for f in manifest["configs"]["mira_zero_shot"]["splits"]["test"]["files"]:
        f["sha256"], f["bytes"] = None, size
    write_checksums(export_copy)  # checksums now match the forged file
    assert verify(export_copy, regenerate=False).ok
    report = verify(export_copy)
    assert not report.ok
    assert report.problems[0].startswith(f"{ZS}: row 5") and "global_solution" in report.problems[0]


def test_a_missing_config_is_caught(export_copy, capsys):
    shutil.rmtree(export_copy / "mira_few_shot")
    assert cli(["verify", str(export_copy), "--no-regenerate"]) == 1
    assert "mira_few_shot/test-00000-of-00001.parquet" in capsys.readouterr().err

    # also when the config is erased from the manifest and CHECKSUMS
    manifest = json.loads((export_copy / MANIFEST).read_text())
    del manifest["configs"]["mira_few_shot"]
    (export_copy / MANIFEST).write_text(json.dumps(manifest))
    write_checksums(export_copy)
    report = verify(export_copy, regenerate=False)
    assert any("config mira_few_shot: missing from the export" in p for p in report.problems)


def test_extra_and_missing_files_and_a_bad_manifest(export_copy, tmp_path):
    (export_copy / "mira_zero_shot" / "test-00001-of-00001.parquet").write_bytes(b"junk")
    report = verify(export_copy, regenerate=False)
    assert report.problems == ["mira_zero_shot/test-00001-of-00001.parquet: not listed in CHECKSUMS"]
    (export_copy / CHECKSUMS).unlink()
    assert any(p.startswith("CHECKSUMS: missing") for p in verify(export_copy, regenerate=False).problems)
    assert verify(tmp_path / "nowhere").problems == [f"{tmp_path / 'nowhere'}: not a folder"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert verify(empty).problems[0].startswith("manifest.json: missing or unreadable")


def test_readme_edits_are_caught(export_copy):
    readme = export_copy / "README.md"
    readme.write_text(readme.read_text().replace("2310", "2311") + "\nedited\n")
    write_checksums(export_copy)
    report = verify(export_copy)
    assert not report.ok and report.problems[0].startswith("README.md: line")
