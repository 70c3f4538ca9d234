"""Scoring: per-session metrics from a transcript line, aggregates with confidence intervals.

Per session (paper Section 3 and the digest's section 2; T = true set, P^ = submitted set, L = label):

* ``V_K = 1[L^ = L]``, ``V_A = 1[P^ = T]`` (independent of V_K), ``V = V_K * V_A``;
* ``V_A_J = |P^ & T| / |P^ | T|`` with ``J(empty, empty) = 1``;
* ``precision = |P^ & T| / |P^|`` and ``recall = |P^ & T| / |T|``; an empty P^ has precision 1 if T is empty
  else 0, an empty T has recall 1 if P^ is empty else 0;
* ``P`` = probes spent (sum of the events' costs), ``P_over_P_max = P / P_max``;
* ``E_ELX = V * (1 + 0.5 * (1 - (P / P_max) ** 3))`` (equation 1);
* ``fault`` (k >= 1): ``correct`` (P^ = T), ``incomplete`` (empty != P^ strictly inside T), ``mixed`` (P^ meets
  T but is not inside it), ``incorrect`` (P^ and T disjoint, including an empty P^);
* a session without an accepted submission has no label and P^ = {} (V = 0).

Aggregates (``aggregate``) use the paper's names: ``V``, ``V_K``, ``V_A``, ``V_A_J``, ``precision``,
``recall``, ``V_A_given_V_K`` (mean V_A over sessions with V_K = 1; ``None`` when there is none),
``E_ELX``, ``P_mean``, ``P_over_P_max``, ``under_budget`` (share of sessions with P < P_max),
``failed_with_budget_left`` (share of the V = 0 sessions with P < P_max), ``attribution_failed_with_budget_left``
(the paper's Table 9 column: over the sessions with V_K = 1 and V_A = 0), ``fault`` (shares among sessions
with k >= 1 and V_K = 1, Table 9), ``specificity`` (null sessions: TN / n, a missing answer is not a TN),
``gap`` (V_K - V_A); 95% Wilson intervals for the 0/1 metrics, seeded percentile bootstrap intervals (1,000
resamples of sessions) for ``V_A_J``, ``E_ELX`` and, paired, the gap -- overall and by k, paper k and level
(finer groups get Wilson intervals only, to keep scoring fast in pure Python).
"""

from __future__ import annotations

import array
import math
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

Z95 = 1.959963984540054
BOOTSTRAP_SEED = 1234
BOOTSTRAP_RESAMPLES = 1000
FAULTS = ("correct", "incomplete", "mixed", "incorrect")
BINARY = ("V", "V_K", "V_A")
BOOTSTRAPPED = ("V_A_J", "E_ELX")  # means of non-binary values that get a bootstrap interval (plus the gap)


# ------------------------------------------------------------------------------------------------ formulas
def e_elx(v: int | float, probes: int, p_max: int) -> float:
    """Equation (1): ``V * (1 + 0.5 * (1 - (P / P_max) ** 3))``, in [0, 1.5]."""
    return v * (1 + 0.5 * (1 - (probes / p_max) ** 3))


def jaccard(pred: Iterable[str], true: Iterable[str]) -> float:
    p, t = set(pred), set(true)
    return 1.0 if not p and not t else len(p & t) / len(p | t)


def precision(pred: Iterable[str], true: Iterable[str]) -> float:
    p, t = set(pred), set(true)
    if not p:
        return 1.0 if not t else 0.0
    return len(p & t) / len(p)


def recall(pred: Iterable[str], true: Iterable[str]) -> float:
    p, t = set(pred), set(true)
    if not t:
        return 1.0 if not p else 0.0
    return len(p & t) / len(t)


