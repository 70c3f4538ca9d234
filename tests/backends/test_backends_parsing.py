"""Lenient reading of model replies, schema validation, per-turn engine schemas, prompts."""

from __future__ import annotations

import json

import pytest

from harness.backends.mira_agents import (
    parse_responder_reply,
    parse_solver_reply,
    responder_engine_schema,
    solver_engine_schema,
)
from harness.backends.openai_engine import strict_schema
from harness.mira.types import DECLINE_MESSAGE, Exchange, ResponderDecision, ResponderTurn, SolverTurn
from harness.prompts import ELENCHOS_PROMPT_VERSION, elenchos_system_prompt
from harness.prompts.mira import responder_messages, solver_messages
from verifiers.jsonparse import first_json_object, validation_error


def turn(**kw) -> SolverTurn:
    base = dict(instance_id="t-1", family="bayes_missing_prior", question="What is P(H|E)?",
                constraints=["P(E|H) = 1/2", "P(E|not H) = 2/5"], unknowns=["P_H_given_E"], answer_type="rational",
                answer_keys=[], budget=3, requests_used=0, must_answer=False, history=[])
    base.update(kw)
    return SolverTurn(**base)


B_TURN = ResponderTurn("t-1", "bayes_missing_prior", ["P(H) = 4/5", "P(E) = 1/2"], "What is the prior P(H)?")


@pytest.mark.parametrize("text", [
    '{"action": "request", "request": "What is P(H)?"}',
    '```json\n{"action": "request", "request": "What is P(H)?"}\n```',
    'I will ask. {"action": "request", "request": "What is P(H)?"} Done.',
    '{"Action": "ASK", "Question": "What is P(H)?"}',
    '{"type": "request", "request": "What is P(H)?", "answer": {"value": 3}}',
    '{"request": "What is P(H)?"}',
    '{"action": "request", "request": "What is P(H)?"',  # cut before the closing brace
])
def test_solver_requests_are_read_leniently(text: str) -> None:
    parsed, error = parse_solver_reply(text, turn())
    assert error is None and parsed == {"action": "request", "request": "What is P(H)?"}


@pytest.mark.parametrize(("text", "answer"), [
    ('{"action": "answer", "answer": {"numerator": 10, "denominator": 37}}', {"numerator": 10, "denominator": 37}),
    ('{"action": "final", "final_answer": "10/37"}', "10/37"),
    ('{"action": "answer", "numerator": 10, "denominator": 37}', {"numerator": 10, "denominator": 37}),
    ('{"reasoning": "tab\there", "action": "answer", "answer": 3}', 3),  # a raw control character in a string
])
def test_solver_answers_are_read_leniently(text: str, answer) -> None:
    parsed, error = parse_solver_reply(text, turn())
    assert error is None and parsed["action"] == "answer" and parsed["answer"] == answer


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty reply"),
    ("I do not know.", "no JSON object"),
    ("[1, 2]", "not an object"),
    ('{"action": "dance"}', "no action"),
    ('{"action": "request", "request": "   "}', "without request text"),
    ('{"action": "answer"}', "without an answer"),
    ('{"action": "answer", "answer": null}', "without an answer"),
    ('{"action": "answer", "answer": true}', "mira_solver_action"),
    ('{"action": "answer", "answer": {"value": 5}, "Answer": {"value": 6}}', "two keys read as 'answer'"),
    ('{"Action": "request", "action": "answer", "answer": {"value": 5}}', "two keys read as 'action'"),
])
def test_bad_solver_replies_give_a_parse_error(text: str, fragment: str) -> None:
    parsed, error = parse_solver_reply(text, turn())
    assert parsed is None and fragment in error


