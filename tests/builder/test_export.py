import json
import os
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
import yaml

from builder.__main__ import main as cli
from builder.card import split_front_matter
from builder.export import CHECKSUMS, MANIFEST, README, data_files, export
from builder.mira_elenchos import row_features
from builder.registry import get_spec
from builder.rows import row_to_record
from generators import GENERATOR_VERSION
from generators.__main__ import main as generators_cli
from generators.jsonl import dumps, sha256_file
from tests.builder.conftest import SMALL, quiet


def hashes(folder: Path) -> dict[str, str]:
    return {p: sha256_file(folder / p) for p in data_files(folder)}


def generator_jsonl(tmp_path, few_shot=False) -> Path:
    out = tmp_path / f"gen-{few_shot}.jsonl"
    args = ["mira", "--seed", str(SMALL["seed"]), "--n-a", str(SMALL["n_a"]), "--n-b", str(SMALL["n_b"])]
    args += ["--difficulties", ",".join(map(str, SMALL["difficulties"])), "--out", str(out)]
    assert generators_cli(args + (["--few-shot"] if few_shot else [])) == 0
    return out


def test_layout_manifest_and_checksums(small_export):
    files = data_files(small_export)
    assert {README, MANIFEST, CHECKSUMS} <= set(files)
    assert "mira_zero_shot/test-00000-of-00001.parquet" in files
    assert "mira_few_shot/test-00000-of-00001.parquet" in files
    listed = dict(reversed(line.split("  ", 1)) for line in (small_export / CHECKSUMS).read_text().splitlines())
    assert set(listed) == set(files) - {CHECKSUMS}
    assert all(sha256_file(small_export / p) == h for p, h in listed.items())
    manifest = json.loads((small_export / MANIFEST).read_text())
    assert manifest["generator_versions"]["mira"] == GENERATOR_VERSION and manifest["code_commit"] == "0" * 40
    assert manifest["configs"]["mira_zero_shot"]["generator_version"] == GENERATOR_VERSION
    params = manifest["configs"]["mira_zero_shot"]["params"]
    assert params["seed"] == SMALL["seed"] and params["n_a"] == 1 and params["n_b"] == 2
    assert params["difficulties"] == [1, 3] and params["families"]
    split = manifest["configs"]["mira_zero_shot"]["splits"]["test"]
    assert split["num_examples"] == sum(split["counts"].values())
    assert split["files"][0]["sha256"] == listed[split["files"][0]["path"]]
    assert set(manifest["skipped"]) >= set() and "mira_few_shot" in manifest["configs"]


def test_readme_front_matter(small_export):
    meta, body = split_front_matter((small_export / README).read_text())
    assert meta["license"] == "cc-by-4.0" and meta["pretty_name"] and meta["task_categories"] and meta["tags"]
    assert meta["size_categories"] == ["n<1K"]
    configs = {c["config_name"]: c for c in meta["configs"]}
    assert configs["mira_zero_shot"]["default"] is True
    assert configs["mira_zero_shot"]["data_files"] == [{"split": "test", "path": "mira_zero_shot/test-*.parquet"}]
    for info in meta["dataset_info"]:
        feats = datasets.Features._from_yaml_list(info["features"])
        assert feats == row_features(get_spec(info["config_name"]))
        assert info["splits"][0]["num_examples"] > 0
    assert "<!-- export:release -->" in body and "| `mira_zero_shot` | test |" in body
    assert yaml.safe_load((small_export / README).read_text().split("---\n")[1])  # valid YAML


def test_parquet_has_fixed_row_groups_and_no_timestamps(small_export):
    path = small_export / "mira_zero_shot/test-00000-of-00001.parquet"
    meta = pq.ParquetFile(path).metadata
    assert set(meta.metadata) == {b"huggingface", b"ARROW:schema"}
    hf = json.loads(meta.metadata[b"huggingface"])
    assert datasets.Features.from_dict(hf["info"]["features"]) == row_features(get_spec("mira_zero_shot"))


def test_export_is_byte_identical_across_runs_and_process_counts(small_export, tmp_path):
    again = tmp_path / "again" / "MIRA-MATH"
    export(again, code_commit="0" * 40, log=quiet, num_proc=2, **SMALL)
    assert hashes(again) == hashes(small_export)


