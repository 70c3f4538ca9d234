"""``python -m verifiers import-reference``: the authors' published release, imported and re-verified.

The 22 released sample lines are read from ``../shared/reference-release/sample_instances.jsonl`` (beside the
checkout, read-only; the tests skip when it is absent). Extra release-format lines are synthesised from our own
generators, written back in the release's format by ``to_release`` below, so the importer is exercised on
instances it has never seen.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generators.answers import encode_answer
from generators.base import is_slot_notice
from generators.families import FAMILIES
from generators.instances import sample_valid
from harness.mira.dataset import load_dataset
from schemas import schema_errors
from verifiers.reference import (
    MAPPINGS,
    REASONS,
    ReferenceFormatError,
    convert_release,
    import_file,
    imported_instance_problems,
    summarise,
)
from verifiers.validate import NOTICE_TEXT

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "reference-release" / "sample_instances.jsonl"
needs_samples = pytest.mark.skipif(not SAMPLES.is_file(), reason=f"the shared release samples are absent ({SAMPLES})")

# The release's answer_type per family (its format: bayes/markov fractions and crt/geometry are dict_int).
RELEASE_ANSWER_TYPE = {
    "bayes_missing_prior": "dict_int", "crt_reconstruction": "dict_int", "geometry_coordinates": "dict_int",
    "graph_path_sums": "dict_int", "linear_system_separator": "dict_int", "matrix_completion": "int",
    "moment_problem": "dict_int", "phase_retrieval": "dict_int", "piecewise_missing_threshold": "int",
    "rankdef_linear_shared": "dict_int", "recurrence_missing_init": "int", "birth_death_missing_rate": "rational",
    "circuit_missing_resistance": "rational", "deconvolution": "dict_int", "discrete_tomography": "int",
    "eigenvector_missing_entry": "int", "laplace_grid": "int", "linear_system_missing_coeff": "rational",
    "markov_missing_transition": "dict_int", "poly_interpolation": "int", "portfolio_variance_missing_corr": "rational",
    "steady_state_missing_emission": "rational",
}

# Degenerate samples and why (see ../shared/docs/reference-implementation-notes.md §b, §h); the other 15 are not.
EXPECTED_DEGENERATE = {
    "rec-000612": "target_independent_of_hint",  # r = (2, -2), n = 8: a(8) = 16 for every a(1)
    "gra-000199": "pinned_by_positivity",  # e01 + e12 = 2 with weights >= 1 forces e01 = e12 = 1
    "ste-002169": "hint_determined_by_a",  # E[0][1] = 1 - E[0][0]: solvable without B
    "dis-001136": "no_witness",  # cell(0,1) = 0 would leave cell(0,0) open: no second completion
    "geo-000136": "pinned_by_construction",  # only Q - (12, 5) lies on L1 among the release's offsets
    "ran-000556": "pinned_by_range",  # A's line has one integer point in [-6, 6]^3
    "dec-000967": "violates_family_rule",  # kernel (-2, 0): every sample fixes one x_k on its own
}

# Samples whose imported A view does not put the hint's slot among A's candidates (no candidate_slots recorded):
NOT_LOCALIZABLE = {
    "pha-000439": [],  # |X|^2 = (0, 16, 0, 16): x0 is 0 in two of the four integer signals, so sign(x0) settles none
    "pol-001863": None,  # the release never told A where B's point is: A's view declares no evaluation points
    "dis-001136": [],  # cell(0,1) does not settle cell(0,0) (also no_witness)
}

# The release's sentences that told A what its partner knows: gone from the default view, the ablation's notices.
RELEASE_NOTICES = {
    "crt-000070": ("third congruence", "Your partner knows the third congruence x ≡ r3 (mod m3)."),
    "geo-000136": ("L2", "Your partner knows the second line L2."),
    "gra-000199": ("s3", "Your partner knows the path sum s3 = e01 + e20."),
    "lin-000256": ("c", "Your partner knows the value of exactly one of a, b and c."),
    "pha-000439": ("sign(x0)", "Your partner knows the sign of x0."),
    "ran-000556": ("equation (3)", "Your partner knows more linear equations in x, y and z, labelled (3), (4)."),
    "rec-000612": ("a(1)", "The initial value a(1) is an integer that is not given to you; your partner knows it."),
    "pol-001863": ("p(0)", "Your partner knows the value of p at one more point."),
}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifiers", "import-reference", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def sample_lines() -> list[str]:
    return SAMPLES.read_text(encoding="utf-8").splitlines()


def write_lines(path: Path, records: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sample_import(tmp_path_factory) -> dict[str, Any]:
    if not SAMPLES.is_file():
        pytest.skip(f"the shared release samples are absent ({SAMPLES})")
    out_dir = tmp_path_factory.mktemp("import")
    out, report = out_dir / "ours.jsonl", out_dir / "report.jsonl"
    proc = run_cli(str(SAMPLES), "--out", str(out), "--report", str(report))
    return {"proc": proc, "out": out, "report": report, "summary": json.loads(proc.stdout.splitlines()[-1])}


# ---------------------------------------------------------------------- the 22 released samples
@needs_samples
def test_every_sample_converts_and_its_answer_reverifies(sample_import) -> None:
    proc, summary = sample_import["proc"], sample_import["summary"]
    assert proc.returncode == 0, proc.stderr
    assert summary["instances"] == summary["converted"] == 22
    assert summary["answer_mismatch"] == summary["answer_unverified"] == 0
    assert summary["degenerate"] == len(EXPECTED_DEGENERATE)
    assert sorted(summary["by_family"]) == sorted(FAMILIES) == sorted(MAPPINGS)
    report = [json.loads(line) for line in sample_import["report"].read_text().splitlines()]
    assert [r["line"] for r in report] == list(range(1, 23))
    for r in report:
        assert r["converted"] and r["answer_reverified"], r
        assert r["answer"]["recomputed"] == r["answer"]["released"], r["id"]  # the release's own shape
        assert set(r["checks"]) == {"global_uniqueness", "local_underdetermination", "hint_sufficiency",
                                    "localizability"}
        assert r["checks"]["global_uniqueness"]["passed"] and r["checks"]["hint_sufficiency"]["passed"], r["id"]


@needs_samples
def test_degenerate_samples_are_flagged_for_the_right_reason(sample_import) -> None:
    report = {r["id"]: r for r in map(json.loads, sample_import["report"].read_text().splitlines())}
    for rid, r in report.items():
        codes = [x["code"] for x in r["reasons"]]
        assert set(codes) <= set(REASONS)
        if rid in EXPECTED_DEGENERATE:
            assert r["degenerate"] and codes[0] == EXPECTED_DEGENERATE[rid], (rid, r["reasons"])
        else:
            assert not r["degenerate"] and r["checks"]["local_underdetermination"]["passed"], (rid, r["reasons"])
    rec = report["rec-000612"]
    assert rec["checks"]["local_underdetermination"]["a_alone"].startswith("determined: 16")
    assert "a(1) = -2 gives 16" in rec["reasons"][0]["detail"]
    assert "1 - " not in report["ste-002169"]["reasons"][0]["detail"]  # the detail quotes the solver, not a guess
    assert not report["ste-002169"]["checks"]["local_underdetermination"]["passed"]
    # pinned only by facts A was never told: our checks on the imported view pass, the reason says what pins it
    assert report["gra-000199"]["checks"]["local_underdetermination"]["passed"]
    assert "positivity" in report["gra-000199"]["reasons"][0]["detail"]
    by_family = sample_import["summary"]["by_family"]
    assert by_family["recurrence_missing_init"]["degenerate_ids"] == ["rec-000612"]
    assert by_family["steady_state_missing_emission"]["reasons"] == {"hint_determined_by_a": 1}


@needs_samples
def test_converted_file_is_a_first_class_dataset(sample_import, tmp_path: Path) -> None:
    records = [json.loads(line) for line in sample_import["out"].read_text().splitlines()]
    assert [r["id"] for r in records] == [json.loads(line)["id"] for line in sample_lines()]  # original ids kept
    for r in records:
        assert schema_errors("mira_instance", r) == [], r["id"]
        assert imported_instance_problems(r) == [], r["id"]
        v = r["verifier"]
        assert v["source"] == "reference-import"
        assert (r["id"] in EXPECTED_DEGENERATE) == bool(v["degenerate"])
        if r["id"] not in EXPECTED_DEGENERATE:
            assert v["checks"] == ["global_uniqueness", "local_underdetermination", "hint_sufficiency",
                                   *([] if r["id"] in NOT_LOCALIZABLE else ["localizability"])]
        assert r["global_metadata"]["reference"]["record"]["id"] == r["id"]
    by_id = {r["id"]: r for r in records}
    assert by_id["bay-000001"]["answer_type"] == "rational"  # the release's dict_int fraction, now rational
    assert by_id["bay-000001"]["global_solution"] == {"numerator": 36, "denominator": 41}
    assert by_id["crt-000070"]["global_solution"] == {"value": 363}  # the release's {"x": 363}
    assert by_id["cir-000826"]["minimal_hint_spec"]["atomic_hints"][0]["slot"] == "R1"  # 0-based field -> R1
    assert "local_underdetermination" not in by_id["rec-000612"]["verifier"]["checks"]
    assert load_dataset(sample_import["out"]).instances  # run_eval's loader accepts it
    tampered = dict(by_id["mat-000319"], global_solution={"value": 2})
    assert ("global_solution", "differs from a fresh import of the embedded release record") in \
        imported_instance_problems(tampered)
    proc = run_cli(str(SAMPLES), "--out", str(tmp_path / "kept.jsonl"), "--exclude-degenerate",
                   "--report", str(tmp_path / "r.jsonl"))
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 0 and summary["written"] == 22 - len(EXPECTED_DEGENERATE)
    kept = {json.loads(line)["id"] for line in (tmp_path / "kept.jsonl").read_text().splitlines()}
    assert not kept & set(EXPECTED_DEGENERATE)


def a_view(record: dict[str, Any]) -> dict[str, Any]:
    return record["agent_views"][0]["private_data"]


def assert_default_view(record: dict[str, Any]) -> None:
    """What A sees states what A knows: no slot notice, no sentence saying what is missing or what B holds."""
    assert record["view_variant"] == "default", record["id"]
    assert not any(is_slot_notice(c) for c in a_view(record)["constraints_machine"]), record["id"]
    for text in [*a_view(record)["constraints_text"], record["question"]]:
        assert not NOTICE_TEXT.search(text), (record["id"], text)


@needs_samples
def test_imported_default_views_say_what_a_knows_never_what_b_holds(sample_import) -> None:
    records = {r["id"]: r for r in map(json.loads, sample_import["out"].read_text().splitlines())}
    for record in records.values():
        assert_default_view(record)
    # the domain statements name the quantity A lacks, without saying who holds it
    assert "x also satisfies a third congruence x ≡ r3 (mod m3); x is the unique integer" in \
        a_view(records["crt-000070"])["constraints_text"][-1]
    assert "the path sums are s1 = e01 + e12, s2 = e12 + e20, s3 = e01 + e20." in records["gra-000199"]["question"]
    assert records["geo-000136"]["question"].startswith("P = (x, y) is the intersection point of line L1 with a "
                                                        "second line L2. What is d(P, Q)")
    assert a_view(records["ran-000556"])["constraints_text"][-1] == (
        "x, y and z are integers; the linear equations in x, y and z of the system are labelled (1), (2), (3), (4).")
    assert a_view(records["rec-000612"])["constraints_text"][-1] == (
        "a(0), a(1), a(2), ... is a sequence of integers that satisfies the recurrence for every n >= 0.")
    assert "x0, x1, x2, x3 are integers." in a_view(records["pha-000439"])["constraints_text"]
    assert a_view(records["pol-001863"])["constraints_text"][0] == (
        "p is a polynomial in x of degree 3 with integer coefficients.")
    # a default record that announces the gap is rejected, by the notice rule as well as by the re-import
    rec = records["rec-000612"]
    told = {"type": "domain", "statement": "Your partner knows a(1).", "missing_slot": "a(1)"}
    loud = json.loads(json.dumps(rec))
    a_view(loud)["constraints_machine"].append(told)
    a_view(loud)["constraints_text"].append(told["statement"])
    assert any("must not tell A which slot is missing" in msg for _, msg in imported_instance_problems(loud))
    worded = json.loads(json.dumps(rec))
    a_view(worded)["constraints_text"][-1] += " Your partner knows a(1)."
    assert any("must not tell A what is missing" in msg for _, msg in imported_instance_problems(worded))


@needs_samples
def test_imported_candidate_slots_where_a_can_localize_the_gap(sample_import) -> None:
    records = {r["id"]: r for r in map(json.loads, sample_import["out"].read_text().splitlines())}
    report = {r["id"]: r for r in map(json.loads, sample_import["report"].read_text().splitlines())}
    for rid, record in records.items():
        check = report[rid]["checks"]["localizability"]
        slot = record["minimal_hint_spec"]["atomic_hints"][0]["slot"]
        if rid in NOT_LOCALIZABLE:
            assert not check["passed"] and check["candidates"] == NOT_LOCALIZABLE[rid], (rid, check)
            assert "candidate_slots" not in record["verifier"]
            assert "localizability" not in record["verifier"]["checks"]
        else:
            assert check["passed"] and slot in record["verifier"]["candidate_slots"], (rid, check)
            assert record["verifier"]["candidate_slots"] == check["candidates"]
            assert "localizability" in record["verifier"]["checks"]
    assert records["mar-001736"]["verifier"]["candidate_slots"] == ["P(0->0)", "P(0->1)"]
    assert records["lin-000256"]["verifier"]["candidate_slots"] == ["b", "c"]  # a separates nothing here
    assert records["dec-000967"]["verifier"]["candidate_slots"] == ["y_0"]  # the release's full convolution
    assert sample_import["summary"]["not_localizable"] == len(NOT_LOCALIZABLE)
    assert sample_import["summary"]["by_family"]["poly_interpolation"]["not_localizable"] == 1


@needs_samples
def test_slot_notice_import_keeps_the_release_sentences_as_notices(sample_import, tmp_path: Path) -> None:
    out = tmp_path / "notice.jsonl"
    proc = run_cli(str(SAMPLES), "--slot-notice", "--out", str(out), "--report", str(tmp_path / "r.jsonl"))
    assert proc.returncode == 0, proc.stderr
    default = {r["id"]: r for r in map(json.loads, sample_import["out"].read_text().splitlines())}
    for record in map(json.loads, out.read_text().splitlines()):
        rid, base = record["id"], default[record["id"]]
        assert record["view_variant"] == "slot_notice"
        assert imported_instance_problems(record) == [], rid
        slot = record["minimal_hint_spec"]["atomic_hints"][0]["slot"]
        machine, texts = a_view(record)["constraints_machine"], a_view(record)["constraints_text"]
        assert machine[:-1] == a_view(base)["constraints_machine"] and texts[:-1] == a_view(base)["constraints_text"]
        assert is_slot_notice(machine[-1]) and machine[-1]["missing_slot"] == slot, rid
        expected = RELEASE_NOTICES.get(rid, (slot, f"The value of {slot} is not given to you; your partner knows it."))
        assert (slot, texts[-1]) == expected, rid
        # the checks never read the notice: everything but A's view and the variant is the default record's
        assert {k for k in record if record[k] != base[k]} == {"agent_views", "view_variant"}, rid
        assert record["agent_views"][1] == base["agent_views"][1]
        # a notice view relabelled default is rejected; a default view relabelled slot_notice lacks its notice
        problems = imported_instance_problems(dict(record, view_variant="default"))
        assert any("must not tell A which slot is missing" in msg for _, msg in problems), rid
        problems = imported_instance_problems(dict(base, view_variant="slot_notice"))
        assert ("agent_views", "differs from a fresh import of the embedded release record") in problems, rid


@needs_samples
def test_an_altered_answer_fails_the_import_and_names_the_line(tmp_path: Path) -> None:
    lines = sample_lines()
    rec = json.loads(lines[10])
    assert rec["id"] == "rec-000612"
    rec["global_solution"] = {"value": 17}
    bay = json.loads(lines[0])
    bay["global_solution"] = {"numerator": 35, "denominator": 41}
    bad = write_lines(tmp_path / "bad.jsonl", [bay, *lines[1:10], rec, *lines[11:]])
    proc = run_cli(str(bad), "--out", str(tmp_path / "out.jsonl"))
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 1
    assert summary["answer_mismatch"] == 2 and summary["converted"] == 22
    assert f"{bad}:11 [rec-000612]: global_solution" in proc.stderr
    assert f"{bad}:1 [bay-000001]: global_solution" in proc.stderr
    written = {json.loads(line)["id"] for line in (tmp_path / "out.jsonl").read_text().splitlines()}
    assert "rec-000612" not in written and len(written) == 20  # a mismatching instance is never written
    stdout_report = [json.loads(line) for line in proc.stdout.splitlines()[:-1]]  # no --report: on stdout
    assert not stdout_report[10]["answer_reverified"] and stdout_report[10]["answer"]["recomputed"] == {"value": 16}


@needs_samples
def test_unknown_family_or_constraint_type_is_a_clear_error_naming_the_line(tmp_path: Path) -> None:
    lines = sample_lines()
    unknown_family = json.loads(lines[1])
    unknown_family["family"] = "crt_reconstruction_v2"
    unknown_type = json.loads(lines[5])
    unknown_type["agent_views"][0]["private_data"]["constraints_machine"][1]["type"] = "cell"
    bad = write_lines(tmp_path / "bad.jsonl", [lines[0], unknown_family, lines[2], lines[3], lines[4], unknown_type])
    proc = run_cli(str(bad), "--report", str(tmp_path / "r.jsonl"))
    assert proc.returncode == 1
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert summary["instances"] == 6 and summary["converted"] == 4
    assert f"{bad}:2 [crt-000070]: family: unknown family 'crt_reconstruction_v2'" in proc.stderr
    assert (f"{bad}:6 [mat-000319]: agent_views[0].private_data.constraints_machine[1].type: unknown constraint "
            "type 'cell'") in proc.stderr
    report = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [r["converted"] for r in report] == [True, False, True, True, True, False]
    assert report[5]["field"] == "agent_views[0].private_data.constraints_machine[1].type"
    with pytest.raises(ReferenceFormatError, match=r"x\.jsonl:7 \[mat-000319\]: global_metadata\.target: missing"):
        broken = json.loads(lines[5])
        del broken["global_metadata"]["target"]
        convert_release(broken, "x.jsonl", 7)
    assert run_cli(str(tmp_path / "missing.jsonl")).returncode == 2


@needs_samples
def test_few_shot_examples_are_mapped_to_our_example_format() -> None:
    bay = json.loads(sample_lines()[0])
    examples = []
    for seed in range(4):  # release-format worked examples, synthesised from our generator
        _, views, answer, _, _ = sample_valid(FAMILIES["bayes_missing_prior"], seed, 1)
        examples.append({"family": "bayes_missing_prior", "difficulty": 1,
                         "constraints": [f"P(E|H) = {Fraction(views.a[0]['num'], views.a[0]['denom'])}",
                                         f"P(E|not_H) = {Fraction(views.a[1]['num'], views.a[1]['denom'])}"],
                         "unknowns": ["P_H_given_E"], "request": "the prior P(H)",
                         "hint": f"P(H) = {Fraction(views.hint['num'], views.hint['denom'])}",
                         "answer": {"numerator": answer.numerator, "denominator": answer.denominator},
                         "answer_type": "dict_int"})
    record, _, _ = convert_release({**bay, "few_shot_examples": examples}, "fs.jsonl", 1)
    assert schema_errors("mira_instance", record) == []
    assert imported_instance_problems(record) == []
    got = record["few_shot_examples"]
    assert [e["answer"] for e in got] == [e["answer"] for e in examples]
    assert all(e["answer_type"] == "rational" and e["hint"] == x["hint"] and e["constraints"] == x["constraints"]
               for e, x in zip(got, examples, strict=True))
    assert "few_shot_examples" not in record["global_metadata"]["reference"]["record"]
    with pytest.raises(ReferenceFormatError, match=r"few_shot_examples: expected 4 worked examples, got 3"):
        convert_release({**bay, "few_shot_examples": examples[:3]}, "fs.jsonl", 1)


# ---------------------------------------------------------------------- release-format lines from our generator
def _plain(c: dict[str, Any], *drop: str) -> dict[str, Any]:
    return {k: v for k, v in c.items() if k not in drop}


def to_release(name: str, seed: int, difficulty: int, counter: int) -> dict[str, Any]:
    """One of our generated instances written in the release's format (machine dicts, metadata, answer shape)."""
    family = FAMILIES[name]
    z, views, answer, _, _ = sample_valid(family, seed, difficulty)
    d = family.effective_difficulty(difficulty)
    facts = [c for c in views.a if c["type"] != "domain"]
    a = [_plain(c, "name", "eq") for c in facts]
    b = [_plain(c, "name", "eq") for c in views.b]
    hint = _plain(views.hint, "name", "eq")
    texts_a = [family.render(c) for c in facts]
    texts_b: list[str] | None = None
    meta: dict[str, Any] = {}
    unknowns = list(views.unknowns)
    solution = encode_answer(family.answer_type, answer, list(family.keys_for(z)))
    if name == "crt_reconstruction":
        a, b, hint = ([_plain(c, "index") for c in x] for x in (a, b, [hint]))
        hint, solution = hint[0], {"x": answer}
    elif name == "geometry_coordinates":
        a, b = [a[0]], [b[0]]
        meta["point_q"] = list(z["Q"])
        texts_a = [f"{a[0]['coeffs']['x']}x + {a[0]['coeffs']['y']}y = {a[0]['rhs']}", "Q = ({}, {})".format(*z["Q"])]
    elif name == "graph_path_sums":
        b = [a[1], hint]  # the release's B repeats the shared sum s2
    elif name == "matrix_completion":
        meta["target"] = [views.target["row"], views.target["col"]]
    elif name == "moment_problem":
        b = [a[0], hint]
    elif name == "phase_retrieval":
        meta["value_range"] = z["bound"]
    elif name == "recurrence_missing_init":
        meta["target_n"] = views.target["index"]
    elif name in ("birth_death_missing_rate", "markov_missing_transition"):
        meta.update(n_states=z["n_states"], target_state=views.target["state"])
    elif name == "circuit_missing_resistance":
        groups = [c for c in facts if c["type"] == "topology"]
        sentences = [f"{g['parts'][0]} and {g['parts'][1]} are connected in {g['connection']}, forming "
                     + ("the total equivalent resistance." if g is groups[-1] else f"group {g['group']}.")
                     for g in groups]
        a = [{"type": "topology", "description": sentences}]
        a += [dict(c, resistor=c["resistor"] - 1) for c in facts if c["type"] == "resistance"]
        hint = dict(hint, resistor=hint["resistor"] - 1)
        b = [hint]
        meta["n_resistors"] = z["n_resistors"]
    elif name == "deconvolution":
        x, h, k = z["x"], z["h"], z["missing"]
        y = [sum(h[i] * x[j] for j in range(len(x)) for i in range(len(h)) if i + j == s)
             for s in range(len(x) + len(h) - 1)]
        eqs = [{"type": "conv_eq", "index": s, "value": v} for s, v in enumerate(y)]
        texts = [" + ".join(f"{h[s - j]}x{j}" for j in range(len(x) - 1, -1, -1) if 0 <= s - j < len(h))
                 + f" = {y[s]}" for s in range(len(y))]
        a, texts_a = [e for e in eqs if e["index"] != k], [t for s, t in enumerate(texts) if s != k]
        hint, texts_b = eqs[k], [texts[k]]
        b = [hint]
        meta.update(kernel=h, length_x=len(x), length_y=len(y), missing_index=k)
    elif name == "discrete_tomography":
        meta.update(size=[3, 3], target_cell=[views.target["row"], views.target["col"]])
    elif name == "eigenvector_missing_entry":
        meta.update(n=z["n"], missing_row=z["missing"][0], missing_col=z["missing"][1], target_col=z["target"][1])
    elif name == "laplace_grid":
        meta.update(grid_size=z["n"], target_cell=[int(p) for p in views.target["var"].split("_")[1:]])
        unknowns = [f"u_{i}_{j}" for i in range(z["n"]) for j in range(z["n"])]  # the release lists every cell
        b = [c for c in a if c["type"] == "lin_eq"] + [hint]  # the release's B repeats the equations
    elif name == "linear_system_missing_coeff":
        meta.update(n=z["n"], target_k=views.target["index"])
    elif name == "poly_interpolation":
        meta.update(degree=z["degree"], target_x=views.target["x"])
    elif name == "portfolio_variance_missing_corr":
        meta["n_assets"] = z["n_assets"]
    elif name == "steady_state_missing_emission":
        s, o = z["missing_state"], z["derived_symbol"]
        a.append({"type": "emission", "state": s, "symbol": o, **z["E"][s][o]})  # the release's A has it
        meta.update(n_states=z["n_states"], n_symbols=z["n_symbols"], target_symbol=z["target_symbol"],
                    missing_state=s)
    if RELEASE_ANSWER_TYPE[name] == "dict_int" and family.answer_type == "int":
        solution = {"value": answer}
    if name == "crt_reconstruction":
        solution = {"x": answer}

    def view(agent: str, constraints: list[dict[str, Any]], texts: list[str]) -> dict[str, Any]:
        return {"agent_id": agent, "private_data": {"unknowns": unknowns, "externals": [], "constraints_text": texts,
                                                      "constraints_machine": constraints}}

    return {
        "id": f"{family.prefix}-{counter:06d}", "family": name, "difficulty": d, "n_agents": 2,
        "answer_type": RELEASE_ANSWER_TYPE[name], "global_solution": solution, "global_metadata": meta,
        "agent_views": [view("A", a, texts_a), view("B", b, texts_b or [json.dumps(c) for c in b])],
        "minimal_hint_spec": {"k_min": 1, "atomic_hints": [{"hint_id": "h1", "kind": hint["type"],
                                                            **_plain(hint, "type"), "providers": ["B"],
                                                            "consumers": ["A"]}]},
    }


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_synthesised_release_lines_convert_and_reverify(name: str, tmp_path: Path) -> None:
    lines = [to_release(name, seed, difficulty, 100 * difficulty + seed)
             for difficulty in (1, 2, 3) for seed in (3, 4)]
    results = list(import_file(write_lines(tmp_path / "synth.jsonl", lines)))
    for r in results:
        assert r.error is None, str(r.error)
        assert r.report["answer_reverified"] and not r.unverified, r.report
        assert imported_instance_problems(r.record) == [], r.report["id"]
        assert_default_view(r.record)
    summary = summarise(results)
    assert summary["converted"] == len(lines) and summary["answer_mismatch"] == 0
    degenerate = {x["code"] for r in results for x in r.report["reasons"]}
    if name == "steady_state_missing_emission":  # the release's A holds the rest of the emission row
        assert all(r.report["reasons"][0]["code"] == "hint_determined_by_a" for r in results)
    elif name in ("bayes_missing_prior", "crt_reconstruction", "birth_death_missing_rate", "laplace_grid",
                  "circuit_missing_resistance", "linear_system_missing_coeff", "recurrence_missing_init"):
        assert not degenerate, [r.report["reasons"] for r in results]  # our generator's draws are sound here


