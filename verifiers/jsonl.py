"""JSONL files with stable bytes on write and precise, loss-free errors on read."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class RecordError:
    path: str
    line: int
    record_id: str | None
    field: str
    message: str

    def __str__(self) -> str:
        rid = f" [{self.record_id}]" if self.record_id else ""
        return f"{self.path}:{self.line}{rid}: {self.field}: {self.message}"


def dumps(record: Any) -> str:
    """The one canonical line form: insertion key order, no spaces, UTF-8 kept."""
    return json.dumps(record, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def write_jsonl(path: str | Path, records: Iterable[Any]) -> str:
    """Write atomically (temp file + rename); return the file's sha256."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    h = hashlib.sha256()
    with open(tmp, "wb") as f:
        for record in records:
            line = (dumps(record) + "\n").encode()
            h.update(line)
            f.write(line)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return h.hexdigest()


def read_jsonl(path: str | Path) -> Iterator[tuple[int, Any | RecordError]]:
    """(line number, record) pairs; a line that is not a JSON object yields a ``RecordError``."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                message = f"invalid JSON: {exc.msg} at column {exc.colno}"
                yield lineno, RecordError(str(path), lineno, None, "(line)", message)
                continue
            if not isinstance(record, dict):
                yield lineno, RecordError(str(path), lineno, None, "(line)", "a line must be a JSON object")
                continue
            yield lineno, record


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