def test_load_dataset_from_the_parent_folder_offline(small_export, tmp_path, monkeypatch):
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["HF_DATASETS_OFFLINE"] == "1"
    monkeypatch.chdir(small_export.parent)
    for name, few_shot in (("mira_zero_shot", False), ("mira_few_shot", True)):
        ds = datasets.load_dataset("MIRA-MATH", name, cache_dir=str(tmp_path / "cache"))
        lines = generator_jsonl(tmp_path, few_shot).read_text().splitlines()
        assert list(ds) == ["test"] and ds["test"].num_rows == len(lines)
        assert [dumps(row_to_record(name, row)) for row in ds["test"]] == lines
    default = datasets.load_dataset("MIRA-MATH", split="test", cache_dir=str(tmp_path / "cache"))
    assert default.num_rows == len(lines)


def test_load_dataset_checks_the_declared_split_size(export_copy, tmp_path, monkeypatch):
    path = export_copy / "mira_zero_shot/test-00000-of-00001.parquet"
    table = pq.read_table(path)
    pq.write_table(table.slice(0, table.num_rows - 1), path)
    monkeypatch.chdir(export_copy.parent)
    with pytest.raises(datasets.exceptions.NonMatchingSplitsSizesError):
        datasets.load_dataset("MIRA-MATH", "mira_zero_shot", cache_dir=str(tmp_path / "cache"))


def test_to_jsonl_gives_back_the_generator_file(small_export, tmp_path, capsys):
    for name, few_shot in (("mira_zero_shot", False), ("mira_few_shot", True)):
        out = tmp_path / f"{name}.jsonl"
        assert cli(["to-jsonl", str(small_export), "--config", name, "--out", str(out)]) == 0
        assert out.read_bytes() == generator_jsonl(tmp_path, few_shot).read_bytes()
        manifest = json.loads((small_export / MANIFEST).read_text())
        assert manifest["configs"][name]["splits"]["test"]["jsonl_sha256"] == sha256_file(out)


def test_export_refuses_to_overwrite(small_export, tmp_path, capsys):
    assert cli(["export", "--out", str(small_export), "--n-a", "1"]) == 2
    assert "exists" in capsys.readouterr().err
    replaced = tmp_path / "replaced"
    export(replaced, code_commit="0" * 40, log=quiet, **SMALL)
    before = hashes(replaced)
    args = ["--configs", "mira_zero_shot", "--n-a", "1", "--n-b", "1", "--difficulties", "1"]
    assert cli(["export", "--out", str(replaced), "--force", *args]) == 0
    assert not (replaced / "mira_few_shot").exists() and hashes(replaced) != before
    # no staging left; the export lock file beside the folder stays (removing it would race a waiting writer)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [".replaced.lock"]
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "x.txt").write_text("mine")
    assert cli(["export", "--out", str(tmp_path / "notes"), "--force", "--n-a", "1"]) == 2
    assert (tmp_path / "notes" / "x.txt").exists()


