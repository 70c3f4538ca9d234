"""The release's line format: one released record, read with errors that name the file, line and field.

The format is described in ``../shared/reference-release/README.md``.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

from generators.base import Constraint


class ReferenceFormatError(ValueError):
    """A released line that cannot be mapped: names the file, the line and the field."""

    def __init__(self, path: str, line: int, field_name: str, message: str, record_id: str | None = None):
        self.path, self.line, self.field, self.message, self.record_id = path, line, field_name, message, record_id
        rid = f" [{record_id}]" if record_id else ""
        super().__init__(f"{path}:{line}{rid}: {field_name}: {message}")


class Release:
    """One released record, with field access that fails with the record's path, line and field."""

    def __init__(self, data: Any, path: str, line: int):
        self.path, self.line = path, line
        if not isinstance(data, dict):
            raise ReferenceFormatError(path, line, "(line)", "a line must be a JSON object")
        self.data = data
        rid = data.get("id")
        self.id = rid if isinstance(rid, str) else None
        self.family = self.text(data, "family", "family")
        self.difficulty = self.integer(data, "difficulty", "difficulty")
        if self.difficulty not in (1, 2, 3):
            self.fail("difficulty", f"must be 1, 2 or 3, not {self.difficulty}")
        if self.id is None or not re.fullmatch(r"[a-z]{3}-\d{6}", self.id):
            self.fail("id", f"expected a 3-letter prefix and a 6-digit counter, got {data.get('id')!r}")
        self.meta = self.get(data, "global_metadata", "global_metadata", dict)
        views = self.get(data, "agent_views", "agent_views", list)
        by_agent = {}
        for i, view in enumerate(views):
            agent = self.get(view, "agent_id", f"agent_views[{i}]") if isinstance(view, dict) else None
            by_agent[agent] = (i, view)
        if set(by_agent) != {"A", "B"} or len(views) != 2:
            self.fail("agent_views", "expected exactly two views, for agents 'A' and 'B'")
        self._views = by_agent

    # ------------------------------------------------------------------ failures and typed access
    def fail(self, field_name: str, message: str) -> NoReturn:
        raise ReferenceFormatError(self.path, self.line, field_name, message, self.id)

    def get(self, obj: Any, key: str, where: str, kind: type | tuple[type, ...] | None = None) -> Any:
        if not isinstance(obj, dict) or key not in obj:
            self.fail(f"{where}.{key}" if where != key else key, "missing")
        value = obj[key]
        if kind is not None and not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            self.fail(f"{where}.{key}" if where != key else key, f"expected {names}, got {value!r}")
        return value

    def integer(self, obj: Any, key: str, where: str) -> int:
        value = self.get(obj, key, where)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{where}.{key}" if where != key else key, f"expected an integer, got {value!r}")
        return value

    def text(self, obj: Any, key: str, where: str) -> str:
        return self.get(obj, key, where, str)

    def int_list(self, obj: Any, key: str, where: str) -> list[int]:
        values = self.get(obj, key, where, list)
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            self.fail(f"{where}.{key}", f"expected a list of integers, got {values!r}")
        return values

    def meta_int(self, key: str) -> int:
        return self.integer(self.meta, key, "global_metadata")

    # ------------------------------------------------------------------ views and hint
    def machine(self, agent: str) -> list[tuple[str, Constraint]]:
        """(field path, machine dict) for each of ``agent``'s machine constraints."""
        i, view = self._views[agent]
        where = f"agent_views[{i}].private_data"
        data = self.get(view, "private_data", f"agent_views[{i}]", dict)
        items = self.get(data, "constraints_machine", where, list)
        out = []
        for k, c in enumerate(items):
            path = f"{where}.constraints_machine[{k}]"
            if not isinstance(c, dict) or not isinstance(c.get("type"), str):
                self.fail(f"{path}.type", "a machine constraint needs a string 'type'")
            out.append((path, c))
        return out

    def texts(self, agent: str) -> list[str]:
        i, view = self._views[agent]
        data = self.get(view, "private_data", f"agent_views[{i}]", dict)
        return [t for t in self.get(data, "constraints_text", f"agent_views[{i}].private_data", list)
                if isinstance(t, str)]

    def unknowns(self, agent: str = "A") -> list[str]:
        i, view = self._views[agent]
        data = self.get(view, "private_data", f"agent_views[{i}]", dict)
        return self.get(data, "unknowns", f"agent_views[{i}].private_data", list)

    def hint(self) -> tuple[str, Constraint, int]:
        """(field path, the hint as a machine dict, its index in B's machine constraints)."""
        spec = self.get(self.data, "minimal_hint_spec", "minimal_hint_spec", dict)
        hints = self.get(spec, "atomic_hints", "minimal_hint_spec", list)
        if len(hints) != 1 or not isinstance(hints[0], dict):
            self.fail("minimal_hint_spec.atomic_hints", f"expected exactly one atomic hint, got {len(hints)}")
        where = "minimal_hint_spec.atomic_hints[0]"
        kind = self.text(hints[0], "kind", where)
        constraint = {"type": kind}
        constraint.update({k: v for k, v in hints[0].items() if k not in ("hint_id", "kind", "providers", "consumers")})
        matches = [k for k, (_, c) in enumerate(self.machine("B")) if c == constraint]
        if not matches:
            self.fail(where, f"the atomic hint {constraint} is not one of B's machine constraints")
        return where, constraint, matches[0]

    def solution(self) -> dict[str, Any]:
        sol = self.get(self.data, "global_solution", "global_solution", dict)
        for k, v in sol.items():
            if isinstance(v, bool) or not isinstance(v, int):
                self.fail(f"global_solution.{k}", f"expected an integer, got {v!r}")
        return sol
