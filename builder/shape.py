"""Record shapes: one declaration gives both the ``datasets.Features`` and an exact, loss-free row codec.

A *shape* is an ordered mapping ``field -> spec`` where a spec is

* a dtype name (``"string"``, ``"int32"``, ``"int64"``, ``"bool"``): a typed scalar column;
* ``JSON``: any JSON value, stored as its canonical JSON text in a ``string`` column (used for the
  variable-shaped parts: machine constraints, answers, latent state);
* a ``dict`` (nested shape): a struct;
* a one-element ``list`` ``[spec]``: a list of ``spec``.

``encode`` turns a record into a row, ``decode`` turns a row back into the record with the same keys
in the same order, so ``dumps(decode(encode(r))) == dumps(r)`` byte for byte. ``encode`` refuses a record
whose keys (or key order) differ from the shape, naming the field, so a generator change can never be
silently dropped from the published data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datasets import Features

from generators.jsonl import dumps

JSON = "json"
"""Marker: a JSON value stored as canonical JSON text (``generators.jsonl.dumps``) in a string column."""

SCALARS = {"string": str, "int32": int, "int64": int, "bool": bool}

Shape = Mapping[str, Any]


class ShapeError(ValueError):
    """A record does not have the declared shape (missing, extra or reordered field, wrong type)."""


def features(shape: Shape) -> Features:
    from datasets import Features  # imported here: ``datasets`` costs about a second, and most commands never need it

    return Features({name: _feature(spec) for name, spec in shape.items()})


def _feature(spec: Any):
    from datasets import List, Value

    if spec == JSON:
        return Value("string")
    if isinstance(spec, str):
        if spec not in SCALARS:
            raise ValueError(f"unknown dtype {spec!r}")
        return Value(spec)
    if isinstance(spec, Mapping):
        return {name: _feature(s) for name, s in spec.items()}
    if isinstance(spec, list) and len(spec) == 1:
        return List(_feature(spec[0]))
    raise ValueError(f"bad shape spec {spec!r}")


def json_fields(shape: Shape, prefix: str = "") -> list[str]:
    """Dotted paths of the JSON-text leaves (``[]`` marks a list level), for the card and the docs."""
    out = []
    for name, spec in shape.items():
        path = f"{prefix}{name}"
        while isinstance(spec, list):
            path += "[]"
            spec = spec[0]
        if spec == JSON:
            out.append(path)
        elif isinstance(spec, Mapping):
            out.extend(json_fields(spec, path + "."))
    return out


def encode(shape: Shape, record: Mapping[str, Any], path: str = "") -> dict[str, Any]:
    """The row for ``record``; raises ``ShapeError`` (with the field path) on any mismatch."""
    if not isinstance(record, Mapping):
        raise ShapeError(f"{path or '(record)'}: expected an object, got {type(record).__name__}")
    keys, expected = list(record), list(shape)
    if keys != expected:
        missing = [k for k in expected if k not in record]
        extra = [k for k in keys if k not in shape]
        where = path or "(record)"
        if missing or extra:
            raise ShapeError(f"{where}: fields differ from the builder's shape (missing {missing}, extra {extra})")
        raise ShapeError(f"{where}: field order {keys} differs from the builder's shape {expected}")
    return {name: _encode(spec, record[name], f"{path}{name}") for name, spec in shape.items()}


def _encode(spec: Any, value: Any, path: str) -> Any:
    if spec == JSON:
        return dumps(value)
    if isinstance(spec, str):
        kind = SCALARS[spec]
        if value is None or type(value) is not kind:
            raise ShapeError(f"{path}: expected {spec}, got {type(value).__name__}")
        bits = {"int32": 31, "int64": 63}.get(spec)
        if bits and not -(2**bits) <= value < 2**bits:
            raise ShapeError(f"{path}: {value} does not fit {spec}")
        return value
    if isinstance(spec, Mapping):
        return encode(spec, value, path + ".")
    if not isinstance(value, list):
        raise ShapeError(f"{path}: expected a list, got {type(value).__name__}")
    return [_encode(spec[0], item, f"{path}[{i}]") for i, item in enumerate(value)]


def decode(shape: Shape, row: Mapping[str, Any]) -> dict[str, Any]:
    """The record of ``row`` (columns not in the shape, such as ``sha256``, are ignored)."""
    return {name: _decode(spec, row[name]) for name, spec in shape.items()}


def _decode(spec: Any, value: Any) -> Any:
    if spec == JSON:
        return json.loads(value)
    if isinstance(spec, str):
        return value
    if isinstance(spec, Mapping):
        return decode(spec, value)
    return [_decode(spec[0], item) for item in value]
