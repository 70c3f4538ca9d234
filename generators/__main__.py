"""Command line: ``python -m generators mira ...`` (and ``elenchos`` once that benchmark is built)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from generators import GENERATOR_VERSION
from generators.families import FAMILIES
from generators.split import Slot, generate, typed_slots
from schemas import schema_errors
from verifiers.jsonl import write_jsonl


def _difficulties(text: str) -> list[int]:
    values = [int(x) for x in text.split(",") if x.strip()]
    if not values or any(v not in (1, 2, 3) for v in values):
        raise argparse.ArgumentTypeError("difficulties are a comma-separated subset of 1,2,3")
    return values


def add_mira_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mira", help="generate MIRA-Math instances as JSONL")
    p.add_argument("--seed", type=int, default=1234, help="dataset seed (default 1234, the paper's)")
    p.add_argument("--n-a", type=int, default=20, help="instances per Type-A family and difficulty")
    p.add_argument("--n-b", type=int, default=50, help="instances per Type-B family and difficulty")
    p.add_argument("--difficulties", type=_difficulties, default=[1, 2, 3])
    p.add_argument("--family", choices=list(FAMILIES), help="generate one family only (with --n/--difficulty)")
    p.add_argument("--n", type=int, help="with --family: number of instances")
    p.add_argument("--difficulty", type=int, choices=(1, 2, 3), help="with --family: one difficulty")
    p.add_argument("--few-shot", action="store_true", help="attach the four worked examples per family")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (output is identical)")
    p.add_argument("--out", required=True, help="output JSONL file")


def run_mira(args: argparse.Namespace) -> int:
    if args.family:
        n = args.n if args.n is not None else (args.n_a if FAMILIES[args.family].type == "A" else args.n_b)
        diffs = [args.difficulty] if args.difficulty else args.difficulties
        slots = [Slot(args.family, d, i) for d in diffs for i in range(n)]
    else:
        slots = typed_slots(args.n_a, args.n_b, args.difficulties)
    counts: Counter[str] = Counter()

    def counted():
        for inst in generate(slots, args.seed, few_shot=args.few_shot, jobs=args.jobs):
            if problems := schema_errors("mira_instance", inst):
                raise SystemExit(f"{inst['id']}: generated record violates the schema: {problems[0]}")
            counts[f"{inst['family']}/d{inst['requested_difficulty']}"] += 1
            yield inst

    digest = write_jsonl(args.out, counted())
    summary = {
        "file": args.out,
        "sha256": digest,
        "instances": sum(counts.values()),
        "generator_version": GENERATOR_VERSION,
        "seed": args.seed,
        "few_shot": args.few_shot,
        "counts": dict(counts),
    }
    print(json.dumps(summary, indent=None))
    return 0


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
        return run_mira(args)
    return elenchos_cli.run(args)


if __name__ == "__main__":
    sys.exit(main())
