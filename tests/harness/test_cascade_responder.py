"""``cascade:MODEL``: the rule responder decides what it reads; what it reads as naming nothing goes to a model
responder, whose offer stands only when it quotes the hint's own constraint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness import registry
from harness.errors import HarnessError
from harness.mira.agents.cascade import DEFERRED, CascadeResponder
from harness.mira.agents.rule import RULE_VERSION
from harness.mira.request_corpus import build_instances
from harness.mira.types import Responder, ResponderDecision, ResponderTurn

BAYES = "bay-000017"  # A: P(E|H) = 1/4, P(E|not H) = 2/5; B: P(H) = 3/4, the hint


class ScriptedModel(Responder):
    """A model responder that answers each request from a table: "hint", "other:<fact>", "decline", "garbled"."""

    def __init__(self, answers: dict[str, str]):
        self.answers = answers
        self.seen: list[ResponderTurn] = []
        self.closed = False

    def respond(self, turns: list[ResponderTurn]) -> list[ResponderDecision]:
        self.seen.extend(turns)
        out = []
        for turn in turns:
            answer = self.answers.get(turn.request, "decline")
            if answer == "hint":
                out.append(ResponderDecision.offer(turn.constraints[0], "3/4", '{"type": "offer"}',
                                                   usage={"prompt_tokens": 10}))
            elif answer.startswith("other:"):
                out.append(ResponderDecision.offer(answer[6:], answer[6:], '{"type": "offer"}'))
            elif answer == "garbled":
                out.append(ResponderDecision.decline("I think so?", "unreadable: no JSON object"))
            else:
                out.append(ResponderDecision.decline('{"type": "decline"}'))
        return out

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "deterministic": False, "prompt_version": "mira-responder/1"}

    def close(self) -> None:
        self.closed = True


@pytest.fixture(scope="module")
def instance() -> dict[str, Any]:
    return build_instances([BAYES])[BAYES]


def turn(instance: dict[str, Any], request: str) -> ResponderTurn:
    b = next(v for v in instance["agent_views"] if v["agent_id"] == "B")["private_data"]
    return ResponderTurn(instance["id"], instance["family"], b["constraints_text"], request, privileged=instance)


def decide(instance: dict[str, Any], answers: dict[str, str], *requests: str,
           defer: tuple[str, ...] = DEFERRED) -> tuple[list[ResponderDecision], ScriptedModel]:
    model = ScriptedModel(answers)
    return CascadeResponder(model, defer).respond([turn(instance, r) for r in requests]), model


def test_what_the_rule_offers_or_reads_as_everything_is_decided_by_the_rule_alone(instance: dict[str, Any]) -> None:
    requests = ("What's the prior?", "Send me everything you have.")
    decisions, model = decide(instance, {r: "hint" for r in requests}, *requests)
    assert [d.kind for d in decisions] == ["offer", "decline"]
    assert [d.rationale["rule"] for d in decisions] == ["hint", "everything"]
    assert model.seen == []  # the model is never asked


def test_the_readings_deferred_by_default(instance: dict[str, Any]) -> None:
    requests = ("Send me P(H) and P(E).", "What is P(H|E)?")
    decisions, model = decide(instance, {}, *requests)
    assert [t.request for t in model.seen] == list(requests)
    assert [d.rationale["deferred"] for d in decisions] == ["two_quantities", "target"]
    decisions, model = decide(instance, {}, *requests, defer=("nothing_named",))
    assert model.seen == [] and [d.rationale["rule"] for d in decisions] == ["two_quantities", "target"]


def test_a_request_the_rule_cannot_read_goes_to_the_model_without_the_instance(instance: dict[str, Any]) -> None:
    request = "What credence does H get at the outset?"
    decisions, model = decide(instance, {request: "hint"}, "What's the prior?", request)
    assert [t.request for t in model.seen] == [request]  # one batch, only the deferred request
    assert model.seen[0].privileged is None and model.seen[0].constraints == ["P(H) = 3/4"]
    offer = decisions[1]
    assert offer.kind == "offer" and offer.constraint_quoted == "P(H) = 3/4" and offer.usage == {"prompt_tokens": 10}
    assert offer.rationale["rule"] == "model_offer" and offer.rationale["deferred"] == "nothing_named"
    assert offer.rationale["model"] == "offer" and offer.rationale["responder"] == RULE_VERSION


@pytest.mark.parametrize("answer, said", [("decline", "decline"), ("garbled", "unreadable"),
                                          ("other:P(E|H) = 1/4", "offer of another fact")])
def test_the_model_offer_stands_only_for_the_hint(instance: dict[str, Any], answer: str, said: str) -> None:
    request = "Any tips?"
    [decision], _ = decide(instance, {request: answer}, request)
    assert decision.kind == "decline" and decision.rationale["model"] == said
    assert decision.rationale["rule"] == "nothing_named"
    assert (decision.parse_error is not None) == (answer == "garbled")


def test_two_names_of_the_withheld_fact_stay_declined() -> None:
    markov = build_instances(["mar-001726"])["mar-001726"]  # B's fact states P(1->1), and so fixes P(1->0)
    requests = ("What are P(1->0) and P(1->1)?", "What are P(1->1) and P(0->1)?")
    decisions, model = decide(markov, {r: "hint" for r in requests}, *requests)
    assert [t.request for t in model.seen] == [requests[1]]  # the hint and a fact A has: the model reads it
    assert decisions[0].kind == "decline" and decisions[0].rationale["rule"] == "two_quantities"


def test_defer_chooses_the_readings_sent_to_the_model(instance: dict[str, Any]) -> None:
    request = "What is P(E|H)?"  # the rule: a fact A already has
    [decision], model = decide(instance, {request: "hint"}, request, defer=("nothing_named",))
    assert decision.rationale["rule"] == "known_fact" and model.seen == []
    [decision], model = decide(instance, {request: "hint"}, request)
    assert decision.kind == "offer" and decision.rationale["deferred"] == "known_fact"


def test_a_k2_instance_is_decided_by_the_rule(instance: dict[str, Any]) -> None:
    two = {**instance, "minimal_hint_spec": {**instance["minimal_hint_spec"], "atomic_hints": [
        *instance["minimal_hint_spec"]["atomic_hints"], *instance["minimal_hint_spec"]["atomic_hints"]]}}
    model = ScriptedModel({"Any tips?": "hint"})
    cascade = CascadeResponder(model)
    assert not cascade._defers(turn(two, "Any tips?"), cascade.rule.respond([turn(two, "Any tips?")])[0])


def test_spec_and_options_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[dict[str, str]] = []

    def factory(arg: str | None, options: dict[str, str]) -> ScriptedModel:
        made.append(options)
        return ScriptedModel({})

    monkeypatch.setitem(registry._factories.setdefault("mira.responder", {}), "scriptedmodel", factory)
    cascade = registry.create("mira.responder", "cascade:scriptedmodel:m",
                              {"defer": "nothing_named", "temperature": "0"})
    assert isinstance(cascade, CascadeResponder) and cascade.defer == ("nothing_named",)
    assert made == [{"temperature": "0"}]  # every other option is the model's
    described = cascade.describe()
    assert described["deterministic"] is False and described["rule"].startswith(RULE_VERSION)
    assert described["model"]["spec"] == "scriptedmodel:m" and described["prompt_version"] == "mira-responder/1"
    cascade.close()
    assert cascade.model.closed
    with pytest.raises(HarnessError, match="needs a model responder"):
        registry.create("mira.responder", "cascade", {})
    with pytest.raises(HarnessError, match="defer names no reading"):
        registry.create("mira.responder", "cascade:scriptedmodel:m", {"defer": "nothing_named,hint"})
    with pytest.raises(HarnessError, match="sees only B's facts"):
        registry.create("mira.responder", "cascade:rule", {})
    with pytest.raises(HarnessError, match=r"^cascade: mira.responder openai:m: unknown option\(s\) tempreature; "
                                           r"known: .*temperature.*; and the cascade's own: defer$"):
        registry.create("mira.responder", "cascade:openai:m", {"tempreature": "0"})


def test_the_bench_measures_any_responder_against_labels(instance: dict[str, Any], tmp_path) -> None:
    from benchmarks.bench_rule_responder import judge_with
    from harness.mira.request_corpus import LabelledRequest

    corpus = [LabelledRequest(BAYES, request, label, "s", "f.jsonl", n) for n, (request, label) in enumerate([
        ("What credence does H get at the outset?", "offer"), ("Any tips?", "decline"),
        ("What is P(E|H)?", "decline")], 1)]
    answers = {"What credence does H get at the outset?": "hint", "Any tips?": "decline",
               "What is P(E|H)?": "other:P(E|H) = 1/4"}
    agreement = judge_with(ScriptedModel(answers), corpus, {BAYES: instance}, str(tmp_path / "d.jsonl"))
    # handing over another of B's facts is no decline: the one disagreement
    assert [(item.request, decided) for item, decided, _ in agreement.disagreements] == [
        ("What is P(E|H)?", "offer of another fact")]
    lines = (tmp_path / "d.jsonl").read_text().splitlines()
    assert [json.loads(line)["decision"] for line in lines] == ["offer", "decline", "offer of another fact"]
    cascade = CascadeResponder(ScriptedModel(answers))
    assert judge_with(cascade, corpus, {BAYES: instance}, None).rate == 1.0  # the cascade declines it


def test_every_decline_of_the_corpora_records_a_known_reading() -> None:
    from harness.mira.agents.rule import DECLINE_READINGS, RuleResponder
    from harness.mira.request_corpus import load_corpus

    corpus = load_corpus([Path(__file__).resolve().parents[1] / "data" / "rule_requests_general.jsonl"])
    instances = build_instances({item.id for item in corpus})
    rule = RuleResponder()
    seen = {rule.judge(instances[item.id], item.request).rule for item in corpus}
    assert seen - {"hint"} <= set(DECLINE_READINGS) and len(seen) > 3
