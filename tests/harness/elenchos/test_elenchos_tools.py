"""The session tools: invalid calls, budget exhaustion, per-kernel state, submission rules."""

from __future__ import annotations

import pytest

from harness.elenchos.episode import GRACE_TURNS, ElenchosEpisode
from harness.elenchos.tools import AuditSession
from harness.elenchos.types import ToolCall
from schemas import load_schema, schema_errors


def record(level: int = 1, mutations: tuple[str, ...] = ("ID_05",), label: str = "A", budget: int = 50) -> dict:
    k = len(mutations)
    return {"id": "lad-000000", "level": level, "prompt": "ladder_single_split", "k": k, "mutations": list(mutations),
            "interaction": "single", "classes": [], "corrupted_kernel": label, "repetition": 0, "seed": 1,
            "probe_budget": budget, "metadata": {"suite": "ladder", "k_told": [k] if level < 2 else [1, 2],
                                                 "allow_neither": level == 3}, "generator_version": "t"}


def test_probe_returns_both_observations_and_the_diff() -> None:
    s = AuditSession(record())
    r = s.execute(ToolCall.probe("assume n : Nat\neval n"))
    assert r.ok and r.cost == 1 and s.budget_left == 49
    assert r.content["A"] == {"sigma": "accept", "result": "Zero : Nat", "epsilon": None}
    assert r.content["B"]["result"] == "n : Nat"
    assert r.content["diff"] == "result divergence: A=Zero : Nat, B=n : Nat" and r.content["budget_left"] == 49


def test_rejected_probes_cost_a_probe_and_free_tools_do_not() -> None:
    s = AuditSession(record())
    assert s.execute(ToolCall.probe("eval \\x : Nat -> x")).content["diff"] == "both reject with same error"
    assert s.execute(ToolCall.probe("eval Zero; eval Zero")).cost == 1  # format errors are probes too
    assert s.execute(ToolCall.list_context()).cost == 0
    assert s.execute(ToolCall.budget_left()).content == {"budget_left": 48, "probes_used": 2, "budget": 50}


@pytest.mark.parametrize(("call", "message"), [
    (ToolCall("teleport", {}), "unknown tool 'teleport'"),
    (ToolCall.invalid("<<garbage>>", "not JSON"), "could not read the tool call: not JSON"),
    (ToolCall("probe", {}), "source: required"),
    (ToolCall("probe", {"source": "   "}), "source: must be a non-empty string"),
    (ToolCall("probe", {"source": 7}), "source: must be a non-empty string"),
    (ToolCall("probe", {"source": "eval Zero", "kernel": "A"}), "unexpected argument(s) kernel"),
    (ToolCall("list_context", {"kernel": "A"}), "list_context takes no arguments"),
    (ToolCall("submit_answer", {"corrupted_kernel": "A"}), "'mutation_ids' is a required property"),
    (ToolCall("submit_answer", {"corrupted_kernel": "C", "mutation_ids": [], "justification": "",
                                "minimal_probe": "", "explanatory_probe": ""}), "corrupted_kernel"),
    (ToolCall.submit("A", ["ID_14"]), "unknown mutation id 'ID_14'"),
    (ToolCall.submit("neither", []), '"neither" is only possible at Level 3'),
    (ToolCall.submit("A", []), "name at least one mutation id"),
    (ToolCall.submit("A", ["ID_01", "ID_02", "ID_03", "ID_04"]), "at most 3 mutation ids"),
])
def test_invalid_calls_get_a_clear_error_and_cost_nothing(call: ToolCall, message: str) -> None:
    s = AuditSession(record())
    result = s.execute(call)
    assert not result.ok and message in result.error and result.cost == 0
    assert not s.finished and s.budget_left == 50
    assert result.to_json() == {"ok": False, "error": result.error}


