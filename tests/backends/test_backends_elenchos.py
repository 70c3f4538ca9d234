"""Model agents for the Elenchos audit loop (role ``elenchos.agent``): parsing, schemas, runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("harness.elenchos.run")

from elenchos.sessions import sessions
from harness import registry
from harness.backends import elenchos_agents, mira_agents
from harness.backends.elenchos_agents import audit_messages, parse_tool_reply, tool_engine_schema
from harness.elenchos.episode import ElenchosEpisode
from harness.elenchos.run import ElenchosRunConfig, run_elenchos


@pytest.mark.parametrize(("text", "call"), [
    ('{"tool": "probe", "arguments": {"source": "eval Zero"}}',
     {"tool": "probe", "arguments": {"source": "eval Zero"}}),
    ('ok {"name": "probe", "args": "{\\"source\\": \\"eval Zero\\"}"}', {"tool": "probe",
                                                                          "arguments": {"source": "eval Zero"}}),
    ('{"function": {"name": "budget_left", "arguments": "{}"}}', {"tool": "budget_left", "arguments": {}}),
    ('{"tool": "submit", "arguments": {"corrupted_kernel": "b", "mutation_ids": "id_4"}}',
     {"tool": "submit_answer", "arguments": {"corrupted_kernel": "B", "mutation_ids": ["ID_04"], "justification": "",
                                             "minimal_probe": "", "explanatory_probe": ""}}),
])
def test_tool_calls_are_read_leniently(text: str, call: dict) -> None:
    parsed, error = parse_tool_reply(text)
    assert error is None and parsed == call


@pytest.mark.parametrize(("text", "fragment"), [
    ("no idea", "no JSON object"),
    ('{"tool": "explode", "arguments": {}}', "unknown tool"),
    ('{"tool": "probe", "arguments": {}}', "elenchos_tool_call"),
    ('{"tool": "submit_answer", "arguments": {"corrupted_kernel": "C", "mutation_ids": []}}', "elenchos_tool_call"),
])
def test_bad_tool_calls_give_a_parse_error(text: str, fragment: str) -> None:
    parsed, error = parse_tool_reply(text)
    assert parsed is None and fragment in error


@pytest.fixture(scope="module")
def ladder_sessions() -> list[dict]:
    return list(sessions("ladder"))


def _turn(record: dict):
    return ElenchosEpisode(record, {"ID_01": "eval Zero"}).pending().payload


def test_engine_schema_and_prompt_follow_the_level(ladder_sessions) -> None:
    by_level = {r["level"]: r for r in ladder_sessions if r["k"] == 1}
    turn = _turn(by_level[1])
    schema = tool_engine_schema(turn)
    tools = [b["properties"]["tool"] for b in schema["anyOf"]]
    assert tools[0] == {"const": "probe"} and tools[2] == {"const": "submit_answer"}
    submit = schema["anyOf"][2]["properties"]["arguments"]["properties"]
    assert submit["corrupted_kernel"] == {"enum": ["A", "B"]} and submit["mutation_ids"]["maxItems"] == 1
    messages = audit_messages(turn)
    assert messages[0]["content"].startswith("# Role") and "P_max=50" in messages[0]["content"]
    assert "Probes left: 50 of 50" in messages[-1]["content"]
    level0 = audit_messages(_turn(by_level[0]))[0]["content"]
    assert 'Unique probe: "eval Zero"' in level0


@pytest.fixture
def fake_auditor(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(mira_agents.ENGINE_MODULES, "fakellm", "tests.backends.fakes")
    registry.register("elenchos.agent", "fakellm", elenchos_agents._factory("fakellm"))
    yield
    registry._factories["elenchos.agent"].pop("fakellm", None)


def _lines(out: Path) -> dict[str, dict]:
    return {json.loads(x)["instance_id"]: json.loads(x) for x in (out / "transcripts.jsonl").read_text().splitlines()}


def test_model_auditor_runs_sessions_end_to_end(fake_auditor, tmp_path: Path) -> None:
    base = {"suite": "ladder", "agent": "fakellm:m", "limit": 8, "progress": False}
    batched = run_elenchos(ElenchosRunConfig(out=str(tmp_path / "b"), **base))
    single = run_elenchos(ElenchosRunConfig(out=str(tmp_path / "s"), max_concurrent=1, **base))
    lines = _lines(tmp_path / "b")
    assert lines == _lines(tmp_path / "s")  # batched == one by one
    assert len(lines) == 8 and all(r["end_reason"] == "submitted" for r in lines.values())
    events = [e for r in lines.values() for e in r["events"]]
    assert any(e.get("parse_error") for e in events)  # recorded, the session went on
    probes = [e for e in events if e["tool"] == "probe" and e["ok"]]
    assert probes and all(e["cost"] == 1 for e in probes)
    info = batched.info
    assert info["agents"]["agent"]["prompt_version"] == "elenchos-system/2"
    assert info["engine_calls"]["engine_calls"] <= 4 < single.info["engine_calls"]["engine_calls"]


def test_tiny_model_drives_audit_sessions(tiny_model: Path, ladder_sessions) -> None:
    agent = registry.create("elenchos.agent", f"hf:{tiny_model}", {"max_tokens": "48", "reasoning": "false",
                                                                   "source_chars": "24", "threads": "2"})
    try:
        episodes = [ElenchosEpisode(r, {"ID_01": "eval Zero"}) for r in ladder_sessions[:3]]
        for _ in range(3):  # three batched steps: one engine call each
            calls = agent.act([ep.pending().payload for ep in episodes if ep.pending() is not None])
            for ep, call in zip([ep for ep in episodes if ep.pending() is not None], calls, strict=True):
                assert call.parse_error is None or "cut at max_tokens" in call.parse_error
                ep.deliver("agent", call)
        for ep in episodes:
            assert len(ep.events) == 3 and all(e["message"].startswith('{"tool":') for e in ep.events)
        assert agent.stats()["engine_calls"] == 3 and agent.describe()["structured"] is True
    finally:
        agent.close()
