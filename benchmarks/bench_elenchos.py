"""Benchmark: the Elenchos configuration family and the deterministic agents over every session.

    python benchmarks/bench_elenchos.py [--jobs N] [--strict]

1. ``F_<=3`` from scratch (every candidate set of at most 3 mutations on every library probe, fresh kernels;
   admissibility; both Pi_RSA -- the Level-0 probes and the exact minimum set cover -- and on each the
   classification under both additivity rules). Target: under 30 s.
2. The SRA and the information-optimal agent over all Ladder (345) and Benchmark (70) sessions through the
   audit loop (batched scheduler, session tools, transcript lines with live metrics; no run directory).
   Target: under 10 s for all four runs together.

Prints one JSON line with the timings, the agents' V by k and their mean probes per correct session;
``--strict`` exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from elenchos import family as family_module  # noqa: E402
from elenchos.observations import default_jobs  # noqa: E402
from elenchos.sessions import sessions  # noqa: E402
from harness.elenchos.agents.optimal import OptimalAgent  # noqa: E402
from harness.elenchos.agents.sra import SimpleReflexAgent  # noqa: E402
from harness.elenchos.episode import AGENT, ElenchosEpisode  # noqa: E402
from harness.elenchos.metrics import summarize  # noqa: E402
from harness.scheduler import run_episodes  # noqa: E402

FAMILY_TARGET_S, AGENTS_TARGET_S = 30.0, 10.0


def run_agent(agent, records: list[dict], probes: dict[str, str]) -> tuple[float, dict]:
    started = time.perf_counter()
    lines: list[dict] = []
    episodes = [ElenchosEpisode(r, probes) for r in records]
    run_episodes(episodes, {AGENT: agent.act}, [AGENT], lambda done: lines.extend(e.record_line() for e in done))
    seconds = time.perf_counter() - started
    metrics = summarize([line["live_metrics"] for line in lines])
    return seconds, metrics


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, help="worker processes for the kernel runs (default: CPUs, at most 8)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)

    family_module.clear_cache()
    started = time.perf_counter()
    fams = {choice: family_module.family(3, jobs=args.jobs, pi_rsa=choice)
            for choice in family_module.PI_RSA_CHOICES}
    family_s = time.perf_counter() - started
    fam = fams["level0"]
    probes = family_module.level0_probes()
    suites = {suite: list(sessions(suite, fam=fam)) for suite in ("ladder", "benchmark")}

    result: dict = {"cpus": os.cpu_count(), "jobs": args.jobs or default_jobs(),
                    "family_s": round(family_s, 2), "family_target_met": family_s < FAMILY_TARGET_S,
                    "counts": {choice: {k: {x: v[x] for x in ("admissible", "additive", "interacting",
                                                              "additive_sra", "interacting_sra", "subsumed")}
                                        for k, v in f.counts().items()} for choice, f in fams.items()}}
    total = 0.0
    for name, agent_class in (("sra", SimpleReflexAgent), ("optimal", OptimalAgent)):
        agent = agent_class(fam)
        for suite, records in suites.items():
            seconds, metrics = run_agent(agent, records, probes)
            total += seconds
            result[f"{name}_{suite}"] = {
                "sessions": len(records), "seconds": round(seconds, 3),
                "V": metrics["overall"]["V"],
                "V_by_k": {k: round(v["V"], 3) for k, v in metrics["by_k_class"].items()},
                "mean_probes_per_correct": round(metrics["overall"]["P_mean_correct"] or 0.0, 3),
                "mean_probes_by_k": {k: round(v["P_mean_correct"] or 0.0, 2) for k, v in metrics["by_k_class"].items()
                                     if v["P_mean_correct"] is not None},
            }
    result["agents_s"] = round(total, 2)
    result["agents_target_met"] = total < AGENTS_TARGET_S
    print(json.dumps(result))
    met = result["family_target_met"] and result["agents_target_met"]
    return 0 if met or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
