"""What a newcomer hits (issue 26), each through the command line as a user types it: the exit code, one line
naming what is wrong and what to pass instead, no traceback, and nothing written where nothing should be.

Items: 1 an unreachable Hub; 3 rejudge of a run made from an export folder; 6 the wrong folder; 7 floods;
8 both spellings of the four-shot names; 9 a folder of runs, wording, .gitignore, the generator's table;
10 progress. (2 is tests/inspect/test_inspect_newcomer.py, 4 tests/test_docs_commands.py, 5
tests/lambdapy/test_lambdapy_cli.py.)
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLOSED_PORT = "http://127.0.0.1:9"  # nothing listens there: a connection is refused at once, no network needed


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "HF_TOKEN")}
    environment["PYTHONPATH"] = str(ROOT)
    environment.update(env or {})
    return subprocess.run([sys.executable, *args], cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=300)


def one_line(proc: subprocess.CompletedProcess[str], text: str, code: int = 2) -> str:
    assert proc.returncode == code, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and text in lines[0], proc.stderr
    return lines[0]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small export folder, a JSONL split, a folder of JSONL files, Elenchos-shaped files and a Parquet file."""
    from builder.export import export
    from generators.jsonl import write_jsonl
    from generators.split import generate, typed_slots

    root = tmp_path_factory.mktemp("newcomer")
    export(root / "MIRA-MATH", configs=["mira_zero_shot", "mira_few_shot"], code_commit="0" * 40,
           log=lambda _m: None, seed=1234, n_a=1, n_b=1, difficulties=(1,))
    write_jsonl(root / "zs.jsonl", generate(typed_slots(1, 1, (1,))[:4], 1234))
    (root / "data").mkdir()
    (root / "data" / "mira_zero_shot.jsonl").write_bytes((root / "zs.jsonl").read_bytes())
    elenchos = root / "elenchos-data"  # what python -m generators elenchos --sessions writes (first records only)
    elenchos.mkdir()
    (elenchos / "configurations.jsonl").write_text(json.dumps({"id": "cfg-null", "mutations": [], "k": 0,
                                                               "admissible": True}) + "\n")
    (elenchos / "ladder.jsonl").write_text(json.dumps({"id": "lad-000000", "level": 0, "k": 1,
                                                       "mutations": ["ID_01"], "corrupted_kernel": "B"}) + "\n")
    return root


def parquet_of(world: Path) -> Path:
    return next((world / "MIRA-MATH" / "mira_zero_shot").glob("*.parquet"))


# ------------------------------------------------------------------------------------------- 1: no network
@pytest.mark.parametrize(("env", "why"), [({"HF_ENDPOINT": CLOSED_PORT, "HF_HUB_OFFLINE": "0"},
                                           f"cannot reach the Hub at {CLOSED_PORT}: "),
                                          ({"HF_HUB_OFFLINE": "1"}, "offline mode is on (HF_HUB_OFFLINE is set)")],
                         ids=["closed-port", "HF_HUB_OFFLINE"])
def test_publish_dry_run_without_the_hub_prints_the_local_plan_then_one_line(world: Path, env: dict, why: str
                                                                             ) -> None:
    before = sorted(p.name for p in world.iterdir())
    proc = run("-m", "builder", "publish", "MIRA-MATH", "--repo-id", "org/name", "--dry-run", "--no-regenerate",
               cwd=world, env=env)
    one_line(proc, why)
    assert proc.stderr.startswith("publish: cannot reach the Hub at ")
    assert "\ndry run: the release in MIRA-MATH: " in "\n" + proc.stdout
    assert "  file mira_zero_shot/test-00000-of-00001.parquet (" in proc.stdout
    assert "  upload " not in proc.stdout  # nothing is said to be uploaded before the Hub was read
    assert sorted(p.name for p in world.iterdir()) == before


@pytest.mark.parametrize("command", [["mira", "--dataset", "org/name"], ["elenchos", "--sessions", "org/name"]],
                         ids=["mira", "elenchos"])
def test_a_hub_dataset_without_the_hub_is_one_line(world: Path, command: list[str]) -> None:
    proc = run(str(ROOT / "run_eval.py"), *command, "--out", "runs/offline", cwd=world,
               env={"HF_ENDPOINT": CLOSED_PORT, "HF_HUB_OFFLINE": "0"})
    one_line(proc, f"error: org/name: cannot reach the Hub at {CLOSED_PORT}: ")
    assert not (world / "runs" / "offline").exists()