def test_responder_offers_are_mapped_onto_b_constraints() -> None:
    parsed, error = parse_responder_reply(
        '{"type": "offer", "has_exact_match": true, "constraint_quoted": "p(h) = 4/5.", "hint": "4/5"}', B_TURN)
    assert error is None and parsed["constraint_quoted"] == "P(H) = 4/5" and parsed["hint"] == "4/5"
    parsed, _ = parse_responder_reply('{"decision": "offer", "exact_match": "true", "quote": "Constraint 1: '
                                      'P(H) = 4/5"}', B_TURN)
    assert parsed["constraint_quoted"] == "P(H) = 4/5" and parsed["hint"] is None
    parsed, error = parse_responder_reply('{"type": "offer", "has_exact_match": true, "constraint_quoted": '
                                          '"P(H) = 1/2"}', B_TURN)
    assert parsed is None and "none of B's constraints" in error
    parsed, error = parse_responder_reply('{"type": "offer", "has_exact_match": false, "constraint_quoted": '
                                          '"P(H) = 4/5"}', B_TURN)
    assert parsed is None and "has_exact_match" in error
    parsed, error = parse_responder_reply('{"type": "decline"}', B_TURN)
    assert error is None and parsed == {"type": "decline"}
    assert parse_responder_reply("No.", B_TURN)[0] is None


def test_first_json_object_skips_broken_candidates() -> None:
    obj, _ = first_json_object('{broken {"a": 1} and {"a": 1} again')
    assert obj == {"a": 1}
    # issue 16: two different objects are two answers (a corrected second JSON): neither is taken
    obj, error = first_json_object('{broken {"a": 1} {"b": 2}')
    assert obj is None and "two different JSON objects" in error
    # an object nested in a broken one is not the reply
    obj, error = first_json_object('{"action": "answer", "answer": {"value": 7}, "x": oops')
    assert obj is None


def test_engine_schemas_are_per_turn_specialisations() -> None:
    union = solver_engine_schema(turn(), "union", reasoning=False)
    assert [b["properties"]["action"]["const"] for b in union["anyOf"]] == ["request", "answer"]
    answer = union["anyOf"][1]["properties"]["answer"]
    assert answer["required"] == ["numerator", "denominator"] and answer["properties"]["denominator"]["minimum"] == 1
    last = solver_engine_schema(turn(must_answer=True), "union")
    assert last["properties"]["action"] == {"const": "answer"} and "reasoning" in last["properties"]
    keys = solver_engine_schema(turn(answer_type="dict_int", answer_keys=["a", "b"], must_answer=True))
    assert keys["properties"]["answer"]["required"] == ["a", "b"]
    flat = strict_schema(solver_engine_schema(turn(), "flat"))
    assert flat["type"] == "object" and flat["required"] == ["reasoning", "action", "request", "answer"]
    assert "maxLength" not in json.dumps(flat) and "const" not in json.dumps(flat)
    b = responder_engine_schema(B_TURN)
    assert b["anyOf"][0]["properties"]["constraint_quoted"] == {"enum": ["P(H) = 4/5", "P(E) = 1/2"]}
    # every reply an engine schema admits is valid under the contract schema
    assert validation_error("mira_solver_action", {"action": "request", "request": "x", "answer": None,
                                                   "reasoning": ""}) is None
    assert validation_error("mira_responder_decision", {"type": "decline", "has_exact_match": False,
                                                        "constraint_quoted": None, "hint": None}) is None


