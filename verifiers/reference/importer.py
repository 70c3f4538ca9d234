"""The importer: one released line to our instance record and its report; whole files; the summary; and the
validation of an imported record (``imported_instance_problems``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.answers import encode_answer
from generators.base import Constraint, Family, is_slot_notice
from generators.families import FAMILIES
from verifiers.jsonl import iter_lines, parse_json_line
from verifiers.reference.checks import Verdict, verify
from verifiers.reference.families import MAPPINGS
from verifiers.reference.mapping import MALFORMED, Mapped, partner_notice, release_answer, release_shape
from verifiers.reference.release import ReferenceFormatError, Release

IMPORTER_VERSION = "1"
SOURCE = "reference-import"


def convert_release(data: Any, path: str = "<record>", line: int = 1,
                    slot_notice: bool = False) -> tuple[dict[str, Any], Verdict, Release]:
    """(our instance record, its verdict, the parsed release record); ``ReferenceFormatError`` if unmappable.

    A's view is the default one (what A knows, never what B holds); ``slot_notice`` adds the release's sentence
    saying what the partner knows, as a slot notice (the ablation). The checks never read the notice, so both
    variants have the same verdict, answer and witness."""
    rec = Release(data, path, line)
    spec = MAPPINGS.get(rec.family)
    family = FAMILIES.get(rec.family)
    if spec is None or family is None:
        rec.fail("family", f"unknown family {rec.family!r} (known: {', '.join(sorted(MAPPINGS))})")
    released_type = rec.text(rec.data, "answer_type", "answer_type")
    if released_type != spec.release_answer_type:
        rec.fail("answer_type", f"the release types {rec.family} answers as {spec.release_answer_type!r}, "
                                f"not {released_type!r}")
    if not rec.id.startswith(family.prefix + "-"):  # type: ignore[union-attr]
        rec.fail("id", f"{rec.family} ids start with {family.prefix}-")
    try:
        mapped = spec.convert(rec)
        if mapped.hint not in mapped.b:
            rec.fail("minimal_hint_spec", "internal: the mapped hint is not one of B's constraints")
        verdict = verify(spec, family, mapped)
        record = build_record(rec, family, mapped, verdict, slot_notice)
    except ReferenceFormatError:
        raise
    except MALFORMED as exc:
        rec.fail("agent_views", f"the mapped constraints do not fit our {rec.family} family "
                                f"({type(exc).__name__}: {exc})")
    if "few_shot_examples" in rec.data:
        record["few_shot_examples"] = convert_examples(rec, family, mapped.keys)
    return record, verdict, rec


def build_record(rec: Release, family: Family, m: Mapped, v: Verdict, slot_notice: bool = False) -> dict[str, Any]:
    keys = list(m.keys)
    answer = encode_answer(family.answer_type, m.answer, keys)
    if v.witness is not None:
        witness = {"constraint": v.witness[0], "text": family.render(v.witness[0]),
                   "answer": encode_answer(family.answer_type, v.witness[1], keys)}
    else:  # the schema requires the field; without a completion it repeats the hint and the answer
        witness = {"constraint": m.hint, "text": family.render(m.hint), "answer": answer}
    reference = {k: val for k, val in rec.data.items() if k != "few_shot_examples"}
    verifier: dict[str, Any] = {
        "comparison": "exact",
        "checks": v.passed,
        "underdetermination_witness": witness,
        "source": SOURCE,
        "importer_version": IMPORTER_VERSION,
        "solver": v.solver,
        "degenerate": v.reasons,
    }
    if v.witness is None:
        verifier["witness_is_placeholder"] = True
    if v.candidate_slots is not None:
        verifier["candidate_slots"] = v.candidate_slots
    view_a = [*m.a, m.notice or generic_notice(m.slot)] if slot_notice else m.a
    return {
        "id": rec.id,
        "family": family.name,
        "type": family.type,
        "difficulty": rec.difficulty,
        "requested_difficulty": rec.difficulty,
        "seed": 0,
        "dataset_seed": 0,
        "generator_version": f"{SOURCE}/{IMPORTER_VERSION}",
        "n_agents": 2,
        "answer_type": family.answer_type,
        "answer_keys": keys,
        "global_solution": answer,
        "question": m.question,
        "target": m.target,
        "request_budget": 3 * rec.difficulty,
        "view_variant": "slot_notice" if slot_notice else "default",
        "agent_views": [
            {"agent_id": "A", "private_data": _private(family, m.unknowns, view_a)},
            {"agent_id": "B", "private_data": _private(family, m.unknowns, m.b)},
        ],
        "minimal_hint_spec": {"k_min": 1, "atomic_hints": [{
            "hint_id": "h1",
            "kind": m.hint["type"],
            "slot": m.slot,
            "value": m.value,
            "text": family.render(m.hint),
            "constraint": m.hint,
            "request_aliases": _unique([*family.slot_aliases(m.slot, m.hint), *m.extra_aliases]),
            "providers": ["B"],
            "consumers": ["A"],
        }]},
        "verifier": verifier,
        "global_metadata": {
            "reference": {"file": Path(rec.path).name, "line": rec.line, "record": reference},
            "import": {"answer_reverified": v.answer_reverified, "answer_via": v.answer_via,
                       "answer_detail": v.answer_detail},
        },
    }


def generic_notice(slot: str) -> Constraint:
    """The ablation's notice where the release told A nothing about its gap: the 1.x sentence naming the slot."""
    return partner_notice(slot, f"The value of {slot} is not given to you; your partner knows it.")


