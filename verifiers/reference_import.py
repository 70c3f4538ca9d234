"""Import the authors' published MIRA-Math release into our instance format, and re-verify every instance.

``python -m verifiers import-reference FILE.jsonl [--out OURS.jsonl] [--exclude-degenerate] [--report R.jsonl]``

The release (``datasets/family_types_20_50_few_shot.jsonl`` of the authors' repository, one JSON object per line;
format in ``../shared/reference-release/README.md``) stores each fact twice: as text and as a typed machine dict
(``lin_eq``, ``congruence``, ``entry``, ...). Each family's mapping below reads the machine dicts by what their
numbers *are* and rebuilds them as our family's constraint types, so that our family's renderer, solver and
witness search work on them. A's imported view holds what the release's A was told: its machine constraints, the
facts the release's prompt states for the family (e.g. "a rank-1 matrix", the target cell, the number of states)
and facts that follow from what the numbers mean (probabilities lie in [0, 1], a distribution's rows sum to 1),
never the generator's ranges. Per-family notes: ``docs/import-reference.md``.

Every imported instance is then re-verified:

* the answer is recomputed with our family solver from the released constraints and compared with the released
  ``global_solution`` (read in the release's shape: ``int`` ``{value}``, ``rational`` ``{numerator, denominator}``,
  ``dict_int`` including the bayes/markov fractions and crt's ``{x}``);
* our three checks run on the imported views (global uniqueness, local underdetermination with a witness for A
  and for B, hint sufficiency);
* an instance is *degenerate* when a check fails, when the release's own generation domain (ranges, positivity,
  the construction, all never told to A) leaves one value of the target, or when it breaks a rule our family
  enforces on every instance; each reason has a code (``REASONS``) and a detail.

Imported records carry ``verifier.source = "reference-import"``, ``verifier.checks`` lists only the checks they
pass, ``verifier.degenerate`` the reasons, and ``global_metadata.reference`` the released record itself (without
its few-shot examples), from which ``imported_instance_problems`` re-derives and checks the whole record.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from generators import intlinalg as _ila
from generators.base import Constraint, Family, frac, frac_json
from generators.errors import Inconsistent, NotUnique
from generators.families import FAMILIES
from generators.families import birth_death_missing_rate as _bir
from generators.families import circuit_missing_resistance as _cir
from generators.families import discrete_tomography as _dis
from generators.families import eigenvector_missing_entry as _eig
from generators.families import geometry_coordinates as _geo
from generators.families import graph_path_sums as _gra
from generators.families import laplace_grid as _lap
from generators.families import linear_system_missing_coeff as _lsc
from generators.families import linear_system_separator as _lss
from generators.families import markov_missing_transition as _mar
from generators.families import moment_problem as _mom
from generators.families import phase_retrieval as _pha
from generators.families import poly_interpolation as _pol
from generators.linalg import solve_affine
from verifiers.answers import Answer, answers_equal, encode_answer
from verifiers.jsonl import dumps, write_jsonl

IMPORTER_VERSION = "1"
SOURCE = "reference-import"
THREE_CHECKS = ("global_uniqueness", "local_underdetermination", "hint_sufficiency")
MALFORMED = (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError)

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


class ReferenceFormatError(ValueError):
    """A released line that cannot be mapped: names the file, the line and the field."""

    def __init__(self, path: str, line: int, field_name: str, message: str, record_id: str | None = None):
        self.path, self.line, self.field, self.message, self.record_id = path, line, field_name, message, record_id
        rid = f" [{record_id}]" if record_id else ""
        super().__init__(f"{path}:{line}{rid}: {field_name}: {message}")


# ====================================================================== reading one released record
class Release:
    """One released record, with field access that fails with the record's path, line and field."""

    def __init__(self, data: Any, path: str, line: int):
        self.path, self.line = path, line
        if not isinstance(data, dict):
            raise ReferenceFormatError(path, line, "(line)", "a line must be a JSON object")
        self.data = data
        rid = data.get("id")
        self.id = rid if isinstance(rid, str) else None
        self.family = self.text(data, "family", "family")
        self.difficulty = self.integer(data, "difficulty", "difficulty")
        if self.difficulty not in (1, 2, 3):
            self.fail("difficulty", f"must be 1, 2 or 3, not {self.difficulty}")
        if self.id is None or not re.fullmatch(r"[a-z]{3}-\d{6}", self.id):
            self.fail("id", f"expected a 3-letter prefix and a 6-digit counter, got {data.get('id')!r}")
        self.meta = self.get(data, "global_metadata", "global_metadata", dict)
        views = self.get(data, "agent_views", "agent_views", list)
        by_agent = {}
        for i, view in enumerate(views):
            agent = self.get(view, "agent_id", f"agent_views[{i}]") if isinstance(view, dict) else None
            by_agent[agent] = (i, view)
        if set(by_agent) != {"A", "B"} or len(views) != 2:
            self.fail("agent_views", "expected exactly two views, for agents 'A' and 'B'")
        self._views = by_agent

    # ------------------------------------------------------------------ failures and typed access
    def fail(self, field_name: str, message: str) -> NoReturn:
        raise ReferenceFormatError(self.path, self.line, field_name, message, self.id)

    def get(self, obj: Any, key: str, where: str, kind: type | tuple[type, ...] | None = None) -> Any:
        if not isinstance(obj, dict) or key not in obj:
            self.fail(f"{where}.{key}" if where != key else key, "missing")
        value = obj[key]
        if kind is not None and not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            self.fail(f"{where}.{key}" if where != key else key, f"expected {names}, got {value!r}")
        return value

    def integer(self, obj: Any, key: str, where: str) -> int:
        value = self.get(obj, key, where)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{where}.{key}" if where != key else key, f"expected an integer, got {value!r}")
        return value

    def text(self, obj: Any, key: str, where: str) -> str:
        return self.get(obj, key, where, str)

    def int_list(self, obj: Any, key: str, where: str) -> list[int]:
        values = self.get(obj, key, where, list)
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            self.fail(f"{where}.{key}", f"expected a list of integers, got {values!r}")
        return values

    def meta_int(self, key: str) -> int:
        return self.integer(self.meta, key, "global_metadata")

    # ------------------------------------------------------------------ views and hint
    def machine(self, agent: str) -> list[tuple[str, Constraint]]:
        """(field path, machine dict) for each of ``agent``'s machine constraints."""
        i, view = self._views[agent]
        where = f"agent_views[{i}].private_data"
        data = self.get(view, "private_data", f"agent_views[{i}]", dict)
        items = self.get(data, "constraints_machine", where, list)
        out = []
        for k, c in enumerate(items):
            path = f"{where}.constraints_machine[{k}]"
            if not isinstance(c, dict) or not isinstance(c.get("type"), str):
                self.fail(f"{path}.type", "a machine constraint needs a string 'type'")
            out.append((path, c))
        return out

    def texts(self, agent: str) -> list[str]:
        i, view = self._views[agent]
        data = self.get(view, "private_data", f"agent_views[{i}]", dict)
        return [t for t in self.get(data, "constraints_text", f"agent_views[{i}].private_data", list)
                if isinstance(t, str)]

    def unknowns(self, agent: str = "A") -> list[str]:
        i, view = self._views[agent]
        data = self.get(view, "private_data", f"agent_views[{i}]", dict)
        return self.get(data, "unknowns", f"agent_views[{i}].private_data", list)

    def hint(self) -> tuple[str, Constraint, int]:
        """(field path, the hint as a machine dict, its index in B's machine constraints)."""
        spec = self.get(self.data, "minimal_hint_spec", "minimal_hint_spec", dict)
        hints = self.get(spec, "atomic_hints", "minimal_hint_spec", list)
        if len(hints) != 1 or not isinstance(hints[0], dict):
            self.fail("minimal_hint_spec.atomic_hints", f"expected exactly one atomic hint, got {len(hints)}")
        where = "minimal_hint_spec.atomic_hints[0]"
        kind = self.text(hints[0], "kind", where)
        constraint = {"type": kind}
        constraint.update({k: v for k, v in hints[0].items() if k not in ("hint_id", "kind", "providers", "consumers")})
        matches = [k for k, (_, c) in enumerate(self.machine("B")) if c == constraint]
        if not matches:
            self.fail(where, f"the atomic hint {constraint} is not one of B's machine constraints")
        return where, constraint, matches[0]

    def solution(self) -> dict[str, Any]:
        sol = self.get(self.data, "global_solution", "global_solution", dict)
        for k, v in sol.items():
            if isinstance(v, bool) or not isinstance(v, int):
                self.fail(f"global_solution.{k}", f"expected an integer, got {v!r}")
        return sol


