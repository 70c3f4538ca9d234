"""Command line: ``python -m generators mira ...`` (and ``elenchos`` once that benchmark is built)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from generators import GENERATOR_VERSION, HARD_TIER_VERSION
from generators.argtypes import count
from generators.families import FAMILIES
from generators.jsonl import write_jsonl
from generators.limits import MAX_INSTANCES, cap_jobs
from generators.split import (
    HARD_DIFFICULTIES,
    HARD_KS,
    HARD_PER_BLOCK,
    Slot,
    generate,
    hard_slots,
    iter_typed_slots,
    slot_count,
)
from schemas import schema_errors


def _difficulties(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        values = []
    if not values or any(v not in (1, 2, 3) for v in values):
        raise argparse.ArgumentTypeError(f"expected a comma-separated subset of 1,2,3, got {text!r}")
    return sorted(set(values))


def add_mira_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mira", help="generate MIRA-Math instances as JSONL")
    p.add_argument("--seed", type=int, default=1234, help="dataset seed (default 1234, the paper's)")
    p.add_argument("--n-a", type=count(0), default=20,
                   help="instances per Type-A family and difficulty (default 20)")
    p.add_argument("--n-b", type=count(0), default=50,
                   help="instances per Type-B family and difficulty (default 50)")
    p.add_argument("--difficulties", type=_difficulties, default=[1, 2, 3], metavar="D[,D...]",
                   help="requested difficulties, a comma-separated subset of 1,2,3 (default 1,2,3)")
    p.add_argument("--family", choices=list(FAMILIES), metavar="FAMILY",
                   help="generate one family only (with --n/--difficulty); one of: " + ", ".join(FAMILIES))
    p.add_argument("--n", type=count(1), help="with --family: number of instances per difficulty")
    p.add_argument("--difficulty", type=int, choices=(1, 2, 3), help="with --family: one difficulty")
    p.add_argument("--four-shot", "--few-shot", dest="few_shot", action="store_true",
                   help="the four-shot regime: attach the four worked examples per family")
    p.add_argument("--slot-notice", action="store_true",
                   help="the ablation views: A is also told which slot is missing (view_variant slot_notice)")
    p.add_argument("--tier", choices=("default", "hard"), default="default",
                   help="default: the paper's typed split (d1-3, one withheld fact); hard: the hard tier (d4 and d5, "
                        "one and two withheld facts, docs/hard-tier.md), with --n-hard and optionally --family")
    p.add_argument("--n-hard", type=count(1), default=HARD_PER_BLOCK,
                   help=f"with --tier hard: instances per family, difficulty and k (default {HARD_PER_BLOCK})")
    p.add_argument("--jobs", type=count(1), default=1, help="worker processes (output is identical; default 1)")
    p.add_argument("--out", required=True, help="output JSONL file (written atomically; replaced only on success)")
    p.add_argument("--json", action="store_true",
                   help="print the summary as one JSON line (file, sha256, counts per family/difficulty) instead of "
                        "a table")


DEFAULT_SPLIT_ONLY = ("n_a", "n_b", "difficulties", "n", "difficulty", "slot_notice")


def _hard_usage_problem(args: argparse.Namespace, parser: argparse.ArgumentParser | None) -> str | None:
    """The hard tier takes --n-hard (and --family); the default split's counts and the ablation do not apply."""
    if args.tier != "hard":
        return "--n-hard needs --tier hard" if args.n_hard != HARD_PER_BLOCK else None
    defaults = {name: parser.get_default(name) if parser else None for name in DEFAULT_SPLIT_ONLY}
    given = [name for name in DEFAULT_SPLIT_ONLY if parser and getattr(args, name) != defaults[name]]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        return f"{flags}: the default split's options; --tier hard takes --n-hard (and --family)"
    if args.n_hard * len(HARD_DIFFICULTIES) * len(HARD_KS) * len(_hard_families(args)) > MAX_INSTANCES:
        return f"--n-hard {args.n_hard} asks for more than {MAX_INSTANCES:,} instances per file (split the work)"
    return _out_problem(args.out)


def _hard_families(args: argparse.Namespace) -> list[str]:
    return [args.family] if args.family else list(FAMILIES)


def _usage_problem(args: argparse.Namespace, parser: argparse.ArgumentParser | None = None) -> str | None:
    """Why these arguments cannot give a good file, checked before any file is touched."""
    if args.tier == "hard" or args.n_hard != HARD_PER_BLOCK:
        return _hard_usage_problem(args, parser)
    if args.family is None and (args.n is not None or args.difficulty is not None):
        return "--n and --difficulty need --family (the whole split uses --n-a, --n-b and --difficulties)"
    if args.family is None and args.n_a == 0 and args.n_b == 0:
        return "--n-a 0 --n-b 0 generates nothing"
    if args.family is not None and args.n is None:
        count = args.n_a if FAMILIES[args.family].type == "A" else args.n_b
        if count == 0:
            return f"--family {args.family} with {'--n-a' if FAMILIES[args.family].type == 'A' else '--n-b'} 0 " \
                   "generates nothing; give --n"
    return _count_problem(args) or _out_problem(args.out)


