"""What a family mapping returns (``Mapped``, ``Spec``) and the helpers the mappings share: typed constraint
converters, the released answer in our types and back in the release's shape."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from generators import intlinalg as _ila
from generators.answers import Answer
from generators.base import Constraint, Family, missing_slot_note
from generators.errors import Inconsistent
from generators.families import FAMILIES
from generators.linalg import solve_affine
from verifiers.reference.release import Release

# what a record too malformed for our family's code raises; reported as a format error, never a crash
MALFORMED = (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError)


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
    """One released instance in our constraint types.

    ``a`` is A's default view: what A knows, never where its gap is or what B holds. ``notice``, where the release
    told A what its partner knows, is that sentence as a slot notice (``missing_slot_note``), shown to A only in
    the ``slot_notice`` ablation (``import-reference --slot-notice``).
    """

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
    notice: Constraint | None = None


@dataclass(frozen=True)
class Spec:
    """How one family is imported: the mapping, plus overrides where our family's construction differs."""

    convert: Callable[[Release], Mapped]
    release_answer_type: str
    solve: Callable[[list[Constraint], dict[str, Any]], Answer] | None = None  # the release's construction
    alternatives: Callable[[Constraint, list[Constraint], dict[str, Any]], Iterable[Constraint]] | None = None
    recompute: Callable[[Mapped], Answer] | None = None  # formula, when our solver rejects the released data
    candidates: Callable[[Mapped], list[str]] | None = None  # A's candidate slots, where our family's statement differs


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


def released(rec: Release, keys: tuple[str, ...] = ()) -> Answer:
    """The record's released answer as our exact value of its family's answer type."""
    return release_answer(rec, FAMILIES[rec.family], keys)


def release_shape(answer: Answer, family: Family, keys: tuple[str, ...], like: dict[str, Any]) -> dict[str, Any]:
    """Our value written in the release's shape (the keys and key order of ``like``)."""
    if family.answer_type == "rational":
        f = Fraction(answer)  # type: ignore[arg-type]
        return {"numerator": f.numerator, "denominator": f.denominator}
    if family.answer_type == "int":
        return {next(iter(like)): answer}
    by_key = dict(zip(keys, answer, strict=True))  # type: ignore[arg-type]
    return {k: plain(by_key[k]) for k in like}


def plain(value: Answer | None) -> Any:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


# ====================================================================== converting constraints
Converter = Callable[[Release, Constraint, str], Constraint]
Views = tuple[list[Constraint], list[Constraint], Constraint]  # A's, B's, the hint


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


def int_list_field(key: str, length: int, wrong_length: Callable[[list[int]], str]) -> Converter:
    """A converter for ``{key: [length integers]}`` constraints; ``wrong_length`` words the error for another length."""

    def conv(rec: Release, c: Constraint, where: str) -> Constraint:
        values = rec.int_list(c, key, where)
        if len(values) != length:
            rec.fail(f"{where}.{key}", wrong_length(values))
        return {"type": c["type"], key: values}

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


def named_lin_eq(variables: tuple[str, ...], rows: dict[str, Sequence[int]], expected: str) -> Converter:
    """A converter for a ``lin_eq`` that must be one of the family's named equations (its coefficient row names it);
    ``expected`` says which rows are, in the error for any other."""

    def conv(rec: Release, c: Constraint, where: str) -> Constraint:
        eq = lin_eq(variables)(rec, c, where)
        for name, row in rows.items():
            if [eq["coeffs"][v] for v in variables] == list(row):
                return {"type": "lin_eq", "name": name, "coeffs": eq["coeffs"], "rhs": eq["rhs"]}
        return rec.fail(f"{where}.coeffs", expected)

    return conv


def hint_of(rec: Release, b: list[Constraint]) -> Constraint:
    return b[rec.hint()[2]]


def read_views(rec: Release, converters: dict[str, Converter], *hint_kinds: str,
               b_converters: dict[str, Converter] | None = None) -> Views:
    """(A's constraints, B's constraints, the hint): each view through the converters (B's own where given), then
    the hint, one of B's constraints, of one of ``hint_kinds`` where any are given."""
    a = convert_all(rec, "A", converters)
    b = convert_all(rec, "B", converters if b_converters is None else b_converters)
    hint = hint_of(rec, b)
    if hint_kinds:
        expect_hint(rec, hint, *hint_kinds)
    return a, b, hint


def domain(statement: str, **fields: Any) -> Constraint:
    return {"type": "domain", "statement": statement, **fields}


def partner_notice(slot: str, statement: str) -> Constraint:
    """The release's sentence telling A what its partner knows, as the slot notice of the ``slot_notice`` ablation."""
    return missing_slot_note(slot, statement)


def check_unknowns(rec: Release, expected: list[str]) -> None:
    got = rec.unknowns("A")
    if got != expected:
        rec.fail("agent_views[0].private_data.unknowns", f"expected {expected}, got {got}")


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
