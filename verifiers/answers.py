"""A model's answers: free-form parsing and checking against an exact value.

The answer types, their JSON encoding and exact equality live in ``generators.answers`` (the generators own
them). A model's answer is parsed from JSON or from a short written value; anything ambiguous or partial is a
parse failure, i.e. wrong.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from generators.answers import ANSWER_TYPES, Answer, answers_equal
from verifiers import safejson

WRAPPER_KEYS = ("answer", "final_answer", "result", "solution", "value")


class AnswerParseError(ValueError):
    """A final answer that cannot be read as one exact value of the expected type."""


# ---------------------------------------------------------------- parsing model output
# Accepted forms are listed in docs/answers.md. Every regex below is anchored and free of overlapping
# repeats, so matching is linear in the text; texts, digits and exponents are capped before any arithmetic.
MAX_ANSWER_CHARS = 2000  # a written answer (after JSON decoding) longer than this is not read
MAX_NUMBER_DIGITS = 400  # digits of one number (integer, decimal, numerator or denominator)
MAX_EXPONENT = 400  # |exponent| of a JSON number such as 1.5e3
NUMBER_KEYS = ("value",)
RATIONAL_KEYS = ("numerator", "denominator")
_NUMBER = r"(?:[+-]\s*)?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_FRAC_TEX = re.compile(r"([+-]?)\s*\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", re.A)
_SLASH = re.compile(rf"({_NUMBER})\s*/\s*({_NUMBER})", re.A)
_PLAIN = re.compile(_NUMBER, re.A)
_LABEL = re.compile(r"(?:the\s+)?(?:final\s+answer|answer)\b\s*(?:is\b)?\s*[:=]?\s*", re.I | re.A)
_BOXED = re.compile(r"\\boxed\s*\{(.*)\}", re.S)
_NAME = re.compile(r"[A-Za-z\\][A-Za-z0-9_^{}\\]{0,40}(?:\([A-Za-z0-9_ ,|+\-.]{1,30}\))?", re.A)
_GROUPED = re.compile(r"[0-9],[0-9]{3}(?![0-9])", re.A)  # "1,000": a digit-group separator, or two values?
_LEADING_ZERO = re.compile(r"[+-]?\s*0[0-9]", re.A)  # "000", "007": not how a number is written
_MIXED_EXPLAINED = re.compile(r"([+-]?)([0-9]+) +([0-9]+) */ *([0-9]+) *\( *(?:that +is|i\.e\.),?([^()]*)\)",
                              re.A | re.I)
_VECTOR_NAMES = re.compile(r"\(([^()=]*)\)\s*=\s*\(([^()=]*)\)")


def parse_scalar(text: Any) -> Fraction:
    """One exact number from an int, an exactly written float, ``a/b``, ``\\frac{a}{b}``, a decimal or
    ``{"numerator": p, "denominator": q}``; ``AnswerParseError`` for anything else (objects with other keys,
    lists, booleans, null, numbers past the caps)."""
    if isinstance(text, bool) or text is None:
        raise AnswerParseError(f"{json_repr(text)} is not a number")
    if isinstance(text, int):
        if text.bit_length() > MAX_NUMBER_DIGITS * 3.33:
            raise AnswerParseError(f"an integer of more than {MAX_NUMBER_DIGITS} digits")
        return Fraction(text)
    if isinstance(text, float | Decimal):
        return _exact_decimal(Decimal(repr(text)) if isinstance(text, float) else text)
    if isinstance(text, dict):
        return _rational_object(text)
    if not isinstance(text, str):
        raise AnswerParseError(f"a JSON {type(text).__name__} is not a number")
    if len(text) > MAX_ANSWER_CHARS:
        raise AnswerParseError(f"an answer of {len(text)} characters (at most {MAX_ANSWER_CHARS} are read)")
    s = _strip_decorations(text)
    if m := _FRAC_TEX.fullmatch(s):
        sign = -1 if m.group(1) == "-" else 1
        num, den = _inner_number(m.group(2)), _inner_number(m.group(3))
        return sign * _divide(num, den)
    if m := _SLASH.fullmatch(s):
        return _divide(_decimal(m.group(1)), _decimal(m.group(2)))
    if _PLAIN.fullmatch(s):
        return _decimal(s)
    if m := _MIXED_EXPLAINED.fullmatch(s):
        return _mixed_explained(m)
    if _GROUPED.search(s):
        raise AnswerParseError(f"{json_repr(text)}: a comma between digits is ambiguous (digit groups or two values)")
    raise AnswerParseError(f"cannot read {json_repr(text)} as an exact number")


def _mixed_explained(m: re.Match[str]) -> Fraction:
    """``5 7/8 (that is, 47/8)``: the mixed number and the fraction must agree (a bare ``5 7/8`` is not read)."""
    whole, num, den = _decimal(m.group(2)), _decimal(m.group(3)), _decimal(m.group(4))
    mixed = whole + _divide(num, den)
    if m.group(1) == "-":
        mixed = -mixed
    stated = parse_scalar(m.group(5).strip())
    if stated != mixed:
        raise AnswerParseError(f"the mixed number {m.group(0)[:40]!a} and its fraction differ")
    return stated


def _rational_object(obj: dict) -> Fraction:
    keys = {_plain_key(k) for k in obj}
    if keys == set(RATIONAL_KEYS) and len(obj) == 2:
        by = {_plain_key(k): v for k, v in obj.items()}
        return _divide(_component(by["numerator"]), _component(by["denominator"]))
    raise AnswerParseError(f"an object with keys {sorted(map(str, obj))} is not a number "
                           f"(a fraction is {{\"numerator\": p, \"denominator\": q}})")


def _component(value: Any) -> Fraction:
    if isinstance(value, dict | list):
        raise AnswerParseError(f"a nested {type(value).__name__} where a number was expected")
    return parse_scalar(value)


def _inner_number(text: str) -> Fraction:
    s = text.strip()
    if _PLAIN.fullmatch(s):
        return _decimal(s)
    raise AnswerParseError(f"cannot read {json_repr(text)} inside \\frac as a number")


def _divide(num: Fraction, den: Fraction) -> Fraction:
    if den == 0:
        raise AnswerParseError("zero denominator")
    return num / den


def _decimal(s: str) -> Fraction:
    if _LEADING_ZERO.match(s):
        raise AnswerParseError(f"{json_repr(s)}: a number with a leading zero (a digit group?)")
    digits = sum(c.isdigit() for c in s)
    if digits > MAX_NUMBER_DIGITS:
        raise AnswerParseError(f"a number of {digits} digits (at most {MAX_NUMBER_DIGITS})")
    try:
        return _exact_decimal(Decimal(s.replace(" ", "")))
    except InvalidOperation as exc:  # pragma: no cover - guarded by the regexes
        raise AnswerParseError(f"bad number {json_repr(s)}") from exc


def _exact_decimal(d: Decimal) -> Fraction:
    """``Fraction(d)`` with the exponent and digits capped first (``1e999999999`` would take hours)."""
    if not d.is_finite():
        raise AnswerParseError(f"{d} is not a finite number")
    _, digits, exponent = d.as_tuple()
    if len(digits) > MAX_NUMBER_DIGITS or abs(int(exponent)) > MAX_EXPONENT:
        raise AnswerParseError(f"number {d} is past the caps ({MAX_NUMBER_DIGITS} digits, exponent "
                               f"at most {MAX_EXPONENT})")
    return Fraction(d)


def _strip_decorations(text: str) -> str:
    """Surrounding space, ``$...$``, a leading ``Answer:`` / ``Final answer:``, ``\\boxed{...}``, a final period."""
    s = text.replace("\u2212", "-").strip()
    if s.endswith(".") and not s.endswith(".."):
        s = s[:-1].strip()
    s = s.strip("$").strip()
    if m := _LABEL.match(s):
        s = s[m.end():].strip()
    if m := _BOXED.fullmatch(s):
        s = m.group(1).strip()
    if s.endswith(".") and not s.endswith(".."):
        s = s[:-1].strip()
    return s


def json_repr(value: Any, limit: int = 80) -> str:
    """A short, ASCII-safe rendering of a value for an error message."""
    text = ascii(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plain_key(k: Any) -> str:
    return str(k).strip().lower()


def _normal_key(k: Any) -> str:
    return "".join(c for c in str(k) if not (c.isspace() or c in "_{}\\")).lower()


def _loads(text: str) -> Any:
    try:
        return safejson.loads(text)
    except ValueError as exc:
        raise AnswerParseError(f"unreadable JSON: {exc}") from None


def _as_value(raw: Any) -> Any:
    """A written answer decoded: JSON if it looks like JSON, else the decorated text stripped."""
    if not isinstance(raw, str):
        return raw
    if len(raw) > MAX_ANSWER_CHARS:
        raise AnswerParseError(f"an answer of {len(raw)} characters (at most {MAX_ANSWER_CHARS} are read)")
    s = _strip_decorations(raw)
    if s[:1] == "{" or (s[:1] == "[" and s[-1:] == "]"):
        return _loads(s)
    return s


def parse_answer(raw: Any, answer_type: str, keys: list[str] | tuple[str, ...] = ()) -> Answer:
    """Read a model's final answer as an exact value of ``answer_type``; ``AnswerParseError`` if unsure.

    Cost is linear in the answer's size and bounded (``MAX_ANSWER_CHARS``, ``MAX_NUMBER_DIGITS``,
    ``MAX_EXPONENT``); nothing but ``AnswerParseError`` (for the model's input) or ``ValueError`` (for an unknown
    ``answer_type``) is raised."""
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"unknown answer_type {answer_type!r}")
    try:
        value = _unwrap(_as_value(raw), answer_type, keys)
        if answer_type == "dict_int":
            return _parse_vector(value, keys)
        return _parse_number(value)
    except AnswerParseError:
        raise
    except (ValueError, TypeError, ArithmeticError, RecursionError) as exc:  # defence in depth: never a crash
        raise AnswerParseError(f"unreadable answer ({type(exc).__name__})") from None


def _parse_number(value: Any) -> Fraction:
    if isinstance(value, dict):
        keys = {_plain_key(k) for k in value}
        if keys == set(NUMBER_KEYS) and len(value) == 1:
            return _component(next(iter(value.values())))
        return _rational_object(value)
    if isinstance(value, list):
        raise AnswerParseError("a list where one number was expected")
    if isinstance(value, str) and not _SLASH.fullmatch(value) and (named := _assignment(value)) is not None:
        return parse_scalar(named[1])
    return parse_scalar(value)


def _assignment(text: str) -> tuple[str, str] | None:
    """``name = value`` or ``name: value`` with a short identifier as name (``x``, ``a_1``, ``P(H)``)."""
    cut = min((i for i in (text.find("="), text.find(":")) if i >= 0), default=-1)
    if cut < 0:
        return None
    name, value = text[:cut].strip(), text[cut + 1:].strip()
    if not _NAME.fullmatch(name):
        raise AnswerParseError(f"cannot read {json_repr(text)}: {json_repr(name)} is not a variable name")
    return name, value


def _unwrap(value: Any, answer_type: str, keys: list[str] | tuple[str, ...]) -> Any:
    """Remove one ``{"answer": ...}``-style wrapper, unless the key is one of the answer's own keys."""
    if isinstance(value, dict) and len(value) == 1:
        ((k, inner),) = value.items()
        own = {_normal_key(x) for x in keys} if answer_type == "dict_int" else set()
        if _plain_key(k) in WRAPPER_KEYS and _plain_key(k) not in NUMBER_KEYS and _normal_key(k) not in own:
            return _as_value(inner) if isinstance(inner, str) else inner
    return value


