"""Generate and validate the MIRA-Math typed split (seed 1234, 20/50), zero-shot and four-shot.

Prints wall times, instances per second, the slowest families, and the speed-up of 2 worker processes over
one (the baseline, measured in the same run). Usage: python benchmarks/bench_mira_generate.py [--jobs 2]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Sequence

from generators.families import FAMILIES
from generators.jsonl import dumps
from generators.split import generate, typed_slots
from verifiers.validate import instance_problems, validate_records


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def run(families: Sequence[str], jobs: int) -> tuple[float, int]:
    slots = typed_slots(20, 50, families=families)
    zero, t_gen = timed(lambda: list(generate(slots, 1234, jobs=jobs)))
    few, t_few = timed(lambda: list(generate(slots, 1234, few_shot=True, jobs=jobs)))
    def validate_both():
        for name, records in (("zero-shot", zero), ("four-shot", few)):
            result = validate_records(name, list(enumerate(records, start=1)), jobs=jobs)
            assert not result.error_count, result.errors[:3]

    _, t_val = timed(validate_both)
    total = t_gen + t_few + t_val
    n = len(zero) + len(few)
    print(f"  jobs={jobs}: generate ZS {t_gen:.2f}s, generate 4S {t_few:.2f}s (4S/ZS {t_few / t_gen:.2f}: the "
          f"example pool), validate both {t_val:.2f}s "
          f"-> {n} instances in {total:.2f}s ({n / total:.0f} inst/s)")
    return total, n


def per_family(families: Sequence[str]) -> None:
    cost: dict[str, float] = defaultdict(float)
    for name in families:
        slots = typed_slots(20, 50, families=[name])
        for inst in generate(slots, 1234):
            start = time.perf_counter()
            dumps(inst)
            assert not instance_problems(inst)
            cost[name] += time.perf_counter() - start
    print("  slowest families to validate (ms per instance):")
    n = {name: len(typed_slots(20, 50, families=[name])) for name in families}
    for name, t in sorted(cost.items(), key=lambda kv: -kv[1] / n[kv[0]])[:6]:
        print(f"    {name:34s} {1000 * t / n[name]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    type_a = [f for f, fam in FAMILIES.items() if fam.type == "A"]
    print(f"Type-A part ({len(type_a)} families):")
    run(type_a, 1)
    print(f"Whole split ({len(FAMILIES)} families):")
    serial, _ = run(list(FAMILIES), 1)
    parallel, _ = run(list(FAMILIES), args.jobs)
    print(f"  speed-up of {args.jobs} workers over 1: {serial / parallel:.2f}x")
    per_family(list(FAMILIES))


if __name__ == "__main__":
    main()
