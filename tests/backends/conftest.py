"""Fixtures for the backend tests: a tiny random Llama (built once per session) and small MIRA splits."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from generators.jsonl import write_jsonl
from generators.split import generate, typed_slots


@pytest.fixture(scope="session")
def mira_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Zero-shot and four-shot files: one instance per family and difficulty (66 lines each)."""
    root = tmp_path_factory.mktemp("mira")
    files = {"zero_shot": root / "zs.jsonl", "four_shot": root / "fs.jsonl"}
    write_jsonl(files["zero_shot"], generate(typed_slots(1, 1), 1234))
    write_jsonl(files["four_shot"], generate(typed_slots(1, 1), 1234, few_shot=True))
    return files


@pytest.fixture(scope="session")
def easy_files(mira_files: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A few difficulty-1 instances (budget 3) of different families, for runs with a real (tiny) model."""
    root = tmp_path_factory.mktemp("easy")
    out = {}
    for regime, path in mira_files.items():
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        easy = [inst for inst in lines if inst["difficulty"] == 1][::4][:6]
        out[regime] = root / path.name
        write_jsonl(out[regime], easy)
    return out


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once per run: under pytest-xdist the first worker that needs it builds it in the run's common temporary
    folder and the others wait for it and read it (the build is deterministic; no test writes into it)."""
    pytest.importorskip("transformers")
    from harness.backends.tiny import build_tiny_model

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return build_tiny_model(tmp_path_factory.mktemp("models") / "tiny-llama")
    shared = tmp_path_factory.getbasetemp().parent / "tiny-llama"
    with open(f"{shared}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (shared / "config.json").exists():
            staging = tmp_path_factory.mktemp("models") / "tiny-llama"
            build_tiny_model(staging)
            os.replace(staging, shared)
    return shared
