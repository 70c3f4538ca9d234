"""``python -m verifiers check-answer --dataset FILE --id ID ANSWER_TEXT``: grade one answer by hand.

``ANSWER_TEXT`` is what a solver sent: a whole reply (``{"action": "answer", "answer": ...}``, prose with
``Final answer: 5/8`` or ``\\boxed{...}``) or just the answer (``5/8``, ``{"value": 7}``, ``a = 1, b = 2``). It is
read exactly as the harness reads a model's reply at its answer turn (both use ``verifiers.replies``), and the
command prints each step: the reply as read, the answer value found, the exact value it parses to (or why it does
not parse), the expected value and the verdict. Exit status: 0 correct, 1 incorrect or unreadable, 2 for a bad
dataset, id or argument.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from generators.answers import answers_equal, decode_answer, format_answer
from verifiers import safejson
from verifiers.answers import AnswerParseError, parse_answer
from verifiers.jsonl import iter_lines, not_a_jsonl_file, parse_json_line
from verifiers.replies import read_solver_reply


def add_parser(sub: Any) -> None:
    p = sub.add_parser("check-answer", help="grade one answer text against an instance, showing how it was read")
    p.add_argument("--dataset", required=True, help="MIRA-Math JSONL file")
    p.add_argument("--id", required=True, help="instance id")
    p.add_argument("answer", help="the answer or the whole reply; - reads standard input")


def find_instance(path: str, instance_id: str) -> dict[str, Any]:
    needle = instance_id.encode("utf-8", "surrogatepass")
    for lineno, raw in iter_lines(path):
        if needle not in raw:
            continue
        record, problem = parse_json_line(raw)
        if problem is not None:
            raise ValueError(f"{path}:{lineno}: {problem}")
        if isinstance(record, dict) and record.get("id") == instance_id:
            return record
    raise ValueError(f"{path}: no instance with id {instance_id!r}")


def _show(value: Any) -> str:
    try:
        text = safejson.dumps(value, separators=(", ", ": "))
    except (ValueError, TypeError):
        text = ascii(value)
    return text if len(text) <= 300 else text[:297] + "..."


def check(instance: dict[str, Any], text: str) -> tuple[bool, list[str]]:
    answer_type, keys = instance["answer_type"], list(instance.get("answer_keys") or [])
    expected = decode_answer(answer_type, instance["global_solution"], keys)
    lines = [f"instance:  {instance['id']} ({answer_type}{', keys ' + ', '.join(keys) if keys else ''})",
             f"expected:  {format_answer(answer_type, expected, keys)}"]
    parsed, error = read_solver_reply(text, answer_type, keys)
    if parsed is None:  # not a reply the harness reads; show how the text reads as a bare answer value
        lines.append(f"reply:     not readable as a reply: {error}; read as a bare answer instead")
        parsed = {"action": "answer", "answer": text}
    if parsed["action"] != "answer":
        lines += [f"reply:     a request, not an answer: {_show(parsed.get('request'))}",
                  "verdict:   incorrect (no answer)"]
        return False, lines
    lines.append(f"answer:    {_show(parsed['answer'])}")
    try:
        value = parse_answer(parsed["answer"], answer_type, keys)
    except AnswerParseError as exc:
        lines += [f"read as:   nothing: {exc}", "verdict:   incorrect (unparseable answer)"]
        return False, lines
    correct = answers_equal(expected, value)
    lines += [f"read as:   {format_answer(answer_type, value, keys)}",
              f"verdict:   {'correct' if correct else 'incorrect'}"]
    return correct, lines


def run(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.answer == "-" else args.answer
    problem = not_a_jsonl_file(args.dataset)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        instance = find_instance(args.dataset, args.id)
    except OSError as exc:
        print(f"{args.dataset}: cannot read: {exc.strerror}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    try:
        correct, lines = check(instance, text)
    except (KeyError, TypeError, ValueError) as exc:
        print(f"{args.dataset}: instance {args.id!r} has no usable answer fields: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0 if correct else 1
