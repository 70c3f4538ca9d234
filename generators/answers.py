"""Exact answer values: the answer types, their JSON encoding and exact equality.

Answer types (the field ``answer_type`` of an instance):

* ``int``       -> Python ``int``;      JSON ``{"value": N}``
* ``rational``  -> ``Fraction``;        JSON ``{"numerator": p, "denominator": q}`` (reduced, q > 0)
* ``dict_int``  -> ``tuple[int, ...]`` in the order of ``answer_keys``; JSON ``{key: N, ...}``

The generators own these (they compute and store answers); ``verifiers.answers`` builds on them to read a
model's free-form answer. Comparison is exact (``Fraction``), never a float tolerance.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

Answer = int | Fraction | tuple[int | Fraction, ...]
ANSWER_TYPES = ("int", "rational", "dict_int")


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


def answers_equal(expected: Answer, got: Answer) -> bool:
    """Exact equality; reduced and unreduced fractions are equal, tuples compare componentwise."""
    if isinstance(expected, tuple) or isinstance(got, tuple):
        if not (isinstance(expected, tuple) and isinstance(got, tuple)) or len(expected) != len(got):
            return False
        return all(Fraction(a) == Fraction(b) for a, b in zip(expected, got, strict=True))
    return Fraction(expected) == Fraction(got)
