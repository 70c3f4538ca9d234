"""The factories of the deterministic Elenchos agents (``(arg, options) -> agent``, see ``__init__``)."""

from __future__ import annotations

from typing import Any

from elenchos.family import PI_RSA_CHOICES, family
from harness.elenchos.agents.optimal import OptimalAgent
from harness.elenchos.agents.random_agent import RandomAgent
from harness.elenchos.agents.sra import SimpleReflexAgent
from harness.errors import HarnessError


def _no_options(name: str, options: dict[str, str], allowed: tuple[str, ...] = ()) -> None:
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise HarnessError(f"the {name} agent takes no option(s) {', '.join(unknown)}"
                           + (f"; it accepts {', '.join(allowed)}" if allowed else ""))


def make_sra(arg: str | None, options: dict[str, str]) -> Any:
    _no_options("sra", options, ("pi_rsa",))
    choice = options.get("pi_rsa", "level0")
    if choice not in PI_RSA_CHOICES:
        raise HarnessError(f"the sra agent's pi_rsa must be one of {', '.join(PI_RSA_CHOICES)}, not {choice!r}")
    return SimpleReflexAgent(family(pi_rsa=choice))


def make_optimal(arg: str | None, options: dict[str, str]) -> Any:
    _no_options("optimal", options)
    return OptimalAgent()


def make_random(arg: str | None, options: dict[str, str]) -> Any:
    _no_options("random", options, ("seed",))
    return RandomAgent(seed=int(options.get("seed", 1234)))

