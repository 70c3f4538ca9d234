"""The MIRA-Math protocol loop with scripted agents: budget, last turn, parse failures, batching."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from harness.mira.agents.oracle import OracleSolver
from harness.mira.agents.rule import RuleResponder
from harness.mira.episode import EpisodeConfig, MiraEpisode
from harness.mira.metrics import aggregate, instance_metrics
from harness.mira.types import (
    DECLINE_MESSAGE,
    ResponderDecision,
    ResponderTurn,
    Solver,
    SolverAction,
    SolverTurn,
)
from harness.scheduler import run_episodes

VAGUE = "What is missing?"


class ScriptedSolver(Solver):
    """Plays ``policy(turn)``; records every turn it was shown."""

    privileged = True

    def __init__(self, policy: Callable[[SolverTurn], SolverAction]):
        self.policy = policy
        self.seen: list[SolverTurn] = []

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        self.seen.extend(turns)
        return [self.policy(t) for t in turns]


class FixedResponder(RuleResponder):
    """Answers every request with ``decision`` (or the rule responder's when None)."""

    def __init__(self, decision: ResponderDecision | None = None):
        super().__init__()
        self.decision = decision

    def respond(self, turns: list[ResponderTurn]) -> list[ResponderDecision]:
        return [self.decision or self.decide(t) for t in turns]


def canonical(turn: SolverTurn) -> str:
    return turn.privileged["minimal_hint_spec"]["atomic_hints"][0]["request_aliases"][0]


def truth(turn: SolverTurn) -> dict:
    return turn.privileged["global_solution"]


def play(instances: list[dict], solver: Solver, responder=None, max_concurrent=None, **config) -> tuple[list, dict]:
    cfg = EpisodeConfig(solver_privileged=True, responder_privileged=True, **config)
    records: list[dict] = []
    handlers = {"solver": solver.act, "responder": (responder or RuleResponder()).respond}
    stats = run_episodes((MiraEpisode(i, cfg) for i in instances), handlers, ["solver", "responder"],
                         lambda eps: records.extend(e.record() for e in eps), max_concurrent)
    return records, stats.as_dict()


@pytest.fixture
def one(instances: list[dict]) -> list[dict]:
    """One difficulty-3 instance (budget 9)."""
    return [next(i for i in instances if i["difficulty"] == 3)]


def test_budget_then_one_last_turn_where_a_request_is_refused(one: list[dict]) -> None:
    solver = ScriptedSolver(lambda t: SolverAction.ask(VAGUE))
    (record,), _ = play(one, solver)
    m = instance_metrics(record)
    assert m["requests"] == m["declines"] == 9 and m["answered"] == 0
    assert [t.must_answer for t in solver.seen] == [False] * 9 + [True]
    assert record["events"][-1]["type"] == "request_refused"
    assert record["end_reason"] == "request_after_budget"
    assert m["hit_rate"] == 0.0 and m["first_request_success"] == 0


def test_answer_on_the_last_turn_counts(one: list[dict]) -> None:
    def policy(t: SolverTurn) -> SolverAction:
        return SolverAction.final(truth(t), "answer") if t.must_answer else SolverAction.ask(VAGUE)

    solver = ScriptedSolver(policy)
    (record,), _ = play(one, solver)
    m = instance_metrics(record)
    assert m["requests"] == 9 and m["correct"] == 1 and m["C"] == 0 and m["O"] == 0


def test_solver_parse_failure_costs_the_turn(one: list[dict]) -> None:
    def policy(t: SolverTurn) -> SolverAction:
        if t.turn == 1:
            return SolverAction.invalid("garbled {", "no JSON object")
        if not t.history[-1].decision:
            return SolverAction.ask(canonical(t))
        return SolverAction.final(truth(t), "done")

    solver = ScriptedSolver(policy)
    (record,), _ = play(one, solver)
    m = instance_metrics(record)
    assert solver.seen[1].requests_used == 1 and solver.seen[1].history[0].solver_parse_error == "no JSON object"
    assert m["solver_parse_errors"] == 1 and m["requests"] == 1 and m["correct"] == 1
    assert m["first_request_success"] == 1


def test_parse_failures_until_the_end_give_no_answer(one: list[dict]) -> None:
    (record,), _ = play(one, ScriptedSolver(lambda t: SolverAction.invalid("??", "unreadable")))
    m = instance_metrics(record)
    assert m["solver_parse_errors"] == 10 and m["requests"] == 0 and m["answered"] == 0
    assert record["end_reason"] == "final_turn_parse_error"


@pytest.mark.parametrize(
    "decision",
    [ResponderDecision.decline("P(H) = 1/2 but I shouldn't say", parse_error="not JSON"),
     ResponderDecision("offer", has_exact_match=False, constraint_quoted="x", hint="x", message="x"),
     ResponderDecision("offer", has_exact_match=True, constraint_quoted=None, hint="x", message="x")],
)
def test_bad_responder_replies_become_declines_that_reveal_nothing(one: list[dict], decision) -> None:
    solver = ScriptedSolver(lambda t: SolverAction.final({"value": 0}, "0") if t.history else SolverAction.ask("q"))
    (record,), _ = play(one, solver, FixedResponder(decision))
    m = instance_metrics(record)
    assert m["declines"] == 1 and m["offers"] == 0 and m["responder_parse_errors"] == 1
    shown = solver.seen[1].history[0].decision
    assert shown.kind == "decline" and shown.message == DECLINE_MESSAGE and shown.parse_error is None


def test_after_an_offer_the_next_turn_is_the_last_by_default(one: list[dict]) -> None:
    solver = ScriptedSolver(lambda t: SolverAction.ask(canonical(t)))
    (record,), _ = play(one, solver)
    assert [t.must_answer for t in solver.seen] == [False, True]
    assert record["end_reason"] == "request_after_offer"
    (record,), _ = play(one, ScriptedSolver(lambda t: SolverAction.ask(canonical(t))), after_offer="continue")
    m = instance_metrics(record)
    assert m["offers"] == m["requests"] == 9 and m["hints"] == 9


def test_noncanonical_offer_is_counted_and_audited(one: list[dict]) -> None:
    offer = ResponderDecision.offer("some other fact = 3", "some other fact = 3")
    (record,), _ = play(one, OracleSolver(), FixedResponder(offer))
    m = instance_metrics(record)
    assert m["O"] == 1 and m["C"] == 0 and m["noncanonical_offers"] == 1 and m["canonical_offers"] == 0
    assert record["live_metrics"] == m


def test_quoted_canonical_with_different_spacing_is_canonical(one: list[dict]) -> None:
    text = one[0]["minimal_hint_spec"]["atomic_hints"][0]["text"]
    offer = ResponderDecision.offer(f"Constraint 1: {text.replace(' ', '  ')}.", "")
    (record,), _ = play(one, OracleSolver(), FixedResponder(offer))
    assert instance_metrics(record)["C"] == 1


def test_decomposition_classes_are_disjoint_and_sum_to_one(instances: list[dict]) -> None:
    def policy(t: SolverTurn) -> SolverAction:  # correct without asking on even ids, else vague then wrong
        if int(t.instance_id[-1]) % 2 == 0:
            return SolverAction.final(truth(t), "known")
        return SolverAction.final({"value": 0}, "0") if t.must_answer else SolverAction.ask(VAGUE)

    records, _ = play(instances[:40], ScriptedSolver(policy))
    agg = aggregate([instance_metrics(r) for r in records])
    total = agg["p_no_canonical"] + agg["p_integration_fail"] + agg["p_success"]
    assert total == pytest.approx(1.0) and agg["p_correct_without_canonical"] > 0
    assert agg["acc_given_canonical"] is None and agg["hit_rate"] == 0.0


def test_oracle_hint_condition_has_no_responder_turns(instances: list[dict]) -> None:
    cfg = EpisodeConfig(condition="oracle_hint", solver_privileged=True)
    records: list[dict] = []
    stats = run_episodes((MiraEpisode(i, cfg) for i in instances), {"solver": OracleSolver().act}, ["solver"],
                         lambda eps: records.extend(e.record() for e in eps))
    assert stats.as_dict()["engine_calls"] == 1
    assert all(r["live_metrics"]["correct"] == 1 and r["live_metrics"]["requests"] == 0 for r in records)


def test_one_batched_call_per_role_and_step(instances: list[dict]) -> None:
    """Engine calls stay within 2 x (max turns + 1), whatever the number of instances."""
    _, stats = play(instances, ScriptedSolver(lambda t: SolverAction.ask(VAGUE)))
    max_budget = max(i["request_budget"] for i in instances)
    assert stats["by_role"]["solver"]["calls"] == max_budget + 1
    assert stats["by_role"]["responder"]["calls"] == max_budget
    assert stats["engine_calls"] <= 2 * (max_budget + 1)
    _, stats = play(instances, OracleSolver())
    assert stats["engine_calls"] == 3 and stats["by_role"]["solver"]["max_batch"] == len(instances)


def test_batched_and_one_by_one_give_identical_transcripts(instances: list[dict]) -> None:
    def policy(t: SolverTurn) -> SolverAction:  # two vague requests, then the canonical one, then answer
        if t.history and t.history[-1].decision and t.history[-1].decision.kind == "offer":
            return OracleSolver().decide(t)
        return SolverAction.ask(VAGUE if len(t.history) < 2 else canonical(t))

    batched, _ = play(instances, ScriptedSolver(policy))
    serial, stats = play(instances, ScriptedSolver(policy), max_concurrent=1)
    assert batched == serial and stats["by_role"]["solver"]["max_batch"] == 1


def test_the_loaded_heap_is_left_out_of_garbage_collection_while_the_loop_runs(one: list[dict]) -> None:
    import gc

    before = gc.get_freeze_count()
    frozen_during: list[int] = []

    def policy(turn: SolverTurn) -> SolverAction:
        frozen_during.append(gc.get_freeze_count())
        return SolverAction.ask(VAGUE)

    play(one, ScriptedSolver(policy))
    assert frozen_during and min(frozen_during) > 0
    assert gc.get_freeze_count() == before
