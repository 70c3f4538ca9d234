"""``python -m verifiers validate FILE [FILE ...]``: exit 0 only if every instance passes; the summary line of each
file gives, per family, the number of candidate slots A's view leaves open (the localizability check).

``python -m verifiers import-reference FILE.jsonl [--out OURS.jsonl]``: import the authors' release
(``verifiers/reference/``).

``python -m verifiers check-answer --dataset FILE --id ID ANSWER_TEXT``: how one answer is read and whether it is
correct (``verifiers/check_answer.py``).
"""

from __future__ import annotations

import argparse
import json
import sys

from generators.argtypes import count
from verifiers import check_answer
from verifiers.jsonl import not_a_jsonl_file
from verifiers.reference import cli as reference_cli
from verifiers.validate import validate_file


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verifiers")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("validate", help="validate MIRA-Math JSONL files")
    p.add_argument("files", nargs="+")
    p.add_argument("--max-errors", type=count(0), default=50,
                   help="print (and keep in memory) at most this many errors; all are counted (default 50)")
    p.add_argument("--jobs", type=count(1), default=1, help="worker processes (default 1)")
    p.add_argument("--json", action="store_true",
                   help="one JSON summary line per file (instances, errors, candidate slots per family)")
    reference_cli.add_parser(sub)
    check_answer.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "check-answer":
        return check_answer.run(args)
    if args.command == "import-reference":
        return reference_cli.run(args)
    return validate_files(args.files, args.max_errors, args.jobs, args.json)


def validate_files(paths: list[str], max_errors: int, jobs: int, as_json: bool = False) -> int:
    """Validate each file; a short summary per file on stdout (``as_json``: one JSON line), the errors on stderr."""
    total_errors = 0
    for path in paths:
        problem = not_a_jsonl_file(path)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        try:
            result = validate_file(path, jobs=jobs, keep=max(0, max_errors - total_errors))
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
            return 2
        for err in result.errors:
            print(err, file=sys.stderr)
        errors = result.error_count
        if result.instances == 0:
            print(f"{path}: no instances (the file is empty)", file=sys.stderr)
            errors = 1
        if result.raw_release_lines:
            print(f"{path}: {result.raw_release_lines} line(s) are in the authors' release format; convert them "
                  f"first: python -m verifiers import-reference {path} --out OURS.jsonl", file=sys.stderr)
        total_errors += errors
        summary = {"file": path, "instances": result.instances, "errors": errors,
                   "candidates": result.candidate_summary()}
        print(json.dumps(summary) if as_json else summary_text(summary))
    if total_errors > max_errors:
        print(f"... {total_errors - max_errors} more error(s) not printed (--max-errors {max_errors})", file=sys.stderr)
    return 1 if total_errors else 0


def summary_text(summary: dict) -> str:
    """``FILE: N instances, E errors`` and, on a second line, how many candidate slots A's views leave open."""
    head = f"{summary['file']}: {summary['instances']:,} instances, {summary['errors']:,} error(s)"
    candidates = summary["candidates"]
    if not candidates:
        return head
    single = [name for name, c in candidates.items() if c["max"] == 1]
    several = [f"{name} {c['min']}" + (f"-{c['max']} (mean {c['mean']})" if c["min"] != c["max"] else "")
               for name, c in candidates.items() if c["max"] > 1]
    parts = ([f"1 in {len(single)} famil{'y' if len(single) == 1 else 'ies'}"] if single else []) + several
    return f"{head}\n  candidate slots per instance: {'; '.join(parts)}"


if __name__ == "__main__":
    sys.exit(main())
