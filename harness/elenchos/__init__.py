"""Elenchos: the audit loop, session tools, agent interface, deterministic agents, runs, scoring and reports.

Laid out like ``harness.mira``; the data (probe library, F_k, Pi_RSA, sessions, curated sets) is the
``elenchos`` package, which imports nothing from ``harness``.

* ``types``    what the loop exchanges with agents: ``ElenchosAgent.act(list[ElenchosTurn]) -> list[ToolCall]``
               (role ``elenchos.agent``, re-exported here for backends);
* ``tools``    one audit session: two kernels, the four tools, budget;
* ``episode``  the audit loop as a ``harness.scheduler`` episode;
* ``agents``   deterministic agents: Simple Reflex Agent, random, information-optimal;
* ``run``      one run directory; ``cli`` the ``run_eval.py elenchos`` plug-in and the main-job step;
* ``metrics``  per-session scores and aggregates; ``score`` ``run_eval.py score``; ``report`` the tables.

See ``docs/elenchos.md``.
"""

from harness.elenchos.types import ElenchosAgent, ElenchosTurn, ToolCall, ToolExchange, ToolResult
from schemas import ELENCHOS_PROTOCOL_VERSION as PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "ElenchosAgent", "ElenchosTurn", "ToolCall", "ToolExchange", "ToolResult"]