def _parse_vector(value: Any, keys: list[str] | tuple[str, ...]) -> tuple[Fraction, ...]:
    if isinstance(value, dict):
        wanted = [_normal_key(k) for k in keys]
        by_key: dict[str, Any] = {}
        for k, v in value.items():
            nk = _normal_key(k)
            if nk in by_key:
                raise AnswerParseError(f"key {json_repr(k)} given twice")
            by_key[nk] = v
        if sorted(by_key) != sorted(wanted):
            raise AnswerParseError(f"expected keys {list(keys)}, got {[str(k) for k in value][:20]}")
        return tuple(_component(by_key[k]) for k in wanted)
    if isinstance(value, list):
        if len(value) != len(keys):
            raise AnswerParseError(f"expected {len(keys)} components, got {len(value)}")
        return tuple(_component(v) for v in value)
    if not isinstance(value, str):
        raise AnswerParseError(f"cannot read a JSON {type(value).__name__} as {len(keys)} values")
    s = value.strip()
    if "=" in s or ":" in s:
        return _parse_assignments(s, keys)
    s = s.strip(" ")
    if s[:1] + s[-1:] in ("()", "[]", "⟨⟩"):
        s = s[1:-1]
    parts = [p.strip() for p in re.split(r"[,;]", s)]
    if len(parts) != len(keys) or not all(parts):
        raise AnswerParseError(f"expected {len(keys)} components, got {json_repr(value)}")
    return tuple(_component(p) for p in parts)


