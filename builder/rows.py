"""Rows back to records: the exact JSONL instances from a ``load_dataset`` row, an export folder or a Hub release.

    import datasets
    from builder.rows import row_to_record
    ds = datasets.load_dataset("ORG/NAME", "mira_zero_shot", split="test", revision="TAG")
    instance = row_to_record("mira_zero_shot", ds[0])     # == the JSONL instance, same key order

    from builder.rows import load_records                 # what run_eval.py uses for --dataset FOLDER|ORG/NAME
    split = load_records("ORG/NAME", "mira_zero_shot", revision="TAG")
    split.records, split.provenance                        # records + resolved commit and checksums

Without this package: ``json.loads`` the JSON-text columns (``builder.shape.json_fields``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from builder.export import MANIFEST
from builder.registry import get_spec
from builder.shape import decode
from generators.jsonl import dumps

REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


class RowsError(ValueError):
    """An export folder or Hub release cannot be read as records (one line, naming what and where)."""


def row_to_record(config: str, row: Mapping[str, Any]) -> dict[str, Any]:
    return decode(get_spec(config).shape, row)


def _manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RowsError(f"{path}: unreadable ({exc})") from None
    return _checked(manifest, str(path))


def _checked(manifest: Any, where: str) -> dict[str, Any]:
    if not isinstance(manifest, dict) or not isinstance(manifest.get("configs"), dict) or not all(
        isinstance(c, dict) for c in manifest["configs"].values()
    ):
        raise RowsError(f"{where}: 'configs' must map config names to objects")
    return manifest


def _check_config(config: str) -> None:
    try:
        get_spec(config)
    except KeyError as exc:
        raise RowsError(str(exc.args[0])) from None


def split_files(folder: str | Path, config: str, split: str = "test") -> list[Path]:
    folder = Path(folder)
    if not folder.is_dir():
        raise RowsError(f"{folder}: no such export folder")
    _check_config(config)
    manifest = _manifest(folder)
    if manifest is not None:
        if config not in manifest["configs"]:
            raise RowsError(f"{folder} has no config {config!r}; it has {', '.join(manifest['configs'])}")
        splits = manifest["configs"][config].get("splits", {})
        if split not in splits:
            raise RowsError(f"{folder}: config {config} has no split {split!r}; it has {', '.join(splits)}")
        return [folder / f["path"] for f in splits[split]["files"]]
    files = sorted((folder / config).glob(f"{split}-*.parquet"))
    if not files:
        raise RowsError(f"{folder}: no {config}/{split}-*.parquet files and no {MANIFEST}")
    return files


def read_records(folder: str | Path, config: str, split: str = "test") -> Iterator[dict[str, Any]]:
    """The records of one split, each checked against its row's ``sha256`` (``RowsError`` names file and row)."""
    from builder.mira_elenchos import record_sha256

    spec = get_spec(config)
    for path in split_files(folder, config, split):
        try:
            batches = pq.ParquetFile(path).iter_batches(batch_size=1000)
            index = 0
            for batch in batches:
                for row in batch.to_pylist():
                    record = decode(spec.shape, row)
                    if record_sha256(record) != row.get("sha256"):
                        raise RowsError(f"{path}: row {index} (id {row.get('id')}): its sha256 does not match its "
                                        "content")
                    yield record
                    index += 1
        except (OSError, pa.ArrowException) as exc:
            raise RowsError(f"{path}: not a readable Parquet file ({exc})") from None


def export_to_jsonl(folder: str | Path, config: str, split: str, out: str | Path) -> dict[str, Any]:
    """``builder to-jsonl``: write the split as canonical JSONL, checked against the manifest; atomic."""
    folder, out = Path(folder), Path(out)
    files = split_files(folder, config, split)  # errors before any file is touched
    manifest = _manifest(folder)
    digest, n = hashlib.sha256(), 0
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            for record in read_records(folder, config, split):
                line = dumps(record) + "\n"
                fh.write(line)
                digest.update(line.encode())
                n += 1
        expected = manifest["configs"][config]["splits"][split].get("jsonl_sha256") if manifest else None
        if expected and expected != digest.hexdigest():
            raise RowsError(f"{folder}: the {config}/{split} rows do not hash to the manifest's jsonl_sha256 "
                            "(a row was changed, added, removed or reordered)")
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return {"file": str(out), "sha256": digest.hexdigest(), "records": n, "files": [str(f) for f in files],
            "checked_against_manifest": bool(manifest)}


