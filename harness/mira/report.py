"""Paper-style MIRA-Math tables (Tables 3, 6, 12 of the paper) and figures."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.safefs import atomic_writer
from harness.report import Column, Table

REGIME_SHORT = {"zero_shot": "ZS", "four_shot": "4S"}

OVERALL = [
    Column("Acc", "accuracy"),
    Column("Hit Rate", "hit_rate"),
    Column("1st-Req OK", "first_request_success"),
    Column("Avg Req", "avg_requests", ".2f"),
    Column("Avg Decl", "avg_declines", ".2f"),
    Column("Avg Hints", "avg_hints", ".2f"),
    Column("Avg Tokens", "avg_tokens", ".0f"),
]
DECOMPOSITION = [
    Column("No canonical hint", "p_no_canonical"),
    Column("Hint but wrong", "p_integration_fail"),
    Column("Correct", "p_success"),
    Column("Acc. given canonical hint", "acc_given_canonical"),
    Column("Noncanonical offers", "noncanonical_offers", "d"),
]
# runs with k > 1 instances (docs/hard-tier.md): C means every hint acquired, and a fourth class
DECOMPOSITION_K = [
    Column("No canonical hint", "p_no_canonical"),
    Column("Some hints, not all", "p_some_hints"),
    Column("All hints but wrong", "p_integration_fail"),
    Column("Correct", "p_success"),
    Column("Acc. given all hints", "acc_given_canonical"),
    Column("Noncanonical offers", "noncanonical_offers", "d"),
]
HINTS = [
    Column("Acc", "accuracy"),
    Column("All hints", "acquired_all_hints"),
    Column("Some hints", "acquired_some_hints"),
    Column("Avg acquired", "avg_hints_acquired", ".2f"),
    Column("Req/hint", "requests_per_acquired_hint", ".2f"),
    Column("1st-Req OK/hint", "first_request_success_per_hint"),
    Column("Avg Req", "avg_requests", ".2f"),
    Column("Avg Tokens", "avg_tokens", ".0f"),
]
DELTA = Column("Delta", "delta", "+.3f")
DELTA_METRICS = ("accuracy", "hit_rate", "first_request_success", "avg_requests", "avg_declines", "avg_hints",
                 "avg_tokens", "p_no_canonical", "p_integration_fail", "p_success")
DELTA_METRICS_K = ("p_some_hints", "acquired_all_hints", "avg_hints_acquired", "requests_per_acquired_hint",
                   "first_request_success_per_hint")  # added when both runs have k > 1 instances


@dataclass
class ScoredRun:
    path: Path
    config: dict[str, Any]
    label: str
    summary: dict[str, Any]  # overall + groupings
    view_variant: str | None = None  # of the transcripts: "default", "slot_notice", "mixed"; None if unrecorded
    instance_ids: frozenset[str] = frozenset()

    @property
    def regime(self) -> str:
        return REGIME_SHORT.get(self.config.get("regime", ""), str(self.config.get("regime")))

    @property
    def agents(self) -> str:
        cfg = self.config
        if cfg.get("condition") == "oracle_hint":
            return f"{cfg.get('solver')} (oracle hint)"
        return f"{cfg.get('solver')}/{cfg.get('responder')}"

    @property
    def multi_hint(self) -> bool:
        """Does the run have instances with k > 1 withheld facts (and so the k groupings)?"""
        return "by_k" in self.summary

    @property
    def pair_key(self) -> tuple[Any, ...]:
        cfg = self.config
        return (cfg.get("solver"), cfg.get("responder"), cfg.get("condition"), cfg.get("after_offer"))


# ------------------------------------------------------------------------------ one run
def run_tables(run: ScoredRun) -> list[Table]:
    s = run.summary
    head = {"run": run.agents, "format": run.regime, "n": s["overall"]["n"]}
    decomposition = DECOMPOSITION_K if run.multi_hint else DECOMPOSITION
    tables = [
        Table(f"{run.label}: overall (Table 6 style)", _lead() + OVERALL, [{**head, **s["overall"]}]),
        Table(f"{run.label}: trace decomposition (Table 3 style)", _lead() + decomposition, [{**head, **s["overall"]}]),
        Table(f"{run.label}: by difficulty x type", [Column("Group", "group", "s"), Column("n", "n", "d"), *OVERALL],
              [{"group": g, **m} for g, m in s["by_difficulty_type"].items()]),
        family_table(f"{run.label}: by family (Table 12 style)", s["by_family"], _family_types(run)),
    ]
    if run.multi_hint:
        tables.extend(k_tables(run))
    return tables


def k_tables(run: ScoredRun) -> list[Table]:
    """Hint acquisition and the trace decomposition by k, and by difficulty x k (runs with k > 1 instances)."""
    s = run.summary
    group = [Column("Group", "group", "s"), Column("n", "n", "d")]
    return [
        Table(f"{run.label}: hint acquisition by k", group + HINTS, [{"group": g, **m} for g, m in s["by_k"].items()]),
        Table(f"{run.label}: trace decomposition by k", group + DECOMPOSITION_K,
              [{"group": g, **m} for g, m in s["by_k"].items()]),
        Table(f"{run.label}: hint acquisition by difficulty x k", group + HINTS,
              [{"group": g, **m} for g, m in s["by_difficulty_k"].items()]),
    ]


def _lead() -> list[Column]:
    return [Column("Run", "run", "s"), Column("Format", "format", "s"), Column("n", "n", "d")]


def _family_types(run: ScoredRun) -> dict[str, str]:
    return run.summary.get("family_types", {})


def family_table(title: str, by_family: dict[str, dict[str, Any]], types: dict[str, str]) -> Table:
    columns = [Column("Type", "type", "s"), Column("Family", "family", "s"), Column("n", "n", "d"), *OVERALL]
    rows = [{"type": types.get(f, "?"), "family": f, **m} for f, m in by_family.items()]
    return Table(title, columns, rows)


# ------------------------------------------------------------------------------ several runs
def comparison_tables(runs: list[ScoredRun], family_deltas: bool = True) -> list[Table]:
    names = run_names(runs)
    heads = [{"run": name, "format": r.regime, "n": r.summary["overall"]["n"]} for name, r in zip(names, runs,
                                                                                               strict=True)]
    multi = any(r.multi_hint for r in runs)
    overall = [{**h, **({"p_some_hints": 0.0} if multi else {}), **r.summary["overall"]}
               for h, r in zip(heads, runs, strict=True)]  # a run of k = 1 instances has no "some hints" class
    tables = [
        Table("Overall metrics (Table 6 style)", _lead() + OVERALL, overall),
        Table("Trace decomposition (Table 3 style)", _lead() + (DECOMPOSITION_K if multi else DECOMPOSITION), overall),
        _accuracy_matrix("Accuracy by difficulty x type", "by_difficulty_type", runs),
        _accuracy_matrix("Accuracy by family", "by_family", runs),
    ]
    if multi:
        tables.append(Table("Hint acquisition (runs with k > 1)", _lead() + HINTS, overall))
        tables.append(_accuracy_matrix("Accuracy by difficulty x k", "by_difficulty_k", runs))
    for zs, fs in regime_pairs(runs):
        tables.extend(delta_tables(zs, fs)[: 2 if family_deltas else 1])
    tables.extend(localization_table(default, notice) for default, notice in view_pairs(runs))
    return tables


def run_names(runs: list[ScoredRun]) -> list[str]:
    """What tells the runs apart in a comparison: the agents, with the slot-notice views named; runs that still
    share a name and regime (the same agents on other data) add their folder's name."""
    names = [r.agents + (", slot notice" if r.view_variant == "slot_notice" else "") for r in runs]
    seen = Counter((name, r.regime) for name, r in zip(names, runs, strict=True))
    return [f"{name} [{r.path.name}]" if seen[name, r.regime] > 1 else name
            for name, r in zip(names, runs, strict=True)]


