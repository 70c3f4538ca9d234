"""``run_eval.py elenchos``: one run of an agent over a suite of sessions into a run directory (resumable).

Reuses the harness: ``harness.scheduler.run_episodes`` (one batched agent call per step for every open
session), ``harness.rundir.RunDir`` (fingerprinted config, append-only fsynced ``transcripts.jsonl``,
crash-cut repair, resume) and the agent registry (role ``elenchos.agent``).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from elenchos import ELENCHOS_VERSION
from elenchos.family import PI_RSA_CHOICES, family, level0_probes
from elenchos.sessions import DEFAULT_REPETITIONS, DEFAULT_SEED, SUITES, sessions, suite_of
from generators.limits import repetitions_problem
from generators.sources import SESSIONS, wrong_kind
from harness import HARNESS_VERSION, registry, untrusted
from harness.elenchos import PROTOCOL_VERSION
from harness.elenchos.episode import AGENT, ElenchosEpisode
from harness.elenchos.metrics import session_metrics, summarize
from harness.elenchos.types import ElenchosAgent
from harness.errors import ConfigMismatch, HarnessError, InputError, InputErrors
from harness.rundir import (
    RunDir,
    begin_session,
    code_version,
    dumps,
    end_session_failed,
    environment,
    fingerprint,
    json_plain,
    now_iso,
    same_identity,
    sha256_file,
    split_options,
    transcript_line,
    write_json_atomic,
)
from harness.scheduler import fail_episode, run_episodes
from schemas import schema_errors
from verifiers.jsonl import parse_json_line

ROLE = "elenchos.agent"
TRANSCRIPT_SCHEMA = "elenchos_transcript"
SRA_SPECS = ("sra", "simple_reflex_agent")


@dataclass
class ElenchosRunConfig:
    out: str
    suite: str | None = "ladder"  # ignored with ``sessions_file``
    agent: str = "sra"
    agent_options: dict[str, str] = field(default_factory=dict)
    seed: int = DEFAULT_SEED
    repetitions: int = DEFAULT_REPETITIONS
    sessions_file: str | None = None  # a JSONL file, an export folder or a Hub repo id (then see below)
    sessions_config: str | None = None  # export folder / Hub repo: the config (default elenchos_<suite>)
    sessions_revision: str | None = None  # Hub repo: branch, release tag or commit
    limit: int | None = None
    max_concurrent: int | None = None
    fsync: str = "step"
    progress: bool | None = None
    label: str | None = None
    pi_rsa: str = "level0"  # Pi_RSA of the generated sessions' labels and of the SRA (PI_RSA_CHOICES)


@dataclass
class ElenchosRunResult:
    run_dir: RunDir
    metrics: dict[str, Any]
    info: dict[str, Any]
    ran: int


def validate_session(record: Any) -> list[str]:
    return [f"{path}: {message}" for path, message in schema_errors("elenchos_session", record)]


def load_sessions(cfg: ElenchosRunConfig) -> tuple[list[dict[str, Any]], str | dict[str, Any]]:
    """The sessions to run (a JSONL file, a release, or generated from the suite/seed/repetitions) and their source."""
    problem = wrong_kind(cfg.sessions_file, SESSIONS, "--sessions") if cfg.sessions_file else None
    if problem:
        raise HarnessError(problem)
    if cfg.sessions_file and _is_release(cfg.sessions_file):
        records, source = _release_sessions(cfg)
    elif cfg.sessions_config or cfg.sessions_revision:
        raise HarnessError("--config and --revision need --sessions with an export folder or a Hub repo id")
    elif cfg.sessions_file:
        path = Path(cfg.sessions_file)
        if not path.exists():
            raise HarnessError(f"{path}: no such sessions file")
        records, errors, seen = [], [], set()
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise HarnessError(f"{path}: cannot read sessions: {exc.strerror or exc}") from None
        for lineno, raw in enumerate(data.split(b"\n"), start=1):
            if not raw.strip():
                continue
            record, problem = parse_json_line(raw)  # the one reader of input lines: no traceback on any bytes
            if problem is not None:
                errors.append(InputError(str(path), lineno, problem))
                continue
            problems = validate_session(record)
            rid = record.get("id") if isinstance(record, dict) else None
            if problems:
                errors.append(InputError(str(path), lineno, "; ".join(problems[:3]), rid))
            elif rid in seen:
                errors.append(InputError(str(path), lineno, "duplicate session id", rid))
            else:
                seen.add(rid)
                records.append(record)
        if errors:
            raise InputErrors(errors)
        source = str(path)
    else:
        if cfg.suite not in SUITES:
            raise HarnessError(f"--suite must be one of {', '.join(SUITES)}")
        records = list(sessions(cfg.suite, cfg.seed, cfg.repetitions, family(pi_rsa=cfg.pi_rsa)))
        for record in records:
            problems = validate_session(record)
            if problems:
                raise HarnessError(f"generated session {record['id']} violates the schema: {problems[0]}")
        source = f"generated:{cfg.suite}:seed={cfg.seed}:repetitions={cfg.repetitions}:pi_rsa={cfg.pi_rsa}"
    if cfg.limit is not None:
        records = records[:cfg.limit]
    if not records:
        raise HarnessError("no sessions to run")
    return records, source


def _is_release(path: str) -> bool:
    if Path(path).is_file():
        return False
    try:
        from builder.rows import is_release_source
    except ImportError:
        return Path(path).is_dir()
    return is_release_source(path)


def _release_sessions(cfg: ElenchosRunConfig) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The sessions of an export folder's or Hub release's config, read through ``datasets`` and checked."""
    try:
        from builder.rows import RowsError, load_records
    except ImportError as exc:
        raise HarnessError(f"{cfg.sessions_file}: reading a release needs the hf extra ({exc})") from None
    config = cfg.sessions_config or f"elenchos_{cfg.suite or 'ladder'}"
    if config not in ("elenchos_ladder", "elenchos_benchmark"):
        raise HarnessError(f"--config {config}: the sessions are in elenchos_ladder or elenchos_benchmark")
    try:
        loaded = load_records(cfg.sessions_file, config, revision=cfg.sessions_revision)
    except (RowsError, KeyError) as exc:
        raise HarnessError(str(exc.args[0] if exc.args else exc)) from None
    for i, record in enumerate(loaded.records):
        problems = validate_session(record)
        if problems:
            raise HarnessError(f"{cfg.sessions_file}:{config} row {i} [{record.get('id')}]: {problems[0]}")
    return loaded.records, loaded.provenance


