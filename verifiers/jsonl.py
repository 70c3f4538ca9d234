"""JSONL input with precise, loss-free errors on read.

Writing (``dumps``, ``write_jsonl``, ``sha256_file``) lives in ``generators.jsonl``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.sources import JSONL_ONLY, MIRA, wrong_kind


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


def parse_json_line(raw: bytes) -> tuple[Any, str | None]:
    """(value, None) for a line of JSON, or (None, message) saying why it is not JSON.

    The one reader of JSONL input lines (``verifiers validate`` and ``run_eval.py`` give the same
    message and column for the same line). Never raises: bytes that are not UTF-8, nesting too deep
    for the parser and integers over Python's digit limit are messages, not tracebacks.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte {exc.start + 1} is 0x{raw[exc.start]:02X}); JSONL files are UTF-8"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"malformed JSON at column {exc.colno}: {exc.msg}"
    except RecursionError:
        return None, "malformed JSON: nested too deeply"
    except ValueError as exc:  # an integer over sys.get_int_max_str_digits() digits
        return None, f"malformed JSON: {str(exc).split(';')[0]}"


def iter_lines(path: str | Path) -> Iterator[tuple[int, bytes]]:
    """(line number, raw bytes) of the non-blank lines; only ``\\n`` ends a line."""
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, start=1):
            if raw.strip():
                yield lineno, raw


def read_jsonl(path: str | Path) -> Iterator[tuple[int, Any | RecordError]]:
    """(line number, record) pairs; a line that is not a JSON object yields a ``RecordError``."""
    for lineno, raw in iter_lines(path):
        record, problem = parse_json_line(raw)
        if problem is None and not isinstance(record, dict):
            problem = "a line must be a JSON object"
        if problem is not None:
            yield lineno, RecordError(str(path), lineno, None, "(line)", problem)
            continue
        yield lineno, record


def not_a_jsonl_file(path: str) -> str | None:
    """One line for an export folder or its parts, a Parquet file or a file of another kind
    (``generators.sources.wrong_kind``), for the commands that read a MIRA-Math JSONL file (``validate``,
    ``check-answer``); None when ``path`` may be one."""
    problem = wrong_kind(path, MIRA, JSONL_ONLY)
    if problem is None and Path(path).is_dir():
        return f"{path} is a folder with no MIRA-Math JSONL file; give a JSONL file"
    return problem
