"""JSON Schemas of every record the toolkit writes or reads, with cached validators.

Valid records are accepted through ``jsonschema_rs`` (compiled, ~400x faster on our records); only a record
it rejects goes through ``jsonschema`` to get precise, path-naming messages.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator

# The versions of the two interaction protocols whose records these schemas describe. They live here, at the
# bottom of the package order, so that the builder's card can name them without importing the harness.
MIRA_PROTOCOL_VERSION = "mira-protocol/1"
ELENCHOS_PROTOCOL_VERSION = "elenchos-protocol/1"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """``name`` without suffix, e.g. ``"mira_instance"`` for ``mira_instance.schema.json``."""
    text = resources.files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@cache
def validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def fast_validator(name: str) -> Any:
    return jsonschema_rs.validator_for(load_schema(name))


def schema_errors(name: str, record: Any) -> list[tuple[str, str]]:
    """(JSON path of the field, message) for every violation, most specific first."""
    if fast_validator(name).is_valid(record):
        return []
    errors = sorted(validator(name).iter_errors(record), key=lambda e: list(e.absolute_path))
    return [(_path(e.absolute_path), e.message) for e in errors]


def _path(parts: Any) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(record)"
