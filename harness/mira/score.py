"""``run_eval.py score``: recompute every MIRA-Math metric from transcripts alone and write the reports.

Per run directory: ``metrics.json`` (rewritten from the recomputation; a difference from the live one is
reported), ``scores.json`` (all groupings and per-instance metrics), ``per_instance.csv``,
``by_family.csv``, ``by_group.csv``, ``report.md`` and figures. With several run directories, the
comparison tables (ZS vs 4S deltas, and the localization cost of a default / slot-notice pair over the same
instances) are printed and, with ``out``, written there too.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

from generators.answers import decode_answer
from harness import untrusted
from harness.errors import HarnessError, InputError
from harness.mira.metrics import has_multi_hint, hint_problem, instance_metrics, summarize, with_hint_metrics
from harness.mira.report import (
    ScoredRun,
    comparison_figures,
    comparison_tables,
    deltas,
    localization_cost,
    regime_pairs,
    run_figures,
    run_tables,
    view_pairs,
)
from harness.report import Table, csv_text, md_text
from harness.rundir import RunDir, read_transcripts, write_json_atomic, write_text_atomic

PER_INSTANCE_FIELDS = ("instance_id", "family", "type", "difficulty", "regime", "condition", "view_variant",
                       "end_reason")
TRANSCRIPT_SCHEMA = "mira_transcript"


def load_records(run_dir: RunDir) -> list[dict[str, Any]]:
    """Finished transcript lines, in file order, each checked against ``schemas/mira_transcript`` and its expected
    answer decoded; a crash-cut last line is skipped (and reported)."""
    if not os.path.lexists(run_dir.transcripts):
        raise HarnessError(f"{run_dir.path}: no {run_dir.transcripts.name} (is this a run directory?)")
    state = read_transcripts(run_dir.transcripts, schema=TRANSCRIPT_SCHEMA)
    if state.cut_line is not None:
        print(f"{run_dir.transcripts}:{state.cut_line}: partial last line (interrupted run) is not scored; "
              "resume the run to redo it", file=sys.stderr)
    for rid, record in state.records.items():
        if not expected_decodes(record):
            raise InputError(str(run_dir.transcripts), state.line_of[rid],
                             f"expected: not a {record['answer_type']!r} answer ({_decode_error(record)})", rid)
        problem = hint_problem(record)
        if problem is not None:
            raise InputError(str(run_dir.transcripts), state.line_of[rid], problem, rid)
    return list(state.records.values())


def expected_decodes(record: dict[str, Any]) -> bool:
    """Is the (schema-valid) record's expected answer a value of its answer type?"""
    return _decode_error(record) is None


def _decode_error(record: dict[str, Any]) -> str | None:
    try:
        decode_answer(record["answer_type"], record["expected"], record["answer_keys"])
    except Exception as exc:  # any decoder complaint: the line cannot be graded
        return type(exc).__name__
    return None


