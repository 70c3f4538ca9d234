"""The ``copy`` solver on the default split and on the slot-notice ablation (issue 24's standing check).

Generates the zero-shot split (seed 1234, 20/50 unless told otherwise) in both view variants, runs copy+rule
on each, and prints first-request success and accuracy per family type, then the localization cost table
that ``run_eval.py score DEFAULT NOTICE`` prints. The default views should give the copier (which asks for the
slot its view names as missing, else its first unknown, then guesses) no Type-B first requests (<= 0.05);
the ablation nearly all.

Usage: python benchmarks/bench_copy_solver.py [--n-a 20 --n-b 50] [--out DIR]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from generators.jsonl import write_jsonl
from generators.split import generate, typed_slots
from harness.mira.report import localization_table, view_pairs
from harness.mira.run import MiraRunConfig, run_mira
from harness.mira.score import score_run

VARIANTS = (("default", False), ("slot_notice", True))


def run_variant(root: Path, variant: str, slot_notice: bool, n_a: int, n_b: int) -> Path:
    data = root / f"mira_zero_shot_{variant}.jsonl"
    write_jsonl(data, generate(typed_slots(n_a, n_b), 1234, slot_notice=slot_notice))
    out = root / f"copy_rule_{variant}"
    run_mira(MiraRunConfig(dataset=str(data), out=str(out), solver="copy", responder="rule", progress=False))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n-a", type=int, default=20)
    parser.add_argument("--n-b", type=int, default=50)
    parser.add_argument("--out", help="keep the data and run folders here (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.out or tmp)
        root.mkdir(parents=True, exist_ok=True)
        scored = []
        print(f"copy/rule, zero-shot, seed 1234, n_a {args.n_a}, n_b {args.n_b}")
        print(f"  {'variant':12s} {'type':4s} {'n':>5s} {'1st-req OK':>10s} {'accuracy':>9s}")
        for variant, slot_notice in VARIANTS:
            start = time.perf_counter()
            run = score_run(run_variant(root, variant, slot_notice, args.n_a, args.n_b), figures=False, write=False)
            for kind, m in run.summary["by_type"].items():
                print(f"  {variant:12s} {kind:4s} {m['n']:5d} {m['first_request_success']:10.3f} {m['accuracy']:9.3f}")
            print(f"  ({variant}: generated and ran in {time.perf_counter() - start:.1f}s)")
            scored.append(run)
        for default, notice in view_pairs(scored):
            print()
            print(localization_table(default, notice).text())


if __name__ == "__main__":
    main()