# ====================================================================== the mapped instance
@dataclass
class GenLevel:
    """A domain fact of the release's generator that A was never told; ``pins`` decides whether it pins the target."""

    code: str
    detail: str
    constraints: list[Constraint] = field(default_factory=list)
    pins: Callable[[Mapped], bool] | None = None


@dataclass
class Mapped:
    """One released instance in our constraint types."""

    a: list[Constraint]
    b: list[Constraint]
    hint: Constraint
    slot: str
    value: Any
    target: dict[str, Any]
    question: str
    unknowns: list[str]
    answer: Answer
    keys: tuple[str, ...] = ()
    extra_aliases: list[str] = field(default_factory=list)
    generation: list[GenLevel] = field(default_factory=list)
    rule_violations: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Spec:
    """How one family is imported: the mapping, plus overrides where our family's construction differs."""

    convert: Callable[[Release], Mapped]
    release_answer_type: str
    solve: Callable[[list[Constraint], dict[str, Any]], Answer] | None = None  # the release's construction
    alternatives: Callable[[Constraint, list[Constraint], dict[str, Any]], Iterable[Constraint]] | None = None
    recompute: Callable[[Mapped], Answer] | None = None  # formula, when our solver rejects the released data


MAPPINGS: dict[str, Spec] = {}


def register(name: str, release_answer_type: str, **overrides: Any) -> Callable:
    def wrap(fn: Callable[[Release], Mapped]) -> Callable[[Release], Mapped]:
        MAPPINGS[name] = Spec(fn, release_answer_type, **overrides)
        return fn

    return wrap


# ====================================================================== release answers
def release_answer(rec: Release, family: Family, keys: tuple[str, ...], sol: dict[str, Any] | None = None,
                   where: str = "global_solution") -> Answer:
    """The released answer (in the release's shape) as our exact value of ``family.answer_type``."""
    sol = rec.solution() if sol is None else sol
    if family.answer_type == "rational":
        if set(sol) != {"numerator", "denominator"} or sol["denominator"] <= 0:
            rec.fail(where, f"expected {{numerator, denominator > 0}}, got {sol}")
        return Fraction(sol["numerator"], sol["denominator"])
    if family.answer_type == "int":
        if len(sol) != 1:
            rec.fail(where, f"expected one integer (e.g. {{value}} or {{x}}), got {sol}")
        return next(iter(sol.values()))
    if set(sol) != set(keys):
        rec.fail(where, f"expected the keys {list(keys)}, got {list(sol)}")
    return tuple(sol[k] for k in keys)


def release_shape(answer: Answer, family: Family, keys: tuple[str, ...], like: dict[str, Any]) -> dict[str, Any]:
    """Our value written in the release's shape (the keys and key order of ``like``)."""
    if family.answer_type == "rational":
        f = Fraction(answer)  # type: ignore[arg-type]
        return {"numerator": f.numerator, "denominator": f.denominator}
    if family.answer_type == "int":
        return {next(iter(like)): answer}
    by_key = dict(zip(keys, answer, strict=True))  # type: ignore[arg-type]
    return {k: _plain(by_key[k]) for k in like}


# ====================================================================== converting constraints
Converter = Callable[[Release, Constraint, str], Constraint]


def convert_all(rec: Release, agent: str, converters: dict[str, Converter]) -> list[Constraint]:
    """Each of ``agent``'s machine constraints through the converter of its type; unknown types fail."""
    out = []
    for path, c in rec.machine(agent):
        conv = converters.get(c["type"])
        if conv is None:
            rec.fail(f"{path}.type", f"unknown constraint type {c['type']!r} for family {rec.family} "
                                     f"(known: {', '.join(sorted(converters))})")
        out.append(conv(rec, c, path))
    return out


def fraction_fields(rec: Release, c: Constraint, where: str) -> dict[str, int]:
    num, den = rec.integer(c, "num", where), rec.integer(c, "denom", where)
    if den <= 0:
        rec.fail(f"{where}.denom", f"a denominator must be positive, got {den}")
    return {"num": num, "denom": den}


def int_fields(*keys: str, kind: str | None = None) -> Converter:
    """A converter that keeps ``keys`` (all integers) and the type (or renames it to ``kind``)."""

    def conv(rec: Release, c: Constraint, where: str) -> Constraint:
        return {"type": kind or c["type"], **{k: rec.integer(c, k, where) for k in keys}}

    return conv


def frac_type(*keys: str) -> Converter:
    """A converter for ``{..keys (integers).., num, denom}`` constraints."""

    def conv(rec: Release, c: Constraint, where: str) -> Constraint:
        return {"type": c["type"], **{k: rec.integer(c, k, where) for k in keys}, **fraction_fields(rec, c, where)}

    return conv


def lin_eq(variables: tuple[str, ...]) -> Converter:
    def conv(rec: Release, c: Constraint, where: str) -> Constraint:
        coeffs = rec.get(c, "coeffs", where, dict)
        unknown = sorted(set(coeffs) - set(variables))
        if unknown:
            rec.fail(f"{where}.coeffs", f"unknown variables {unknown} (expected {list(variables)})")
        for v, k in coeffs.items():
            if isinstance(k, bool) or not isinstance(k, int):
                rec.fail(f"{where}.coeffs.{v}", f"expected an integer, got {k!r}")
        return {"type": "lin_eq", "coeffs": {v: coeffs.get(v, 0) for v in variables},
                "rhs": rec.integer(c, "rhs", where)}

    return conv


def hint_of(rec: Release, b: list[Constraint]) -> Constraint:
    return b[rec.hint()[2]]


def domain(statement: str, **fields: Any) -> Constraint:
    return {"type": "domain", "statement": statement, **fields}


def check_unknowns(rec: Release, expected: list[str]) -> None:
    got = rec.unknowns("A")
    if got != expected:
        rec.fail("agent_views[0].private_data.unknowns", f"expected {expected}, got {got}")


# ====================================================================== verification
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
        return [name for name in THREE_CHECKS if self.checks[name]["passed"]]


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
        "witness": None if witness is None else {"constraint": witness[0], "answer": _plain(witness[1])},
    }

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
            reason("a_alone_determines", f"A's view gives {_plain(a_alone.value)}")
        elif not consistent:
            reason("hint_determined_by_a", f"A's view gives {_plain(a_alone.value)} and rules out every other value "
                                           f"of {m.slot} ({probes[0][1].message})")
        elif all(answers_equal(a_alone.value, out.value) for _, out in consistent):
            shown = ", ".join(f"{_hint_text(family, alt)} gives {_plain(out.value)}" for alt, out in consistent[:2])
            reason("target_independent_of_hint", f"the target is {_plain(a_alone.value)} whatever {m.slot} is: {shown}")
        else:
            reason("a_alone_determines", f"A's view gives {_plain(a_alone.value)}")
    elif witness is None and ok_hint:
        tried = ", ".join(f"{_hint_text(family, alt)}: {out.status.replace('_', ' ')}" for alt, out in probes[:3])
        reason("no_witness", f"no other admissible value of {m.slot} gives a determined, different target"
                             + (f" ({tried})" if tried else ""))
    if b_alone.status == "ok":
        reason("b_alone_determines", f"B's view gives {_plain(b_alone.value)}")
    if a_open and not any(r["code"] == "violates_domain" for r in reasons):
        for level in m.generation:
            pinned = level.pins(m) if level.pins is not None else (
                attempt(solve, [*level.constraints, *m.a], m.target).status == "ok")
            if pinned:
                reason(level.code, f"A's view under the release's {level.detail} leaves one value of the target")
                break
    return Verdict(reverified, recomputed, via, detail, checks, reasons, witness,
                   "reference-import" if spec.solve else "family")


