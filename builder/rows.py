"""Rows back to records: the exact JSONL instances from a ``load_dataset`` row or an export folder.

    import datasets
    from builder.rows import row_to_record
    ds = datasets.load_dataset("MIRA-MATH", "mira_zero_shot", split="test")
    instance = row_to_record("mira_zero_shot", ds[0])     # == the JSONL instance, same key order

Without this package: ``json.loads`` the JSON-text columns (``builder.shape.json_fields``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from builder.export import MANIFEST
from builder.registry import get_spec
from builder.shape import decode


def row_to_record(config: str, row: Mapping[str, Any]) -> dict[str, Any]:
    return decode(get_spec(config).shape, row)


def split_files(folder: str | Path, config: str, split: str = "test") -> list[Path]:
    folder = Path(folder)
    manifest_path = folder / MANIFEST
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if config not in manifest["configs"]:
            raise KeyError(f"{folder} has no config {config!r}; it has {', '.join(manifest['configs'])}")
        return [folder / f["path"] for f in manifest["configs"][config]["splits"][split]["files"]]
    return sorted((folder / config).glob(f"{split}-*.parquet"))


def read_records(folder: str | Path, config: str, split: str = "test") -> Iterator[dict[str, Any]]:
    spec = get_spec(config)
    for path in split_files(folder, config, split):
        for batch in pq.ParquetFile(path).iter_batches(batch_size=1000):
            for row in batch.to_pylist():
                yield decode(spec.shape, row)
