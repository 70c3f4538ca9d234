"""The default split (seed 1234, 20 x 50), generated once per test run and read by every test that needs it.

Three test files read it (the published checksums, the fact names, the four-shot pool); under pytest-xdist they run
in different workers. The first to ask generates it with ``generators.split.generate`` and writes its canonical
lines (``generators.jsonl.dumps``, the bytes ``data/CHECKSUMS`` covers) to the run's shared folder
(``MIRA_TEST_SHARED``, made by tests/conftest.py for this run only), under a file lock; the others read that file.
Nothing outlives the run, so a change to the generators is always seen by the next run.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from functools import cache
from pathlib import Path

from generators.jsonl import dumps
from generators.split import generate, typed_slots


def _shared() -> Path:
    folder = os.environ.get("MIRA_TEST_SHARED")
    return Path(folder) if folder else Path(tempfile.mkdtemp(prefix="mira-split-"))


@cache
def default_split_bytes(few_shot: bool) -> bytes:
    """The split's JSONL bytes, exactly as ``generate`` and ``dumps`` give them now."""
    path = _shared() / ("mira_four_shot.jsonl" if few_shot else "mira_zero_shot.jsonl")
    with open(f"{path}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not path.exists():
            data = "".join(dumps(inst) + "\n" for inst in generate(typed_slots(20, 50), 1234, few_shot=few_shot,
                                                                   jobs=2)).encode()
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        return path.read_bytes()


def default_split(few_shot: bool = False) -> tuple[dict, ...]:
    """A fresh copy of the split's records (callers may change them)."""
    return tuple(json.loads(line) for line in default_split_bytes(few_shot).decode("utf-8").splitlines())
