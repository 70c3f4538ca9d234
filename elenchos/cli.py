"""``python -m generators elenchos``: the configuration family, Pi_RSA and (optionally) the session files.

    python -m generators elenchos --max-k 3 --out DIR [--pi-rsa level0|cover] [--sessions] [--seed 1234]
                                  [--repetitions 5] [--jobs N]

writes ``DIR/configurations.jsonl`` (one candidate set per line, schema ``elenchos_configuration``),
``DIR/pi_rsa.json`` (the SRA's probes and expected table), ``DIR/admissible.md`` (every admissible set with
its classes), ``DIR/counts.json`` (ours next to the paper's) and with ``--sessions`` also
``DIR/ladder.jsonl`` and ``DIR/benchmark.jsonl`` (schema ``elenchos_session``); prints a comparison with the
paper under both additivity rules (the paper's formula, B.4, and the SRA-recoverable rule) on both Pi_RSA
(``level0``, the paper's construction and the default, and ``cover``), then the counts per k on the chosen
Pi_RSA as JSON on its last line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from elenchos.curated import PAPER_COUNTS, configuration_lines
from elenchos.family import MAX_K, PI_RSA_CHOICES, Family, family
from elenchos.sessions import DEFAULT_REPETITIONS, DEFAULT_SEED, SUITES, sessions
from generators.limits import MAX_REPETITIONS, REPETITIONS_RULE, cap_jobs, repetitions_problem
from generators.safefs import atomic_writer
from schemas import schema_errors


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-k", type=int, default=MAX_K, choices=(1, 2, 3, 4), help="largest set size (default 3)")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--sessions", action="store_true", help="also write ladder.jsonl and benchmark.jsonl")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="session dataset seed (default 1234)")
    p.add_argument("--repetitions", type=_repetitions, default=DEFAULT_REPETITIONS,
                   help=f"sessions per set and level (default {DEFAULT_REPETITIONS}, at most {MAX_REPETITIONS})")
    p.add_argument("--jobs", type=_bounded(1, None),
                   help="worker processes for the kernel runs (default: CPUs, at most 8; capped to the CPUs here)")
    p.add_argument("--pi-rsa", choices=PI_RSA_CHOICES, default="level0",
                   help="the SRA's probe set the sets are classified on: level0 (the paper's: the Level-0 probes, "
                        "default) or cover (a minimum set cover of equation 4)")


def _repetitions(text: str) -> int:
    """An argparse type: a repetitions count within ``generators.limits.MAX_REPETITIONS``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if repetitions_problem(value) is not None:
        raise argparse.ArgumentTypeError(f"{value}: {REPETITIONS_RULE}")
    return value


def _bounded(low: int, high: int | None):
    """An argparse type: an integer from ``low`` to ``high`` (one line otherwise)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, got {value}" if high is not None
                                             else f"must be at least {low}, got {value}")
        return value

    parse.__name__ = "count"
    return parse


def json_text(data: Any, **kw: Any) -> str:
    """Strict JSON (no NaN), UTF-8 as is: the same bytes the harness's run files use for these plain records."""
    kw.setdefault("separators", (",", ":"))
    return json.dumps(data, ensure_ascii=False, allow_nan=False, **kw)


def write_json(path: Path, data: Any) -> None:
    """``path`` holds the old or the new document, never half of one (written beside it, then renamed)."""
    with atomic_writer(path) as f:
        f.write(json_text(data, indent=2, separators=(",", ": ")) + "\n")


def write_jsonl(path: Path, records: Iterable[dict[str, Any]], schema: str) -> None:
    """One record a line, streamed (memory independent of the count), replacing ``path`` only when complete."""
    with atomic_writer(path) as f:
        for record in records:
            problems = schema_errors(schema, record)
            if problems:
                raise SystemExit(f"{path.name}: record {record.get('id')} violates {schema}: {problems[0]}")
            f.write(json_text(record) + "\n")


