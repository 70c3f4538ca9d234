"""The GPU check's CPU dry run: scripts/device_check.sh --tiny end to end, so that the script cannot rot between GPU
runs. One run of the shell script (the driver in a subprocess, as on the GPU machine): every phase runs on the tiny
model, the last one is stopped by SIGTERM sent to the script, and the summary must still hold every figure."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("xgrammar")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "device_check.sh"
PHASES = ("equality", "full_split", "slice_batched", "slice_batched_big_cache", "slice_one_by_one", "elenchos")


def _lines(stream, out: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        out.put(line)
    out.put(None)


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("device_check")
    env = {**os.environ, "DEVICE": "cpu", "OUT": str(out), "PY": sys.executable, "LIMIT_S": "420",
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    # Small slices and budgets ample for a busy 2-core machine (each phase ends with its instances); SIGTERM stops
    # the Elenchos phase.
    budgets = ["equality=60", "full_split=90", "slice_batched=60", "slice_batched_big_cache=60",
               "slice_one_by_one=90", "elenchos=120"]
    args = ["--tiny", "--full-limit", "8", "--slice", "4", "--batch-size", "4",
            *(x for b in budgets for x in ("--budget", b))]
    proc = subprocess.Popen(["bash", str(SCRIPT), *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True).start()
    log, signalled, deadline = [], False, time.monotonic() + 360
    try:
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                break
            log.append(line)
            if not signalled and "elenchos: started" in line:
                time.sleep(2)  # a few engine calls into the phase
                proc.send_signal(signal.SIGTERM)
                signalled = True
        rc = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    text = "".join(log)
    assert signalled, f"the Elenchos phase never started:\n{text[-3000:]}"
    summary = json.loads((out / "summary.json").read_text())
    return {"summary": summary, "rc": rc, "log": text, "out": out}


def test_summary_has_every_phase_and_the_headline(dry_run: dict) -> None:
    s = dry_run["summary"]
    assert s["version"] == 1 and s["profile"] == "tiny" and s["device"] == "cpu"
    assert {"python", "torch", "transformers", "xgrammar"} <= set(s["environment"])
    assert s["model"]["shape"]["layers"] == 2 and s["model"]["engine"]["prefill"] == "ragged"
    assert s["data"]["full_split"] == 8 and s["data"]["slice"] == 4
    assert list(s["phases"]) == list(PHASES)
    for name in PHASES[:-1]:
        phase = s["phases"][name]
        assert phase["status"] == "complete", (name, phase.get("error"), phase.get("traceback"))
        assert phase["wall_s"] > 0 and phase["generated_tokens"] > 0 and phase["engine_calls"] > 0
        assert phase["prefill"]["reused_tokens"] > 0  # the prefix cache served every phase
    head = s["headline"]
    for key in ("full_split_wall_s", "full_split_tokens_per_s", "full_split_engine_calls", "full_split_reused_rate",
                "batched_speedup_per_turn", "equality_rate", "slice_big_cache_reused_rate"):
        assert head[key] is not None, key
    assert head["full_split_instances"] == 8


def test_mira_phases_measure_what_the_docs_promise(dry_run: dict) -> None:
    phases = dry_run["summary"]["phases"]
    full = phases["full_split"]
    assert full["instances"] == 8
    assert full["engine_calls_run_json"] <= full["engine_calls_bound"]
    # one timing per engine call (per turn), all solver calls (the responder is the rule agent)
    assert len(full["calls"]) == full["engine_calls"]
    assert all(c["schema"] == "mira_solver_action" and c["seconds"] >= 0 for c in full["calls"])
    assert sum(c["completion_tokens"] for c in full["calls"]) == full["generated_tokens"]
    # batch_size 4 over 8 conversations: at least two generate chunks on the first turn
    assert full["generate_chunks"]["chunks"] > full["engine_calls"]
    big = phases["slice_batched_big_cache"]
    assert big["prefix_cache_gib"] == 0.25 and big["prefix_cache_gib"] != phases["slice_batched"]["prefix_cache_gib"]
    assert big["instances"] == phases["slice_batched"]["instances"] == 4
    one = phases["slice_one_by_one"]
    assert one["instances"] == 4 and max(c["items"] for c in one["calls"]) == 1
    assert phases["slice_batched"]["engine_calls"] < one["engine_calls"]


def test_equality_of_ragged_prefill_and_plain_generate(dry_run: dict) -> None:
    eq = dry_run["summary"]["phases"]["equality"]
    assert eq["conversations"] == 3 and len(eq["turns"]) == 2
    assert eq["turns"][1]["prompt_tokens"] > eq["turns"][0]["prompt_tokens"]  # the history grew
    # fp32 on the CPU: the same greedy replies, every turn (bf16 on a GPU may differ by rounding; it is measured)
    assert eq["equal_rate"] == 1.0, eq["turns"]


def test_sigterm_stops_the_phase_and_still_writes_the_summary(dry_run: dict) -> None:
    s = dry_run["summary"]
    assert s["stopped"] == "signal SIGTERM" and s["complete"] is False
    assert dry_run["rc"] != 0
    elenchos = s["phases"]["elenchos"]
    assert elenchos["status"] == "stopped: SIGTERM"
    assert elenchos["wall_s"] < 60 and "sessions_done" in elenchos["partial"]  # stopped at once, not at its budget
    assert (dry_run["out"] / "device_check.log").read_text().count("elenchos: started") == 1
    assert "done:" in dry_run["log"]
    run_info = json.loads((dry_run["out"] / "run_info.json").read_text())
    assert {"full", "slice-batched", "slice-one-by-one"} <= set(run_info)


def test_a_phase_past_its_budget_stops_before_its_next_chunk() -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks.device_check import BuiltEngine, PhaseTimeout

    engine = object.__new__(BuiltEngine)  # no model needed: the deadline is checked before any work
    engine.deadline = time.monotonic() - 1
    with pytest.raises(PhaseTimeout):
        engine._generate_chunk([[1, 2, 3]], [None], None)