def test_export_cli_with_a_subset_of_configs(tmp_path, capsys):
    out = tmp_path / "ZS"
    args = ["export", "--out", str(out), "--configs", "mira_zero_shot", "--seed", "99", "--n-a", "1", "--n-b", "1"]
    assert cli([*args, "--difficulties", "2", "--code-commit", "abc"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert list(summary["rows"]) == ["mira_zero_shot"] and "mira_few_shot" in summary["skipped"]
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["skipped"]["mira_few_shot"] == "not selected"
    assert manifest["configs"]["mira_zero_shot"]["params"]["seed"] == 99
    card = (out / "README.md").read_text()
    table = card[card.index("| Config | Split |"):].split("\n\n", 1)[0].splitlines()
    assert "| `mira_few_shot` | - |" in card and len({line.count("|") for line in table}) == 1  # skipped rows too


def test_elenchos_configs_export_load_and_verify_once_plugged_in(tmp_path, monkeypatch):
    import sys

    from builder.verify import verify
    from tests.builder.test_builder import fake_hf_records

    monkeypatch.setitem(sys.modules, "elenchos.hf_records", fake_hf_records())
    out = tmp_path / "MIRA-MATH"
    manifest = export(out, code_commit="x", log=quiet, **{**SMALL, "repetitions": 2})
    assert {"elenchos_configurations", "elenchos_ladder", "elenchos_benchmark"} <= set(manifest["configs"])
    assert manifest["configs"]["elenchos_ladder"]["params"] == {"seed": SMALL["seed"], "repetitions": 2}
    assert verify(out).ok
    monkeypatch.chdir(tmp_path)
    ds = datasets.load_dataset("MIRA-MATH", "elenchos_benchmark", split="test", cache_dir=str(tmp_path / "c"))
    assert ds.num_rows == 6 and set(ds["probe_budget"]) == {65}
    assert row_to_record("elenchos_benchmark", ds[0])["metadata"] == {"probe_library": "v1"}
    meta, _ = split_front_matter((out / README).read_text())
    assert "elenchos_ladder" in {c["config_name"] for c in meta["configs"]}


def test_to_jsonl_errors_are_one_clear_line_and_touch_no_file(small_export, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    cases = [
        ([str(tmp_path / "missing")], "no such export folder"),
        ([str(small_export), "--config", "nope"], "unknown config 'nope'"),
        ([str(small_export), "--split", "train"], "has no split 'train'"),
    ]
    for args, message in cases:
        assert cli(["to-jsonl", *args, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("to-jsonl: ") and message in err and err.count("\n") == 1
        assert not out.exists() and not list(tmp_path.glob(".out.jsonl.*"))


def test_to_jsonl_checks_integrity(export_copy, tmp_path, capsys):
    from tests.builder.test_verify import edit_row

    edit_row(export_copy, 1, "question", "changed", fix_row_hash=True)  # row hash fixed: only the manifest knows
    out = tmp_path / "out.jsonl"
    assert cli(["to-jsonl", str(export_copy), "--out", str(out)]) == 2
    assert "jsonl_sha256" in capsys.readouterr().err and not out.exists()
    edit_row(export_copy, 2, "question", "changed again")  # row hash not fixed
    assert cli(["to-jsonl", str(export_copy), "--out", str(out)]) == 2
    assert "row 2" in capsys.readouterr().err and not out.exists()


def test_export_errors_are_messages_not_reprs(tmp_path, capsys):
    assert cli(["export", "--out", str(tmp_path / "x"), "--configs", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("export: unknown config 'nope'; known: mira_zero_shot") and not err.startswith('export: "')


def test_card_default_config_and_sizes_come_from_the_export(tmp_path):
    from builder.card import SIZE_CATEGORIES, default_config, render_readme, size_category

    out = tmp_path / "FEW"
    manifest = export(out, configs=["mira_few_shot"], code_commit="0" * 40, log=quiet, seed=5, n_a=1, n_b=1,
                      difficulties=(2,))
    assert default_config(manifest) == "mira_few_shot"
    text = (out / README).read_text()
    meta, body = split_front_matter(text)
    assert meta["configs"] == [{"config_name": "mira_few_shot", "default": True,
                                "data_files": [{"split": "test", "path": "mira_few_shot/test-*.parquet"}]}]
    assert "mira_zero_shot" not in yaml.safe_dump(meta) and "gives `mira_few_shot` (the default)" in body
    assert "seed=5" in body and "seed 1234" not in body.split("## Configs")[0]
    assert "](docs/" not in body and "https://arxiv.org/abs/2607.07391" in body
    assert 'load_dataset("ORG/NAME", "mira_few_shot"' in body  # no repo id before publish: a visible placeholder
    allowed = {label for _, label in SIZE_CATEGORIES} | {"n>1T"}
    for n in (0, 999, 1000, 10**7, 10**7 + 1, 10**9, 10**13):
        assert size_category(n) in allowed
    assert size_category(20_000_000) == "10M<n<100M"
    assert render_readme(manifest) == text


def test_configs_exported_only_when_named_are_said_to_be_so(small_export):
    from builder.verify import verify

    manifest = json.loads((small_export / MANIFEST).read_text())
    named_only = [name for name in ("mira_zero_shot_notice", "mira_hard") if name in manifest["skipped"]]
    assert named_only == ["mira_zero_shot_notice", "mira_hard"]
    card = (small_export / README).read_text()
    for name in named_only:
        assert f"| `{name}` | - | - | - | not in this export (exported only when named) | - |" in card
    assert "its generator was not available" not in card
    report = verify(small_export, regenerate=False)
    assert report.ok, report.problems
    assert not any("available here now" in note for note in report.notes), report.notes  # nothing was missing
