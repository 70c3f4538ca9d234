import hashlib
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq

from builder.__main__ import main as cli
from builder.card import render_readme
from builder.export import CHECKSUMS, MANIFEST, write_checksums
from builder.mira_elenchos import record_sha256
from builder.rows import row_to_record
from builder.verify import verify
from generators.jsonl import sha256_file

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


def rewrite_manifest(folder, manifest):
    """Write the manifest, the README rendered from it and CHECKSUMS, as a consistent forger would."""
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    (folder / "README.md").write_text(render_readme(manifest))
    write_checksums(folder)


def test_a_consistent_forgery_is_caught_by_regeneration(export_copy):
    edit_row(export_copy, 5, "global_solution", json.dumps({"value": 424242}), fix_row_hash=True)
    manifest = json.loads((export_copy / MANIFEST).read_text())
    size = (export_copy / ZS).stat().st_size
    for f in manifest["configs"]["mira_zero_shot"]["splits"]["test"]["files"]:
        f["sha256"], f["bytes"] = None, size
    rewrite_manifest(export_copy, manifest)  # checksums now match the forged file
    report = verify(export_copy, regenerate=False)  # the manifest's rows_sha256 still pins the content
    assert report.problems == [
        "config mira_zero_shot, split test: the rows differ from the manifest's rows_sha256 "
        "(a row was changed, added, removed or reordered)"
    ]
    split = manifest["configs"]["mira_zero_shot"]["splits"]["test"]
    split["rows_sha256"] = hashlib.sha256("".join(h + "\n" for h in pq.read_table(export_copy / ZS)["sha256"]
                                                 .to_pylist()).encode()).hexdigest()
    rewrite_manifest(export_copy, manifest)  # a forgery consistent with manifest, card and checksums
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
    assert verify(tmp_path / "nowhere").problems == ["no such folder"]  # the CLI puts the path before it
    (tmp_path / "split.jsonl").write_text("{}\n")
    assert verify(tmp_path / "split.jsonl").problems == [
        f"a file, not an export folder; a generated JSONL is checked by: python -m verifiers validate "
        f"{tmp_path / 'split.jsonl'}"]
    assert verify(export_copy / "mira_zero_shot").problems == [
        f"manifest.json: missing; this is a config folder of the export {export_copy}: verify that folder"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert verify(empty).problems[0] == "manifest.json: missing"


def test_readme_prose_edits_pass_with_a_note_but_yaml_and_generated_blocks_fail(export_copy):
    readme = export_copy / "README.md"
    original = readme.read_text()
    readme.write_text(original.replace("## Intended uses", "## Intended uses\n\nEdited on the Hub.\n"))
    report = verify(export_copy, regenerate=False)
    assert report.ok, report.problems
    assert any("README.md: prose differs" in n for n in report.notes)
    # `sha256sum -c CHECKSUMS` would now fail on README.md: the note says why verify passes anyway
    for old, new in (("size_categories:\n- n<1K", "size_categories:\n- 1K<n<10K"),
                     ("| `mira_zero_shot` | test |", "| `mira_zero_shot` | test | 1")):
        assert old in original
        readme.write_text(original.replace(old, new, 1))
        for regenerate in (False, True):
            report = verify(export_copy, regenerate=regenerate)
            assert not report.ok and report.problems[0].startswith("README.md: its YAML or a generated block")
        write_checksums(export_copy)  # consistent checksums do not hide it
        assert verify(export_copy, regenerate=False).problems[0].startswith("README.md: its YAML")


def rewrite_as_another_writer(folder):
    """Every Parquet file rewritten as another pyarrow version might: other row groups and compression."""
    paths = sorted(folder.glob("*/*.parquet"))
    for path in paths:
        table = pq.read_table(path)
        before = path.read_bytes()
        pq.write_table(table, path, row_group_size=7, compression="snappy", use_dictionary=False)
        assert path.read_bytes() != before and pq.read_table(path).equals(table)
    return paths


def test_a_parquet_rewrite_by_another_writer_passes_on_content(export_copy):
    """Content path: the Hub (or a user) rewrote the Parquet files; CHECKSUMS no longer match their bytes."""
    rewrite_as_another_writer(export_copy)
    for regenerate in (False, True):
        report = verify(export_copy, regenerate=regenerate)
        assert report.ok, report.problems
        assert any(n.startswith(f"{ZS}: content identical, bytes differ") for n in report.notes)
    edit_row(export_copy, 2, "question", "What is 1 + 1?", fix_row_hash=True)
    report = verify(export_copy, regenerate=False)
    assert report.problems and "rows_sha256" in report.problems[0]


def test_an_export_written_by_another_pyarrow_version_verifies(export_copy, capsys):
    """Content path: an export made with pyarrow X (own manifest and CHECKSUMS) verified with pyarrow Y."""
    rewrite_as_another_writer(export_copy)
    manifest = json.loads((export_copy / MANIFEST).read_text())
    manifest["writer"]["pyarrow"] = "25.0.0"
    for c in manifest["configs"].values():
        for f in c["splits"]["test"]["files"]:
            f["sha256"] = sha256_file(export_copy / f["path"])
            f["bytes"] = (export_copy / f["path"]).stat().st_size
    rewrite_manifest(export_copy, manifest)
    assert verify(export_copy, regenerate=False).ok
    report = verify(export_copy)
    assert report.ok, report.problems
    assert f"{ZS}: content identical, bytes differ (pyarrow 25.0.0 vs {pa.__version__})" in report.notes
    assert cli(["verify", str(export_copy)]) == 0
    assert "content identical, bytes differ (pyarrow 25.0.0" in capsys.readouterr().err

    # any changed row fails, even with its row hash, the manifest and the checksums made consistent
    for index in (0, 7):
        copy = export_copy.parent / f"changed-{index}"
        shutil.copytree(export_copy, copy)
        edit_row(copy, index, "request_budget", 99, fix_row_hash=True)
        report = verify(copy)
        assert not report.ok and any("rows_sha256" in p for p in report.problems)
        split = json.loads((copy / MANIFEST).read_text())["configs"]["mira_zero_shot"]["splits"]["test"]
        split["rows_sha256"] = hashlib.sha256(
            "".join(h + "\n" for h in pq.read_table(copy / ZS)["sha256"].to_pylist()).encode()
        ).hexdigest()
        m = json.loads((copy / MANIFEST).read_text())
        m["configs"]["mira_zero_shot"]["splits"]["test"] = split
        rewrite_manifest(copy, m)
        report = verify(copy)
        assert not report.ok and any(f"row {index}" in p and "request_budget" in p for p in report.problems)


def test_a_manifest_with_malformed_configs_is_a_clear_problem(export_copy):
    manifest = json.loads((export_copy / MANIFEST).read_text())
    manifest["configs"] = {"mira_zero_shot": "oops"}
    (export_copy / MANIFEST).write_text(json.dumps(manifest))
    report = verify(export_copy)
    assert report.problems == ["manifest.json: configs.mira_zero_shot: config 'mira_zero_shot' must be an object "
                               "with 'params' and 'splits' objects"]
    assert report.refused == report.problems[0]


def test_files_outside_the_release_are_noted_not_failed(export_copy):
    (export_copy / "docs").mkdir()
    (export_copy / "docs" / "figure.png").write_bytes(b"png")  # a downloaded Hub repo may hold such files
    (export_copy / "mira_zero_shot" / "extra.parquet").write_bytes(b"x")  # but not inside a config folder
    report = verify(export_copy)
    assert report.problems == ["mira_zero_shot/extra.parquet: not listed in CHECKSUMS",
                               "mira_zero_shot/extra.parquet: not part of the regenerated export"]
    assert "not part of the release (ignored): docs/figure.png" in report.notes