def admissible_table(fam: Family, lines: list[dict[str, Any]]) -> str:
    out = ["# Admissible mutation sets", "",
           f"Probe library {fam.library.sha256[:12]} ({len(fam.library)} probes); Pi_RSA = "
           + ", ".join(f"`{n}`" for n in fam.pi.names) + ".", "",
           "`interaction`: the paper's formula (B.4); `SRA rule`: the SRA-recoverable rule.", "",
           "| set | k | interaction | SRA rule | sub-types | classes | Table 6 |", "|---|---:|---|---|---|---|---|"]
    for line in lines:
        if not line["admissible"] or line["k"] == 0:
            continue
        paper = line["paper"]
        where = "" if paper is None else (paper["order"] + (" Ladder" if line["in_ladder"] else "")
                                          + (" Benchmark" if line["in_benchmark"] else ""))
        out.append(f"| {{{', '.join(line['mutations'])}}} | {line['k']} | {line['interaction']} | "
                   f"{line['interaction_sra']} | {', '.join(line['subtypes_sra'])} | "
                   f"{' x '.join(line['classes'])} | {where} |")
    return "\n".join(out) + "\n"


def comparison(fams: dict[str, Family]) -> str:
    """Counts per k on each Pi_RSA under both rules, with the paper's row under k = 2."""
    keys = ("candidates", "admissible", "additive", "interacting", "additive_sra", "interacting_sra", "collapse",
            "subsumed", "unidentifiable")
    heads = ("candidates", "admissible", "additive", "interacting", "+ SRA rule", "x SRA rule", "collapse",
             "subsumed", "unidentifiable")
    rows = ["k   Pi_RSA " + "".join(f"{h:>15}" for h in heads),
            "    (additive / interacting: the paper's formula B.4; + / x SRA rule: SRA-recoverable (a)+(b)+(c))"]
    first = next(iter(fams.values()))
    for k in first.counts():
        for choice, fam in fams.items():
            row = fam.counts()[k]
            rows.append(f"{k:<4}{choice:<7}" + "".join(f"{row.get(key, ''):>15}" for key in keys))
        paper = PAPER_COUNTS.get(k)
        if paper:
            rows.append(f"{k:<4}{'paper':<7}" + "".join(f"{'-' if paper.get(key) is None else paper[key]:>15}"
                                                      for key in keys))
    return "\n".join(rows)


MAX_K_SESSIONS = 3  # the Benchmark suite has triplets


def run(args: argparse.Namespace) -> int:
    if args.sessions and args.max_k < MAX_K_SESSIONS:
        print(f"error: --sessions needs --max-k {MAX_K_SESSIONS} or more (the Benchmark's sets have "
              f"{MAX_K_SESSIONS} mutations); got --max-k {args.max_k}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"computing F_<={args.max_k} under both Pi_RSA and both rules (about 5-10 s for k <= 3) ...",
          file=sys.stderr, flush=True)
    started = time.perf_counter()
    jobs = cap_jobs(args.jobs)
    fams = {choice: family(args.max_k, jobs=jobs, pi_rsa=choice) for choice in PI_RSA_CHOICES}
    seconds = time.perf_counter() - started
    fam = fams[args.pi_rsa]
    lines = configuration_lines(fam)
    write_jsonl(out / "configurations.jsonl", lines, "elenchos_configuration")
    write_json(out / "pi_rsa.json", fam.pi.record())
    with atomic_writer(out / "admissible.md") as f:
        f.write(admissible_table(fam, lines))
    counts = fam.counts()
    write_json(out / "counts.json", {"ours": counts, "pi_rsa": args.pi_rsa,
                                            "by_pi_rsa": {choice: f.counts() for choice, f in fams.items()},
                                            "paper": PAPER_COUNTS, "seconds": round(seconds, 2),
                                            "probe_library_sha256": fam.library.sha256})
    if args.sessions:
        for suite in SUITES:
            write_jsonl(out / f"{suite}.jsonl", sessions(suite, args.seed, args.repetitions, fam),
                        "elenchos_session")
    print(f"F_<={args.max_k} (both Pi_RSA, both rules) in {seconds:.1f} s")
    for choice, f in fams.items():
        print(f"Pi_RSA {choice} ({len(f.pi.probes)} probes): {', '.join(f.pi.names)}")
    print(comparison(fams))
    print(json.dumps(counts))
    return 0