def _plain(value: Answer | None) -> Any:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _describe(out: Outcome, answer: Answer) -> str:
    if out.status != "ok":
        return f"{out.status.replace('_', ' ')}: {out.message}"
    same = "equals" if answers_equal(answer, out.value) else "differs from"
    return f"determined: {_plain(out.value)} ({same} the released answer)"


def _hint_text(family: Family, c: Constraint) -> str:
    try:
        return family.render(c)
    except MALFORMED:
        return json.dumps(c)


# ====================================================================== building our record
def convert_release(data: Any, path: str = "<record>", line: int = 1) -> tuple[dict[str, Any], Verdict, Release]:
    """(our instance record, its verdict, the parsed release record); ``ReferenceFormatError`` if unmappable."""
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
        record = build_record(rec, family, mapped, verdict)
    except ReferenceFormatError:
        raise
    except MALFORMED as exc:
        rec.fail("agent_views", f"the mapped constraints do not fit our {rec.family} family "
                                f"({type(exc).__name__}: {exc})")
    if "few_shot_examples" in rec.data:
        record["few_shot_examples"] = convert_examples(rec, family, mapped.keys)
    return record, verdict, rec


def build_record(rec: Release, family: Family, m: Mapped, v: Verdict) -> dict[str, Any]:
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
        "agent_views": [
            {"agent_id": "A", "private_data": _private(family, m.unknowns, m.a)},
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


def _private(family: Family, unknowns: list[str], constraints: list[Constraint]) -> dict[str, Any]:
    return {"unknowns": list(unknowns), "externals": [],
            "constraints_text": [family.render(c) for c in constraints], "constraints_machine": constraints}


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


# ====================================================================== files, reports, CLI
@dataclass
class LineResult:
    line: int
    report: dict[str, Any]
    record: dict[str, Any] | None = None
    error: ReferenceFormatError | None = None
    mismatch: bool = False
    unverified: bool = False
    degenerate: bool = False


def import_line(raw: str, path: str, line: int) -> LineResult:
    """Convert and re-verify one released line; every problem becomes part of the result, never an exception."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        error = ReferenceFormatError(path, line, "(line)", f"invalid JSON: {exc.msg} at column {exc.colno}")
        return LineResult(line, _failed_report(line, None, None, error), error=error)
    try:
        record, verdict, rec = convert_release(data, path, line)
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


def import_file(path: str | Path) -> Iterator[LineResult]:
    with open(path, encoding="utf-8") as f:
        for line, raw in enumerate(f, start=1):
            if raw.strip():
                yield import_line(raw, str(path), line)


def summarise(results: list[LineResult]) -> dict[str, Any]:
    by_family: dict[str, dict[str, Any]] = {}
    for r in results:
        fam = r.report.get("family") if isinstance(r.report.get("family"), str) else "(unknown)"
        entry = by_family.setdefault(fam, {"instances": 0, "converted": 0, "answer_mismatch": 0,
                                           "answer_unverified": 0, "degenerate": 0, "reasons": {},
                                           "degenerate_ids": []})
        entry["instances"] += 1
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
        "by_family": by_family,
    }


def add_parser(sub: Any) -> None:
    p = sub.add_parser("import-reference", help="import and re-verify the authors' published MIRA-Math release")
    p.add_argument("file", help="a release JSONL file (with or without few_shot_examples)")
    p.add_argument("--out", help="write the converted instances here (our JSONL format)")
    p.add_argument("--exclude-degenerate", action="store_true", help="leave degenerate instances out of --out")
    p.add_argument("--report", help="write the per-instance report here (JSONL) instead of to stdout")


def run(args: argparse.Namespace) -> int:
    """The ``import-reference`` subcommand: 0 if every line converts and re-verifies, 1 if not, 2 if unreadable."""
    try:
        results = list(import_file(args.file))
    except OSError as exc:
        print(f"{args.file}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for r in results:
        if r.error is not None:
            print(str(r.error), file=sys.stderr)
        elif r.mismatch or r.unverified:
            what = "differs from our recomputation" if r.mismatch else "could not be recomputed"
            got = r.report["answer"]["recomputed"]
            print(f"{args.file}:{r.line} [{r.report['id']}]: global_solution: the released answer "
                  f"{json.dumps(r.report['answer']['released'])} {what}"
                  + (f" {json.dumps(got)}" if got is not None else f" ({r.report['answer'].get('detail', '')})"),
                  file=sys.stderr)
    summary = summarise(results)
    keep = [r.record for r in results if r.record is not None and not r.mismatch and not r.unverified
            and not (args.exclude_degenerate and r.degenerate)]
    summary["written"] = len(keep) if args.out else 0
    summary["excluded_degenerate"] = sum(r.degenerate for r in results) if args.exclude_degenerate else 0
    if args.out:
        summary["sha256"] = write_jsonl(args.out, keep)
    if args.report:
        write_jsonl(args.report, [r.report for r in results])
    else:
        for r in results:
            print(dumps(r.report))
    print(json.dumps(summary, separators=(", ", ": ")))
    failed = summary["instances"] - summary["converted"] + summary["answer_mismatch"] + summary["answer_unverified"]
    return 1 if failed else 0


# ====================================================================== validating imported records
def imported_instance_problems(inst: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, message) problems of an imported record: it must be exactly what a fresh import of its embedded
    release record gives (so every check, reason, witness and answer is re-derived), and that import must
    re-verify the released answer. Degenerate instances are valid records; their reasons are part of the record.
    Its few-shot examples (mapped from the release's texts, which have no machine form) are checked by the schema.
    """
    from schemas import schema_errors

    problems = schema_errors("mira_instance", inst)
    if problems:
        return problems
    try:
        ref = inst["global_metadata"]["reference"]
        data = {k: v for k, v in ref["record"].items() if k != "few_shot_examples"}
        fresh, verdict, _ = convert_release(data, ref["file"], ref["line"])
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


# ====================================================================== per-family mappings
# One function per family: read the release's machine constraints by meaning, return them in our types.


def expect_hint(rec: Release, hint: Constraint, *types: str) -> None:
    if hint["type"] not in types:
        rec.fail("minimal_hint_spec.atomic_hints[0].kind", f"{rec.family}'s hint is a {' or '.join(types)} fact, "
                                                           f"not {hint['type']!r}")


def fam(rec: Release) -> Family:
    return FAMILIES[rec.family]


def integer_line_alternatives(variables: tuple[str, ...]) -> Callable:
    """Witness candidates when A is told only that the unknowns are integers: the hint slot's value at the other
    integer points of the line that A's equations leave (A's view has one free direction)."""

    def alternatives(hint: Constraint, view_a: list[Constraint], target: dict[str, Any]) -> Iterator[Constraint]:
        rows, rhs = _ila.lin_eqs(view_a, variables)
        full_rows, full_rhs = _ila.lin_eqs([*view_a, hint], variables)
        try:
            _, basis = solve_affine(rows, rhs)
            point, rest = solve_affine(full_rows, full_rhs)
        except (Inconsistent, ValueError):
            return
        if len(basis) != 1 or rest:
            return
        scale = math.lcm(*(x.denominator for x in basis[0]))
        direction = [x * scale for x in basis[0]]
        g = math.gcd(*(int(x) for x in direction)) or 1
        direction = [x / g for x in direction]
        for k in (1, -1, 2, -2, 3, -3):
            p = [x + k * d for x, d in zip(point, direction, strict=True)]
            if any(x.denominator != 1 for x in p):
                continue  # A is told the unknowns are integers
            if hint["type"] == "value":
                yield {**hint, "value": p[variables.index(hint["var"])].numerator}
            else:
                yield {**hint, "rhs": sum(hint["coeffs"].get(v, 0) * x.numerator
                                          for v, x in zip(variables, p, strict=True))}

    return alternatives


# ---------------------------------------------------------------------- A1 bayes_missing_prior
@register("bayes_missing_prior", "dict_int")
def map_bayes(rec: Release) -> Mapped:
    conv = {"likelihood_pos": frac_type(), "likelihood_neg": frac_type(), "prior": frac_type()}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "prior")
    a.append(domain("P(H) is a probability strictly between 0 and 1."))
    return Mapped(a, b, hint, "P(H)", frac_json(frac(hint)), {"type": "posterior", "hypothesis": "H", "evidence": "E"},
                  "What is P(H|E), the probability of H given that E was observed? Give it as a reduced fraction.",
                  ["P(H|E)"], release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- A2 crt_reconstruction
@register("crt_reconstruction", "dict_int")
def map_crt(rec: Release) -> Mapped:
    count = iter(range(1, 100))

    def congruence(r: Release, c: Constraint, where: str) -> Constraint:
        mod, residue = r.integer(c, "mod", where), r.integer(c, "residue", where)
        return {"type": "congruence", "var": r.text(c, "var", where), "index": next(count), "mod": mod,
                "residue": residue}

    a = convert_all(rec, "A", {"congruence": congruence})
    b = convert_all(rec, "B", {"congruence": congruence})
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "congruence")
    a.append(domain("x also satisfies one more congruence x ≡ r3 (mod m3), which your partner knows; x is the unique "
                    "integer with 0 <= x < m1*m2*m3 that satisfies all three."))
    slot = _crt_slot(hint["index"])
    return Mapped(a, b, hint, slot, {"modulus": hint["mod"], "residue": hint["residue"]},
                  {"type": "crt", "variable": hint["var"], "n_congruences": len(a) - 1 + len(b)},
                  "What is x, the unique integer with 0 <= x < m1*m2*m3 that satisfies all three congruences?",
                  [hint["var"]], release_answer(rec, fam(rec), ()))


