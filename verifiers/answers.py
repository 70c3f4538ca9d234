"""Exact answers: JSON encoding, free-form parsing and type-aware comparison.

Answer types (the field ``answer_type`` of an instance):

* ``int``       -> Python ``int``;      JSON ``{"value": N}``
* ``rational``  -> ``Fraction``;        JSON ``{"numerator": p, "denominator": q}`` (reduced, q > 0)
* ``dict_int``  -> ``tuple[int, ...]`` in the order of ``answer_keys``; JSON ``{key: N, ...}``

Comparison is exact (``Fraction``), never a float tolerance. A model's answer is parsed from JSON or
from a short written value; anything ambiguous or partial is a parse failure, i.e. wrong.
"""

from __future__ import annotations

import contextlib
import json
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

Answer = int | Fraction | tuple[int | Fraction, ...]
ANSWER_TYPES = ("int", "rational", "dict_int")
WRAPPER_KEYS = ("answer", "final_answer", "result", "solution", "value")


class AnswerParseError(ValueError):
    """A final answer that cannot be read as one exact value of the expected type."""


# ---------------------------------------------------------------- JSON encoding of exact values
def encode_answer(answer_type: str, value: Answer, keys: list[str] | tuple[str, ...] = ()) -> dict:
    if answer_type == "int":
        return {"value": _as_int(value)}
    if answer_type == "rational":
        f = Fraction(value)  # type: ignore[arg-type]
        return {"numerator": f.numerator, "denominator": f.denominator}
    if answer_type == "dict_int":
        if len(keys) != len(value):  # type: ignore[arg-type]
            raise ValueError(f"{len(keys)} keys for a {len(value)}-tuple")  # type: ignore[arg-type]
        return {k: _as_int(v) for k, v in zip(keys, value, strict=True)}  # type: ignore[arg-type]
    raise ValueError(f"unknown answer_type {answer_type!r}")


def decode_answer(answer_type: str, data: dict, keys: list[str] | tuple[str, ...] = ()) -> Answer:
    """Inverse of ``encode_answer`` for stored (trusted) answers; strict about shape."""
    if answer_type == "int":
        return _strict_int(data["value"])
    if answer_type == "rational":
        num, den = _strict_int(data["numerator"]), _strict_int(data["denominator"])
        if den <= 0:
            raise ValueError("denominator must be positive")
        return Fraction(num, den)
    if answer_type == "dict_int":
        if list(data) != list(keys):
            raise ValueError(f"keys {list(data)} != answer_keys {list(keys)}")
        return tuple(_strict_int(data[k]) for k in keys)
    raise ValueError(f"unknown answer_type {answer_type!r}")


def _strict_int(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"{x!r} is not an integer")
    return x


def _as_int(x: Any) -> int:
    f = Fraction(x)
    if f.denominator != 1:
        raise ValueError(f"{x} is not an integer")
    return f.numerator


def format_answer(answer_type: str, value: Answer, keys: list[str] | tuple[str, ...] = ()) -> str:
    """The canonical short written form, e.g. ``10/37`` or ``(a, b, c) = (1, -2, 3)``."""
    if answer_type == "dict_int":
        return ", ".join(f"{k} = {v}" for k, v in zip(keys, value, strict=True))  # type: ignore[arg-type]
    return str(value)


# ---------------------------------------------------------------- parsing model output
_NUMBER = r"[+-]?\s*(?:\d+(?:\.\d+)?|\.\d+)"
_FRAC_TEX = re.compile(r"^([+-]?)\s*\\[dt]?frac\s*\{\s*([^{}]+?)\s*\}\s*\{\s*([^{}]+?)\s*\}$")
_SLASH = re.compile(rf"^({_NUMBER})\s*/\s*({_NUMBER})$")
_PLAIN = re.compile(rf"^{_NUMBER}$")
_LABEL = re.compile(r"^(?:final\s+answer|answer)\s*[:=]?\s*", re.I)
_BOXED = re.compile(r"^\\boxed\s*\{(.*)\}$", re.S)
_ASSIGNMENT = re.compile(r"^\s*([A-Za-z\\][^=:]*?)\s*[=:]\s*(.+?)\s*$", re.S)


def parse_scalar(text: Any) -> Fraction:
    """One exact number from an int, exact decimal, ``a/b``, ``\\frac{a}{b}`` or ``{numerator, denominator}``."""
    if isinstance(text, bool):
        raise AnswerParseError("a boolean is not a number")
    if isinstance(text, int):
        return Fraction(text)
    if isinstance(text, Decimal):
        return Fraction(text)
    if isinstance(text, float):
        return Fraction(Decimal(repr(text)))
    if isinstance(text, dict):
        if set(text) == {"numerator", "denominator"}:
            den = parse_scalar(text["denominator"])
            if den == 0:
                raise AnswerParseError("zero denominator")
            return parse_scalar(text["numerator"]) / den
        if len(text) == 1:
            return parse_scalar(next(iter(text.values())))
        raise AnswerParseError(f"object with keys {sorted(text)} is not a number")
    if not isinstance(text, str):
        raise AnswerParseError(f"{type(text).__name__} is not a number")
    s = _strip_decorations(text)
    if m := _FRAC_TEX.match(s):
        sign = -1 if m.group(1) == "-" else 1
        den = parse_scalar(m.group(3))
        if den == 0:
            raise AnswerParseError("zero denominator")
        return sign * parse_scalar(m.group(2)) / den
    if m := _SLASH.match(s):
        den = _decimal(m.group(2))
        if den == 0:
            raise AnswerParseError("zero denominator")
        return _decimal(m.group(1)) / den
    if _PLAIN.match(s):
        return _decimal(s)
    raise AnswerParseError(f"cannot read {text!r} as an exact number")


