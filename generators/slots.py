"""Indexed slots that several families share: a matrix entry ``M[r][c]`` and a vector component ``v[k]``.

The names a request may use for them (``M[r,c]``, ``M_{rc}``, ``the (r, c) entry of M``, ``v_k``, ...), and the
hint alternatives of an integer hint with no domain of its own, and the facts that give such slots. The families
add their own words around these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

NEARBY_DELTAS = (1, -1, 2, -2, 3, -3)


def nearby_values(hint: dict[str, Any]) -> list[dict[str, Any]]:
    """``hint`` with its integer ``value`` moved by each of ``NEARBY_DELTAS``."""
    return [{**hint, "value": hint["value"] + delta} for delta in NEARBY_DELTAS]


def entry_pattern(matrix: str) -> re.Pattern[str]:
    """The slot name of an entry of ``matrix``: ``M[r][c]``."""
    return re.compile(rf"^{re.escape(matrix)}\[(\d+)\]\[(\d+)\]$")


def component_pattern(vector: str) -> re.Pattern[str]:
    """The slot name of a component of ``vector``: ``v[k]``."""
    return re.compile(rf"^{re.escape(vector)}\[(\d+)\]$")


def parse_entry_slot(pattern: re.Pattern[str], slot: str, what: str) -> tuple[int, int]:
    """(row, column) of an entry slot matched by ``pattern``; ``ValueError`` naming ``what`` otherwise."""
    m = pattern.match(slot)
    if not m:
        raise ValueError(f"not a {what} slot: {slot!r}")
    return int(m.group(1)), int(m.group(2))


def entry_notations(matrix: str, r: int, c: int) -> list[str]:
    """``M[r][c]``, ``M[r,c]``, ``M_rc``, ``M_{rc}``, ``M_{r,c}``."""
    return [f"{matrix}[{r}][{c}]", f"{matrix}[{r},{c}]", f"{matrix}_{r}{c}", f"{matrix}_{{{r}{c}}}",
            f"{matrix}_{{{r},{c}}}"]


def entry_positions(matrix: str, r: int, c: int) -> list[str]:
    """``the (r,c) entry of M``, ``the (r, c) entry of M``, ``the entry in row r, column c of M``."""
    return [f"the ({r},{c}) entry of {matrix}", f"the ({r}, {c}) entry of {matrix}",
            f"the entry in row {r}, column {c} of {matrix}"]


def component_notations(vector: str, k: str | int) -> list[str]:
    """``v[k]``, ``v_k``, ``vk``."""
    return [f"{vector}[{k}]", f"{vector}_{k}", f"{vector}{k}"]


@dataclass(frozen=True)
class EntryFacts:
    """Facts that give one entry of a matrix or one component of a vector, e.g. ``M[1][2] = 5``, ``v[2] = 3``.

    ``entry_type`` facts carry ``row``, ``col``, ``value``; ``component_type`` facts carry ``index_key`` and
    ``value``; a ``domain`` fact renders as its ``statement``.
    """

    entry_type: str
    matrix: str
    component_type: str
    vector: str
    index_key: str

    def slot_name(self, c: dict[str, Any]) -> str | None:
        if c["type"] == self.entry_type:
            return f"{self.matrix}[{c['row']}][{c['col']}]"
        if c["type"] == self.component_type:
            return f"{self.vector}[{c[self.index_key]}]"
        return None

    def render(self, c: dict[str, Any]) -> str:
        if c["type"] == "domain":
            return c["statement"]
        slot = self.slot_name(c)
        if slot is None:
            raise ValueError(f"unknown constraint type {c['type']!r}")
        return f"{slot} = {c['value']}"
