"""Issue 16: the answer verifier on a labelled corpus of whole solver replies, written the way different models
write them (tests/data/answer_corpus.jsonl, rules in tests/data/answer_corpus.md), plus the hostile answers the
audit found. 0 wrong acceptances and 0 wrong rejections."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from harness.backends.mira_agents import parse_solver_reply
from harness.mira.audit import grade_answer
from harness.mira.types import SolverTurn

DATA = Path(__file__).resolve().parents[1] / "data"
INSTANCES = json.loads((DATA / "answer_corpus_instances.json").read_text(encoding="utf-8"))
CORPUS = [json.loads(line) for line in (DATA / "answer_corpus.jsonl").read_text(encoding="utf-8").split("\n") if line]


def outcome(reply: str, answer_type: str, keys: list[str], expected: dict) -> str:
    """What the live loop makes of a reply at the answer turn: correct, incorrect or unparseable."""
    turn = SolverTurn(instance_id="i", family="f", question="q", constraints=[], unknowns=keys or ["x"],
                      answer_type=answer_type, answer_keys=keys, budget=3, requests_used=3, must_answer=True,
                      history=[], few_shot_examples=[], hint=None, view_machine=[], target="x", turn=4,
                      privileged=None)
    parsed, _ = parse_solver_reply(reply, turn)
    if parsed is None or parsed["action"] != "answer":
        return "unparseable"
    grade = grade_answer(parsed["answer"], answer_type, keys, expected)
    if grade["parse_error"] is not None:
        return "unparseable"
    json.dumps(grade, allow_nan=False)
    return "correct" if grade["correct"] else "incorrect"


def test_the_corpus_is_big_and_balanced() -> None:
    labels = Counter(row["label"] for row in CORPUS)
    types = Counter(INSTANCES[row["id"]]["answer_type"] for row in CORPUS)
    assert len(CORPUS) >= 300 and set(types) == {"int", "rational", "dict_int"}
    assert labels["incorrect"] + labels["unparseable"] >= len(CORPUS) // 3


def test_corpus_has_no_wrong_acceptance_and_no_wrong_rejection() -> None:
    wrong: Counter[str] = Counter()
    examples = []
    for row in CORPUS:
        inst = INSTANCES[row["id"]]
        got = outcome(row["reply"], inst["answer_type"], inst["answer_keys"], inst["expected"])
        label = row["label"]
        either = "[not correct]" in row["note"]  # incorrect and unparseable both acceptable
        if got == label or (either and label != "correct" and got != "correct"):
            continue
        kind = "wrong acceptance" if got == "correct" else ("wrong rejection" if label == "correct" else "other")
        wrong[kind] += 1
        examples.append(f"{kind}: {row['style']}: {row['reply'][-120:]!a} -> {got}")
    assert not wrong, f"{dict(wrong)}\n" + "\n".join(examples[:20])


INT, RAT, VEC = ("int", [], {"value": 7}), ("rational", [], {"numerator": 3, "denominator": 4}), (
    "dict_int", ["a", "b"], {"a": 1, "b": 2})


def _answer(value: str) -> str:
    return '{"action": "answer", "answer": ' + value + '}'


# (reply, (type, keys, expected), label): the wrong acceptances of the issue-16 audit, and their right forms
HOSTILE = [
    (_answer('{"numerator": 3}'), RAT, "unparseable"),
    (_answer('{"numerator": 3, "denominator": 4}'), RAT, "correct"),
    (_answer('{"not": 7}'), INT, "unparseable"),
    (_answer('{"approximately": 7}'), INT, "unparseable"),
    (_answer('{"value": 8, "value": 7}'), INT, "unparseable"),
    (_answer('{"value": 7, "value": 7}'), INT, "unparseable"),
    (_answer('{"a": 1, "b": {"d": 2}}'), VEC, "unparseable"),
    (_answer('"1,000"'), ("dict_int", ["a", "b"], {"a": 1, "b": 0}), "unparseable"),
    (_answer('"(1, 0)"'), ("dict_int", ["a", "b"], {"a": 1, "b": 0}), "correct"),
    (_answer('"1,000"'), ("int", [], {"value": 1000}), "unparseable"),
    (_answer('{"value": 1e999999999}'), INT, "unparseable"),
    (_answer('{"value": 1e5000}'), INT, "unparseable"),
    (_answer('{"value": NaN}'), INT, "unparseable"),
    (_answer('{"value": ' + "7" * 5000 + '}'), INT, "unparseable"),
    (_answer('"0.' + "75" * 3000 + '"'), RAT, "unparseable"),
    (_answer('{"value": 0.7500000000000000000001}'), RAT, "unparseable"),
    (_answer('{"value": 0.75}'), RAT, "correct"),
    (_answer('"\\ud800"'), INT, "unparseable"),
    (_answer('"7 or 8"'), INT, "unparseable"),
    (_answer('"²"'), ("int", [], {"value": 2}), "unparseable"),
    (_answer('{"value": {"value": 7}}'), INT, "unparseable"),
    (_answer('{"answer": {"value": 7}}'), INT, "correct"),
    (_answer('{"a": 1, "b": 2, "c": 3}'), VEC, "unparseable"),
    (_answer('{"a": 1}'), VEC, "unparseable"),
    (_answer('{"a": 1, "A": 2}'), VEC, "unparseable"),
    (_answer('"a = 1, a = 2"'), VEC, "unparseable"),
    (_answer('"a = 1, b = 2"'), VEC, "correct"),
    (_answer('"a' + " " * 80000 + 'b"'), INT, "unparseable"),
    (_answer('"x = 7"'), INT, "correct"),
    (_answer('"about = 7 or so"'), INT, "unparseable"),
    (_answer('"-7"'), ("int", [], {"value": -7}), "correct"),
    (_answer('"\\u22127"'), ("int", [], {"value": -7}), "correct"),
    ('{"action": "answer", "answer": {"value": 7}} {"action": "answer", "answer": {"value": 8}}', INT,
     "unparseable"),
    ('{"action": "answer", "answer": {"value": 7}} same: {"action": "answer", "answer": {"value": 7}}', INT,
     "correct"),
    ('{"action": "answer", "answer": {"value": 7', ("int", [], {"value": 7}), "unparseable"),
    ("Final answer: 7\n\nActually, final answer: 8", INT, "unparseable"),
    ("The answer is $\\boxed{7}$.\n\nFinal answer: 7", INT, "correct"),
    ("What is P(H)?", INT, "unparseable"),
]


@pytest.mark.parametrize(("reply", "spec", "label"), HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_answers(reply: str, spec: tuple, label: str) -> None:
    answer_type, keys, expected = spec
    assert outcome(reply, answer_type, keys, expected) == label