def metric_rows(run_dir: RunDir, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-instance metrics; a schema-valid line that still cannot be scored is named with its id."""
    return untrusted.scored_each(run_dir.transcripts, records, instance_metrics)


def score_run(path: str | Path, figures: bool = True, write: bool = True) -> ScoredRun:
    """Recompute one run's metrics from its transcript; with ``write`` (under the folder's writer lock) rewrite
    ``metrics.json`` and the reports."""
    run_dir = RunDir(path)
    with run_dir.rewriting(write):
        return _score_run(run_dir, figures, write)


def _score_run(run_dir: RunDir, figures: bool, write: bool) -> ScoredRun:
    info = run_dir.load_info() or {}
    records = load_records(run_dir)
    if not records:
        raise HarnessError(f"{run_dir.transcripts}: no finished instances to score")
    rows = metric_rows(run_dir, records)
    label = info.get("label") or run_dir.path.name
    summary = summarize(records, rows)
    metrics = {"benchmark": "mira", "label": info.get("label"), **summary}
    run = ScoredRun(run_dir.path, info.get("config") or _config_from(records[0]), label, summary,
                    view_variant=view_variant_of(records), instance_ids=frozenset(r["instance_id"] for r in records))
    _report_consistency(run_dir, records, rows, metrics, info)
    if write:
        write_json_atomic(run_dir.metrics_json, metrics)
        write_run_outputs(run, records, rows, figures)
    return run


def view_variant_of(records: list[dict[str, Any]]) -> str | None:
    """The view variant the transcript lines record: one name, "mixed", or None when none is recorded."""
    variants = {r.get("view_variant") for r in records}
    if len(variants) > 1:
        return "mixed"
    return variants.pop()


def _config_from(record: dict[str, Any]) -> dict[str, Any]:
    return {k: record.get(k) for k in ("regime", "condition", "after_offer")}


def _report_consistency(
    run_dir: RunDir, records: list[dict[str, Any]], rows: list[dict[str, Any]], metrics: dict[str, Any],
    info: dict[str, Any],
) -> None:
    """Say whether the transcripts reproduce the live metrics (they must)."""
    mismatched = [r["instance_id"] for r, row in zip(records, rows, strict=True) if r.get("live_metrics") != row]
    if mismatched:
        print(f"{run_dir.path}: {len(mismatched)} instance(s) whose recomputed metrics differ from the live ones, "
              f"e.g. {mismatched[:3]}", file=sys.stderr)
    expected = info.get("config", {}).get("instances")
    if expected is not None and expected != len(records):
        print(f"{run_dir.path}: incomplete run: {len(records)} of {expected} instances finished", file=sys.stderr)
    if os.path.lexists(run_dir.metrics_json):
        try:
            old = untrusted.read_json(run_dir.metrics_json)
        except HarnessError:
            old = None
        same = old == json.loads(json.dumps(metrics))
        print(f"{run_dir.metrics_json}: {'reproduced exactly' if same else 'CHANGED by rescoring'}", file=sys.stderr)


def write_run_outputs(run: ScoredRun, records: list[dict[str, Any]], rows: list[dict[str, Any]], figures: bool) -> None:
    out = run.path
    multi = has_multi_hint(records)
    if multi:
        rows = with_hint_metrics(records, rows)
    per_instance = [{**{k: r.get(k) for k in PER_INSTANCE_FIELDS}, **row} for r, row in zip(records, rows, strict=True)]
    write_json_atomic(out / "scores.json", {"label": run.label, **run.summary, "per_instance": per_instance})
    _write_csv(out / "per_instance.csv", per_instance)
    _write_csv(out / "by_family.csv", [{"family": f, **m} for f, m in run.summary["by_family"].items()])
    names = ("by_type", "by_difficulty", "by_difficulty_type") + (("by_k", "by_difficulty_k") if multi else ())
    groups = [{"grouping": name, "group": g, **m} for name in names for g, m in run.summary[name].items()]
    _write_csv(out / "by_group.csv", groups)
    tables = run_tables(run)
    write_text_atomic(out / "report.md", _markdown(f"MIRA-Math report: {run.label}", tables))
    if figures:
        run_figures(run, out)


def score_runs(paths: list[str], out: str | None = None, figures: bool = True, quiet: bool = False) -> list[ScoredRun]:
    """Score each run directory, print the tables, and write the comparison to ``out`` if given."""
    runs = [score_run(p, figures=figures) for p in paths]
    if not quiet:
        for run in runs:
            print(render_text(run_tables(run)))
    if len(runs) > 1:
        tables = comparison_tables(runs)
        if not quiet:
            print(render_text(tables))
        if out:
            write_comparison(runs, tables, Path(out), figures)
    return runs


def write_comparison(runs: list[ScoredRun], tables: list[Table], out: Path, figures: bool) -> None:
    with RunDir(out).locked():
        _write_comparison(runs, tables, out, figures)


def _write_comparison(runs: list[ScoredRun], tables: list[Table], out: Path, figures: bool) -> None:
    write_text_atomic(out / "comparison.md", _markdown("MIRA-Math comparison", tables))
    write_text_atomic(out / "comparison.csv", "\n".join(f"# {' '.join(t.title.splitlines())}\n{t.csv()}"
                                                         for t in tables))
    data = {
        "runs": [{"path": str(r.path), "label": r.label, "config": r.config, "overall": r.summary["overall"]}
                 for r in runs],
        "zs_vs_4s": [deltas(zs, fs) for zs, fs in regime_pairs(runs)],
        "localization_cost": [localization_cost(default, notice) for default, notice in view_pairs(runs)],
    }
    write_json_atomic(out / "comparison.json", data)
    if figures:
        comparison_figures(runs, out)


def render_text(tables: list[Table]) -> str:
    return "\n\n".join(t.text() for t in tables) + "\n"


def _markdown(title: str, tables: list[Table]) -> str:
    return f"# {md_text(title)}\n\n" + "\n\n".join(t.markdown() for t in tables) + "\n"


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    fields: list[str] = []
    for row in rows:
        fields.extend(k for k in row if k not in fields)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: csv_text(" ".join(v) if isinstance(v, list) else v) for k, v in row.items()} for row in rows)
    write_text_atomic(path, buf.getvalue())
