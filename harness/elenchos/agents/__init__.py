"""Deterministic agents for the ``elenchos.agent`` role, registered under their spec names.

| spec | agent |
|---|---|
| ``sra`` (``simple_reflex_agent``) | ``SimpleReflexAgent``: probes Pi_RSA, matches against the expected table |
| ``optimal`` | ``OptimalAgent``: adaptive, information-greedy over the library and the hypothesis space |
| ``random`` | ``RandomAgent``: no probes, a uniformly random admissible answer (the paper's chance levels) |

The factories (``factories.py``) take ``(arg, options)`` as the harness registry expects and are registered
lazily, so that a MIRA-only run does not import the Elenchos family; ``random`` accepts ``seed=N``, ``sra``
accepts ``pi_rsa=level0|cover`` (set from ``--pi-rsa`` by ``harness.elenchos.run``).
"""

from __future__ import annotations

from harness import registry

_FACTORIES = "harness.elenchos.agents.factories"
registry.register_lazy("elenchos.agent", "sra", f"{_FACTORIES}:make_sra")
registry.register_lazy("elenchos.agent", "simple_reflex_agent", f"{_FACTORIES}:make_sra")
registry.register_lazy("elenchos.agent", "optimal", f"{_FACTORIES}:make_optimal")
registry.register_lazy("elenchos.agent", "random", f"{_FACTORIES}:make_random")
