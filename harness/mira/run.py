"""``run_eval.py mira``: one MIRA-Math run into a run directory (resumable)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from harness import HARNESS_VERSION, registry
from harness.errors import ConfigMismatch, HarnessError
from harness.mira import PROTOCOL_VERSION
from harness.mira.dataset import Dataset, load_dataset
from harness.mira.episode import AFTER_OFFER, CONDITIONS, RESPONDER, SOLVER, EpisodeConfig, MiraEpisode
from harness.mira.metrics import has_multi_hint, summarize
from harness.mira.types import Responder, Solver
from harness.rundir import (
    RunDir,
    begin_session,
    code_version,
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
from harness.scheduler import run_episodes
from schemas import fast_validator

INFERENCE_SEED = 1234
TRANSCRIPT_SCHEMA = "mira_transcript"


@dataclass
class MiraRunConfig:
    dataset: str
    out: str
    solver: str = "oracle"
    responder: str | None = "rule"
    limit: int | None = None
    condition: str = "standard"
    regime: str = "auto"
    after_offer: str = "answer"
    solver_options: dict[str, str] = field(default_factory=dict)
    responder_options: dict[str, str] = field(default_factory=dict)
    max_concurrent: int | None = None
    fsync: str = "step"
    progress: bool | None = None  # None: tqdm decides (on for a terminal)
    dataset_seed: int | None = None
    label: str | None = None
    dataset_config: str | None = None  # export folder / Hub repo: the config (default mira_zero_shot)
    dataset_revision: str | None = None  # Hub repo: branch, tag or commit


@dataclass
class MiraRunResult:
    run_dir: RunDir
    metrics: dict[str, Any]
    info: dict[str, Any]
    ran: int  # instances run in this session (0 when the run was already complete)


def resolve_regime(requested: str, dataset: Dataset) -> str:
    requested = "four_shot" if requested == "few_shot" else requested  # both spellings are accepted
    if requested == "auto":
        return "four_shot" if dataset.has_few_shot else "zero_shot"
    if requested == "four_shot" and not dataset.has_few_shot:
        missing = next(i for i in dataset.instances if not i.get("few_shot_examples"))
        line = dataset.line_of[missing["id"]]
        raise HarnessError(f"{dataset.path}:{line} [{missing['id']}]: the four-shot regime needs few_shot_examples "
                           "(generate with --four-shot)")
    if requested not in ("zero_shot", "four_shot"):
        raise HarnessError(f"unknown regime {requested!r}")
    return requested


def run_config(cfg: MiraRunConfig, dataset: Dataset, regime: str) -> dict[str, Any]:
    """The fingerprinted part of ``run.json``: a resume must match it exactly."""
    return {
        "benchmark": "mira",
        "protocol_version": PROTOCOL_VERSION,
        "dataset_sha256": dataset.sha256,
        "instances": len(dataset.instances),
        "limit": cfg.limit,
        "solver": cfg.solver,
        "solver_options": split_options(cfg.solver_options)[0],
        "responder": cfg.responder if cfg.condition == "standard" else None,
        "responder_options": split_options(cfg.responder_options)[0] if cfg.condition == "standard" else {},
        "condition": cfg.condition,
        "regime": regime,
        "after_offer": cfg.after_offer,
    }


def make_agents(cfg: MiraRunConfig) -> tuple[Solver, Responder | None]:
    solver = registry.create("mira.solver", cfg.solver, cfg.solver_options)
    if cfg.condition == "oracle_hint":
        return solver, None
    if not cfg.responder:
        raise HarnessError("the standard condition needs a --responder")
    return solver, registry.create("mira.responder", cfg.responder, cfg.responder_options)


def validate(cfg: MiraRunConfig) -> None:
    if cfg.condition not in CONDITIONS:
        raise HarnessError(f"condition must be one of {', '.join(CONDITIONS)}")
    if cfg.after_offer not in AFTER_OFFER:
        raise HarnessError(f"after_offer must be one of {', '.join(AFTER_OFFER)}")
    if cfg.limit is not None and cfg.limit < 1:
        raise HarnessError("--limit must be at least 1")
    if cfg.max_concurrent is not None and cfg.max_concurrent < 1:
        raise HarnessError("--max-concurrent must be at least 1")
    if cfg.condition == "oracle_hint" and cfg.responder_options:
        raise HarnessError("--responder-opt is not used with --condition oracle_hint (there is no responder)")


def run_mira(cfg: MiraRunConfig) -> MiraRunResult:
    """Run (or resume) ``cfg``; return the metrics computed from the whole transcript."""
    validate(cfg)
    dataset = load_dataset(cfg.dataset, cfg.limit, config=cfg.dataset_config, revision=cfg.dataset_revision)
    regime = resolve_regime(cfg.regime, dataset)
    config = run_config(cfg, dataset, regime)
    run_dir = RunDir(cfg.out)
    with run_dir.locked():  # one writer per run folder, for the life of the run
        return _run_locked(cfg, dataset, regime, config, run_dir)


def _run_locked(cfg: MiraRunConfig, dataset: Dataset, regime: str, config: dict[str, Any],
                run_dir: RunDir) -> MiraRunResult:
    info, done = run_dir.prepare(config, schema=TRANSCRIPT_SCHEMA)
    todo = [inst for inst in dataset.instances if inst["id"] not in done.records]
    if info is not None:
        run_dir.relabel(info, cfg.label)
    finished = MetricInputs(done.records.values())
    if info is not None and info.get("status") == "complete" and not todo:
        return MiraRunResult(run_dir, finish_metrics(run_dir, info, finished)[0], info, 0)
    solver, responder = make_agents(cfg)  # before anything is written: a bad agent leaves no folder behind
    try:
        check_agent_identity(info, solver, responder, run_dir)
        info = start_info(info, config, cfg, dataset, solver, responder)
        session = begin_session(run_dir, info, {"start": now_iso(), "resumed_with": len(done.records),
                                                "instances": len(todo), "execution": execution_of(cfg)})
        started = time.perf_counter()
        try:
            stats = execute(cfg, run_dir, todo, regime, solver, responder, len(dataset.instances),
                            len(done.records), finished)
        except BaseException as exc:
            end_session_failed(run_dir, info, session, exc)
            raise
        backends = backend_stats(solver, responder)
    finally:
        solver.close()
        if responder is not None:
            responder.close()
    session.update(end=now_iso(), end_status="complete", wall_s=round(time.perf_counter() - started, 3),
                   scheduler=stats)
    if backends:
        session["backends"] = backends
    metrics, info["usage"] = finish_metrics(run_dir, info, finished)
    info.update(status="complete", end_time=session["end"], transcript_sha256=sha256_file(run_dir.transcripts),
                engine_calls=_total_calls(info["sessions"]), summary={k: metrics["overall"].get(k) for k in
                                                                      ("n", "accuracy", "hit_rate")})
    run_dir.save_info(info)
    return MiraRunResult(run_dir, metrics, info, len(todo))


def execution_of(cfg: MiraRunConfig) -> dict[str, Any]:
    """How this session ran: settings that cannot change results (they may differ between sessions)."""
    return {"max_concurrent": cfg.max_concurrent, "fsync": cfg.fsync,
            "solver_options": split_options(cfg.solver_options)[1],
            "responder_options": split_options(cfg.responder_options)[1] if cfg.condition == "standard" else {}}


def execute(
    cfg: MiraRunConfig,
    run_dir: RunDir,
    todo: list[dict[str, Any]],
    regime: str,
    solver: Solver,
    responder: Responder | None,
    total: int,
    done: int,
    finished: MetricInputs | None = None,
) -> dict[str, Any]:
    """Run the episodes of ``todo``, appending each finished one to the transcript (and to ``finished``)."""
    episode_config = EpisodeConfig(
        condition=cfg.condition,
        regime=regime,
        after_offer=cfg.after_offer,
        solver_privileged=solver.privileged,
        responder_privileged=bool(responder and responder.privileged),
    )

    def episodes() -> Iterator[MiraEpisode]:
        for inst in todo:
            yield MiraEpisode(inst, episode_config)

    handlers: dict[str, Any] = {SOLVER: solver.act}
    if responder is not None:
        handlers[RESPONDER] = responder.respond
    disable = True if cfg.progress is False else (None if cfg.progress is None else False)
    bar = tqdm(total=total, initial=done, unit="inst", desc=cfg.label or "mira", disable=disable, file=sys.stderr,
               mininterval=0.5)
    with run_dir.writer(cfg.fsync) as writer, bar:

        def on_finished(episodes: list[MiraEpisode]) -> None:
            records = [ep.safe_record() for ep in episodes]
            lines = [transcript_line(record) for record in records]
            writer.write_lines(line for line, _ in lines)
            if finished is not None:
                for record, (_, readable) in zip(records, lines, strict=True):
                    finished.add(record, readable)
            bar.update(len(episodes))

        stats = run_episodes(episodes(), handlers, [SOLVER, RESPONDER], on_finished, cfg.max_concurrent)
    return stats.as_dict()


def start_info(
    info: dict[str, Any] | None,
    config: dict[str, Any],
    cfg: MiraRunConfig,
    dataset: Dataset,
    solver: Solver,
    responder: Responder | None,
) -> dict[str, Any]:
    """``run.json`` at the start of a session (kept and extended on resume)."""
    if info is None:
        info = {"format": "run/1", "benchmark": "mira", "config": config, "config_sha256": fingerprint(config),
                "start_time": now_iso(), "sessions": []}
    info.update(
        status="running",
        label=cfg.label or default_label(config, dataset.view_variants()),
        harness_version=HARNESS_VERSION,
        protocol_version=PROTOCOL_VERSION,
        dataset={"path": dataset.path, **_resolved(dataset), "sha256": dataset.sha256,
                 "instances": len(dataset.instances),
                 "generator_versions": dataset.generator_versions(), "has_few_shot": dataset.has_few_shot,
                 "view_variants": dataset.view_variants(),
                 **({"source": dataset.source} if dataset.source else {})},
        generator_version=",".join(dataset.generator_versions()),
        seed_set={"dataset_seed": _single(dataset.dataset_seeds()) if cfg.dataset_seed is None else cfg.dataset_seed,
                  "instance_seeds_sha256": dataset.seed_digest(),
                  "inference_seed": INFERENCE_SEED},
        agents={"solver": solver.describe(), "responder": responder.describe() if responder else None},
        decoding={"solver": solver.describe().get("decoding"),
                  "responder": responder.describe().get("decoding") if responder else None},
        prompt_versions={"protocol": PROTOCOL_VERSION, "solver": solver.describe().get("prompt_version"),
                         "responder": responder.describe().get("prompt_version") if responder else None},
        code=code_version(),
        environment=environment(),
        execution=execution_of(cfg),
    )
    return info


def _resolved(dataset: Any) -> dict[str, str]:
    """A relative dataset path also as an absolute one (``path_resolved``), so that ``rejudge`` run from another
    directory finds the file (it is used only with the recorded checksum)."""
    if dataset.source or not dataset.path or Path(dataset.path).is_absolute():
        return {}
    return {"path_resolved": str(Path(dataset.path).resolve())}


def backend_stats(solver: Solver, responder: Responder | None) -> dict[str, Any]:
    """Engine calls, tokens, time and parse errors of model agents that report them (``stats()``)."""
    out = {}
    for role, agent in (("solver", solver), ("responder", responder)):
        report = getattr(agent, "stats", None)
        if callable(report):
            out[role] = report()
    return out


def default_label(config: dict[str, Any], view_variants: list[str] | None = None) -> str:
    regime = {"zero_shot": "ZS", "four_shot": "4S"}.get(config["regime"], config["regime"])
    who = config["solver"] if config["condition"] == "oracle_hint" else f"{config['solver']}/{config['responder']}"
    suffix = ", oracle-hint" if config["condition"] == "oracle_hint" else ""
    if view_variants == ["slot_notice"]:
        suffix += ", slot notice"
    return f"{who} {regime}{suffix}"


def finish_metrics(run_dir: RunDir, info: dict[str, Any],
                   finished: MetricInputs | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """``metrics.json`` from the live per-instance metrics of the transcript (``score`` recomputes them): from
    ``finished`` when it holds every line as it reads back, else from the transcript file. A run with lines of
    k > 1 instances reads its transcript back: its k groupings need the events of its k = 1 lines too."""
    from harness.mira.score import load_records

    in_memory = (finished is not None and finished.exact
                 and not has_multi_hint([r["live_metrics"] for r in finished.records]))
    records = finished.records if finished is not None and in_memory else load_records(run_dir)
    summary = summarize(records, [r["live_metrics"] for r in records])
    metrics = {"benchmark": "mira", "label": info.get("label"), **summary}
    write_json_atomic(run_dir.metrics_json, metrics)
    return metrics, usage_totals(records)


METRIC_FIELDS = ("instance_id", "family", "type", "difficulty", "condition", "live_metrics", "usage")


class MetricInputs:
    """The fields of each transcript line that ``metrics.json`` is made of (``METRIC_FIELDS``), gathered as the
    lines are read at the start and written during the run, so that the end of the run need not read back,
    parse and re-check the file it has just written (for a run whose responder answers every request, that
    re-read cost as much as the responder itself).

    A line is kept only if ``load_records`` would accept it and read back the same values: written as is
    (``transcript_line``), schema-valid, its expected answer decodable, the kept fields plain JSON values. One
    that is not turns ``exact`` off, and ``finish_metrics`` reads the transcript file as before (reporting the
    line as it always did). Lines read at the start were parsed and schema-checked by ``RunDir.prepare``; the
    expected answer of a line written here is the instance's ``global_solution``, which ``load_dataset``
    decoded with the same answer type and keys."""

    def __init__(self, prior: Iterable[dict[str, Any]] = ()):
        self.records: list[dict[str, Any]] = []
        self.exact = True
        self._ids: set[str] = set()
        for record in prior:
            self._keep(record, expected_checked=False)

    def add(self, record: dict[str, Any], readable: bool) -> None:
        """A line this process wrote (``readable``: ``transcript_line`` says it reads back as ``record``)."""
        if self.exact and not (readable and _schema_valid(record)):
            self.exact = False
        self._keep(record, expected_checked=True)

    def _keep(self, record: dict[str, Any], expected_checked: bool) -> None:
        from harness.mira.score import expected_decodes

        if not self.exact:
            return
        rid = record.get("instance_id")
        kept = {k: record[k] for k in METRIC_FIELDS if k in record}
        if (not isinstance(rid, str) or rid in self._ids or not json_plain(kept)
                or not (expected_checked or expected_decodes(record))):
            self.exact = False
            return
        self._ids.add(rid)
        self.records.append(kept)


def _schema_valid(record: dict[str, Any]) -> bool:
    try:
        return bool(fast_validator(TRANSCRIPT_SCHEMA).is_valid(record))
    except Exception:  # e.g. a key that is not a string: let the transcript reader say what is wrong
        return False


def usage_totals(records: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Token usage and call counts that backends reported, summed per role over the transcript."""
    totals: dict[str, dict[str, int]] = {}
    for record in records:
        for role, usage in (record.get("usage") or {}).items():
            acc = totals.setdefault(role, {})
            for key, value in usage.items():
                acc[key] = acc.get(key, 0) + value
    return totals


