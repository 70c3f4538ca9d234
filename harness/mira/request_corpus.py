"""Labelled request corpora for judging a responder: load them, rebuild their instances, measure agreement.

A corpus line is ``{"id", "request", "label": "offer"|"decline", "style", "note"?}``; ``id`` is an
instance of the default split (seed 1234, 20 Type-A / 50 Type-B instances per family and difficulty),
rebuilt here from its seed, so a corpus stores no instance data. Used by the corpus tests and
``benchmarks/bench_rule_responder.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.errors import InputError

DEFAULT_SEED, DEFAULT_N_A, DEFAULT_N_B = 1234, 20, 50
LABELS = ("offer", "decline")


@dataclass(frozen=True)
class LabelledRequest:
    id: str
    request: str
    label: str
    style: str
    source: str  # file name
    line: int


def load_corpus(paths: Iterable[str | Path]) -> list[LabelledRequest]:
    """Every line of every file; a malformed line is an error naming file, line and field."""
    out = []
    for path in paths:
        path = Path(path)
        with open(path, encoding="utf-8") as f:
            for lineno, raw in enumerate(f, 1):
                if not raw.strip():
                    continue
                try:
                    row = json.loads(raw)
                except json.JSONDecodeError as exc:
                    raise InputError(str(path), lineno, f"not JSON: {exc}") from None
                for key in ("id", "request", "label", "style"):
                    if not isinstance(row.get(key), str):
                        raise InputError(str(path), lineno, f"field {key!r} must be a string")
                if row["label"] not in LABELS:
                    raise InputError(str(path), lineno, f"field 'label' must be one of {LABELS}")
                out.append(LabelledRequest(row["id"], row["request"], row["label"], row["style"], path.name, lineno))
    return out


def build_instances(ids: Iterable[str], seed: int = DEFAULT_SEED, n_a: int = DEFAULT_N_A,
                    n_b: int = DEFAULT_N_B) -> dict[str, dict[str, Any]]:
    """The default split's instances with these ids (``fam-000123`` is position 123), rebuilt from seeds."""
    from generators.split import _build, typed_slots

    slots = typed_slots(n_a, n_b)
    out = {}
    for instance_id in sorted(set(ids)):
        position = int(instance_id.rsplit("-", 1)[1])
        instance = _build((position, slots[position], seed))
        if instance["id"] != instance_id:
            raise ValueError(f"{instance_id}: position {position} of the split is {instance['id']}")
        out[instance_id] = instance
    return out


@dataclass
class Agreement:
    """Per (label, style) counts of agreement, and the lines that disagree."""

    total: Counter = field(default_factory=Counter)
    agree: Counter = field(default_factory=Counter)
    disagreements: list[tuple[LabelledRequest, str, Any]] = field(default_factory=list)

    def add(self, item: LabelledRequest, decided: str, why: Any = None) -> None:
        key = (item.label, item.style)
        self.total[key] += 1
        if decided == item.label:
            self.agree[key] += 1
        else:
            self.disagreements.append((item, decided, why))

    def rows(self) -> list[tuple[str, str, int, int]]:
        return [(label, style, self.agree[(label, style)], n) for (label, style), n in sorted(self.total.items())]

    @property
    def rate(self) -> float:
        n = sum(self.total.values())
        return sum(self.agree.values()) / n if n else 1.0


def measure(corpus: list[LabelledRequest], instances: dict[str, dict[str, Any]],
            decide: Callable[[dict[str, Any], str], tuple[str, Any]]) -> Agreement:
    """Agreement of ``decide(instance, request) -> (offer|decline, why)`` with the corpus labels."""
    agreement = Agreement()
    for item in corpus:
        decided, why = decide(instances[item.id], item.request)
        agreement.add(item, decided, why)
    return agreement