def _accuracy_matrix(title: str, grouping: str, runs: list[ScoredRun]) -> Table:
    groups: list[str] = []
    by_run = [_grouping(run, grouping) for run in runs]
    for run_groups in by_run:
        groups.extend(g for g in run_groups if g not in groups)
    columns = [Column("Group", "group", "s")]
    columns += [Column(f"{name} {r.regime}", f"run{i}") for i, (name, r) in enumerate(zip(run_names(runs), runs,
                                                                                          strict=True))]
    rows = []
    for g in groups:
        row: dict[str, Any] = {"group": g}
        for i, run_groups in enumerate(by_run):
            row[f"run{i}"] = run_groups.get(g, {}).get("accuracy")
        rows.append(row)
    return Table(title, columns, rows)


def _grouping(run: ScoredRun, grouping: str) -> dict[str, dict[str, Any]]:
    """A grouping of the run's summary; a run of k = 1 instances only has its k groups under their k = 1 names."""
    if grouping in run.summary:
        return run.summary[grouping]
    if grouping == "by_difficulty_k":
        return {f"{d}_k1": m for d, m in run.summary["by_difficulty"].items()}
    return {}


def _delta_metrics(zs: ScoredRun, fs: ScoredRun) -> tuple[str, ...]:
    return DELTA_METRICS + (DELTA_METRICS_K if zs.multi_hint and fs.multi_hint else ())


