"""The rule responder against the labelled request corpora in tests/data/ (every line must agree).

``rule_requests_own.jsonl`` was written for issue 13 (``tests/data/make_rule_requests.py``);
``rule_requests_independent.jsonl`` was written by another party without seeing the responder, in the
styles of different models. Requests whose label is open to dispute are left out (docs/harness.md).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generators.families import FAMILIES, get_family
from harness.mira.agents.rule import RuleResponder
from harness.mira.request_corpus import build_instances, load_corpus, measure
from harness.mira.types import DECLINE_MESSAGE, ResponderTurn

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = {"own": DATA / "rule_requests_own.jsonl", "independent": DATA / "rule_requests_independent.jsonl"}
OFFER_STYLES = {"short", "polite", "formula_restated", "latex", "justification_first", "words", "because", "type_b"}
DECLINE_STYLES = {"vague", "target", "known_fact", "wrong_slot", "two_things", "everything"}


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(FILES.values())


@pytest.fixture(scope="module")
def instances(corpus):
    return build_instances(item.id for item in corpus)


def test_corpus_covers_every_family_difficulty_and_style(corpus, instances) -> None:
    own = [item for item in corpus if item.source == FILES["own"].name]
    per_family = Counter(instances[item.id]["family"] for item in own)
    assert set(per_family) == set(FAMILIES)
    assert min(per_family.values()) >= 25, per_family
    for family in FAMILIES:
        difficulties = {instances[i.id]["requested_difficulty"] for i in own if instances[i.id]["family"] == family}
        assert difficulties == {1, 2, 3}, family
    assert {i.style for i in own if i.label == "offer"} >= OFFER_STYLES
    assert {i.style for i in own if i.label == "decline"} >= DECLINE_STYLES
    independent = {i.style for i in corpus if i.source == FILES["independent"].name}
    assert len(independent) >= 14


@pytest.mark.parametrize("source", list(FILES))
def test_rule_responder_agrees_on_every_line(corpus, instances, source: str) -> None:
    responder = RuleResponder()
    items = [item for item in corpus if item.source == FILES[source].name]

    def decide(instance, request):
        judgement = responder.judge(instance, request)
        return ("offer" if judgement.offer else "decline"), judgement.rationale()

    agreement = measure(items, instances, decide)
    wrong = [f"{i.source}:{i.line} [{i.id}] {i.style}: expected {i.label}, got {got} ({why['rule']}, "
             f"asked {why['asked']}): {i.request!r}" for i, got, why in agreement.disagreements]
    assert not wrong, "\n".join(wrong)


def test_every_decision_says_why(corpus, instances) -> None:
    responder = RuleResponder()
    for item in corpus[:200]:
        inst = instances[item.id]
        b = next(v for v in inst["agent_views"] if v["agent_id"] == "B")["private_data"]
        decision = responder.respond([ResponderTurn(inst["id"], inst["family"], b["constraints_text"],
                                                    item.request, privileged=inst)])[0]
        assert decision.rationale is not None and decision.rationale["rule"]
        if decision.kind == "offer":
            assert decision.rationale["rule"] == "hint" and decision.rationale["asked"]
        else:
            assert decision.message == DECLINE_MESSAGE and decision.rationale["rule"] != "hint"


CASES = [  # (family, request, decision, rule): the issue's examples and the crt parts
    ("moment_problem", "What is the second moment m2 = q1 + 4q2?", "offer", "hint"),
    ("moment_problem", "What is the second moment, q1 + 4q2?", "offer", "hint"),
    ("moment_problem", "What is q1 + 4q2?", "offer", "hint"),
    ("moment_problem", "What are m2 and q1?", "decline", "two_quantities"),
    ("geometry_coordinates", "What is the equation of line L2 (a2*x + b2*y = c2)?", "offer", "hint"),
    ("geometry_coordinates", "What is L2?", "offer", "hint"),
    ("crt_reconstruction", "What are m3 and r3?", "offer", "hint"),
    ("crt_reconstruction", "what is x mod m3?", "offer", "hint"),
    ("crt_reconstruction", r"What is $x \equiv r_3 \pmod{m_3}$?", "offer", "hint"),
    ("crt_reconstruction", "What is x?", "decline", "target"),
    ("bayes_missing_prior", "What are P(H) and P(E)?", "decline", "two_quantities"),
    ("bayes_missing_prior", "What is P(H), and also P(E|H)?", "decline", "two_quantities"),
    ("bayes_missing_prior", "What is P(H) as well as P(E)?", "decline", "two_quantities"),
    ("bayes_missing_prior", "What is P(H) and the value of P(E)?", "decline", "two_quantities"),
    ("bayes_missing_prior", "I need P(H) because the posterior P(H|E) depends on it.", "offer", "hint"),
    ("bayes_missing_prior", "What is P(E|H)?", "decline", "known_fact"),
    ("bayes_missing_prior", "Could you share everything you have?", "decline", "everything"),
    ("bayes_missing_prior", "What is missing?", "decline", "nothing_named"),
]


@pytest.mark.parametrize(("family", "request_text", "expected", "rule"), CASES)
def test_issue_examples(family: str, request_text: str, expected: str, rule: str) -> None:
    from generators.split import typed_slots

    position = next(p for p, s in enumerate(typed_slots(20, 50)) if s.family == family)
    prefix = get_family(family).prefix
    inst = build_instances([f"{prefix}-{position:06d}"])[f"{prefix}-{position:06d}"]
    judgement = RuleResponder().judge(inst, request_text)
    assert ("offer" if judgement.offer else "decline") == expected, judgement
    assert judgement.rule == rule, judgement
