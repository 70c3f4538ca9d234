"""Native tool calls -> protocol actions (no inspect_ai needed), and the ``scripted:`` agents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import registry
from harness.errors import HarnessError
from harness.inspect_adapter.actions import elenchos_call, mira_action


def test_mira_request_and_answer_keep_what_the_model_said() -> None:
    act = mira_action("ask_partner", {"request": "What is mu_4?"}, "I need the death rate.")
    assert act.kind == "request" and act.request == "What is mu_4?"
    assert act.message == "I need the death rate.\nWhat is mu_4?"
    act = mira_action("submit_answer", {"answer": {"numerator": 10, "denominator": 37}}, "")
    assert act.kind == "answer" and act.answer == {"numerator": 10, "denominator": 37}
    assert json.loads(act.message) == {"numerator": 10, "denominator": 37}
    assert mira_action("submit_answer", {"answer": "10/37"}).answer == "10/37"  # graded later by the verifier


@pytest.mark.parametrize(("tool", "arguments", "error"), [
    (None, None, "no tool call"),
    ("calculator", {"x": 1}, "unknown tool 'calculator'"),
    ("ask_partner", {"request": "   "}, "non-empty string"),
    ("ask_partner", ["What is c?"], "must be an object"),
    ("submit_answer", {"value": 3}, "answer argument is missing"),
])
def test_mira_unreadable_turns_are_parse_failures(tool, arguments, error) -> None:
    act = mira_action(tool, arguments, '{"action": "request", "request": "mu4?"}')
    assert act.kind == "invalid" and error in act.parse_error
    assert act.message  # the raw text is kept (and counted for tokens)


def test_mira_provider_parse_error_is_kept() -> None:
    act = mira_action("ask_partner", {}, "", parse_error="Expecting value: line 1 column 12")
    assert act.kind == "invalid" and "Expecting value" in act.parse_error


def test_elenchos_calls() -> None:
    call = elenchos_call("probe", {"source": "eval Zero"}, "Start simple.")
    assert call.tool == "probe" and call.arguments == {"source": "eval Zero"} and call.message == "Start simple."
    assert elenchos_call(None, None, "I think A.").parse_error.startswith("no tool call")
    assert elenchos_call("probe", "eval Zero").parse_error == "arguments must be an object"
    assert elenchos_call("probe", {}, parse_error="bad JSON").parse_error == "bad JSON"


def test_scripted_agents(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "scripted-replies/1", "replies": {
        "x": [{"tool": "ask_partner", "arguments": {"request": "What is c?"}}]}}), encoding="utf-8")
    solver = registry.create("mira.solver", f"scripted:{path}")
    agent = registry.create("elenchos.agent", f"scripted:{path}")
    assert solver.describe()["script"] == str(path) and agent.describe()["script"] == str(path)
    assert solver.replay.leftover() == {"x": 1}
    with pytest.raises(HarnessError, match="needs a script file"):
        registry.create("mira.solver", "scripted")
    bad = tmp_path / "bad.json"
    bad.write_text('{"replies": {"x": "ask"}}', encoding="utf-8")
    with pytest.raises(HarnessError, match="must be a list"):
        registry.create("elenchos.agent", f"scripted:{bad}")
    bad.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(HarnessError, match="a script is"):
        registry.create("mira.solver", f"scripted:{bad}")
    bad.write_text('{"replies": {"x": [{"content": 5}]}}', encoding="utf-8")
    with pytest.raises(HarnessError, match=r"replies\['x'\]\[0\]\.content must be a string"):
        registry.create("mira.solver", f"scripted:{bad}")