def _decimal(s: str) -> Fraction:
    try:
        return Fraction(Decimal(s.replace(" ", "")))
    except InvalidOperation as exc:  # pragma: no cover - guarded by the regexes
        raise AnswerParseError(f"bad number {s!r}") from exc


def _strip_decorations(text: str) -> str:
    s = text.strip().strip("$").strip()
    s = _LABEL.sub("", s).strip()
    if m := _BOXED.match(s):
        s = m.group(1).strip()
    return s.rstrip(".").strip()


def _loads(text: str) -> Any:
    return json.loads(text, parse_float=Decimal)


def _normal_key(k: str) -> str:
    return re.sub(r"[\s_{}\\]", "", str(k)).lower()


def parse_answer(raw: Any, answer_type: str, keys: list[str] | tuple[str, ...] = ()) -> Answer:
    """Read a model's final answer as an exact value of ``answer_type``; ``AnswerParseError`` if unsure."""
    value = raw
    if isinstance(raw, str):
        s = _strip_decorations(raw)
        if s[:1] in "{[":
            try:
                value = _loads(s)
            except json.JSONDecodeError:
                value = s
        else:
            value = s
    value = _unwrap(value, answer_type, keys)
    if answer_type in ("int", "rational"):
        if isinstance(value, str) and (m := _ASSIGNMENT.match(value)) and not _SLASH.match(value):
            value = m.group(2)
        return parse_scalar(value)
    if answer_type == "dict_int":
        return _parse_vector(value, keys)
    raise ValueError(f"unknown answer_type {answer_type!r}")


def _unwrap(value: Any, answer_type: str, keys: list[str] | tuple[str, ...]) -> Any:
    """Remove one level of ``{"answer": ...}``-style wrapping, unless the keys are the answer's own."""
    while isinstance(value, dict) and len(value) == 1:
        (k, inner), = value.items()
        if k in WRAPPER_KEYS and not (answer_type == "dict_int" and _normal_key(k) in map(_normal_key, keys)):
            value = inner
            if isinstance(inner, str) and inner.strip()[:1] in "{[":
                with contextlib.suppress(json.JSONDecodeError):
                    value = _loads(_strip_decorations(inner))
            continue
        break
    return value


def _parse_vector(value: Any, keys: list[str] | tuple[str, ...]) -> tuple[Fraction, ...]:
    if isinstance(value, dict):
        by_key = {_normal_key(k): v for k, v in value.items()}
        wanted = [_normal_key(k) for k in keys]
        if sorted(by_key) != sorted(wanted):
            raise AnswerParseError(f"expected keys {list(keys)}, got {list(value)}")
        return tuple(parse_scalar(by_key[k]) for k in wanted)
    if isinstance(value, list):
        if len(value) != len(keys):
            raise AnswerParseError(f"expected {len(keys)} components, got {len(value)}")
        return tuple(parse_scalar(v) for v in value)
    if not isinstance(value, str):
        raise AnswerParseError(f"cannot read {value!r} as a tuple")
    s = value.strip()
    if "=" in s or ":" in s:
        return _parse_assignments(s, keys)
    s = s.strip("()[]⟨⟩ ")
    parts = [p for p in re.split(r"[,;]", s) if p.strip()]
    if len(parts) != len(keys):
        raise AnswerParseError(f"expected {len(keys)} components, got {len(parts)}")
    return tuple(parse_scalar(p) for p in parts)


def _parse_assignments(s: str, keys: list[str] | tuple[str, ...]) -> tuple[Fraction, ...]:
    # "(a, b, c) = (1, 2, 3)" or "a = 1, b = 2, c = 3"
    if m := re.match(r"^\(([^()]*)\)\s*=\s*\(([^()]*)\)$", s):
        names = [n.strip() for n in m.group(1).split(",")]
        vals = [v.strip() for v in m.group(2).split(",")]
        if len(names) != len(vals):
            raise AnswerParseError("names and values differ in number")
        return _parse_vector(dict(zip(names, vals, strict=True)), keys)
    pairs = {}
    for part in re.split(r"[,;\n]|\band\b", s):
        if not part.strip():
            continue
        if not (m := re.match(r"^\s*([A-Za-z][\w]*)\s*[=:]\s*(.+?)\s*$", part)):
            raise AnswerParseError(f"cannot read {part.strip()!r} as name = value")
        if m.group(1) in pairs:
            raise AnswerParseError(f"{m.group(1)} given twice")
        pairs[m.group(1)] = m.group(2)
    return _parse_vector(pairs, keys)


def answers_equal(expected: Answer, got: Answer) -> bool:
    """Exact equality; reduced and unreduced fractions are equal, tuples compare componentwise."""
    if isinstance(expected, tuple) or isinstance(got, tuple):
        if not (isinstance(expected, tuple) and isinstance(got, tuple)) or len(expected) != len(got):
            return False
        return all(Fraction(a) == Fraction(b) for a, b in zip(expected, got, strict=True))
    return Fraction(expected) == Fraction(got)


def check_answer(raw: Any, answer_type: str, expected: Answer, keys: list[str] | tuple[str, ...] = ()) -> bool:
    """True iff ``raw`` parses to exactly ``expected``; unparseable answers are wrong."""
    try:
        return answers_equal(expected, parse_answer(raw, answer_type, keys))
    except AnswerParseError:
        return False
