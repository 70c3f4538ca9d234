"""Lenient reading of a model's JSON reply, then strict validation against a schema in ``schemas/``.

1. ``verifiers.safejson.loads`` (control characters inside strings are allowed: grammar-constrained
   decoders can emit them; NaN, duplicate keys, over-long numbers and lone surrogates are parse errors);
2. otherwise the first JSON object in the text (after code fences, prose, a chat template's leftovers);
   a reply cut by the token limit just before its closing braces is closed;
3. the caller maps known alternative keys to the schema's names, then validates with jsonschema.

Nothing here raises for bad model output: every function returns ``(value, error)``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

from jsonschema.exceptions import best_match

from schemas import fast_validator, validator
from verifiers import safejson

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
MAX_SCAN = 200  # at most this many '{' positions are tried
MAX_REPLY_CHARS = 2_000_000  # a longer reply is a parse error, not read
SCAN_WORK = 4  # the scan reads at most this many times the reply's length (plus SCAN_SLACK characters)
SCAN_SLACK = 100_000


def first_json_object(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The reply as a JSON object: the whole text, a fenced block, or the first object found in it.

    Bounded: numbers, keys and strings are read under ``verifiers.safejson``'s limits, and the search for an
    object reads at most ``SCAN_WORK`` times the reply's length, so one reply costs time linear in its length.
    """
    if not isinstance(text, str) or not text.strip():
        return None, "empty reply"
    if len(text) > MAX_REPLY_CHARS:
        return None, f"reply of {len(text)} characters (at most {MAX_REPLY_CHARS} are read)"
    stripped = text.strip()
    limit_error: str | None = None
    try:
        value = safejson.loads(stripped)
    except safejson.JsonLimitError as exc:
        value, limit_error = None, str(exc)
    except ValueError:
        value = None
    if isinstance(value, dict):
        return value, None
    if limit_error is not None:  # the whole reply is JSON, with a value that is not read
        return None, f"unreadable JSON: {limit_error}"
    budget = [SCAN_WORK * len(text) + SCAN_SLACK]
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for candidate in candidates:
        found, error = _scan(candidate, budget)
        if found is not None:
            return found, None
        if error is not None:
            return None, f"unreadable JSON: {error}"
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
            value = safejson.loads(text + closers)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _scan(text: str, budget: list[int]) -> tuple[dict[str, Any] | None, str | None]:
    """The first '{' where a JSON object parses; ``budget[0]`` (characters read) is shared by all candidates.

    After a syntax error the search goes on *after* the error, never inside the broken object (an object nested in
    a broken reply is not the reply); a complete object with a forbidden value (``NaN``, a duplicate key, a huge
    number) ends the search with that error."""
    start = text.find("{")
    tried = 0
    while start != -1 and tried < MAX_SCAN and budget[0] > 0:
        tried += 1
        after = start + 1
        try:
            value, end = safejson.raw_decode(text, start)
            budget[0] -= end - start
        except json.JSONDecodeError as exc:
            value = None
            after = max(after, exc.pos)
            budget[0] -= after - start
        except ValueError as exc:  # safejson.JsonLimitError, or Python's own int-string limit
            return None, str(exc)
        if isinstance(value, dict):
            return value, None
        start = text.find("{", after)
    return None, None


def never_raises(parse: Callable[..., tuple[Any, str | None]]) -> Callable[..., tuple[Any, str | None]]:
    """Wrap a reply parser so that an unexpected exception becomes its parse error: ``(None, "internal ...")``.
    A reply is then recorded like any other unreadable one and the run goes on."""

    @functools.wraps(parse)
    def wrapped(*args: Any, **kw: Any) -> tuple[Any, str | None]:
        try:
            return parse(*args, **kw)
        except Exception as exc:
            return None, f"internal error while reading the reply: {type(exc).__name__}: {str(exc)[:200]}"

    return wrapped


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
    try:
        if fast_validator(schema).is_valid(obj):
            return None
        error = best_match(validator(schema).iter_errors(obj))
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:  # a value the validators cannot hold
        return f"{schema}: invalid ({type(exc).__name__})"
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
