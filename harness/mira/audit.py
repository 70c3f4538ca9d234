"""Offline audit of offers and final answers, shared by the live loop and the re-scorer.

An offer is *canonical* when what B quoted (or the hint string it extracted) is the instance's canonical
hint constraint: equal after ``harness.text.normalize`` (case, spacing, unicode, a trailing period), or
containing it as a phrase while containing none of B's other constraints (``"Constraint 1: P(H) = 4/5"``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from generators.answers import answers_equal, decode_answer
from harness.text import normalize
from verifiers.answers import AnswerParseError, parse_answer


def audit_form(text: str) -> str:
    """``normalize`` without surrounding quotes and trailing punctuation: how quoted constraints compare."""
    return normalize(text).strip(" .;:'\"")


def offer_is_canonical(
    constraint_quoted: str | None, hint: str | None, canonical_text: str, other_b_texts: list[str]
) -> bool:
    canonical = audit_form(canonical_text)
    others = [audit_form(t) for t in other_b_texts if audit_form(t) != canonical]
    for candidate in (constraint_quoted, hint):
        if not candidate:
            continue
        form = audit_form(candidate)
        if form == canonical:
            return True
        if canonical and canonical in form and not any(o and o in form for o in others):
            return True
    return False


def json_value(value: Any) -> Any:
    """An exact parsed answer as JSON: ints stay ints, other fractions become ``"p/q"``, tuples lists."""
    if isinstance(value, tuple):
        return [json_value(v) for v in value]
    f = Fraction(value)
    return f.numerator if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def grade_answer(raw: Any, answer_type: str, keys: list[str], expected: dict[str, Any]) -> dict[str, Any]:
    """Verifier outcome of one submitted answer: normalised value, parse error, correctness."""
    truth = decode_answer(answer_type, expected, keys)
    try:
        value = parse_answer(raw, answer_type, keys)
    except AnswerParseError as exc:
        return {"normalized": None, "parse_error": str(exc), "correct": False}
    except Exception as exc:  # a grader bug must cost this answer, never the run
        return {"normalized": None, "parse_error": f"internal error in the verifier: {type(exc).__name__}",
                "correct": False}
    return {"normalized": json_value(value), "parse_error": None, "correct": answers_equal(truth, value)}
