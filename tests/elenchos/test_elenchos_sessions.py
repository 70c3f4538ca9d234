"""Session records: the paper's design, seeds, schema."""

from __future__ import annotations

from collections import Counter

from elenchos.sessions import count, session_seed, sessions
from schemas import schema_errors


def test_ladder_design(ladder: list[dict]) -> None:
    assert len(ladder) == count("ladder") == 345  # 23 sets x 3 levels x 5 repetitions
    assert Counter(r["level"] for r in ladder) == {0: 115, 1: 115, 2: 115}
    assert Counter(r["k"] for r in ladder) == {1: 195, 2: 150}
    assert Counter(r["metadata"]["paper_order"] for r in ladder) == {"k1": 195, "k2+": 105, "k2x": 45}
    assert {r["probe_budget"] for r in ladder} == {50} and {r["corrupted_kernel"] for r in ladder} == {"A", "B"}
    assert {(r["level"], r["k"], r["prompt"]) for r in ladder} == {
        (0, 1, "ladder_single_split_probe"), (0, 2, "ladder_double_split_probe"), (1, 1, "ladder_single_split"),
        (1, 2, "ladder_double_split"), (2, 1, "ladder_mix"), (2, 2, "ladder_mix")}
    assert all(r["metadata"]["k_told"] == ([r["k"]] if r["level"] < 2 else [1, 2]) for r in ladder)


def test_benchmark_design(benchmark: list[dict]) -> None:
    assert len(benchmark) == count("benchmark") == 70  # 14 sets x 5
    assert Counter(r["metadata"]["paper_order"] for r in benchmark) == {"k0": 5, "k1": 30, "k2+": 15, "k2x": 5,
                                                                       "k3+": 15}
    null = [r for r in benchmark if r["k"] == 0]
    assert all(r["corrupted_kernel"] == "neither" and r["mutations"] == [] for r in null)
    assert {r["probe_budget"] for r in benchmark} == {65} and {r["level"] for r in benchmark} == {3}


def test_records_validate_and_are_deterministic(ladder: list[dict], benchmark: list[dict]) -> None:
    for r in ladder + benchmark:
        assert schema_errors("elenchos_session", r) == [], r["id"]
    assert list(sessions("benchmark")) == benchmark
    other = list(sessions("benchmark", seed=99))
    assert [r["seed"] for r in other] != [r["seed"] for r in benchmark]
    labels = Counter(r["corrupted_kernel"] for r in ladder)
    assert 120 < labels["A"] < 225  # a fair coin per session
    assert session_seed(1234, "ladder", 0, ("ID_01",), 0) == ladder[0]["seed"]
    assert len({r["id"] for r in ladder}) == 345 and ladder[0]["id"] == "lad-000000"
