"""What the Elenchos audit loop exchanges with an agent, and the batched agent interface (role
``elenchos.agent``).

The loop never calls a model: it hands a *batch* of turns to the agent and gets one ``ToolCall`` back per
turn, in the same order, from one engine call (the style of ``harness.mira.types``). A turn carries
everything an agent may know: the prompt level and what it says about k, the budget, and every earlier
tool call with its result. A tool call is the JSON object of ``schemas/elenchos_tool_call.schema.json`` (the
model-output contract; the loop also accepts loosely written mutation IDs such as ``id_4``, see
``schemas/elenchos_submission.schema.json``)::

    {"tool": "probe",         "arguments": {"source": "assume n : Nat\\neval n"}}
    {"tool": "list_context",  "arguments": {}}
    {"tool": "budget_left",   "arguments": {}}
    {"tool": "submit_answer", "arguments": {"corrupted_kernel": "A", "mutation_ids": ["ID_04"],
                                            "justification": "...", "minimal_probe": "...",
                                            "explanatory_probe": "..."}}

A model backend turns ``ElenchosTurn`` into a prompt (``harness.prompts.elenchos`` for the system prompt,
``ToolExchange.result.text()`` for each tool result), parses the reply into ``ToolCall`` and never raises
for bad model output: ``ToolCall.invalid(raw_text, reason)``. The loop answers an invalid call with an error
result (no probe is spent) and the session goes on.

``privileged`` is filled (with the session record, i.e. the ground truth) only for agents that declare
``privileged = True``; none of the shipped agents does, and model backends never get it.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

TOOLS = ("probe", "list_context", "budget_left", "submit_answer")
LABELS = ("A", "B", "neither")


@dataclass(frozen=True)
class ToolCall:
    """The agent's move: one tool call. ``message`` is the raw text a model produced (stored, not shown to
    the loop); ``parse_error`` marks a reply that could not be read as a tool call."""

    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    parse_error: str | None = None
    usage: dict[str, Any] | None = None

    @staticmethod
    def probe(source: str, **kw: Any) -> ToolCall:
        return ToolCall("probe", {"source": source}, **kw)

    @staticmethod
    def list_context(**kw: Any) -> ToolCall:
        return ToolCall("list_context", {}, **kw)

    @staticmethod
    def budget_left(**kw: Any) -> ToolCall:
        return ToolCall("budget_left", {}, **kw)

    @staticmethod
    def submit(corrupted_kernel: str, mutation_ids: list[str], justification: str = "", minimal_probe: str = "",
               explanatory_probe: str = "", **kw: Any) -> ToolCall:
        return ToolCall("submit_answer", {
            "corrupted_kernel": corrupted_kernel, "mutation_ids": list(mutation_ids),
            "justification": justification, "minimal_probe": minimal_probe, "explanatory_probe": explanatory_probe,
        }, **kw)

    @staticmethod
    def invalid(message: str, parse_error: str, **kw: Any) -> ToolCall:
        return ToolCall("", {}, message=message, parse_error=parse_error, **kw)

    def to_json(self) -> dict[str, Any]:
        """The call as ``schemas/elenchos_tool_call.schema.json`` describes it."""
        return {"tool": self.tool, "arguments": self.arguments}

    @staticmethod
    def from_json(data: Any, message: str = "") -> ToolCall:
        """Read ``{"tool": ..., "arguments": {...}}`` (e.g. a model's JSON reply; other keys such as
        ``reasoning`` are ignored); never raises."""
        if not isinstance(data, dict):
            return ToolCall.invalid(message, f"a tool call must be a JSON object, not {type(data).__name__}")
        tool, arguments = data.get("tool"), data.get("arguments", {})
        if not isinstance(tool, str):
            return ToolCall.invalid(message, 'a tool call needs a "tool" name (string)')
        if not isinstance(arguments, dict):
            return ToolCall(tool, {}, message=message, parse_error='"arguments" must be a JSON object')
        return ToolCall(tool, arguments, message=message)


@dataclass(frozen=True)
class ToolResult:
    """What the loop answers: ``content`` (tool output) when ``ok``, else ``error`` (a clear message).

    ``cost`` is the number of probes the call spent (1 for an executed probe, else 0)."""

    tool: str
    ok: bool
    content: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    cost: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"ok": True, **self.content} if self.ok else {"ok": False, "error": self.error}

    def text(self) -> str:
        """The result as shown to a model: one JSON object."""
        return json.dumps(self.to_json(), ensure_ascii=False)


@dataclass(frozen=True)
class ToolExchange:
    """One earlier turn as the agent sees it again: its call and the loop's result."""

    call: ToolCall
    result: ToolResult


@dataclass(frozen=True)
class ElenchosTurn:
    session_id: str
    level: int  # prompt level 0-3
    prompt_id: str  # "ladder_single_split_probe", ..., "stress_test"
    k_told: list[int]  # cardinalities the prompt allows: [k] at Levels 0-1, [1, 2] at Level 2, [0..3] at Level 3
    allow_neither: bool  # "neither" is a valid kernel label (Level 3)
    budget: int  # P_max: 50 (Ladder) or 65 (Benchmark)
    probes_used: int
    turn: int  # 1-based number of this turn
    max_turns: int  # the session ends without an answer after this many turns
    must_submit: bool  # only submit_answer is accepted now (budget spent, or last turns)
    history: list[ToolExchange]  # every earlier call and its result, in order
    level0_probes: dict[str, str] = field(default_factory=dict)  # Level 0 only: mutation id -> unique probe
    privileged: dict[str, Any] | None = None  # the session record, only for ``privileged`` agents

    @property
    def budget_left(self) -> int:
        return self.budget - self.probes_used

    @property
    def k(self) -> int | None:
        """The exact k when the prompt states it (Levels 0-1)."""
        return self.k_told[0] if len(self.k_told) == 1 else None

    def probe_results(self) -> list[tuple[str, dict[str, Any]]]:
        """``(source, content)`` of every executed probe so far, in order."""
        return [(ex.call.arguments["source"], ex.result.content) for ex in self.history
                if ex.call.tool == "probe" and ex.result.ok and ex.result.cost]


class AgentBase:
    """What every agent offers besides ``act``."""

    spec: str = ""
    privileged: ClassVar[bool] = False  # receives the session record (ground truth); no shipped agent does

    def describe(self) -> dict[str, Any]:
        """Identity and decoding settings for ``run.json`` (never secrets); a resume must match it."""
        return {"spec": self.spec, "kind": type(self).__name__, "deterministic": True}

    def close(self) -> None:
        """Release engines, connections, threads."""


class ElenchosAgent(AgentBase, ABC):
    """An agent for the ``elenchos.agent`` role."""

    @abstractmethod
    def act(self, turns: list[ElenchosTurn]) -> list[ToolCall]:
        """One tool call per turn, same order; never raise for bad model output (``ToolCall.invalid``)."""
