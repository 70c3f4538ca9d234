"""``run_eval.py rejudge RUN --responder SPEC --out DIR``: judge a finished run's requests with another responder.

The solver is not run again: every request recorded in RUN's transcript goes, with B's constraints
as they were, to the new responder (batched through the shared scheduler, one episode per instance
that walks through its requests in order). Each instance becomes one line of ``DIR/transcripts.jsonl``
with the original and the new decision per request, so a killed re-judging resumes where it stopped,
nothing lost or duplicated, and refuses to resume with another responder or on another source run.

At the end (and on every resume) ``DIR/agreement.json`` holds the agreement matrix, overall and per
family: offer/decline of the original against the new responder, and for requests both offered whether
the same fact was offered (the quoted constraints equal after normalisation) and whether each offer was
the canonical hint. ``DIR/disagreements.jsonl`` lists every request on which they differ.

A line of an instance that withholds k > 1 facts (``docs/hard-tier.md``) has every decision matched against all
its hints: each offer records the ``hint_id`` it is canonical for (or null), and two offers agree when both name
the same hint (or, neither being canonical, quote the same constraint).

Privileged responders (``rule``) need the instance records: the dataset recorded in RUN's ``run.json`` (or
``--dataset``) is read and must have the checksum the run was made on. ``run.json`` is untrusted, so the dataset it
names (a JSONL file, an export folder or a Hub repo) is reopened only when the run records that checksum
(``config.dataset_sha256``) and the rows read match it; otherwise the user names the dataset with ``--dataset``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from generators.safefs import open_regular
from harness import HARNESS_VERSION, registry, untrusted
from harness.errors import ConfigMismatch, HarnessError
from harness.mira.audit import audit_form, offer_is_canonical
from harness.mira.dataset import Dataset, load_dataset
from harness.mira.metrics import canonical_hints, offered_hint, record_k
from harness.mira.score import load_records
from harness.mira.types import ResponderDecision, ResponderTurn
from harness.registry import parse_options
from harness.rundir import (
    BENCHMARK_NAMES,
    RunDir,
    code_version,
    dumps,
    environment,
    fingerprint,
    now_iso,
    read_transcripts,
    same_identity,
    sha256_file,
    with_article,
    write_json_atomic,
    write_text_atomic,
)
from harness.scheduler import Pending, run_episodes

REJUDGE_FORMAT = "mira-rejudge/1"
RESPONDER = "responder"
AGREEMENT_JSON = "agreement.json"
DISAGREEMENTS = "disagreements.jsonl"


@dataclass
class Request:
    index: int  # 1-based position among the instance's requests
    turn: int
    request: str
    original: dict[str, Any]  # the recorded decision: type, constraint_quoted, hint, canonical


def recorded_requests(record: dict[str, Any]) -> list[Request]:
    """The (request, decision) pairs of one transcript line, in order."""
    out: list[Request] = []
    pending: dict[str, Any] | None = None
    hint = (record.get("canonical_hint") or {}).get("text", "")
    others = [t for t in record.get("b_constraints", []) if t != hint]
    for event in record.get("events", []):
        if event.get("agent") == "A" and event.get("type") == "request":
            pending = event
        elif event.get("agent") == "B" and event.get("type") in ("offer", "decline") and pending is not None:
            quoted = event.get("constraint_quoted")
            original = {"type": event["type"], "constraint_quoted": quoted, "hint": event.get("hint"),
                        "canonical": event["type"] == "offer" and offer_is_canonical(quoted, event.get("hint"), hint,
                                                                                      others)}
            if record_k(record) > 1:
                _match_hints(original, record)
            if event.get("parse_error"):
                original["parse_error"] = event["parse_error"]
            out.append(Request(len(out) + 1, event.get("turn", 0), pending.get("request") or "", original))
            pending = None
    return out


class RejudgeEpisode:
    """One instance: its recorded requests, judged one after another by the new responder."""

    def __init__(self, record: dict[str, Any], instance: dict[str, Any] | None, privileged: bool):
        self.record = record
        self.instance = instance if privileged else None
        self.requests = recorded_requests(record)
        self.results: list[dict[str, Any]] = []

    def pending(self) -> Pending | None:
        if len(self.results) >= len(self.requests):
            return None
        item = self.requests[len(self.results)]
        turn = ResponderTurn(self.record["instance_id"], self.record["family"], list(self.record["b_constraints"]),
                             item.request, privileged=self.instance)
        return Pending(RESPONDER, turn)

    def deliver(self, role: str, reply: Any) -> None:
        if not isinstance(reply, ResponderDecision):
            reply = ResponderDecision.decline(repr(reply), f"responder returned {type(reply).__name__}")
        self.results.append(self._judged(reply))

    def _judged(self, d: ResponderDecision) -> dict[str, Any]:
        well_formed = d.kind == "offer" and d.has_exact_match and bool(d.constraint_quoted) and d.parse_error is None
        hint = (self.record.get("canonical_hint") or {}).get("text", "")
        others = [t for t in self.record["b_constraints"] if t != hint]
        out: dict[str, Any] = {"type": "offer" if well_formed else "decline", "message": d.message}
        if well_formed:
            out.update(constraint_quoted=d.constraint_quoted, hint=d.hint or d.constraint_quoted,
                       canonical=offer_is_canonical(d.constraint_quoted, d.hint, hint, others))
        else:
            out["canonical"] = False
        if record_k(self.record) > 1:
            _match_hints(out, self.record, d.hint)
        if d.parse_error or (d.kind == "offer" and not well_formed):
            out["parse_error"] = d.parse_error or "offer without has_exact_match=true and a quoted constraint"
        if d.rationale is not None:
            out["rationale"] = d.rationale
        if d.usage:
            out["usage"] = d.usage
        return out

    def line(self) -> dict[str, Any]:
        line = {
            "format": REJUDGE_FORMAT,
            "instance_id": self.record["instance_id"],
            "family": self.record["family"],
            "difficulty": self.record.get("difficulty"),
            "canonical_hint": (self.record.get("canonical_hint") or {}).get("text"),
            "judgements": [{"request_index": r.index, "turn": r.turn, "request": r.request, "original": r.original,
                            "rejudged": res} for r, res in zip(self.requests, self.results, strict=True)],
        }
        if record_k(self.record) > 1:
            hints = [{"hint_id": h["hint_id"], "text": h["text"]} for h in canonical_hints(self.record)]
            line = {**line, "k": record_k(self.record), "canonical_hints": hints}
        return line


def _match_hints(decision: dict[str, Any], record: dict[str, Any], raw_hint: str | None = None) -> None:
    """At k > 1: the hint an offer is canonical for, against all the line's hints (``hint_id``, null if none);
    ``canonical`` then means canonical for one of them. ``raw_hint`` is the responder's own hint string, where
    ``decision["hint"]`` was filled in from the quote."""
    hint_id = None
    if decision["type"] == "offer":
        event = {"constraint_quoted": decision.get("constraint_quoted"),
                 "hint": decision.get("hint") if raw_hint is None else raw_hint}
        hint_id = offered_hint(event, canonical_hints(record), record.get("b_constraints", []))
    decision["hint_id"] = hint_id
    decision["canonical"] = hint_id is not None


# ------------------------------------------------------------------------------------ agreement
@dataclass
class Matrix:
    """Original decision (rows) against the new one (columns), and how the offers compare."""

    cells: Counter = field(default_factory=Counter)  # (original, rejudged) -> n
    same_fact: int = 0  # both offered, the same constraint quoted
    other_fact: int = 0  # both offered, different constraints
    canonical: Counter = field(default_factory=Counter)  # ("original"|"rejudged", canonical?) over offers

    def add(self, original: dict[str, Any], new: dict[str, Any]) -> None:
        self.cells[(original["type"], new["type"])] += 1
        for side, d in (("original", original), ("rejudged", new)):
            if d["type"] == "offer":
                self.canonical[(side, bool(d.get("canonical")))] += 1
        if original["type"] == new["type"] == "offer":
            if same_fact(original, new):
                self.same_fact += 1
            else:
                self.other_fact += 1

    def as_dict(self) -> dict[str, Any]:
        n = sum(self.cells.values())
        agree = self.cells[("offer", "offer")] - self.other_fact + self.cells[("decline", "decline")]
        return {
            "requests": n,
            "matrix": {o: {r: self.cells[(o, r)] for r in ("offer", "decline")} for o in ("offer", "decline")},
            "decision_agreement": (self.cells[("offer", "offer")] + self.cells[("decline", "decline")]) / n if n
            else None,
            "both_offered_same_fact": self.same_fact,
            "both_offered_other_fact": self.other_fact,
            "full_agreement": agree / n if n else None,
            "canonical_offers": {"original": self.canonical[("original", True)],
                                 "rejudged": self.canonical[("rejudged", True)]},
            "noncanonical_offers": {"original": self.canonical[("original", False)],
                                    "rejudged": self.canonical[("rejudged", False)]},
        }


def same_fact(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.get("hint_id") is not None or b.get("hint_id") is not None:  # k > 1: the same one of the hints
        return a.get("hint_id") == b.get("hint_id")
    if a.get("canonical") and b.get("canonical"):
        return True
    return audit_form(a.get("constraint_quoted") or "") == audit_form(b.get("constraint_quoted") or "")


def agrees(original: dict[str, Any], new: dict[str, Any]) -> bool:
    if original["type"] != new["type"]:
        return False
    return original["type"] == "decline" or same_fact(original, new)


def summarize(lines: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    overall, by_family = Matrix(), {}
    disagreements = []
    for line in lines:
        family = by_family.setdefault(line["family"], Matrix())
        for j in line["judgements"]:
            overall.add(j["original"], j["rejudged"])
            family.add(j["original"], j["rejudged"])
            if not agrees(j["original"], j["rejudged"]):
                disagreements.append({"instance_id": line["instance_id"], "family": line["family"], **j})
    summary = {"overall": overall.as_dict(), "by_family": {k: m.as_dict() for k, m in sorted(by_family.items())},
               "instances": len(lines)}
    return summary, disagreements


# ------------------------------------------------------------------------------------ the command
def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run", help="an existing MIRA-Math run directory (its transcripts are read, never changed)")
    p.add_argument("--responder", required=True, help="responder spec: rule, openai:MODEL, vllm:..., hf:...")
    p.add_argument("--responder-opt", action="append", metavar="KEY=VALUE", help="responder option (repeatable)")
    p.add_argument("--out", required=True, help="output directory (created; an existing one is resumed)")
    p.add_argument("--dataset", help="the run's dataset (a file, or an export folder for a run made from one), if not "
                                     "where its run.json says")
    p.add_argument("--max-concurrent", type=int, help="instances in flight at once (default: all)")
    p.add_argument("--fsync", choices=("step", "each"), default="step")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    summary = rejudge(args.run, args.responder, parse_options(args.responder_opt), args.out, dataset=args.dataset,
                      max_concurrent=args.max_concurrent, fsync=args.fsync)
    if not args.quiet:
        o = summary["overall"]
        m = o["matrix"]
        print(f"{args.out}: {o['requests']} request(s) of {summary['instances']} instance(s) re-judged")
        print(f"                 rejudged offer  rejudged decline\n"
              f"original offer   {m['offer']['offer']:14d}  {m['offer']['decline']:16d}\n"
              f"original decline {m['decline']['offer']:14d}  {m['decline']['decline']:16d}")
        print(f"both offered: same fact {o['both_offered_same_fact']}, another fact {o['both_offered_other_fact']}; "
              f"agreement {_pct(o['full_agreement'])} (decision only {_pct(o['decision_agreement'])})")
    return 0


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def rejudge(run_path: str, responder_spec: str, options: dict[str, str], out: str, dataset: str | None = None,
            max_concurrent: int | None = None, fsync: str = "step") -> dict[str, Any]:
    source = RunDir(run_path)
    info = source.load_info()
    if info is None:
        raise HarnessError(f"{run_path}: no run.json (is this a run directory?)")
    if info.get("benchmark", "mira") != "mira":
        name = BENCHMARK_NAMES.get(info.get("benchmark"), str(info.get("benchmark")))
        raise HarnessError(f"{run_path} is {with_article(name)} run; rejudge reads MIRA-Math runs")
    records = load_records(source)
    config = {
        "benchmark": "mira-rejudge",
        "format": REJUDGE_FORMAT,
        "source_config_sha256": info.get("config_sha256") or fingerprint(info.get("config", {})),
        "source_transcript_sha256": sha256_file(source.transcripts),
        "dataset_sha256": info.get("config", {}).get("dataset_sha256"),
        "responder": responder_spec,
        "responder_options": options,
    }
    target = RunDir(out)
    with target.locked():  # one writer per output folder
        return _rejudge_locked(target, config, records, info, run_path, responder_spec, options, dataset,
                               max_concurrent, fsync, source.run_json)


def _rejudge_locked(target: RunDir, config: dict[str, Any], records: list[dict[str, Any]], info: dict[str, Any],
                    run_path: str, responder_spec: str, options: dict[str, str], dataset: str | None,
                    max_concurrent: int | None, fsync: str, source_run_json: Path) -> dict[str, Any]:
    old_info, done = target.prepare(config)
    todo = [r for r in records if r["instance_id"] not in done.records]
    if todo:
        responder = registry.create("mira.responder", responder_spec, options)
        try:
            _check_identity(old_info, responder, target)
            instances = (_instances(info, dataset, config["dataset_sha256"], source_run_json)
                         if responder.privileged else {})
            new_info = _start_info(old_info, config, run_path, info, responder)
            target.save_info(new_info)
            started = time.perf_counter()
            session = {"start": now_iso(), "resumed_with": len(done.records), "instances": len(todo)}
            episodes = (RejudgeEpisode(r, instances.get(r["instance_id"]), responder.privileged) for r in todo)
            # progress on a terminal only (tqdm's disable=None), as run_eval.py mira shows it
            bar = tqdm(total=len(records), initial=len(done.records), unit="inst", desc="rejudge", disable=None,
                       file=sys.stderr)
            with target.writer(fsync) as writer, bar:
                def on_finished(finished: list[RejudgeEpisode]) -> None:
                    writer.write(ep.line() for ep in finished)
                    bar.update(len(finished))

                stats = run_episodes(episodes, {RESPONDER: responder.respond}, [RESPONDER], on_finished,
                                     max_concurrent)
            session.update(end=now_iso(), wall_s=round(time.perf_counter() - started, 3), scheduler=stats.as_dict())
            new_info["sessions"].append(session)
        finally:
            responder.close()
    else:
        new_info = old_info or {}
    lines = list(read_transcripts(target.transcripts).records.values())
    try:
        summary, disagreements = summarize(lines)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise HarnessError(f"{target.transcripts}: not a transcript of run_eval.py rejudge "
                           f"({type(exc).__name__}: {str(exc)[:100]}); use a new --out directory") from None
    write_json_atomic(target.path / AGREEMENT_JSON, {"source_run": str(run_path), "responder": responder_spec,
                                                     **summary})
    write_text_atomic(target.path / DISAGREEMENTS, "".join(dumps(row) + "\n" for row in disagreements))
    if new_info:
        new_info.update(status="complete", end_time=now_iso(), transcript_sha256=sha256_file(target.transcripts),
                        summary={"requests": summary["overall"]["requests"],
                                 "full_agreement": summary["overall"]["full_agreement"]})
        target.save_info(new_info)
    return summary


def _instances(info: dict[str, Any], override: str | None, sha256: str | None,
               run_json: Path) -> dict[str, dict[str, Any]]:
    """The run's instances, reopened as the run recorded them: a JSONL path, or an export folder's or Hub
    release's config (``dataset.source``: folder or repo id, config, resolved commit); ``--dataset`` (the user's
    own choice) overrides. run.json is untrusted: it must not make rejudge read, or say anything about, an
    arbitrary file or folder, so what it names is used only with the checksum the run records."""
    recorded = info.get("dataset") or {}
    source = recorded.get("source") if isinstance(recorded.get("source"), dict) else None
    if override:
        config = source.get("config") if source and not Path(override).is_file() else None
        data = load_dataset(override, config=config)
    elif source and source.get("source"):
        data = _reopen_recorded_release(source, sha256, run_json)
    elif recorded.get("path"):
        data = load_dataset(_recorded_dataset(recorded, sha256))
    else:
        raise HarnessError("the run's run.json names no dataset; pass --dataset FILE|FOLDER")
    if sha256 and data.sha256 != sha256:
        raise ConfigMismatch(f"{data.path}: sha256 {data.sha256} is not the dataset the run was made on ({sha256}); "
                             "pass the right file with --dataset")
    return {inst["id"]: inst for inst in data.instances}


SHA256_HEX = re.compile(r"[0-9a-f]{64}")
PASS_DATASET = "pass the run's dataset yourself with --dataset FILE|FOLDER|ORG/NAME"


def _reopen_recorded_release(source: dict[str, Any], sha256: str | None, run_json: Path) -> Dataset:
    """The export folder or Hub release named in run.json's ``dataset.source``, read only when the run records
    ``config.dataset_sha256`` and the canonical JSONL of the rows read has it. Every refusal is one line naming
    run.json and the field, and none says anything about what was read."""
    if not isinstance(sha256, str) or not SHA256_HEX.fullmatch(sha256):
        raise HarnessError(f"{run_json}: config.dataset_sha256 is missing or not a sha256, so the export folder or "
                           f"Hub repo in dataset.source is not reopened (a run folder from elsewhere is not trusted); "
                           f"{PASS_DATASET}")
    kind, name, config = source.get("kind"), source.get("source"), source.get("config")
    revision = source.get("resolved_revision") or source.get("revision") if kind == "hub" else None
    if not all(isinstance(v, str | None) for v in (name, config, revision)):
        raise HarnessError(f"{run_json}: dataset.source is not an export folder or Hub repo; {PASS_DATASET}")
    # one refusal whatever went wrong, so that run.json (which supplies the checksum too) cannot probe whether a
    # folder or repo is a readable release
    refusal = HarnessError(f"{run_json}: the export folder or Hub repo in dataset.source is not the dataset the run "
                           f"was made on (missing, unreachable, not a release, or without the checksum in "
                           f"config.dataset_sha256); {PASS_DATASET}")
    try:
        data = load_dataset(name, config=config, revision=revision)
    except Exception:  # whatever a crafted folder makes the readers raise
        raise refusal from None
    if data.sha256 != sha256:
        raise refusal
    return data


def _recorded_dataset(recorded: dict[str, Any], sha256: str | None) -> str:
    """The dataset path run.json records that is the run's dataset: as written (relative to where the run was
    started), else as resolved then (``path_resolved``), so that rejudge works from another directory."""
    resolved = recorded.get("path_resolved")
    paths = [str(recorded["path"]), *([resolved] if isinstance(resolved, str) and resolved else [])]
    for path in paths[:-1]:
        with contextlib.suppress(HarnessError):
            _check_recorded_dataset(path, sha256)
            return path
    _check_recorded_dataset(paths[-1], sha256)  # its refusal is the one message, whichever path failed
    return paths[-1]


def _check_recorded_dataset(path: str, sha256: str | None) -> None:
    """Refuse the dataset path recorded in run.json unless that file is the run's dataset, byte for byte; the one
    message says nothing about what, if anything, is at the path."""
    refusal = HarnessError(f"the dataset file named in the run's run.json ({path[:200]!r}) is not the dataset the "
                           "run was made on (missing, not a regular JSONL file, or another checksum); pass the "
                           "run's dataset with --dataset FILE")
    if not sha256 or not isinstance(sha256, str):
        raise refusal
    try:
        target = Path(path).resolve()
        with open_regular(target, untrusted.MAX_DATASET_BYTES) as f:
            h = hashlib.sha256()
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except (OSError, ValueError, RuntimeError):
        raise refusal from None
    if h.hexdigest() != sha256:
        raise refusal


def _check_identity(info: dict[str, Any] | None, responder: Any, where: RunDir) -> None:
    if info and info.get("responder_agent") is not None:
        now = responder.describe()
        if not same_identity(info["responder_agent"], now):
            raise ConfigMismatch(f"{where.path}: refusing to resume: the responder describes itself differently "
                                 f"(was {info['responder_agent']}, now {now}); use a new --out directory")


def _start_info(info: dict[str, Any] | None, config: dict[str, Any], run_path: str, source: dict[str, Any],
                responder: Any) -> dict[str, Any]:
    if info is None:
        info = {"format": "run/1", "benchmark": "mira-rejudge", "config": config, "config_sha256": fingerprint(config),
                "start_time": now_iso(), "sessions": []}
    info.update(status="running", source_run=str(run_path), source_label=source.get("label"),
                harness_version=HARNESS_VERSION, responder_agent=responder.describe(), code=code_version(),
                environment=environment())
    return info
