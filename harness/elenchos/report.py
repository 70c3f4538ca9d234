"""The paper-style tables of scored Elenchos runs (``harness.elenchos.score`` computes and writes them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.elenchos.metrics import FAULTS
from harness.report import Column, Table


@dataclass
class ScoredRun:
    path: Path
    label: str
    info: dict[str, Any]
    metrics: dict[str, Any]


def brief(m: dict[str, Any]) -> dict[str, Any]:
    keys = ("n", "V", "V_K", "V_A", "V_A_J", "E_ELX", "P_mean", "P_mean_correct", "P_over_P_max", "chance_V")
    return {k: m.get(k) for k in keys}


# ---------------------------------------------------------------------------------------------------- tables
MAIN_COLUMNS = [
    Column("n", "n", "d"), Column("V", "V"), Column("V_K", "V_K"), Column("V_A", "V_A"), Column("V_A^J", "V_A_J"),
    Column("prec", "precision"), Column("rec", "recall"), Column("V_A|V_K=1", "V_A_given_V_K"),
    Column("E_ELX", "E_ELX"), Column("P", "P_mean", ".2f"), Column("P/P_max", "P_over_P_max"),
    Column("chance V", "chance_V"),
]


def _rows(groups: dict[str, dict[str, Any]], name: str = "group") -> list[dict[str, Any]]:
    return [{name: key, **value} for key, value in groups.items()]


def _ci(m: dict[str, Any], key: str) -> str | None:
    value, interval = m.get(key), (m.get("ci95") or {}).get(key)
    if value is None:
        return None
    return f"{value:.2f} [{interval[0]:.2f}, {interval[1]:.2f}]" if interval else f"{value:.2f}"


def run_tables(s: ScoredRun) -> list[Table]:
    m = s.metrics
    by_k = m["by_k_class"]
    main = Table(f"{s.label}: by k (Table 2 style; + additive, x interacting in our family)",
                 [Column("k", "group", "s"), *MAIN_COLUMNS], [*_rows(by_k), {"group": "all", **m["overall"]}])
    gap_rows = [{"group": key, "V_K": _ci(v, "V_K"), "V_A": _ci(v, "V_A"), "V_A_given_V_K": _ci(v, "V_A_given_V_K"),
                 "gap": _ci(v, "gap")} for key, v in [*by_k.items(), ("all", m["overall"])]]
    gap = Table(f"{s.label}: detection vs attribution (Table 1 style; Wilson / paired bootstrap 95%)",
                [Column("k", "group", "s"), Column("V_K", "V_K", "s"), Column("V_A", "V_A", "s"),
                 Column("V_A|V_K=1", "V_A_given_V_K", "s"), Column("gap V_K-V_A", "gap", "s")], gap_rows)
    fault_rows = []
    for key, v in [*by_k.items(), ("all", m["overall"])]:
        if v.get("n_fault"):
            fault_rows.append({"group": key, "n": v["n_fault"], **v["fault"],
                               "under": v.get("attribution_failed_with_budget_left")})
    fault = Table(f"{s.label}: fault characterisation, sessions with V_K = 1 (Table 9 style)",
                  [Column("k", "group", "s"), Column("n", "n", "d"), *(Column(f, f) for f in FAULTS),
                   Column("<P_max", "under")], fault_rows)
    level = Table(f"{s.label}: by level and k", [Column("level, k", "group", "s"), *MAIN_COLUMNS[:4],
                                                 Column("E_ELX", "E_ELX"), Column("P", "P_mean", ".2f")],
                  _rows(m["by_level_k_class"]))
    tables = [main, gap, fault, level]
    null = m["overall"].get("null")
    if null:
        tables.append(Table(f"{s.label}: null case (k = 0; Table 10 style)",
                            [Column("n", "n", "d"), Column("TN", "TN", "d"), Column("FP", "FP", "d"),
                             Column("no answer", "no_answer", "d"), Column("specificity", "specificity"),
                             Column("mean probes", "mean_probes", ".1f")], [null]))
    return tables


def comparison_tables(scored: list[ScoredRun]) -> list[Table]:
    classes = sorted({k for s in scored for k in s.metrics["by_k_class"]},
                     key=lambda k: ("k0", "k1", "k2+", "k2x", "k3+", "k3x").index(k))
    rows, probes = [], []
    for s in scored:
        row = {"run": s.label, "all": s.metrics["overall"]["V"]}
        prow = {"run": s.label, "all": s.metrics["overall"]["P_mean_correct"]}
        for k in classes:
            group = s.metrics["by_k_class"].get(k)
            row[k] = group["V"] if group else None
            prow[k] = group["P_mean_correct"] if group else None
        rows.append(row)
        probes.append(prow)
    cols = [Column("run", "run", "s"), *(Column(k, k) for k in classes), Column("all", "all")]
    pcols = [Column("run", "run", "s"), *(Column(k, k, ".2f") for k in classes), Column("all", "all", ".2f")]
    return [Table("V by k (runs compared)", cols, rows),
            Table("mean probes per correct session (runs compared)", pcols, probes)]


def session_table(metrics: dict[str, Any]) -> Table:
    keys = ("id", "suite", "level", "k", "set", "k_class", "label", "submitted_label", "submitted_set", "V_K", "V_A",
            "V", "V_A_J", "precision", "recall", "P", "E_ELX", "fault", "end_reason")
    rows = [{**r, "submitted_set": " ".join(r["submitted_set"])} for r in metrics["sessions"]]
    return Table("sessions", [Column(k, k, "s" if k in ("id", "suite", "set", "k_class", "label", "submitted_label",
                                                         "submitted_set", "fault", "end_reason") else ".3f")
                              for k in keys], rows)


def render_text(tables: list[Table]) -> str:
    return "\n\n".join(t.text() for t in tables)


def render_markdown(tables: list[Table]) -> str:
    return "\n\n".join(t.markdown() for t in tables) + "\n"


def summary_json(scored: list[ScoredRun]) -> str:
    return json.dumps({"elenchos": {s.label: brief(s.metrics["overall"]) for s in scored}})
