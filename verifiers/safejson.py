"""Bounded, strict reading and writing of untrusted JSON (model replies and answers).

Reading (``loads`` / ``raw_decode``) rejects, with a ``JsonLimitError`` (a ``ValueError``):

* ``NaN`` / ``Infinity`` (not JSON) and duplicate keys in one object (which value was meant would be a guess);
* integers longer than ``MAX_DIGITS`` digits (Python's own int-string limit would raise elsewhere);
* a number with a fraction or exponent that a double cannot hold exactly as written: out of range
  (``1e999999999``), or more digits than the shortest repr of its double (``0.10000000000000000001``).
  Every float that is read is therefore exactly the decimal that was written;
* strings holding a lone surrogate (``"\\ud800"``): they cannot be written as UTF-8;
* nesting deeper than ``MAX_DEPTH`` (64) levels (a ``RecursionError`` is mapped too).

Writing (``dumps``): strict JSON (``allow_nan=False``) that is always encodable as UTF-8: a record whose
strings hold lone surrogates is written with ``\\uXXXX`` escapes (lossless; a strict parser reads it back).
"""

from __future__ import annotations

import json
import math
from decimal import Decimal, InvalidOperation
from typing import Any

MAX_DIGITS = 1000  # digits of one JSON integer
MAX_FLOAT_CHARS = 64  # characters of one JSON number with a fraction or an exponent
MAX_DEPTH = 64  # nesting of arrays and objects


class JsonLimitError(ValueError):
    """Untrusted JSON outside what is read: a clear parse error, never a crash."""


def _parse_int(text: str) -> int:
    digits = len(text) - (text[:1] == "-")
    if digits > MAX_DIGITS:
        raise JsonLimitError(f"an integer of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_FLOAT_CHARS:
        raise JsonLimitError(f"a number of {len(text)} characters with a fraction or exponent "
                             f"(at most {MAX_FLOAT_CHARS})")
    value = float(text)
    if not math.isfinite(value):
        raise JsonLimitError(f"number {text} is out of range")
    try:
        exact = Decimal(text) == Decimal(repr(value))
    except InvalidOperation:  # pragma: no cover - the scanner only passes JSON numbers
        exact = False
    if not exact:
        raise JsonLimitError(f"number {text} has more precision than a double; write it as a string or fraction")
    return value


def _parse_constant(name: str) -> Any:
    raise JsonLimitError(f"{name} is not JSON")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JsonLimitError(f"duplicate key {key!a}")
        out[key] = value
    return out


DECODER = json.JSONDecoder(strict=False, object_pairs_hook=_pairs, parse_int=_parse_int, parse_float=_parse_float,
                           parse_constant=_parse_constant)


def _check_depth(text: str, value: Any) -> None:
    """Nesting deeper than ``MAX_DEPTH`` is refused (the recursion limit alone is not a bound: the LambdaPy
    kernel raises it). Cheap for ordinary replies: the walk runs only when the text has that many brackets, and
    it visits containers only."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise JsonLimitError(f"JSON nested deeper than {MAX_DEPTH} levels")
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list) and child)
        if len(stack) > 1_000_000:  # pragma: no cover - bounded by the text length anyway
            raise JsonLimitError("JSON too large")


def _check_encodable(value: Any) -> None:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise JsonLimitError("a string holds a lone surrogate (e.g. \\ud800)") from exc


def loads(text: str) -> Any:
    """``json.loads`` under the limits above; ``ValueError`` (``JSONDecodeError`` or ``JsonLimitError``)."""
    try:
        value = DECODER.decode(text)
    except RecursionError as exc:
        raise JsonLimitError("JSON nested too deeply") from exc
    if isinstance(value, dict | list):
        _check_depth(text, value)
    _check_encodable(value)
    return value


def raw_decode(text: str, start: int) -> tuple[Any, int]:
    """One JSON value starting at ``start``: (value, end); ``ValueError`` as ``loads``."""
    try:
        value, end = DECODER.raw_decode(text, start)
    except RecursionError as exc:
        raise JsonLimitError("JSON nested too deeply") from exc
    if isinstance(value, dict | list):
        _check_depth(text[start:end], value)
    _check_encodable(value)
    return value, end


def dumps(record: Any, **kw: Any) -> str:
    """Strict JSON text that encodes to UTF-8: no NaN/Infinity; lone surrogates escaped as ``\\uXXXX``."""
    kw.setdefault("separators", (",", ":"))
    text = json.dumps(record, ensure_ascii=False, allow_nan=False, **kw)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record, ensure_ascii=True, allow_nan=False, **kw)
    return text


def strictify(value: Any, depth: int = 0) -> Any:
    """A copy of ``value`` that ``dumps`` can write: non-finite floats, ints past the string limit and unknown
    objects become strings naming what they were (used only for a record that could not be written as is)."""
    if depth > 200:
        return "<nested too deeply>"
    if isinstance(value, dict):
        return {str(k): strictify(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [strictify(v, depth + 1) for v in value]
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value if value.bit_length() < 3000 else f"<integer of {value.bit_length()} bits>"
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return f"<{type(value).__name__}>"