def test_solver_prompt_states_protocol_budget_format_and_examples() -> None:
    example = {"question": "What is P(H|E)?", "constraints": ["P(E|H) = 1/3", "P(E|not H) = 2/5"],
               "unknowns": ["P_H_given_E"], "request": "What is the prior P(H)?", "hint": "P(H) = 1/2",
               "answer": {"numerator": 5, "denominator": 11}, "answer_type": "rational", "answer_keys": []}
    messages = solver_messages(turn(few_shot_examples=[example] * 4))
    system, first = messages[0]["content"], messages[1]["content"]
    assert "request budget" in system and "final answer" in system and DECLINE_MESSAGE in system
    assert "Example 4" in first and '"What is the prior P(H)?"' in first and 'offers "P(H) = 1/2"' in first
    assert '"numerator": <integer>, "denominator": <positive integer>' in first
    assert "Request budget: 3 requests" in first and "Requests left: 3 of 3" in first
    assert solver_messages(turn())[1]["content"].startswith("Your problem")  # zero-shot: no examples
    history = [Exchange("What is P(H)?", ResponderDecision.decline()), Exchange(None, None, "no JSON object")]
    later = solver_messages(turn(history=history, requests_used=2), earlier_replies=["RAW-1", "RAW-2"])
    assert [m["role"] for m in later] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert later[2]["content"] == "RAW-1" and DECLINE_MESSAGE in later[3]["content"]
    assert "could not be read" in later[5]["content"] and "Requests left: 1 of 3" in later[5]["content"]
    canonical = solver_messages(turn(history=history[:1], requests_used=1))
    assert json.loads(canonical[2]["content"])["request"] == "What is P(H)?"
    done = solver_messages(turn(requests_used=3, must_answer=True, history=[]))
    assert "used all 3 requests" in done[-1]["content"]
    oracle = solver_messages(turn(budget=0, must_answer=True, hint="P(H) = 4/5"))
    assert 'already given you the missing fact: "P(H) = 4/5"' in oracle[-1]["content"]


def test_responder_prompt_sees_only_its_constraints_and_the_request() -> None:
    messages = responder_messages(B_TURN)
    assert len(messages) == 2
    user = messages[1]["content"]
    assert "1. P(H) = 4/5" in user and "2. P(E) = 1/2" in user and '"What is the prior P(H)?"' in user
    assert "P(E|H)" not in user  # nothing of A's view


def test_elenchos_prompts_levels() -> None:
    assert ELENCHOS_PROMPT_VERSION == "elenchos-system/2"
    prompts = {level: elenchos_system_prompt(level) for level in range(4)}
    for text in prompts.values():
        assert all(f"ID_{i:02d} ---" in text for i in range(1, 14))
        assert '"tool": "probe"' in text
    assert prompts[0].count("Unique probe:") == 13 and "(not available)" not in prompts[0]
    assert "Unique probe" not in prompts[1] and "exactly one mutation" in prompts[1]
    assert "1 or 2 active mutations" in prompts[2] and "actively test for a second" in prompts[2]
    assert "P_max=65" in prompts[3] and '"neither"' in prompts[3] and "Mandatory workflow" not in prompts[3]
    assert "Definitional equality bypass during type comparison" in prompts[3]
    assert "exactly two mutations" in elenchos_system_prompt(1, k=2)


def test_elenchos_json_tool_section_matches_the_schema_and_explains_the_results() -> None:
    """Our section (issue 17): every example carries the reasoning the engine schema requires, and the
    fields a result and the status line show are explained."""
    section = elenchos_system_prompt(1).split("## How to call a tool", 1)[1]
    examples = [json.loads(line) for line in section.splitlines() if line.startswith('{"reasoning"')
                and '" or "' not in line]
    assert [e["tool"] for e in examples] == ["probe", "list_context", "budget_left"]
    assert all(list(e) == ["reasoning", "tool", "arguments"] for e in examples)
    assert section.count('{"reasoning": ') == 4
    for explained in ('"ok"', '"budget_left"', "`_`", "Turn N of at most T", '"diff"', '"epsilon"'):
        assert explained in section, explained
    assert '"corrupted_kernel": "A" or "B",' in section
    assert '"corrupted_kernel": "A", "B" or "neither",' in elenchos_system_prompt(3)
    plain = elenchos_system_prompt(1, reasoning=False).split("## How to call a tool", 1)[1]
    assert '"reasoning"' not in plain and '{"tool": "probe"' in plain
    # The paper's own texts are unchanged: everything before our section is the same as without it.
    for level in range(4):
        assert elenchos_system_prompt(level).startswith(elenchos_system_prompt(level, tool_format=None).rstrip("\n"))
    assert "Unique probe: \"eval Zero\"" in elenchos_system_prompt(0, probes={"ID_01": "eval Zero"})
    with pytest.raises(ValueError):
        elenchos_system_prompt(4)
