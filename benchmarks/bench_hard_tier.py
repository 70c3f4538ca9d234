"""Generate and validate the MIRA-Math hard tier (docs/hard-tier.md), and measure its guess floor.

For every family: the time to generate its blocks (difficulties 4 and 5, k = 1 and 2, ``--n`` instances each;
zero-shot, then four-shot with the example pool, over the blocks that could be built), the time to validate them
(every check of ``validate``), and, as the baseline measured in the same run, the time to generate as many
paper-tier d3 instances (the ratio says what the tier costs over d3). Then the totals against the 30 s target of
issue 29, and the guess floor per family at d4 and d5: the share of instances whose answer equals the ``guess``
solver's typed zero (``harness.mira.agents.common.typed_zero``), flagged above 0.05.

A family that fails (a rejection loop, a validator error) is reported on its own lines and
the run goes on. Usage: python benchmarks/bench_hard_tier.py [--n 10] [--seed 1234] [--families a,b]
"""

from __future__ import annotations

import argparse
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from generators.answers import decode_answer
from generators.families import FAMILIES
from generators.split import HARD_DIFFICULTIES, HARD_KS, Slot, generate, hard_slots
from harness.mira.agents.common import typed_zero
from verifiers.validate import instance_problems

TARGET_S = 30.0
FLOOR_LIMIT = 0.05


@dataclass
class FamilyResult:
    name: str
    generate_s: float = 0.0
    four_shot_s: float = 0.0
    validate_s: float = 0.0
    baseline_s: float = 0.0
    instances: int = 0
    invalid: int = 0
    zero_answers: dict[int, list[int]] = field(default_factory=dict)  # difficulty -> [hits, instances]
    failures: list[str] = field(default_factory=list)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def failure(what: str, exc: BaseException) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{what}: {type(exc).__name__}: {str(exc)[:160]} ({where.filename.rsplit('/', 1)[-1]}:{where.lineno})"


def is_typed_zero(record: dict[str, Any]) -> bool:
    kind, keys = record["answer_type"], record["answer_keys"]
    return decode_answer(kind, record["global_solution"], keys) == decode_answer(kind, typed_zero(kind, keys), keys)


def measure(name: str, n: int, seed: int) -> FamilyResult:
    result = FamilyResult(name)
    records: list[dict] = []
    built: list[Slot] = []
    for d in HARD_DIFFICULTIES:
        for k in HARD_KS:  # block by block, so that a failing block (say k = 2) leaves the others measured
            slots = [Slot(name, d, i, k) for i in range(n)]
            try:
                block, seconds = timed(lambda slots=slots: list(generate(slots, seed)))
            except Exception as exc:  # a benchmark reports every family's failure and goes on
                result.failures.append(failure(f"generate d{d} k{k}", exc))
                continue
            result.generate_s += seconds
            records += block
            built += slots
    result.instances = len(records)
    could_build = set(built)
    tier = [slot for slot in hard_slots(n, [name]) if slot in could_build]  # the blocks that could be built
    try:
        _, result.four_shot_s = timed(lambda: list(generate(tier, seed, few_shot=True)))
    except Exception as exc:
        result.failures.append(failure("four-shot", exc))
    _, result.validate_s = timed(lambda: validate(records, result))
    baseline = [Slot(name, 3, i) for i in range(len(HARD_DIFFICULTIES) * len(HARD_KS) * n)]
    try:
        _, result.baseline_s = timed(lambda: list(generate(baseline, seed)))
    except Exception as exc:
        result.failures.append(failure("baseline d3", exc))
    return result


def validate(records: Sequence[dict], result: FamilyResult) -> None:
    for record in records:
        try:
            problems = instance_problems(record)
        except Exception as exc:
            result.failures.append(failure(f"validate {record['id']}", exc))
            problems = ["crashed"]
        if problems:
            result.invalid += 1
            if result.invalid <= 2:
                result.failures.append(f"{record['id']} (d{record['difficulty']} k"
                                       f"{record['minimal_hint_spec']['k_min']}): {problems[0]}")
        hits = result.zero_answers.setdefault(record["requested_difficulty"], [0, 0])
        hits[0] += is_typed_zero(record)
        hits[1] += 1


def floor_cell(hits: list[int] | None) -> str:
    if not hits or not hits[1]:
        return "    -  "
    share = hits[0] / hits[1]
    return f"{share:6.3f}{'!' if share > FLOOR_LIMIT else ' '}"


def report(results: Sequence[FamilyResult], n: int) -> None:
    print(f"{'family':34s} {'inst':>5s} {'gen ZS':>7s} {'gen 4S':>7s} {'valid.':>7s} {'d3 base':>7s} "
          f"{'ZS/d3':>6s} {'bad':>4s}  floor d4 floor d5")
    for r in results:
        ratio = f"{r.generate_s / r.baseline_s:6.2f}" if r.baseline_s else "     -"
        print(f"{r.name:34s} {r.instances:5d} {r.generate_s:7.2f} {r.four_shot_s:7.2f} {r.validate_s:7.2f} "
              f"{r.baseline_s:7.2f} {ratio} {r.invalid:4d}  {floor_cell(r.zero_answers.get(4))}  "
              f"{floor_cell(r.zero_answers.get(5))}")
        for line in r.failures:
            print(f"    FAILED {line}")
    gen, four, val = (sum(getattr(r, a) for r in results) for a in ("generate_s", "four_shot_s", "validate_s"))
    base = sum(r.baseline_s for r in results)
    instances = sum(r.instances for r in results)
    expected = n * len(HARD_DIFFICULTIES) * len(HARD_KS) * len(results)
    print(f"\ntier: {instances} of {expected} instances generated, "
          f"{sum(r.invalid for r in results)} invalid, {sum(bool(r.failures) for r in results)} families with failures")
    for label, seconds in (("generate (zero-shot)", gen), ("generate (four-shot)", four), ("validate", val),
                           ("generate + validate (zero-shot)", gen + val)):
        verdict = "within" if seconds <= TARGET_S else "OVER"
        print(f"  {label:32s} {seconds:7.2f} s  ({seconds / TARGET_S:5.2f} of the {TARGET_S:.0f} s target: {verdict})")
    if base:
        print(f"  d3 baseline (as many instances)  {base:7.2f} s  (hard / d3: {gen / base:.2f}x)")
    flagged = [(r.name, d) for r in results for d, hits in r.zero_answers.items()
               if hits[1] and hits[0] / hits[1] > FLOOR_LIMIT]
    print(f"guess floor above {FLOOR_LIMIT} ('!'): " + (", ".join(f"{name} d{d}" for name, d in flagged) or "none"))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=10, help="instances per family, difficulty and k (default 10)")
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--families", help="comma-separated families (default: all)")
    args = parser.parse_args(argv)
    names = [f.strip() for f in args.families.split(",")] if args.families else list(FAMILIES)
    unknown = [name for name in names if name not in FAMILIES]
    if unknown:
        parser.error(f"unknown families: {', '.join(unknown)}")
    print(f"MIRA-Math hard tier: {len(names)} families x d{HARD_DIFFICULTIES} x k{HARD_KS} x {args.n}, "
          f"seed {args.seed}; times in seconds")
    report([measure(name, args.n, args.seed) for name in names], args.n)


if __name__ == "__main__":
    main()
