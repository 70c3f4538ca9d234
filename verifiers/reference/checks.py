"""Re-verifying one mapped instance: the answer recomputed, our three checks on the imported views, A's candidate
slots (localizability, recorded only where it holds), and the degeneracy reasons (``REASONS``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from generators.answers import Answer, answers_equal
from generators.base import Constraint, Family
from generators.checks import THREE_CHECKS
from generators.errors import Inconsistent, NotUnique
from verifiers.reference.mapping import MALFORMED, Mapped, Spec, plain

REASONS = {
    "a_alone_determines": "A's imported view alone determines the target",
    "target_independent_of_hint": "every admissible value of the hint slot gives the same target",
    "hint_determined_by_a": "A's view already fixes the withheld value (the hint is solvable without B)",
    "b_alone_determines": "B's view alone determines the target",
    "hint_insufficient": "A's view plus the hint does not determine the target",
    "no_witness": "A's view leaves the target open, but no other admissible hint value gives another target",
    "violates_domain": "the released constraints break a fact our family solver enforces",
    "violates_family_rule": "the instance breaks a rule our family enforces on every instance",
    "pinned_by_positivity": "positivity (and integrality) of the release's unknowns pins the target without B",
    "pinned_by_range": "the release generator's value ranges (never told to A) pin the target without B",
    "pinned_by_construction": "the release generator's construction (never told to A) pins the target without B",
}


@dataclass
class Outcome:
    status: str  # "ok" | "not_unique" | "inconsistent"
    value: Answer | None = None
    message: str = ""


@dataclass
class Verdict:
    answer_reverified: bool
    recomputed: Answer | None
    answer_via: str
    answer_detail: str
    checks: dict[str, dict[str, Any]]
    reasons: list[dict[str, str]]
    witness: tuple[Constraint, Answer] | None
    solver: str

    @property
    def degenerate(self) -> bool:
        return bool(self.reasons)

    @property
    def passed(self) -> list[str]:
        return [name for name in (*THREE_CHECKS, "localizability") if self.checks[name]["passed"]]

    @property
    def candidate_slots(self) -> list[str] | None:
        """A's candidate slots when the localizability check holds (the hint's slot among them), else None."""
        check = self.checks["localizability"]
        return check["candidates"] if check["passed"] else None


def _solver(spec: Spec, family: Family) -> Callable[[list[Constraint], dict[str, Any]], Answer]:
    return spec.solve or family.solve


def attempt(solve: Callable, constraints: list[Constraint], target: dict[str, Any]) -> Outcome:
    try:
        return Outcome("ok", solve(constraints, target))
    except NotUnique as exc:
        return Outcome("not_unique", None, str(exc))
    except Inconsistent as exc:
        return Outcome("inconsistent", None, str(exc))


def _dedup(items: Iterable[Constraint]) -> list[Constraint]:
    out: list[Constraint] = []
    for c in items:
        if c not in out:
            out.append(c)
    return out


def verify(spec: Spec, family: Family, m: Mapped) -> Verdict:
    """Recompute the answer and run the three checks on the imported views; classify degeneracy."""
    solve = _solver(spec, family)
    alternatives = spec.alternatives or family.hint_alternatives
    full = attempt(solve, _dedup([*m.a, *m.b]), m.target)
    with_hint = attempt(solve, [*m.a, m.hint], m.target)
    a_alone = attempt(solve, m.a, m.target)
    b_alone = attempt(solve, m.b, m.target)
    reasons: list[dict[str, str]] = []

    def reason(code: str, detail: str) -> None:
        reasons.append({"code": code, "detail": detail})

    # ---- the answer, recomputed from the released constraints
    recomputed, via, detail = None, "", ""
    if full.status == "ok":
        who = "the importer's solver for the release's construction" if spec.solve else "our family solver"
        recomputed, via = full.value, f"A and B's constraints, with {who}"
    else:
        detail = f"our family solver on A and B's constraints: {full.status.replace('_', ' ')} ({full.message})"
        if spec.recompute is not None:
            try:
                recomputed, via = spec.recompute(m), "the family's formula on the released values"
            except (NotUnique, Inconsistent) as exc:
                detail += f"; formula: {exc}"
        for level in m.generation:
            if recomputed is None and level.constraints:
                extra = attempt(solve, _dedup([*level.constraints, *m.a, *m.b]), m.target)
                if extra.status == "ok":
                    recomputed, via = extra.value, f"A and B's constraints plus the release's {level.detail}"
    reverified = recomputed is not None and answers_equal(m.answer, recomputed)

    # ---- the three checks
    checks: dict[str, dict[str, Any]] = {}
    ok_full = full.status == "ok" and answers_equal(m.answer, full.value)
    checks["global_uniqueness"] = {"passed": ok_full, "detail": _describe(full, m.answer)}
    ok_hint = with_hint.status == "ok" and answers_equal(m.answer, with_hint.value)
    checks["hint_sufficiency"] = {"passed": ok_hint, "detail": _describe(with_hint, m.answer)}
    witness = None
    probes: list[tuple[Constraint, Outcome]] = []
    for alt in alternatives(m.hint, m.a, m.target):
        if alt == m.hint:
            continue
        out = attempt(solve, [*m.a, alt], m.target)
        probes.append((alt, out))
        if out.status == "ok" and not answers_equal(m.answer, out.value):
            witness = (alt, out.value)
            break
        if len(probes) >= 64:
            break
    a_open = a_alone.status != "ok"
    b_open = b_alone.status != "ok"
    checks["local_underdetermination"] = {
        "passed": a_open and b_open and witness is not None,
        "a_alone": _describe(a_alone, m.answer),
        "b_alone": _describe(b_alone, m.answer),
        "witness": None if witness is None else {"constraint": witness[0], "answer": plain(witness[1])},
    }

    checks["localizability"] = _localizability(spec, family, m)

    # ---- degeneracy
    for violation in m.rule_violations:
        reason("violates_family_rule", violation)
    for name, out in (("A and B's constraints", full), ("A's view plus the hint", with_hint)):
        if out.status == "inconsistent":
            reason("violates_domain", f"{name}: {out.message}")
            break
    if with_hint.status == "not_unique":
        reason("hint_insufficient", with_hint.message)
    if a_alone.status == "ok":
        consistent = [(alt, out) for alt, out in probes if out.status == "ok"]
        if not probes:
            reason("a_alone_determines", f"A's view gives {plain(a_alone.value)}")
        elif not consistent:
            reason("hint_determined_by_a", f"A's view gives {plain(a_alone.value)} and rules out every other value "
                                           f"of {m.slot} ({probes[0][1].message})")
        elif all(answers_equal(a_alone.value, out.value) for _, out in consistent):
            shown = ", ".join(f"{_hint_text(family, alt)} gives {plain(out.value)}" for alt, out in consistent[:2])
            reason("target_independent_of_hint", f"the target is {plain(a_alone.value)} whatever {m.slot} is: {shown}")
        else:
            reason("a_alone_determines", f"A's view gives {plain(a_alone.value)}")
    elif witness is None and ok_hint:
        tried = ", ".join(f"{_hint_text(family, alt)}: {out.status.replace('_', ' ')}" for alt, out in probes[:3])
        reason("no_witness", f"no other admissible value of {m.slot} gives a determined, different target"
                             + (f" ({tried})" if tried else ""))
    if b_alone.status == "ok":
        reason("b_alone_determines", f"B's view gives {plain(b_alone.value)}")
    if a_open and not any(r["code"] == "violates_domain" for r in reasons):
        for level in m.generation:
            pinned = level.pins(m) if level.pins is not None else (
                attempt(solve, [*level.constraints, *m.a], m.target).status == "ok")
            if pinned:
                reason(level.code, f"A's view under the release's {level.detail} leaves one value of the target")
                break
    return Verdict(reverified, recomputed, via, detail, checks, reasons, witness,
                   "reference-import" if spec.solve else "family")


def _localizability(spec: Spec, family: Family, m: Mapped) -> dict[str, Any]:
    """A's candidate slots, judged from A's default view (never the notice) and the target, as our family judges
    them (or the mapping, where the imported statement is the release's, not our family's); passed when the hint's
    slot is among them. Not a degeneracy: a failure says only that the imported view does not let A localize."""
    try:
        candidates = spec.candidates(m) if spec.candidates else list(family.candidates_for(m.a, m.target))
    except (NotUnique, Inconsistent, NotImplementedError, *MALFORMED) as exc:
        return {"passed": False, "candidates": None,
                "detail": f"A's imported view does not declare the quantities its gap is among ({exc})"}
    if len(set(candidates)) != len(candidates):
        return {"passed": False, "candidates": candidates, "detail": f"candidate slots repeat a slot: {candidates}"}
    if m.slot not in candidates:
        return {"passed": False, "candidates": candidates,
                "detail": f"the hint's slot {m.slot} is not among the candidates A's view leaves open {candidates}"}
    return {"passed": True, "candidates": candidates, "detail": f"{m.slot} is one of {len(candidates)} candidate(s)"}


def _describe(out: Outcome, answer: Answer) -> str:
    if out.status != "ok":
        return f"{out.status.replace('_', ' ')}: {out.message}"
    same = "equals" if answers_equal(answer, out.value) else "differs from"
    return f"determined: {plain(out.value)} ({same} the released answer)"


def _hint_text(family: Family, c: Constraint) -> str:
    try:
        return family.render(c)
    except MALFORMED:
        return json.dumps(c)
