"""From probe text to statements: line splitting, probe format, cached parsing.

Parsing and elaboration do not depend on the kernel state or configuration,
so each distinct line is parsed once per process (``parse_statement`` keeps an
LRU cache of results, failures included).  This is what makes a probe on a
fresh kernel cheap when the same probe is sent to many configurations.
"""

from __future__ import annotations

import functools
import re

from lark import Tree

from . import syntax as s
from .elaborate import Assume, Check, Eval, Let, Statement, elaborate_statement, statement_terms
from .errors import KernelError, LimitExceeded, ProbeFormatError
from .parser import parse_line

_COMMENT = re.compile(r"--[^\n]*")
CACHE_SIZE = 16_384
TREE_LEVELS_PER_TERM_LEVEL = 4  # a parenthesised atom costs paren/term/app_chain levels


def statement_lines(source: str) -> list[str]:
    """The non-blank lines of a probe (comment-only lines are blank)."""
    lines = []
    for raw in source.split("\n"):
        line = raw.rstrip("\r")
        if _COMMENT.sub("", line).strip():
            lines.append(line)
    return lines


def parse_probe(source: str, max_term_depth: int) -> list[Statement]:
    """Statements of a probe: any number of ``assume``/``let`` lines, then one ``eval``.

    A final ``check`` line is accepted in place of ``eval`` (an extension).
    """
    if ";" in _COMMENT.sub("", source):
        raise ProbeFormatError("';' is not allowed; write one statement per line")
    lines = statement_lines(source)
    if not lines:
        raise ProbeFormatError("empty probe; a probe ends with one eval statement")
    statements = [parse_statement(line, max_term_depth) for line in lines]
    *prefix, last = statements
    if not isinstance(last, Eval | Check):
        raise ProbeFormatError("a probe must end with exactly one eval statement")
    if any(not isinstance(st, Assume | Let) for st in prefix):
        raise ProbeFormatError("only assume and let statements may precede the final eval statement")
    return statements


def parse_statements(source: str, max_term_depth: int) -> list[Statement]:
    """Statements of a source text without the probe-format rules (used by the REPL)."""
    if ";" in _COMMENT.sub("", source):
        raise ProbeFormatError("';' is not allowed; write one statement per line")
    return [parse_statement(line, max_term_depth) for line in statement_lines(source)]


def parse_statement(line: str, max_term_depth: int) -> Statement:
    """Parse and elaborate one line (cached; errors are cached too)."""
    result = _parse_statement_cached(line, max_term_depth)
    if isinstance(result, tuple):
        error_class, message = result
        raise error_class(message)
    return result


@functools.lru_cache(maxsize=CACHE_SIZE)
def _parse_statement_cached(line: str, max_term_depth: int) -> Statement | tuple[type[KernelError], str]:
    try:
        if _paren_depth(line) > max_term_depth:  # cheap check before parsing
            raise _too_deep(max_term_depth)
        tree = parse_line(line)
        if _tree_depth(tree) > TREE_LEVELS_PER_TERM_LEVEL * max_term_depth:
            raise _too_deep(max_term_depth)
        statement = elaborate_statement(tree)
        if _statement_depth(statement) > max_term_depth:
            raise _too_deep(max_term_depth)
        return statement
    except KernelError as error:
        return (type(error), error.message)


def _too_deep(limit: int) -> LimitExceeded:
    return LimitExceeded(f"term nesting too deep (limit {limit} levels)")


def _paren_depth(line: str) -> int:
    depth = deepest = 0
    for char in _COMMENT.sub("", line):
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    return deepest


def _tree_depth(tree: Tree) -> int:
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))
    return deepest


def _statement_depth(statement: Statement) -> int:
    return max(s.term_depth(t) for t in statement_terms(statement))
