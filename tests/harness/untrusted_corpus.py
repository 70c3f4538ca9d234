"""Crafted run folders and logs (issue 25), shared by ``tests/harness/test_untrusted_runs.py`` and
``benchmarks/bench_untrusted_runs.py``.

``build_bases(root)`` makes one small MIRA-Math run, one Elenchos run and a dataset under ``root`` (in-process,
deterministic agents). ``cases()`` lists the crafted inputs: each ``Case`` copies a base into a scratch folder,
plants its damage (links to files outside, FIFOs, ``/dev/zero``, directories, wrong types, deep nesting), and
names the ``run_eval.py`` arguments to run on it and what must happen: ``"refused"`` (exit 2, one line, no
traceback) or ``"ok"`` (exit 0). ``run_case`` runs one in-process with a 5 s alarm and reports whether a file
outside the scratch folder changed.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import shutil
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TIMEOUT_S = 5
LINKED_OUTPUTS = ("report.md", "per_instance.csv", "by_family.csv", "by_group.csv", "scores.json", "metrics.json",
                  "metrics.json.tmp", "scores.json.tmp", "report.md.tmp")
ELENCHOS_OUTPUTS = ("report.md", "by_k_class.csv", "per_session.csv", "metrics.json", "metrics.json.tmp")


@dataclass
class Bases:
    dataset: Path
    mira: Path
    elenchos: Path


def build_bases(root: Path) -> Bases:
    """A 66-instance dataset, a MIRA-Math oracle/rule run on 4 of them and an SRA Elenchos run of 2 sessions."""
    from generators.jsonl import write_jsonl
    from generators.split import generate, typed_slots
    from harness.elenchos.run import ElenchosRunConfig, run_elenchos
    from harness.mira.run import MiraRunConfig, run_mira

    root.mkdir(parents=True, exist_ok=True)
    dataset = root / "zs.jsonl"
    write_jsonl(dataset, generate(typed_slots(1, 1), 1234))
    run_mira(MiraRunConfig(dataset=str(dataset), out=str(root / "mira"), limit=4, progress=False))
    run_elenchos(ElenchosRunConfig(out=str(root / "elenchos"), limit=2, progress=False))
    return Bases(dataset, root / "mira", root / "elenchos")


@dataclass
class Case:
    name: str
    category: str  # writes | lock | reads | schema | bounded | redaction | import
    setup: Callable[[Path, Path, Bases], list[str]]  # (scratch, outside, bases) -> run_eval.py arguments
    expect: str = "refused"  # or "ok"
    message: str | None = None  # text the one error line must contain


@dataclass
class Outcome:
    case: str
    code: int | None
    stderr: str
    crashed: str | None  # exception type when main() raised something other than SystemExit
    hung: bool
    touched_outside: list[str]


# ------------------------------------------------------------------------------------------ helpers
def copy_run(base: Path, scratch: Path, name: str = "run") -> Path:
    target = scratch / name
    shutil.copytree(base, target, ignore=shutil.ignore_patterns(".lock"))
    return target


def read_lines(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "transcripts.jsonl").read_text(encoding="utf-8").splitlines()]


def write_lines(run: Path, lines: list[Any]) -> None:
    (run / "transcripts.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")


def edit_line(run: Path, change: Callable[[dict[str, Any]], Any]) -> None:
    lines = read_lines(run)
    first = copy.deepcopy(lines[0])
    replaced = change(first)
    lines[0] = first if replaced is None else replaced
    write_lines(run, lines)


def edit_info(run: Path, change: Callable[[dict[str, Any]], None]) -> None:
    info = json.loads((run / "run.json").read_text(encoding="utf-8"))
    change(info)
    (run / "run.json").write_text(json.dumps(info), encoding="utf-8")


def replace_with(path: Path, kind: str, outside: Path) -> None:
    """Turn ``path`` into a link to ``/dev/zero``, a FIFO, a directory or a link to a file outside."""
    path.unlink(missing_ok=True)
    if kind == "devzero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "outside_link":
        path.symlink_to(outside / "secret.txt")
    else:
        raise ValueError(kind)


def deep(n: int) -> Any:
    value: Any = 1
    for _ in range(n):
        value = [value]
    return value


# ------------------------------------------------------------------------------------------ cases
def _score_through_links(outputs: tuple[str, ...], which: str) -> Callable[[Path, Path, Bases], list[str]]:
    def setup(scratch: Path, outside: Path, bases: Bases) -> list[str]:
        run = copy_run(bases.mira if which == "mira" else bases.elenchos, scratch)
        for name in outputs:
            target = outside / f"target-{name}"
            (run / name).unlink(missing_ok=True)
            (run / name).symlink_to(target)
        return ["score", str(run), "--no-figures"]

    return setup


def _compare_through_links(scratch: Path, outside: Path, bases: Bases) -> list[str]:
    a, b = copy_run(bases.mira, scratch, "a"), copy_run(bases.mira, scratch, "b")
    cmp_dir = scratch / "cmp"
    cmp_dir.mkdir()
    for name in ("comparison.md", "comparison.csv", "comparison.json", "comparison.json.tmp"):
        (cmp_dir / name).symlink_to(outside / f"target-{name}")
    return ["score", str(a), str(b), "--no-figures", "--compare-out", str(cmp_dir)]


def _rejudge_through_links(scratch: Path, outside: Path, bases: Bases) -> list[str]:
    run = copy_run(bases.mira, scratch)
    out = scratch / "rejudged"
    out.mkdir()
    for name in ("agreement.json", "disagreements.jsonl", "disagreements.jsonl.tmp", "agreement.json.tmp",
                 "run.json.tmp"):
        (out / name).symlink_to(outside / f"target-{name}")
    return ["rejudge", str(run), "--responder", "rule", "--out", str(out), "--dataset", str(bases.dataset),
            "--quiet"]


def _resume_through_link(scratch: Path, outside: Path, bases: Bases) -> list[str]:
    run = copy_run(bases.mira, scratch)
    (outside / "transcripts-copy.jsonl").write_bytes((run / "transcripts.jsonl").read_bytes())
    (run / "transcripts.jsonl").unlink()
    (run / "transcripts.jsonl").symlink_to(outside / "transcripts-copy.jsonl")
    edit_info(run, lambda info: info.update(status="running"))
    return ["mira", "--dataset", str(bases.dataset), "--out", str(run), "--limit", "4", "--quiet"]


def _command_on(run: Path, command: str, scratch: Path, bases: Bases, dataset: bool = True) -> list[str]:
    """The command line that reads the tampered ``run``: score (the default), rejudge or resume."""
    if command == "rejudge":
        named_dataset = ["--dataset", str(bases.dataset)] if dataset else []
        return ["rejudge", str(run), "--responder", "rule", "--out", str(scratch / "rj"), *named_dataset, "--quiet"]
    if command == "resume":
        return ["mira", "--dataset", str(bases.dataset), "--out", str(run), "--limit", "4", "--quiet"]
    return ["score", str(run), "--no-figures"]


def _file_kind(target: str, kind: str, command: str) -> Callable[[Path, Path, Bases], list[str]]:
    def setup(scratch: Path, outside: Path, bases: Bases) -> list[str]:
        run = copy_run(bases.elenchos if command == "score-elenchos" else bases.mira, scratch)
        replace_with(run / target, kind, outside)
        return _command_on(run, command, scratch, bases)

    return setup


def _line_mutation(change: Callable[[dict[str, Any]], Any], which: str = "mira",
                   command: str = "score") -> Callable[[Path, Path, Bases], list[str]]:
    def setup(scratch: Path, outside: Path, bases: Bases) -> list[str]:
        run = copy_run(bases.mira if which == "mira" else bases.elenchos, scratch)
        edit_line(run, change)
        return _command_on(run, command, scratch, bases)

    return setup


def _info_mutation(change: Callable[[dict[str, Any]], None], which: str = "mira",
                   command: str = "score") -> Callable[[Path, Path, Bases], list[str]]:
    def setup(scratch: Path, outside: Path, bases: Bases) -> list[str]:
        run = copy_run(bases.mira if which == "mira" else bases.elenchos, scratch)
        edit_info(run, change)
        return _command_on(run, command, scratch, bases, dataset=False)

    return setup


def _raw_line(raw: bytes) -> Callable[[Path, Path, Bases], list[str]]:
    def setup(scratch: Path, outside: Path, bases: Bases) -> list[str]:
        run = copy_run(bases.mira, scratch)
        data = (run / "transcripts.jsonl").read_bytes()
        (run / "transcripts.jsonl").write_bytes(raw + b"\n" + data)
        return ["score", str(run), "--no-figures"]

    return setup


def _rejudge_recorded_path(kind: str) -> Callable[[Path, Path, Bases], list[str]]:
    def setup(scratch: Path, outside: Path, bases: Bases) -> list[str]:
        run = copy_run(bases.mira, scratch)
        path = {"outside": str(outside / "secret.txt"), "devzero": "/dev/zero", "etc": "/etc/passwd",
                "missing": str(outside / "nothing-here")}[kind]
        edit_info(run, lambda info: info["dataset"].update(path=path))
        return ["rejudge", str(run), "--responder", "rule", "--out", str(scratch / "rj"), "--quiet"]

    return setup


def _planted_lock(kind: str) -> Callable[[Path, Path, Bases], list[str]]:
    def setup(scratch: Path, outside: Path, bases: Bases) -> list[str]:
        run = copy_run(bases.mira, scratch)
        replace_with(run / ".lock", kind, outside)
        return ["score", str(run), "--no-figures"]

    return setup


def _elenchos_repetitions(scratch: Path, outside: Path, bases: Bases) -> list[str]:
    return ["elenchos", "--repetitions", str(10**9), "--out", str(scratch / "e"), "--quiet"]


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        node = record
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda record: record.pop(key)


def cases() -> list[Case]:
    out: list[Case] = [
        Case("score through planted links (MIRA-Math)", "writes", _score_through_links(LINKED_OUTPUTS, "mira"), "ok"),
        Case("score through planted links (Elenchos)", "writes", _score_through_links(ELENCHOS_OUTPUTS, "elenchos"),
             "ok"),
        Case("comparison through planted links", "writes", _compare_through_links, "ok"),
        Case("rejudge outputs through planted links", "writes", _rejudge_through_links, "ok"),
        Case("resume appends through a linked transcripts.jsonl", "writes", _resume_through_link,
             message="symbolic link"),
        Case("elenchos --repetitions 10**9", "bounded", _elenchos_repetitions, message="must be 1 to 1,000"),
        *(Case(f"score: .lock is {kind}", "lock", _planted_lock(kind), message="writer lock")
          for kind in ("outside_link", "fifo", "devzero", "directory")),
    ]
    for target in ("transcripts.jsonl", "run.json"):
        for kind in ("devzero", "fifo", "directory", "outside_link"):
            for command in ("score", "score-elenchos", "rejudge", "resume"):
                if command == "rejudge" and target == "run.json" and kind == "directory":
                    continue  # the same path as score
                out.append(Case(f"{command}: {target} is {kind}", "reads", _file_kind(target, kind, command)))
    for kind in ("outside", "devzero", "etc", "missing"):
        out.append(Case(f"rejudge: run.json names dataset {kind}", "reads", _rejudge_recorded_path(kind),
                        message="is not the dataset the run was made on"))
    mira_lines = {
        "events a string": _set(["events"], "x"),
        "events of numbers": _set(["events"], [1, 2]),
        "event agent a number": _set(["events", 0, "agent"], 5),
        "event message an object": _set(["events", 0, "message"], {"a": 1}),
        "expected a string": _set(["expected"], "zzz"),
        "expected a number": _set(["expected"], 5),
        "expected of the wrong shape": _set(["expected"], {"numerator": "x"}),
        "family a number": _set(["family"], 5),
        "family null": _set(["family"], None),
        "instance_id a number": _set(["instance_id"], 5),
        "instance_id missing": _drop("instance_id"),
        "canonical_hint a string": _set(["canonical_hint"], "x"),
        "b_constraints of numbers": _set(["b_constraints"], [1]),
        "usage of numbers": _set(["usage"], {"solver": 5}),
        "answer_keys a string": _set(["answer_keys"], "ab"),
        "format another": _set(["format"], "other/1"),
        "nested 100 deep": _set(["live_metrics"], deep(100)),
        "a line that is a list": lambda record: [record],
    }
    for name, change in mira_lines.items():
        out.append(Case(f"score: transcript {name}", "schema", _line_mutation(change)))
        if name in ("events of numbers", "family a number", "expected a number", "canonical_hint a string"):
            out.append(Case(f"rejudge: transcript {name}", "schema", _line_mutation(change, command="rejudge")))
            out.append(Case(f"resume: transcript {name}", "schema", _line_mutation(change, command="resume")))
    elenchos_lines = {
        "session a string": _set(["session"], "x"),
        "session without k": lambda record: record["session"].pop("k"),
        "session level a string": _set(["session", "level"], "1"),
        "events a string": _set(["events"], "x"),
        "event tool a number": _set(["events", 0, "tool"], 5),
        "usage of strings": _set(["usage"], {"agent": "many"}),
        "nested 100 deep": _set(["live_metrics"], deep(100)),
    }
    for name, change in elenchos_lines.items():
        out.append(Case(f"score Elenchos: transcript {name}", "schema", _line_mutation(change, "elenchos")))
    infos = {
        "benchmark a number": _set(["benchmark"], 5),
        "config a string": _set(["config"], "x"),
        "sessions a string": _set(["sessions"], "x"),
        "label a list": _set(["label"], ["a"]),
        "dataset a list": _set(["dataset"], [1]),
        "nested 100 deep": _set(["environment"], deep(100)),
    }
    for name, change in infos.items():
        out.append(Case(f"score: run.json {name}", "schema", _info_mutation(change)))
        out.append(Case(f"rejudge: run.json {name}", "schema", _info_mutation(change, command="rejudge")))
    out.append(Case("score Elenchos: run.json config a list", "schema",
                    _info_mutation(_set(["config"], [1]), "elenchos")))
    out.append(Case("score: 200k nested brackets", "schema", _raw_line(b"[" * 200_000 + b"]" * 200_000)))
    out.append(Case("score: not UTF-8", "schema", _raw_line(b'{"format": "\xff"}')))
    return out


# ------------------------------------------------------------------------------------------ running
def _snapshot(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    snap = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        content = p.read_bytes() if p.is_file() and not p.is_symlink() else b""
        snap[str(p)] = (st.st_mode, st.st_mtime_ns, content)
    return snap


def prepare_outside(outside: Path) -> None:
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.txt").write_text("line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n", encoding="utf-8")
    for name in {*LINKED_OUTPUTS, *ELENCHOS_OUTPUTS, "comparison.md"}:
        (outside / f"target-{name}").write_text(f"precious {name}\n", encoding="utf-8")


class _Timeout(Exception):
    pass


def run_case(case: Case, scratch: Path, outside: Path, bases: Bases) -> Outcome:
    """Set ``case`` up in ``scratch`` and run ``run_eval.py`` in-process under a ``TIMEOUT_S`` alarm."""
    from harness.cli import main

    scratch.mkdir(parents=True, exist_ok=True)
    argv = case.setup(scratch, outside, bases)
    before = _snapshot(outside)
    err, out = io.StringIO(), io.StringIO()
    code: int | None = None
    crashed = None
    hung = False

    def alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(TIMEOUT_S)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main(argv)
    except _Timeout:
        hung = True
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException as exc:  # what the test exists to catch: a traceback
        crashed = f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    after = _snapshot(outside)
    touched = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    return Outcome(case.name, code, err.getvalue(), crashed, hung, touched)


def problems(case: Case, outcome: Outcome) -> list[str]:
    """What is wrong with ``outcome`` for ``case`` (empty when it behaved)."""
    found = []
    if outcome.hung:
        found.append(f"hung (> {TIMEOUT_S} s)")
    if outcome.crashed:
        found.append(f"crashed: {outcome.crashed}")
    if outcome.touched_outside:
        found.append(f"touched outside the scratch folder: {outcome.touched_outside}")
    if outcome.hung or outcome.crashed:
        return found
    lines = [line for line in outcome.stderr.splitlines() if line.strip()]
    if case.expect == "ok":
        if outcome.code != 0:
            found.append(f"exit {outcome.code}, expected 0: {outcome.stderr[-500:]}")
        return found
    errors = [line for line in lines if line.startswith("error: ")]
    if outcome.code != 2:
        found.append(f"exit {outcome.code}, expected 2: {outcome.stderr[-500:]}")
    elif len(errors) != 1 or "Traceback" in outcome.stderr:
        found.append(f"not one error line: {outcome.stderr[-500:]}")
    elif case.message and case.message not in errors[0]:
        found.append(f"the error does not say {case.message!r}: {errors[0]}")
    return found
