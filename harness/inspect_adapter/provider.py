"""``--model scripted/SCRIPT.json``: an inspect model provider that replays a ``scripted:`` script (offline).

inspect's ``mockllm`` replays one list of outputs for the whole eval, and without explicit token usage it
counts tokens with tiktoken, which downloads its encoding on first use (impossible offline, e.g. in CI). This
provider replays the replies of the *current sample* (by its id: an instance or session id) in turn order
(the number of assistant messages so far), with usage set, so ``inspect eval`` runs from the command line
with any ``max_samples``. Registered through the ``inspect_ai`` entry point (``harness.inspect_adapter._registry``).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from inspect_ai.solver._task_state import sample_state  # the current sample (no public accessor yet)
from inspect_ai.tool import ToolChoice, ToolInfo

from harness.inspect_adapter.mira import reply_output
from harness.scripted import load_script


class ScriptedModelAPI(ModelAPI):
    def __init__(self, model_name: str, base_url: str | None = None, api_key: str | None = None,
                 config: GenerateConfig | None = None, script: str | None = None, **model_args: Any) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        self.replies = load_script(script or model_name)

    async def generate(self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice,
                       config: GenerateConfig) -> ModelOutput:
        state = sample_state()
        key = str(state.sample_id) if state is not None else ""
        turn = sum(1 for message in input if message.role == "assistant")
        items = self.replies.get(key, [])
        reply = items[turn] if turn < len(items) else {"content": ""}
        return reply_output(reply, model=self.model_name)
