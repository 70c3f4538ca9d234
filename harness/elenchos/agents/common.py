"""Helpers shared by the deterministic agents: observation keys, allowed sizes, evidence probes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.elenchos.types import ElenchosTurn
from lambdapy import Observation

ObsKey = tuple[str, str | None, str | None]


def key_of_json(obs: dict[str, Any]) -> ObsKey:
    """A kernel's observation (``{"sigma", "result", "epsilon"}``) as a hashable key."""
    return (obs.get("sigma"), obs.get("result"), obs.get("epsilon"))


def key_of(obs: Observation) -> ObsKey:
    return key_of_json(obs.to_json())


def allowed_sizes(turn: ElenchosTurn) -> list[int]:
    """The non-zero set sizes the prompt allows."""
    return [k for k in turn.k_told if k > 0] or [1, 2, 3]


def evidence(turn: ElenchosTurn) -> tuple[str, str]:
    """(minimal_probe, explanatory_probe): the shortest probe that diverged and a second diverging probe
    (the shortest probe run, and itself, when nothing diverged)."""
    done = turn.probe_results()
    diverged = [src for src, content in done if content.get("diff") not in ("identical", "both reject with same error")]
    pool: Sequence[str] = diverged or [src for src, _ in done]
    if not pool:
        return "", ""
    ordered = sorted(pool, key=len)
    minimal = ordered[0]
    explanatory = ordered[1] if len(ordered) > 1 else ordered[0]
    return minimal, explanatory
