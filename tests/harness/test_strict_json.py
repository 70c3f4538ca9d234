"""Issue 16: untrusted JSON is read under limits, and every JSON file the harness writes is strict JSON."""

from __future__ import annotations

import json
import math

import pytest

from harness.rundir import TranscriptWriter, dumps, read_transcripts, write_json_atomic
from verifiers import safejson
from verifiers.jsonparse import first_json_object


def strict_loads(text: str):
    def refuse(name: str) -> None:
        raise ValueError(name)

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(("text", "fragment"), [
    ('{"value": NaN}', "NaN is not JSON"),
    ('{"value": -Infinity}', "-Infinity is not JSON"),
    ('{"value": 1e999999999}', "out of range"),
    ('{"value": 1e-400}', "more precision"),
    ('{"value": 0.1000000000000000000001}', "more precision"),
    ('{"value": ' + "9" * 5000 + "}", "5000 digits"),
    ('{"value": 8, "value": 7}', "duplicate key"),
    ('{"a": "\\ud800"}', "lone surrogate"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_safejson_refuses_with_a_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        safejson.loads(text)
    obj, error = first_json_object(text)
    assert obj is None and error


def test_safejson_reads_exact_floats_and_paired_surrogates() -> None:
    assert safejson.loads('{"a": 0.1, "b": 1e3, "c": -0.0, "d": "\\ud83d\\ude00"}') == {"a": 0.1, "b": 1000.0,
                                                                                        "c": -0.0, "d": "😀"}


def test_written_records_are_strict_json_and_lossless(tmp_path) -> None:
    record = {"instance_id": "x", "message": "lone \ud800 surrogate", "ok": "é"}
    line = dumps(record)
    assert strict_loads(line) == record and "\\ud800" in line
    assert dumps({"instance_id": "y", "message": "é"}) == '{"instance_id":"y","message":"é"}'  # bytes unchanged
    odd = {"instance_id": "z", "nan": math.nan, "inf": -math.inf, "big": 10 ** 5000, "obj": object()}
    strict_loads(dumps(odd))
    with TranscriptWriter(tmp_path / "t.jsonl") as writer:
        writer.write([record, odd])
    state = read_transcripts(tmp_path / "t.jsonl")
    assert state.records["x"] == record and set(state.records) == {"x", "z"}
    write_json_atomic(tmp_path / "m.json", {"a": "\udfff", "b": [1.5]})
    write_json_atomic(tmp_path / "n.json", {"a": math.nan})
    assert strict_loads((tmp_path / "n.json").read_text(encoding="utf-8")) == {"a": "nan"}
    assert strict_loads((tmp_path / "m.json").read_text(encoding="utf-8")) == {"a": "\udfff", "b": [1.5]}
    with pytest.raises(ValueError):
        safejson.dumps({"x": math.nan})
