"""Benchmark: a deterministic full MIRA-Math run (oracle solver + rule responder) over the default split.

    python benchmarks/bench_harness_mira.py [--dataset FILE ...] [--strict]

Without ``--dataset`` it generates the default split (seed 1234, 20/50 typed, zero-shot and four-shot)
into a temporary directory first (not timed). Each file is then run from scratch into a fresh run
directory (timed: dataset load + checks, the batched protocol loop, transcript writes with fsync,
metrics), and re-scored from its transcripts (timed separately). Target: 2,310 instances in under 5 s.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generators.jsonl import write_jsonl  # noqa: E402
from generators.split import generate, typed_slots  # noqa: E402
from harness.mira.run import MiraRunConfig, run_mira  # noqa: E402
from harness.mira.score import score_run  # noqa: E402

TARGET_INSTANCES, TARGET_SECONDS = 2310, 5.0


def default_split(root: Path) -> list[Path]:
    slots = typed_slots(20, 50)
    files = [root / "mira_zero_shot.jsonl", root / "mira_four_shot.jsonl"]
    write_jsonl(files[0], generate(slots, 1234))
    write_jsonl(files[1], generate(slots, 1234, few_shot=True))
    return files


def bench(dataset: Path, out: Path) -> dict:
    started = time.perf_counter()
    result = run_mira(MiraRunConfig(dataset=str(dataset), out=str(out), progress=False))
    run_s = time.perf_counter() - started
    started = time.perf_counter()
    score_run(out, figures=False, write=False)
    score_s = time.perf_counter() - started
    overall = result.metrics["overall"]
    n = overall["n"]
    return {
        "dataset": dataset.name,
        "instances": n,
        "run_s": round(run_s, 3),
        "instances_per_s": round(n / run_s, 1),
        "rescore_s": round(score_s, 3),
        "accuracy": overall["accuracy"],
        "first_request_success": overall["first_request_success"],
        "engine_calls": result.info["engine_calls"]["engine_calls"],
        "target_met": None if n != TARGET_INSTANCES else run_s < TARGET_SECONDS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", action="append", type=Path, help="dataset file(s); default: the default split")
    parser.add_argument("--strict", action="store_true", help="exit 1 when the 5 s target is missed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = args.dataset or default_split(root)
        results = [bench(path, root / f"run_{i}") for i, path in enumerate(files)]
    for r in results:
        print(json.dumps(r))
    perfect = all(r["accuracy"] == 1.0 and r["first_request_success"] == 1.0 for r in results)
    missed = [r for r in results if r["target_met"] is False]
    print(f"oracle+rule perfect: {perfect}; "
          f"target ({TARGET_INSTANCES} instances < {TARGET_SECONDS} s): {'MISSED' if missed else 'met'}")
    return 1 if not perfect or (args.strict and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
