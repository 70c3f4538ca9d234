"""The deterministic agents through the audit loop: SRA, the information-optimal agent, random."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from elenchos.family import Family, level0_probes
from elenchos.sessions import BENCHMARK_LEVEL, session_seed
from harness.elenchos.agents.optimal import OptimalAgent
from harness.elenchos.agents.random_agent import RandomAgent
from harness.elenchos.agents.sra import SimpleReflexAgent
from harness.elenchos.episode import AGENT, ElenchosEpisode
from harness.elenchos.types import ElenchosAgent
from harness.scheduler import run_episodes
from schemas import schema_errors


def play(agent: ElenchosAgent, records: Iterable[dict], max_concurrent: int | None = None) -> list[dict]:
    lines: list[dict] = []
    episodes = [ElenchosEpisode(r, level0_probes()) for r in records]
    run_episodes(episodes, {AGENT: agent.act}, [AGENT], lambda done: lines.extend(e.record_line() for e in done),
                 max_concurrent)
    return sorted(lines, key=lambda line: line["instance_id"])


@pytest.fixture(scope="module")
def sra_lines(fam: Family, ladder: list[dict], benchmark: list[dict]) -> list[dict]:
    return play(SimpleReflexAgent(fam), [*ladder, *benchmark])


def test_sra_scores_v1_on_every_singleton_and_sra_recoverable_session(fam: Family, sra_lines: list[dict]) -> None:
    for line in sra_lines:
        m = line["live_metrics"]
        assert line["end_reason"] == "submitted" and m["V_K"] == 1
        if line["session"]["metadata"]["interaction_sra"] in ("none", "single", "additive"):
            assert m["V"] == 1 and m["E_ELX"] > 1.4, line["instance_id"]
        assert m["P"] == len(fam.pi.probes) == 13  # it always sends the whole of Pi_RSA (the Level-0 probes)


@pytest.mark.parametrize("choice", ["level0", "cover"])
def test_sra_guarantee_holds_on_every_sra_recoverable_set(choice: str, fam: Family, cover_fam: Family) -> None:
    """V = 1 on every set of F_<=3 that is additive under the SRA-recoverable rule, on either Pi_RSA."""
    fam = {"level0": fam, "cover": cover_fam}[choice]
    records = [r for r in every_admissible_session(fam)
               if fam.get(r["mutations"]).kind_sra in ("none", "single", "additive")]
    lines = play(SimpleReflexAgent(fam), records)
    assert [line["live_metrics"]["V"] for line in lines] == [1] * len(records)
    assert {line["live_metrics"]["P"] for line in lines} == {len(fam.pi.probes)}


def test_sra_on_interacting_sets_is_reported_as_it_is(sra_lines: list[dict]) -> None:
    interacting = [line["live_metrics"] for line in sra_lines if line["live_metrics"]["k_class"] in ("k2x", "k3x")]
    assert interacting and any(m["V"] == 0 for m in interacting)
    assert all(m["V_K"] == 1 for m in interacting)


def test_sra_transcripts_validate(sra_lines: list[dict]) -> None:
    for line in sra_lines[:50]:
        assert schema_errors("elenchos_transcript", line) == []
        for event in line["events"]:
            assert schema_errors("elenchos_tool_call", {"tool": event["tool"], "arguments": event["arguments"]}) == []


def every_admissible_session(fam: Family) -> list[dict]:
    """Level-3 sessions for every admissible set of F_1..F_3 (and the null case), kernel A or B by seed."""
    sizes = {f"k{k}": len(fam.admissible(k)) for k in (1, 2, 3)}
    out = []
    for i, cand in enumerate(fam.admissible()):
        label = "neither" if cand.k == 0 else "AB"[session_seed(1, "benchmark", 3, cand.ids, 0) % 2]
        out.append({"id": f"ben-{i:06d}", "level": BENCHMARK_LEVEL, "prompt": "stress_test", "k": cand.k,
                    "mutations": list(cand.ids), "interaction": cand.kind, "classes": [], "corrupted_kernel": label,
                    "repetition": 0, "seed": i, "probe_budget": 65,
                    "metadata": {"suite": "benchmark", "k_told": [0, 1, 2, 3], "allow_neither": True,
                                 "admissible_sets": sizes}, "generator_version": "test"})
    return out


def test_optimal_agent_scores_v1_on_every_admissible_set(fam: Family) -> None:
    records = every_admissible_session(fam)
    assert len(records) == 1 + sum(len(fam.admissible(k)) for k in (1, 2, 3))
    lines = play(OptimalAgent(fam), records)
    assert [line["live_metrics"]["V"] for line in lines] == [1] * len(records)
    assert max(line["live_metrics"]["P"] for line in lines) <= 12


def test_optimal_agent_on_the_suites_needs_fewer_probes_than_the_sra(fam: Family, ladder: list[dict],
                                                                     benchmark: list[dict],
                                                                     sra_lines: list[dict]) -> None:
    lines = play(OptimalAgent(fam), [*ladder, *benchmark])
    assert all(line["live_metrics"]["V"] == 1 for line in lines)
    mean = sum(line["live_metrics"]["P"] for line in lines) / len(lines)
    sra_mean = sum(line["live_metrics"]["P"] for line in sra_lines) / len(sra_lines)
    assert mean < sra_mean


def test_batched_and_one_by_one_runs_give_the_same_transcripts(fam: Family, benchmark: list[dict]) -> None:
    agent = OptimalAgent(fam)
    assert play(agent, benchmark) == play(OptimalAgent(fam), benchmark, max_concurrent=1)


def test_random_agent_is_seeded_and_near_chance(fam: Family, ladder: list[dict]) -> None:
    first = play(RandomAgent(seed=3, fam=fam), ladder)
    assert first == play(RandomAgent(seed=3, fam=fam), ladder)
    assert first != play(RandomAgent(seed=4, fam=fam), ladder)
    rows = [line["live_metrics"] for line in first]
    assert all(r["P"] == 0 and r["submitted"] for r in rows)
    v_k = sum(r["V_K"] for r in rows) / len(rows)
    assert 0.35 < v_k < 0.65  # two labels at Levels 0-2
    observed = sum(r["V"] for r in rows)
    expected = sum(r["chance_V"] for r in rows)
    assert abs(observed - expected) < 4 * expected ** 0.5 + 2