def fault(pred: Iterable[str], true: Iterable[str]) -> str | None:
    """Table 9 category of a submission for a non-empty true set (None when T is empty)."""
    p, t = set(pred), set(true)
    if not t:
        return None
    if p == t:
        return "correct"
    if p and p < t:
        return "incomplete"
    if p & t:
        return "mixed"
    return "incorrect"


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (None for n = 0)."""
    if n == 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap(values: Sequence[float], seed: int = BOOTSTRAP_SEED, resamples: int = BOOTSTRAP_RESAMPLES
              ) -> tuple[float, float] | None:
    """Percentile 95% interval of the mean (resampling with replacement, seeded)."""
    return bootstrap_intervals({"x": values}, seed, resamples)["x"]


def _indices(n: int, count: int, seed: int) -> list[int]:
    """``count`` row indices uniform in ``range(n)`` from ``random.Random(seed)``: 64-bit draws reduced modulo
    n (bias below n / 2**64), platform-independent, and fast in pure Python."""
    words = array.array("Q")
    words.frombytes(random.Random(seed).getrandbits(64 * count).to_bytes(8 * count, "little"))
    if sys.byteorder == "big":
        words.byteswap()
    return list(map(n.__rmod__, words))


def bootstrap_intervals(columns: dict[str, Sequence[float]], seed: int = BOOTSTRAP_SEED,
                        resamples: int = BOOTSTRAP_RESAMPLES) -> dict[str, tuple[float, float] | None]:
    """Percentile 95% intervals of several means from the *same* resamples of the rows (so intervals of
    per-row differences, such as the V_K - V_A gap, are paired)."""
    n = len(next(iter(columns.values()), []))
    if n == 0:
        return dict.fromkeys(columns)
    picks = _indices(n, n * resamples, seed)
    low, high = int(0.025 * resamples), min(resamples - 1, math.ceil(0.975 * resamples) - 1)
    out: dict[str, tuple[float, float] | None] = {}
    for key, values in columns.items():
        get = values.__getitem__
        means = sorted(sum(map(get, picks[b * n:(b + 1) * n])) / n for b in range(resamples))
        out[key] = (means[low], means[high])
    return out


# ------------------------------------------------------------------------------------------------ sessions
def submission_of(events: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The accepted submission (label and normalised ids) from the events; None if there is none."""
    for event in events:
        if event.get("tool") == "submit_answer" and event.get("ok"):
            result = event["result"]
            return {"corrupted_kernel": result["corrupted_kernel"], "mutation_ids": list(result["mutation_ids"])}
    return None


def k_class(k: int, interaction: str) -> str:
    """``k0``, ``k1``, ``k2+``, ``k2x``, ``k3+``, ``k3x`` (``+`` additive, ``x`` interacting)."""
    if k <= 1:
        return f"k{k}"
    return f"k{k}" + ("+" if interaction == "additive" else "x")


def session_metrics(line: dict[str, Any]) -> dict[str, Any]:
    """Everything the aggregates need, from one transcript line."""
    session = line["session"]
    meta = session.get("metadata", {})
    events = line.get("events", [])
    sub = submission_of(events)
    truth_label, truth = session["corrupted_kernel"], sorted(session["mutations"])
    label = sub["corrupted_kernel"] if sub else None
    pred = sub["mutation_ids"] if sub else []
    p_max = session["probe_budget"]
    probes = sum(int(e.get("cost", 0)) for e in events)
    v_k = int(label == truth_label)
    v_a = int(sub is not None and sorted(pred) == truth)
    v = v_k * v_a
    interaction = session["interaction"]
    paper_order = meta.get("paper_order")
    return {
        "id": session["id"],
        "suite": meta.get("suite"),
        "level": session["level"],
        "k": session["k"],
        "set": "{" + ", ".join(truth) + "}",
        "interaction": interaction,
        "subtype": meta.get("subtype"),
        "k_class": k_class(session["k"], interaction),
        "paper_k_class": paper_order,
        "label": truth_label,
        "submitted": sub is not None,
        "submitted_label": label,
        "submitted_set": pred,
        "V_K": v_k,
        "V_A": v_a,
        "V": v,
        "V_A_J": jaccard(pred, truth) if sub else (1.0 if not truth else 0.0),
        "precision": precision(pred, truth),
        "recall": recall(pred, truth),
        "P": probes,
        "P_max": p_max,
        "P_over_P_max": probes / p_max,
        "under_budget": int(probes < p_max),
        "E_ELX": e_elx(v, probes, p_max),
        "fault": fault(pred, truth),
        "end_reason": line.get("end_reason"),
        "chance_V": chance(session),
    }


def chance(session: dict[str, Any]) -> float | None:
    """V of a uniform random guesser that knows what the prompt says (the paper's chance levels): a label
    uniform among the allowed ones, then k uniform among the allowed ones, then a set uniform among the
    admissible sets of that size (k = 0 is the null answer)."""
    meta = session.get("metadata", {})
    sizes = meta.get("admissible_sets") or {}
    told = meta.get("k_told") or []
    k = session["k"]
    if not told or k not in told:
        return None
    labels = 3 if meta.get("allow_neither") else 2
    if k == 0:
        return 1 / labels
    ks = [x for x in told if x > 0]
    size = sizes.get(f"k{k}")
    if not size:
        return None
    if labels == 3:  # "neither" takes one label; A/B then choose k among 1..3
        return (1 / 3) * (1 / len(ks)) * (1 / size)
    return (1 / 2) * (1 / len(ks)) * (1 / size)


