"""Issue 16: an engine that sends only hostile replies. Every instance is recorded, the transcripts are strict
JSON, and a resume is a no-op. Plus a seeded fuzz of the reply parsers and the verifier (bounded time)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from harness import registry
from harness.backends import elenchos_agents, mira_agents
from harness.backends.elenchos_agents import parse_tool_reply
from harness.backends.hostile import hostile_replies
from harness.backends.mira_agents import parse_responder_reply, parse_solver_reply
from harness.mira.audit import grade_answer
from harness.mira.run import MiraRunConfig, run_mira
from harness.mira.types import ResponderTurn, SolverTurn
from verifiers.jsonparse import first_json_object


def _strict(text: str) -> object:
    def refuse(name: str) -> None:
        raise ValueError(f"{name} in a transcript")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def hostile_backend(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(mira_agents.ENGINE_MODULES, "hostile", "harness.backends.hostile")
    registry.register("mira.solver", "hostile", mira_agents._factory("mira.solver", "hostile"))
    registry.register("mira.responder", "hostile", mira_agents._factory("mira.responder", "hostile"))
    registry.register("elenchos.agent", "hostile", elenchos_agents._factory("hostile"))
    yield
    for role in ("mira.solver", "mira.responder", "elenchos.agent"):
        registry._factories[role].pop("hostile", None)


def _lines(path: Path) -> list[dict]:
    return [_strict(line) for line in path.read_text(encoding="utf-8").split("\n") if line]  # not splitlines: U+2028


def test_mira_run_of_hostile_replies_records_every_instance_and_resumes_as_a_noop(hostile_backend, mira_files,
                                                                                   tmp_path) -> None:
    out = tmp_path / "mira"
    cfg = MiraRunConfig(dataset=str(mira_files["zero_shot"]), out=str(out), solver="hostile:m", responder="hostile:m",
                        solver_options={"seed": "3"}, responder_options={"seed": "4"}, progress=False)
    first = run_mira(cfg)
    n = sum(1 for line in mira_files["zero_shot"].read_text().splitlines() if line.strip())
    lines = _lines(out / "transcripts.jsonl")
    assert first.ran == n and len({r["instance_id"] for r in lines}) == n == len(lines)
    events = [e for r in lines for e in r["events"]]
    assert any(e["type"] == "parse_error" for e in events)
    assert all(r["final_answer"]["parse_error"] or r["final_answer"]["normalized"] is not None or
               not r["final_answer"]["submitted"] for r in lines)
    _strict((out / "run.json").read_text()) and _strict((out / "metrics.json").read_text())
    before = (out / "transcripts.jsonl").read_bytes()
    again = run_mira(cfg)
    assert again.ran == 0 and (out / "transcripts.jsonl").read_bytes() == before


def test_elenchos_run_of_hostile_replies_records_every_session_and_resumes_as_a_noop(hostile_backend,
                                                                                      tmp_path) -> None:
    from harness.elenchos.run import ElenchosRunConfig, run_elenchos

    out = tmp_path / "elenchos"
    cfg = ElenchosRunConfig(out=str(out), suite="ladder", agent="hostile:m", agent_options={"seed": "5"}, limit=3,
                            progress=False)
    first = run_elenchos(cfg)
    lines = _lines(out / "transcripts.jsonl")
    assert first.ran == 3 and len({r["instance_id"] for r in lines}) == 3 == len(lines)
    assert any(e.get("parse_error") for r in lines for e in r["events"])
    before = (out / "transcripts.jsonl").read_bytes()
    again = run_elenchos(cfg)
    assert again.ran == 0 and (out / "transcripts.jsonl").read_bytes() == before


SOLVER_TURNS = [SolverTurn(instance_id="i", family="f", question="q", constraints=["c = 1"], unknowns=["a", "b"],
                           answer_type=t, answer_keys=k, budget=3, requests_used=0, must_answer=False, history=[],
                           few_shot_examples=[], hint=None, view_machine=[], target="a", turn=1, privileged=None)
                for t, k in (("int", []), ("rational", []), ("dict_int", ["a", "b"]))]
# values no hostile answer holds: whatever is accepted is a wrong acceptance
EXPECTED = [({"value": 70001}, []), ({"numerator": 70001, "denominator": 3}, []), ({"a": 70001, "b": 2}, ["a", "b"])]


def test_fuzz_replies_never_raise_never_pass_and_stay_fast() -> None:
    """2,500 seeded hostile replies (up to 100 kB) through every reply parser and the grader."""
    responder_turn = ResponderTurn(instance_id="i", family="f", constraints=["c = 1", "d = 2"], request="c?",
                                   privileged=None)
    worst = 0.0
    for index, text in enumerate(hostile_replies(seed=16, n=2500, max_chars=100_000)):
        turn = SOLVER_TURNS[index % 3]
        started = time.perf_counter()
        first_json_object(text)
        parse_tool_reply(text)
        parse_responder_reply(text, responder_turn)
        parsed, error = parse_solver_reply(text, turn)
        assert (parsed is None) != (error is None)
        if parsed is not None and parsed["action"] == "answer":
            expected, keys = EXPECTED[index % 3]
            grade = grade_answer(parsed["answer"], turn.answer_type, keys, expected)
            assert not grade["correct"], text[:200]
            json.dumps(grade, allow_nan=False)
        worst = max(worst, time.perf_counter() - started)
    assert worst < 2.0  # a generous bound for a loaded CI machine; benchmarks/bench_hostile.py measures it


def test_an_unexpected_exception_is_recorded_as_internal_error_and_the_run_goes_on(mira_files, tmp_path,
                                                                                   monkeypatch) -> None:
    import harness.mira.episode as episode_module

    real = episode_module.grade_answer
    calls = {"n": 0}

    def flaky(*args, **kw):
        calls["n"] += 1
        if calls["n"] % 3 == 0:
            raise RuntimeError("grader bug")
        return real(*args, **kw)

    monkeypatch.setattr(episode_module, "grade_answer", flaky)
    out = tmp_path / "run"
    cfg = MiraRunConfig(dataset=str(mira_files["zero_shot"]), out=str(out), progress=False)  # oracle + rule
    first = run_mira(cfg)
    lines = _lines(out / "transcripts.jsonl")
    failed = [r for r in lines if r["end_reason"] == "internal_error"]
    assert first.ran == len(lines) == len({r["instance_id"] for r in lines}) and failed
    assert all(r["events"][-1]["type"] == "internal_error" and "grader bug" in r["events"][-1]["error"]
               for r in failed)
    assert run_mira(cfg).ran == 0


def test_an_elenchos_session_that_raises_is_recorded_and_valid(tmp_path, monkeypatch) -> None:
    from harness.elenchos.run import ElenchosRunConfig, run_elenchos
    from harness.elenchos.tools import AuditSession

    real = AuditSession.execute

    def flaky(self, call):
        if call.tool == "submit_answer" and self.record["id"].endswith(("1", "3")):
            raise ValueError("tool bug")
        return real(self, call)

    monkeypatch.setattr(AuditSession, "execute", flaky)
    out = tmp_path / "e"
    cfg = ElenchosRunConfig(out=str(out), suite="ladder", agent="sra", limit=8, progress=False)
    first = run_elenchos(cfg)
    lines = _lines(out / "transcripts.jsonl")
    assert first.ran == 8 == len(lines)
    failed = [r for r in lines if r["end_reason"] == "internal_error"]
    assert failed and all("tool bug" in r["events"][-1]["error"] for r in failed)
    assert run_elenchos(cfg).ran == 0


def test_mutation_ids_in_non_ascii_digits_are_unknown_ids() -> None:
    from lambdapy.__main__ import main as lambdapy_main
    from lambdapy.mutations import normalize_id

    assert normalize_id("id_4") == "ID_04"
    for raw in ("²", "ID_²", "٤", "ID_４", "ID_" + "9" * 5000):
        with pytest.raises(KeyError):
            normalize_id(raw)
    with pytest.raises(SystemExit) as info:
        lambdapy_main(["probe", "--mutations", "²", "-"])
    assert info.value.code == 2
