"""Bidirectional type checking in the style of the LambdaPi tutorial.

``infer(t)`` synthesises the type of an inferable term, ``check(t, ty)`` checks a
term against a type (both types are values).  Going under a binder opens it by
substitution: ``Bound(0)`` becomes a fresh ``Free(Local(i))`` whose type is
recorded in the local context, so the checker never meets ``Bound`` (except
when mutation ID_02 lets one escape).  Types are evaluated with an empty
environment and compared by ``conversion.is_subtype``.

Universes: ``Type n : Type (n+1)``; ``forall (x : A) . B`` lives in the larger
universe of ``A`` and ``B``; ``Nat``, ``Vec A n``, ``Fin n`` and ``Eq A x y``
live in ``Type`` (with ``A : Type``); universes are cumulative (see
``conversion``).  Eliminator motives are checked against ``... -> Type1``, so
motives into ``Type`` (ordinary recursion) and into ``Type1`` (large
elimination, e.g. ``\\n -> Type``) are both accepted.

Hook points: ID_07 in ``check`` (the mode switch), ID_12 in ``_infer_star``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from . import syntax as s
from .conversion import is_subtype
from .errors import ScopeError, TypeCheckError
from .evaluation import Evaluator
from .names import Global, Local
from .pretty import pretty
from .quotation import quote0
from .substitution import open_binder
from .values import (
    VNAT,
    VZERO,
    NativeClosure,
    Value,
    VCons,
    VEq,
    VFin,
    VFSucc,
    VFZero,
    VNil,
    VPi,
    VRefl,
    VStar,
    VSucc,
    VVec,
    vfree,
)

_MAX_SHOWN = 80  # longest term quoted in an error message


class TypedEntry(Protocol):
    @property
    def type(self) -> Value: ...


class Checker:
    """Type checker for one statement: the evaluator plus a local context."""

    def __init__(self, ev: Evaluator, globals_: Mapping[str, TypedEntry]) -> None:
        self.ev = ev
        self.cfg = ev.cfg
        self.globals = globals_
        self.local_types: list[Value] = []
        self.local_names: list[str] = []
        self._names_in_scope: set[str] = set()
        self._last_suffix: dict[str, int] = {}
        self._saved: list[tuple[str, int]] = []

    # -- judgements --------------------------------------------------------------------------

    def infer(self, term: s.Term) -> Value:
        """Synthesise the type of ``term``."""
        self.ev.budget.tick()
        return _INFER[type(term)](self, term)

    def check(self, term: s.Term, expected: Value) -> None:
        """Check ``term`` against the type ``expected``."""
        self.ev.budget.tick()
        if type(term) is s.Lam:
            self._check_lam(term, expected)
            return
        inferred = self.infer(term)
        if self.cfg.type_equality_collapse:  # ID_07: every type comparison succeeds
            return
        if not is_subtype(self.ev, inferred, expected):
            raise TypeCheckError(
                f"type mismatch: expected {self.show_value(expected)}, "
                f"but `{self.show(term)}` has type {self.show_value(inferred)}"
            )

    def check_type(self, term: s.Term) -> int:
        """Check that ``term`` is a type; return its universe level."""
        sort = self.infer(term)
        if type(sort) is not VStar:
            raise TypeCheckError(f"`{self.show(term)}` is not a type (it has type {self.show_value(sort)})")
        return sort.level

    def eval(self, term: s.Term) -> Value:
        return self.ev.eval(term, ())

    # -- binders -------------------------------------------------------------------------

    def open(self, name: str, domain: Value, body: s.Term) -> tuple[s.Term, Value]:
        """Enter a binder: returns the opened body and the new local variable."""
        level = len(self.local_types)
        self.local_types.append(domain)
        display_name = self._local_name(name)
        self.local_names.append(display_name)
        self._names_in_scope.add(display_name)
        variable = s.Free(Local(level))
        return open_binder(body, variable, self.cfg, self.ev.budget), vfree(Local(level))

    def close(self) -> None:
        self.local_types.pop()
        self._names_in_scope.discard(self.local_names.pop())
        base, previous = self._saved.pop()
        self._last_suffix[base] = previous

    def _local_name(self, hint: str) -> str:
        """A display name for a new local variable, distinct from those in scope."""
        base = hint if hint and hint != "_" else "x"
        k = self._last_suffix.get(base, -1) + 1
        name = base if k == 0 else f"{base}{k}"
        while name in self._names_in_scope or name in self.globals:
            k += 1
            name = f"{base}{k}"
        self._saved.append((base, self._last_suffix.get(base, -1)))
        self._last_suffix[base] = k
        return name

    def _check_lam(self, term: s.Lam, expected: Value) -> None:
        if type(expected) is not VPi:
            raise TypeCheckError(
                f"the lambda `{self.show(term)}` is checked against the non-function type "
                f"{self.show_value(expected)}"
            )
        body, variable = self.open(term.name, expected.domain, term.body)
        self.check(body, self.ev.instantiate(expected.closure, variable))
        self.close()

    # -- messages ------------------------------------------------------------------------

    def show(self, term: s.Term) -> str:
        return _clip(pretty(term, self.local_names))

    def show_value(self, value: Value) -> str:
        return _clip(pretty(quote0(self.ev, value), self.local_names))

    # -- helpers for the eliminator rules -------------------------------------------------

    def app(self, fun: Value, *args: Value) -> Value:
        for arg in args:
            fun = self.ev.vapp(fun, arg)
        return fun


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 3] + "..."


def pi(name: str, domain: Value, codomain: Callable[[Value], Value]) -> Value:
    """A Pi type built by the kernel (its codomain is a Python function)."""
    return VPi(name, domain, NativeClosure(codomain))


def arrow(domain: Value, codomain: Value) -> Value:
    return VPi("_", domain, NativeClosure(lambda _: codomain))


MOTIVE_SORT = VStar(1)
SMALL = VStar(0)

# --- inference rules ------------------------------------------------------------------------


def _infer_ann(c: Checker, t: s.Ann) -> Value:
    c.check_type(t.type)
    ty = c.eval(t.type)
    c.check(t.term, ty)
    return ty


def _infer_star(c: Checker, t: s.Star) -> Value:
    if c.cfg.universe_collapse:  # ID_12: Type n : Type n
        return VStar(t.level)
    return VStar(t.level + 1)


def _infer_pi(c: Checker, t: s.Pi) -> Value:
    domain_level = c.check_type(t.domain)
    codomain, _ = c.open(t.name, c.eval(t.domain), t.codomain)
    codomain_level = c.check_type(codomain)
    c.close()
    return VStar(max(domain_level, codomain_level))


def _infer_bound(c: Checker, t: s.Bound) -> Value:
    raise ScopeError(f"escaped bound variable #{t.index}")


def _infer_free(c: Checker, t: s.Free) -> Value:
    name = t.name
    if type(name) is Local:
        return c.local_types[name.level]
    if type(name) is Global:
        entry = c.globals.get(name.name)
        if entry is None:
            raise ScopeError(f"unknown name '{_clip(name.name)}'")
        return entry.type
    raise ScopeError(f"unexpected free variable {c.show(t)}")


def _infer_app(c: Checker, t: s.App) -> Value:
    fun_type = c.infer(t.fun)
    if type(fun_type) is not VPi:
        raise TypeCheckError(
            f"`{c.show(t.fun)}` is applied to an argument but has the non-function type "
            f"{c.show_value(fun_type)}"
        )
    c.check(t.arg, fun_type.domain)
    return c.ev.instantiate(fun_type.closure, c.eval(t.arg))


def _infer_lam(c: Checker, t: s.Lam) -> Value:
    raise TypeCheckError(
        f"cannot infer the type of the lambda `{c.show(t)}`; annotate it, e.g. `(\\x -> ...) : A -> B`"
    )


def _infer_nat(c: Checker, t: s.Nat) -> Value:
    return SMALL


def _infer_zero(c: Checker, t: s.Zero) -> Value:
    return VNAT


def _infer_succ(c: Checker, t: s.Succ) -> Value:
    c.check(t.pred, VNAT)
    return VNAT


def _infer_nat_elim(c: Checker, t: s.NatElim) -> Value:
    c.check(t.motive, arrow(VNAT, MOTIVE_SORT))
    m = c.eval(t.motive)
    c.check(t.zero_case, c.app(m, VZERO))
    c.check(t.succ_case, pi("l", VNAT, lambda l: arrow(c.app(m, l), c.app(m, VSucc(l)))))
    c.check(t.scrutinee, VNAT)
    return c.app(m, c.eval(t.scrutinee))


def _infer_vec(c: Checker, t: s.Vec) -> Value:
    c.check(t.elem, SMALL)
    c.check(t.length, VNAT)
    return SMALL


def _infer_nil(c: Checker, t: s.Nil) -> Value:
    c.check(t.elem, SMALL)
    return VVec(c.eval(t.elem), VZERO)


def _infer_cons(c: Checker, t: s.Cons) -> Value:
    c.check(t.elem, SMALL)
    a = c.eval(t.elem)
    c.check(t.length, VNAT)
    n = c.eval(t.length)
    c.check(t.head, a)
    c.check(t.tail, VVec(a, n))
    return VVec(a, VSucc(n))


def _infer_vec_elim(c: Checker, t: s.VecElim) -> Value:
    c.check(t.elem, SMALL)
    a = c.eval(t.elem)
    c.check(t.motive, pi("k", VNAT, lambda k: arrow(VVec(a, k), MOTIVE_SORT)))
    m = c.eval(t.motive)
    c.check(t.nil_case, c.app(m, VZERO, VNil(a)))

    def cons_case_type(l: Value) -> Value:
        return pi("x", a, lambda x: pi("xs", VVec(a, l), lambda xs: arrow(
            c.app(m, l, xs), c.app(m, VSucc(l), VCons(a, l, x, xs)))))

    c.check(t.cons_case, pi("l", VNAT, cons_case_type))
    c.check(t.length, VNAT)
    k = c.eval(t.length)
    c.check(t.scrutinee, VVec(a, k))
    return c.app(m, k, c.eval(t.scrutinee))


def _infer_fin(c: Checker, t: s.Fin) -> Value:
    c.check(t.bound, VNAT)
    return SMALL


def _infer_fzero(c: Checker, t: s.FZero) -> Value:
    c.check(t.bound, VNAT)
    return VFin(VSucc(c.eval(t.bound)))


def _infer_fsucc(c: Checker, t: s.FSucc) -> Value:
    c.check(t.bound, VNAT)
    n = c.eval(t.bound)
    c.check(t.pred, VFin(n))
    return VFin(VSucc(n))


def _infer_fin_elim(c: Checker, t: s.FinElim) -> Value:
    c.check(t.motive, pi("n", VNAT, lambda n: arrow(VFin(n), MOTIVE_SORT)))
    m = c.eval(t.motive)
    c.check(t.zero_case, pi("n", VNAT, lambda n: c.app(m, VSucc(n), VFZero(n))))
    c.check(t.succ_case, pi("n", VNAT, lambda n: pi("f", VFin(n), lambda f: arrow(
        c.app(m, n, f), c.app(m, VSucc(n), VFSucc(n, f))))))
    c.check(t.bound, VNAT)
    n = c.eval(t.bound)
    c.check(t.scrutinee, VFin(n))
    return c.app(m, n, c.eval(t.scrutinee))


def _infer_eq(c: Checker, t: s.Eq) -> Value:
    c.check(t.type, SMALL)
    a = c.eval(t.type)
    c.check(t.left, a)
    c.check(t.right, a)
    return SMALL


def _infer_refl(c: Checker, t: s.Refl) -> Value:
    c.check(t.type, SMALL)
    a = c.eval(t.type)
    c.check(t.point, a)
    x = c.eval(t.point)
    return VEq(a, x, x)


def _infer_eq_elim(c: Checker, t: s.EqElim) -> Value:
    c.check(t.type, SMALL)
    a = c.eval(t.type)
    c.check(t.motive, pi("x", a, lambda x: pi("y", a, lambda y: arrow(VEq(a, x, y), MOTIVE_SORT))))
    m = c.eval(t.motive)
    c.check(t.refl_case, pi("z", a, lambda z: c.app(m, z, z, VRefl(a, z))))
    c.check(t.left, a)
    x = c.eval(t.left)
    c.check(t.right, a)
    y = c.eval(t.right)
    c.check(t.proof, VEq(a, x, y))
    return c.app(m, x, y, c.eval(t.proof))


_INFER: dict[type, Callable[[Checker, s.Term], Value]] = {
    s.Ann: _infer_ann,
    s.Star: _infer_star,
    s.Pi: _infer_pi,
    s.Bound: _infer_bound,
    s.Free: _infer_free,
    s.App: _infer_app,
    s.Lam: _infer_lam,
    s.Nat: _infer_nat,
    s.Zero: _infer_zero,
    s.Succ: _infer_succ,
    s.NatElim: _infer_nat_elim,
    s.Vec: _infer_vec,
    s.Nil: _infer_nil,
    s.Cons: _infer_cons,
    s.VecElim: _infer_vec_elim,
    s.Fin: _infer_fin,
    s.FZero: _infer_fzero,
    s.FSucc: _infer_fsucc,
    s.FinElim: _infer_fin_elim,
    s.Eq: _infer_eq,
    s.Refl: _infer_refl,
    s.EqElim: _infer_eq_elim,
}
