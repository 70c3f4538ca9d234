"""The ``copy`` solver on the default split and on the slot-notice ablation (issue 24's standing check).

Generates the zero-shot split (seed 1234, 20/50 unless told otherwise) in both view variants, runs copy+rule
on each, and prints first-request success and accuracy per family type and first-request success per family,
then the localization cost table that ``run_eval.py score DEFAULT NOTICE`` prints. The default views should give
the copier (which asks for the slot its view names as missing, else for the first quantity its view mentions
without a value, then guesses) no Type-B first requests (<= 0.05); the ablation nearly all. ``--literal`` also
runs ``copy:literal`` on the default views (the same scan without skipping the views' enumerations of all
slots), which shows what those enumerations would give away to a copier that read them as mentions.

Usage: python benchmarks/bench_copy_solver.py [--n-a 20 --n-b 50] [--literal] [--out DIR]
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

VARIANTS = (("default", False, "copy"), ("slot_notice", True, "copy"))
LITERAL = ("default", False, "copy:literal")


def run_variant(root: Path, variant: str, slot_notice: bool, solver: str, n_a: int, n_b: int) -> Path:
    data = root / f"mira_zero_shot_{variant}.jsonl"
    if not data.exists():
        write_jsonl(data, generate(typed_slots(n_a, n_b), 1234, slot_notice=slot_notice))
    out = root / f"{solver.replace(':', '_')}_rule_{variant}"
    run_mira(MiraRunConfig(dataset=str(data), out=str(out), solver=solver, responder="rule", progress=False))
    return out


def label(variant: str, solver: str) -> str:
    return variant if solver == "copy" else f"{variant} ({solver})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n-a", type=int, default=20)
    parser.add_argument("--n-b", type=int, default=50)
    parser.add_argument("--literal", action="store_true", help="also run copy:literal on the default views")
    parser.add_argument("--out", help="keep the data and run folders here (default: a temporary folder)")
    args = parser.parse_args()
    runs = [*VARIANTS, LITERAL] if args.literal else list(VARIANTS)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.out or tmp)
        root.mkdir(parents=True, exist_ok=True)
        scored = {}
        print(f"copy/rule, zero-shot, seed 1234, n_a {args.n_a}, n_b {args.n_b}")
        print(f"  {'variant':28s} {'type':4s} {'n':>5s} {'1st-req OK':>10s} {'accuracy':>9s}")
        for variant, slot_notice, solver in runs:
            start = time.perf_counter()
            folder = run_variant(root, variant, slot_notice, solver, args.n_a, args.n_b)
            run = score_run(folder, figures=False, write=False)
            name = label(variant, solver)
            for kind, m in run.summary["by_type"].items():
                print(f"  {name:28s} {kind:4s} {m['n']:5d} {m['first_request_success']:10.3f} {m['accuracy']:9.3f}")
            print(f"  ({name}: generated and ran in {time.perf_counter() - start:.1f}s)")
            scored[name] = run
        print()
        print_by_family(scored)
        for default, notice in view_pairs([scored["default"], scored["slot_notice"]]):
            print()
            print(localization_table(default, notice).text())


def print_by_family(scored: dict) -> None:
    """First-request success per family (rows) and run (columns)."""
    names = list(scored)
    first = next(iter(scored.values())).summary
    types = first["family_types"]
    print("  first-request success per family")
    print(f"  {'family':34s} {'type':4s} {'n':>4s} " + " ".join(f"{n:>22s}" for n in names))
    for family, m in sorted(first["by_family"].items(), key=lambda kv: (types.get(kv[0], ""), kv[0])):
        cells = " ".join(f"{scored[n].summary['by_family'][family]['first_request_success']:22.3f}" for n in names)
        print(f"  {family:34s} {types.get(family, '?'):4s} {m['n']:4d} {cells}")


if __name__ == "__main__":
    main()
