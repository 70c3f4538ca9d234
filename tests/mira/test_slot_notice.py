"""The slot-notice ablation from the command line, and validate's candidate counts (issue 24)."""

from __future__ import annotations

import json

from generators.__main__ import main as generate_main
from verifiers.__main__ import main as verifiers_main


def test_cli_writes_both_variants_and_validate_counts_candidates(tmp_path, capsys) -> None:
    files = {}
    for variant, extra in (("default", []), ("slot_notice", ["--slot-notice"])):
        out = tmp_path / f"{variant}.jsonl"
        assert generate_main(["mira", "--family", "markov_missing_transition", "--n", "2", "--out", str(out), "--json",
                              *extra]) == 0
        assert json.loads(capsys.readouterr().out)["view_variant"] == variant
        files[variant] = [json.loads(line) for line in out.read_text().splitlines()]
        assert verifiers_main(["validate", str(out), "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["candidates"] == {"markov_missing_transition": {
            "records": 6, "min": 2, "mean": 2.0, "max": 2, "histogram": {"2": 6}}}
    for a, b in zip(files["default"], files["slot_notice"], strict=True):
        texts_a = a["agent_views"][0]["private_data"]["constraints_text"]
        texts_b = b["agent_views"][0]["private_data"]["constraints_text"]
        assert [t for t in texts_b if t not in texts_a] == [next(t for t in texts_b if "partner knows" in t)]
        assert a["verifier"] == b["verifier"] and a["minimal_hint_spec"] == b["minimal_hint_spec"]


def test_default_file_with_a_notice_fails_validation(tmp_path, capsys) -> None:
    notice = tmp_path / "notice.jsonl"
    assert generate_main(["mira", "--family", "laplace_grid", "--n", "1", "--difficulty", "1", "--slot-notice",
                          "--out", str(notice)]) == 0
    record = json.loads(notice.read_text())
    record["view_variant"] = "default"  # the ablation's view passed off as the default
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(record) + "\n")
    capsys.readouterr()
    assert verifiers_main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "a default view must not tell A which slot is missing" in err and "bad.jsonl:1" in err


def test_view_without_the_declaration_candidates_come_from_is_one_line(tmp_path, capsys) -> None:
    out = tmp_path / "ste.jsonl"
    assert generate_main(["mira", "--family", "steady_state_missing_emission", "--n", "1", "--difficulty", "1",
                          "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    for c in record["agent_views"][0]["private_data"]["constraints_machine"]:
        c.pop("n_symbols", None)  # the solver reads the size from the target; candidate_slots needs the statement's
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(record) + "\n")
    capsys.readouterr()
    assert verifiers_main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:1 ") and "localizability check failed: the observation symbols" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_validate_prints_a_short_summary_by_default(tmp_path, capsys) -> None:
    paths = []
    for family in ("markov_missing_transition", "bayes_missing_prior"):
        paths.append(tmp_path / f"{family}.jsonl")
        assert generate_main(["mira", "--family", family, "--n", "1", "--out", str(paths[-1])]) == 0
    capsys.readouterr()
    assert verifiers_main(["validate", *map(str, paths)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{paths[0]}: 3 instances, 0 error(s)",
        "  candidate slots per instance: markov_missing_transition 2",
        f"{paths[1]}: 3 instances, 0 error(s)",
        "  candidate slots per instance: 1 in 1 family",
    ]
