"""Run folders and logs from elsewhere (issue 25): nothing outside them is read or written, one writer at a time.

The fuzz corpus (``untrusted_corpus.cases``) runs ``run_eval.py`` in-process on crafted run folders: exit 2 and one
line (or exit 0 where the command must simply succeed, e.g. scoring through planted links), no traceback, no hang
(5 s), no file outside the scratch folder touched. The lock tests use real subprocesses.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from generators.safefs import FolderLock
from harness.errors import HarnessError
from harness.rundir import TranscriptWriter, end_session_failed, write_json_atomic
from tests.harness import untrusted_corpus as corpus

ROOT = Path(__file__).resolve().parents[2]
CASES = corpus.cases()


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> corpus.Bases:
    return corpus.build_bases(tmp_path_factory.mktemp("bases"))


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    corpus.prepare_outside(folder)
    return folder


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_crafted_run_folder(case: corpus.Case, bases: corpus.Bases, outside: Path, tmp_path: Path) -> None:
    outcome = corpus.run_case(case, tmp_path / "scratch", outside, bases)
    assert corpus.problems(case, outcome) == []


def test_the_corpus_covers_every_category() -> None:
    assert {c.category for c in CASES} >= {"writes", "reads", "schema", "bounded"}
    assert len(CASES) >= 80


# ------------------------------------------------------------------------------------------ writes
def test_score_replaces_planted_links_with_files(bases: corpus.Bases, outside: Path, tmp_path: Path) -> None:
    case = CASES[0]
    outcome = corpus.run_case(case, tmp_path / "scratch", outside, bases)
    assert corpus.problems(case, outcome) == []
    run = tmp_path / "scratch" / "run"
    for name in ("report.md", "per_instance.csv", "scores.json", "metrics.json"):
        assert (run / name).is_file() and not (run / name).is_symlink()
    assert (outside / "target-report.md").read_text() == "precious report.md\n"


def test_transcript_writer_refuses_links_and_fifos(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.jsonl").write_text("")
    (tmp_path / "linked.jsonl").symlink_to(tmp_path / "elsewhere.jsonl")
    with pytest.raises(HarnessError, match="symbolic link"):
        TranscriptWriter(tmp_path / "linked.jsonl")
    os.mkfifo(tmp_path / "fifo.jsonl")
    with pytest.raises(HarnessError):
        TranscriptWriter(tmp_path / "fifo.jsonl")
    assert (tmp_path / "elsewhere.jsonl").read_text() == ""


def test_labels_and_families_are_escaped_in_markdown_and_csv(bases: corpus.Bases, tmp_path: Path) -> None:
    from harness.cli import main

    run = corpus.copy_run(bases.mira, tmp_path)
    corpus.edit_info(run, lambda info: info.update(label="evil\n# injected | heading"))
    lines = corpus.read_lines(run)
    for line in lines:
        line["family"] = "=HYPERLINK(\"http://x\")|a\nb"
    corpus.write_lines(run, lines)
    assert main(["score", str(run), "--no-figures"]) == 0
    report = (run / "report.md").read_text(encoding="utf-8")
    assert not any(line.startswith("# injected") for line in report.splitlines())
    assert "evil # injected \\| heading" in report
    table_rows = [line for line in report.splitlines() if line.startswith("| =")]
    assert all(line.count(" | ") == table_rows[0].count(" | ") for line in table_rows)
    with open(run / "per_instance.csv", newline="", encoding="utf-8") as f:
        families = {row["family"] for row in csv.DictReader(f)}
    assert families == {"'=HYPERLINK(\"http://x\")|a\nb"}


# ------------------------------------------------------------------------------------------ one writer
def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    env["PYTHONPATH"] = str(ROOT)
    return env


SLOW_RUN = """
import sys, time
import harness.mira.run as run
original = run.execute
def slow(*args, **kwargs):
    print("started", flush=True)
    time.sleep(float(sys.argv[1]))
    return original(*args, **kwargs)