def _parse_assignments(s: str, keys: list[str] | tuple[str, ...]) -> tuple[Fraction, ...]:
    # "(a, b, c) = (1, 2, 3)" or "a = 1, b = 2, c = 3"
    if m := _VECTOR_NAMES.fullmatch(s):
        names = [n.strip() for n in m.group(1).split(",")]
        vals = [v.strip() for v in m.group(2).split(",")]
        if len(names) != len(vals):
            raise AnswerParseError("names and values differ in number")
        pairs = {}
        for name, val in zip(names, vals, strict=True):
            if name in pairs:
                raise AnswerParseError(f"{json_repr(name)} given twice")
            pairs[name] = val
        return _parse_vector(pairs, keys)
    pairs = {}
    for part in re.split(r"[,;\n]|\band\b", s):
        if not part.strip():
            continue
        named = _assignment(part)
        if named is None:
            raise AnswerParseError(f"cannot read {json_repr(part.strip())} as name = value")
        if named[0] in pairs:
            raise AnswerParseError(f"{json_repr(named[0])} given twice")
        pairs[named[0]] = named[1]
    return _parse_vector(pairs, keys)


# ---------------------------------------------------------------- final answers written in prose
MAX_PROSE_CHARS = 50_000  # a longer reply without JSON is not searched for a written answer
MAX_MARKS = 10
_BOXED_START = re.compile(r"\\boxed\s*\{")
_FINAL_MARK = re.compile(r"\bfinal\s+answer\b\s*(?:is\b)?\s*[:=]?\s*|\banswer\s*(?:is\b\s*[:=]?|[:=])\s*", re.I | re.A)


