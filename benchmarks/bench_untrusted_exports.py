"""Benchmark: crafted export folders and generation arguments (issue 25).

    python benchmarks/bench_untrusted_exports.py [--random 100] [--seed 25] [--strict]

1. The crafted cases of ``tests/builder/untrusted_cases.py`` (names that leave the folder, FIFOs, links to
   ``/dev/zero``, sparse files past the limits, records of the wrong type, bad YAML, a loading script, garbage
   and schema-swapped Parquet, manifests asking for 10**9 rows), each through every reader that reads what it
   changed (``builder verify``, ``builder to-jsonl``, ``run_eval.py mira --dataset``): each must be refused
   with exit 2 and one line.
2. The argument cases (``generators mira --n 10**9``, ``--repetitions 10**9``, ``--jobs 60``, ...), each as a
   process.
3. ``--random`` seeded mutations of ``manifest.json``: a random field (at any depth) replaced by a hostile value
   (a path out, an absolute path, a huge or negative number, a deep list, the wrong type), read by ``verify
   --no-regenerate`` and ``to-jsonl``: any exit code is fine (some mutations are harmless), a crash or a hang is
   not.

Every case runs with a 5 s alarm in a fresh scratch folder beside an ``outside`` folder whose files are compared
before and after. Prints the counts and one JSON line; ``--strict`` exits 1 unless none crashed, hung, touched a
file outside the scratch folder or (1, 2) was not refused cleanly.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_HOME = tempfile.mkdtemp(prefix="bench-untrusted-hf-")
os.environ.update(HF_HOME=_HOME, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
os.environ.pop("HF_TOKEN", None)

from tests.builder import untrusted_cases as cases  # noqa: E402

HOSTILE: list[Any] = ["../../outside/x.parquet", "/etc/passwd", "", "x" * 10_000, -1, 10**12, 10**30, 1.5, True,
                      None, [], {}, [[[[[[[[[[]]]]]]]]]], {"a": {"b": {"c": []}}}, ["../x"], "a/../../b", "\u0000"]


def leaves(node: Any, path: tuple = ()) -> list[tuple]:
    """Every path (keys and indices) into a JSON value, containers included."""
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += leaves(value, (*path, i))
    return out


def mutate_randomly(rng: random.Random):
    def mutate(folder: Path, outside: Path) -> None:
        manifest = json.loads((folder / "manifest.json").read_text())
        path = rng.choice([p for p in leaves(manifest) if p])
        node = manifest
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = rng.choice(HOSTILE)
        (folder / "manifest.json").write_text(json.dumps(manifest))
    return mutate


def run_arg_case(case: cases.ArgCase, scratch: Path) -> str | None:
    argv = [a.replace("OUT", str(scratch)) for a in case.argv]
    try:
        proc = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=60, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return "hung"
    if "Traceback" in proc.stderr:
        return "crashed"
    if proc.returncode != case.code or case.message not in proc.stderr:
        return f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"
    return None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--random", type=int, default=100, help="seeded random manifest mutations (default 100)")
    p.add_argument("--seed", type=int, default=25)
    p.add_argument("--strict", action="store_true")
    args = p.parse_args()
    t0 = time.perf_counter()
    counts = {"tried": 0, "crashed": 0, "hung": 0, "touched_outside": 0, "not_refused": 0}
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-untrusted-") as tmp:
        base = Path(tmp)
        source = cases.make_export(base / "source" / "MIRA-MATH")
        for i, case in enumerate(cases.FOLDER_CASES):
            counts["tried"] += len(case.readers)
            for problem in cases.run_folder_case(case, source, base / f"case{i}"):
                failures.append(problem)
                key = ("hung" if ": hung" in problem else "crashed" if "crash" in problem or "Traceback" in problem
                       else "touched_outside" if "outside the scratch" in problem else "not_refused")
                counts[key] += 1
        for i, case in enumerate(cases.ARG_CASES):
            counts["tried"] += 1
            scratch = base / f"arg{i}"
            scratch.mkdir()
            problem = run_arg_case(case, scratch)
            if problem:
                failures.append(f"{case.name}: {problem}")
                counts["hung" if problem == "hung" else "crashed" if problem == "crashed" else "not_refused"] += 1
        rng = random.Random(args.seed)
        fuzz = {"exit_0": 0, "exit_1": 0, "exit_2": 0}
        for i in range(args.random):
            case = cases.FolderCase(f"random {i}", "random", mutate_randomly(rng), readers=("verify", "to-jsonl"))
            folder, scratch, _ = cases.prepare(case, source, base / f"random{i}")
            before = cases.snapshot(base / f"random{i}", skip=scratch)
            for reader in case.readers:
                counts["tried"] += 1
                outcome = cases.run_reader(reader, folder, scratch)
                if outcome.hung or outcome.crash or "Traceback" in outcome.stderr:
                    counts["hung" if outcome.hung else "crashed"] += 1
                    failures.append(f"{case.name} [{reader}]: {outcome.problem(outcome.code or 0)}")
                else:
                    fuzz[f"exit_{outcome.code}"] = fuzz.get(f"exit_{outcome.code}", 0) + 1
            if cases.snapshot(base / f"random{i}", skip=scratch) != before:
                counts["touched_outside"] += 1
                failures.append(f"{case.name}: a file outside the scratch folder changed")
    seconds = round(time.perf_counter() - t0, 1)
    print(f"tried {counts['tried']} cases ({len(cases.FOLDER_CASES)} crafted folders, {len(cases.ARG_CASES)} "
          f"argument lines, {args.random} random manifests) in {seconds} s")
    print(f"crashed {counts['crashed']}, hung {counts['hung']} (5 s each), touched a file outside the scratch "
          f"folder {counts['touched_outside']}, crafted cases not refused with one line {counts['not_refused']}")
    print(f"random manifests: {fuzz}")
    for failure in failures[:20]:
        print(f"  {failure}")
    print(json.dumps({**counts, "random_exits": fuzz, "seconds": seconds}))
    bad = counts["crashed"] + counts["hung"] + counts["touched_outside"] + counts["not_refused"]
    return 1 if args.strict and bad else 0


if __name__ == "__main__":
    sys.exit(main())
