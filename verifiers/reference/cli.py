"""``python -m verifiers import-reference FILE.jsonl [--out OURS.jsonl] [--exclude-degenerate] [--slot-notice]
[--report R.jsonl]``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from generators.jsonl import dumps, write_jsonl
from verifiers.reference.importer import import_file, summarise


def add_parser(sub: Any) -> None:
    p = sub.add_parser("import-reference", help="import and re-verify the authors' published MIRA-Math release")
    p.add_argument("file", help="a release JSONL file (with or without few_shot_examples)")
    p.add_argument("--out", help="write the converted instances here (our JSONL format)")
    p.add_argument("--exclude-degenerate", action="store_true", help="leave degenerate instances out of --out")
    p.add_argument("--report", help="write the per-instance report here (JSONL) instead of to stdout")
    p.add_argument("--slot-notice", action="store_true",
                   help="the ablation: A's view also says what its partner knows (the release's sentence, or one "
                        "naming the withheld slot); view_variant slot_notice")


def run(args: argparse.Namespace) -> int:
    """The ``import-reference`` subcommand: 0 if every line converts and re-verifies, 1 if not, 2 if unreadable."""
    try:
        results = list(import_file(args.file, args.slot_notice))
    except OSError as exc:
        print(f"{args.file}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for r in results:
        if r.error is not None:
            print(str(r.error), file=sys.stderr)
        elif r.mismatch or r.unverified:
            what = "differs from our recomputation" if r.mismatch else "could not be recomputed"
            got = r.report["answer"]["recomputed"]
            print(f"{args.file}:{r.line} [{r.report['id']}]: global_solution: the released answer "
                  f"{json.dumps(r.report['answer']['released'])} {what}"
                  + (f" {json.dumps(got)}" if got is not None else f" ({r.report['answer'].get('detail', '')})"),
                  file=sys.stderr)
    summary = summarise(results)
    keep = [r.record for r in results if r.record is not None and not r.mismatch and not r.unverified
            and not (args.exclude_degenerate and r.degenerate)]
    summary["written"] = len(keep) if args.out else 0
    summary["excluded_degenerate"] = sum(r.degenerate for r in results) if args.exclude_degenerate else 0
    if args.out:
        summary["sha256"] = write_jsonl(args.out, keep)
    if args.report:
        write_jsonl(args.report, [r.report for r in results])
    else:
        for r in results:
            print(dumps(r.report))
    print(json.dumps(summary, separators=(", ", ": ")))
    failed = summary["instances"] - summary["converted"] + summary["answer_mismatch"] + summary["answer_unverified"]
    return 1 if failed else 0