def prose_answer(reply: str, answer_type: str, keys: list[str] | tuple[str, ...] = ()) -> str | None:
    """The final answer a reply without JSON writes, as text for ``parse_answer``; None if it writes none.

    Marked answers: every ``\\boxed{...}`` and the rest of every line after ``Final answer:`` / ``Answer:`` /
    ``The answer is``. They must all read as the same value; otherwise all of them are returned joined with
    ``" | "`` (which does not parse: two answers are no answer). Unmarked: the last paragraph, only if it reads
    as a value on its own (``x = 2182``, ``$$ P(H|E) = \\frac{5}{8} $$``); prose requests stay requests."""
    if not isinstance(reply, str) or len(reply) > MAX_PROSE_CHARS:
        return None
    text = reply.replace("**", "").replace("__", "")
    marked = _boxed_contents(text) + _marked_lines(text)
    if marked:
        values = []
        for mark in marked:
            try:
                values.append(parse_answer(mark, answer_type, keys))
            except AnswerParseError:
                return mark if len(marked) == 1 else " | ".join(marked)
        same = all(answers_equal(values[0], v) for v in values[1:])
        return marked[-1] if same else " | ".join(marked)
    paragraphs = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    if not paragraphs:
        return None
    last = " ".join(line.strip() for line in paragraphs[-1].splitlines())
    if len(last) > MAX_ANSWER_CHARS:
        return None
    try:
        parse_answer(last, answer_type, keys)
    except AnswerParseError:
        return None
    return last


def _boxed_contents(text: str) -> list[str]:
    out = []
    for tried, m in enumerate(_BOXED_START.finditer(text)):
        if tried >= 5 * MAX_MARKS:
            break
        depth, i = 1, m.end()
        limit = min(len(text), m.end() + MAX_ANSWER_CHARS)
        while i < limit and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth == 0:
            out.append(text[m.end():i - 1].strip())
        if len(out) >= MAX_MARKS:
            break
    return [b for b in out if not b.startswith("\\boxed")]


def _marked_lines(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        if m := _FINAL_MARK.search(line):
            rest = line[m.end():].strip()
            if rest:
                out.append(rest)
            if len(out) >= MAX_MARKS:
                break
    return out


def check_answer(raw: Any, answer_type: str, expected: Answer, keys: list[str] | tuple[str, ...] = ()) -> bool:
    """True iff ``raw`` parses to exactly ``expected``; unparseable answers are wrong."""
    try:
        return answers_equal(expected, parse_answer(raw, answer_type, keys))
    except AnswerParseError:
        return False
