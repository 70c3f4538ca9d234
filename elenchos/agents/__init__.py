"""Deterministic agents for the ``elenchos.agent`` role (registered in ``harness/elenchos_agents.py``).

| spec | agent |
|---|---|
| ``sra`` (``simple_reflex_agent``) | ``SimpleReflexAgent``: probes Pi_RSA, matches against the expected table |
| ``optimal`` | ``OptimalAgent``: adaptive, information-greedy over the library and the hypothesis space |
| ``random`` | ``RandomAgent``: no probes, a uniformly random admissible answer (the paper's chance levels) |

Factories take ``(arg, options)`` as the harness registry expects; ``random`` accepts ``seed=N``, ``sra``
accepts ``pi_rsa=level0|cover`` (set from ``--pi-rsa`` by ``elenchos.run``).
"""

from __future__ import annotations

from typing import Any

from elenchos.agents.optimal import OptimalAgent
from elenchos.agents.random_agent import RandomAgent
from elenchos.agents.sra import SimpleReflexAgent

__all__ = ["OptimalAgent", "RandomAgent", "SimpleReflexAgent", "make_optimal", "make_random", "make_sra"]


def _no_options(name: str, options: dict[str, str], allowed: tuple[str, ...] = ()) -> None:
    from harness.errors import HarnessError

    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise HarnessError(f"the {name} agent takes no option(s) {', '.join(unknown)}"
                           + (f"; it accepts {', '.join(allowed)}" if allowed else ""))


def make_sra(arg: str | None, options: dict[str, str]) -> Any:
    from elenchos.family import PI_RSA_CHOICES, family
    from harness.errors import HarnessError

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
