"""JSONL writing with stable bytes: the canonical line form, atomic writes and file checksums.

The lowest package that writes JSONL owns this (the generators write the split); ``verifiers``, ``builder``
and ``harness`` import it from here. Reading input lines is ``verifiers.jsonl``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generators.safefs import atomic_writer


def dumps(record: Any) -> str:
    """The one canonical line form: insertion key order, no spaces, UTF-8 kept."""
    return json.dumps(record, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def write_jsonl(path: str | Path, records: Iterable[Any]) -> str:
    """Write by create-new-then-rename (``generators.safefs``); return the file's sha256.

    If writing fails or is interrupted, the temp file is removed and an existing file at ``path``
    is left exactly as it was; a link at ``path`` is replaced, never written through.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    h = hashlib.sha256()
    with atomic_writer(path, "wb") as f:
        for record in records:
            line = (dumps(record) + "\n").encode()
            h.update(line)
            f.write(line)
    return h.hexdigest()


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
