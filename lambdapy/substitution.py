"""Substitution for the locally nameless checker (the tutorial's ``iSubst``/``cSubst``).

When the checker goes under a binder it replaces ``Bound(0)`` of the body by a
fresh ``Free(Local(i))``.  The target index is incremented under every binder
of the body, so that it keeps pointing at the binder being opened.

Hook point: ID_02 in ``_subst_lam`` (the target index is not incremented when
the substitution passes under a lambda).
"""

from __future__ import annotations

from collections.abc import Callable

from . import syntax as s
from .limits import Budget
from .mutations import KernelConfig


class Substitution:
    """Replace ``Bound(target)`` by ``replacement`` (a closed term)."""

    __slots__ = ("budget", "cfg", "replacement")

    def __init__(self, replacement: s.Term, cfg: KernelConfig, budget: Budget) -> None:
        self.replacement = replacement
        self.cfg = cfg
        self.budget = budget

    def apply(self, term: s.Term, target: int) -> s.Term:
        if 0 <= term.loose <= target:  # no Bound(target) inside: nothing to do
            return term
        self.budget.tick()
        result = _SUBST.get(type(term), _subst_simple)(self, term, target)
        if result is not term:
            result.loose = s.compute_loose(result)
        return result


def open_binder(body: s.Term, replacement: s.Term, cfg: KernelConfig, budget: Budget) -> s.Term:
    """``body`` with ``Bound(0)`` replaced by ``replacement`` (a closed term)."""
    replacement.loose = 0
    return Substitution(replacement, cfg, budget).apply(body, 0)


def _subst_bound(sub: Substitution, t: s.Bound, target: int) -> s.Term:
    return sub.replacement if t.index == target else t


def _subst_leaf(sub: Substitution, t: s.Term, target: int) -> s.Term:
    return t


def _subst_lam(sub: Substitution, t: s.Lam, target: int) -> s.Term:
    if sub.cfg.subst_no_increment_under_lambda:  # ID_02: target not shifted under lambda
        return s.Lam(t.name, sub.apply(t.body, target))
    return s.Lam(t.name, sub.apply(t.body, target + 1))


def _subst_pi(sub: Substitution, t: s.Pi, target: int) -> s.Term:
    return s.Pi(t.name, sub.apply(t.domain, target), sub.apply(t.codomain, target + 1))


def _subst_simple(sub: Substitution, t: s.Term, target: int) -> s.Term:
    kind = type(t)
    return kind(*[sub.apply(getattr(t, f), target) for f in s.SIMPLE_NODES[kind]])


_SUBST: dict[type, Callable[[Substitution, s.Term, int], s.Term]] = {
    s.Bound: _subst_bound,
    s.Free: _subst_leaf,
    s.Star: _subst_leaf,
    s.Nat: _subst_leaf,
    s.Zero: _subst_leaf,
    s.Lam: _subst_lam,
    s.Pi: _subst_pi,
}
