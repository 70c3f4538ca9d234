"""The one-call GPU check: the `hf:` path on a Llama-3.1-8B-shaped model with random bf16 weights, every phase
under a time budget, everything measured written to ``OUT/summary.json`` (rewritten after each phase).

    python benchmarks/device_check.py --out OUT [--tiny] [--device cuda] [--total-s 500] [--phases a,b,...]

Phases (run in the order of ``PHASES``; each stops at its own budget and at the total one, and the rest still run
or are marked skipped):

* ``equality``: greedy tokens of ragged prefill with the prefix cache against plain left-padded ``generate``, on a
  few solver conversations over several turns, JSON-constrained (the replies are comparable text), in the model's
  dtype (bf16 on the GPU);
* ``full_split``: the full zero-shot split (2,310 instances) with the ``hf:`` solver and the ``rule`` responder,
  batched, structured output on: wall time, generated tokens/s, engine calls, peak GPU memory, prefix-cache reuse,
  one timing per engine call (per turn);
* ``slice_batched`` / ``slice_one_by_one``: the 110-instance slice of ``benchmarks/bench_backends.py`` batched and
  with ``max_concurrent=1`` (in a seeded shuffled order, so that the instances finished within the budget are a
  fair sample): seconds per instance and per solver turn, and their ratios;
* ``slice_batched_big_cache``: the slice batched with a prefix cache that holds its histories (``--big-cache-gib``;
  the default bound, a tenth of the free memory, holds few histories of an 8B model);
* ``elenchos``: a few ladder sessions with the ``hf:`` agent (batched).

The model is built in memory on the device (``torch.device`` context, weights initialised there; nothing is
downloaded or written to disk but a tokenizer trained here on the prompts' text) and served through the real
``HFEngine`` (a subclass whose only change is where the model comes from); the harness's agents find that engine
in the engine pool, so every phase goes through ``run_mira`` / ``run_elenchos`` as ``run_eval.py`` does. A phase
past its budget stops before its next ``generate`` chunk; SIGTERM or SIGINT stops the current phase the same way
and skips the rest. ``--tiny`` runs the same phases with the tiny model of ``harness.backends.tiny`` and small
slices (the CPU dry run that ``tests/backends/test_device_check.py`` runs).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import random
import signal
import statistics
import sys
import tempfile
import time
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generators.jsonl import write_jsonl  # noqa: E402
from generators.split import generate, typed_slots  # noqa: E402
from harness.backends import pool  # noqa: E402
from harness.backends.options import engine_key  # noqa: E402

SUMMARY_VERSION = 1
PHASES = ("equality", "full_split", "slice_batched", "slice_batched_big_cache", "slice_one_by_one", "elenchos")


from benchmarks.device_model import (  # noqa: E402
    GPU,
    TINY,
    TUNABLE,
    BuiltEngine,
    PhaseTimeout,
    Profile,
    build_model,
    build_model_dir,
    engine_kwargs,
)


class Interrupted(BaseException):
    """SIGTERM or SIGINT: stop the current phase, skip the rest, write the summary."""


def _on_signal(signum: int, _frame: Any) -> None:
    raise Interrupted(signal.Signals(signum).name)





# ---------------------------------------------------------------------------------------------------- measuring
class Check:
    def __init__(self, args: argparse.Namespace, profile: Profile):
        self.args, self.profile = args, profile
        self.out = Path(args.out)
        self.started = time.monotonic()
        self.end = self.started + (args.total_s if args.total_s is not None else profile.total_s)
        self.summary: dict[str, Any] = {"version": SUMMARY_VERSION, "profile": profile.name, "device": args.device,
                                        "complete": False, "stopped": None, "phases": {}}
        self.engine: BuiltEngine | None = None
        self.engine_opts: dict[str, str] = {}
        self.model_dir: Path | None = None
        self.files: dict[str, Path] = {}
        self.work: Path | None = None

    # ------------------------------------------------------------------------------------------------ bookkeeping
    def save(self) -> None:
        self.summary["wall_s"] = round(time.monotonic() - self.started, 1)
        tmp = self.out / "summary.json.tmp"
        tmp.write_text(json.dumps(self.summary, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, self.out / "summary.json")

    def say(self, text: str) -> None:
        print(f"== [{time.monotonic() - self.started:6.1f}s] {text}", file=sys.stderr, flush=True)

    def torch(self) -> Any:
        import torch

        return torch

    def cuda(self) -> bool:
        return self.args.device.startswith("cuda")

    def memory(self) -> dict[str, Any]:
        if not self.cuda():
            import resource

            return {"process_max_rss_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2)}
        torch = self.torch()
        return {"peak_allocated_gib": round(torch.cuda.max_memory_allocated() / 2**30, 2),
                "peak_reserved_gib": round(torch.cuda.max_memory_reserved() / 2**30, 2)}

    def sync(self) -> None:
        if self.cuda():
            self.torch().cuda.synchronize()

    # ------------------------------------------------------------------------------------------------ set-up
    def setup(self, work: Path) -> None:
        torch = self.torch()
        import transformers

        self.work = work
        env: dict[str, Any] = {"python": platform.python_version(), "torch": torch.__version__,
                               "transformers": transformers.__version__, "cuda": torch.version.cuda}
        for package in ("xgrammar", "jsonschema", "jsonschema-rs", "lark", "tokenizers"):
            try:
                env[package] = importlib.metadata.version(package)
            except importlib.metadata.PackageNotFoundError:
                env[package] = None
        if self.cuda():
            props = torch.cuda.get_device_properties(self.args.device)
            env.update(gpu=props.name, gpu_memory_gib=round(props.total_memory / 2**30, 1))
        self.summary["environment"] = env
        self.save()

        p = self.profile
        started = time.perf_counter()
        self.model_dir = build_model_dir(work, p)
        tokenizer_s = time.perf_counter() - started
        started = time.perf_counter()
        dtype = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}[p.dtype]
        lm = build_model(self.model_dir, self.args.device, dtype)
        self.sync()
        build_s = time.perf_counter() - started
        self.engine_opts = {"device": self.args.device, "dtype": p.dtype, "batch_size": str(p.batch_size),
                            **self.args.engine_opt}
        engine = BuiltEngine(str(self.model_dir), lm, **engine_kwargs(self.engine_opts))
        self.engine = engine
        # The agents built by run_mira / run_elenchos acquire this same engine (same key); this reference keeps it
        # open between phases.
        pool.acquire(engine_key("hf", str(self.model_dir), self.engine_opts), lambda: engine)
        cfg = lm.config
        self.summary["model"] = {
            "shape": {"layers": cfg.num_hidden_layers, "hidden": cfg.hidden_size, "heads": cfg.num_attention_heads,
                      "kv_heads": cfg.num_key_value_heads, "intermediate": cfg.intermediate_size,
                      "vocab": cfg.vocab_size},
            "parameters_b": round(sum(t.numel() for t in lm.parameters()) / 1e9, 3),
            "dtype": str(next(lm.parameters()).dtype).removeprefix("torch."),
            "tokenizer_tokens": len(engine.tokenizer), "tokenizer_s": round(tokenizer_s, 1),
            "build_s": round(build_s, 1), "engine": engine.describe(), "memory_after_build": self.memory()}
        self.say(f"model built: {self.summary['model']['parameters_b']}B parameters in {build_s:.1f}s")
        self.data(work)
        self.save()

    def data(self, work: Path) -> None:
        p = self.profile
        full = list(generate(typed_slots(*p.split), 1234))  # 2,310 instances in about a second
        if p.full_limit:
            full = _spread(full, p.full_limit)
        sliced = _spread(full, p.slice)
        shuffled = list(sliced)
        random.Random(1234).shuffle(shuffled)
        if p.one_by_one_limit:
            shuffled = shuffled[:p.one_by_one_limit]
        self.files = {"full": work / "full.jsonl", "slice": work / "slice.jsonl", "shuffled": work / "shuffled.jsonl"}
        write_jsonl(self.files["full"], full)
        write_jsonl(self.files["slice"], sliced)
        write_jsonl(self.files["shuffled"], shuffled)
        self.summary["data"] = {"full_split": len(full), "slice": len(sliced), "one_by_one_order": "seeded shuffle",
                                "solver_options": p.solver_opts, "responder": "rule", "agent_options": p.agent_opts}

    # ------------------------------------------------------------------------------------------------ phases
    def run_phase(self, name: str) -> None:
        engine = self.engine
        assert engine is not None
        now = time.monotonic()
        budget = self.args.budget.get(name, self.profile.budgets[name])
        deadline = min(now + budget, self.end - self.args.reserve_s)
        record: dict[str, Any] = {"budget_s": budget}
        self.summary["phases"][name] = record
        if deadline - now < self.args.min_phase_s:
            record["status"] = "skipped: no time left"
            self.say(f"{name}: skipped (no time left)")
            self.save()
            return
        self.say(f"{name}: started (budget {deadline - now:.0f}s)")
        engine.reset_phase(int(self.profile.big_cache_gib * 2**30) if name == "slice_batched_big_cache" else None)
        if engine.ragged is not None and engine.ragged.prefix_cache is not None:
            record["prefix_cache_gib"] = round(engine.ragged.prefix_cache.max_bytes / 2**30, 2)
        if self.cuda():
            self.torch().cuda.empty_cache()  # what the last phase's prefix cache held
            self.torch().cuda.reset_peak_memory_stats()
        engine.deadline = deadline
        started = time.perf_counter()
        try:
            record.update(getattr(self, f"phase_{name}")())
            record["status"] = "complete"
        except PhaseTimeout:
            record["status"] = "stopped: time budget"
        except Interrupted as exc:
            record["status"] = f"stopped: {exc}"
            raise
        except Exception as exc:  # a broken phase must not cost the others
            record["status"] = "error"
            record["error"] = f"{type(exc).__name__}: {exc}"
            record["traceback"] = traceback.format_exc()[-4000:]
        finally:
            engine.deadline = None
            try:
                self.sync()
            except Exception as exc:  # a device error after the phase: keep the figures, say so
                record.setdefault("error", f"{type(exc).__name__}: {exc}")
            record["wall_s"] = round(time.perf_counter() - started, 2)
            record.update(self.engine_figures(record["wall_s"]))
            record.setdefault("partial", getattr(self, "_partial", lambda: {})())
            self._partial = lambda: {}
            self.say(f"{name}: {record['status']} after {record['wall_s']}s")
            self.save()

    def engine_figures(self, wall_s: float) -> dict[str, Any]:
        engine = self.engine
        assert engine is not None
        chunks = dict(engine.chunks)
        chunks["seconds"] = round(chunks["seconds"], 2)
        calls = list(engine.calls)
        done = [c for c in calls if not c.get("interrupted")]
        busy = sum(c["seconds"] for c in done)
        out: dict[str, Any] = {
            "engine_calls": len(calls),
            "turns_per_s": round(sum(c["items"] for c in done) / busy, 3) if busy else None,
            "generated_tokens": chunks["completion_tokens"],
            "generated_tokens_per_s": round(chunks["completion_tokens"] / wall_s, 1) if wall_s else None,
            "generate_chunks": chunks,
            "memory": self.memory(),
        }
        if engine.ragged is not None:
            out["prefill"] = engine.ragged.summary()
        if len(calls) <= 64:
            out["calls"] = calls
        else:
            seconds = [c["seconds"] for c in calls]
            out["calls_summary"] = {"n": len(calls), "mean_s": round(statistics.fmean(seconds), 3),
                                    "median_s": round(statistics.median(seconds), 3), "max_s": max(seconds)}
        return out

    def mira(self, dataset: Path, label: str, max_concurrent: int | None) -> dict[str, Any]:
        from harness.mira.run import MiraRunConfig, run_mira

        out = self.work / f"run-{label}"
        self._partial = lambda: _mira_partial(out)
        cfg = MiraRunConfig(dataset=str(dataset), out=str(out), solver=f"hf:{self.model_dir}", responder="rule",
                            solver_options={**self.profile.solver_opts, **self.engine_opts},
                            max_concurrent=max_concurrent, progress=False)
        result = run_mira(cfg)
        info = result.info
        self._keep_run_info(label, info)
        overall = result.metrics["overall"]
        records = _mira_partial(out)["instances_done"]
        return {"instances": records, "engine_calls_run_json": info["engine_calls"]["engine_calls"],
                "engine_calls_bound": 2 * (max((int(r["budget"]) for r in _lines(out)), default=0) + 2),
                "scheduler": info["sessions"][-1].get("scheduler"),
                "solver_parse_errors": overall.get("solver_parse_errors"), "answered": overall.get("answered"),
                "usage": info.get("usage")}

    def phase_full_split(self) -> dict[str, Any]:
        return self.mira(self.files["full"], "full", self.profile.full_max_concurrent)

    def phase_slice_batched(self) -> dict[str, Any]:
        return self.mira(self.files["slice"], "slice-batched", None)

    def phase_slice_batched_big_cache(self) -> dict[str, Any]:
        """The same, with a prefix cache large enough for every history of the slice (the auto bound, a tenth of the
        free memory, holds few 8B histories: this measures what a larger bound buys)."""
        return self.mira(self.files["slice"], "slice-batched-big-cache", None)

    def phase_slice_one_by_one(self) -> dict[str, Any]:
        return self.mira(self.files["shuffled"], "slice-one-by-one", 1)

    def phase_elenchos(self) -> dict[str, Any]:
        from harness.elenchos.run import ElenchosRunConfig, run_elenchos

        out = self.work / "run-elenchos"
        self._partial = lambda: {"sessions_done": len(_lines(out))}
        cfg = ElenchosRunConfig(out=str(out), suite="ladder", agent=f"hf:{self.model_dir}",
                                agent_options={**self.profile.agent_opts, **self.engine_opts},
                                limit=self.profile.elenchos_sessions, progress=False)
        result = run_elenchos(cfg)
        self._keep_run_info("elenchos", result.info)
        return {"sessions": len(_lines(out)), "engine_calls_run_json": result.info["engine_calls"],
                "summary": result.info.get("summary"), "usage": result.info.get("usage")}

    def phase_equality(self) -> dict[str, Any]:
        """The engine's ragged prefill (prefix cache on) against a padded engine on the same weights, turn by turn;
        both see the same history (the ragged engine's replies), so every turn is compared."""
        from harness.backends import mira_agents
        from harness.backends.base import ChatRequest, Decoding
        from harness.mira.episode import EpisodeConfig, MiraEpisode

        engine = self.engine
        assert engine is not None
        p = self.profile
        plain = BuiltEngine(str(self.model_dir), engine.lm, device=self.args.device, dtype=p.dtype,
                            batch_size=p.batch_size, prefill="padded", grammar="none")
        plain.grammars, plain.supports_schema = engine.grammars, engine.supports_schema  # the same compiled masks
        plain.deadline = engine.deadline
        try:
            instances = _spread([json.loads(x) for x in self.files["full"].read_text().splitlines()],
                                p.equality_conversations)
            turns = [MiraEpisode(inst, EpisodeConfig()).pending().payload for inst in instances]
            agent = mira_agents.ModelSolver("hf", str(self.model_dir), engine,
                                            Decoding(max_tokens=int(p.solver_opts["max_tokens"])), True,
                                            {"reasoning": p.solver_opts.get("reasoning", "true") == "true",
                                             "reasoning_chars": int(p.solver_opts.get("reasoning_chars", 240)),
                                             "request_chars": int(p.solver_opts.get("request_chars", 100))})
            requests = [agent.request_for(t) for t in turns]
            per_turn, equal_all = [], 0
            self._partial = lambda: {"turns": per_turn}
            for turn in range(p.equality_turns):
                ragged = engine.generate(requests, agent.decoding)
                padded = plain.generate(requests, agent.decoding)
                same = [a.text == b.text for a, b in zip(ragged, padded, strict=True)]
                per_turn.append({"turn": turn + 1, "equal": sum(same), "of": len(same),
                                 "prompt_tokens": sum(c.prompt_tokens for c in ragged),
                                 "first_difference": [_first_difference(a.text, b.text)
                                                      for a, b in zip(ragged, padded, strict=True)]})
                equal_all += sum(same)
                requests = [ChatRequest([*r.messages, {"role": "assistant", "content": c.text},
                                         {"role": "user", "content": f"Declined. Turn {turn + 2}."}],
                                        schema=r.schema, schema_name=r.schema_name, max_tokens=r.max_tokens)
                            for r, c in zip(requests, ragged, strict=True)]
            compared = len(per_turn) * len(requests)
            return {"dtype": engine.dtype_name, "conversations": len(requests), "turns": per_turn,
                    "equal_replies": equal_all, "compared_replies": compared,
                    "equal_rate": round(equal_all / compared, 4) if compared else None,
                    "padded_engine_seconds": round(plain.stats.seconds, 2)}
        finally:
            plain.close()

    def _keep_run_info(self, label: str, info: dict[str, Any]) -> None:
        runs = self.out / "run_info.json"
        data = json.loads(runs.read_text()) if runs.exists() else {}
        data[label] = info
        runs.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    # ------------------------------------------------------------------------------------------------ headline
    def headline(self) -> None:
        phases = self.summary["phases"]
        head: dict[str, Any] = {}
        full = phases.get("full_split", {})
        if full:
            done = full.get("instances", full.get("partial", {}).get("instances_done"))
            head.update(full_split_status=full.get("status"), full_split_instances=done,
                        full_split_wall_s=full.get("wall_s"),
                        full_split_tokens_per_s=full.get("generated_tokens_per_s"),
                        full_split_engine_calls=full.get("engine_calls"),
                        full_split_reused_rate=full.get("prefill", {}).get("reused_rate"),
                        full_split_peak_gib=full.get("memory", {}).get("peak_allocated_gib"))
        b, o = phases.get("slice_batched", {}), phases.get("slice_one_by_one", {})
        per_b, per_o = _per_instance(b), _per_instance(o)
        if per_b and per_o:
            head.update(slice_batched_s_per_instance=per_b, slice_one_by_one_s_per_instance=per_o,
                        batched_speedup_per_instance=round(per_o / per_b, 1))
        turns_b, turns_o = b.get("turns_per_s"), o.get("turns_per_s")
        if turns_b and turns_o:  # robust to a one-by-one run stopped by its budget after a few instances
            head.update(slice_batched_turns_per_s=turns_b, slice_one_by_one_turns_per_s=turns_o,
                        batched_speedup_per_turn=round(turns_b / turns_o, 1))
        big = phases.get("slice_batched_big_cache", {})
        if big.get("status") == "complete" and b.get("status") == "complete":
            head.update(slice_reused_rate=b.get("prefill", {}).get("reused_rate"),
                        slice_big_cache_reused_rate=big.get("prefill", {}).get("reused_rate"),
                        big_cache_speedup=round(b["wall_s"] / big["wall_s"], 2) if big.get("wall_s") else None,
                        big_cache_peak_gib=big.get("memory", {}).get("peak_allocated_gib"))
        eq = phases.get("equality", {})
        if "equal_rate" in eq:
            head["equality_rate"] = eq["equal_rate"]
        el = phases.get("elenchos", {})
        if el:
            head["elenchos_status"] = el.get("status")
            head["elenchos_engine_calls"] = el.get("engine_calls")
        self.summary["headline"] = head


def _per_instance(phase: dict[str, Any]) -> float | None:
    done = phase.get("instances", phase.get("partial", {}).get("instances_done"))
    return round(phase["wall_s"] / done, 3) if done else None


def _lines(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "transcripts.jsonl"
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut by the stop
    return out


def _mira_partial(run_dir: Path) -> dict[str, Any]:
    records = _lines(run_dir)
    return {"instances_done": len(records),
            "solver_turns_done": sum(len([e for e in r.get("events", []) if e.get("agent") == "A"])
                                     for r in records)}


def _first_difference(a: str, b: str) -> int | None:
    if a == b:
        return None
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _spread(instances: list[dict], n: int) -> list[dict]:
    if n >= len(instances):
        return list(instances)
    step = len(instances) / n
    return [instances[int(i * step)] for i in range(n)]


def _budgets(items: list[str]) -> dict[str, float]:
    out = {}
    for item in items:
        name, _, seconds = item.partition("=")
        if name not in PHASES or not seconds:
            raise SystemExit(f"--budget {item!r}: expected PHASE=SECONDS with PHASE in {', '.join(PHASES)}")
        out[name] = float(seconds)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT") or "runs/device_check")
    parser.add_argument("--tiny", action="store_true", help="the tiny model and small slices (CPU dry run)")
    parser.add_argument("--device", default=os.environ.get("DEVICE") or "cuda")
    parser.add_argument("--total-s", type=float, help="the whole check's budget (default: the profile's)")
    parser.add_argument("--reserve-s", type=float, default=5.0, help="kept free at the end for the summary")
    parser.add_argument("--min-phase-s", type=float, default=3.0, help="a phase with less time left is skipped")
    parser.add_argument("--budget", action="append", default=[], metavar="PHASE=S", help="a phase's own budget")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--full-limit", type=int, help="instances of the full split (default: the profile's)")
    parser.add_argument("--slice", type=int, help="instances of the slice (default: the profile's)")
    parser.add_argument("--batch-size", type=int, help="hf batch_size (default: the profile's)")
    parser.add_argument("--engine-opt", action="append", default=[], metavar="K=V",
                        help="an hf: engine option for every phase: prefix_cache_gib, prefill_rows, prefill, grammar")
    parser.add_argument("--big-cache-gib", type=float, help="slice_batched_big_cache's prefix cache (default: the "
                                                            "profile's)")
    parser.add_argument("--full-max-concurrent", type=int, help="full_split: episodes at a time (default: all)")
    parser.add_argument("--dtype", choices=("bf16", "fp16", "fp32"), help="the weights (default: bf16; --tiny fp32)")
    args = parser.parse_args(argv)
    args.budget = _budgets(args.budget)
    phases = [p for p in args.phases.split(",") if p]
    unknown = sorted(set(phases) - set(PHASES))
    if unknown:
        parser.error(f"unknown phases {unknown}; known: {', '.join(PHASES)}")
    profile = TINY if args.tiny else GPU
    args.engine_opt = dict(item.split("=", 1) for item in args.engine_opt)
    unknown_opts = sorted(set(args.engine_opt) - set(TUNABLE))
    if unknown_opts:
        parser.error(f"--engine-opt {unknown_opts}: tunable here: {', '.join(TUNABLE)}")
    for key, value in (("full_limit", args.full_limit), ("slice", args.slice), ("batch_size", args.batch_size),
                       ("big_cache_gib", args.big_cache_gib), ("full_max_concurrent", args.full_max_concurrent),
                       ("dtype", args.dtype)):
        if value is not None:
            profile = replace(profile, **{key: value})
    Path(args.out).mkdir(parents=True, exist_ok=True)
    check = Check(args, profile)
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        with tempfile.TemporaryDirectory(prefix="device_check_") as tmp:
            try:
                check.setup(Path(tmp))
                for name in phases:
                    check.run_phase(name)
                check.summary["complete"] = all(check.summary["phases"][n].get("status") == "complete"
                                                for n in phases)
            except Interrupted as exc:
                check.summary["stopped"] = f"signal {exc}"
                check.say(f"stopped by {exc}: writing the summary")
            except Exception as exc:  # set-up failed: still say so in the summary
                check.summary["stopped"] = f"error: {type(exc).__name__}: {exc}"
                check.summary["traceback"] = traceback.format_exc()[-4000:]
                check.say(check.summary["stopped"])
            finally:
                for name in phases:
                    check.summary["phases"].setdefault(name, {"status": "not run"})
                check.headline()
                check.save()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    print(json.dumps(check.summary.get("headline", {}), indent=2))
    return 0 if check.summary["stopped"] is None else 1


if __name__ == "__main__":
    raise SystemExit(main())
