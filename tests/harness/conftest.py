"""Shared fixtures: a small generated split covering every registered family and difficulty."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators.jsonl import write_jsonl
from generators.split import generate, typed_slots

N_PER_BLOCK = 2  # instances per family and difficulty: 22 families x 3 x 2 = 132


@pytest.fixture(scope="session")
def split_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("split")
    slots = typed_slots(N_PER_BLOCK, N_PER_BLOCK)
    files = {"zero_shot": root / "zs.jsonl", "four_shot": root / "fs.jsonl"}
    write_jsonl(files["zero_shot"], generate(slots, 1234))
    write_jsonl(files["four_shot"], generate(slots, 1234, few_shot=True))
    return files


@pytest.fixture(scope="session")
def instances(split_files: dict[str, Path]) -> list[dict]:
    with open(split_files["zero_shot"], encoding="utf-8") as f:
        return [json.loads(line) for line in f]