def regime_pairs(runs: list[ScoredRun]) -> list[tuple[ScoredRun, ScoredRun]]:
    """(zero-shot, four-shot) pairs of runs with the same agents and protocol settings.

    With exactly two runs of different regimes they are paired even if their agents differ.
    """
    pairs = []
    for zs in runs:
        if zs.regime != "ZS":
            continue
        match = [fs for fs in runs if fs.regime == "4S" and fs.pair_key == zs.pair_key]
        if len(match) == 1:
            pairs.append((zs, match[0]))
    if not pairs and len(runs) == 2 and {r.regime for r in runs} == {"ZS", "4S"}:
        zs, fs = sorted(runs, key=lambda r: r.regime != "ZS")
        pairs.append((zs, fs))
    return pairs


def delta_tables(zs: ScoredRun, fs: ScoredRun) -> list[Table]:
    a, b = zs.summary["overall"], fs.summary["overall"]
    rows = [{"metric": m, "zs": a.get(m), "fs": b.get(m), "delta": _delta(a.get(m), b.get(m))}
            for m in _delta_metrics(zs, fs)]
    columns = [Column("Metric", "metric", "s"), Column("ZS", "zs"), Column("4S", "fs"), DELTA]
    overall = Table(f"ZS vs 4S: {zs.agents} (delta = 4S - ZS)", columns, rows)
    families = list(dict.fromkeys([*zs.summary["by_family"], *fs.summary["by_family"]]))
    fam_rows = []
    for f in families:
        x = zs.summary["by_family"].get(f, {}).get("accuracy")
        y = fs.summary["by_family"].get(f, {}).get("accuracy")
        fam_rows.append({"family": f, "zs": x, "fs": y, "delta": _delta(x, y)})
    by_family = Table(f"ZS vs 4S accuracy by family: {zs.agents}",
                      [Column("Family", "family", "s"), Column("ZS", "zs"), Column("4S", "fs"), DELTA], fam_rows)
    return [overall, by_family]


def deltas(zs: ScoredRun, fs: ScoredRun) -> dict[str, Any]:
    a, b = zs.summary["overall"], fs.summary["overall"]
    return {
        "zero_shot": str(zs.path),
        "four_shot": str(fs.path),
        "overall": {m: _delta(a.get(m), b.get(m)) for m in _delta_metrics(zs, fs)},
        "by_family_accuracy": {
            f: _delta(zs.summary["by_family"].get(f, {}).get("accuracy"), m.get("accuracy"))
            for f, m in fs.summary["by_family"].items()
        },
    }


# ------------------------------------------------------------------------------ localization cost
LOCALIZATION_METRICS = ("accuracy", "first_request_success")


