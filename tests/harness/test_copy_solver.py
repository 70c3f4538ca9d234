"""The ``copy`` solver (a standing check that default views do not announce the gap) and the localization
cost that ``run_eval.py score DEFAULT NOTICE`` prints (issue 24, items 3 and 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators.jsonl import write_jsonl
from generators.split import generate, typed_slots
from harness import registry
from harness.mira.agents.copy_solver import CopySolver
from harness.mira.report import run_names, view_pairs
from harness.mira.run import MiraRunConfig, run_mira
from harness.mira.score import score_run, score_runs
from harness.mira.types import SolverTurn
from harness.rundir import read_transcripts

N_A, N_B = 2, 4  # every family and difficulty: 11 x 3 x 2 + 11 x 3 x 4 = 198 instances per variant


@pytest.fixture(scope="module")
def copy_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("copy")
    runs = {}
    for variant, slot_notice in (("default", False), ("slot_notice", True)):
        data = root / f"{variant}.jsonl"
        write_jsonl(data, generate(typed_slots(N_A, N_B), 1234, slot_notice=slot_notice))
        runs[variant] = root / f"copy_{variant}"
        run_mira(MiraRunConfig(dataset=str(data), out=str(runs[variant]), solver="copy", responder="rule",
                               progress=False))
    return runs


def by_type(run: Path) -> dict[str, dict]:
    return json.loads((run / "metrics.json").read_text())["by_type"]


def test_copy_solver_finds_the_gap_only_when_the_view_announces_it(copy_runs: dict[str, Path]) -> None:
    default, notice = by_type(copy_runs["default"]), by_type(copy_runs["slot_notice"])
    assert default["B"]["n"] == notice["B"]["n"] == 11 * 3 * N_B
    assert default["B"]["first_request_success"] <= 0.05
    assert notice["B"]["first_request_success"] >= 0.9
    # it asks once and then guesses, whatever it was offered
    assert default["B"]["avg_requests"] == notice["B"]["avg_requests"] == 1
    assert default["B"]["accuracy"] == notice["B"]["accuracy"]


def test_copy_solver_reads_only_its_own_turn() -> None:
    solver = registry.create("mira.solver", "copy")
    assert isinstance(solver, CopySolver) and not solver.privileged
    notice = {"type": "domain", "statement": "The rate mu_2 is not given here.", "missing_slot": "mu_2"}
    turn = SolverTurn(instance_id="x", family="f", question="What is pi_1?", constraints=["..."],
                      unknowns=["pi_1"], answer_type="rational", answer_keys=[], budget=3, requests_used=0,
                      must_answer=False, history=[], view_machine=[{"type": "rate", "value": 1}, notice])
    assert solver.act([turn])[0].request == "What is mu_2?"
    plain = SolverTurn(**{**turn.__dict__, "view_machine": [{"type": "rate", "value": 1}]})
    assert solver.act([plain])[0].request == "What is pi_1?"
    last = SolverTurn(**{**turn.__dict__, "must_answer": True})
    assert solver.act([last])[0].answer == {"numerator": 0, "denominator": 1}


def test_transcripts_record_the_view_variant(copy_runs: dict[str, Path]) -> None:
    for variant, run in copy_runs.items():
        records = read_transcripts(run / "transcripts.jsonl").records.values()
        assert {r["view_variant"] for r in records} == {variant}
        assert json.loads((run / "run.json").read_text())["dataset"]["view_variants"] == [variant]


def test_score_prints_the_localization_cost(copy_runs: dict[str, Path], tmp_path: Path, capsys) -> None:
    runs = score_runs([str(copy_runs["default"]), str(copy_runs["slot_notice"])], out=str(tmp_path / "cmp"),
                      figures=False)
    out = capsys.readouterr().out
    assert "Localization cost: copy/rule ZS" in out
    assert [(d.view_variant, n.view_variant) for d, n in view_pairs(runs)] == [("default", "slot_notice")]
    cost = json.loads((tmp_path / "cmp" / "comparison.json").read_text())["localization_cost"]
    groups = cost[0]["groups"]
    default, notice = by_type(copy_runs["default"]), by_type(copy_runs["slot_notice"])
    frs = groups["Type B"]["first_request_success"]
    assert frs["cost"] == notice["B"]["first_request_success"] - default["B"]["first_request_success"]
    assert frs["cost"] >= 0.85
    assert groups["Type B"]["accuracy"]["cost"] == 0  # the copier guesses either way
    assert groups["deconvolution"]["first_request_success"]["slot_notice"] == 1
    assert "Localization cost" in (tmp_path / "cmp" / "comparison.md").read_text()
    assert "| copy/rule, slot notice ZS |" in (tmp_path / "cmp" / "comparison.md").read_text()  # a column each
    assert run_names(runs) == ["copy/rule", "copy/rule, slot notice"]
    assert run_names([runs[0], runs[0]]) == [f"copy/rule [{runs[0].path.name}]"] * 2  # the same agents, other data


def test_localization_cost_comes_from_the_transcripts_alone(copy_runs: dict[str, Path], tmp_path: Path) -> None:
    bare = {}
    for variant, run in copy_runs.items():
        bare[variant] = tmp_path / variant
        bare[variant].mkdir()
        (bare[variant] / "transcripts.jsonl").write_bytes((run / "transcripts.jsonl").read_bytes())
    runs = [score_run(bare["default"], figures=False), score_run(bare["slot_notice"], figures=False)]
    assert [r.view_variant for r in runs] == ["default", "slot_notice"]
    assert len(view_pairs(runs)) == 1


def test_runs_over_other_instances_are_not_paired(copy_runs: dict[str, Path], tmp_path: Path) -> None:
    data = tmp_path / "few.jsonl"
    write_jsonl(data, generate(typed_slots(1, 1), 1234, slot_notice=True))
    other = tmp_path / "other"
    run_mira(MiraRunConfig(dataset=str(data), out=str(other), solver="copy", responder="rule", progress=False))
    runs = [score_run(copy_runs["default"], figures=False, write=False), score_run(other, figures=False, write=False)]
    assert view_pairs(runs) == []


@pytest.mark.parametrize(
    ("lines", "found"),
    [
        # a name given a value (NAME = value, NAME = expr = value, NAME: expr = value) is not asked for
        (["lambda_0 = 1: from state 0 up.", "Every rate lambda_i is positive; mu_2 is a rate."], "mu_2"),
        (["s1 = e01 + e12 = 3", "s2 = e12 + e20 = 4"], "e01"),
        (["First moment m1: q1 + 2q2 = 15", "m1 and m2 are moments"], "q1"),
        (["Sum m0: 3 + 4 = 7", "m0 and m2 are moments"], "m2"),
        (["R1 = 2 ohms", "G1 consists of R1 and R3 (G1 = R1 + R3)."], "G1"),
        # the right-hand side of an equation gives no value to the name before "="
        (["Equation 1: -3a + 5b - c = -17"], "c"),
        # templates with letter indices, index letters and the article are not names
        (["cell(i,j) is the entry in row i of G", "u_i_j and x_j and A[i][0] and a(n+2)"], "G"),
        (["M[r][c] is the entry in row r and column c of a matrix", "v[0] = 1"], None),
        # names of every shape the views use
        (["P(1->2) = 1/3", "rho(1,2) = -1/2", "p(3) = 4", "a(1) = 2", "sign(x0) = +1", "P(H) = 1/2", "E[2][1] = 1/4",
          "y_3 = 7", "u_2_0 = -4", "m10 = 3", "R4 = 5 ohms", "x = (1, 2)", "P(E|H) is given by rho(0,2)"], "P(E|H)"),
        # an enumeration of all the slots of a kind is skipped; a name also mentioned elsewhere is not
        (["The rates are lambda_0, lambda_1, lambda_2 and mu_1.", "lambda_0 = 1", "lambda_2 = 3", "mu_1 = 2"], None),
        (["Resistors R1, R2, R3.", "G1 = R1 + R3 ohms", "R1 = 2 ohms", "R2 = 3 ohms"], "G1"),
        (["Resistors R1, R2, R3.", "R1 = 2 ohms", "R2 = 3 ohms", "G1 joins R1 and R3 in series."], "G1"),
        (["Resistors R1, R2, R3.", "R1 = 2 ohms", "R2 = 3 ohms", "R1 and R3 in series."], "R3"),
    ],
)
def test_the_scan_finds_the_first_quantity_mentioned_without_a_value(lines: list[str], found: str | None) -> None:
    from harness.mira.agents.copy_solver import first_unvalued_name

    assert first_unvalued_name(lines) == found


def test_copy_literal_reads_the_enumerations() -> None:
    from harness.mira.agents.copy_solver import first_unvalued_name

    lines = ["The rates are lambda_0, lambda_1, lambda_2 and mu_1.", "lambda_0 = 1", "lambda_2 = 3", "mu_1 = 2"]
    assert first_unvalued_name(lines, skip_enumerations=False) == "lambda_1"
    literal = registry.create("mira.solver", "copy:literal")
    turn = SolverTurn(instance_id="x", family="f", question="What is pi_1?", constraints=lines, unknowns=["pi_1"],
                      answer_type="rational", answer_keys=[], budget=3, requests_used=0, must_answer=False,
                      history=[], view_machine=[])
    assert literal.act([turn])[0].request == "What is lambda_1?"
    assert registry.create("mira.solver", "copy").act([turn])[0].request == "What is pi_1?"
