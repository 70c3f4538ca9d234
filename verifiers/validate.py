"""Validate MIRA-Math instances: schema, ids, exact answers, the three well-posedness checks and localizability.

A ``default`` record's A view must not say where its gap is (no slot notice, no sentence saying a quantity is not
given or that the partner knows something); a ``slot_notice`` record (the ablation) must carry its notice. All
checks judge A's view without the notice, so both variants of a seed validate alike.
"""

from __future__ import annotations

import itertools
import multiprocessing
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from generators.answers import Answer, answers_equal, decode_answer
from generators.base import Family, is_slot_notice, without_notices
from generators.checks import CheckFailed, check_hints, check_localizability
from generators.errors import Inconsistent, NotUnique
from generators.families import FAMILIES
from generators.fewshot import repeating_examples
from generators.instances import generator_version, request_budget
from schemas import schema_errors
from verifiers.jsonl import RecordError, read_jsonl

CHECK_FIELDS = {
    "hint": "minimal_hint_spec.atomic_hints[0]",
    "global_uniqueness": "global_solution",
    "hint_sufficiency": "global_solution",
    "local_underdetermination": "agent_views[0].private_data.constraints_machine",
    "local_underdetermination_b": "agent_views[1].private_data.constraints_machine",
    "answer": "global_solution",
    "localizability": "verifier.candidate_slots",
}

VIEW_A = "agent_views[0].private_data.constraints_machine"
VIEW_A_TEXT = "agent_views[0].private_data.constraints_text"

# Sentences that tell A where its gap is: a quantity "is not given", "your partner knows", "B holds", ...
NOTICE_TEXT = re.compile(
    r"\bnot (?:given|known|told|provided|stated|shown)\b|\bpartner\b|\bagent b\b|\bB (?:holds|knows)\b"
    r"|\b(?:is|are) (?:missing|withheld|hidden)\b",
    re.IGNORECASE,
)


MALFORMED = (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError)


