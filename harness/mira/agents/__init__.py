"""The embedded deterministic agents (no GPU, no key), registered under their spec names.

* ``rule``   responder: offers the canonical hint only when the request names its slot precisely;
* ``cascade:MODEL_SPEC`` responder: ``rule``, with the requests it reads as naming nothing it knows sent to a model
  responder (``cascade.py``);
* ``oracle`` solver:    asks for the canonical slot, then solves exactly with the family's solver;
* ``guess``  solver:    never asks; answers a fixed typed guess (the floor);
* ``copy``   solver:    asks for the slot its view names as missing (else its first unknown), then guesses:
  the standing check that the default views do not announce the gap (issue 24).

Options (``--solver-opt`` / ``--responder-opt``): ``delay_s=SECONDS`` sleeps once per batched call, to
simulate engine latency in tests and scheduler benchmarks.
"""

from __future__ import annotations

from harness import registry
from harness.mira.agents.cascade import CascadeResponder
from harness.mira.agents.copy_solver import CopySolver
from harness.mira.agents.guess import GuessSolver
from harness.mira.agents.oracle import OracleSolver
from harness.mira.agents.rule import RuleResponder

registry.register("mira.responder", "rule", RuleResponder.from_spec)
registry.register("mira.responder", "cascade", CascadeResponder.from_spec)
registry.register("mira.solver", "oracle", OracleSolver.from_spec)
registry.register("mira.solver", "guess", GuessSolver.from_spec)
registry.register("mira.solver", "copy", CopySolver.from_spec)

__all__ = ["CascadeResponder", "CopySolver", "GuessSolver", "OracleSolver", "RuleResponder"]