def _crt_slot(index: int) -> str:
    return {1: "first congruence", 2: "second congruence", 3: "third congruence"}.get(index, f"congruence {index}")


# ---------------------------------------------------------------------- A3 geometry_coordinates
RELEASE_OFFSETS = ((3, 4), (4, 3), (5, 12), (12, 5))  # Q = P + offset in the release's generator


def _line(name: str) -> Converter:
    def conv(rec: Release, c: Constraint, where: str) -> Constraint:
        eq = lin_eq(("x", "y"))(rec, c, where)
        if eq["coeffs"] == {"x": 0, "y": 0}:
            rec.fail(f"{where}.coeffs", "a line needs a non-zero coefficient")
        return {"type": "lin_eq", "name": name, "coeffs": eq["coeffs"], "rhs": eq["rhs"]}

    return conv


@register("geometry_coordinates", "dict_int", alternatives=lambda h, a, t: _geometry_alternatives(h, a))
def map_geometry(rec: Release) -> Mapped:
    a = convert_all(rec, "A", {"lin_eq": _line("L1")})
    b = convert_all(rec, "B", {"lin_eq": _line("L2")})
    if len(a) != 1 or len(b) != 1:
        rec.fail("agent_views", f"expected one line for A and one for B, got {len(a)} and {len(b)}")
    hint = hint_of(rec, b)
    qx, qy = rec.int_list(rec.meta, "point_q", "global_metadata")
    for agent in ("A", "B"):  # Q is told to both agents as text only
        for t in rec.texts(agent):
            m = re.fullmatch(r"\s*Q\s*=\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\s*", t)
            if m and (int(m.group(1)), int(m.group(2))) != (qx, qy):
                rec.fail("global_metadata.point_q", f"Q = ({qx}, {qy}) but {agent}'s text says {t!r}")
    q = {"type": "point", "name": "Q", "x": qx, "y": qy}
    a, b = [a[0], q], [b[0], q]
    d = rec.difficulty
    box = {"type": "domain", "coord_bound": 4 + d, "coeff_bound": 3 + d}
    m = Mapped(a, b, hint, "L2", {"coeffs": dict(hint["coeffs"]), "rhs": hint["rhs"]},
               {"type": "distance", "from": "P", "to": "Q"},
               "P = (x, y) is the intersection point of line L1 with a second line L2, which your partner knows. What "
               "is d(P, Q), the distance from P to Q? It is a whole number; give the integer.", ["d(P, Q)"],
               release_answer(rec, fam(rec), ()))
    m.generation = [
        GenLevel("pinned_by_range", f"range (P an integer point in [-{4 + d}, {4 + d}]^2, L2's coefficients in "
                                    f"[-{3 + d}, {3 + d}], |PQ| whole)", [box]),
        GenLevel("pinned_by_construction", f"construction (Q = P + an offset from {list(RELEASE_OFFSETS)}, P an "
                                           f"integer point in [-{4 + d}, {4 + d}]^2)", pins=_geometry_construction),
    ]
    return m


def _geometry_alternatives(hint: Constraint, view_a: list[Constraint]) -> Iterator[Constraint]:
    """L2 moved parallel to itself through other integer points of L1 at a whole distance from Q."""
    line = next(c for c in view_a if c["type"] == "lin_eq")
    q = next(c for c in view_a if c["type"] == "point")
    a1, b1, c1 = line["coeffs"]["x"], line["coeffs"]["y"], line["rhs"]
    a2, b2 = hint["coeffs"]["x"], hint["coeffs"]["y"]
    points = _geo.integer_points_on(a1, b1, c1, 60)
    for x, y in sorted(points, key=lambda p: abs(p[0] - q["x"]) + abs(p[1] - q["y"])):
        if _geo.whole_distance((x, y), (q["x"], q["y"])) is not None:
            yield {**hint, "rhs": a2 * x + b2 * y}


def _geometry_construction(m: Mapped) -> bool:
    """The release draws P in the box and Q = P + offset: do the candidates Q - offset on L1 share one distance?"""
    line, q = m.a[0], m.a[1]
    a1, b1, c1 = line["coeffs"]["x"], line["coeffs"]["y"], line["rhs"]
    a2, b2, c2 = m.hint["coeffs"]["x"], m.hint["coeffs"]["y"], m.hint["rhs"]
    det = a1 * b2 - a2 * b1
    if det == 0:
        return False
    p = (Fraction(c1 * b2 - c2 * b1, det), Fraction(a1 * c2 - a2 * c1, det))
    offsets = list(RELEASE_OFFSETS)
    if (q["x"] - p[0], q["y"] - p[1]) not in offsets:  # the release drew a signed offset: widen the construction
        offsets = [(sx * dx, sy * dy) for dx, dy in RELEASE_OFFSETS for sx in (1, -1) for sy in (1, -1)]
    bound = m.generation[0].constraints[0]["coord_bound"]
    distances = set()
    for dx, dy in offsets:
        x, y = q["x"] - dx, q["y"] - dy
        if a1 * x + b1 * y == c1 and max(abs(x), abs(y)) <= bound:
            distances.add(dx * dx + dy * dy)
    return len(distances) == 1


# ---------------------------------------------------------------------- A4 graph_path_sums
def _path_sum(rec: Release, c: Constraint, where: str) -> Constraint:
    eq = lin_eq(_gra.EDGES)(rec, c, where)
    for name, row in _gra.ROWS.items():
        if [eq["coeffs"][e] for e in _gra.EDGES] == row:
            return {"type": "lin_eq", "name": name, "coeffs": eq["coeffs"], "rhs": eq["rhs"]}
    return rec.fail(f"{where}.coeffs", "not a path sum (two of e01, e12, e20 with coefficient 1, the third 0)")