# ------------------------------------------------------------------------------- 3: rejudge an export's run
def test_rejudge_reopens_a_run_made_from_an_export_folder(world: Path) -> None:
    made = run(str(ROOT / "run_eval.py"), "mira", "--dataset", "MIRA-MATH", "--config", "mira_zero_shot",
               "--limit", "3", "--out", "runs/from-export", "--quiet", cwd=world)
    assert made.returncode == 0, made.stderr
    proc = run(str(ROOT / "run_eval.py"), "rejudge", "runs/from-export", "--responder", "rule", "--out",
               "runs/rejudged", cwd=world)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    info = json.loads((world / "runs" / "rejudged" / "run.json").read_text())
    assert info["summary"]["full_agreement"] == 1.0  # the rule responder agrees with itself on every request
    assert len((world / "runs" / "rejudged" / "transcripts.jsonl").read_text().splitlines()) == 3
    # the same run against another file is refused in one line, and writes nothing
    proc = run(str(ROOT / "run_eval.py"), "rejudge", "runs/from-export", "--responder", "rule", "--out",
               "runs/rejudged-wrong", "--dataset", "zs.jsonl", cwd=world)
    one_line(proc, "is not the dataset the run was made on")
    assert not (world / "runs" / "rejudged-wrong").exists()


# ------------------------------------------------------------------------------------- 6, 7: wrong folders
def _wrong_sources(world: Path) -> list[tuple[list[str], str]]:
    parquet = parquet_of(world).relative_to(world)
    return [
        (["mira", "--dataset", "MIRA-MATH/mira_zero_shot"],
         "MIRA-MATH/mira_zero_shot is the mira_zero_shot folder of the export MIRA-MATH; pass --dataset MIRA-MATH "
         "--config mira_zero_shot"),
        (["mira", "--dataset", "data"], "data is a folder of JSONL files, not an export folder; pass one of them: "
                                        "--dataset data/mira_zero_shot.jsonl"),
        (["mira", "--dataset", str(parquet)], f"{parquet} is a Parquet file of the export MIRA-MATH; pass --dataset "
                                              "MIRA-MATH --config mira_zero_shot"),
        (["mira", "--dataset", "elenchos-data/ladder.jsonl"],
         "holds Elenchos sessions, not MIRA-Math instances; run it with run_eval.py elenchos --sessions"),
        (["mira", "--dataset", "MIRA-MATH", "--config", "elenchos_ladder"],
         "--config elenchos_ladder is an Elenchos config; MIRA-Math's are mira_zero_shot and mira_four_shot"),
        (["elenchos", "--sessions", "elenchos-data"],
         "elenchos-data is a python -m generators elenchos folder, not an export; pass one of its session files: "
         "--sessions elenchos-data/ladder.jsonl"),
        (["elenchos", "--sessions", "elenchos-data/configurations.jsonl"],
         "holds Elenchos configurations (configurations.jsonl), not Elenchos sessions; pass ladder.jsonl or "
         "benchmark.jsonl"),
        (["elenchos", "--sessions", "zs.jsonl"], "zs.jsonl holds MIRA-Math instances, not Elenchos sessions"),
        (["score", "data"], "data is not a run directory (no run.json) and holds none"),
        (["score", "no-such-run"], "no-such-run: no such run directory"),
        (["score", "zs.jsonl"], "zs.jsonl is a file; score takes run directories"),
    ]


def test_the_wrong_folder_or_file_says_what_it_is_in_one_line(world: Path) -> None:
    for command, message in _wrong_sources(world):
        out = world / "runs" / "wrong"
        extra = [] if command[0] == "score" else ["--out", "runs/wrong"]
        proc = run(str(ROOT / "run_eval.py"), *command, *extra, cwd=world)
        assert message in one_line(proc, message), command
        assert not out.exists(), command


def test_validate_names_what_to_do_with_an_export_folder_or_a_parquet_file(world: Path) -> None:
    for command in (["validate"], ["check-answer", "--id", "x", "1", "--dataset"]):
        one_line(run("-m", "verifiers", *command, "MIRA-MATH", cwd=world),
                 "MIRA-MATH is an export folder, not a JSONL file; python -m builder to-jsonl MIRA-MATH --config "
                 "mira_zero_shot --out FILE.jsonl writes one")
        one_line(run("-m", "verifiers", *command, str(parquet_of(world).relative_to(world)), cwd=world),
                 "is a Parquet file of the export MIRA-MATH; python -m builder to-jsonl MIRA-MATH --config "
                 "mira_zero_shot --out FILE.jsonl writes one")
        one_line(run("-m", "verifiers", *command, "MIRA-MATH/mira_zero_shot", cwd=world),
                 "MIRA-MATH/mira_zero_shot is the mira_zero_shot folder of the export MIRA-MATH; python -m builder "
                 "to-jsonl MIRA-MATH --config mira_zero_shot --out FILE.jsonl writes one")
        one_line(run("-m", "verifiers", *command, "elenchos-data/ladder.jsonl", cwd=world), "holds Elenchos sessions")


