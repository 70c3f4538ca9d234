"""Lark front end: one source line to one parse tree.

The reference grammar is ``grammar.lark`` (the paper's Appendix A) parsed with
Lark's Earley algorithm (``ambiguity="resolve"``).  Earley costs 2-60 ms per
line in pure Python and grows quadratically on long arrow chains, so lines are
parsed with ``grammar_lalr.lark`` when that is safe: an LALR(1) grammar for the
same language that yields the same trees in about 0.3 ms.

* A line containing a word that extends a keyword (``Zeros``, ``NatElim``) goes
  to Earley directly: its dynamic lexer and ambiguity resolution may split the
  word (``f Zeros`` is ``f Zero s``), which the LALR lexer cannot reproduce.
* A line the LALR parser rejects goes to Earley, which decides (it accepts a
  few lexically odd lines the LALR lexer cannot split).
  Statement keywords are whole words in both grammars: ``evalZero`` and
  ``letx = Zero`` are parse errors.
* Lines longer than ``EARLEY_MAX_CHARS`` always get the LALR verdict, which
  bounds the parsing time of hostile input (a documented deviation).

tests/lambdapy/test_lambdapy_parser.py checks that the front end and the Earley
reference agree on a corpus and on generated lines.

Parse errors are normalised to ``unexpected 'TOKEN'`` or ``unexpected end of
line`` (no positions), so they are identical whichever parser produced them.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Lark, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from .errors import LambdaParseError

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
LALR_GRAMMAR_PATH = Path(__file__).with_name("grammar_lalr.lark")
EARLEY_MAX_CHARS = 400

_SYMBOL = re.compile(r"[A-Za-z0-9_]+|->|::|--|\S")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMMENT = re.compile(r"--[^\n]*")
_TERM_KEYWORDS = (
    "Type", "Nat", "Zero", "Succ", "NatElim", "natElim", "Vec", "Nil", "Cons", "VecElim", "vecElim",
    "Fin", "FZero", "FSucc", "FinElim", "finElim", "Eq", "Refl", "EqElim", "eqElim", "forall",
)


@functools.cache
def earley_parser() -> Lark:
    """The reference parser: Appendix A grammar, Earley, ambiguities resolved."""
    return Lark(GRAMMAR_PATH.read_text(), parser="earley", ambiguity="resolve")


@functools.cache
def lalr_parser() -> Lark:
    """The fast path: an LALR(1) grammar with the same language and tree shapes."""
    return Lark(LALR_GRAMMAR_PATH.read_text(), parser="lalr")


def parse_line(line: str) -> Tree:
    """Parse one statement (a line without its newline)."""
    text = line + "\n"
    short = len(line) <= EARLEY_MAX_CHARS
    if not (short and needs_earley(line)):
        try:
            return lalr_parser().parse(text)
        except LarkError as error:
            if not short:
                raise LambdaParseError(describe(error, text)) from None
    try:
        return earley_parser().parse(text)
    except LarkError as error:
        raise LambdaParseError(describe(error, text)) from None


def needs_earley(line: str) -> bool:
    """Does the line contain a word that extends a keyword (``Zeros``, ``Natural``, ``NatElim``)?

    Earley's dynamic lexer may split such a word into the keyword and a rest;
    in argument position its ambiguity resolution does (``f Natural`` is
    ``f Nat ural`` and ``f NatElim`` is ``f Nat Elim``), which the LALR lexer
    cannot reproduce, so these lines go to Earley directly.
    """
    for word in _WORD.findall(_COMMENT.sub("", line)):
        if word.startswith("Type") and word[4:].isdigit():
            continue
        if any(word.startswith(k) and word != k for k in _TERM_KEYWORDS):
            return True
    return False


def parse_line_earley(line: str) -> Tree:
    """Parse with the reference Earley parser only (used by tests)."""
    try:
        return earley_parser().parse(line + "\n")
    except LarkError as error:
        raise LambdaParseError(describe(error, line + "\n")) from None


def describe(error: LarkError, text: str) -> str:
    """A position-free message for a Lark error."""
    position: int | None = None
    if isinstance(error, UnexpectedToken):
        position = error.token.start_pos if error.token.type != "$END" else None
    elif isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream
    elif not isinstance(error, UnexpectedEOF):
        return "malformed statement"
    if position is None or position >= len(text) or text[position] in "\r\n":
        return "unexpected end of line"
    match = _SYMBOL.match(text, position)
    symbol = match.group(0) if match else text[position]
    return f"unexpected '{symbol[:24]}'"
