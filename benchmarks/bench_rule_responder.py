"""Benchmark: the ``rule`` responder on the labelled request corpora: agreement per style, and throughput.

    python benchmarks/bench_rule_responder.py [--repeat 5] [--baseline-rev REV | --no-baseline] [--json]

Reads ``tests/data/rule_requests_*.jsonl`` and the held-out ``tests/data/heldout_requests_*.jsonl`` (or
``--corpus FILE ...``), rebuilds their instances (not timed) and prints, per (label, style), how many
requests the responder judges as labelled, then per file the agreement on offers and on declines against
the targets (>= 95% of offers, >= 98% of declines, every file, held-out ones included). The
baseline is the responder as it was at ``--baseline-rev`` (default: the last commit before the rewrite
of issue 13), loaded from git into this process and measured on the same corpus in the same run.

Throughput: requests judged per second of CPU time (``time.process_time``, best of ``--repeat`` passes
of the whole corpus; wall-clock figures alongside, which on a shared machine mostly measure the other
processes), with the per-instance name tables already built (they are built once per instance in a
run) and the normalisation cache and the remembered judgements cleared before every pass, so no request
is answered from a cache.
The time to build the tables is printed separately. Target: at least 10,000 requests per second.

Any other responder: ``--responder SPEC [--responder-opt K=V ...]`` (as for ``run_eval.py mira``: an
``openai:MODEL`` responder, a ``vllm:`` or ``hf:`` one) judges the same corpora in one batch, and the same
agreement tables are printed (no throughput, no baseline); ``--decisions FILE`` writes each decision with its
request and label, for reading the disagreements. A language-model responder sees only B's facts and the request,
as in a run; this is how one is checked against the labelled corpora before it judges a benchmark.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import types
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness import registry  # noqa: E402
from harness.mira.agents.rule import RULE_VERSION, RuleResponder  # noqa: E402
from harness.mira.audit import offer_is_canonical  # noqa: E402
from harness.mira.request_corpus import Agreement, build_instances, load_corpus, measure  # noqa: E402
from harness.mira.types import ResponderTurn  # noqa: E402
from harness.registry import parse_options  # noqa: E402
from harness.rundir import write_text_atomic  # noqa: E402
from harness.text import alias_form, normalize  # noqa: E402

BASELINE_REV = "baf56d0"  # the tree before the issue-13 rewrite of harness/mira/agents/rule.py


def load_baseline(rev: str) -> tuple[Any, list[Any]] | None:
    """The responder class and the cached functions of its text module, as of ``rev`` (None if unavailable)."""
    def show(path: str) -> str | None:
        out = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True)
        return out.stdout if out.returncode == 0 else None

    text_src, rule_src = show("harness/text.py"), show("harness/mira/agents/rule.py")
    if text_src is None or rule_src is None:
        return None
    text_mod = types.ModuleType("_baseline_text")
    exec(compile(text_src, f"{rev}:harness/text.py", "exec"), text_mod.__dict__)
    sys.modules["_baseline_text"] = text_mod
    rule_mod = types.ModuleType("_baseline_rule")
    rule_mod.__dict__["__name__"] = "_baseline_rule"
    sys.modules["_baseline_rule"] = rule_mod
    exec(compile(rule_src.replace("from harness.text import", "from _baseline_text import"),
                 f"{rev}:harness/mira/agents/rule.py", "exec"), rule_mod.__dict__)
    caches = [getattr(text_mod, n) for n in ("normalize", "alias_form", "phrase_pattern") if hasattr(text_mod, n)]
    return rule_mod.RuleResponder, caches


def turn_for(instance: dict[str, Any], request: str, privileged: bool = True) -> ResponderTurn:
    b = next(v for v in instance["agent_views"] if v["agent_id"] == "B")["private_data"]
    return ResponderTurn(instance["id"], instance["family"], b["constraints_text"], request,
                         privileged=instance if privileged else None)


def offered_kind(instance: dict[str, Any], decision: Any) -> str:
    """"offer" for an offer of B's withheld fact, "offer of another fact" for one of B's other facts (which no
    label calls for), else the decision's kind."""
    if decision.kind != "offer":
        return decision.kind
    hint = instance["minimal_hint_spec"]["atomic_hints"][0]["text"]
    b = next(v for v in instance["agent_views"] if v["agent_id"] == "B")["private_data"]["constraints_text"]
    canonical = offer_is_canonical(decision.constraint_quoted, decision.hint, hint, b)
    return "offer" if canonical else "offer of another fact"


def judge_with(responder: Any, corpus: list, instances: dict, decisions_path: str | None) -> Agreement:
    """Agreement of any responder with the corpus, its requests sent in one batch."""
    turns = [turn_for(instances[item.id], item.request, responder.privileged) for item in corpus]
    decisions = responder.respond(turns)
    kinds = [offered_kind(instances[item.id], d) for item, d in zip(corpus, decisions, strict=True)]
    decided = {(item.id, item.request): (kind, d.rationale) for item, d, kind in zip(corpus, decisions, kinds,
                                                                                    strict=True)}
    if decisions_path:
        lines = [json.dumps({"file": item.source, "line": item.line, "id": item.id, "request": item.request,
                             "label": item.label, "style": item.style, "decision": kind,
                             "constraint_quoted": d.constraint_quoted, "rationale": d.rationale},
                            ensure_ascii=False, default=str) + "\n"
                 for item, d, kind in zip(corpus, decisions, kinds, strict=True)]
        write_text_atomic(Path(decisions_path), "".join(lines))
    return measure(corpus, instances, lambda instance, request: decided[instance["id"], request])


