"""The Elenchos benchmark in the harness: ``plugin.PLUGIN`` wires ``run_eval.py elenchos``, ``score`` and the
main-job step to the ``elenchos`` package, which holds the audit loop (``elenchos.episode``), the session
tools (``elenchos.tools``), the runs (``elenchos.run``) and the scoring (``elenchos.metrics``).

The agent interface (role ``elenchos.agent``) is ``elenchos.types``, re-exported here for backends:
``ElenchosAgent.act(list[ElenchosTurn]) -> list[ToolCall]``; see ``docs/elenchos.md``.
"""

from elenchos.types import ElenchosAgent, ElenchosTurn, ToolCall, ToolExchange, ToolResult

__all__ = ["ElenchosAgent", "ElenchosTurn", "ToolCall", "ToolExchange", "ToolResult"]