def test_many_bad_lines_print_a_few_and_a_count(world: Path) -> None:
    bad = world / "bad.jsonl"
    bad.write_text("".join(json.dumps({"id": f"x-{i}"}) + "\n" for i in range(40)))
    proc = run(str(ROOT / "run_eval.py"), "mira", "--dataset", "bad.jsonl", "--out", "runs/bad", cwd=world)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == "error: 40 problem(s):" and lines[-1] == "... and 35 more" and len(lines) == 7
    assert not (world / "runs" / "bad").exists()


# ------------------------------------------------------------------------------------------------ 8: names
def test_four_shot_and_few_shot_are_both_accepted(world: Path) -> None:
    for config in ("mira_four_shot", "mira_few_shot"):
        proc = run(str(ROOT / "run_eval.py"), "mira", "--dataset", "MIRA-MATH", "--config", config, "--limit", "1",
                   "--out", f"runs/{config}", "--quiet", cwd=world)
        assert proc.returncode == 0, proc.stderr
        info = json.loads((world / "runs" / config / "run.json").read_text())
        assert info["config"]["regime"] == "four_shot"
        proc = run("-m", "builder", "to-jsonl", "MIRA-MATH", "--config", config, "--out", f"{config}.jsonl",
                   cwd=world)
        assert proc.returncode == 0, proc.stderr
    assert (world / "mira_four_shot.jsonl").read_bytes() == (world / "mira_few_shot.jsonl").read_bytes()
    for regime in ("four_shot", "few_shot"):
        proc = run(str(ROOT / "run_eval.py"), "mira", "--dataset", "zs.jsonl", "--regime", regime, "--out",
                   f"runs/r-{regime}", cwd=world)
        one_line(proc, "the four-shot regime needs few_shot_examples (generate with --four-shot)")
        assert not (world / "runs" / f"r-{regime}").exists()


# --------------------------------------------------------------------------------- 9: folders of runs, words
def test_score_on_a_folder_of_runs_scores_each_run_inside(world: Path) -> None:
    for name in ("a", "b"):
        proc = run(str(ROOT / "run_eval.py"), "mira", "--dataset", "zs.jsonl", "--limit", "2", "--out",
                   f"several/{name}", "--quiet", cwd=world)
        assert proc.returncode == 0, proc.stderr
    proc = run(str(ROOT / "run_eval.py"), "score", "several", "--no-figures", cwd=world)
    assert proc.returncode == 0, proc.stderr
    assert "several is a folder of 2 run(s); scoring each: a, b" in proc.stderr
    assert "several/a/metrics.json: reproduced exactly" in proc.stderr
    assert "several/b/metrics.json: reproduced exactly" in proc.stderr


def test_an_elenchos_folder_is_named_with_an(world: Path) -> None:
    made = run(str(ROOT / "run_eval.py"), "elenchos", "--suite", "benchmark", "--limit", "1", "--out", "runs/elx",
               "--quiet", cwd=world)
    assert made.returncode == 0, made.stderr
    before = (world / "runs" / "elx" / "run.json").read_bytes()
    proc = run(str(ROOT / "run_eval.py"), "mira", "--dataset", "zs.jsonl", "--out", "runs/elx", "--quiet", cwd=world)
    one_line(proc, "runs/elx is an Elenchos run, not MIRA-Math; use a new --out directory")
    proc = run(str(ROOT / "run_eval.py"), "rejudge", "runs/elx", "--responder", "rule", "--out", "runs/rj-elx",
               cwd=world)
    one_line(proc, "runs/elx is an Elenchos run; rejudge reads MIRA-Math runs")
    assert (world / "runs" / "elx" / "run.json").read_bytes() == before
    assert not (world / "runs" / "rj-elx").exists()


def test_mira_help_names_every_kind_of_source(world: Path) -> None:
    proc = run(str(ROOT / "run_eval.py"), "--help", cwd=world)
    assert "on a JSONL file, an export folder or a Hub release" in " ".join(proc.stdout.split())


