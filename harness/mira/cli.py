"""The MIRA-Math parts of ``run_eval.py``: the ``mira`` subcommand, its scorer and its main-job step."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from harness import registry
from harness.errors import HarnessError
from harness.mira.episode import AFTER_OFFER, CONDITIONS
from harness.mira.report import ScoredRun, comparison_tables, family_table, run_tables
from harness.mira.run import MiraRunConfig, run_mira
from harness.mira.score import render_text, score_run, score_runs
from harness.plugins import Benchmark
from harness.registry import parse_options
from harness.rundir import RunDir, sha256_file

DEFAULT_SEED = 1234


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dataset", required=True,
                   help="MIRA-Math JSONL (python -m generators mira ...), an export folder (python -m builder "
                        "export) or a Hub dataset repo id ORG/NAME")
    p.add_argument("--config", help="with an export folder or repo id: the config (default mira_zero_shot; "
                                    "mira_four_shot for four-shot, also spelled mira_few_shot; mira_zero_shot_notice / "
                                    "mira_four_shot_notice for the slot-notice ablation)")
    p.add_argument("--revision", help="with a repo id: branch, release tag or commit (default main)")
    p.add_argument("--solver", default="oracle",
                   help="solver spec: oracle (the default), guess, copy (backends: openai:MODEL, hf:PATH, ...)")
    p.add_argument("--responder", help="responder spec: rule (the default; backends: openai:MODEL, ...); "
                                      "not used with --condition oracle_hint")
    p.add_argument("--out", required=True, help="run directory (created; an existing one is resumed)")
    p.add_argument("--limit", type=int, help="run only the first N instances of the file")
    p.add_argument("--condition", choices=CONDITIONS, default="standard",
                   help="standard (solver asks the responder) or oracle_hint (hint given up front)")
    p.add_argument("--regime", choices=("auto", "zero_shot", "four_shot", "few_shot"), default="auto",
                   help="auto: four-shot iff the instances carry few_shot_examples (four_shot, also spelled "
                        "few_shot)")
    p.add_argument("--after-offer", choices=AFTER_OFFER, default="answer",
                   help="after an offer the solver must answer (default, as the reference runner) or may go on")
    p.add_argument("--solver-opt", action="append", metavar="KEY=VALUE", help="solver option (repeatable)")
    p.add_argument("--responder-opt", action="append", metavar="KEY=VALUE", help="responder option (repeatable)")
    p.add_argument("--max-concurrent", type=int, help="episodes in flight at once (default: all)")
    p.add_argument("--fsync", choices=("step", "each"), default="step",
                   help="when finished transcript lines are forced to disk: after every scheduler step (default) "
                        "or after every line (slower; for machines that may lose power)")
    p.add_argument("--dataset-seed", type=int, help="the dataset's generation seed, recorded in run.json")
    p.add_argument("--label", help="run label for tables")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")


def config_from_args(args: argparse.Namespace) -> MiraRunConfig:
    if args.condition == "oracle_hint" and (args.responder or args.responder_opt):
        raise HarnessError("--condition oracle_hint gives the hint up front, so there is no responder; "
                           "drop --responder/--responder-opt")
    return MiraRunConfig(
        dataset=args.dataset,
        out=args.out,
        solver=args.solver,
        responder=args.responder or "rule",
        limit=args.limit,
        condition=args.condition,
        regime="four_shot" if args.regime == "few_shot" else args.regime,
        after_offer=args.after_offer,
        solver_options=parse_options(args.solver_opt),
        responder_options=parse_options(args.responder_opt),
        max_concurrent=args.max_concurrent,
        fsync=args.fsync,
        progress=False if (args.no_progress or args.quiet) else None,
        dataset_seed=args.dataset_seed,
        label=args.label,
        dataset_config=args.config,
        dataset_revision=args.revision,
    )


def run(args: argparse.Namespace) -> int:
    result = run_mira(config_from_args(args))
    if not args.quiet:
        n = result.metrics["overall"]["n"]
        status = f"ran {result.ran} instance(s)" if result.ran else "already complete"
        print(f"{result.run_dir.path}: {status}; {n} in the transcript", file=sys.stderr)
        scored = score_run(result.run_dir.path, figures=False, write=False)
        print(render_text(run_tables(scored)[:2]))
    return 0


def score(paths: list[str], args: argparse.Namespace) -> int:
    score_runs(paths, out=getattr(args, "compare_out", None), figures=not getattr(args, "no_figures", False))
    return 0


# ------------------------------------------------------------------------------ main job
def add_main_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="MIRA-Math dataset seed (default 1234)")
    p.add_argument("--n-a", type=int, default=20, help="instances per Type-A family and difficulty")
    p.add_argument("--n-b", type=int, default=50, help="instances per Type-B family and difficulty")


MAIN_RUNS = (  # (directory, solver, responder, dataset)
    ("mira_oracle_rule_zs", "oracle", "rule", "zero_shot"),
    ("mira_oracle_rule_4s", "oracle", "rule", "four_shot"),
    ("mira_guess_zs", "guess", "rule", "zero_shot"),
    ("mira_guess_4s", "guess", "rule", "four_shot"),
)


def main_step(out: Path, args: argparse.Namespace) -> int:
    """Regenerate the split (ZS and 4S files), validate it, run oracle+rule and guess, print the tables."""
    from generators.__main__ import main as generate
    from verifiers.__main__ import main as verify

    data = out / "data"
    files = {"zero_shot": data / "mira_zero_shot.jsonl", "four_shot": data / "mira_four_shot.jsonl"}
    common = ["mira", "--seed", str(args.seed), "--n-a", str(args.n_a), "--n-b", str(args.n_b)]
    print(f"== MIRA-Math: generating the split (seed {args.seed}, n_a {args.n_a}, n_b {args.n_b}) into {data}",
          file=sys.stderr)
    for regime, path in files.items():
        few_shot = ["--four-shot"] if regime == "four_shot" else []
        code, output = _captured(generate, [*common, *few_shot, "--out", str(path), "--json"])
        if code != 0:
            raise HarnessError(f"generating {path} failed")
        summary = json.loads(output.strip().splitlines()[-1])
        print(f"   {path.name}: {summary['instances']} instances, sha256 {summary['sha256']}", file=sys.stderr)
    print("== MIRA-Math: validating", file=sys.stderr)
    code, output = _captured(verify, ["validate", *map(str, files.values())])
    print(textwrap.indent(output.strip(), "   "), file=sys.stderr)
    if code != 0:
        raise HarnessError("the generated split does not validate; see the errors above")
    runs = []
    for name, solver, responder, regime in MAIN_RUNS:
        run_path = out / name
        if getattr(args, "fresh", False) and run_path.exists():
            shutil.rmtree(run_path)
        _set_aside_if_stale(run_path, files[regime], solver, responder)
        cfg = MiraRunConfig(dataset=str(files[regime]), out=str(run_path), solver=solver, responder=responder,
                            regime=regime, dataset_seed=args.seed, progress=None,
                            label=f"{solver}/{responder} {'ZS' if regime == 'zero_shot' else '4S'}")
        print(f"== MIRA-Math: {cfg.label} -> {run_path}", file=sys.stderr)
        run_mira(cfg)
        runs.append(str(run_path))
    scored = score_runs(runs, out=str(out / "mira_report"), figures=not args.no_figures, quiet=True)
    _print_main_tables(scored)
    keys = ("n", "accuracy", "first_request_success")
    print(json.dumps({"mira": {r.label: {k: r.summary["overall"][k] for k in keys} for r in scored}}))
    return 0


def _set_aside_if_stale(run_path: Path, dataset: Path, solver: str, responder: str) -> None:
    """An earlier run of the main job on data that differ from the regenerated file, or made with agents that
    describe themselves differently now (the deterministic agents changed), is renamed, not lost."""
    info = RunDir(run_path).load_info()
    if info is None:
        return
    same_data = info.get("config", {}).get("dataset_sha256") == sha256_file(dataset)
    same_agents = info.get("agents") is None or info["agents"] == _describe_agents(solver, responder)
    if same_data and same_agents:
        return
    n = 1
    while run_path.with_name(f"{run_path.name}.stale-{n}").exists():
        n += 1
    target = run_path.with_name(f"{run_path.name}.stale-{n}")
    run_path.rename(target)
    why = "on other data (the generators changed?)" if not same_data else "with agents that changed since"
    print(f"   {run_path.name} was run {why}; kept as {target.name}", file=sys.stderr)


def _describe_agents(solver: str, responder: str) -> dict:
    made = {"solver": registry.create("mira.solver", solver, {}),
            "responder": registry.create("mira.responder", responder, {})}
    try:
        return json.loads(json.dumps({role: agent.describe() for role, agent in made.items()}))
    finally:
        for agent in made.values():
            agent.close()


def _captured(command: Callable[[list[str]], int], argv: list[str]) -> tuple[int, str]:
    """Run a module's ``main(argv)`` with its stdout captured (its stderr still shows errors)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = command(argv)
    return code, buffer.getvalue()


def _print_main_tables(scored: list[ScoredRun]) -> None:
    tables = comparison_tables(scored, family_deltas=False)
    first = scored[0]
    tables.insert(2, family_table(f"{first.label}: by family (Table 12 style)", first.summary["by_family"],
                                  first.summary.get("family_types", {})))
    print(render_text(tables))


PLUGIN = Benchmark(
    name="mira",
    help="run MIRA-Math (solver vs responder) on a JSONL file, an export folder or a Hub release",
    add_arguments=add_arguments,
    run=run,
    score=score,
    main_step=main_step,
    add_main_arguments=add_main_arguments,
)