run.execute = slow
from harness.cli import main
raise SystemExit(main(sys.argv[2:]))
"""


def _slow_run(seconds: float, dataset: Path, out: Path) -> subprocess.Popen[str]:
    argv = [sys.executable, "-c", SLOW_RUN, str(seconds), "mira", "--dataset", str(dataset), "--out", str(out),
            "--limit", "6", "--quiet"]
    proc = subprocess.Popen(argv, cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "started", proc.stderr.read() if proc.stderr else ""
    return proc


def _run_eval(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "run_eval.py"), *args], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


def test_two_runs_on_one_folder_exactly_one_proceeds(bases: corpus.Bases, tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = _slow_run(4, bases.dataset, out)
    second = _run_eval("mira", "--dataset", str(bases.dataset), "--out", str(out), "--limit", "6", "--quiet")
    assert second.returncode == 2, second.stderr
    lines = [line for line in second.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and f"process {first.pid}" in lines[0] and "Traceback" not in second.stderr
    assert first.wait(timeout=120) == 0, first.stderr.read() if first.stderr else ""
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "complete"
    assert [s["end_status"] for s in info["sessions"]] == ["complete"]  # never marked killed by the second
    assert len((out / "transcripts.jsonl").read_text().splitlines()) == 6
    scored = _run_eval("score", str(out), "--no-figures")
    assert scored.returncode == 0 and "reproduced exactly" in scored.stderr, scored.stderr
    again = _run_eval("mira", "--dataset", str(bases.dataset), "--out", str(out), "--limit", "6")
    assert again.returncode == 0 and "already complete" in again.stderr, again.stderr


def test_kill_9_releases_the_lock_and_the_run_resumes(bases: corpus.Bases, tmp_path: Path) -> None:
    out = tmp_path / "run"
    holder = _slow_run(60, bases.dataset, out)
    busy = _run_eval("score", str(out), "--no-figures")
    assert busy.returncode == 2 and f"process {holder.pid}" in busy.stderr
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=30)
    resumed = _run_eval("mira", "--dataset", str(bases.dataset), "--out", str(out), "--limit", "6", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    info = json.loads((out / "run.json").read_text())
    assert [s["end_status"] for s in info["sessions"]] == ["killed (no end recorded)", "complete"]
    scored = _run_eval("score", str(out), "--no-figures")
    assert scored.returncode == 0, scored.stderr


@pytest.mark.parametrize("command", ["score", "rejudge", "import-inspect", "elenchos"])
def test_every_writer_takes_the_lock(command: str, bases: corpus.Bases, tmp_path: Path) -> None:
    from harness.cli import main

    run = corpus.copy_run(bases.elenchos if command == "elenchos" else bases.mira, tmp_path)
    target = tmp_path / "out"
    target.mkdir()
    argv = {"score": ["score", str(run), "--no-figures"],
            "rejudge": ["rejudge", str(run), "--responder", "rule", "--out", str(target), "--dataset",
                        str(bases.dataset)],
            "import-inspect": ["import-inspect", str(bases.dataset), "--out", str(target)],
            "elenchos": ["elenchos", "--out", str(run), "--limit", "2", "--quiet"]}[command]
    locked = run if command in ("score", "elenchos") else target
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file() and p.name != ".lock"}
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\nfrom generators.safefs import FolderLock\n"
                               "FolderLock(sys.argv[1]).acquire()\nprint('held', flush=True)\ntime.sleep(60)",
                               str(locked)], cwd=ROOT, env=_env(), stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        if command == "import-inspect":
            pytest.importorskip("inspect_ai")
        assert main(argv) == 2
    finally:
        holder.kill()
        holder.wait()
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file() and p.name != ".lock"} == before


def test_a_run_that_cannot_start_leaves_no_folder(tmp_path: Path) -> None:
    from harness.cli import main

    assert main(["elenchos", "--repetitions", "0", "--out", str(tmp_path / "never")]) == 2
    assert main(["mira", "--dataset", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "never")]) == 2
    assert not (tmp_path / "never").exists()


def test_lock_in_the_same_process_is_named(tmp_path: Path, bases: corpus.Bases,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from harness.cli import main

    run = corpus.copy_run(bases.mira, tmp_path)
    with FolderLock(run):
        assert main(["score", str(run), "--no-figures"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"process {os.getpid()}" in err[0]


# ------------------------------------------------------------------------------------------ reads
def test_rejudge_says_nothing_about_a_file_run_json_names(bases: corpus.Bases, outside: Path, tmp_path: Path) -> None:
    messages = []
    for kind in ("outside", "missing", "etc"):
        case = next(c for c in CASES if c.name == f"rejudge: run.json names dataset {kind}")
        outcome = corpus.run_case(case, tmp_path / kind, outside, bases)
        assert corpus.problems(case, outcome) == []
        error = next(line for line in outcome.stderr.splitlines() if line.startswith("error:"))
        messages.append(error.split("(", 1)[0] + error.split(")", 1)[1])
        assert "line" not in error.split(")", 1)[1]
    assert len(set(messages)) == 1  # the same words whatever is (or is not) at the path


def test_rejudge_still_reads_the_recorded_dataset_when_it_matches(bases: corpus.Bases, tmp_path: Path) -> None:
    from harness.cli import main

    run = corpus.copy_run(bases.mira, tmp_path)
    assert main(["rejudge", str(run), "--responder", "rule", "--out", str(tmp_path / "rj"), "--quiet"]) == 0
    assert (tmp_path / "rj" / "agreement.json").is_file()


def test_an_oversized_transcript_line_is_refused_unread(bases: corpus.Bases, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from harness import untrusted
    from harness.cli import main

    monkeypatch.setattr(untrusted, "MAX_LINE_BYTES", 10_000)
    run = corpus.copy_run(bases.mira, tmp_path)
    corpus.edit_line(run, lambda record: record.update(padding="x" * 20_000))
    assert main(["score", str(run), "--no-figures"]) == 2


# ------------------------------------------------------------------------------------------ import-inspect
def _fake_log(lines: list[dict[str, Any]], run: Any) -> Any:
    samples = [SimpleNamespace(id=f"s{i}", epoch=1, error=None, store={"mira_transcript": line, "mira_run": run})
               for i, line in enumerate(lines)]
    revision = SimpleNamespace(commit="abc", dirty=False)
    stats = SimpleNamespace(started_at="t0", completed_at="t1")
    evaluation = SimpleNamespace(model_generate_config=None, model="mockllm/model", model_base_url=None,
                                 revision=revision, packages={"inspect_ai": "0"}, eval_id="e", run_id="r", task="t",
                                 task_args={}, created="c")
    return SimpleNamespace(samples=samples, eval=evaluation, stats=stats, status="success")


def _mira_run_info(bases: corpus.Bases) -> dict[str, Any]:
    info = json.loads((bases.mira / "run.json").read_text())
    return {"benchmark": "mira", "protocol_version": info["protocol_version"], "dataset": str(bases.dataset),
            "dataset_sha256": info["config"]["dataset_sha256"], "instances": 4, "limit": 4,
            "condition": "standard", "regime": "zero_shot", "after_offer": "answer", "responder": "rule",
            "responder_options": {}, "responder_describe": None, "generator_versions": ["x"], "dataset_seeds": [1],
            "instance_seeds_sha256": "0", "solver_prompt_version": "p"}


IMPORT_DAMAGE = {
    "store.mira_run a string": lambda lines, run: (lines, "x"),
    "store.mira_run.instances a string": lambda lines, run: (lines, {**run, "instances": "4"}),
    "store.mira_run without dataset_sha256": lambda lines, run: (lines, {k: v for k, v in run.items()
                                                                          if k != "dataset_sha256"}),
    "usage of the wrong type": lambda lines, run: ([{**lines[0], "usage": {"solver": "many"}}, *lines[1:]], run),
    "events of the wrong type": lambda lines, run: ([{**lines[0], "events": "x"}, *lines[1:]], run),
    "live_metrics empty": lambda lines, run: ([{**line, "live_metrics": {}} for line in lines], run),
    "expected of the wrong type": lambda lines, run: ([{**lines[0], "expected": 5}, *lines[1:]], run),
    "nested 100 deep": lambda lines, run: ([{**lines[0], "live_metrics": corpus.deep(100)}, *lines[1:]], run),
}


@pytest.mark.parametrize("damage", list(IMPORT_DAMAGE), ids=list(IMPORT_DAMAGE))
def test_import_inspect_checks_the_store_and_leaves_nothing(damage: str, bases: corpus.Bases, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from harness.cli import main
    from harness.inspect_adapter import importer

    lines, run = IMPORT_DAMAGE[damage](corpus.read_lines(bases.mira), _mira_run_info(bases))
    monkeypatch.setattr(importer, "_read", lambda path: _fake_log(lines, run))
    out = tmp_path / "imported"
    assert main(["import-inspect", str(bases.dataset), "--out", str(out)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("error: ") and "Traceback" not in err[0]
    assert not out.exists() or [p.name for p in out.iterdir()] in ([], [".lock"])


def test_import_inspect_of_a_good_store_still_imports(bases: corpus.Bases, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.cli import main
    from harness.inspect_adapter import importer

    monkeypatch.setattr(importer, "_read", lambda path: _fake_log(corpus.read_lines(bases.mira),
                                                                   _mira_run_info(bases)))
    out = tmp_path / "imported"
    assert main(["import-inspect", str(bases.dataset), "--out", str(out)]) == 0
    assert main(["score", str(out), "--no-figures"]) == 0


def test_import_inspect_of_a_log_whose_samples_failed_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from harness.cli import main
    from harness.inspect_adapter import importer

    log = _fake_log([], {})
    log.samples = [SimpleNamespace(id="bay-1", epoch=1, store={},
                                   error=SimpleNamespace(message="ConnectError: [Errno 111] Connection refused"))]
    monkeypatch.setattr(importer, "_read", lambda path: log)
    assert main(["import-inspect", "failed.eval", "--out", str(tmp_path / "imported")]) == 2
    assert capsys.readouterr().err.strip().endswith(
        "no sample has a transcript of harness/inspect_tasks.py (mira_math or elenchos); samples failed, e.g. "
        "[bay-1]: ConnectError: [Errno 111] Connection refused")


@pytest.mark.parametrize("kind", ["devzero", "fifo", "directory"])
def test_import_inspect_reads_only_a_regular_log(kind: str, tmp_path: Path, outside: Path) -> None:
    pytest.importorskip("inspect_ai")
    from harness.cli import main

    log = tmp_path / "log.eval"
    corpus.replace_with(log, kind, outside)
    assert main(["import-inspect", str(log), "--out", str(tmp_path / "imported")]) == 2
    assert not (tmp_path / "imported").exists()


# ------------------------------------------------------------------------------------------ bounded
def test_an_oversized_reply_is_stored_cut_with_its_length_and_hash() -> None:
    from harness.text import STORED_PREFIX_CHARS, stored_reply
    from verifiers.jsonparse import MAX_REPLY_CHARS

    reply = "{" * (MAX_REPLY_CHARS + 10)
    fields = stored_reply(reply)
    assert len(fields["message"]) == STORED_PREFIX_CHARS
    assert fields["message_chars"] == len(reply)
    assert fields["message_sha256"] == hashlib.sha256(reply.encode()).hexdigest()
    assert stored_reply("short") == {"message": "short"}


def test_an_oversized_elenchos_reply_makes_a_small_valid_line(tmp_path: Path) -> None:
    from elenchos.family import family, level0_probes
    from elenchos.sessions import sessions
    from harness.elenchos.episode import ElenchosEpisode
    from harness.elenchos.types import ToolCall
    from schemas import schema_errors

    record = next(iter(sessions("ladder", 1234, 1, family())))
    episode = ElenchosEpisode(record, level0_probes(), privileged=False)
    episode.pending()
    episode.deliver("agent", ToolCall.invalid("x" * 20_000_000, "reply too long"))
    line = episode.record_line()
    assert schema_errors("elenchos_transcript", {**line, "end_reason": "turn_limit"}) == []
    assert len(json.dumps(line)) < 100_000
    assert line["events"][0]["message_chars"] == 20_000_000


def test_mira_words_are_counted_from_the_whole_reply(bases: corpus.Bases) -> None:
    from harness.mira.metrics import instance_metrics

    line = corpus.read_lines(bases.mira)[0]
    before = instance_metrics(line)["words"]
    line["events"][0].update(message="cut", message_words=1000)
    assert instance_metrics(line)["words"] >= before + 990


# ------------------------------------------------------------------------------------------ redaction
@pytest.fixture()
def secret() -> Any:
    from harness import redact

    redact.register("test-SECRET123")
    yield "test-SECRET123"
    redact.forget_all()


def test_redaction_catches_the_key_in_any_case_and_after_any_prefix(secret: str, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from harness import redact
    from harness.cli import main

    for text in ("key=test-SECRET123", "key=test-secret123", "Bearer TEST-SECRET123!", "xtest-SeCrEt123y"):
        assert "secret123" not in redact.redact(text).lower()
    with TranscriptWriter(tmp_path / "t.jsonl") as writer:
        writer.write([{"instance_id": "a", "message": "the server said key=test-secret123"}])
    write_json_atomic(tmp_path / "run.json", {"error": "echo TEST-SECRET123"})
    info: dict[str, Any] = {"sessions": []}
    (tmp_path / "r").mkdir()
    from harness.rundir import RunDir

    end_session_failed(RunDir(tmp_path / "r"), info, {}, RuntimeError("bad key=test-secret123"))
    for name in ("t.jsonl", "run.json", "r/run.json"):
        assert "secret123" not in (tmp_path / name).read_text().lower()
    corpus_run = tmp_path / "nothing"

    def fail(args: Any) -> int:
        raise HarnessError("upstream said: invalid key=test-secret123")

    from harness.inspect_adapter import importer

    original = importer.run
    importer.run = fail
    try:
        assert main(["import-inspect", "x", "--out", str(corpus_run)]) == 2
    finally:
        importer.run = original
    assert "secret123" not in capsys.readouterr().err.lower()


def test_openai_engine_redacts_a_lowercased_echo(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openai")
    from harness import redact
    from harness.backends.openai_engine import OpenAIEngine

    monkeypatch.setenv("OPENAI_API_KEY", "test-SECRET123")
    engine = OpenAIEngine("gpt-4o-mini")
    try:
        assert "secret123" not in engine.redact("401: key=test-secret123 is invalid").lower()
    finally:
        engine.close()
        redact.forget_all()
