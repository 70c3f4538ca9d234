"""The model loop shared by both inspect tasks: one ``generate`` per protocol turn, tool calls dispatched by us.

inspect's ``execute_tools`` would validate arguments against the tool schema and run every call of a turn;
our protocols decide both themselves (one action per turn, our own argument checks and error texts), so the
loop hands the turn's first tool call to the benchmark's driver and answers every call with a tool message
(the first with the driver's result, the others with "not carried out"). A turn without a tool call is
answered with a user message. The conversation, model events and results are all in the inspect log.
"""

from __future__ import annotations

from typing import Any, Protocol

from inspect_ai.model import ChatMessage, ChatMessageTool, ChatMessageUser, Model, ModelOutput
from inspect_ai.tool import ToolCallError, ToolDef

NOT_CARRIED_OUT = "only the first tool call of a turn is carried out; this one was not"


class Driver(Protocol):
    def wants_model(self) -> bool:
        """True while the protocol waits on the model."""

    async def act(self, tool: str | None, arguments: Any, content: str, parse_error: str | None,
                  usage: dict[str, int] | None) -> tuple[str, bool]:
        """Carry out one turn; ``(text the model is shown next, whether it is an error)``."""


def usage_of(output: ModelOutput) -> dict[str, int] | None:
    """Per-call token counts in the keys our backends report (``prompt_tokens``, ``completion_tokens``)."""
    usage = output.usage
    if usage is None:
        return None
    return {"prompt_tokens": int(usage.input_tokens or 0), "completion_tokens": int(usage.output_tokens or 0)}


async def run_turns(model: Model, messages: list[ChatMessage], tools: list[ToolDef], driver: Driver
                    ) -> tuple[list[ChatMessage], ModelOutput | None]:
    output = None
    while driver.wants_model():
        output = await model.generate(messages, tools=tools)
        message = output.message
        messages.append(message)
        calls = list(message.tool_calls or [])
        first = calls[0] if calls else None
        text, is_error = await driver.act(
            first.function if first else None, first.arguments if first else None, message.text,
            first.parse_error if first else None, usage_of(output))
        if first is None:
            messages.append(ChatMessageUser(content=text))
            continue
        error = ToolCallError("parsing", text) if is_error else None
        messages.append(ChatMessageTool(content=text, tool_call_id=first.id, function=first.function, error=error))
        for extra in calls[1:]:
            messages.append(ChatMessageTool(content=NOT_CARRIED_OUT, tool_call_id=extra.id, function=extra.function,
                                            error=ToolCallError("unknown", NOT_CARRIED_OUT)))
    return messages, output


def option_dict(value: Any) -> dict[str, str]:
    """Agent options from a task parameter: a mapping, or ``"k=v,k2=v2"``."""
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    from harness.registry import parse_options

    return parse_options([p for p in str(value).split(",") if p.strip()])