@register("graph_path_sums", "dict_int", alternatives=integer_line_alternatives(_gra.EDGES))
def map_graph(rec: Release) -> Mapped:
    a = convert_all(rec, "A", {"lin_eq": _path_sum})
    b = convert_all(rec, "B", {"lin_eq": _path_sum})
    hint = hint_of(rec, b)
    d = rec.difficulty
    top = max([abs(c["rhs"]) for c in a] + [1])
    missing = ", ".join(f"{c['name']} = {' + '.join(e for e in _gra.EDGES if c['coeffs'][e])}" for c in b if c not in a)
    m = Mapped(a, b, hint, hint["name"], hint["rhs"], {"type": "edge_weights", "vars": list(_gra.EDGES)},
               f"The edges e01, e12 and e20 of a triangle carry integer weights; your partner knows the path sum "
               f"{missing}. What are the three edge weights (e01, e12, e20)? Give the three integers.",
               list(_gra.EDGES),
               release_answer(rec, fam(rec), _gra.EDGES), keys=_gra.EDGES)
    m.generation = [
        GenLevel("pinned_by_positivity", "positivity (integer weights >= 1)",
                 [{"type": "domain", "integer": True, "lower": 1, "upper": top}]),
        GenLevel("pinned_by_range", f"range (integer weights in [1, {2 + d}])",
                 [{"type": "domain", "integer": True, "lower": 1, "upper": 2 + d}]),
    ]
    return m


# ---------------------------------------------------------------------- A5 linear_system_separator
@register("linear_system_separator", "dict_int", alternatives=integer_line_alternatives(_lss.VARS))
def map_linear_separator(rec: Release) -> Mapped:
    names = iter(range(1, 100))

    def equation(r: Release, c: Constraint, where: str) -> Constraint:
        eq = lin_eq(_lss.VARS)(r, c, where)
        return {"type": "lin_eq", "name": f"eq{next(names)}", "coeffs": eq["coeffs"], "rhs": eq["rhs"]}

    def value(r: Release, c: Constraint, where: str) -> Constraint:
        var = r.text(c, "var", where)
        if var not in _lss.VARS:
            r.fail(f"{where}.var", f"expected one of {list(_lss.VARS)}, got {var!r}")
        return {"type": "value", "var": var, "value": r.integer(c, "value", where)}

    a = convert_all(rec, "A", {"lin_eq": equation})
    b = convert_all(rec, "B", {"value": value})
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "value")
    d = rec.difficulty
    m = Mapped(a, b, hint, hint["var"], hint["value"], {"type": "solution", "vars": list(_lss.VARS)},
               "a, b and c are integers, and your partner knows the value of exactly one of them. What is the solution "
               "(a, b, c) of the system? Give the three integers a, b and c.", list(_lss.VARS),
               release_answer(rec, fam(rec), _lss.VARS), keys=_lss.VARS)
    if all(c["coeffs"][hint["var"]] == 0 for c in a):
        m.rule_violations.append(f"{hint['var']} occurs in none of A's equations, so it separates nothing")
    m.generation = [GenLevel("pinned_by_range", f"range (a, b, c integers in [-{5 + d}, {5 + d}])",
                             [{"type": "domain", "integer": True, "lower": -5 - d, "upper": 5 + d}])]
    return m


# ---------------------------------------------------------------------- A6 matrix_completion
def _entry(rec: Release, c: Constraint, where: str) -> Constraint:
    e = int_fields("row", "col", "value")(rec, c, where)
    if e["row"] not in (0, 1) or e["col"] not in (0, 1):
        rec.fail(where, f"no entry ({e['row']}, {e['col']}) in a 2x2 matrix")
    return e


@register("matrix_completion", "int")
def map_matrix(rec: Release) -> Mapped:
    a = convert_all(rec, "A", {"entry": _entry})
    b = convert_all(rec, "B", {"entry": _entry})
    hint = hint_of(rec, b)
    family = fam(rec)
    told = _ila.with_statement({"type": "domain", "rank": 1, "positive_integer": False}, family.domain_text)
    r, c = rec.int_list(rec.meta, "target", "global_metadata")
    m = Mapped([*a, told], b, hint, f"m{hint['row']}{hint['col']}", hint["value"],
               {"type": "matrix_entry", "row": r, "col": c},
               f"What is m{r}{c}, the entry in row {r}, column {c} of M? Give the integer.",
               [f"m{r}{c}"], release_answer(rec, family, ()))
    top = 2 + rec.difficulty
    m.generation = [
        GenLevel("pinned_by_positivity", "positivity (positive integer entries)",
                 [{"type": "domain", "rank": 1, "positive_integer": True}]),
        GenLevel("pinned_by_range", f"range (M = u v^T with u_i, v_j integers in [1, {top}])",
                 pins=lambda mm: _matrix_factor_pin(mm, top)),
    ]
    return m


def _matrix_factor_pin(m: Mapped, top: int) -> bool:
    known = {(c["row"], c["col"]): c["value"] for c in m.a if c["type"] == "entry"}
    r, c = m.target["row"], m.target["col"]
    values = set()
    span = range(1, top + 1)
    for u0 in span:
        for u1 in span:
            for v0 in span:
                for v1 in span:
                    u, v = (u0, u1), (v0, v1)
                    if all(u[i] * v[j] == x for (i, j), x in known.items()):
                        values.add(u[r] * v[c])
    return len(values) == 1


# ---------------------------------------------------------------------- A7 moment_problem
def _moment(rec: Release, c: Constraint, where: str) -> Constraint:
    eq = lin_eq(_mom.VARS)(rec, c, where)
    for name, (row, _) in _mom.MOMENTS.items():
        if tuple(eq["coeffs"][v] for v in _mom.VARS) == row:
            return {"type": "lin_eq", "name": name, "coeffs": eq["coeffs"], "rhs": eq["rhs"]}
    return rec.fail(f"{where}.coeffs", "not a moment equation on the support {0, 1, 2} "
                                       "(coefficients (1,1,1), (0,1,2) or (0,1,4))")


@register("moment_problem", "dict_int")
def map_moment(rec: Release) -> Mapped:
    a = convert_all(rec, "A", {"lin_eq": _moment})
    b = convert_all(rec, "B", {"lin_eq": _moment})
    hint = hint_of(rec, b)
    total = next((c["rhs"] for c in a if c["name"] == "m0"), None)
    if total is None or total < 1:
        rec.fail("agent_views[0].private_data.constraints_machine", "A's view has no positive sum q0 + q1 + q2 = D")
    family = fam(rec)
    told = _ila.with_statement({"type": "domain", "integer": True, "lower": 0, "upper": total, "total": total},
                               family.domain_text)
    m = Mapped([told, *a], b, hint, hint["name"], hint["rhs"],
               {"type": "weights", "vars": list(_mom.VARS), "support": [0, 1, 2]},
               "What are the weights (q0, q1, q2)? Give the three integers.", list(_mom.VARS),
               release_answer(rec, family, _mom.VARS), keys=_mom.VARS)
    m.generation = [GenLevel("pinned_by_positivity", f"positivity (integer weights >= 1, summing to {total})",
                             [{"type": "domain", "integer": True, "lower": 1, "upper": total, "total": total}])]
    return m


# ---------------------------------------------------------------------- A8 phase_retrieval
def _magnitudes(rec: Release, c: Constraint, where: str) -> Constraint:
    values = rec.int_list(c, "values", where)
    if len(values) != 4:
        rec.fail(f"{where}.values", f"expected four squared magnitudes, got {len(values)}")
    return {"type": "fft_mag_sq", "values": values}


@register("phase_retrieval", "dict_int")
def map_phase(rec: Release) -> Mapped:
    a = convert_all(rec, "A", {"fft_mag_sq": _magnitudes})
    b = convert_all(rec, "B", {"sign": int_fields("index", "sign")})
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "sign")
    convention = domain("X_k = x0 + x1·(-i)^k + x2·(-i)^(2k) + x3·(-i)^(3k) (k = 0, 1, 2, 3) is the length-4 discrete "
                        "Fourier transform of the signal x = (x0, x1, x2, x3), and |X_k|^2 is its squared magnitude.")
    told = domain(f"x0, x1, x2, x3 are integers. Your partner knows the sign of x{hint['index']}.", integer=True)
    d = rec.difficulty
    bound = rec.meta_int("value_range") if "value_range" in rec.meta else 2 + min(d, 2)
    m = Mapped([*a, convention, told], b, hint, f"sign(x{hint['index']})", hint["sign"],
               {"type": "signal", "variables": list(_pha.KEYS)},
               "What is the signal x = (x0, x1, x2, x3)? Give all four integer entries.", list(_pha.KEYS),
               release_answer(rec, fam(rec), _pha.KEYS), keys=_pha.KEYS)
    m.generation = [GenLevel("pinned_by_range", f"range (integers with |x_i| <= {bound} and x0 != 0)",
                             [{"type": "domain", "integer": True, "bound": bound, "nonzero": ["x0"]}])]
    return m


