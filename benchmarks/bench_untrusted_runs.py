"""Benchmark: crafted run folders and logs through ``run_eval.py`` (issue 25).

    python benchmarks/bench_untrusted_runs.py [--scratch DIR] [--strict]

Builds one small MIRA-Math run and one Elenchos run, then runs every case of ``tests/harness/untrusted_corpus.py``
(planted links to files outside, ``/dev/zero``, FIFOs, directories, wrong field types, deep nesting, run.json
naming files elsewhere, oversized counts) in-process, each under a 5 s alarm in its own scratch folder, with a
folder of "outside" files watched for any change. Prints one JSON line: how many cases were tried per category,
how many crashed (a traceback instead of one line), hung, touched a file outside the scratch folder, or ended
otherwise than expected, the names of any such case, and the wall time per case (median and worst, against the
median time of scoring the intact run in the same process, as a ratio). ``--strict`` exits 1 unless all behaved.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.harness import untrusted_corpus as corpus  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", help="folder for the scratch runs (default: a temporary folder)")
    parser.add_argument("--strict", action="store_true", help="exit 1 unless every case behaved")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.scratch) as tmp:
        root = Path(tmp)
        bases = corpus.build_bases(root / "bases")
        outside = root / "outside"
        corpus.prepare_outside(outside)
        baseline = _baseline(bases, root / "baseline", outside)
        tried: dict[str, int] = {}
        bad: dict[str, list[str]] = {"crashed": [], "hung": [], "touched_outside": [], "unexpected": []}
        times = []
        for i, case in enumerate(corpus.cases()):
            tried[case.category] = tried.get(case.category, 0) + 1
            started = time.perf_counter()
            outcome = corpus.run_case(case, root / f"case-{i}", outside, bases)
            times.append(time.perf_counter() - started)
            if outcome.crashed:
                bad["crashed"].append(case.name)
            if outcome.hung:
                bad["hung"].append(case.name)
            if outcome.touched_outside:
                bad["touched_outside"].append(case.name)
            if corpus.problems(case, outcome) and not (outcome.crashed or outcome.hung or outcome.touched_outside):
                bad["unexpected"].append(case.name)
    result = {
        "cases": sum(tried.values()),
        "by_category": tried,
        **{k: len(v) for k, v in bad.items()},
        "failures": {k: v for k, v in bad.items() if v},
        "case_s_median": round(statistics.median(times), 4),
        "case_s_max": round(max(times), 4),
        "intact_score_s": round(baseline, 4),
        "median_vs_intact_score": round(statistics.median(times) / baseline, 2),
        "timeout_s": corpus.TIMEOUT_S,
    }
    print(json.dumps(result))
    ok = not any(bad.values())
    print(f"{result['cases']} cases tried: {'none' if ok else 'some'} crashed, hung or touched a file outside the "
          "scratch folder" + ("" if ok else f" ({result['failures']})"), file=sys.stderr)
    return 0 if ok or not args.strict else 1


def _baseline(bases: corpus.Bases, scratch: Path, outside: Path) -> float:
    """Median wall time of ``run_eval.py score`` on the intact MIRA-Math run (3 tries)."""
    intact = corpus.Case("intact", "baseline",
                         lambda s, o, b: ["score", str(corpus.copy_run(b.mira, s)), "--no-figures"], "ok")
    times = []
    for i in range(3):
        started = time.perf_counter()
        outcome = corpus.run_case(intact, scratch / str(i), outside, bases)
        times.append(time.perf_counter() - started)
        if corpus.problems(intact, outcome):
            raise SystemExit(f"the intact run does not score: {corpus.problems(intact, outcome)}")
    return statistics.median(times)


if __name__ == "__main__":
    raise SystemExit(main())
