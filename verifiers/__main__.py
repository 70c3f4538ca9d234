"""``python -m verifiers validate FILE [FILE ...]``: exit 0 only if every instance passes.

``python -m verifiers import-reference FILE.jsonl [--out OURS.jsonl]``: import the authors' release
(``verifiers/reference_import.py``).

``python -m verifiers check-answer --dataset FILE --id ID ANSWER_TEXT``: how one answer is read and whether it is
correct (``verifiers/check_answer.py``).
"""

from __future__ import annotations

import argparse
import json
import sys

from verifiers import check_answer, reference_import
from verifiers.validate import validate_file


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verifiers")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("validate", help="validate MIRA-Math JSONL files")
    p.add_argument("files", nargs="+")
    p.add_argument("--max-errors", type=int, default=50, help="stop printing after this many (all are counted)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    reference_import.add_parser(sub)
    check_answer.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "check-answer":
        return check_answer.run(args)
    if args.command == "import-reference":
        return reference_import.run(args)
    total_errors = 0
    for path in args.files:
        try:
            count, errors = validate_file(path, jobs=args.jobs)
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror}", file=sys.stderr)
            return 2
        for err in errors[: max(0, args.max_errors - total_errors)]:
            print(err, file=sys.stderr)
        total_errors += len(errors)
        print(json.dumps({"file": path, "instances": count, "errors": len(errors)}))
    return 1 if total_errors else 0


if __name__ == "__main__":
    sys.exit(main())