def _family_block(args: argparse.Namespace) -> tuple[int, list[int]]:
    """With ``--family``: instances per difficulty (``--n``, else the family type's default) and the difficulties."""
    n = args.n if args.n is not None else (args.n_a if FAMILIES[args.family].type == "A" else args.n_b)
    return n, [args.difficulty] if args.difficulty else list(args.difficulties)


def _count_problem(args: argparse.Namespace) -> str | None:
    """More instances than ``MAX_INSTANCES`` (generation streams, but the time would not be sane)."""
    if args.family:
        n, diffs = _family_block(args)
        total = n * len(diffs)
    else:
        total = slot_count(args.n_a, args.n_b, args.difficulties)
    if total > MAX_INSTANCES:
        return f"these counts ask for {total:,} instances; at most {MAX_INSTANCES:,} per file (split the work)"
    return None


def _out_problem(out: str) -> str | None:
    path = Path(out)
    target = path.resolve() if path.is_symlink() else path
    if target.is_dir():
        return f"--out {out} is a directory; give a file name"
    parent = target.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        return f"--out {out}: {parent} is not a directory"
    if not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return f"--out {out}: permission denied"
    return None


def run_mira(args: argparse.Namespace, parser: argparse.ArgumentParser | None = None) -> int:
    problem = _usage_problem(args, parser)
    if problem is not None:
        if parser is not None:
            parser.error(problem)
        raise SystemExit(f"error: {problem}")
    hard = args.tier == "hard"
    if hard:
        slots = hard_slots(args.n_hard, _hard_families(args))
    elif args.family:
        n, diffs = _family_block(args)
        slots = (Slot(args.family, d, i) for d in diffs for i in range(n))
    else:
        slots = iter_typed_slots(args.n_a, args.n_b, args.difficulties)  # streamed: memory independent of the counts
    jobs = cap_jobs(args.jobs)
    counts: Counter[str] = Counter()

    def counted():
        for inst in generate(slots, args.seed, few_shot=args.few_shot, jobs=jobs, slot_notice=args.slot_notice):
            if problems := schema_errors("mira_instance", inst):
                raise SystemExit(f"{inst['id']}: generated record violates the schema: {problems[0]}")
            block = f"d{inst['requested_difficulty']}" + (f"k{inst['minimal_hint_spec']['k_min']}" if hard else "")
            counts[f"{inst['family']}/{block}"] += 1
            yield inst

    out = Path(args.out).resolve() if Path(args.out).is_symlink() else Path(args.out)
    try:
        digest = write_jsonl(out, counted())
    except OSError as exc:
        raise SystemExit(f"error: cannot write {args.out}: {exc.strerror or exc}") from None
    except (NotImplementedError, RuntimeError) as exc:  # a family without d4-5 or k = 2 instances; nothing written
        if not hard:
            raise
        raise SystemExit(f"error: the hard tier cannot be generated: {exc}; {args.out} was not written") from None
    summary = {
        "file": args.out,
        "sha256": digest,
        "instances": sum(counts.values()),
        "generator_version": HARD_TIER_VERSION if hard else GENERATOR_VERSION,
        "seed": args.seed,
        "few_shot": args.few_shot,
        "view_variant": "slot_notice" if args.slot_notice else "default",
        "counts": dict(counts),
    }
    if hard:
        summary["tier"] = "hard"
    print(json.dumps(summary, indent=None) if args.json else summary_table(summary))
    return 0


def summary_table(summary: dict) -> str:
    """The summary for a person: one header line, then instances per family and difficulty."""
    regime = "four-shot" if summary["few_shot"] else "zero-shot"
    if summary.get("tier") == "hard":
        regime = "hard tier, " + regime
    if summary.get("view_variant") == "slot_notice":
        regime += ", slot-notice views (ablation)"
    lines = [f"{summary['file']}: {summary['instances']} instances ({regime}, seed {summary['seed']}, generator "
             f"{summary['generator_version']}), sha256 {summary['sha256']}"]
    by_family: dict[str, dict[str, int]] = {}
    for key, n in summary["counts"].items():
        family, _, difficulty = key.partition("/")
        by_family.setdefault(family, {})[difficulty] = n
    columns = sorted({d for row in by_family.values() for d in row})
    width = max(len("family"), *map(len, by_family))
    lines.append(f"{'family':<{width}}  " + "  ".join(f"{c:>4}" for c in columns))
    for family, row in by_family.items():
        lines.append(f"{family:<{width}}  " + "  ".join(f"{row.get(c, 0):>4}" for c in columns))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generators")
    sub = parser.add_subparsers(dest="benchmark", required=True)
    add_mira_parser(sub)
    try:
        from generators import elenchos_cli
    except ImportError:
        elenchos_cli = None
    if elenchos_cli is not None:
        elenchos_cli.add_parser(sub)
    args = parser.parse_args(argv)
    if args.benchmark == "mira":
        return run_mira(args, sub.choices["mira"])
    return elenchos_cli.run(args)


if __name__ == "__main__":
    sys.exit(main())
