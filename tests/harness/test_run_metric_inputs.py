"""metrics.json from the lines a run wrote, kept in memory: the same bytes as reading the transcript back, and a
fallback to reading it back whenever a line would not read back unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import harness.mira.score as score_module
from harness import redact, registry
from harness.mira.agents.oracle import OracleSolver
from harness.mira.metrics import summarize
from harness.mira.run import MetricInputs, MiraRunConfig, run_mira
from harness.mira.score import load_records, score_run
from harness.rundir import RunDir, dumps, transcript_line
from harness.untrusted import MAX_DEPTH, parse_record


def _record(rid: str = "x-1", **extra: object) -> dict:
    return {"format": "mira-transcript/1", "instance_id": rid, "family": "bayes_missing_prior", "type": "A",
            "difficulty": 1, "condition": "standard", "answer_type": "rational", "answer_keys": [],
            "expected": {"numerator": 1, "denominator": 2},
            "canonical_hint": {"text": "P(H) = 1/2"}, "b_constraints": ["P(H) = 1/2"], "events": [],
            "live_metrics": {"correct": 1, "hit_rate": 0.5, "tokens": 5.2}, **extra}


def test_a_plain_line_is_the_writer_line_and_reads_back() -> None:
    record = _record(usage={"solver": {"calls": 1}})
    line, readable = transcript_line(record)
    assert line == (dumps(record) + "\n").encode() and readable
    assert json.loads(line) == record


@pytest.mark.parametrize("extra", [
    {"usage": {"solver": {"cost": float("nan")}}},  # not JSON: written through strictify
    {"deep": json.loads("[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH)},  # nested deeper than the reader allows
])
def test_a_line_that_would_not_read_back_as_written_is_flagged(extra: dict) -> None:
    assert transcript_line(_record(**extra))[1] is False


def test_the_nesting_rule_is_the_readers() -> None:
    """Many brackets, shallow (an Elenchos line's events): read back as written; exactly the reader's limit too."""
    for extra in ({"events": [{"probe": [i], "seen": {"a": [i]}} for i in range(200)]},
                  {"deep": json.loads("[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1))}):
        line, readable = transcript_line(_record(**extra))
        assert readable and parse_record(line)[1] is None
    line, readable = transcript_line(_record(deep=json.loads("[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH)))
    assert not readable and "nested deeper" in parse_record(line)[1]


def test_a_redacted_line_is_flagged() -> None:
    redact.register("hunter2-SECRET")
    try:
        line, readable = transcript_line(_record(events=[{"message": "key hunter2-secret"}]))
    finally:
        redact.forget_all()
    assert b"hunter2" not in line.lower() and readable is False


@pytest.mark.parametrize("record, readable", [
    (_record(), False),  # the writer could not write it as it is
    ({**_record(), "events": "not a list"}, True),  # schema-invalid
    (_record(usage={"solver": {"calls": (1, 2)}}), True),  # a tuple reads back as a list
    (_record(usage={"solver": {1: 2}}), True),  # a key that reads back as a string
    ({k: v for k, v in _record().items() if k != "instance_id"}, True),
])
def test_metric_inputs_give_up_on_anything_the_reader_would_see_differently(record: dict, readable: bool) -> None:
    inputs = MetricInputs()
    inputs.add(_record("ok-1"), True)
    assert inputs.exact
    inputs.add(record, readable)
    assert not inputs.exact


def test_metric_inputs_refuse_a_duplicate_and_check_earlier_lines_expected_answers() -> None:
    inputs = MetricInputs([_record("a")])
    inputs.add(_record("a"), True)
    assert not inputs.exact
    assert not MetricInputs([_record("b", expected={"numerator": "x"})]).exact
    kept = MetricInputs([_record("c")])
    assert kept.exact and kept.records == [{k: _record("c")[k] for k in
                                            ("instance_id", "family", "type", "difficulty", "condition",
                                             "live_metrics")}]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The run folders whose transcript ``load_records`` read back."""
    seen: list[Path] = []
    original = score_module.load_records

    def spy(run_dir: RunDir) -> list[dict]:
        seen.append(run_dir.path)
        return original(run_dir)

    monkeypatch.setattr(score_module, "load_records", spy)
    return seen


def _same_as_reading_back(out: Path) -> None:
    records = load_records(RunDir(out))
    metrics = json.loads((out / "metrics.json").read_text())
    expected = {"benchmark": "mira", "label": metrics["label"],
                **summarize(records, [r["live_metrics"] for r in records])}
    assert metrics == json.loads(json.dumps(expected))


def test_a_run_and_its_resume_use_the_lines_in_memory(split_files: dict[str, Path], tmp_path: Path,
                                                      reads: list[Path]) -> None:
    out = tmp_path / "run"
    run_mira(MiraRunConfig(dataset=str(split_files["zero_shot"]), out=str(out), progress=False, limit=12))
    run_mira(MiraRunConfig(dataset=str(split_files["zero_shot"]), out=str(out), progress=False, limit=12))
    assert reads == []
    _same_as_reading_back(out)
    text = (out / "transcripts.jsonl").read_bytes()
    (out / "transcripts.jsonl").write_bytes(b"".join(text.splitlines(keepends=True)[:5]))
    info = json.loads((out / "run.json").read_text())
    info["status"] = "running"
    (out / "run.json").write_text(json.dumps(info))
    run_mira(MiraRunConfig(dataset=str(split_files["zero_shot"]), out=str(out), progress=False, limit=12))
    assert reads == [] and (out / "transcripts.jsonl").read_bytes() == text
    _same_as_reading_back(out)


class SecretSolver(OracleSolver):
    """The oracle, whose messages carry a registered secret (so the transcript lines are redacted)."""

    def act(self, turns):  # type: ignore[no-untyped-def]
        return [type(a)(**{**a.__dict__, "message": a.message + " hunter2-SECRET", "usage": {"calls_made": 1}})
                for a in super().act(turns)]


def test_a_redacted_run_reads_its_transcript_back(split_files: dict[str, Path], tmp_path: Path,
                                                  reads: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    registry.register("mira.solver", "secret-oracle", lambda arg, options: SecretSolver())
    redact.register("hunter2-SECRET")
    out = tmp_path / "run"
    try:
        result = run_mira(MiraRunConfig(dataset=str(split_files["zero_shot"]), out=str(out), solver="secret-oracle",
                                        progress=False, limit=6))
    finally:
        redact.forget_all()
        registry.unregister("mira.solver", "secret-oracle")
    assert reads == [out]
    assert b"hunter2" not in (out / "transcripts.jsonl").read_bytes().lower()
    assert result.info["usage"]["solver"]["calls_made"] == 12
    _same_as_reading_back(out)
    score_run(out, figures=False)
    assert "reproduced exactly" in capsys.readouterr().err
