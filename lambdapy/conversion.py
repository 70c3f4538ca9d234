"""Definitional equality: compare the normal forms of two values.

As in the tutorial, two values are definitionally equal when their quoted normal
forms are syntactically equal (alpha-equivalence is free with de Bruijn
indices; there is no eta rule).  On top of equality the checker uses
*cumulativity*: ``Type i`` is accepted where ``Type j`` is expected when
``i <= j``, covariantly in Pi codomains (domains must be equal).

Hook points: ID_01 (``App`` vs ``App``), ID_03 (``Bound`` vs ``Bound``) and ID_10
(``Free`` vs ``Free``) live in ``_equal``.
"""

from __future__ import annotations

from . import syntax as s
from .evaluation import Evaluator
from .limits import Budget
from .mutations import KernelConfig
from .quotation import quote0
from .values import Value


def is_subtype(ev: Evaluator, inferred: Value, expected: Value) -> bool:
    """May a term of type ``inferred`` be used where ``expected`` is required?"""
    if inferred is expected:  # the same value: equal under every configuration
        return True
    return _equal(quote0(ev, inferred), quote0(ev, expected), ev.cfg, ev.budget, True)


def definitionally_equal(ev: Evaluator, a: Value, b: Value) -> bool:
    return _equal(quote0(ev, a), quote0(ev, b), ev.cfg, ev.budget, False)


def terms_equal(a: s.Term, b: s.Term, cfg: KernelConfig, budget: Budget) -> bool:
    """Syntactic equality of normal forms (with the configured equality mutations)."""
    return _equal(a, b, cfg, budget, False)


def _equal(a: s.Term, b: s.Term, cfg: KernelConfig, budget: Budget, cumulative: bool) -> bool:
    budget.steps -= 1
    budget.depth += 1
    if budget.steps & 1023 == 0 or budget.depth > budget.max_depth:
        budget.checkpoint()
    result = _equal_node(a, b, cfg, budget, cumulative)
    budget.depth -= 1
    return result


def _equal_node(a: s.Term, b: s.Term, cfg: KernelConfig, budget: Budget, cumulative: bool) -> bool:
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is s.Succ:  # iterate along unary numerals
        while type(a) is s.Succ and type(b) is s.Succ:
            budget.tick()
            a, b = a.pred, b.pred
        return _equal(a, b, cfg, budget, False)
    if kind is s.Star:
        return a.level <= b.level if cumulative else a.level == b.level
    if kind is s.Pi:
        return _equal(a.domain, b.domain, cfg, budget, False) and _equal(
            a.codomain, b.codomain, cfg, budget, cumulative
        )
    if kind is s.Lam:
        return _equal(a.body, b.body, cfg, budget, False)
    if kind is s.Bound:
        if a.index == b.index:
            return True
        return cfg.bound_0_equals_bound_1 and {a.index, b.index} == {0, 1}  # ID_03
    if kind is s.Free:
        return a.name == b.name or cfg.free_heads_equal  # ID_10
    if kind is s.App:
        if not _equal(a.fun, b.fun, cfg, budget, False):
            return False
        return cfg.app_equality_ignores_args or _equal(a.arg, b.arg, cfg, budget, False)  # ID_01
    for field in s.SIMPLE_NODES.get(kind, ()):  # a plain loop: no C-level recursion via all()
        if not _equal(getattr(a, field), getattr(b, field), cfg, budget, False):
            return False
    return True