def test_an_altered_synthesised_answer_is_a_mismatch(tmp_path: Path) -> None:
    line = to_release("circuit_missing_resistance", 5, 2, 7)
    line["global_solution"]["numerator"] += 1
    (result,) = import_file(write_lines(tmp_path / "one.jsonl", [line]))
    assert result.mismatch and not result.report["answer_reverified"]



def test_unreadable_release_lines_are_file_line_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000 + b"\n\xe9\n{bad\n")
    assert [str(r.error) for r in import_file(path)] == [
        f"{path}:1: (line): malformed JSON: nested too deeply",
        f"{path}:2: (line): not UTF-8 text (byte 1 is 0xE9); JSONL files are UTF-8",
        f"{path}:3: (line): malformed JSON at column 2: Expecting property name enclosed in double quotes"]

@needs_samples
def test_release_data_our_solver_rejects_are_reverified_by_formula_and_flagged() -> None:
    lines = sample_lines()
    pol = json.loads(lines[19])  # p(x) = 2x^2 + 1 as a "degree-3" instance: leading coefficient 0
    points = [{"type": "point", "x": x, "y": 2 * x * x + 1} for x in (0, 1, 2, 3)]
    pol["agent_views"][0]["private_data"]["constraints_machine"] = points[:3]
    pol["agent_views"][1]["private_data"]["constraints_machine"] = points[3:]
    pol["minimal_hint_spec"]["atomic_hints"][0].update(x=3, y=19)
    pol["global_metadata"].update(coeffs=[1, 0, 2, 0], target_x=4)
    pol["global_solution"] = {"value": 33}
    _, verdict, _ = convert_release(pol, "p.jsonl", 1)
    assert verdict.answer_reverified and verdict.answer_via == "the family's formula on the released values"
    assert [r["code"] for r in verdict.reasons][:1] == ["violates_domain"]
    assert "degree below 3" in verdict.reasons[0]["detail"]

    por = json.loads(lines[20])  # three assets, every correlation -3/4: not a correlation matrix
    a = por["agent_views"][0]["private_data"]
    a["constraints_machine"] = [
        *({"type": "weight", "asset": i, "num": 1, "denom": 3} for i in range(3)),
        *({"type": "std", "asset": i, "value": 1} for i in range(3)),
        {"type": "corr", "asset_i": 0, "asset_j": 2, "num": -3, "denom": 4},
        {"type": "corr", "asset_i": 1, "asset_j": 2, "num": -3, "denom": 4},
    ]
    por["agent_views"][1]["private_data"]["constraints_machine"] = [
        {"type": "corr", "asset_i": 0, "asset_j": 1, "num": -3, "denom": 4}]
    por["minimal_hint_spec"]["atomic_hints"][0].update(num=-3, denom=4)
    por["global_metadata"]["n_assets"] = 3
    por["global_solution"] = {"numerator": -1, "denominator": 6}  # a negative "variance"
    _, verdict, _ = convert_release(por, "p.jsonl", 2)
    assert verdict.answer_reverified and verdict.recomputed == Fraction(-1, 6)
    assert verdict.reasons[0]["code"] == "violates_domain" and "semidefinite" in verdict.reasons[0]["detail"]


@needs_samples
def test_b_alone_and_hint_independence_are_told_apart() -> None:
    rec = json.loads(sample_lines()[10])  # r2 = 0: a(n) = r1^(n-1) a(1) for n >= 1, so B alone knows a(5)
    for view in rec["agent_views"]:
        view["private_data"]["constraints_machine"][0]["coeffs"] = [2, 0]
    rec["global_metadata"].update(r2=0, target_n=5)
    rec["global_solution"] = {"value": -48}
    _, verdict, _ = convert_release(rec, "r.jsonl", 1)
    assert verdict.answer_reverified
    assert [r["code"] for r in verdict.reasons] == ["b_alone_determines"]
    assert verdict.checks["local_underdetermination"]["b_alone"] == "determined: -48 (equals the released answer)"
