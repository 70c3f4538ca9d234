"""``run_eval.py import-inspect LOG --out RUN``: an inspect log of ``mira_math`` or ``elenchos`` becomes one of our
run directories (``run.json``, ``transcripts.jsonl``, ``metrics.json``), so ``run_eval.py score`` and the
comparison tables work on it.

The transcript lines are the ones our episodes wrote during the inspect run (kept in each sample's store), so
nothing is re-derived from inspect's messages. Samples without a transcript (errors, cancelled samples) are
listed in ``run.json`` (``source.skipped``) and left out; a log with several epochs is refused (our run
directories hold one line per instance). ``run.json`` records the inspect eval (ids, task, model, log file and
its sha256, generate config, git revision) in place of our session bookkeeping.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Any

from generators.safefs import LOCK_NAME
from harness import HARNESS_VERSION, untrusted
from harness.errors import HarnessError
from harness.rundir import METRICS_JSON, PARTIAL, RUN_JSON, TRANSCRIPTS, RunDir, environment, fingerprint, sha256_file

MIRA_KEYS = ("mira_transcript", "mira_run")
ELENCHOS_KEYS = ("elenchos_transcript", "elenchos_run")
LINE_SCHEMAS = {"mira": "mira_transcript", "elenchos": "elenchos_transcript"}
RUN_SCHEMA = "inspect_run"
WRITTEN = (TRANSCRIPTS, RUN_JSON, METRICS_JSON, PARTIAL)  # what a failed import removes again


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="inspect log file (.eval or .json) of harness/inspect_tasks.py@mira_math or @elenchos")
    p.add_argument("--out", required=True, help="new run directory (must not exist or be empty)")
    p.add_argument("--label", help="run label for tables (default: MODEL via inspect)")


def run(args: argparse.Namespace) -> int:
    result = import_log(args.log, args.out, args.label)
    print(f"{args.out}: imported {result['imported']} {result['benchmark']} transcript line(s) from {args.log}"
          + (f"; skipped {len(result['skipped'])} sample(s) without a transcript" if result["skipped"] else ""),
          file=sys.stderr)
    return 0


def _read(path: str) -> Any:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise HarnessError("import-inspect needs inspect_ai: pip install -e '.[inspect]'") from None
    if not Path(path).exists():
        raise HarnessError(f"{path}: no such inspect log")
    with untrusted.open_file(path, untrusted.MAX_INSPECT_LOG_BYTES) as f:  # inspect reads this descriptor
        is_zip = untrusted.check_zip(f, path)  # a .eval log: its members bounded before inspect unpacks them
        try:
            return read_eval_log(f, format="eval" if is_zip else "json")
        except Exception as exc:  # inspect raises several types for unreadable logs
            raise HarnessError(f"{path}: not a readable inspect log: {exc}") from None


def import_log(path: str, out: str, label: str | None = None) -> dict[str, Any]:
    log = _read(path)
    samples = list(log.samples or [])
    if not samples:
        raise HarnessError(f"{path}: the log has no samples (was it written with --no-log-samples?)")
    if any((s.epoch or 1) > 1 for s in samples):
        raise HarnessError(f"{path}: a log with several epochs cannot become one run directory (one line per instance)")
    benchmark, lines, run_info, skipped = _transcripts(path, samples)
    lines.sort(key=lambda line: line["instance_id"])
    run_dir = RunDir(out)
    if run_dir.path.exists() and not run_dir.path.is_dir():
        raise HarnessError(f"{run_dir.path}: is a file; import into a new --out directory")
    with run_dir.locked():
        if any(p.name != LOCK_NAME for p in run_dir.path.iterdir()):
            raise HarnessError(f"{run_dir.path}: exists and is not empty; import into a new --out directory")
        try:
            return _write_run(run_dir, log, path, benchmark, lines, run_info, skipped, label)
        except BaseException:
            _remove_written(run_dir)  # a failed import leaves nothing behind
            raise


def _remove_written(run_dir: RunDir) -> None:
    for name in WRITTEN:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(run_dir.path / name)


def _write_run(run_dir: RunDir, log: Any, path: str, benchmark: str, lines: list[dict[str, Any]],
               run_info: dict[str, Any], skipped: list[dict[str, Any]], label: str | None) -> dict[str, Any]:
    with run_dir.writer() as writer:
        writer.write(lines)
    info = _info(log, path, benchmark, run_info, lines, skipped, label)
    run_dir.save_info(info)
    if benchmark == "mira":
        from harness.mira.run import finish_metrics
    else:
        from harness.elenchos.run import finish_metrics  # type: ignore[assignment]
    try:
        metrics, info["usage"] = finish_metrics(run_dir, info)
    except HarnessError:
        raise
    except Exception as exc:  # live metrics of another shape: the log was not written by our tasks
        raise HarnessError(f"{path}: the samples' live_metrics cannot be summarised ({type(exc).__name__}); "
                           "not a log of harness/inspect_tasks.py?") from None
    info["transcript_sha256"] = sha256_file(run_dir.transcripts)
    info["summary"] = _summary(benchmark, metrics)
    run_dir.save_info(info)
    return {"benchmark": benchmark, "imported": len(lines), "skipped": skipped, "run_dir": str(run_dir.path)}


def _transcripts(path: str, samples: list[Any]) -> tuple[str, list[dict[str, Any]], dict[str, Any], list[dict]]:
    benchmark, run_info, lines, skipped = None, None, [], []
    seen: set[str] = set()
    for sample in samples:
        store = sample.store or {}
        if not isinstance(store, dict):
            raise HarnessError(f"{path} [{_sid(sample)}]: store: not an object")
        kind = "mira" if MIRA_KEYS[0] in store else ("elenchos" if ELENCHOS_KEYS[0] in store else None)
        if kind is None:
            error = getattr(sample.error, "message", None) if sample.error else "no transcript"
            skipped.append({"id": _sid(sample), "error": str(error)[:500]})
            continue
        keys = MIRA_KEYS if kind == "mira" else ELENCHOS_KEYS
        if benchmark not in (None, kind):
            raise HarnessError(f"{path}: the log mixes MIRA-Math and Elenchos samples")
        line = store[keys[0]]
        if not isinstance(line, dict) or not isinstance(line.get("instance_id"), str):
            raise HarnessError(f"{path} [{_sid(sample)}]: store[{keys[0]!r}] is not a transcript line (no instance_id)")
        _check_part(path, sample, f"store.{keys[0]}", LINE_SCHEMAS[kind], line)
        if store.get(keys[1]) is not None:
            _check_part(path, sample, f"store.{keys[1]}", RUN_SCHEMA, store[keys[1]])
            if store[keys[1]].get("benchmark", kind) != kind:
                raise HarnessError(f"{path} [{_sid(sample)}]: store.{keys[1]}.benchmark: not {kind!r}")
        benchmark, run_info = kind, store.get(keys[1]) or run_info
        if line["instance_id"] in seen:
            raise HarnessError(f"{path} [{_sid(sample)}]: store.{keys[0]}.instance_id: a second line for "
                               f"{line['instance_id'][:100]!r}")
        seen.add(line["instance_id"])
        lines.append(line)
    if benchmark is None or run_info is None:
        failed = next((s for s in skipped if s["error"] != "no transcript"), None)
        why = (f"; samples failed, e.g. [{failed['id']}]: {failed['error'][:200]}"
               if failed else "")
        raise HarnessError(f"{path}: no sample has a transcript of harness/inspect_tasks.py (mira_math or elenchos)"
                           + why)
    return benchmark, lines, run_info, skipped


def _sid(sample: Any) -> str:
    return str(getattr(sample, "id", "?"))[:100]


def _check_part(path: str, sample: Any, field: str, schema: str, value: Any) -> None:
    """A store entry, checked against its schema (and the reader's nesting limit) before anything uses it."""
    if untrusted.too_deep(value):
        problem: str | None = f"(record): nested deeper than {untrusted.MAX_DEPTH} levels"
    else:
        problem = untrusted.record_problem(schema, value)
    if problem is not None:
        where = field if problem.startswith("(record)") else f"{field}."
        problem = problem.removeprefix("(record)")
        raise HarnessError(f"{path} [{_sid(sample)}]: {where}{' '.join(problem.split())[:300]}")


def _agent(log: Any) -> dict[str, Any]:
    config = log.eval.model_generate_config
    decoding = config.model_dump(exclude_none=True) if config is not None else {}
    return {"spec": f"inspect:{log.eval.model}", "backend": "inspect", "model": log.eval.model,
            "base_url": log.eval.model_base_url, "decoding": decoding, "deterministic": False}


def _info(log: Any, path: str, benchmark: str, run: dict[str, Any], lines: list[dict[str, Any]],
          skipped: list[dict[str, Any]], label: str | None) -> dict[str, Any]:
    agent = _agent(log)
    if benchmark == "mira":
        config = {"benchmark": "mira", "protocol_version": run["protocol_version"],
                  "dataset_sha256": run["dataset_sha256"], "instances": run["instances"], "limit": run.get("limit"),
                  "solver": agent["spec"], "solver_options": {}, "responder": run.get("responder"),
                  "responder_options": run.get("responder_options") or {}, "condition": run["condition"],
                  "regime": run["regime"], "after_offer": run["after_offer"]}
        extra = {"dataset": {"path": run["dataset"], "sha256": run["dataset_sha256"], "instances": run["instances"],
                             "generator_versions": run.get("generator_versions"),
                             **({"source": run["dataset_source"]} if run.get("dataset_source") else {})},
                 "generator_version": ",".join(run.get("generator_versions") or []),
                 "seed_set": {"dataset_seed": (run.get("dataset_seeds") or [None])[0] if len(
                     run.get("dataset_seeds") or []) == 1 else None,
                     "instance_seeds_sha256": run.get("instance_seeds_sha256"),
                     "inference_seed": agent["decoding"].get("seed")},
                 "agents": {"solver": agent, "responder": run.get("responder_describe")},
                 "decoding": {"solver": agent["decoding"], "responder": (run.get("responder_describe") or {}).get(
                     "decoding")},
                 "prompt_versions": {"protocol": run["protocol_version"], "solver": run.get("solver_prompt_version"),
                                     "responder": (run.get("responder_describe") or {}).get("prompt_version")}}
        default_label = f"{log.eval.model} via inspect"
    else:
        config = {"benchmark": "elenchos", "protocol_version": run["protocol_version"], "suite": run["suite"],
                  "sessions_sha256": run["sessions_sha256"], "sessions": run["sessions"], "limit": run.get("limit"),
                  "agent": agent["spec"], "agent_options": {}}
        extra = {"elenchos_version": run.get("elenchos_version"),
                 "data": {"source": run["source"], "sessions_sha256": run["sessions_sha256"],
                          "sessions": run["sessions"], "seed": run.get("seed"), "repetitions": run.get("repetitions")},
                 "agents": {"agent": agent}, "decoding": {"agent": agent["decoding"]},
                 "prompt_versions": {"protocol": run["protocol_version"], "agent": run.get("prompt_version")}}
        default_label = f"{log.eval.model} {run['suite']} via inspect"
    revision = log.eval.revision
    stats = log.stats
    return {
        "format": "run/1", "benchmark": benchmark, "config": config, "config_sha256": fingerprint(config),
        "status": "complete", "label": label or default_label, "harness_version": HARNESS_VERSION,
        "protocol_version": run["protocol_version"], **extra,
        "start_time": stats.started_at if stats else None, "end_time": stats.completed_at if stats else None,
        "sessions": [],
        "code": {"commit": revision.commit if revision else None, "dirty": getattr(revision, "dirty", None)},
        "environment": environment(),
        "execution": {"front_end": "inspect_ai", "inspect_version": log.eval.packages.get("inspect_ai")},
        "source": {"inspect_log": str(path), "inspect_log_sha256": sha256_file(Path(path)),
                   "eval_id": log.eval.eval_id, "run_id": log.eval.run_id, "task": log.eval.task,
                   "task_args": log.eval.task_args, "created": log.eval.created, "status": log.status,
                   "samples": len(lines) + len(skipped), "skipped": skipped},
    }


def _summary(benchmark: str, metrics: dict[str, Any]) -> dict[str, Any]:
    overall = metrics.get("overall", {})
    keys = ("n", "accuracy", "hit_rate") if benchmark == "mira" else ("n", "V", "V_K", "V_A", "E_ELX", "P_mean")
    return {k: overall.get(k) for k in keys}