def check_agent_identity(
    info: dict[str, Any] | None, solver: Solver, responder: Responder | None, where: RunDir
) -> None:
    """On resume, the agents must describe themselves as before (model, decoding, prompt version)."""
    if not info or not info.get("agents"):
        return
    now = {"solver": solver.describe(), "responder": responder.describe() if responder else None}
    if not same_identity(info["agents"], now):
        raise ConfigMismatch(f"{where.path}: refusing to resume: the agents describe themselves differently "
                             f"(was {info['agents']}, now {now}); use a new --out directory")

def _total_calls(sessions: list[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = {"engine_calls": 0, "steps": 0, "by_role": {}}
    for session in sessions:
        sched = session.get("scheduler") or {}
        total["engine_calls"] += sched.get("engine_calls", 0)
        total["steps"] += sched.get("steps", 0)
        for role, stats in (sched.get("by_role") or {}).items():
            acc = total["by_role"].setdefault(role, {"calls": 0, "items": 0, "max_batch": 0})
            acc["calls"] += stats.get("calls", 0)
            acc["items"] += stats.get("items", 0)
            acc["max_batch"] = max(acc["max_batch"], stats.get("max_batch", 0))
    return total


def _single(values: list[int]) -> int | None:
    return values[0] if len(values) == 1 else None