# ---------------------------------------------------------------------- A9 piecewise_missing_threshold
def _branch(rec: Release, c: Constraint, where: str) -> Constraint:
    out = int_fields("branch", "slope", "intercept")(rec, c, where)
    cond = rec.text(c, "condition", where)
    if cond not in ("lt", "geq"):
        rec.fail(f"{where}.condition", f"expected 'lt' or 'geq', got {cond!r}")
    return {**out, "condition": cond}


def _threshold_alternatives(hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
    """A is told nothing about t: integer thresholds on both sides of the query point, nearest first."""
    x = next(c["x"] for c in view_a if c["type"] == "query_point")
    for t in (x, x + 1, x - 1, x + 2, x - 2, hint["value"] + 1, hint["value"] - 1):
        yield {**hint, "value": t}


@register("piecewise_missing_threshold", "int", alternatives=_threshold_alternatives)
def map_piecewise(rec: Release) -> Mapped:
    conv = {"query_point": int_fields("x"), "branch_formula": _branch, "threshold": int_fields("value")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "threshold")
    x = next((c["x"] for c in a if c["type"] == "query_point"), None)
    if x is None:
        rec.fail("agent_views[0].private_data.constraints_machine", "A's view has no query point")
    top = 5 + 3 * rec.difficulty
    m = Mapped(a, b, hint, "t", hint["value"], {"type": "function_value", "function": "f", "at": "query_point"},
               f"What is f({x}), the value of the piecewise function f at the query point x = {x}? Give an integer.",
               [f"f({x})"], release_answer(rec, fam(rec), ()))
    m.generation = [GenLevel("pinned_by_range", f"range (t an integer in [-{top}, {top}], t != x)",
                             [{"type": "domain", "var": "t", "integer": True, "min": -top, "max": top,
                               "excludes_query_point": True}])]
    return m


# ---------------------------------------------------------------------- A10 rankdef_linear_shared
@register("rankdef_linear_shared", "dict_int")
def map_rankdef(rec: Release) -> Mapped:
    labels = iter(range(1, 100))
    variables = ("x", "y", "z")

    def equation(r: Release, c: Constraint, where: str) -> Constraint:
        eq = lin_eq(variables)(r, c, where)
        return {"type": "lin_eq", "eq": next(labels), "coeffs": eq["coeffs"], "rhs": eq["rhs"]}

    a = convert_all(rec, "A", {"lin_eq": equation})
    b = convert_all(rec, "B", {"lin_eq": equation})
    hint = hint_of(rec, b)
    labels_b = ", ".join(f"({c['eq']})" for c in b)
    told = domain(f"x, y and z are integers. Your partner knows more linear equations in x, y and z, labelled "
                  f"{labels_b}.", integer=list(variables))
    d = rec.difficulty
    m = Mapped([*a, told], b, hint, f"equation ({hint['eq']})", {"coeffs": hint["coeffs"], "rhs": hint["rhs"]},
               {"type": "solution", "variables": list(variables)},
               "What is the solution (x, y, z) of the system? Give the three integers.", list(variables),
               release_answer(rec, fam(rec), variables), keys=variables)
    m.generation = [GenLevel("pinned_by_range", f"range (x, y, z integers in [-{5 + d}, {5 + d}])",
                             pins=lambda mm: _box_pin(mm, variables, -5 - d, 5 + d))]
    return m


def _box_pin(m: Mapped, variables: tuple[str, ...], lower: int, upper: int) -> bool:
    rows, rhs = _ila.lin_eqs(m.a, variables)
    return len(_ila.integer_points(rows, rhs, len(variables), lower, upper, limit=2)) == 1


# ---------------------------------------------------------------------- A11 recurrence_missing_init
def _recurrence(rec: Release, c: Constraint, where: str) -> Constraint:
    coeffs = rec.int_list(c, "coeffs", where)
    if len(coeffs) != 2:
        rec.fail(f"{where}.coeffs", f"expected [r1, r2], got {coeffs}")
    return {"type": "recurrence", "coeffs": coeffs}


@register("recurrence_missing_init", "int")
def map_recurrence(rec: Release) -> Mapped:
    conv = {"recurrence": _recurrence, "init": int_fields("index", "value")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "init")
    n = rec.meta_int("target_n")
    k = hint["index"]
    told = domain(f"a(0), a(1), a(2), ... is a sequence of integers that satisfies the recurrence for every n >= 0. "
                  f"The initial value a({k}) is an integer that is not given to you; your partner knows it.",
                  integer=[f"a({k})"])
    return Mapped([*a, told], b, hint, f"a({k})", hint["value"], {"type": "sequence_term", "sequence": "a", "index": n},
                  f"What is a({n}), the term of the sequence with index {n}? Give an integer.", [f"a({n})"],
                  release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- B1 birth_death_missing_rate
def _rate(rec: Release, c: Constraint, where: str) -> Constraint:
    return int_fields("from_state", "to_state", "value")(rec, c, where)


@register("birth_death_missing_rate", "rational")
def map_birth_death(rec: Release) -> Mapped:
    conv = {"birth_rate": _rate, "death_rate": _rate}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    n, s = rec.meta_int("n_states"), rec.meta_int("target_state")
    # our solver checks rates against a stated range; the release's generator range (never binding here: pi_s is
    # strictly monotone in every rate, so no range can pin it) widened to every released value
    top = max([3 + 2 * rec.difficulty] + [c["value"] for c in [*a, *b]])
    return Mapped([_bir.chain_domain(n, 1, top), *a], b, hint, _bir.rate_slot(hint), hint["value"],
                  {"type": "stationary_probability", "state": s},
                  f"What is pi_{s}, the stationary (long-run) probability that the chain is in state {s}? "
                  "Give it as a reduced fraction.", [f"pi_{s}"], release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- B2 circuit_missing_resistance
_JOIN = re.compile(r"\s*(R\d+|G\d+) and (R\d+|G\d+) are connected in (series|parallel), forming "
                   r"(?:group (G\d+)|the total equivalent resistance)\.?\s*")


@register("circuit_missing_resistance", "rational")
def map_circuit(rec: Release) -> Mapped:
    groups: list[Constraint] = []
    pending_total: list[tuple[str, list[str]]] = []

    def topology(r: Release, c: Constraint, where: str) -> Constraint:
        for k, sentence in enumerate(r.get(c, "description", where, list)):
            m = _JOIN.fullmatch(sentence) if isinstance(sentence, str) else None
            if m is None:
                r.fail(f"{where}.description[{k}]",
                       f"cannot read {sentence!r} as 'X and Y are connected in series|parallel, forming group Gk' "
                       "or '..., forming the total equivalent resistance'")
            if m.group(4):
                groups.append({"type": "topology", "group": m.group(4), "connection": m.group(3),
                               "parts": [m.group(1), m.group(2)]})
            else:
                pending_total.append((m.group(3), [m.group(1), m.group(2)]))
        return {"type": "topology"}  # placeholder, replaced below

    def resistance(r: Release, c: Constraint, where: str) -> Constraint:
        k = r.integer(c, "resistor", where)  # 0-based in the release's machine form, 1-based in its text
        return {"type": "resistance", "resistor": k + 1, "value": r.integer(c, "value", where)}

    conv = {"topology": topology, "resistance": resistance}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", {"resistance": resistance})
    hint = hint_of(rec, b)
    n = rec.meta_int("n_resistors")
    if len(pending_total) != 1:
        rec.fail("agent_views[0].private_data.constraints_machine", "the topology must name the total resistance once")
    used = [int(g["group"][1:]) for g in groups]
    network = f"G{max(used, default=0) + 1}"
    groups.append({"type": "topology", "group": network, "connection": pending_total[0][0],
                   "parts": pending_total[0][1]})
    for g in groups:
        for part in g["parts"]:
            if part.startswith("R") and not 1 <= int(part[1:]) <= n:
                rec.fail("agent_views[0].private_data.constraints_machine", f"{part} is not one of R1..R{n}")
    values = [c for c in a if c["type"] == "resistance"]
    top = max([5 + 3 * (rec.difficulty - 1)] + [c["value"] for c in [*values, hint]])
    a = [_cir.network_domain(n, 1, top, network), *groups, *values]
    return Mapped(a, b, hint, f"R{hint['resistor']}", hint["value"],
                  {"type": "equivalent_resistance", "network": network},
                  f"What is R_eq, the equivalent resistance in ohms of the whole network {network} between its two "
                  "terminals? Give it as a reduced fraction.", ["R_eq"], release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- B3 deconvolution
def _deconvolution_statement(n: int, m: int) -> str:
    xs = ", ".join(f"x{j}" for j in range(n))
    hs = ", ".join(f"h{i}" for i in range(m))
    terms = " + ".join(f"h{i}*x_(k-{i})" if i else "h0*x_k" for i in range(m))
    return (f"x = ({xs}) is an unknown signal of {n} integers and h = ({hs}) is a known kernel. Their linear "
            f"convolution y = x * h has samples y_k = {terms} for k = 0..{n + m - 2}, where x_j = xj for "
            f"j = 0..{n - 1} and x_j = 0 for any other j. Every sample but one is listed.")


def _deconvolution_setup(constraints: list[Constraint]) -> tuple[int, list[int], int]:
    described = [c for c in constraints if c["type"] == "domain" and "samples" in c]
    kernels = [c for c in constraints if c["type"] == "kernel"]
    if not described or not kernels:
        raise NotUnique("the signal or the kernel is not described")
    d, h = described[0], kernels[0]["values"]
    if d["statement"] != _deconvolution_statement(d["signal_length"], d["kernel_length"]) or len(h) != d[
            "kernel_length"]:
        raise Inconsistent("the signal's description does not match its fields or the kernel")
    return d["signal_length"], h, d["samples"]


def solve_full_deconvolution(constraints: list[Constraint], target: dict[str, Any]) -> tuple[int, ...]:
    """The release's construction: any measured samples of the full convolution, an integer signal."""
    n, h, total = _deconvolution_setup(constraints)
    y: dict[int, int] = {}
    for c in constraints:
        if c["type"] == "conv_eq":
            if not 0 <= c["index"] < total:
                raise Inconsistent(f"y_{c['index']} is not a sample of the convolution")
            if y.setdefault(c["index"], c["value"]) != c["value"]:
                raise Inconsistent(f"two values for y_{c['index']}")
    if not y:
        raise NotUnique("no samples")
    rows = [[h[k - j] if 0 <= k - j < len(h) else 0 for j in range(n)] for k in sorted(y)]
    point, basis = solve_affine(rows, [y[k] for k in sorted(y)])
    if basis:
        raise NotUnique(f"the samples leave {len(basis)} free direction(s) of x")
    if any(x.denominator != 1 for x in point):
        raise Inconsistent("the samples force a non-integer signal")
    return tuple(x.numerator for x in point)


def _deconvolution_alternatives(hint: Constraint, view_a: list[Constraint], target: dict[str, Any]):
    for step in range(1, 25):
        for sign in (1, -1):
            yield {**hint, "value": hint["value"] + sign * step}


def _check_convolution_texts(rec: Release, agent: str, h: list[int]) -> None:
    """The kernel is told to A only inside the equation texts: they must agree with global_metadata.kernel."""
    texts, machine = rec.texts(agent), rec.machine(agent)
    if len(texts) != len(machine):
        return
    for (path, c), text in zip(machine, texts, strict=True):
        m = re.fullmatch(r"\s*(.+?)\s*=\s*(-?\d+)\s*", text)
        if m is None:
            rec.fail(path, f"cannot read the equation text {text!r}")
        k = rec.integer(c, "index", path)
        for sign, digits, j in re.findall(r"([+-]?)(\d*)x(\d+)", m.group(1).replace(" ", "")):
            coeff = (-1 if sign == "-" else 1) * (int(digits) if digits else 1)
            if not 0 <= k - int(j) < len(h) or h[k - int(j)] != coeff:
                rec.fail(path, f"the text {text!r} does not match the kernel {h} (global_metadata.kernel)")


@register("deconvolution", "dict_int", solve=solve_full_deconvolution, alternatives=_deconvolution_alternatives)
def map_deconvolution(rec: Release) -> Mapped:
    conv = {"conv_eq": int_fields("index", "value")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    h = rec.int_list(rec.meta, "kernel", "global_metadata")
    n = rec.meta_int("length_x")
    keys = tuple(f"x{j}" for j in range(n))
    check_unknowns(rec, list(keys))
    if not h:
        rec.fail("global_metadata.kernel", "empty kernel")
    for agent in ("A", "B"):
        _check_convolution_texts(rec, agent, h)
    described = domain(_deconvolution_statement(n, len(h)), signal_length=n, kernel_length=len(h),
                       samples=n + len(h) - 1)
    m = Mapped([described, {"type": "kernel", "values": h}, *a], b, hint, f"y_{hint['index']}", hint["value"],
               {"type": "signal", "length": n},
               f"What is the signal x = ({', '.join(keys)})? Give all {n} entries as integers.", list(keys),
               release_answer(rec, fam(rec), keys), keys=keys)
    if h[0] == 0:
        m.rule_violations.append("h0 = 0")
    elif not any(h[1:]):
        m.rule_violations.append(f"the kernel {h} is a scaled delta: each sample fixes one x_k on its own, so this is "
                                 "not a deconvolution (our family rejects such kernels)")
    return m


# ---------------------------------------------------------------------- B4 discrete_tomography
@register("discrete_tomography", "int")
def map_tomography(rec: Release) -> Mapped:
    conv = {"row_sum": int_fields("row", "value"), "col_sum": int_fields("col", "value"),
            "cell": int_fields("row", "col", "value")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "cell")
    if rec.int_list(rec.meta, "size", "global_metadata") != [3, 3]:
        rec.fail("global_metadata.size", "our discrete_tomography family is 3x3")
    i, j = rec.int_list(rec.meta, "target_cell", "global_metadata")
    return Mapped([domain(_dis.GRID_STATEMENT), *a], b, hint, f"cell({hint['row']},{hint['col']})", hint["value"],
                  {"type": "cell_value", "row": i, "col": j},
                  f"What is the value (0 or 1) of cell({i},{j}), the entry in row {i} and column {j}?",
                  [f"cell({i},{j})"], release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- B5 eigenvector_missing_entry
@register("eigenvector_missing_entry", "int")
def map_eigenvector(rec: Release) -> Mapped:
    conv = {"matrix_entry": int_fields("row", "col", "value"), "eigvec": int_fields("index", "value")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "matrix_entry")
    n = rec.meta_int("n")
    i, t = rec.meta_int("missing_row"), rec.meta_int("target_col")
    return Mapped([domain(_eig.matrix_statement(n), n=n), *a], b, hint, _eig.entry_slot(hint["row"], hint["col"]),
                  hint["value"], {"type": "matrix_square_entry", "matrix": "M", "row": i, "col": t},
                  f"What is (M^2)[{i}][{t}], the entry in row {i} and column {t} of M^2 = M·M? Give it as an integer.",
                  [f"(M^2)[{i}][{t}]"], release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- B6 laplace_grid
@register("laplace_grid", "int")
def map_laplace(rec: Release) -> Mapped:
    n = rec.meta_int("grid_size")
    cells = [_lap.var(i, j) for i in range(n) for j in range(n)]
    check_unknowns(rec, cells)

    def equation(r: Release, c: Constraint, where: str) -> Constraint:
        coeffs = r.get(c, "coeffs", where, dict)
        for v, k in coeffs.items():
            if v not in cells or isinstance(k, bool) or not isinstance(k, int):
                r.fail(f"{where}.coeffs.{v}", f"expected an integer coefficient of a cell of the {n}x{n} grid")
        return {"type": "lin_eq", "coeffs": dict(coeffs), "rhs": r.integer(c, "rhs", where)}

    def value(r: Release, c: Constraint, where: str) -> Constraint:
        if r.text(c, "var", where) not in cells:
            r.fail(f"{where}.var", f"{c['var']!r} is not a cell of the {n}x{n} grid")
        return {"type": "value", "var": c["var"], "value": r.integer(c, "value", where)}

    conv = {"lin_eq": equation, "value": value}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "value")
    ti, tj = rec.int_list(rec.meta, "target_cell", "global_metadata")
    return Mapped([domain(_lap.grid_statement(n), grid_size=n), *a], b, hint, hint["var"], hint["value"],
                  {"type": "grid_value", "grid_size": n, "var": _lap.var(ti, tj)},
                  f"What is u_{ti}_{tj}, the value of the interior cell in row {ti}, column {tj}? "
                  "Give it as an integer.",
                  [_lap.var(ti, tj)], release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- B7 linear_system_missing_coeff
@register("linear_system_missing_coeff", "rational")
def map_linear_coeff(rec: Release) -> Mapped:
    conv = {"coeff": int_fields("row", "col", "value"), "rhs": int_fields("row", "value")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "coeff")
    n, k = rec.meta_int("n"), rec.meta_int("target_k")
    return Mapped([domain(_lsc.system_statement(n), n=n), *a], b, hint, _lsc.coeff_slot(hint["row"], hint["col"]),
                  hint["value"], {"type": "solution_component", "var": f"x{k}", "index": k},
                  f"What is x{k}, the value of the unknown with index {k} in the solution? Give it as a reduced "
                  "fraction.", [f"x{k}"], release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- B8 markov_missing_transition
@register("markov_missing_transition", "dict_int")
def map_markov(rec: Release) -> Mapped:
    conv = {"transition": frac_type("from_state", "to_state")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    n, s = rec.meta_int("n_states"), rec.meta_int("target_state")
    return Mapped([domain(_mar.chain_statement(n), n_states=n), *a], b, hint,
                  _mar.slot_of(hint["from_state"], hint["to_state"]), frac_json(frac(hint)),
                  {"type": "stationary_probability", "state": s},
                  f"What is pi_{s}, the stationary probability of state {s}? Give it as a reduced fraction.",
                  [f"pi_{s}"], release_answer(rec, fam(rec), ()))


# ---------------------------------------------------------------------- B9 poly_interpolation
@register("poly_interpolation", "int", recompute=lambda m: _poly_formula(m))
def map_poly(rec: Release) -> Mapped:
    conv = {"point": int_fields("x", "y")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    degree = len(a)  # the release tells A that it holds `degree` points and B the one more that fixes p
    if "degree" in rec.meta and rec.meta_int("degree") != degree:
        rec.fail("global_metadata.degree", f"A holds {degree} points, so p has degree {degree}, "
                                           f"not {rec.meta['degree']}")
    x_star = rec.meta_int("target_x")
    told = domain(f"p is a polynomial in x of degree {degree} with integer coefficients. Your partner knows its value "
                  f"at one more point.")
    return Mapped([told, *a], b, hint, f"p({hint['x']})", hint["y"],
                  {"type": "poly_value", "poly": "p", "x": x_star, "degree": degree},
                  f"What is p({x_star}), the value of the polynomial p at x = {x_star}? Give the integer.",
                  [f"p({x_star})"], release_answer(rec, fam(rec), ()),
                  extra_aliases=["your interpolation point", "the missing interpolation point"])


def _poly_formula(m: Mapped) -> int:
    points = sorted({(c["x"], c["y"]) for c in [*m.a, *m.b] if c["type"] == "point"})
    numer, lcm = _pol.interpolate(points)
    value = Fraction(_pol.horner(numer, m.target["x"]), lcm)
    if value.denominator != 1:
        raise Inconsistent(f"p({m.target['x']}) = {value} is not an integer")
    return value.numerator


# ---------------------------------------------------------------------- B10 portfolio_variance_missing_corr
@register("portfolio_variance_missing_corr", "rational", recompute=lambda m: _portfolio_formula(m))
def map_portfolio(rec: Release) -> Mapped:
    conv = {"weight": frac_type("asset"), "std": int_fields("asset", "value"), "corr": frac_type("asset_i", "asset_j")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "corr")
    n = rec.meta_int("n_assets")
    told = domain(f"A portfolio holds {n} assets, numbered {', '.join(map(str, range(n)))}. w_i is the fraction of the "
                  "portfolio in asset i (the weights sum to 1), sigma_i is the standard deviation of asset i's return "
                  "and rho(i,j) = rho(j,i) is the correlation between the returns of assets i and j (rho(i,i) = 1); "
                  "the correlations form a valid (positive semidefinite) correlation matrix.")
    i, j = sorted((hint["asset_i"], hint["asset_j"]))
    return Mapped([told, *a], b, hint, f"rho({i},{j})", frac_json(frac(hint)),
                  {"type": "portfolio_variance", "n_assets": n},
                  "What is the portfolio variance sigma_p^2 = sum over i and j of w_i w_j sigma_i sigma_j rho(i,j)? "
                  "Give it as a reduced fraction.", ["sigma_p^2"], release_answer(rec, fam(rec), ()))


def _portfolio_formula(m: Mapped) -> Fraction:
    cs = [*m.a, *m.b]
    w = {c["asset"]: frac(c) for c in cs if c["type"] == "weight"}
    s = {c["asset"]: c["value"] for c in cs if c["type"] == "std"}
    rho = {}
    for c in cs:
        if c["type"] == "corr":
            rho[c["asset_i"], c["asset_j"]] = rho[c["asset_j"], c["asset_i"]] = frac(c)
    n = m.target["n_assets"]
    try:
        return sum((w[i] * w[j] * s[i] * s[j] * (1 if i == j else rho[i, j]) for i in range(n) for j in range(n)),
                   Fraction(0))
    except KeyError as exc:
        raise NotUnique(f"missing value {exc}") from None


# ---------------------------------------------------------------------- B11 steady_state_missing_emission
@register("steady_state_missing_emission", "rational")
def map_steady_state(rec: Release) -> Mapped:
    conv = {"transition": frac_type("from_state", "to_state"), "emission": frac_type("state", "symbol")}
    a, b = convert_all(rec, "A", conv), convert_all(rec, "B", conv)
    hint = hint_of(rec, b)
    expect_hint(rec, hint, "emission")
    n, k, o = rec.meta_int("n_states"), rec.meta_int("n_symbols"), rec.meta_int("target_symbol")
    told = domain(f"A hidden Markov model has hidden states {', '.join(map(str, range(n)))} and observation symbols "
                  f"{', '.join(map(str, range(k)))}. P[i][j] is the probability that the hidden chain moves from state "
                  "i to state j in one step; E[s][o] is the probability of observing symbol o when the chain is in "
                  "state s. Every row of P and every row of E is a probability distribution. pi is the stationary "
                  "distribution of P.")
    return Mapped([told, *a], b, hint, f"E[{hint['state']}][{hint['symbol']}]", frac_json(frac(hint)),
                  {"type": "observation_probability", "symbol": o, "n_states": n, "n_symbols": k},
                  f"In the stationary regime, what is the probability of observing symbol {o}, P(observe {o}) = sum "
                  f"over states s of pi_s E[s][{o}]? Give it as a reduced fraction.", [f"P(observe {o})"],
                  release_answer(rec, fam(rec), ()))