def test_the_generator_prints_a_table_and_json_on_request(world: Path) -> None:
    args = ["-m", "generators", "mira", "--family", "moment_problem", "--n", "2", "--difficulty", "1"]
    proc = run(*args, "--out", "t.jsonl", cwd=world)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("t.jsonl: 2 instances (zero-shot, seed 1234, generator ")
    assert lines[1].split() == ["family", "d1"] and lines[2].split() == ["moment_problem", "2"] and len(lines) == 3
    proc = run(*args, "--out", "t.jsonl", "--json", cwd=world)
    assert json.loads(proc.stdout)["counts"] == {"moment_problem/d1": 2}


def test_what_the_readme_and_inspect_write_is_ignored_by_git() -> None:
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "/zs.jsonl" in ignored and "/logs/" in ignored


def test_elenchos_sessions_need_triplets_in_one_line(world: Path) -> None:
    proc = run("-m", "generators", "elenchos", "--max-k", "2", "--sessions", "--out", "ed2", cwd=world)
    one_line(proc, "error: --sessions needs --max-k 3 or more (the Benchmark's sets have 3 mutations); got --max-k 2")
    assert not (world / "ed2").exists()


# ------------------------------------------------------------------------------------- 4: the probe example
def test_the_readmes_probe_example_runs_and_a_non_probe_exits_2(world: Path) -> None:
    proc = run("-m", "lambdapy", "probe", "--mutations", "ID_04,ID_06", str(ROOT / "lambdapy/examples/plus.lp"),
               cwd=world)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["result"] == "Succ (Succ (Succ (Succ Zero))) : Nat"  # 2 + 3 = 4 with ID_04,06
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```text\n", 1)[1].split("```", 1)[0]  # the README's LambdaPy block, pasted into a file
    (world / "pasted.lp").write_text(block, encoding="utf-8")
    proc = run("-m", "lambdapy", "probe", "pasted.lp", cwd=world)
    one_line(proc, "pasted.lp: not a probe (probe_error: only assume and let statements may precede the final eval")
    assert json.loads(proc.stdout)["epsilon"].startswith("probe_error: ")
    proc = run("-m", "lambdapy", "diff", "--a", "ID_08", "--b", "none", "pasted.lp", cwd=world)
    one_line(proc, "pasted.lp: not a probe (probe_error")


# ------------------------------------------------------------------------------------------- 10: progress
def test_the_family_computation_says_it_started(world: Path) -> None:
    proc = run("-m", "generators", "elenchos", "--max-k", "1", "--out", "ed1", cwd=world)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("computing F_<=1 under both Pi_RSA and both rules")


@pytest.mark.skipif(shutil.which("script") is None or sys.platform != "linux", reason="needs util-linux script")
def test_rejudge_shows_progress_on_a_terminal_only(world: Path) -> None:
    made = run(str(ROOT / "run_eval.py"), "mira", "--dataset", "zs.jsonl", "--limit", "3", "--out", "runs/src-bar",
               "--quiet", cwd=world)
    assert made.returncode == 0, made.stderr
    command = f"stty cols 100 rows 40; {shlex.quote(sys.executable)} {ROOT / 'run_eval.py'} rejudge runs/src-bar " \
              "--responder rule --out runs/rj-bar"
    on_terminal = subprocess.run(["script", "-qec", command, "/dev/null"], cwd=world, capture_output=True, text=True,
                                 timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert on_terminal.returncode == 0, on_terminal.stdout[-2000:]
    assert "rejudge: 100%" in on_terminal.stdout and "3/3" in on_terminal.stdout
    piped = run(str(ROOT / "run_eval.py"), "rejudge", "runs/src-bar", "--responder", "rule", "--out", "runs/rj-bar2",
                cwd=world)
    assert piped.returncode == 0 and "rejudge:" not in piped.stderr


def test_a_sessions_file_that_is_not_utf8_is_a_line_not_a_traceback(world: Path) -> None:
    (world / "latin1.jsonl").write_bytes(b'{"id": "caf\xe9"}\n')
    proc = run(str(ROOT / "run_eval.py"), "elenchos", "--sessions", "latin1.jsonl", "--out", "runs/latin1", cwd=world)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == ["error: 1 problem(s):",
                                        "latin1.jsonl:1: not UTF-8 text (byte 12 is 0xE9); JSONL files are UTF-8"]
    assert not (world / "runs" / "latin1").exists()
