"""Scoring formulas on hand-made cases: E_ELX, Jaccard, precision/recall, faults, Wilson, bootstrap."""

from __future__ import annotations

import math

import pytest

from harness.elenchos.metrics import aggregate, bootstrap, chance, e_elx, fault, jaccard, precision, recall, wilson


def test_e_elx_equation_1() -> None:
    assert e_elx(1, 0, 50) == 1.5
    assert e_elx(1, 50, 50) == 1.0
    assert e_elx(0, 3, 50) == 0.0
    assert e_elx(1, 25, 50) == pytest.approx(1 + 0.5 * (1 - 0.125))
    assert e_elx(1, 14, 65) == pytest.approx(1.4950, abs=1e-4)  # the paper's SRA: P/P_max = 0.22 -> ~1.50


def test_jaccard_precision_recall() -> None:
    assert jaccard([], []) == 1.0  # J(empty, empty) = 1 (paper Table 2 at k = 0)
    assert jaccard(["ID_01"], ["ID_01", "ID_03"]) == 0.5
    assert jaccard(["ID_02"], ["ID_01"]) == 0.0
    assert jaccard(["ID_01", "ID_02", "ID_03"], ["ID_01", "ID_03"]) == pytest.approx(2 / 3)
    assert precision(["ID_01", "ID_02"], ["ID_01", "ID_03"]) == 0.5
    assert recall(["ID_01"], ["ID_01", "ID_03"]) == 0.5
    assert precision([], []) == recall([], []) == 1.0
    assert precision([], ["ID_01"]) == 0.0 and recall(["ID_01"], []) == 0.0


def test_fault_categories() -> None:
    t = ["ID_01", "ID_03"]
    assert fault(t, t) == "correct"
    assert fault(["ID_01"], t) == "incomplete"
    assert fault(["ID_01", "ID_05"], t) == "mixed"
    assert fault(["ID_01", "ID_03", "ID_05"], t) == "mixed"  # a superset: correct ones plus a wrong one
    assert fault(["ID_05"], t) == "incorrect" and fault([], t) == "incorrect"
    assert fault([], []) is None


def test_wilson_interval_known_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == pytest.approx(1.0)
    assert wilson(0, 0) is None


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    values = [0.0, 1.0] * 50
    assert bootstrap(values) == bootstrap(values)
    low, high = bootstrap(values)
    assert low < 0.5 < high and high - low < 0.25
    assert bootstrap([1.0] * 7) == (1.0, 1.0)
    assert bootstrap([]) is None


def row(v_k: int, v_a: int, k: int = 1, probes: int = 10, label: str = "A", sub: str | None = "A") -> dict:
    return {"V_K": v_k, "V_A": v_a, "V": v_k * v_a, "V_A_J": float(v_a), "precision": float(v_a),
            "recall": float(v_a), "E_ELX": e_elx(v_k * v_a, probes, 50), "P": probes, "P_over_P_max": probes / 50,
            "under_budget": int(probes < 50), "fault": None if k == 0 else ("correct" if v_a else "incorrect"),
            "k": k, "submitted": sub is not None, "submitted_label": sub, "chance_V": 0.1}


def test_aggregate_on_hand_made_sessions() -> None:
    rows = [row(1, 1), row(1, 0), row(1, 0, probes=50), row(0, 0)]
    m = aggregate(rows)
    assert m["V"] == 0.25 and m["V_K"] == 0.75 and m["V_A"] == 0.25
    assert m["V_A_given_V_K"] == pytest.approx(1 / 3) and m["gap"] == 0.5
    assert m["failed_with_budget_left"] == pytest.approx(2 / 3)
    assert m["attribution_failed_with_budget_left"] == 0.5  # Table 9's <P_max: over V_K = 1, V_A = 0
    assert m["fault"] == {"correct": pytest.approx(1 / 3), "incomplete": 0.0, "mixed": 0.0,
                          "incorrect": pytest.approx(2 / 3)}
    low, high = m["ci95"]["gap"]
    assert low <= 0.5 <= high
    none = aggregate([row(0, 0)])
    assert none["V_A_given_V_K"] is None and math.isfinite(none["V"])


def test_null_case_specificity() -> None:
    rows = [row(1, 1, k=0, sub="neither", probes=3), row(0, 0, k=0, sub="A"), row(0, 1, k=0, sub=None)]
    null = aggregate(rows)["null"]
    assert (null["TN"], null["FP"], null["no_answer"]) == (1, 1, 1) and null["specificity"] == pytest.approx(1 / 3)


def test_chance_levels_are_the_papers() -> None:
    meta = {"admissible_sets": {"k1": 13, "k2": 64, "k3": 100}}
    assert chance({"k": 1, "metadata": {**meta, "k_told": [1], "allow_neither": False}}) == pytest.approx(1 / 26)
    assert chance({"k": 2, "metadata": {**meta, "k_told": [2], "allow_neither": False}}) == pytest.approx(1 / 128)
    assert chance({"k": 0, "metadata": {**meta, "k_told": [0, 1, 2, 3], "allow_neither": True}}) == pytest.approx(1 / 3)
    assert chance({"k": 1, "metadata": {**meta, "k_told": [0, 1, 2, 3], "allow_neither": True}}) == pytest.approx(
        1 / 3 * 1 / 3 * 1 / 13)