def instance_problems(inst: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for everything wrong with one instance; empty when it is valid.

    A machine constraint missing a field or holding a wrong type makes a family's renderer or solver fail;
    that is reported as a problem of the constraints, never raised.
    """
    try:
        return _instance_problems(inst)
    except MALFORMED as exc:
        return [("agent_views", f"malformed machine constraint ({type(exc).__name__}: {exc})")]


def _instance_problems(inst: dict[str, Any]) -> list[tuple[str, str]]:
    if is_raw_release(inst):
        return [("(record)", "a line in the authors' release format, not ours (convert it with import-reference)")]
    family_name = inst.get("family")
    if isinstance(family_name, str) and family_name not in FAMILIES:
        return [("family", f"unknown family {family_name!r}")]
    problems = schema_errors("mira_instance", inst)
    if problems:
        return problems
    if inst["verifier"].get("source") == "reference-import":
        from verifiers.reference import imported_instance_problems

        return imported_instance_problems(inst)
    family = FAMILIES.get(inst["family"])
    if family is None:
        return [("family", f"unknown family {inst['family']!r}")]
    try:
        answer = decode_answer(inst["answer_type"], inst["global_solution"], inst["answer_keys"])
    except (ValueError, KeyError) as exc:
        return [("global_solution", f"does not match answer_type {inst['answer_type']!r}: {exc}")]
    problems += _static_problems(family, inst) + few_shot_problems(inst)
    if problems:
        return problems
    view_a, view_b = (v["private_data"]["constraints_machine"] for v in inst["agent_views"])
    view_a = without_notices(view_a)
    hints = inst["minimal_hint_spec"]["atomic_hints"]
    try:
        check_hints(family, view_a, view_b, [h["constraint"] for h in hints], inst["target"], answer)
    except CheckFailed as exc:
        return [(CHECK_FIELDS.get(exc.check, exc.check), f"{exc.check} check failed: {exc.message}")]
    return _witness_problems(family, inst, view_a, hints, answer) or _localizability_problems(
        family, inst, view_a, [h["slot"] for h in hints]
    )


def _localizability_problems(
    family: Family, inst: dict[str, Any], view_a: list[dict], slots: list[str]
) -> list[tuple[str, str]]:
    """The fourth check: every hint's slot is among A's candidates, recomputed and equal to the stored ones."""
    field = CHECK_FIELDS["localizability"]
    try:
        candidates = check_localizability(family, view_a, slots, inst["target"])
    except NotImplementedError:
        return [(field, f"localizability check failed: {family.name} declares no candidate_slots")]
    except CheckFailed as exc:
        return [(field, f"localizability check failed: {exc.message}")]
    except (NotUnique, Inconsistent) as exc:  # A's view does not declare what its candidates are drawn from
        return [(VIEW_A, f"localizability check failed: {exc}")]
    stored = inst["verifier"].get("candidate_slots")
    if "localizability" not in inst["verifier"]["checks"]:
        return [("verifier.checks", "localizability is not among the checks")]
    if stored != candidates:
        return [(field, f"localizability check failed: stored candidates {stored}, A's view gives {candidates}")]
    return []


def _static_problems(family: Family, inst: dict[str, Any]) -> list[tuple[str, str]]:
    problems = []
    if inst["type"] != family.type:
        problems.append(("type", f"{family.name} is Type {family.type}, not {inst['type']}"))
    if inst["answer_type"] != family.answer_type:
        problems.append(("answer_type", f"{family.name} answers are {family.answer_type!r}"))
    if not inst["id"].startswith(family.prefix + "-"):
        problems.append(("id", f"{family.name} ids start with {family.prefix}-"))
    hints = inst["minimal_hint_spec"]["atomic_hints"]
    k = inst["minimal_hint_spec"]["k_min"]
    if len(hints) != k:
        problems.append(("minimal_hint_spec.k_min", f"is {k}, but there are {len(hints)} atomic hints"))
    if inst["request_budget"] != request_budget(inst["difficulty"], k):
        problems.append(("request_budget", f"must be 3 x difficulty x k_min = {request_budget(inst['difficulty'], k)}"))
    if inst["difficulty"] != family.effective_difficulty(inst["requested_difficulty"]):
        problems.append(("difficulty", "is not the effective difficulty of requested_difficulty"))
    for i, view in enumerate(inst["agent_views"]):
        data = view["private_data"]
        rendered = [family.render(c) for c in data["constraints_machine"]]
        if rendered != data["constraints_text"]:
            field = f"agent_views[{i}].private_data.constraints_text"
            problems.append((field, "does not match the machine constraints"))
    problems += _notice_problems(inst, hints[0]["slot"])
    if len(hints) > 1 and inst.get("view_variant") == "slot_notice":
        problems.append(("view_variant", "the slot_notice ablation exists for k_min = 1 only"))
    problems += _hint_problems(family, hints)
    if k > 1 and "each_hint_necessary" not in inst["verifier"]["checks"]:
        problems.append(("verifier.checks", "a record with k_min > 1 lists each_hint_necessary among its checks"))
    # the tier, not the exact version: a file made by another release still validates on its content
    hard = inst["requested_difficulty"] > 3 or k > 1
    if ("+hard." in inst["generator_version"]) != hard:
        problems.append(("generator_version", f"a record at requested difficulty {inst['requested_difficulty']} with "
                                              f"k_min {k} carries a {'hard-tier' if hard else 'paper'} version "
                                              f"(this release: {generator_version(inst['requested_difficulty'], k)})"))
    return problems


def _hint_problems(family: Family, hints: list[dict]) -> list[tuple[str, str]]:
    """Each hint's fields follow from its constraint: kind, text, slot (``slot_name``) and the aliases the rule
    responder reads (``slot_aliases``); ids h1, h2, ...; two hints never fill one slot."""
    problems = []
    for i, hint in enumerate(hints):
        field = f"minimal_hint_spec.atomic_hints[{i}]"
        if hint["hint_id"] != f"h{i + 1}":
            problems.append((f"{field}.hint_id", f"must be h{i + 1}"))
        if hint["kind"] != hint["constraint"]["type"] or hint["text"] != family.render(hint["constraint"]):
            problems.append((field, "kind/text do not match the hint constraint"))
            continue
        slot = family.slot_name(hint["constraint"])
        if slot is not None and hint["slot"] != slot:
            problems.append((f"{field}.slot", f"is {hint['slot']!r}, but the hint's constraint fills {slot!r}"))
        elif hint["request_aliases"] != family.slot_aliases(hint["slot"], hint["constraint"]):
            problems.append((f"{field}.request_aliases", f"are not the names of {hint['slot']} "
                                                         f"({family.name}.slot_aliases)"))
    slots = [h["slot"] for h in hints]
    if len(set(slots)) != len(slots):
        problems.append(("minimal_hint_spec.atomic_hints", f"two hints fill one slot: {slots}"))
    return problems


def few_shot_problems(inst: dict[str, Any]) -> list[tuple[str, str]]:
    """A worked example that shows every fact of its own instance (``generators.fewshot``) gives the problem away;
    an example shows one request and one offer per fact it withholds (the hard tier's mix k = 1 and k = 2)."""
    problems = [(f"few_shot_examples[{k}]", f"worked example {k} repeats this instance's facts (it shows every one "
                 "of A's constraints), so the instance is shown its own problem") for k in repeating_examples(inst)]
    for i, example in enumerate(inst.get("few_shot_examples") or []):
        shown = len(example.get("hints", [example["hint"]]))
        if len(example.get("requests", [example["request"]])) != shown:
            problems.append((f"few_shot_examples[{i}]", f"shows {shown} offer(s) but a different number of requests "
                             "(one request and one hint per withheld fact)"))
        elif "hints" in example and (example["hints"][0], example["requests"][0]) != (example["hint"],
                                                                                       example["request"]):
            problems.append((f"few_shot_examples[{i}]", "hints[0] and requests[0] must be hint and request"))
    return problems


def _notice_problems(inst: dict[str, Any], slot: str) -> list[tuple[str, str]]:
    """A default view never says where A's gap is; a slot_notice view names exactly the hint's slot."""
    variant = inst.get("view_variant")
    data = inst["agent_views"][0]["private_data"]
    notices = [c for c in data["constraints_machine"] if is_slot_notice(c)]
    if variant is None:
        return [("view_variant", "missing (default or slot_notice)")]
    if variant == "slot_notice":
        named = [c["missing_slot"] for c in notices]
        # Type A families without a notice of their own (e.g. bayes_missing_prior) have the same view in both
        if named != [slot] and (named or inst["type"] == "B"):
            return [(VIEW_A, f"a slot_notice view must carry one notice naming {slot}, it names {named}")]
        return []
    if notices:
        return [(VIEW_A, f"a default view must not tell A which slot is missing (it names "
                         f"{notices[0]['missing_slot']}: {notices[0].get('statement', '')!r})")]
    for i, text in enumerate(data["constraints_text"]):
        if m := NOTICE_TEXT.search(text):
            return [(f"{VIEW_A_TEXT}[{i}]", f"a default view must not tell A what is missing or what its partner "
                                            f"knows ({m.group(0)!r} in {text!r})")]
    return []


def _witness_problems(
    family: Family, inst: dict[str, Any], view_a: list[dict], hints: list[dict], answer: Answer
) -> list[tuple[str, str]]:
    """The stored witnesses re-solved: k = 1 one; k = 2 one per withheld fact (``single_hint_witnesses``), the
    first of which is also ``underdetermination_witness``."""
    field = "verifier.underdetermination_witness"
    witness = inst["verifier"]["underdetermination_witness"]
    constraints = [h["constraint"] for h in hints]
    singles = inst["verifier"].get("single_hint_witnesses")
    if len(hints) == 1:
        if singles is not None:
            return [("verifier.single_hint_witnesses", "only instances with k_min = 2 have them")]
        problems = _one_witness_problems(family, inst, view_a, constraints[0], witness, answer, field)
    else:
        if not singles or [w.get("missing") for w in singles] != [h["hint_id"] for h in hints]:
            return [("verifier.single_hint_witnesses", "must hold one witness per atomic hint, in order")]
        if {key: value for key, value in singles[0].items() if key != "missing"} != witness:
            return [(field, "must be the first of single_hint_witnesses")]
        problems = []
        for i, single in enumerate(singles):
            others = [c for j, c in enumerate(constraints) if j != i]
            problems += _one_witness_problems(family, inst, [*view_a, *others], constraints[i], single, answer,
                                              f"verifier.single_hint_witnesses[{i}]")
    if problems:
        return problems
    latent = family.answer_from_latent(inst["global_metadata"].get("latent", {})) if "latent" in inst[
        "global_metadata"
    ] else None
    if latent is not None and not answers_equal(answer, latent):
        return [("global_metadata.latent", f"latent state gives {latent}, not {answer}")]
    return []


def _one_witness_problems(
    family: Family, inst: dict[str, Any], given: list[dict], hint: dict, witness: dict, answer: Answer, field: str
) -> list[tuple[str, str]]:
    """``witness`` replaces ``hint`` in ``given`` + hint and changes the target, within A's stated domain."""
    try:
        other = family.solve([*given, witness["constraint"]], inst["target"])
        stored = decode_answer(inst["answer_type"], witness["answer"], inst["answer_keys"])
    except (NotUnique, Inconsistent, ValueError, KeyError) as exc:
        return [(field, f"witness does not solve: {exc}")]
    if not answers_equal(stored, other) or answers_equal(answer, other):
        return [(field, "witness answer is wrong or equals the answer")]
    if witness["constraint"] not in list(family.hint_alternatives(hint, given, inst["target"])):
        return [(field, "witness is not a completion allowed by A's stated domain")]
    return []


def _problems_of(item: tuple[int, Any]) -> list[tuple[str, str]]:
    return [] if isinstance(item[1], RecordError) else instance_problems(item[1])


@dataclass
class ValidationResult:
    """What one file's validation found: every error counted, the first ``keep`` kept."""

    instances: int = 0
    error_count: int = 0
    errors: list[RecordError] = field(default_factory=list)
    raw_release_lines: int = 0  # lines in the authors' release format (convert with import-reference)
    candidates: dict[str, Counter[int]] = field(default_factory=dict)  # family -> {number of candidates: records}

    def count_candidates(self, record: dict[str, Any]) -> None:
        verifier = record.get("verifier")
        if not isinstance(verifier, dict) or "localizability" not in (verifier.get("checks") or []):
            return
        stored = verifier.get("candidate_slots")
        if isinstance(stored, list) and isinstance(record.get("family"), str):
            self.candidates.setdefault(record["family"], Counter())[len(stored)] += 1

    def candidate_summary(self) -> dict[str, dict[str, Any]]:
        """Per family: records, min/mean/max number of candidate slots, and the histogram (sizes as strings)."""
        out = {}
        for family, counts in sorted(self.candidates.items()):
            n = sum(counts.values())
            total = sum(size * k for size, k in counts.items())
            out[family] = {"records": n, "min": min(counts), "mean": round(total / n, 3), "max": max(counts),
                           "histogram": {str(size): counts[size] for size in sorted(counts)}}
        return out

    def add(self, error: RecordError, keep: int) -> None:
        self.error_count += 1
        if len(self.errors) < keep:
            self.errors.append(error)


CHUNK = 4096  # records validated at a time, so memory stays bounded on any file size


def validate_records(
    path: str, records: Iterable[tuple[int, Any]], jobs: int = 1, keep: int | None = None
) -> ValidationResult:
    """Validate every record in chunks; duplicate ids are errors; at most ``keep`` errors are kept."""
    result = ValidationResult()
    limit = keep if keep is not None else sys.maxsize
    seen: dict[str, int] = {}
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    try:
        for chunk in _chunks(records, CHUNK):
            problems = pool.map(_problems_of, chunk, chunksize=64) if pool else [_problems_of(i) for i in chunk]
            for (lineno, record), found in zip(chunk, problems, strict=True):
                _record(path, lineno, record, found, seen, result, limit)
    finally:
        if pool is not None:
            pool.terminate()
    return result


def _record(
    path: str, lineno: int, record: Any, found: list[tuple[str, str]], seen: dict[str, int],
    result: ValidationResult, limit: int,
) -> None:
    result.instances += 1
    if isinstance(record, RecordError):
        result.add(record, limit)
        return
    if is_raw_release(record):
        result.raw_release_lines += 1
    result.count_candidates(record)
    rid = record.get("id") if isinstance(record.get("id"), str) else None
    if rid is not None:
        if rid in seen:
            result.add(RecordError(path, lineno, rid, "id", f"duplicate id (first on line {seen[rid]})"), limit)
        seen.setdefault(rid, lineno)
    for problem_field, message in found:
        result.add(RecordError(path, lineno, rid, problem_field, message), limit)


def is_raw_release(record: dict[str, Any]) -> bool:
    """A line of the authors' release (``n_agents``, no ``verifier``), not of our format."""
    return "n_agents" in record and "verifier" not in record and "seed" not in record


def _chunks(items: Iterable[tuple[int, Any]], size: int) -> Iterator[list[tuple[int, Any]]]:
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def validate_file(path: str, jobs: int = 1, keep: int | None = None) -> ValidationResult:
    return validate_records(path, read_jsonl(path), jobs=jobs, keep=keep)