def sessions_sha256(records: list[dict[str, Any]]) -> str:
    h = hashlib.sha256()
    for record in records:
        h.update((dumps(record) + "\n").encode())
    return h.hexdigest()


def run_config(cfg: ElenchosRunConfig, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The fingerprinted part of ``run.json``: a resume must match it exactly."""
    suites = sorted({suite_of(r) for r in records})
    return {
        "benchmark": "elenchos",
        "protocol_version": PROTOCOL_VERSION,
        "suite": suites[0] if len(suites) == 1 else "mixed",
        "sessions_sha256": sessions_sha256(records),
        "sessions": len(records),
        "limit": cfg.limit,
        "agent": cfg.agent,
        "agent_options": split_options(cfg.agent_options)[0],
        "pi_rsa": cfg.pi_rsa,
    }


def make_agent(cfg: ElenchosRunConfig) -> ElenchosAgent:
    options = dict(cfg.agent_options)
    is_sra = cfg.agent.split(":")[0] in SRA_SPECS  # the SRA probes the run's Pi_RSA
    if is_sra and options.setdefault("pi_rsa", cfg.pi_rsa) != cfg.pi_rsa:
        raise HarnessError(f"--agent-opt pi_rsa={options['pi_rsa']} contradicts --pi-rsa {cfg.pi_rsa}")
    return registry.create(ROLE, cfg.agent, options)


def validate(cfg: ElenchosRunConfig) -> None:
    if cfg.limit is not None and cfg.limit < 1:
        raise HarnessError("--limit must be at least 1")
    if cfg.max_concurrent is not None and cfg.max_concurrent < 1:
        raise HarnessError("--max-concurrent must be at least 1")
    problem = repetitions_problem(cfg.repetitions)
    if problem is not None:
        raise HarnessError(problem)
    if cfg.pi_rsa not in PI_RSA_CHOICES:
        raise HarnessError(f"--pi-rsa must be one of {', '.join(PI_RSA_CHOICES)}")


def run_elenchos(cfg: ElenchosRunConfig) -> ElenchosRunResult:
    """Run (or resume) ``cfg``; return the metrics computed from the whole transcript."""
    validate(cfg)
    records, source = load_sessions(cfg)
    config = run_config(cfg, records)
    run_dir = RunDir(cfg.out)
    with run_dir.locked():  # one writer per run folder, for the life of the run
        return _run_locked(cfg, records, source, config, run_dir)


def _run_locked(cfg: ElenchosRunConfig, records: list[dict[str, Any]], source: str | dict[str, Any],
                config: dict[str, Any], run_dir: RunDir) -> ElenchosRunResult:
    info, done = run_dir.prepare(config, schema=TRANSCRIPT_SCHEMA)
    todo = [r for r in records if r["id"] not in done.records]
    if info is not None:
        run_dir.relabel(info, cfg.label)
    if info is not None and info.get("status") == "complete" and not todo:
        if run_dir.metrics_json.exists():
            return ElenchosRunResult(run_dir, untrusted.read_json(run_dir.metrics_json), info, 0)
        return ElenchosRunResult(run_dir, finish_metrics(run_dir, info)[0], info, 0)
    finished = MetricInputs(done.records.values())
    agent = make_agent(cfg)  # before anything is written: a bad agent leaves no folder behind
    try:
        check_agent_identity(info, agent, run_dir)
        info = start_info(info, config, cfg, source, agent)
        session = begin_session(run_dir, info, {"start": now_iso(), "resumed_with": len(done.records),
                                                "sessions": len(todo), "execution": execution_of(cfg)})
        started = time.perf_counter()
        try:
            stats = execute(cfg, run_dir, todo, agent, len(records), len(done.records), finished)
        except BaseException as exc:
            end_session_failed(run_dir, info, session, exc)
            raise
    finally:
        agent.close()
    session.update(end=now_iso(), end_status="complete", wall_s=round(time.perf_counter() - started, 3),
                   scheduler=stats)
    metrics, info["usage"] = finish_metrics(run_dir, info, finished)
    overall = metrics["overall"]
    info.update(status="complete", end_time=session["end"], transcript_sha256=sha256_file(run_dir.transcripts),
                engine_calls=total_calls(info["sessions"]),
                summary={k: overall.get(k) for k in ("n", "V", "V_K", "V_A", "E_ELX", "P_mean")})
    run_dir.save_info(info)
    return ElenchosRunResult(run_dir, metrics, info, len(todo))


def execution_of(cfg: ElenchosRunConfig) -> dict[str, Any]:
    """How this session ran: settings that cannot change results (they may differ between sessions)."""
    return {"max_concurrent": cfg.max_concurrent, "fsync": cfg.fsync,
            "agent_options": split_options(cfg.agent_options)[1]}


def execute(cfg: ElenchosRunConfig, run_dir: RunDir, todo: list[dict[str, Any]], agent: ElenchosAgent,
            total: int, done: int, finished_lines: MetricInputs | None = None) -> dict[str, Any]:
    """Run the sessions of ``todo``, appending each finished one to the transcript (validated first)."""
    probes = level0_probes() if any(r["level"] == 0 for r in todo) else {}

    def episodes() -> Iterator[ElenchosEpisode]:
        for record in todo:
            yield ElenchosEpisode(record, probes, privileged=agent.privileged)

    disable = True if cfg.progress is False else (None if cfg.progress is None else False)
    bar = tqdm(total=total, initial=done, unit="session", desc=cfg.label or "elenchos", disable=disable,
               file=sys.stderr, mininterval=0.5)
    with run_dir.writer(cfg.fsync) as writer, bar:

        def on_finished(finished: list[ElenchosEpisode]) -> None:
            lines = [checked_line(ep) for ep in finished]
            written = [transcript_line(line) for line in lines]
            writer.write_lines(raw for raw, _ in written)
            if finished_lines is not None:
                for line, (_, readable) in zip(lines, written, strict=True):
                    finished_lines.add(line, readable)
            bar.update(len(finished))

        stats = run_episodes(episodes(), {AGENT: agent.act}, [AGENT], on_finished, cfg.max_concurrent)
    return stats.as_dict()


def checked_line(ep: ElenchosEpisode) -> dict[str, Any]:
    """The episode's transcript line, schema-checked; a line that cannot be built or fails the schema fails the
    episode (``internal_error``, recorded) instead of ending the run."""
    for attempt in range(2):
        try:
            line = ep.record_line()
            problems = schema_errors("elenchos_transcript", line)
            if not problems:
                return line
            error: BaseException = HarnessError(f"transcript line of {ep.id} violates the schema: {problems[0]}")
        except Exception as exc:
            error = exc
        if attempt == 0:
            fail_episode(ep, "transcript line", error)
    raise HarnessError(f"{ep.id}: no valid transcript line even after recording the internal error: {error}")


def start_info(info: dict[str, Any] | None, config: dict[str, Any], cfg: ElenchosRunConfig, source: str | dict,
               agent: ElenchosAgent) -> dict[str, Any]:
    if info is None:
        info = {"format": "run/1", "benchmark": "elenchos", "config": config, "config_sha256": fingerprint(config),
                "start_time": now_iso(), "sessions": []}
    fam = family(pi_rsa=cfg.pi_rsa)
    described = agent.describe()
    info.update(
        status="running",
        label=cfg.label or f"{cfg.agent} {config['suite']}",
        harness_version=HARNESS_VERSION,
        protocol_version=PROTOCOL_VERSION,
        elenchos_version=ELENCHOS_VERSION,
        data={"source": source, "sessions_sha256": config["sessions_sha256"], "sessions": config["sessions"],
              "seed": None if cfg.sessions_file else cfg.seed,
              "repetitions": None if cfg.sessions_file else cfg.repetitions},
        probe_library={"sha256": fam.library.sha256, "probes": len(fam.library), "pi_rsa_choice": cfg.pi_rsa,
                       "pi_rsa": list(fam.pi.names), "level0": {m: p.name for m, p in fam.library.level0().items()}},
        agents={"agent": described},
        decoding={"agent": described.get("decoding")},
        prompt_versions={"protocol": PROTOCOL_VERSION, "agent": described.get("prompt_version")},
        code=code_version(),
        environment=environment(),
        execution=execution_of(cfg),
    )
    return info


def check_agent_identity(info: dict[str, Any] | None, agent: ElenchosAgent, where: RunDir) -> None:
    """On resume, the agent must describe itself as before (model, decoding, prompt version, library)."""
    if not info or not info.get("agents"):
        return
    now = {"agent": agent.describe()}
    if not same_identity(info["agents"], now):
        raise ConfigMismatch(f"{where.path}: refusing to resume: the agent describes itself differently "
                             f"(was {info['agents']}, now {now}); use a new --out directory")


def load_lines(run_dir: RunDir) -> list[dict[str, Any]]:
    """The finished transcript lines, each checked against ``schemas/elenchos_transcript`` (and its session)."""
    from harness.rundir import read_transcripts

    if not os.path.lexists(run_dir.transcripts):
        raise HarnessError(f"{run_dir.path}: no {run_dir.transcripts.name} (is this a run directory?)")
    state = read_transcripts(run_dir.transcripts, schema=TRANSCRIPT_SCHEMA)
    return list(state.records.values())


def finish_metrics(run_dir: RunDir, info: dict[str, Any],
                   finished: MetricInputs | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """``metrics.json`` from the transcript's live metrics (``score`` recomputes them from the events): from
    ``finished`` when it holds every line as it reads back, else from the transcript file."""
    lines = finished.lines if finished is not None and finished.exact else load_lines(run_dir)
    metrics = metrics_document(info, [line["live_metrics"] for line in lines])
    write_json_atomic(run_dir.metrics_json, metrics)
    return metrics, usage_totals(lines)


METRIC_FIELDS = ("instance_id", "live_metrics", "usage")


class MetricInputs:
    """The fields of each transcript line that ``metrics.json`` and the usage totals are made of, gathered as the
    lines are read at the start (``RunDir.prepare`` parsed and checked them) and written during the run, so that
    the end of the run need not read back, parse and re-check the file it has just written (as MIRA-Math's
    ``MetricInputs``). A written line is kept only if it reads back as it is (``transcript_line``), its parts pass
    their schemas (``checked_line`` checked the line's own) and the kept fields are plain JSON values; one that is
    not turns ``exact`` off, and ``finish_metrics`` reads the transcript file as before (reporting the line)."""

    def __init__(self, prior: Iterable[dict[str, Any]] = ()):
        self.lines: list[dict[str, Any]] = []
        self.exact = True
        self._ids: set[str] = set()
        for line in prior:
            self._keep(line)

    def add(self, line: dict[str, Any], readable: bool) -> None:
        if self.exact and not (readable and _parts_valid(line)):
            self.exact = False
        self._keep(line)

    def _keep(self, line: dict[str, Any]) -> None:
        if not self.exact:
            return
        rid = line.get("instance_id")
        kept = {k: line[k] for k in METRIC_FIELDS if k in line}
        if not isinstance(rid, str) or rid in self._ids or not json_plain(kept):
            self.exact = False
            return
        self._ids.add(rid)
        self.lines.append(kept)


def _parts_valid(line: dict[str, Any]) -> bool:
    try:
        return all(field not in line or not schema_errors(part, line[field])
                   for field, part in untrusted.PART_SCHEMAS.get(TRANSCRIPT_SCHEMA, ()))
    except Exception:  # let the transcript reader say what is wrong
        return False


def metrics_document(info: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    rows = sorted(rows, key=lambda r: r["id"])
    return {"benchmark": "elenchos", "label": info.get("label"), "suite": info.get("config", {}).get("suite"),
            "agent": info.get("config", {}).get("agent"), **summarize(rows)}


def recompute_rows(run_dir: RunDir, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every session's metrics from its events; a schema-valid line that still cannot be scored is named."""
    return untrusted.scored_each(run_dir.transcripts, lines, session_metrics)


def usage_totals(lines: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    totals: dict[str, dict[str, int]] = {}
    for line in lines:
        for role, usage in (line.get("usage") or {}).items():
            acc = totals.setdefault(role, {})
            for key, value in usage.items():
                acc[key] = acc.get(key, 0) + value
    return totals


def total_calls(sessions_: list[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = {"engine_calls": 0, "steps": 0}
    for s in sessions_:
        sched = s.get("scheduler") or {}
        total["engine_calls"] += sched.get("engine_calls", 0)
        total["steps"] += sched.get("steps", 0)
    return total