# ------------------------------------------------------------------------------ export folders and Hub releases
@dataclass
class LoadedSplit:
    records: list[dict[str, Any]]
    provenance: dict[str, Any]  # source, kind, config, split, revision, resolved_revision, checksums


def is_release_source(source: str) -> bool:
    """An export folder, or a Hub repo id (ORG/NAME that is not a local path)."""
    path = Path(source)
    return path.is_dir() or (not path.exists() and REPO_ID.match(source) is not None
                             and not source.endswith((".jsonl", ".json")))


def load_records(source: str, config: str, split: str = "test", revision: str | None = None,
                 cache_dir: str | None = None) -> LoadedSplit:
    """The records of ``config``/``split`` of an export folder or a Hub release, read through ``datasets``.

    ``datasets`` caches what it reads (by repo, config and resolved commit); every row is decoded losslessly
    (``row_to_record``) and checked against its ``sha256``, and the split against the release's manifest
    (``rows_sha256`` and ``jsonl_sha256``) when it has one."""
    import datasets

    from builder.mira_elenchos import record_sha256

    _check_config(config)
    path = Path(source)
    local = path.is_dir()
    if local and revision:
        raise RowsError(f"{source}: --revision is for a Hub repo id, not a local folder")
    manifest, resolved = (_manifest(path), None) if local else _hub_manifest(source, revision)
    if manifest is not None:
        if config not in manifest["configs"]:
            raise RowsError(f"{source} has no config {config!r}; it has {', '.join(manifest['configs'])}")
        if split not in manifest["configs"][config].get("splits", {}):
            raise RowsError(f"{source}: config {config} has no split {split!r}")
    datasets.disable_progress_bars()
    try:
        ds = datasets.load_dataset(str(path.resolve()) if local else source, config, split=split,
                                   revision=resolved or revision, cache_dir=cache_dir)
    except (ValueError, FileNotFoundError, datasets.exceptions.DatasetNotFoundError) as exc:
        raise RowsError(f"{source}: cannot load config {config!r} split {split!r}: {exc}") from None
    records, rows_h, jsonl_h = [], hashlib.sha256(), hashlib.sha256()
    rows = (row for batch in ds.with_format("arrow").iter(batch_size=1000) for row in batch.to_pylist())
    for i, row in enumerate(rows):
        record = row_to_record(config, row)
        if record_sha256(record) != row["sha256"]:
            raise RowsError(f"{source}: {config}/{split} row {i} (id {row.get('id')}): sha256 does not match")
        rows_h.update((row["sha256"] + "\n").encode())
        jsonl_h.update((dumps(record) + "\n").encode())
        records.append(record)
    expected = (manifest or {}).get("configs", {}).get(config, {}).get("splits", {}).get(split, {})
    for key, h in (("rows_sha256", rows_h), ("jsonl_sha256", jsonl_h)):
        if expected.get(key) and expected[key] != h.hexdigest():
            raise RowsError(f"{source}: {config}/{split} does not match the release manifest's {key}")
    release = (manifest or {}).get("release") or {}
    provenance = {
        "source": source,
        "kind": "export" if local else "hub",
        "config": config,
        "split": split,
        "revision": revision,
        "resolved_revision": resolved,
        "release_tag": release.get("tag"),
        "generator_version": (manifest or {}).get("configs", {}).get(config, {}).get("generator_version"),
        "code_commit": (manifest or {}).get("code_commit"),
        "rows_sha256": rows_h.hexdigest(),
        "jsonl_sha256": jsonl_h.hexdigest(),
        "checked_against_manifest": bool(expected),
    }
    return LoadedSplit(records, provenance)


def _hub_manifest(repo_id: str, revision: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """The release's manifest and the commit ``revision`` resolves to (None, None if it has no manifest)."""
    from huggingface_hub import HfApi
    from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError

    from builder.hub import unreachable_errors, unreachable_message

    api = HfApi()
    try:
        commit = api.dataset_info(repo_id, revision=revision).sha
        with tempfile.TemporaryDirectory() as tmp:
            path = api.hf_hub_download(repo_id, MANIFEST, repo_type="dataset", revision=commit, cache_dir=tmp)
            manifest = json.loads(Path(path).read_text(encoding="utf-8"))
    except EntryNotFoundError:
        return None, commit
    except unreachable_errors() as exc:
        raise RowsError(f"{repo_id}: {unreachable_message(exc)}") from None
    except (HfHubHTTPError, OSError, ValueError) as exc:
        raise RowsError(f"{repo_id}{'@' + revision if revision else ''}: cannot read the release: {exc}") from None
    return _checked(manifest, f"{repo_id}@{revision or 'main'}: {MANIFEST}"), commit