def view_pairs(runs: list[ScoredRun]) -> list[tuple[ScoredRun, ScoredRun]]:
    """(default, slot_notice) pairs of runs over the same instances, with the same agents, protocol and regime.

    With exactly two runs, one per view variant over the same instances, they are paired even if their agents
    differ.
    """
    defaults = [r for r in runs if r.view_variant == "default"]
    notices = [r for r in runs if r.view_variant == "slot_notice"]
    pairs = []
    for default in defaults:
        match = [n for n in notices if n.instance_ids == default.instance_ids
                 and (n.pair_key, n.regime) == (default.pair_key, default.regime)]
        if len(match) == 1:
            pairs.append((default, match[0]))
    if (not pairs and len(runs) == 2 and len(defaults) == len(notices) == 1
            and defaults[0].instance_ids == notices[0].instance_ids):
        pairs.append((defaults[0], notices[0]))
    return pairs


def localization_cost(default: ScoredRun, notice: ScoredRun) -> dict[str, Any]:
    """Accuracy and first-request success with the slot notice minus without: overall, per type, per family."""
    groups = _localization_groups(default, notice)
    return {
        "default": str(default.path),
        "slot_notice": str(notice.path),
        "groups": {name: {"n": d.get("n"),
                          **{m: {"default": d.get(m), "slot_notice": n.get(m), "cost": _delta(d.get(m), n.get(m))}
                             for m in LOCALIZATION_METRICS}}
                   for name, (d, n) in groups.items()},
    }


def _localization_groups(default: ScoredRun, notice: ScoredRun) -> dict[str, tuple[dict, dict]]:
    a, b = default.summary, notice.summary
    groups = {"all": (a["overall"], b["overall"])}
    for kind in ("A", "B"):
        if kind in a["by_type"] or kind in b["by_type"]:
            groups[f"Type {kind}"] = (a["by_type"].get(kind, {}), b["by_type"].get(kind, {}))
    for family in dict.fromkeys([*a["by_family"], *b["by_family"]]):
        groups[family] = (a["by_family"].get(family, {}), b["by_family"].get(family, {}))
    return groups


def localization_table(default: ScoredRun, notice: ScoredRun) -> Table:
    """The localization cost as a table: what being told where the gap is adds to each metric."""
    types = {**notice.summary.get("family_types", {}), **default.summary.get("family_types", {})}
    rows = []
    for name, data in localization_cost(default, notice)["groups"].items():
        acc, first = data["accuracy"], data["first_request_success"]
        rows.append({"group": name, "type": types.get(name, ""), "n": data["n"],
                     "acc_default": acc["default"], "acc_notice": acc["slot_notice"], "acc_cost": acc["cost"],
                     "frs_default": first["default"], "frs_notice": first["slot_notice"], "frs_cost": first["cost"]})
    columns = [Column("Group", "group", "s"), Column("Type", "type", "s"), Column("n", "n", "d"),
               Column("Acc default", "acc_default"), Column("Acc notice", "acc_notice"),
               Column("Acc cost", "acc_cost", "+.3f"), Column("1st-Req default", "frs_default"),
               Column("1st-Req notice", "frs_notice"),
               Column("1st-Req cost", "frs_cost", "+.3f")]
    title = f"Localization cost: {default.agents} {default.regime} (cost = with the slot notice - without)"
    return Table(title, columns, rows)


def _delta(x: float | None, y: float | None) -> float | None:
    return None if x is None or y is None else y - x


# ------------------------------------------------------------------------------ figures
def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def run_figures(run: ScoredRun, out: Path) -> list[Path]:
    """Accuracy by family, and by difficulty for each type, for one run."""
    plt = _pyplot()
    if plt is None:
        return []
    paths = []
    fams = run.summary["by_family"]
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(fams) + 1.5))
    names = list(fams)[::-1]
    ax.barh(names, [fams[f]["accuracy"] or 0 for f in names], color="#4c72b0")
    ax.set_xlim(0, 1)
    ax.set_xlabel("accuracy")
    ax.set_title(f"{run.label}: accuracy by family")
    paths.append(_save(plt, fig, out / "accuracy_by_family.png"))
    fig, ax = plt.subplots(figsize=(5, 3.5))
    _difficulty_lines(ax, [run], by_type=True)
    ax.set_title(f"{run.label}: accuracy by difficulty")
    paths.append(_save(plt, fig, out / "accuracy_by_difficulty.png"))
    if run.multi_hint:
        fig, ax = plt.subplots(figsize=(5, 3.5))
        _difficulty_k_lines(ax, run)
        ax.set_title(f"{run.label}: accuracy by difficulty and k")
        paths.append(_save(plt, fig, out / "accuracy_by_difficulty_k.png"))
    return paths


