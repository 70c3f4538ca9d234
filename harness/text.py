"""Text helpers shared by agents and scorers: request normalisation and the paper's token estimate."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from typing import Any

from verifiers.jsonparse import MAX_REPLY_CHARS

TOKENS_PER_WORD = 1.3
STORED_PREFIX_CHARS = 4096  # of a reply too long to be read: what the transcript keeps of it

GREEK_NAMES = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu",
    "ξ": "xi", "ο": "omicron", "π": "pi", "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon",
    "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
}
SYMBOLS = {"−": "-", "–": "-", "—": "-", "‐": "-", "‑": "-", "→": "->", "⟶": "->", "’": "'", "‘": "'",
           "≠": "!=", "≤": "<=", "≥": ">=", "×": "*", "⋅": "*", "·": "*", "∣": "|", "“": '"', "”": '"'}
_POWERS = str.maketrans({"²": "^2", "³": "^3"})  # before NFKC, which would read "k²" as "k2"
_APOSTROPHE = re.compile(r"(?<=[a-z])'(?=[a-z])")
_MARKUP_TABLE = str.maketrans({ch: " " for ch in "\\$`{}_"})
_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
_SPACES = re.compile(r"\s+")
_AROUND_SYMBOL = re.compile(r"\s*([^\w\s])\s*")
_BEFORE_DIGIT = re.compile(r"(?<=[a-z])\s+(?=\d)")
_CHAR_TABLE = str.maketrans({**SYMBOLS, **GREEK_NAMES})
_LEADING_ARTICLES = re.compile(r"^(?:the|a|an|your)\s+")
LATEX = [  # (pattern, replacement), applied in order before the markup is dropped
    (re.compile(r"\\(?:text|textrm|mathrm|mathit|mathbf|operatorname)\s*\{([^{}]*)\}"), r"\1"),
    (re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}"), r"(\1)/(\2)"),
    (re.compile(r"\\pmod\s*\{([^{}]*)\}"), r"(mod \1)"),
    (re.compile(r"\\pmod\s+(\w+)"), r"(mod \1)"),
    (re.compile(r"\\[bp]?mod(?![a-z])"), " mod "),
    (re.compile(r"\\equiv(?![a-z])"), "≡"),
    (re.compile(r"\\(?:cdot|times|ast)(?![a-z])"), "*"),
    (re.compile(r"\\(?:to|rightarrow|longrightarrow|mapsto)(?![a-z])"), "->"),
    (re.compile(r"\\(?:mid|vert|lvert|rvert)(?![a-z])"), "|"),
    (re.compile(r"\\(?:neq|ne)(?![a-z])"), "!="),
    (re.compile(r"\\(?:leq|le)(?![a-z])"), "<="),
    (re.compile(r"\\(?:geq|ge)(?![a-z])"), ">="),
    (re.compile(r"\\(?:left|right|bigl|bigr|big|Big)(?![a-z])"), ""),
    (re.compile(r"\\(?:[,;:! ]|quad|qquad)|\\[()\[\]]"), " "),
]


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """A canonical form for matching requests against slot names.

    Unicode compatibility forms (subscript digits, the micro sign) are folded, case is folded, Greek
    letters become their names, LaTeX markup, underscores and redundant spaces are dropped, so that
    ``"μ₄"``, ``"mu_4"``, ``"Mu 4"``, ``"\\mu_{4}"`` and ``"mu4"`` all read ``"mu4"`` and ``"P( H )"``
    reads ``"p(h)"``. Common LaTeX commands become their plain forms first (``\\equiv`` is ``≡``,
    ``\\pmod{m_3}`` is ``(mod m3)``, ``\\frac{a}{b}`` is ``(a)/(b)``, ``\\to`` is ``->``).
    """
    t = text
    if "\\" in t:
        for pattern, replacement in LATEX:
            t = pattern.sub(replacement, t)
    if "²" in t or "³" in t:
        t = t.translate(_POWERS)
    t = unicodedata.normalize("NFKC", t).casefold()
    t = t.translate(_CHAR_TABLE)
    if "'" in t:
        t = _APOSTROPHE.sub("", t)  # "don't" -> "dont": no stray one-letter words
    t = t.translate(_MARKUP_TABLE)  # LaTeX and markdown markup, underscores
    if "-" in t:
        t = _HYPHEN.sub(" ", t)  # "false-positive" -> "false positive"
    t = _SPACES.sub(" ", t).strip()
    t = _AROUND_SYMBOL.sub(r"\1", t)  # no spaces around symbols
    t = _BEFORE_DIGIT.sub("", t)  # "mu 4" -> "mu4"
    return t


@lru_cache(maxsize=65536)
def alias_form(alias: str) -> str:
    """``normalize`` without a leading article: ``"the prior"`` also matches ``"your prior"``-free text."""
    return _LEADING_ARTICLES.sub("", normalize(alias))


@lru_cache(maxsize=65536)
def phrase_pattern(alias: str) -> re.Pattern[str]:
    """A regex finding the normalised ``alias`` in normalised text, not inside a longer name."""
    form = alias_form(alias)
    head = r"(?<![a-z0-9])" if form[:1].isalnum() else ""
    tail = r"(?![a-z0-9])" if form[-1:].isalnum() else ""
    return re.compile(head + re.escape(form) + tail)


def find_spans(normalized_text: str, aliases: list[str]) -> list[tuple[int, int]]:
    """Every (start, end) where one of ``aliases`` occurs in already-normalised text."""
    spans = []
    for alias in aliases:
        form = alias_form(alias)
        if form and form in normalized_text:  # cheap filter before the boundary-aware regex
            spans.extend(m.span() for m in phrase_pattern(alias).finditer(normalized_text))
    return spans


def word_count(text: str | None) -> int:
    """Whitespace-separated words (the paper's token estimate does not name a tokenizer)."""
    return len(text.split()) if text else 0


def token_estimate(words: int) -> float:
    """The paper's approximate cost: 1.3 tokens per word."""
    return round(TOKENS_PER_WORD * words, 1)


def stored_reply(text: str, limit: int = MAX_REPLY_CHARS) -> dict[str, Any]:
    """The transcript fields for one model reply: ``{"message": text}``, or for a reply longer than ``limit`` (refused
    unread by the parser) its first ``STORED_PREFIX_CHARS`` characters with ``message_chars`` (the whole length) and
    ``message_sha256`` (of the whole reply, UTF-8): a 20 MB reply no longer makes a 20 MB transcript line."""
    if len(text) <= limit:
        return {"message": text}
    whole = text.encode("utf-8", "surrogatepass")
    return {"message": text[:STORED_PREFIX_CHARS], "message_chars": len(text),
            "message_sha256": hashlib.sha256(whole).hexdigest()}
