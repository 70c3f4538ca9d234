"""Throughput of the LambdaPy kernel: probes per second, sound and mutated.

Usage: ``python benchmarks/bench_lambdapy.py [--quick]``

Reports, on a mixed probe set (the probe library of ``lambdapy.probes``: core
calculus, every eliminator, every mutation's signature probe):

1. cold parsing: every distinct line parsed once (LALR fast path and Earley);
2. probes per second on fresh kernels (parses cached) for the sound kernel and
   each singleton mutation, with the ratio to the sound kernel in the same run;
3. a configuration-family sized workload: 300 mutation sets x 60 probes.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lambdapy import MUTATION_IDS, KernelConfig, run_fresh
from lambdapy.frontend import _parse_statement_cached, statement_lines
from lambdapy.parser import needs_earley
from lambdapy.probes import LIBRARY, SIGNATURE_PROBES

PROBES = list(dict.fromkeys([*LIBRARY.values(), *SIGNATURE_PROBES.values()]))


def rate(config: KernelConfig, probes: list[str], min_seconds: float) -> float:
    """Probes per second on fresh kernels (best of three timed rounds)."""
    for source in probes:  # warm the parse cache
        run_fresh(config, source)
    rounds = []
    for _ in range(3):
        count, start = 0, time.perf_counter()
        while True:
            for source in probes:
                run_fresh(config, source)
            count += len(probes)
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds / 3:
                break
        rounds.append(count / elapsed)
    return max(rounds)


def cold_parse() -> None:
    _parse_statement_cached.cache_clear()
    lines = list(dict.fromkeys(line for probe in PROBES for line in statement_lines(probe)))
    earley = [line for line in lines if needs_earley(line)]
    start = time.perf_counter()
    for source in PROBES:
        run_fresh(KernelConfig(), source)
    elapsed = time.perf_counter() - start
    print(f"cold: {len(PROBES)} probes, {len(lines)} distinct lines ({len(earley)} routed to Earley)")
    print(f"      {elapsed * 1e3:.0f} ms in total, {elapsed / len(lines) * 1e3:.1f} ms per line (incl. grammar build)")


def throughput(min_seconds: float) -> None:
    sound = rate(KernelConfig(), PROBES, min_seconds)
    print(f"\nwarm (fresh kernel per probe, parse cached), {len(PROBES)} mixed probes")
    print(f"  {'configuration':<16}{'probes/s':>10}{'us/probe':>10}{'ratio':>8}")
    print(f"  {'sound':<16}{sound:>10.0f}{1e6 / sound:>10.0f}{1.0:>8.2f}")
    ratios = []
    for mutation in MUTATION_IDS:
        r = rate(KernelConfig.from_ids([mutation]), PROBES, min_seconds)
        ratios.append(r / sound)
        print(f"  {mutation:<16}{r:>10.0f}{1e6 / r:>10.0f}{r / sound:>8.2f}")
    all13 = rate(KernelConfig.from_ids(MUTATION_IDS), PROBES, min_seconds)
    print(f"  {'all 13':<16}{all13:>10.0f}{1e6 / all13:>10.0f}{all13 / sound:>8.2f}")
    print(f"  median singleton ratio {statistics.median(ratios):.2f}")


def family_workload() -> None:
    rng = random.Random(0)
    pairs = [list(p) for p in itertools.combinations(MUTATION_IDS, 2)]
    triples = [list(t) for t in itertools.combinations(MUTATION_IDS, 3)]
    sets = [[], *[[m] for m in MUTATION_IDS], *pairs, *rng.sample(triples, 300 - 1 - 13 - len(pairs))]
    probes = (PROBES * 3)[:60]
    configs = [KernelConfig.from_ids(s) for s in sets]
    start = time.perf_counter()
    for config in configs:
        for source in probes:
            run_fresh(config, source)
    elapsed = time.perf_counter() - start
    total = len(configs) * len(probes)
    print(f"\nfamily-sized workload: {len(configs)} mutation sets x {len(probes)} probes = {total} probes")
    print(f"  {elapsed:.1f} s ({total / elapsed:.0f} probes/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter timing rounds")
    args = parser.parse_args()
    cold_parse()
    throughput(0.3 if args.quick else 1.0)
    family_workload()


if __name__ == "__main__":
    main()
