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
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from builder.export import MANIFEST
from builder.registry import get_spec
from builder.shape import decode
from builder.untrusted import (
    NAME,
    ExportError,
    card_matches,
    card_metadata,
    checked_path,
    parquet_file,
    read_manifest,
    refuse_scripts,
    validate_manifest,
)
from generators.jsonl import dumps
from generators.safefs import atomic_writer

REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


class RowsError(ValueError):
    """An export folder or Hub release cannot be read as records (one line, naming what and where)."""


def row_to_record(config: str, row: Mapping[str, Any]) -> dict[str, Any]:
    return decode(get_spec(config).shape, row)


def _manifest(folder: Path) -> dict[str, Any] | None:
    if not (folder / MANIFEST).exists() and not (folder / MANIFEST).is_symlink():
        return None
    try:
        return read_manifest(folder)
    except ExportError as exc:
        raise RowsError(f"{folder}/{exc}") from None


def _checked(manifest: Any, where: str) -> dict[str, Any]:
    try:
        return validate_manifest(manifest, where)
    except ExportError as exc:
        raise RowsError(str(exc)) from None


def _check_config(config: str) -> None:
    try:
        get_spec(config)
    except KeyError as exc:
        raise RowsError(str(exc.args[0])) from None


def _split_paths(folder: Path, config: str, split: str) -> list[str]:
    """The split's files, relative to the folder, each checked to be a path inside it (``RowsError`` otherwise)."""
    if not folder.is_dir():
        raise RowsError(f"{folder}: no such export folder")
    _check_config(config)
    manifest = _manifest(folder)
    if manifest is not None:
        if config not in manifest["configs"]:
            raise RowsError(f"{folder} has no config {config!r}; it has {', '.join(manifest['configs'])}")
        splits = manifest["configs"][config]["splits"]
        if split not in splits:
            raise RowsError(f"{folder}: config {config} has no split {split!r}; it has {', '.join(splits)}")
        rels = [f["path"] for f in splits[split]["files"]]
        where = f"{MANIFEST}: configs.{config}.splits.{split}.files"
    else:
        if not NAME.match(split):
            raise RowsError(f"{folder}: {split!r} is not a split name")
        rels = sorted(p.relative_to(folder).as_posix() for p in (folder / config).glob(f"{split}-*.parquet"))
        if not rels:
            raise RowsError(f"{folder}: no {config}/{split}-*.parquet files and no {MANIFEST}")
        where = f"{config}/{split}-*.parquet"
    for i, rel in enumerate(rels):
        try:
            checked_path(folder, rel, f"{where}[{i}]" if manifest is not None else where)
        except ExportError as exc:
            raise RowsError(f"{folder}/{exc}") from None
    return rels


def split_files(folder: str | Path, config: str, split: str = "test") -> list[Path]:
    folder = Path(folder)
    return [folder / rel for rel in _split_paths(folder, config, split)]


def read_records(folder: str | Path, config: str, split: str = "test") -> Iterator[dict[str, Any]]:
    """The records of one split, each checked against its row's ``sha256`` (``RowsError`` names file and row).

    Each file is opened inside the folder only (a regular file, no link, within the size limit) and must have
    the config's schema before a row is read."""
    from builder.mira_elenchos import record_sha256

    folder = Path(folder)
    spec = get_spec(config)
    for rel in _split_paths(folder, config, split):
        path = folder / rel
        try:
            pf = parquet_file(folder, rel, config)
        except ExportError as exc:
            raise RowsError(f"{folder}/{exc}") from None
        try:
            index = 0
            for batch in pf.iter_batches(batch_size=1000):
                for row in batch.to_pylist():
                    try:
                        record = decode(spec.shape, row)
                    except (ValueError, RecursionError) as exc:
                        raise RowsError(f"{path}: row {index}: a JSON column does not decode "
                                        f"({str(exc)[:100] or type(exc).__name__})") from None
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
    with atomic_writer(out, "w") as fh:  # create-new-then-rename: a link at ``out`` is replaced, not followed
        for record in read_records(folder, config, split):
            line = dumps(record) + "\n"
            fh.write(line)
            digest.update(line.encode())
            n += 1
        expected = manifest["configs"][config]["splits"][split].get("jsonl_sha256") if manifest else None
        if expected and expected != digest.hexdigest():
            raise RowsError(f"{folder}: the {config}/{split} rows do not hash to the manifest's jsonl_sha256 "
                            "(a row was changed, added, removed or reordered)")
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
    if local:
        _check_local_release(path, config, split)
    if manifest is not None:
        if config not in manifest["configs"]:
            raise RowsError(f"{source} has no config {config!r}; it has {', '.join(manifest['configs'])}")
        if split not in manifest["configs"][config].get("splits", {}):
            raise RowsError(f"{source}: config {config} has no split {split!r}")
    datasets.disable_progress_bars()
    try:
        ds = datasets.load_dataset(str(path.resolve()) if local else source, config, split=split,
                                   revision=resolved or revision, cache_dir=cache_dir)
    except (ValueError, OSError, RuntimeError, pa.ArrowException, datasets.exceptions.DatasetNotFoundError,
            datasets.exceptions.DatasetGenerationError) as exc:
        first = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
        raise RowsError(f"{source}: cannot load config {config!r} split {split!r}: {first}") from None
    records, rows_h, jsonl_h = [], hashlib.sha256(), hashlib.sha256()
    rows = (row for batch in ds.with_format("arrow").iter(batch_size=1000) for row in batch.to_pylist())
    for i, row in enumerate(rows):
        try:
            record = row_to_record(config, row)
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            raise RowsError(f"{source}: {config}/{split} row {i}: does not decode ({str(exc)[:100]})") from None
        if record_sha256(record) != row.get("sha256"):
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


def _check_local_release(folder: Path, config: str, split: str) -> None:
    """What ``datasets`` would read of a local folder, checked before it sees the folder: no loading script,
    the card's ``data_files`` inside the folder, and the split's files regular files inside it."""
    try:
        refuse_scripts(folder)
        meta = card_metadata(folder)
        rels = set(_split_paths(folder, config, split))
        for entry in meta.get("configs") or []:
            if entry.get("config_name") == config:
                rels |= {p.relative_to(folder).as_posix() for p in card_matches(folder, entry)}
        for rel in sorted(rels):
            parquet_file(folder, rel, config, f"{rel} (config {config})")  # opened safely, schema checked
    except ExportError as exc:
        raise RowsError(f"{folder}/{exc}") from None


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