def _private(family: Family, unknowns: list[str], constraints: list[Constraint]) -> dict[str, Any]:
    return {"unknowns": list(unknowns), "externals": [],
            "constraints_text": [_text(family, c) for c in constraints], "constraints_machine": constraints}


def _text(family: Family, c: Constraint) -> str:
    """A slot notice reads as its statement (as in every family that has one; graph_path_sums has none of its own)."""
    return c["statement"] if is_slot_notice(c) else family.render(c)


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def convert_examples(rec: Release, family: Family, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """The release's worked examples (texts, request, hint, answer) in our example format."""
    examples = rec.get(rec.data, "few_shot_examples", "few_shot_examples", list)
    if len(examples) != 4:
        rec.fail("few_shot_examples", f"expected 4 worked examples, got {len(examples)}")
    out = []
    for k, ex in enumerate(examples):
        where = f"few_shot_examples[{k}]"
        if not isinstance(ex, dict):
            rec.fail(where, "a worked example must be an object")
        if rec.get(ex, "family", where) != rec.family:
            rec.fail(f"{where}.family", f"an example of {ex.get('family')!r} in a {rec.family} instance")
        constraints = rec.get(ex, "constraints", where, list)
        unknowns = rec.get(ex, "unknowns", where, list)
        sol = rec.get(ex, "answer", where, dict)
        for key, val in sol.items():
            if isinstance(val, bool) or not isinstance(val, int):
                rec.fail(f"{where}.answer.{key}", f"expected an integer, got {val!r}")
        ex_keys = keys
        if family.answer_type == "dict_int" and set(sol) != set(keys):
            ex_keys = tuple(sorted(sol, key=_natural))  # e.g. a deconvolution example of another length
        answer = release_answer(rec, family, ex_keys, sol, f"{where}.answer")
        difficulty = rec.integer(ex, "difficulty", where)
        if difficulty not in (1, 2, 3):
            rec.fail(f"{where}.difficulty", f"must be 1, 2 or 3, not {difficulty}")
        out.append({
            "family": family.name,
            "difficulty": difficulty,
            "seed": 0,
            "question": "Find " + ", ".join(map(str, unknowns)) + ".",
            "constraints": [str(c) for c in constraints],
            "unknowns": [str(u) for u in unknowns],
            "request": rec.text(ex, "request", where),
            "hint": rec.text(ex, "hint", where),
            "answer": encode_answer(family.answer_type, answer, list(ex_keys)),
            "answer_type": family.answer_type,
            "answer_keys": list(ex_keys),
            "source": SOURCE,
        })
    return out


def _natural(key: str) -> tuple[str, int]:
    m = re.fullmatch(r"(\D*)(\d+)", key)
    return (m.group(1), int(m.group(2))) if m else (key, -1)


@dataclass
class LineResult:
    line: int
    report: dict[str, Any]
    record: dict[str, Any] | None = None
    error: ReferenceFormatError | None = None
    mismatch: bool = False
    unverified: bool = False
    degenerate: bool = False


def import_line(raw: bytes | str, path: str, line: int, slot_notice: bool = False) -> LineResult:
    """Convert and re-verify one released line; every problem becomes part of the result, never an exception."""
    data, problem = parse_json_line(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if problem is not None:
        error = ReferenceFormatError(path, line, "(line)", problem)
        return LineResult(line, _failed_report(line, None, None, error), error=error)
    try:
        record, verdict, rec = convert_release(data, path, line, slot_notice)
    except ReferenceFormatError as error:
        rid = data.get("id") if isinstance(data, dict) else None
        fam = data.get("family") if isinstance(data, dict) else None
        return LineResult(line, _failed_report(line, rid, fam, error), error=error)
    released = rec.data["global_solution"]
    family = FAMILIES[rec.family]
    recomputed = None
    if verdict.recomputed is not None:
        recomputed = release_shape(verdict.recomputed, family, tuple(record["answer_keys"]), released)
    report = {
        "line": line,
        "id": rec.id,
        "family": rec.family,
        "difficulty": rec.difficulty,
        "converted": True,
        "answer_reverified": verdict.answer_reverified,
        "answer": {"released": released, "recomputed": recomputed, "via": verdict.answer_via,
                   **({"detail": verdict.answer_detail} if verdict.answer_detail else {})},
        "checks": verdict.checks,
        "degenerate": verdict.degenerate,
        "reasons": verdict.reasons,
        "few_shot_examples": len(record.get("few_shot_examples", [])),
    }
    return LineResult(line, report, record, mismatch=verdict.recomputed is not None and not verdict.answer_reverified,
                      unverified=verdict.recomputed is None, degenerate=verdict.degenerate)


def _failed_report(line: int, rid: Any, fam: Any, error: ReferenceFormatError) -> dict[str, Any]:
    return {"line": line, "id": rid, "family": fam, "converted": False, "error": str(error),
            "field": error.field, "answer_reverified": False, "degenerate": None, "reasons": []}


def import_file(path: str | Path, slot_notice: bool = False) -> Iterator[LineResult]:
    for line, raw in iter_lines(path):
        yield import_line(raw, str(path), line, slot_notice)


def summarise(results: list[LineResult]) -> dict[str, Any]:
    by_family: dict[str, dict[str, Any]] = {}
    for r in results:
        fam = r.report.get("family") if isinstance(r.report.get("family"), str) else "(unknown)"
        entry = by_family.setdefault(fam, {"instances": 0, "converted": 0, "answer_mismatch": 0,
                                           "answer_unverified": 0, "degenerate": 0, "reasons": {},
                                           "degenerate_ids": [], "not_localizable": 0})
        entry["instances"] += 1
        entry["not_localizable"] += _not_localizable(r)
        entry["converted"] += r.record is not None
        entry["answer_mismatch"] += r.mismatch
        entry["answer_unverified"] += r.unverified
        if r.degenerate:
            entry["degenerate"] += 1
            entry["degenerate_ids"].append(r.report["id"])
            for code in dict.fromkeys(x["code"] for x in r.report["reasons"]):
                entry["reasons"][code] = entry["reasons"].get(code, 0) + 1
    return {
        "instances": len(results),
        "converted": sum(r.record is not None for r in results),
        "answer_mismatch": sum(r.mismatch for r in results),
        "answer_unverified": sum(r.unverified for r in results),
        "degenerate": sum(r.degenerate for r in results),
        "not_localizable": sum(map(_not_localizable, results)),
        "by_family": by_family,
    }


def _not_localizable(r: LineResult) -> bool:
    """A converted line whose imported A view does not put the hint's slot among A's candidates."""
    return r.record is not None and not r.report["checks"]["localizability"]["passed"]


def imported_instance_problems(inst: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, message) problems of an imported record: it must be exactly what a fresh import of its embedded
    release record gives (so every check, reason, witness, candidate slot and answer is re-derived, in the record's
    view variant), and that import must re-verify the released answer; its A view must pass the validator's
    notice rule (a default view never says what is missing or what the partner knows). Degenerate instances are
    valid records; their reasons are part of the record. Its few-shot examples (mapped from the release's texts,
    which have no machine form) are checked by the schema.
    """
    from schemas import schema_errors
    from verifiers.validate import _notice_problems

    problems = schema_errors("mira_instance", inst)
    if problems:
        return problems
    problems = _notice_problems(inst, inst["minimal_hint_spec"]["atomic_hints"][0]["slot"])
    try:
        ref = inst["global_metadata"]["reference"]
        data = {k: v for k, v in ref["record"].items() if k != "few_shot_examples"}
        fresh, verdict, _ = convert_release(data, ref["file"], ref["line"], inst.get("view_variant") == "slot_notice")
    except (KeyError, TypeError) as exc:
        return [("global_metadata.reference", f"missing or malformed embedded release record ({exc})")]
    except ReferenceFormatError as exc:
        return [(exc.field, f"the embedded release record does not import: {exc.message}")]
    if not verdict.answer_reverified:
        problems.append(("global_solution", "the released answer does not re-verify with our solver"))
    for key in fresh:
        if inst.get(key) != fresh[key]:
            problems.append((key, "differs from a fresh import of the embedded release record"))
    extra = sorted(set(inst) - set(fresh) - {"few_shot_examples"})
    problems += [(key, "not produced by the importer") for key in extra]
    return problems
