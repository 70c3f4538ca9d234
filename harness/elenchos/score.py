"""``run_eval.py score`` for Elenchos: re-score run directories from their transcripts, compare several runs.

``score_run(path)`` recomputes every session's metrics from the events of ``transcripts.jsonl`` (the loop's
own numbers are kept as ``live_metrics``; a disagreement is reported), rewrites ``metrics.json`` and
writes ``report.md``, ``per_session.csv`` and ``by_k_class.csv``. ``score_runs`` adds a comparison of
several runs (e.g. SRA vs optimal vs random); the tables are ``harness.elenchos.report``'s.
"""

from __future__ import annotations

import sys
from pathlib import Path

from harness.elenchos.report import (
    ScoredRun,
    brief,
    comparison_tables,
    render_markdown,
    render_text,
    run_tables,
    session_table,
)
from harness.elenchos.run import load_lines, metrics_document, recompute_rows
from harness.errors import HarnessError
from harness.rundir import RunDir, write_json_atomic, write_text_atomic


def score_run(path: str | Path, write: bool = True, quiet: bool = True) -> ScoredRun:
    """Recompute one run's metrics; with ``write`` (under the folder's writer lock) rewrite its files."""
    run_dir = RunDir(path)
    with run_dir.rewriting(write):
        return _score_run(run_dir, write, quiet)


def _score_run(run_dir: RunDir, write: bool, quiet: bool) -> ScoredRun:
    path = run_dir.path
    info = run_dir.load_info()
    if info is None:
        raise HarnessError(f"{path}: not a run directory (no run.json)")
    if info.get("benchmark") != "elenchos":
        raise HarnessError(f"{path}: run.json says benchmark {info.get('benchmark')!r}, not elenchos")
    lines = load_lines(run_dir)
    rows = recompute_rows(run_dir, lines)
    mismatched = [r["id"] for r, line in zip(rows, lines, strict=True) if r != line.get("live_metrics")]
    if mismatched and not quiet:
        print(f"{path}: {len(mismatched)} session(s) whose live metrics differ from the recomputed ones "
              f"(first: {mismatched[0]})", file=sys.stderr)
    metrics = metrics_document(info, rows)
    scored = ScoredRun(Path(path), info.get("label") or str(path), info, metrics)
    if write:
        write_json_atomic(run_dir.metrics_json, metrics)
        tables = run_tables(scored)
        write_text_atomic(run_dir.path / "report.md", render_markdown(tables))
        write_text_atomic(run_dir.path / "by_k_class.csv", tables[0].csv())
        write_text_atomic(run_dir.path / "per_session.csv", session_table(metrics).csv())
    return scored


def score_runs(paths: list[str], out: str | None = None, quiet: bool = False) -> list[ScoredRun]:
    return compare([score_run(p, quiet=quiet) for p in paths], out, quiet)


def compare(scored: list[ScoredRun], out: str | None = None, quiet: bool = False) -> list[ScoredRun]:
    """Print (unless ``quiet``) and write (to ``out``) the tables of several scored runs."""
    tables = [t for s in scored for t in run_tables(s)[:2]]
    if len(scored) > 1:
        tables = [*comparison_tables(scored), *tables]
    if not quiet:
        print(render_text(tables))
    if out:
        target = Path(out)
        summary = {s.label: {"path": str(s.path), "overall": brief(s.metrics["overall"]),
                             "by_k_class": {k: brief(v) for k, v in s.metrics["by_k_class"].items()}}
                   for s in scored}
        with RunDir(target).locked():
            write_text_atomic(target / "report.md", render_markdown(tables))
            write_json_atomic(target / "summary.json", summary)
    return scored
