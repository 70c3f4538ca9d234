"""Run directories: run, re-score from transcripts, resume after a crash, refusals; run_eval.py wiring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.elenchos.run import ElenchosRunConfig, run_elenchos
from harness.elenchos.score import score_run
from harness.errors import ConfigMismatch, HarnessError, InputErrors
from harness.rundir import RunDir


def lines_of(path: Path) -> dict[str, dict]:
    return {json.loads(x)["instance_id"]: json.loads(x) for x in (path / "transcripts.jsonl").read_text().splitlines()}


@pytest.fixture(scope="module")
def sra_run(tmp_path_factory: pytest.TempPathFactory, fam) -> Path:
    out = tmp_path_factory.mktemp("runs") / "sra_benchmark"
    run_elenchos(ElenchosRunConfig(out=str(out), suite="benchmark", agent="sra", progress=False))
    return out


def test_run_writes_transcripts_run_json_and_metrics(sra_run: Path) -> None:
    info = json.loads((sra_run / "run.json").read_text())
    assert info["benchmark"] == "elenchos" and info["status"] == "complete" and info["config"]["suite"] == "benchmark"
    assert info["config"]["sessions"] == 70 and info["agents"]["agent"]["kind"] == "SimpleReflexAgent"
    assert info["engine_calls"]["engine_calls"] == 14  # 13 probes + 1 submission, batched over all sessions
    assert info["config"]["pi_rsa"] == "level0" and info["probe_library"]["pi_rsa_choice"] == "level0"
    assert len(set(info["probe_library"]["level0"].values())) == 13
    metrics = json.loads((sra_run / "metrics.json").read_text())
    assert metrics["overall"]["n"] == 70 and metrics["by_k_class"]["k1"]["V"] == 1.0
    assert metrics["overall"]["null"]["specificity"] == 1.0 and metrics["overall"]["null"]["mean_probes"] == 13
    for key in ("V", "V_K", "V_A", "V_A_J", "precision", "recall", "V_A_given_V_K", "E_ELX", "P_over_P_max",
                "failed_with_budget_left", "fault", "gap"):
        assert key in metrics["overall"]
    assert metrics["overall"]["ci95"]["gap"] is not None and metrics["overall"]["ci95"]["V"] is not None


def test_pi_rsa_cover_is_recorded_in_run_json_and_the_sessions(tmp_path: Path) -> None:
    out = tmp_path / "cover"
    run_elenchos(ElenchosRunConfig(out=str(out), suite="benchmark", agent="sra", progress=False, pi_rsa="cover"))
    info = json.loads((out / "run.json").read_text())
    assert info["config"]["pi_rsa"] == "cover" and info["probe_library"]["pi_rsa_choice"] == "cover"
    assert info["agents"]["agent"]["pi_rsa_choice"] == "cover" and len(info["probe_library"]["pi_rsa"]) == 5
    assert info["engine_calls"]["engine_calls"] == 6  # 5 probes + 1 submission
    assert {line["session"]["metadata"]["pi_rsa"] for line in lines_of(out).values()} == {"cover"}
    with pytest.raises(HarnessError, match="contradicts"):
        run_elenchos(ElenchosRunConfig(out=str(tmp_path / "x"), suite="benchmark", agent="sra", progress=False,
                                       agent_options={"pi_rsa": "level0"}, pi_rsa="cover"))


def test_score_recomputes_metrics_from_transcripts_byte_for_byte(sra_run: Path) -> None:
    before = (sra_run / "metrics.json").read_bytes()
    scored = score_run(sra_run)
    assert (sra_run / "metrics.json").read_bytes() == before
    assert scored.metrics["overall"]["n"] == 70
    assert (sra_run / "report.md").exists() and (sra_run / "per_session.csv").exists()


def test_resume_after_a_crash_gives_the_same_transcript(tmp_path: Path, sra_run: Path) -> None:
    out = tmp_path / "resumed"
    cfg = ElenchosRunConfig(out=str(out), suite="benchmark", agent="sra", progress=False)
    run_elenchos(cfg)
    path = out / "transcripts.jsonl"
    raw = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(raw[:20]) + b"\n" + raw[20][:37])  # 20 whole lines and a cut one
    info = json.loads((out / "run.json").read_text())
    info["status"] = "running"
    (out / "run.json").write_text(json.dumps(info))
    result = run_elenchos(cfg)
    assert result.ran == 50 and (out / "transcripts.partial").exists()
    assert lines_of(out) == lines_of(sra_run)
    assert json.loads((out / "metrics.json").read_text()) == json.loads((sra_run / "metrics.json").read_text())
    assert run_elenchos(cfg).ran == 0  # complete: nothing to do


def test_resume_with_another_agent_is_refused(sra_run: Path) -> None:
    with pytest.raises(ConfigMismatch, match="agent"):
        run_elenchos(ElenchosRunConfig(out=str(sra_run), suite="benchmark", agent="optimal", progress=False))


def test_bad_inputs_are_reported_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "sessions.jsonl"
    bad.write_text('{"id": "lad-000000"}\nnot json\n')
    with pytest.raises(InputErrors) as info:
        run_elenchos(ElenchosRunConfig(out=str(tmp_path / "r"), sessions_file=str(bad), progress=False))
    assert f"{bad}:1 [lad-000000]" in str(info.value) and f"{bad}:2" in str(info.value)
    with pytest.raises(HarnessError, match=r"unknown elenchos\.agent agent 'oracle'"):
        run_elenchos(ElenchosRunConfig(out=str(tmp_path / "r2"), suite="benchmark", agent="oracle", progress=False))


def test_run_eval_cli_runs_and_scores(tmp_path: Path, capsys, fam) -> None:
    from harness.cli import main

    out = tmp_path / "opt"
    assert main(["elenchos", "--suite", "ladder", "--agent", "optimal", "--limit", "30", "--out", str(out),
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "optimal ladder: by k" in printed and "V_A|V_K=1" in printed
    assert main(["score", str(out), "--compare-out", str(tmp_path / "cmp")]) == 0
    assert json.loads((tmp_path / "cmp" / "summary.json").read_text())["optimal ladder"]["overall"]["V"] == 1.0
    assert RunDir(out).load_info()["config"]["limit"] == 30


def test_sessions_file_from_the_generator_is_accepted(tmp_path: Path, fam) -> None:
    from generators.__main__ import main as generate

    assert generate(["elenchos", "--out", str(tmp_path / "data"), "--sessions", "--repetitions", "1"]) == 0
    result = run_elenchos(ElenchosRunConfig(out=str(tmp_path / "r"), sessions_file=str(tmp_path / "data" /
                                                                                       "benchmark.jsonl"),
                                            agent="random", agent_options={"seed": "9"}, progress=False))
    assert result.metrics["overall"]["n"] == 14 and result.info["config"]["suite"] == "benchmark"


def test_the_end_of_a_run_does_not_read_its_transcript_back(tmp_path: Path, sra_run: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """metrics.json comes from the lines just written (and those read at the start of a resume), byte for byte the
    same as from the transcript file."""
    import harness.elenchos.run as run_module

    def no_reread(run_dir: RunDir) -> list[dict]:
        raise AssertionError("the transcript was read back")

    monkeypatch.setattr(run_module, "load_lines", no_reread)
    out = tmp_path / "in_memory"
    cfg = ElenchosRunConfig(out=str(out), suite="benchmark", agent="sra", progress=False)
    run_elenchos(cfg)
    assert (out / "metrics.json").read_bytes() == (sra_run / "metrics.json").read_bytes()
    usage = [json.loads((run / "run.json").read_text())["usage"] for run in (out, sra_run)]
    assert usage[0] == usage[1]
    path = out / "transcripts.jsonl"
    path.write_bytes(b"\n".join(path.read_bytes().split(b"\n")[:30]) + b"\n")  # a crash after 30 sessions
    info = json.loads((out / "run.json").read_text())
    info["status"] = "running"
    (out / "run.json").write_text(json.dumps(info))
    (out / "metrics.json").unlink()
    assert run_elenchos(cfg).ran == 40
    assert (out / "metrics.json").read_bytes() == (sra_run / "metrics.json").read_bytes()


def test_a_line_that_may_not_read_back_as_it_is_sends_the_end_to_the_file() -> None:
    from harness.elenchos.run import MetricInputs

    line = {"instance_id": "a", "live_metrics": {"id": "a", "V": 1}, "usage": {}}
    kept = MetricInputs([line])
    kept.add({**line, "instance_id": "b"}, readable=True)
    assert kept.exact and [x["instance_id"] for x in kept.lines] == ["a", "b"]
    for bad, readable in (({**line, "instance_id": "c"}, False), (line, True),
                          ({**line, "instance_id": "d", "live_metrics": {"id": "d", "P": (1, 2)}}, True)):
        inputs = MetricInputs([line])
        inputs.add(bad, readable)  # not as written, a second "a", a tuple that reads back as a list
        assert not inputs.exact