# ------------------------------------------------------------------------------------------------ aggregates
def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def aggregate(rows: Sequence[dict[str, Any]], seed: int = BOOTSTRAP_SEED, intervals: bool = True) -> dict[str, Any]:
    """The aggregates of a group of session rows; ``intervals=False`` skips the bootstrap intervals."""
    n = len(rows)
    out: dict[str, Any] = {"n": n}
    ci: dict[str, Any] = {}
    for key in BINARY:
        values = [r[key] for r in rows]
        out[key] = _mean(values)
        ci[key] = wilson(sum(values), n)
    for key in ("V_A_J", "precision", "recall", "E_ELX", "P_over_P_max"):
        values = [float(r[key]) for r in rows]
        out[key] = _mean(values)
    out["P_mean"] = _mean([r["P"] for r in rows])
    detected = [r for r in rows if r["V_K"] == 1]
    out["V_A_given_V_K"] = _mean([r["V_A"] for r in detected])
    out["n_V_K"] = len(detected)
    ci["V_A_given_V_K"] = wilson(sum(r["V_A"] for r in detected), len(detected))
    diffs = [float(r["V_K"] - r["V_A"]) for r in rows]
    out["gap"] = _mean(diffs)
    if intervals:  # paired: each resample keeps a session's V_K and V_A together
        columns = {key: [float(r[key]) for r in rows] for key in BOOTSTRAPPED}
        ci.update(bootstrap_intervals({**columns, "gap": diffs}, seed))
    out["under_budget"] = _mean([r["under_budget"] for r in rows])
    ci["under_budget"] = wilson(sum(r["under_budget"] for r in rows), n)
    failed = [r for r in rows if r["V"] == 0]
    out["n_failed"] = len(failed)
    out["failed_with_budget_left"] = _mean([r["under_budget"] for r in failed])
    misattributed = [r for r in rows if r["V_K"] == 1 and r["V_A"] == 0]
    out["attribution_failed_with_budget_left"] = _mean([r["under_budget"] for r in misattributed])
    graded = [r for r in detected if r["fault"] is not None]
    out["fault"] = {f: (_mean([int(r["fault"] == f) for r in graded]) if graded else None) for f in FAULTS}
    out["n_fault"] = len(graded)
    null = [r for r in rows if r["k"] == 0]
    if null:
        tn = sum(r["submitted_label"] == "neither" for r in null)
        fp = sum(r["submitted_label"] in ("A", "B") for r in null)
        out["null"] = {"n": len(null), "TN": tn, "FP": fp, "no_answer": len(null) - tn - fp,
                       "specificity": tn / len(null), "mean_probes": _mean([r["P"] for r in null])}
        ci["specificity"] = wilson(tn, len(null))
    out["submitted"] = _mean([int(r["submitted"]) for r in rows])
    chances = [r["chance_V"] for r in rows if r.get("chance_V") is not None]
    out["chance_V"] = _mean(chances) if len(chances) == n else None
    correct = [r for r in rows if r["V"] == 1]
    out["P_mean_correct"] = _mean([r["P"] for r in correct])
    out["ci95"] = ci
    return out


GROUPINGS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "by_k_class": lambda r: r["k_class"],
    "by_paper_k_class": lambda r: r["paper_k_class"],
    "by_level": lambda r: f"level{r['level']}",
    "by_level_k_class": lambda r: f"level{r['level']} {r['k_class']}",
    "by_set": lambda r: r["set"],
    "by_interaction_subtype": lambda r: r["subtype"] or r["interaction"],
}
K_ORDER = ("k0", "k1", "k2+", "k2x", "k3+", "k3x")
WITH_BOOTSTRAP = ("by_k_class", "by_paper_k_class", "by_level")  # (and "overall"); the others: Wilson only


def _order(key: str) -> tuple:
    for i, k in enumerate(K_ORDER):
        if key == k or key.endswith(" " + k):
            return (key.split(" ")[0] if " " in key else "", i)
    return (key, 0)


def summarize(rows: Sequence[dict[str, Any]], seed: int = BOOTSTRAP_SEED) -> dict[str, Any]:
    """``metrics.json``'s body: overall and grouped aggregates, plus every session's row."""
    out: dict[str, Any] = {"overall": aggregate(rows, seed)}
    for name, key in GROUPINGS.items():
        groups: dict[Any, list[dict[str, Any]]] = {}
        for r in rows:
            value = key(r)
            if value is not None:
                groups.setdefault(value, []).append(r)
        intervals = name in WITH_BOOTSTRAP
        out[name] = {g: aggregate(groups[g], seed, intervals) for g in sorted(groups, key=_order)}
    out["sessions"] = list(rows)
    return out
