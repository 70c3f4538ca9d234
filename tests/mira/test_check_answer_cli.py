"""``python -m verifiers check-answer``: how one answer text is read, and whether it is correct (issue 16)."""

from __future__ import annotations

import json
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
