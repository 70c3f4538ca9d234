"""Native tool calls -> our protocol actions; no inspect_ai import (the ``scripted`` agents use it too).

One model turn is one protocol action: its first tool call. A turn without a tool call, with an unknown
tool, or with unreadable arguments is the protocol's parse failure (MIRA-Math: ``SolverAction.invalid``,
which costs one request; Elenchos: ``ToolCall.invalid``, answered with an error and no probe spent).
Any further tool calls of the same turn are not carried out (the model is told so).

``message`` (what our transcripts store and count for tokens) is the turn's text content followed by the
call's payload: the request text for ``ask_partner``, the answer JSON for ``submit_answer``, so a terse
model that only calls tools and a chatty one that explains first are both measured by what they said.
"""

from __future__ import annotations

import json
from typing import Any

from harness.elenchos.types import TOOLS as ELENCHOS_TOOLS
from harness.elenchos.types import ToolCall
from harness.mira.types import SolverAction

ASK_PARTNER = "ask_partner"
MIRA_SUBMIT = "submit_answer"
MIRA_TOOLS = (ASK_PARTNER, MIRA_SUBMIT)
NO_TOOL_CALL = "no tool call (call {tools})"


def _join(content: str | None, payload: str) -> str:
    content = (content or "").strip()
    return f"{content}\n{payload}" if content else payload


def mira_action(tool: str | None, arguments: Any, content: str | None = "",
                parse_error: str | None = None) -> SolverAction:
    """The MIRA-Math action of one model turn (``tool`` None: the turn had no tool call)."""
    text = (content or "").strip()
    if tool is None:
        return SolverAction.invalid(text, NO_TOOL_CALL.format(tools=" or ".join(MIRA_TOOLS)))
    raw = _join(content, json.dumps({"tool": tool, "arguments": arguments}, ensure_ascii=False))
    if parse_error is not None:
        return SolverAction.invalid(raw, f"could not read the {tool} call: {parse_error}")
    if tool not in MIRA_TOOLS:
        return SolverAction.invalid(raw, f"unknown tool {tool!r}; the tools are {', '.join(MIRA_TOOLS)}")
    if not isinstance(arguments, dict):
        return SolverAction.invalid(raw, f"{tool}: arguments must be an object")
    if tool == ASK_PARTNER:
        request = arguments.get("request")
        if not isinstance(request, str) or not request.strip():
            return SolverAction.invalid(raw, "ask_partner: request must be a non-empty string")
        return SolverAction.ask(request, message=_join(content, request))
    if "answer" not in arguments:
        return SolverAction.invalid(raw, "submit_answer: the answer argument is missing")
    answer = arguments["answer"]
    return SolverAction.final(answer, _join(content, json.dumps(answer, ensure_ascii=False)))


def elenchos_call(tool: str | None, arguments: Any, content: str | None = "",
                  parse_error: str | None = None) -> ToolCall:
    """The Elenchos tool call of one model turn; argument checks are the session's (``harness.elenchos.tools``)."""
    text = (content or "").strip()
    if tool is None:
        return ToolCall.invalid(text, NO_TOOL_CALL.format(tools=", ".join(ELENCHOS_TOOLS)))
    if parse_error is not None:
        return ToolCall(tool, {}, message=text, parse_error=parse_error)
    if not isinstance(arguments, dict):
        return ToolCall(tool, {}, message=text, parse_error="arguments must be an object")
    return ToolCall(tool, dict(arguments), message=text)


def reply_call(reply: dict[str, Any]) -> tuple[str | None, Any, str, str | None]:
    """``(tool, arguments, content, parse_error)`` of one scripted reply (``docs/inspect.md``)."""
    return reply.get("tool"), reply.get("arguments", {}), reply.get("content", ""), reply.get("parse_error")
