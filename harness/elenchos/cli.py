"""``run_eval.py elenchos``: the Elenchos benchmark plug-in (``PLUGIN``), its scorer and its main-job step.

    python run_eval.py elenchos --suite ladder|benchmark --agent sra|random|optimal --out runs/NAME
           [--seed 1234] [--repetitions 5] [--sessions FILE|FOLDER|ORG/NAME [--config C] [--revision R]]
           [--agent-opt K=V ...] [--limit N]
           [--max-concurrent N] [--fsync step|each] [--label L] [--no-progress] [--quiet]
    python run_eval.py score RUN_DIR ...          (dispatched here for run.json "benchmark": "elenchos")
    python run_eval.py main --out DIR             (the Elenchos step: data files, SRA / optimal / random runs;
                                                   its tables go to stderr and DIR/elenchos_report/)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

# Only the defaults at import: run_eval.py builds every benchmark's parser, and a MIRA-Math command should not load
# the kernels; each command imports what it runs.
from elenchos.defaults import DEFAULT_REPETITIONS, DEFAULT_SEED, PI_RSA_CHOICES, SUITES
from generators.limits import repetitions_problem
from harness.errors import ConfigMismatch, HarnessError
from harness.plugins import Benchmark
from harness.registry import parse_options

if TYPE_CHECKING:
    from harness.elenchos.run import ElenchosRunConfig

MAIN_AGENTS = ("sra", "optimal", "random")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--suite", choices=SUITES, default="ladder",
                   help="ladder (Levels 0-2, P_max 50) or benchmark (Level 3, P_max 65); ignored with --sessions")
    p.add_argument("--agent", default="sra", help="agent spec: sra, optimal, random (backends: see `agents`)")
    p.add_argument("--agent-opt", action="append", metavar="KEY=VALUE", help="agent option (repeatable)")
    p.add_argument("--out", required=True, help="run directory (created; an existing one is resumed)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="session dataset seed (default 1234)")
    p.add_argument("--repetitions", type=int, default=DEFAULT_REPETITIONS, help="sessions per set and level (5)")
    p.add_argument("--sessions", help="run the sessions of this JSONL file (python -m generators elenchos "
                                      "--sessions), export folder (python -m builder export) or Hub repo ORG/NAME")
    p.add_argument("--config", help="with an export folder or repo id: elenchos_ladder or elenchos_benchmark "
                                    "(default: elenchos_<suite>)")
    p.add_argument("--revision", help="with a repo id: branch, release tag or commit (default main)")
    p.add_argument("--limit", type=int, help="run only the first N sessions")
    p.add_argument("--max-concurrent", type=int, help="sessions in flight at once (default: all)")
    p.add_argument("--pi-rsa", choices=PI_RSA_CHOICES, default="level0",
                   help="Pi_RSA for the generated sessions' interaction labels and the SRA: level0 (the paper's "
                        "construction, default) or cover (minimum set cover); recorded in run.json")
    p.add_argument("--fsync", choices=("step", "each"), default="step",
                   help="when finished transcript lines are forced to disk: after every scheduler step (default) "
                        "or after every line (slower; for machines that may lose power)")
    p.add_argument("--label", help="run label for tables")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")


def config_from_args(args: argparse.Namespace) -> ElenchosRunConfig:
    from harness.elenchos.run import ElenchosRunConfig

    return ElenchosRunConfig(
        out=args.out, suite=args.suite, agent=args.agent, agent_options=parse_options(args.agent_opt),
        seed=args.seed, repetitions=args.repetitions, sessions_file=args.sessions, limit=args.limit,
        sessions_config=args.config, sessions_revision=args.revision,
        max_concurrent=args.max_concurrent, fsync=args.fsync, pi_rsa=args.pi_rsa,
        progress=False if (args.no_progress or args.quiet) else None, label=args.label)


def run(args: argparse.Namespace) -> int:
    from harness.elenchos.report import render_text, run_tables
    from harness.elenchos.run import run_elenchos
    from harness.elenchos.score import score_run

    result = run_elenchos(config_from_args(args))
    if not args.quiet:
        n = result.metrics["overall"]["n"]
        status = f"ran {result.ran} session(s)" if result.ran else "already complete"
        print(f"{result.run_dir.path}: {status}; {n} in the transcript", file=sys.stderr)
        print(render_text(run_tables(score_run(result.run_dir.path, write=False))[:2]))
    return 0


def score(paths: list[str], args: argparse.Namespace) -> int:
    from harness.elenchos.score import score_runs

    score_runs(paths, out=getattr(args, "compare_out", None))
    return 0


# ---------------------------------------------------------------------------------------------------- main job
def add_main_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--elenchos-seed", type=int, default=DEFAULT_SEED, help="Elenchos session seed (default 1234)")
    p.add_argument("--elenchos-repetitions", type=int, default=DEFAULT_REPETITIONS,
                   help="Elenchos sessions per set and level (default 5)")


def main_step(out: Path, args: argparse.Namespace) -> int:
    """Write the family and the session files, run SRA, optimal and random on both suites, print the tables."""
    from elenchos.cli import run as generate
    from harness.elenchos.report import ScoredRun, comparison_tables, render_text, summary_json
    from harness.elenchos.run import ElenchosRunConfig, run_elenchos
    from harness.elenchos.score import compare

    seed = getattr(args, "elenchos_seed", DEFAULT_SEED)
    repetitions = getattr(args, "elenchos_repetitions", DEFAULT_REPETITIONS)
    problem = repetitions_problem(repetitions, "--elenchos-repetitions")
    if problem is not None:
        raise HarnessError(problem)
    data = out / "data" / "elenchos"
    print(f"== Elenchos: configuration family and sessions (seed {seed}, {repetitions} repetitions) into {data}",
          file=sys.stderr)
    with contextlib.redirect_stdout(io.StringIO()):
        generate(argparse.Namespace(max_k=3, out=str(data), sessions=True, seed=seed, repetitions=repetitions,
                                    jobs=None, pi_rsa="level0"))
    scored = []
    for suite in SUITES:
        for agent in MAIN_AGENTS:
            run_path = out / f"elenchos_{agent}_{suite}"
            if getattr(args, "fresh", False) and run_path.exists():
                shutil.rmtree(run_path)
            cfg = ElenchosRunConfig(out=str(run_path), suite=suite, agent=agent,
                                    sessions_file=str(data / f"{suite}.jsonl"), progress=False,
                                    label=f"{agent} {suite}")
            try:
                result = run_elenchos(cfg)
            except ConfigMismatch:
                _set_aside(run_path)
                result = run_elenchos(cfg)
            print(f"== Elenchos: {cfg.label} -> {run_path}" + ("" if result.ran else " (complete)"), file=sys.stderr)
            scored.append(ScoredRun(run_path, cfg.label, result.info, result.metrics))
    compare(scored, out=str(out / "elenchos_report"), quiet=True)
    # stderr: the main job's stdout ends with MIRA-Math's JSON summary line (tests/harness read it there);
    # the same tables are in DIR/elenchos_report/report.md and the summary in summary.json.
    print(render_text(comparison_tables(scored)), file=sys.stderr)
    print(summary_json(scored), file=sys.stderr)
    return 0


def _set_aside(run_path: Path) -> None:
    """A run of the main job on other data (the sessions changed) is renamed, never deleted."""
    n = 1
    while run_path.with_name(f"{run_path.name}.stale-{n}").exists():
        n += 1
    target = run_path.with_name(f"{run_path.name}.stale-{n}")
    run_path.rename(target)
    print(f"   {run_path.name} was run on other sessions; kept as {target.name}", file=sys.stderr)


PLUGIN = Benchmark(
    name="elenchos",
    help="run an agent over Elenchos audit sessions (Ladder or Benchmark)",
    add_arguments=add_arguments,
    run=run,
    score=score,
    main_step=main_step,
    add_main_arguments=add_main_arguments,
)