def comparison_figures(runs: list[ScoredRun], out: Path) -> list[Path]:
    """The paper's figures: accuracy by agents and regime, by type, by difficulty."""
    plt = _pyplot()
    if plt is None:
        return []
    paths = []
    agents = list(dict.fromkeys(r.agents for r in runs))
    regimes = list(dict.fromkeys(r.regime for r in runs))
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(agents)), 3.5))
    width = 0.8 / max(1, len(regimes))
    for j, regime in enumerate(regimes):
        values = [next((r.summary["overall"]["accuracy"] for r in runs if r.agents == a and r.regime == regime), 0)
                  for a in agents]
        ax.bar([i + j * width for i in range(len(agents))], values, width, label=regime)
    ax.set_xticks([i + width * (len(regimes) - 1) / 2 for i in range(len(agents))], agents)
    _finish_axes(ax, "accuracy by agents and regime")
    paths.append(_save(plt, fig, out / "accuracy_by_regime.png"))
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(runs)), 3.5))
    labels = [f"{r.agents}\n{r.regime}" for r in runs]
    for j, kind in enumerate(("A", "B")):
        values = [r.summary["by_type"].get(kind, {}).get("accuracy") or 0 for r in runs]
        ax.bar([i + j * 0.4 for i in range(len(runs))], values, 0.4, label=f"Type {kind}")
    ax.set_xticks([i + 0.2 for i in range(len(runs))], labels)
    _finish_axes(ax, "accuracy by family type")
    paths.append(_save(plt, fig, out / "accuracy_by_type.png"))
    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    _difficulty_lines(ax, runs, by_type=False)
    ax.set_title("accuracy by difficulty")
    paths.append(_save(plt, fig, out / "accuracy_by_difficulty.png"))
    return paths


DIFFICULTIES = (1, 2, 3, 4, 5)


def _difficulty_lines(ax: Any, runs: list[ScoredRun], by_type: bool) -> None:
    ticks = {1, 2, 3}
    for run in runs:
        series = ([(f"Type {t}", f"{t}_d") for t in ("A", "B")] if by_type else [(f"{run.agents} {run.regime}", "d")])
        for name, prefix in series:
            grouping = run.summary["by_difficulty_type" if by_type else "by_difficulty"]
            xs = [d for d in DIFFICULTIES if f"{prefix}{d}" in grouping]
            ticks.update(xs)
            if xs:
                ax.plot(xs, [grouping[f"{prefix}{d}"]["accuracy"] or 0 for d in xs], marker="o", label=name)
    _difficulty_axes(ax, ticks)


def _difficulty_k_lines(ax: Any, run: ScoredRun) -> None:
    grouping = run.summary["by_difficulty_k"]
    ticks = {1, 2, 3}
    for k in sorted({int(g.rsplit("_k", 1)[1]) for g in grouping}):
        xs = [d for d in DIFFICULTIES if f"d{d}_k{k}" in grouping]
        ticks.update(xs)
        ax.plot(xs, [grouping[f"d{d}_k{k}"]["accuracy"] or 0 for d in xs], marker="o", label=f"k = {k}")
    _difficulty_axes(ax, ticks)


def _difficulty_axes(ax: Any, ticks: set[int]) -> None:
    ax.set_xticks(sorted(ticks))
    ax.set_xlabel("effective difficulty")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("accuracy")
    ax.legend(fontsize=7)


def _finish_axes(ax: Any, title: str) -> None:
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("accuracy")
    ax.set_title(title)
    ax.legend(fontsize=7)
    ax.tick_params(axis="x", labelsize=7)


def _save(plt: Any, fig: Any, path: Path) -> Path:
    fig.tight_layout()
    with atomic_writer(path, "wb") as f:  # never through a link planted at ``path``
        fig.savefig(f, dpi=110, format=path.suffix.lstrip(".") or "png")
    plt.close(fig)
    return path
