"""Lenient reading of a model's JSON reply, then strict validation against a schema in ``schemas/``.

1. ``verifiers.safejson.loads`` (control characters inside strings are allowed: grammar-constrained
   decoders can emit them; NaN, duplicate keys, over-long numbers and lone surrogates are parse errors);
2. otherwise the first JSON object in the text (after code fences, prose, a chat template's leftovers);
   a reply cut by the token limit just before its closing braces is closed;
3. the caller maps known alternative keys to the schema's names, then validates with jsonschema.

Nothing here raises for bad model output: every function returns ``(value, error)``.
"""

from __future__ import annotations

import ast
import functools
import io
import json
import re
import tokenize
import warnings
from collections.abc import Callable
from typing import Any

from jsonschema.exceptions import best_match

from schemas import fast_validator, validator
from verifiers import safejson

MAX_SCAN = 200  # at most this many '{' positions are tried
NO_OBJECT = "no JSON object in the reply"
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
    found, end, error = _scan(text, 0, budget)
    if error is not None:
        return None, f"unreadable JSON: {error}"
    if found is not None:
        second, _, error = _scan(text, end, budget)
        if error is not None:
            return None, f"unreadable JSON: {error}"
        if second is not None and second != found:
            return None, "two different JSON objects in the reply (which one is meant?)"
        return found, None
    if value is not None:
        return None, f"reply is JSON {type(value).__name__}, not an object"
    repaired = _close(stripped) or _python_literal(_unfence(stripped))
    if repaired is not None:
        return repaired, None
    return None, NO_OBJECT


def _close(text: str) -> dict[str, Any] | None:
    """A reply cut just before its closing braces (a token limit): ``{"type": "decline"`` + ``}``. Not when it
    ends in a number or a word, which the cut may have shortened (``{"value": -1`` of ``-1400675``)."""
    if not text.startswith("{") or text[-1:] not in ('"', "}", "]"):
        return None
    for closers in ("}", "}}", "}}}", "]}", "]}}"):
        try:
            value = safejson.loads(text + closers)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _scan(text: str, start: int, budget: list[int]) -> tuple[dict[str, Any] | None, int, str | None]:
    """(the first JSON object at or after ``start``, where it ends, None) or (None, 0, error or None).

    ``budget[0]`` (characters read) is shared by all calls for one reply. After a syntax error the search goes on
    *after* the error, never inside the broken object (an object nested in a broken reply is not the reply); a
    complete object with a forbidden value (``NaN``, a duplicate key, a huge number) ends the search with that
    error."""
    start = text.find("{", start)
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
            return None, 0, str(exc)
        if isinstance(value, dict):
            return value, end, None
        start = text.find("{", after)
    return None, 0, None


MAX_LITERAL_CHARS = 20_000
_LITERAL_NAMES = {"None": "null", "True": "true", "False": "false", "null": "null", "true": "true", "false": "false"}
_LITERAL_OPS = frozenset("{}[]:,-")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def _unfence(text: str) -> str:
    """The inside of a reply that is one fenced block (no regex: a reply of many fences must stay cheap)."""
    if len(text) > MAX_LITERAL_CHARS + 20 or not (text.startswith("```") and text.endswith("```")) or len(text) < 6:
        return text
    first_line_end = text.find("\n")
    return text[first_line_end + 1:-3].strip() if 0 < first_line_end < len(text) - 3 else text


def _literal_as_json(text: str) -> str:
    parts: list[str] = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING:
            if tok.string[:1] not in "'\"":  # no prefixes: b'', f'', r''
                raise ValueError("a prefixed string")
            parts.append(json.dumps(ast.literal_eval(tok.string)))
        elif tok.type == tokenize.NAME and tok.string in _LITERAL_NAMES:
            parts.append(_LITERAL_NAMES[tok.string])
        elif tok.type == tokenize.NUMBER and _JSON_NUMBER.fullmatch(tok.string):
            if parts and parts[-1] == "-":  # "-5": a sign token, then the number
                parts[-1] = "-" + tok.string
            else:
                parts.append(tok.string)
        elif tok.type == tokenize.OP and tok.string in _LITERAL_OPS:
            parts.append(tok.string)
        elif tok.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT):
            raise ValueError(f"token {tok.string[:20]!a} in a Python literal")
    return " ".join(parts)


def _python_literal(text: str) -> dict[str, Any] | None:
    """A reply written as a Python dict (``{'action': 'answer', 'request': None, ...}``), read token by token
    into JSON (strings re-quoted, None/True/False mapped) and then by ``safejson``: nothing is evaluated."""
    if not (text.startswith("{") and text.endswith("}")) or len(text) > MAX_LITERAL_CHARS:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "invalid escape sequence" in a string token
            value = safejson.loads(_literal_as_json(text))
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return value if isinstance(value, dict) else None


class AmbiguousReply(ValueError):
    """A reply that reads as JSON but holds two values for one field; ``never_raises`` makes it the parse error."""


def never_raises(parse: Callable[..., tuple[Any, str | None]]) -> Callable[..., tuple[Any, str | None]]:
    """Wrap a reply parser so that an unexpected exception becomes its parse error: ``(None, "internal ...")``.
    A reply is then recorded like any other unreadable one and the run goes on. ``AmbiguousReply`` is an ordinary
    parse error (its message)."""

    @functools.wraps(parse)
    def wrapped(*args: Any, **kw: Any) -> tuple[Any, str | None]:
        try:
            return parse(*args, **kw)
        except AmbiguousReply as exc:
            return None, str(exc)
        except Exception as exc:
            return None, f"internal error while reading the reply: {type(exc).__name__}: {str(exc)[:200]}"

    return wrapped


def lower_keys(obj: dict[str, Any]) -> dict[str, Any]:
    """Keys case-folded with spaces and dashes as underscores (``"Constraint Quoted"`` -> ``constraint_quoted``).

    Two keys that fold to one name with different values (``{"answer": 5, "Answer": 6}``) raise
    ``AmbiguousReply``: which value was meant would be a guess, as for a duplicate key."""
    out: dict[str, Any] = {}
    for key, value in obj.items():
        norm = re.sub(r"[\s\-]+", "_", str(key).strip()).lower()
        if norm in out and out[norm] != value:
            raise AmbiguousReply(f"two keys read as {norm[:40]!a} with different values (which one is meant?)")
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


def as_word(value: Any) -> str | None:
    """A keyword field (an action, a decision) as one lower-case word with underscores; anything else None."""
    return value.strip().lower().replace("-", "_") if isinstance(value, str) else None
