"""Elaboration: Lark parse trees to statements over locally nameless core terms.

A name bound by an enclosing ``\\`` or ``forall`` (or the anonymous binder of
``A -> B``) becomes ``Bound(i)``, ``i`` counting binders outwards from 0; any
other name becomes ``Free(Global(name))`` and is resolved by the checker.
Built-in keywords are handled as described in ``builtins``.

``frontend.parse_statement`` caches the result per source line, so elaboration
must not depend on the kernel state or configuration (it does not).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from lark import Token, Tree

from . import syntax as s
from .builtins import BUILTINS, KEYWORD_ALIASES, Builtin, is_reserved
from .errors import LambdaParseError, ScopeError
from .names import Global

Scope = tuple[str | None, ...]  # innermost binder first; None = anonymous binder

# --- statements ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Assume:
    """``assume`` one or several names; each binding is ``(name, type)``."""

    bindings: tuple[tuple[str, s.Term], ...]


@dataclass(frozen=True, slots=True)
class Let:
    name: str
    type: s.Term | None
    value: s.Term


@dataclass(frozen=True, slots=True)
class Eval:
    term: s.Term


@dataclass(frozen=True, slots=True)
class Check:
    term: s.Term


Statement = Assume | Let | Eval | Check


def elaborate_statement(tree: Tree) -> Statement:
    """Elaborate the parse tree of one line (``start`` with one statement)."""
    statements = [c for c in tree.children if isinstance(c, Tree)]
    if len(statements) != 1:
        raise LambdaParseError("one statement per line")
    statement = _statement(statements[0])
    for t in statement_terms(statement):
        s.annotate_loose(t)
    return statement


def statement_terms(statement: Statement) -> list[s.Term]:
    """The terms of a statement."""
    if isinstance(statement, Assume):
        return [t for _, t in statement.bindings]
    if isinstance(statement, Let):
        return [statement.value] if statement.type is None else [statement.type, statement.value]
    return [statement.term]


def _statement(tree: Tree) -> Statement:
    kind = tree.data
    parts = [c for c in tree.children if not (isinstance(c, Token) and c.type == "NEWLINE")]
    if kind == "assume_multi_stmt":
        return Assume(tuple((_binder_name(b.children[0]), term(b.children[1], ())) for b in parts))
    if kind in ("assume_single_stmt", "assume_stmt"):
        names = _names(parts[:-1])
        type_ = term(parts[-1], ())
        return Assume(tuple((name, type_) for name in names))
    if kind == "let_infer_stmt":
        return Let(_binder_name(parts[0]), None, term(parts[1], ()))
    if kind == "let_stmt":
        return Let(_binder_name(parts[0]), term(parts[1], ()), term(parts[2], ()))
    if kind == "eval_stmt":
        return Eval(term(parts[0], ()))
    if kind == "check_stmt":
        return Check(term(parts[0], ()))
    raise LambdaParseError(f"unknown statement {kind}")


def _names(parts: list) -> list[str]:
    """Names of ``assume x y : T`` (a ``name_list`` tree in Earley, plain tokens in LALR)."""
    names: list[str] = []
    for part in parts:
        tokens = part.children if isinstance(part, Tree) else [part]
        names.extend(_binder_name(t) for t in tokens)
    return names


def _binder_name(token: Token) -> str:
    name = str(token)
    if is_reserved(name):
        raise ScopeError(f"the keyword '{name}' cannot be used as a name")
    return name


# --- terms ---------------------------------------------------------------------------------


def term(tree: Tree, scope: Scope) -> s.Term:
    """Elaborate a term in the scope of the enclosing binders."""
    kind = tree.data
    children = tree.children
    if kind in ("term", "paren"):
        return term(children[0], scope)
    if kind == "lam_term":
        return _lambda([_binder_name(t) for t in children[:-1]], children[-1], scope)
    if kind == "forall_term":
        return _forall(children[:-1], children[-1], scope)
    if kind == "arrow":
        return s.Pi("_", term(children[0], scope), term(children[1], (None, *scope)))
    if kind == "ann":
        return s.Ann(term(children[0], scope), term(children[1], scope))
    if kind == "app_chain":
        return _application(children, scope)
    return _atom(tree, scope)


def _lambda(names: list[str], body: Tree, scope: Scope) -> s.Term:
    inner = scope
    for name in names:
        inner = (name, *inner)
    result = term(body, inner)
    for name in reversed(names):
        result = s.Lam(name, result)
    return result


def _forall(binders: list[Tree], body: Tree, scope: Scope) -> s.Term:
    domains: list[tuple[str, s.Term]] = []
    inner = scope
    for binder in binders:
        name = _binder_name(binder.children[0])
        domains.append((name, term(binder.children[1], inner)))
        inner = (name, *inner)
    result = term(body, inner)
    for name, domain in reversed(domains):
        result = s.Pi(name, domain, result)
    return result


def _application(atoms: list[Tree], scope: Scope) -> s.Term:
    head, args = atoms[0], [term(a, scope) for a in atoms[1:]]
    builtin = KEYWORD_ALIASES.get(head.data)
    if builtin is not None and len(args) >= builtin.arity:
        result = builtin.build(*args[: builtin.arity])
        args = args[builtin.arity:]
    else:
        result = term(head, scope)
    for arg in args:
        result = s.App(result, arg)
    return result


def _atom(tree: Tree, scope: Scope) -> s.Term:
    kind = tree.data
    if kind == "universe":
        return s.Star(_universe_level(tree.children))
    if kind == "var":
        name = str(tree.children[0])
        if name in scope:
            return s.Bound(scope.index(name))
        return s.Free(Global(name))
    builtin = KEYWORD_ALIASES.get(kind)
    if builtin is None:
        raise LambdaParseError(f"unknown construct {kind}")
    if builtin.arity == 0:
        return builtin.build()
    return eta_expanded(builtin.name)


def _universe_level(children: list) -> int:
    if not children:
        return 0
    token = str(children[0])
    digits = token[4:] if token.startswith("Type") else token
    return int(digits)


@functools.cache
def eta_expanded(name: str) -> s.Term:
    """``(\\x1 ... xk -> B x1 ... xk) : signature`` for a built-in ``B`` of arity ``k``."""
    from .parser import parse_line  # local import: the parser is only needed here

    builtin: Builtin = BUILTINS[name]
    statement = elaborate_statement(parse_line("eval " + builtin.signature))
    assert isinstance(statement, Eval)
    signature = statement.term
    names: list[str] = []
    pi = signature
    for _ in range(builtin.arity):
        assert isinstance(pi, s.Pi)
        names.append(pi.name)
        pi = pi.codomain
    body = builtin.build(*[s.Bound(builtin.arity - 1 - i) for i in range(builtin.arity)])
    for binder in reversed(names):
        body = s.Lam(binder, body)
    return s.Ann(body, signature)
