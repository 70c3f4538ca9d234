"""``scripted:FILE``: agents that replay fixed model replies, per instance (MIRA-Math solver) or session (Elenchos).

They exist to check that two front ends give the same numbers: the same script drives ``run_eval.py`` (here)
and inspect_ai's ``mockllm`` provider (``harness.inspect_adapter.mira.mock_outputs``), and both read each reply
with the same function (``harness.inspect_adapter.actions``). A script file is JSON::

    {"format": "scripted-replies/1",
     "replies": {"bay-000044": [{"tool": "ask_partner", "arguments": {"request": "What is P(H)?"}},
                                {"content": "Done.", "tool": "submit_answer",
                                 "arguments": {"answer": {"numerator": 10, "denominator": 37}}}],
                 "ben-000003": [{"content": "I think the answer is A."}]}}

A reply is one model turn: optional text ``content``, and a ``tool`` call with its ``arguments`` (none: a turn
without a tool call). An instance whose replies run out gets a turn without a tool call (a parse failure).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness import registry
from harness.elenchos.types import ElenchosAgent, ElenchosTurn, ToolCall
from harness.errors import HarnessError
from harness.inspect_adapter.actions import elenchos_call, mira_action, reply_call
from harness.mira.types import Solver, SolverAction, SolverTurn

SCRIPT_FORMAT = "scripted-replies/1"


def load_script(path: str | Path) -> dict[str, list[dict[str, Any]]]:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise HarnessError(f"{path}: cannot read script: {exc}") from None
    replies = data.get("replies") if isinstance(data, dict) else None
    if not isinstance(replies, dict):
        raise HarnessError(f'{path}: a script is {{"format": "{SCRIPT_FORMAT}", "replies": {{ID: [reply, ...]}}}}')
    for key, items in replies.items():
        if not isinstance(items, list) or not all(isinstance(r, dict) for r in items):
            raise HarnessError(f"{path}: replies[{key!r}] must be a list of objects")
        for index, reply in enumerate(items):
            for field in ("tool", "content", "parse_error"):
                if reply.get(field) is not None and not isinstance(reply[field], str):
                    raise HarnessError(f"{path}: replies[{key!r}][{index}].{field} must be a string")
    return replies


class _Replayer:
    def __init__(self, path: str):
        self.path = path
        self.replies = load_script(path)
        self.used: dict[str, int] = {}

    def next_reply(self, key: str) -> dict[str, Any]:
        index = self.used.get(key, 0)
        self.used[key] = index + 1
        items = self.replies.get(key, [])
        return items[index] if index < len(items) else {"content": ""}

    def leftover(self) -> dict[str, int]:
        """Replies not consumed, per id (a script that says more than the loop asked for)."""
        return {k: len(v) - self.used.get(k, 0) for k, v in self.replies.items() if len(v) > self.used.get(k, 0)}


class ScriptedSolver(Solver):
    def __init__(self, path: str):
        self.replay = _Replayer(path)

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> ScriptedSolver:
        if not arg:
            raise HarnessError("the scripted solver needs a script file: scripted:PATH")
        if options:
            raise HarnessError(f"agent 'scripted': unknown option(s) {', '.join(sorted(options))}")
        return cls(arg)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "script": self.replay.path}

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        return [mira_action(*reply_call(self.replay.next_reply(t.instance_id))) for t in turns]


class ScriptedAuditor(ElenchosAgent):
    def __init__(self, path: str):
        self.replay = _Replayer(path)

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> ScriptedAuditor:
        if not arg:
            raise HarnessError("the scripted agent needs a script file: scripted:PATH")
        if options:
            raise HarnessError(f"agent 'scripted': unknown option(s) {', '.join(sorted(options))}")
        return cls(arg)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "script": self.replay.path}

    def act(self, turns: list[ElenchosTurn]) -> list[ToolCall]:
        return [elenchos_call(*reply_call(self.replay.next_reply(t.session_id))) for t in turns]


registry.register("mira.solver", "scripted", ScriptedSolver.from_spec)
registry.register("elenchos.agent", "scripted", ScriptedAuditor.from_spec)
