"""A run with ``--responder cascade:MODEL``: the model is asked only for what the rule cannot read, its offer of the
hint stands, its offer of another of B's facts is a decline, and run.json records both responders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators.jsonl import write_jsonl
from generators.split import generate, typed_slots
from harness import registry
from harness.backends import mira_agents
from harness.mira.agents.rule import RULE_VERSION
from harness.mira.run import MiraRunConfig, run_mira

SCRIPT = {"format": "scripted-replies/1", "replies": {
    # B holds "R2 = 3 ohms" and two topology lines; the rule reads neither request as naming a slot it knows
    "cir-000036": [{"tool": "ask_partner", "arguments": {"request": "How many ohms does the missing piece have?"}},
                   {"tool": "submit_answer", "arguments": {"answer": 0}}],
    "cir-000037": [{"tool": "ask_partner", "arguments": {"request": "Which parts are connected in series?"}},
                   {"tool": "submit_answer", "arguments": {"answer": 0}}],
    "cir-000038": [{"tool": "ask_partner", "arguments": {"request": "What is R6?"}},
                   {"tool": "submit_answer", "arguments": {"answer": 0}}]}}


@pytest.fixture
def fake_responder(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(mira_agents.ENGINE_MODULES, "fakellm", "tests.backends.fakes")
    registry.register("mira.responder", "fakellm", mira_agents._factory("mira.responder", "fakellm"))
    yield
    registry._factories["mira.responder"].pop("fakellm", None)


def test_cascade_run(fake_responder, tmp_path: Path) -> None:
    instances = [i for i in generate(typed_slots(1, 1), 1234) if i["id"] in SCRIPT["replies"]]
    write_jsonl(tmp_path / "zs.jsonl", instances)
    (tmp_path / "script.json").write_text(json.dumps(SCRIPT))
    run_mira(MiraRunConfig(dataset=str(tmp_path / "zs.jsonl"), out=str(tmp_path / "run"),
                           solver=f"scripted:{tmp_path / 'script.json'}", responder="cascade:fakellm:m",
                           progress=False))
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    responder = info["agents"]["responder"]
    assert responder["kind"] == "CascadeResponder" and responder["model"]["spec"] == "fakellm:m"
    assert responder["rule"].startswith(RULE_VERSION) and "nothing_named" in responder["defer"]
    decided = {}
    for line in (tmp_path / "run" / "transcripts.jsonl").read_text().splitlines():
        record = json.loads(line)
        [event] = [e for e in record["events"] if e.get("agent") == "B"]
        decided[record["instance_id"]] = event
    offered = decided["cir-000036"]
    assert offered["type"] == "offer" and offered["constraint_quoted"] == "R2 = 3 ohms"
    assert offered["rationale"]["rule"] == "model_offer" and offered["rationale"]["deferred"] == "nothing_named"
    other = decided["cir-000037"]  # the fake model quotes a topology line: not B's withheld fact
    assert other["type"] == "decline" and other["rationale"]["model"] == "offer of another fact"
    ruled = decided["cir-000038"]  # read by the rule: the model is not asked
    assert ruled["type"] == "offer" and ruled["rationale"]["rule"] == "hint" and "model" not in ruled["rationale"]
    assert info["sessions"][-1]["backends"]["responder"]["engine_calls"] == 1  # one batch, two requests