def test_submission_rules_at_level_3_and_id_normalisation() -> None:
    s = AuditSession(record(level=3, mutations=(), label="neither", budget=65))
    assert "empty mutation_ids" in s.execute(ToolCall.submit("neither", ["ID_01"])).error
    ok = AuditSession(record(level=3, budget=65)).execute(ToolCall.submit("B", ["id_5", "ID_05", "13"]))
    assert ok.ok and ok.content["mutation_ids"] == ["ID_05", "ID_13"]
    assert s.execute(ToolCall.submit("neither", [])).ok and s.finished
    assert "already submitted" in s.execute(ToolCall.probe("eval Zero")).error


def test_each_kernel_keeps_its_own_state() -> None:
    s = AuditSession(record(mutations=("ID_12",), label="B"))
    r = s.execute(ToolCall.probe("let T : Type1 = Type\nlet U : Type = Type\neval U"))
    assert r.content["A"]["sigma"] == "reject" and r.content["B"]["sigma"] == "accept"
    context = s.execute(ToolCall.list_context()).content
    assert "U" not in context["A"] and "let U : Type = Type" in context["B"] and "let T" in context["A"]
    later = s.execute(ToolCall.probe("eval U")).content  # U exists only in B's context
    assert later["A"]["sigma"] == "reject" and later["B"]["result"] == "Type : Type"


def test_budget_exhaustion_allows_only_submission() -> None:
    s = AuditSession(record(budget=2))
    for _ in range(2):
        assert s.execute(ToolCall.probe("eval Zero")).ok
    for call in (ToolCall.probe("eval Zero"), ToolCall.list_context(), ToolCall.budget_left()):
        result = s.execute(call)
        assert not result.ok and "budget is exhausted" in result.error
    assert s.execute(ToolCall.submit("A", ["ID_05"])).ok


def test_episode_ends_without_submission_after_the_grace_turns() -> None:
    ep = ElenchosEpisode(record(budget=1))
    ep.deliver("agent", ToolCall.probe("eval Zero"))
    assert ep.pending().payload.must_submit
    for _ in range(GRACE_TURNS):
        assert ep.end_reason is None
        ep.deliver("agent", ToolCall.budget_left())
    assert ep.end_reason == "no_submission" and ep.pending() is None
    line = ep.record_line()
    assert line["submission"] is None and line["live_metrics"]["V"] == 0 and line["live_metrics"]["P"] == 1
    assert all(e["must_submit"] and not e["ok"] for e in line["events"][1:])
    assert schema_errors("elenchos_transcript", line) == []


def test_episode_turn_limit_stops_an_agent_that_never_submits() -> None:
    ep = ElenchosEpisode(record(budget=5))
    while ep.pending() is not None:
        ep.deliver("agent", ToolCall.invalid("??", "not JSON"))
    assert ep.end_reason == "turn_limit" and ep.turn == ep.max_turns and ep.session.probes_used == 0


def test_a_submission_is_still_accepted_on_a_must_submit_turn() -> None:
    ep = ElenchosEpisode(record(budget=1))
    ep.deliver("agent", ToolCall.probe("eval Zero"))
    ep.deliver("agent", ToolCall.probe("eval Zero"))  # refused
    ep.deliver("agent", ToolCall.submit("A", ["ID_05"]))
    assert ep.end_reason == "submitted" and ep.record_line()["live_metrics"]["V"] == 1


def test_submission_schema_accepts_everything_the_tool_call_contract_does() -> None:
    ours, contract = load_schema("elenchos_submission"), load_schema("elenchos_tool_call")["$defs"]["submission"]
    assert set(ours["required"]) == set(contract["required"])
    assert set(ours["properties"]) == set(contract["properties"])
    call = ToolCall.submit("A", ["ID_01", "ID_03"], "why", "eval Zero", "eval Nat").to_json()
    assert schema_errors("elenchos_tool_call", call) == []
    assert schema_errors("elenchos_submission", call["arguments"]) == []
