"""Quotation: values back to normal-form terms (the "quote" half of NbE).

``quote(ev, level, v)`` works at binder level ``level``: to quote a closure it is
instantiated with the fresh variable ``Quote(level)``, and a ``Quote(k)`` met at
level ``i`` becomes the index ``Bound(i - k - 1)`` (the tutorial's ``boundfree``).
Lambdas are opened with ``Evaluator.apply_lambda`` (beta reduction, so ID_06 and
ID_08 are visible in printed lambdas; ID_09 and ID_13 live in ``vapp`` and are
not), Pi codomains with ``Evaluator.instantiate``.
"""

from __future__ import annotations

from collections.abc import Callable

from . import syntax as s
from . import values as v
from .evaluation import Evaluator
from .names import Quote


def quote(ev: Evaluator, level: int, value: v.Value) -> s.Term:
    """The normal form of ``value`` at binder level ``level``."""
    budget = ev.budget
    budget.steps -= 1
    budget.depth += 1
    if budget.steps & 1023 == 0 or budget.depth > budget.max_depth:
        budget.checkpoint()
    term = _QUOTE[type(value)](ev, level, value)
    budget.depth -= 1
    return term


def quote0(ev: Evaluator, value: v.Value) -> s.Term:
    return quote(ev, 0, value)


def quote_neutral(ev: Evaluator, level: int, n: v.Neutral) -> s.Term:
    """The normal form of a neutral term (it stays headed by its free variable)."""
    budget = ev.budget
    budget.steps -= 1
    budget.depth += 1
    if budget.steps & 1023 == 0 or budget.depth > budget.max_depth:
        budget.checkpoint()
    term = _quote_neutral_node(ev, level, n)
    budget.depth -= 1
    return term


def _quote_neutral_node(ev: Evaluator, level: int, n: v.Neutral) -> s.Term:
    q = quote
    match n:
        case v.NFree(name):
            if type(name) is Quote and name.level < level:
                return s.Bound(level - name.level - 1)
            return s.Free(name)
        case v.NApp(fun, arg):
            return s.App(quote_neutral(ev, level, fun), q(ev, level, arg))
        case v.NNatElim(m, z, succ, k):
            return s.NatElim(q(ev, level, m), q(ev, level, z), q(ev, level, succ), quote_neutral(ev, level, k))
        case v.NVecElim(a, m, nil, cons, k, xs):
            return s.VecElim(
                q(ev, level, a), q(ev, level, m), q(ev, level, nil), q(ev, level, cons), q(ev, level, k),
                quote_neutral(ev, level, xs),
            )
        case v.NFinElim(m, z, succ, bound, f):
            return s.FinElim(
                q(ev, level, m), q(ev, level, z), q(ev, level, succ), q(ev, level, bound),
                quote_neutral(ev, level, f),
            )
        case v.NEqElim(a, m, refl, x, y, p):
            return s.EqElim(
                q(ev, level, a), q(ev, level, m), q(ev, level, refl), q(ev, level, x), q(ev, level, y),
                quote_neutral(ev, level, p),
            )
    raise TypeError(f"not a neutral term: {type(n).__name__}")


def _fresh(level: int) -> v.Value:
    return v.vfree(Quote(level))


def _quote_star(ev: Evaluator, level: int, x: v.VStar) -> s.Term:
    return s.Star(x.level)


def _quote_pi(ev: Evaluator, level: int, x: v.VPi) -> s.Term:
    codomain = ev.instantiate(x.closure, _fresh(level))
    return s.Pi(x.name, quote(ev, level, x.domain), quote(ev, level + 1, codomain))


def _quote_lam(ev: Evaluator, level: int, x: v.VLam) -> s.Term:
    return s.Lam(x.name, quote(ev, level + 1, ev.apply_lambda(x, _fresh(level))))


def _quote_neutral(ev: Evaluator, level: int, x: v.VNeutral) -> s.Term:
    return quote_neutral(ev, level, x.neutral)


def _quote_nat(ev: Evaluator, level: int, x: v.VNat) -> s.Term:
    return s.Nat()


def _quote_zero(ev: Evaluator, level: int, x: v.VZero) -> s.Term:
    return s.Zero()


def _quote_succ(ev: Evaluator, level: int, x: v.VSucc) -> s.Term:
    # iterative over the Succ chain: long unary numerals do not deepen the stack
    count = 0
    value: v.Value = x
    while type(value) is v.VSucc:
        ev.budget.tick()
        count += 1
        value = value.pred
    term = quote(ev, level, value)
    for _ in range(count):
        term = s.Succ(term)
    return term


def _quote_vec(ev: Evaluator, level: int, x: v.VVec) -> s.Term:
    return s.Vec(quote(ev, level, x.elem), quote(ev, level, x.length))


def _quote_nil(ev: Evaluator, level: int, x: v.VNil) -> s.Term:
    return s.Nil(quote(ev, level, x.elem))


def _quote_cons(ev: Evaluator, level: int, x: v.VCons) -> s.Term:
    q = quote
    return s.Cons(q(ev, level, x.elem), q(ev, level, x.length), q(ev, level, x.head), q(ev, level, x.tail))


def _quote_fin(ev: Evaluator, level: int, x: v.VFin) -> s.Term:
    return s.Fin(quote(ev, level, x.bound))


def _quote_fzero(ev: Evaluator, level: int, x: v.VFZero) -> s.Term:
    return s.FZero(quote(ev, level, x.bound))


def _quote_fsucc(ev: Evaluator, level: int, x: v.VFSucc) -> s.Term:
    return s.FSucc(quote(ev, level, x.bound), quote(ev, level, x.pred))


def _quote_eq(ev: Evaluator, level: int, x: v.VEq) -> s.Term:
    return s.Eq(quote(ev, level, x.type), quote(ev, level, x.left), quote(ev, level, x.right))


def _quote_refl(ev: Evaluator, level: int, x: v.VRefl) -> s.Term:
    return s.Refl(quote(ev, level, x.type), quote(ev, level, x.point))


_QUOTE: dict[type, Callable[[Evaluator, int, v.Value], s.Term]] = {
    v.VStar: _quote_star,
    v.VPi: _quote_pi,
    v.VLam: _quote_lam,
    v.VNeutral: _quote_neutral,
    v.VNat: _quote_nat,
    v.VZero: _quote_zero,
    v.VSucc: _quote_succ,
    v.VVec: _quote_vec,
    v.VNil: _quote_nil,
    v.VCons: _quote_cons,
    v.VFin: _quote_fin,
    v.VFZero: _quote_fzero,
    v.VFSucc: _quote_fsucc,
    v.VEq: _quote_eq,
    v.VRefl: _quote_refl,
}
