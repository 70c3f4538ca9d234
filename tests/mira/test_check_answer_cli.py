"""``python -m verifiers check-answer``: how one answer text is read, and whether it is correct (issue 16)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verifiers.__main__ import main


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "d.jsonl"
    rows = [{"id": "r1", "family": "bayes", "answer_type": "rational", "answer_keys": [],
             "global_solution": {"numerator": 5, "denominator": 8}},
            {"id": "v1", "family": "lin", "answer_type": "dict_int", "answer_keys": ["a", "b"],
             "global_solution": {"a": 1, "b": -2}}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(("instance", "text", "rc", "shown"), [
    ("r1", '{"action": "answer", "answer": {"numerator": 10, "denominator": 16}}', 0, "read as:   5/8"),
    ("r1", "**Final answer:** 0.625", 0, "verdict:   correct"),
    ("r1", "3/4", 1, "read as:   3/4"),
    ("r1", '{"numerator": 10}', 1, "is not a number"),
    ("r1", '{"value": 1e999999999}', 1, "out of range"),
    ("v1", "(a, b) = (1, -2)", 0, "read as:   a = 1, b = -2"),
    ("v1", "1,000", 1, "leading zero"),
])
def test_check_answer_prints_the_reading_and_the_verdict(dataset: Path, capsys, instance: str, text: str, rc: int,
                                                        shown: str) -> None:
    assert main(["check-answer", "--dataset", str(dataset), "--id", instance, text]) == rc
    out = capsys.readouterr().out
    assert shown in out and "expected:" in out


def test_check_answer_unknown_id_and_missing_file(dataset: Path, tmp_path: Path, capsys) -> None:
    assert main(["check-answer", "--dataset", str(dataset), "--id", "nope", "5"]) == 2
    assert "no instance with id 'nope'" in capsys.readouterr().err
    assert main(["check-answer", "--dataset", str(tmp_path / "missing.jsonl"), "--id", "r1", "5"]) == 2
    assert "cannot read" in capsys.readouterr().err



def test_check_answer_bad_dataset_line_names_file_and_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"id": "ok"}\n{"id": "r1", "a": ' + b"[" * 100_000 + b"]" * 100_000 + b'}\n{"id": "r2\xe9"}\n')
    assert main(["check-answer", "--dataset", str(path), "--id", "r1", "5"]) == 2
    assert capsys.readouterr().err.strip() == f"{path}:2: malformed JSON: nested too deeply"
    assert main(["check-answer", "--dataset", str(path), "--id", "r2", "5"]) == 2
    assert capsys.readouterr().err.strip() == f"{path}:3: not UTF-8 text (byte 11 is 0xE9); JSONL files are UTF-8"

# Replies written the way different models send them; check-answer and the harness read each one the same way.
MODEL_REPLIES = [
    ('{"reasoning": "P(E) = 2/5 + 9/40", "action": "answer", "answer": {"numerator": 5, "denominator": 8}}', True),
    ('```json\n{"Action": "Final Answer", "Answer": {"numerator": 5, "denominator": 8}}\n```', True),  # fenced
    ("Using Bayes' rule the posterior is 25/40, which reduces.\n\n**Final answer:** $\\boxed{\\frac{5}{8}}$", True),
    ("5/8", True),  # a terse model
    ('{"action": "request", "request": "What is P(H)?"}', False),  # a request at the answer turn
    ('{"action": "answer", "answer": {"numerator": 3, "denominator": 4}}', False),
    ('{"action": "answer", "answer": {"numerator": 5, "denominator": 8}', True),  # cut before its last brace
    ('{"action": "answer", "answer": {"numerator": 5, "denominator": 8', False),  # cut in a number: not guessed
]


@pytest.mark.parametrize(("reply", "correct"), MODEL_REPLIES)
def test_check_answer_reads_replies_as_the_harness_does(dataset: Path, capsys, reply: str, correct: bool) -> None:
    from harness.backends.mira_agents import parse_solver_reply
    from harness.mira.types import SolverTurn
    from verifiers.replies import read_solver_reply

    turn = SolverTurn(instance_id="r1", family="bayes", question="", constraints=[], unknowns=[],
                      answer_type="rational", answer_keys=[], budget=0, requests_used=0, must_answer=True, history=[],
                      few_shot_examples=[], hint=None, view_machine=[], target="", turn=1, privileged=None)
    assert read_solver_reply(reply, "rational", []) == parse_solver_reply(reply, turn)
    assert main(["check-answer", "--dataset", str(dataset), "--id", "r1", reply]) == (0 if correct else 1)
    assert ("verdict:   correct" in capsys.readouterr().out) is correct


def test_the_verifiers_commands_import_nothing_from_harness() -> None:
    code = ("import sys, verifiers.__main__, verifiers.reference\n"
            "from verifiers.check_answer import check\n"
            "check({'id': 'r1', 'answer_type': 'rational', 'global_solution': {'numerator': 5, 'denominator': 8}},"
            " '**Final answer:** 5/8')\n"  # reading a reply imported harness inside a function before
            "print(sorted(m for m in sys.modules if m == 'harness' or m.startswith('harness.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout
    assert out.strip() == "[]"
