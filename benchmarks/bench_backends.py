"""Benchmark: model backends on the batched scheduler, batched against one-by-one, with a tiny random Llama.

    python benchmarks/bench_backends.py [--slice 110] [--full] [--regimes zero_shot,four_shot]
                                        [--responder rule|same] [--backend hf|vllm] [--device cpu]
                                        [--engine-opt K=V ...] [--padded-baseline]
    python benchmarks/bench_backends.py --throughput [--backend hf|vllm] [--device cuda] [--n 256]

Default mode (CPU): builds the tiny model and the default split (seed 1234, 20/50 typed; not timed), then per
regime runs

* the **full split** batched (``--full``; 2,310 instances): engine calls, tokens, wall time;
* a **slice** (``--slice N`` instances spread evenly over the split) batched and one-by-one
  (``--max-concurrent 1``) in the same process: the speed-up of batching on the same work.

The solver is ``hf:`` (or ``vllm:``) on the tiny model with short replies (max_tokens 40, no reasoning field,
constrained decoding); the responder is ``rule`` (or the same model with ``--responder same``). Targets: the
batched run at least 10x faster than one-by-one (with ``--full``: the full split's time per instance against the
one-by-one slice's; without: the slice's two runs); at most ``2 x (max turns + 1)`` engine calls per regime.
The hf engine's prefill figures (prompt tokens reused from the prefix cache, forward passes) are in each run;
``--padded-baseline`` adds the slice batched with ``prefill=padded`` (plain left-padded ``generate``).
The model is random, so batched and one-by-one transcripts may differ token-wise (batch composition changes
near-tied logits); identical results are tested with a deterministic engine in tests/backends.

``--throughput``: one engine call of N conversations (zero-shot solver prompts), unconstrained and
constrained, completion tokens per second (used by scripts/gpu_smoke.sh).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generators.jsonl import write_jsonl  # noqa: E402
from generators.split import generate, typed_slots  # noqa: E402
from harness.mira.run import MiraRunConfig, run_mira  # noqa: E402

SOLVER_OPTS = {"max_tokens": "40", "reasoning": "false", "request_chars": "20"}
RESPONDER_OPTS = {"max_tokens": "40", "hint_chars": "12"}


def engine_opts(backend: str, device: str, extra: list[str] | None = None) -> dict[str, str]:
    given = dict(item.split("=", 1) for item in extra or [])
    if backend == "hf":
        return {"device": device, "batch_size": "256", **given}
    opts = {"max_model_len": "4096", "dtype": "float32" if device == "cpu" else "auto"}
    if device == "cpu":
        opts.update(enforce_eager="true", kv_cache_gib="2")
    return {**opts, **given}


def run_one(dataset: Path, out: Path, model: Path, args: argparse.Namespace, max_concurrent: int | None) -> dict:
    spec = f"{args.backend}:{model}"
    eng = engine_opts(args.backend, args.device, args.engine_opt)
    responder = spec if args.responder == "same" else "rule"
    cfg = MiraRunConfig(dataset=str(dataset), out=str(out), solver=spec, responder=responder,
                        solver_options={**SOLVER_OPTS, **eng},
                        responder_options={**RESPONDER_OPTS, **eng} if args.responder == "same" else {},
                        max_concurrent=max_concurrent, progress=False)
    started = time.perf_counter()
    result = run_mira(cfg)
    wall = time.perf_counter() - started
    info = result.info
    records = [json.loads(x) for x in (out / "transcripts.jsonl").read_text().splitlines()]
    max_turns = max(r["budget"] for r in records) + 1
    usage = info.get("usage", {})
    backends = info["sessions"][-1].get("backends", {})
    tokens = {role: {k: u.get(k, 0) for k in ("prompt_tokens", "completion_tokens")} for role, u in usage.items()}
    engine_s = sum(b.get("seconds", 0.0) for b in backends.values())
    prefill = backends.get("solver", {}).get("engine_totals", {}).get("prefill")
    return {
        "instances": len(records),
        "max_concurrent": max_concurrent,
        "wall_s": round(wall, 2),
        "engine_s": round(engine_s, 2),
        "s_per_instance": round(wall / len(records), 4),
        "engine_calls": info["engine_calls"]["engine_calls"],
        "engine_calls_bound": 2 * (max_turns + 1),
        "by_role": info["engine_calls"]["by_role"],
        "tokens": tokens,
        "solver_parse_errors": result.metrics["overall"]["solver_parse_errors"],
        "answered": result.metrics["overall"].get("answered"),
        **({"prefill": prefill} if prefill else {}),
    }


def spread(instances: list[dict], n: int) -> list[dict]:
    if n >= len(instances):
        return instances
    step = len(instances) / n
    return [instances[int(i * step)] for i in range(n)]


def mira_bench(args: argparse.Namespace, root: Path, model: Path) -> dict:
    slots = typed_slots(20, 50)
    report: dict = {"backend": args.backend, "device": args.device, "responder": args.responder, "regimes": {}}
    for regime in args.regimes.split(","):
        full = list(generate(slots, 1234, few_shot=regime == "four_shot"))
        files = {"full": root / f"{regime}.jsonl", "slice": root / f"{regime}_slice.jsonl"}
        write_jsonl(files["full"], full)
        write_jsonl(files["slice"], spread(full, args.slice))
        entry: dict = {}
        if args.full:
            entry["full_batched"] = run_one(files["full"], root / f"{regime}-full", model, args, None)
            print(f"[{regime}] full split batched: {json.dumps(entry['full_batched'])}", file=sys.stderr)
        entry["slice_batched"] = run_one(files["slice"], root / f"{regime}-slice-b", model, args, None)
        print(f"[{regime}] slice batched: {json.dumps(entry['slice_batched'])}", file=sys.stderr)
        if args.padded_baseline and args.backend == "hf":
            plain = argparse.Namespace(**{**vars(args), "engine_opt": [*args.engine_opt, "prefill=padded"]})
            entry["slice_batched_padded"] = run_one(files["slice"], root / f"{regime}-slice-p", model, plain, None)
            print(f"[{regime}] slice batched, prefill=padded: {json.dumps(entry['slice_batched_padded'])}",
                  file=sys.stderr)
            entry["speedup_of_ragged_prefill"] = round(entry["slice_batched_padded"]["wall_s"]
                                                       / entry["slice_batched"]["wall_s"], 1)
        entry["slice_one_by_one"] = run_one(files["slice"], root / f"{regime}-slice-1", model, args, 1)
        print(f"[{regime}] slice one-by-one: {json.dumps(entry['slice_one_by_one'])}", file=sys.stderr)
        b, o = entry["slice_batched"], entry["slice_one_by_one"]
        entry["speedup_slice"] = round(o["wall_s"] / b["wall_s"], 1)
        if args.full:
            f = entry["full_batched"]
            entry["one_by_one_full_estimate_s"] = round(o["s_per_instance"] * f["instances"], 1)
            entry["speedup_full_estimate"] = round(o["s_per_instance"] / f["s_per_instance"], 1)
        runs = [r for r in entry.values() if isinstance(r, dict) and r.get("max_concurrent") is None]
        entry["engine_calls_within_bound"] = all(r["engine_calls"] <= r["engine_calls_bound"] for r in runs)
        # The target is for the batched run against one-by-one: with --full, the full split's per-instance time
        # against the one-by-one slice's (one-by-one over all 2,310 instances would take over half an hour).
        entry["speedup"] = entry["speedup_full_estimate"] if args.full else entry["speedup_slice"]
        entry["speedup_target_met"] = entry["speedup"] >= 10
        report["regimes"][regime] = entry
    return report


def throughput(args: argparse.Namespace, model: Path) -> dict:
    from harness.backends import mira_agents
    from harness.backends.base import Decoding
    from harness.backends.options import Options
    from harness.mira.episode import EpisodeConfig, MiraEpisode

    instances = spread(list(generate(typed_slots(20, 50), 1234)), args.n)
    turns = [MiraEpisode(inst, EpisodeConfig()).pending().payload for inst in instances]
    module = mira_agents._engine_module(args.backend)
    raw = engine_opts(args.backend, args.device, args.engine_opt)
    started = time.perf_counter()
    engine = module.create(str(model), Options(args.backend, raw))
    load_s = time.perf_counter() - started
    out: dict = {"backend": args.backend, "device": args.device, "conversations": len(turns),
                 "load_s": round(load_s, 1), "engine": engine.describe()}

    for structured in (False, True):
        agent = mira_agents.ModelSolver(args.backend, str(model), engine, Decoding(max_tokens=args.max_tokens),
                                        structured and engine.supports_schema,
                                        {"reasoning": True, "reasoning_chars": 400, "request_chars": 80})
        requests = [agent.request_for(t) for t in turns]
        started = time.perf_counter()
        completions = engine.generate(requests, agent.decoding)
        seconds = time.perf_counter() - started
        tokens = sum(c.completion_tokens for c in completions)
        prompt = sum(c.prompt_tokens for c in completions)
        out["constrained" if structured else "unconstrained"] = {
            "seconds": round(seconds, 2), "prompt_tokens": prompt, "completion_tokens": tokens,
            "completion_tokens_per_s": round(tokens / seconds, 1), "requests_per_s": round(len(turns) / seconds, 1)}
    engine.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("hf", "vllm"), default="hf")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--model", help="a model directory (default: build the tiny random Llama)")
    parser.add_argument("--slice", type=int, default=110, help="instances in the batched vs one-by-one slice")
    parser.add_argument("--full", action="store_true", help="also run the full split batched (2,310 instances)")
    parser.add_argument("--regimes", default="zero_shot")
    parser.add_argument("--responder", choices=("rule", "same"), default="rule")
    parser.add_argument("--throughput", action="store_true")
    parser.add_argument("--n", type=int, default=256, help="--throughput: conversations in the one call")
    parser.add_argument("--max-tokens", type=int, default=128, help="--throughput: max tokens per reply")
    parser.add_argument("--engine-opt", action="append", default=[], metavar="K=V",
                        help="an engine option for both runs (e.g. prefill=padded to measure without prefix caching)")
    parser.add_argument("--padded-baseline", action="store_true",
                        help="hf: also run the slice batched with prefill=padded (no prefix cache), for the ratio")
    parser.add_argument("--json", help="also write the report here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_backends_") as tmp:
        root = Path(tmp)
        if args.model:
            model = Path(args.model)
        else:
            from harness.backends.tiny import build_tiny_model

            model = build_tiny_model(root / "tiny-llama")
        report = throughput(args, model) if args.throughput else mira_bench(args, root, model)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