def run_responder(responder: Any, corpus: list, instances: dict, repeat: int, caches: list) -> dict[str, Any]:
    turns = [turn_for(instances[item.id], item.request) for item in corpus]
    start = time.perf_counter()
    for instance in instances.values():  # build the per-instance tables (once per run in real use)
        responder.respond([turn_for(instance, "")])
    build_s = time.perf_counter() - start

    def decide(instance: dict[str, Any], request: str) -> tuple[str, Any]:
        decision = responder.respond([turn_for(instance, request)])[0]
        return decision.kind, getattr(decision, "rationale", None)

    agreement = measure(corpus, instances, decide)
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        for cache in caches:
            cache.cache_clear()
        if hasattr(responder, "forget_judgements"):
            responder.forget_judgements()
        wall, cpu = time.perf_counter(), time.process_time()
        responder.respond(turns)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return {"agreement": agreement, "per_s": len(turns) / max(best_cpu, 1e-9), "wall_per_s": len(turns) / best_wall,
            "build_ms_per_instance": 1000 * build_s / len(instances)}


def table(new: Agreement, old: Agreement | None, name: str = RULE_VERSION) -> str:
    lines = [f"{'label':8} {'style':20} {'n':>5} {name:>8}" + (f" {'baseline':>9}" if old else "")]
    for label, style, agree, n in new.rows():
        row = f"{label:8} {style:20} {n:5d} {agree / n:8.1%}"
        if old:
            row += f" {old.agree[(label, style)] / n:9.1%}"
        lines.append(row)
    total = sum(new.total.values())
    lines.append(f"{'all':8} {'':20} {total:5d} {new.rate:8.1%}" + (f" {old.rate:9.1%}" if old else ""))
    return "\n".join(lines)


OFFER_TARGET, DECLINE_TARGET = 0.95, 0.98


def per_file(agreement: Agreement, corpus: list) -> list[tuple[str, str, int, int, bool]]:
    """(file, label, agreeing, total, target met) for each file and label."""
    wrong = Counter((item.source, item.label) for item, _, _ in agreement.disagreements)
    total = Counter((item.source, item.label) for item in corpus)
    rows = []
    for (source, label), n in sorted(total.items()):
        agree = n - wrong[(source, label)]
        target = OFFER_TARGET if label == "offer" else DECLINE_TARGET
        rows.append((source, label, agree, n, agree / n >= target))
    return rows


def print_per_file(agreement: Agreement, corpus: list) -> None:
    for source, label, agree, n, met in per_file(agreement, corpus):
        target = OFFER_TARGET if label == "offer" else DECLINE_TARGET
        print(f"{source:40} {label + 's':8} {agree:5d}/{n:<5d} {agree / n:7.1%}  target >= {target:.0%}: "
              f"{'met' if met else 'MISSED'}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", nargs="*", help="corpus files (default: tests/data/rule_requests_*.jsonl)")
    p.add_argument("--repeat", type=int, default=5, help="timed passes over the corpus (best one counts)")
    p.add_argument("--baseline-rev", default=BASELINE_REV, help="git revision of the baseline responder")
    p.add_argument("--no-baseline", action="store_true")
    p.add_argument("--json", action="store_true", help="also print one JSON line of the figures")
    p.add_argument("--responder", help="judge with this responder spec instead (agreement only)")
    p.add_argument("--responder-opt", action="append", metavar="K=V", help="an option of --responder")
    p.add_argument("--decisions", help="with --responder: write each decision to this JSONL file")
    args = p.parse_args(argv)
    data = ROOT / "tests" / "data"
    files = args.corpus or sorted(str(f) for pattern in ("rule_requests_*.jsonl", "heldout_requests_*.jsonl")
                                  for f in data.glob(pattern))
    corpus = load_corpus(files)
    instances = build_instances(item.id for item in corpus)
    print(f"corpus: {len(corpus)} requests over {len(instances)} instances ({', '.join(Path(f).name for f in files)})")
    if args.responder:
        responder = registry.create("mira.responder", args.responder, parse_options(args.responder_opt))
        agreement = judge_with(responder, corpus, instances, args.decisions)
        print(table(agreement, None, args.responder))
        print_per_file(agreement, corpus)
        return 0
    new = run_responder(RuleResponder(), corpus, instances, args.repeat, [normalize, alias_form])
    old = None
    if not args.no_baseline:
        baseline = load_baseline(args.baseline_rev)
        if baseline is None:
            print(f"baseline {args.baseline_rev}: not available (no git or no such revision); skipped")
        else:
            cls, caches = baseline
            old = run_responder(cls(), corpus, instances, args.repeat, caches)
    print(table(new["agreement"], old["agreement"] if old else None))
    print_per_file(new["agreement"], corpus)
    print(f"throughput {RULE_VERSION}:   {new['per_s']:10,.0f} requests/s of CPU time "
          f"({new['wall_per_s']:,.0f}/s wall); "
          f"tables {new['build_ms_per_instance']:.2f} ms per instance, built once")
    if old:
        print(f"throughput baseline: {old['per_s']:10,.0f} requests/s of CPU time ({old['wall_per_s']:,.0f}/s wall); "
              f"tables {old['build_ms_per_instance']:.2f} ms per instance; ratio {RULE_VERSION} / baseline "
              f"{new['per_s'] / old['per_s']:.2f}")
    print(f"target >= 10,000 requests/s: {'met' if new['per_s'] >= 10_000 else 'NOT met'}")
    if args.json:
        print(json.dumps({"requests": len(corpus), "agreement": new["agreement"].rate, "per_s": round(new["per_s"]),
                          "baseline_agreement": old["agreement"].rate if old else None,
                          "baseline_per_s": round(old["per_s"]) if old else None}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
