"""Lenient reading of a model's JSON reply, then strict validation against a schema in ``schemas/``.

1. ``json.loads(text, strict=False)`` (control characters inside strings are allowed: grammar-constrained
   decoders can emit them);
2. otherwise the first JSON object in the text (after code fences, prose, a chat template's leftovers);
   a reply cut by the token limit just before its closing braces is closed;
3. the caller maps known alternative keys to the schema's names, then validates with jsonschema.

Nothing here raises for bad model output: every function returns ``(value, error)``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from jsonschema.exceptions import best_match

from schemas import fast_validator, validator

_DECODER = json.JSONDecoder(strict=False)
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
MAX_SCAN = 200  # at most this many '{' positions are tried


def first_json_object(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The reply as a JSON object: the whole text, a fenced block, or the first object found in it."""
    if not isinstance(text, str) or not text.strip():
        return None, "empty reply"
    stripped = text.strip()
    try:
        value = json.loads(stripped, strict=False)
    except (json.JSONDecodeError, RecursionError):
        value = None
    if isinstance(value, dict):
        return value, None
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for candidate in candidates:
        found = _scan(candidate)
        if found is not None:
            return found, None
    if value is not None:
        return None, f"reply is JSON {type(value).__name__}, not an object"
    repaired = _close(stripped)
    if repaired is not None:
        return repaired, None
    return None, "no JSON object in the reply"


def _close(text: str) -> dict[str, Any] | None:
    """A reply cut just before its closing braces (a token limit): ``{"type": "decline"`` + ``}``."""
    if not text.startswith("{"):
        return None
    for closers in ("}", "}}", "}}}", "]}", "]}}"):
        try:
            value = json.loads(text + closers, strict=False)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return None


def _scan(text: str) -> dict[str, Any] | None:
    start = text.find("{")
    tried = 0
    while start != -1 and tried < MAX_SCAN:
        tried += 1
        try:
            value, _ = _DECODER.raw_decode(text, start)
        except (json.JSONDecodeError, RecursionError):
            value = None
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


def lower_keys(obj: dict[str, Any]) -> dict[str, Any]:
    """Keys case-folded with spaces and dashes as underscores (``"Constraint Quoted"`` -> ``constraint_quoted``)."""
    out: dict[str, Any] = {}
    for key, value in obj.items():
        norm = re.sub(r"[\s\-]+", "_", str(key).strip()).lower()
        out.setdefault(norm, value)
    return out


def pick(obj: dict[str, Any], names: tuple[str, ...]) -> Any:
    """The value of the first of ``names`` present in ``obj`` (None if none is)."""
    for name in names:
        if name in obj:
            return obj[name]
    return None


def validation_error(schema: str, obj: Any) -> str | None:
    """None if ``obj`` satisfies ``schemas/<schema>.schema.json``; else one line naming the first problem."""
    if fast_validator(schema).is_valid(obj):
        return None
    error = best_match(validator(schema).iter_errors(obj))
    if error is None:
        return f"{schema}: invalid"
    path = "/".join(str(p) for p in error.absolute_path) or "(root)"
    message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
    return f"{schema}: {path}: {message}"


def as_text(value: Any) -> str | None:
    """A string field as text: strings stripped; numbers written out; anything else None."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return str(value)
    return None


def as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "0"):
        return False
    return None
