"""Evaluation: terms to values (the "eval" half of normalisation by evaluation).

Evaluation is strict (call by value), unlike the tutorial's lazy Haskell; on
well-typed terms of the sound kernel the normal forms are the same.  The
eliminators run iteratively over ``Succ``/``Cons``/``FSucc`` chains (peel the
chain, then fold from the base), so long unary numerals and vectors do not
deepen the Python stack.

Hook points: ID_04 and ID_06 live in ``env``; ID_05/ID_11 in
``unknown_global``; ID_08 in ``_eval_lam``; ID_09/ID_13 in ``vapp``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from . import syntax as s
from .env import bind, bind_lambda_argument, lookup
from .errors import EvalError
from .limits import Budget
from .mutations import KernelConfig
from .names import PAD, Global
from .values import (
    VNAT,
    VZERO,
    AnyClosure,
    Closure,
    Env,
    NApp,
    NativeClosure,
    NEqElim,
    NFinElim,
    NNatElim,
    NVecElim,
    Value,
    VCons,
    VEq,
    VFin,
    VFSucc,
    VFZero,
    VLam,
    VNat,
    VNeutral,
    VNil,
    VPi,
    VRefl,
    VStar,
    VSucc,
    VVec,
    VZero,
    vfree,
)


class ValuedEntry(Protocol):
    """What evaluation needs to know about a declared name."""

    @property
    def value(self) -> Value | None: ...


PAD_VALUE = vfree(PAD)
_IDENTITY = s.Lam("x", s.Bound(0))


class Evaluator:
    """Evaluates terms under one kernel configuration, one set of globals and one budget."""

    __slots__ = ("budget", "cfg", "globals")

    def __init__(self, cfg: KernelConfig, globals_: Mapping[str, ValuedEntry], budget: Budget) -> None:
        self.cfg = cfg
        self.globals = globals_
        self.budget = budget

    # -- terms to values -------------------------------------------------------------------

    def eval(self, term: s.Term, env: Env) -> Value:
        budget = self.budget
        budget.steps -= 1
        budget.depth += 1
        if budget.steps & 1023 == 0 or budget.depth > budget.max_depth:
            budget.checkpoint()
        value = _EVAL[type(term)](self, term, env)
        budget.depth -= 1
        return value

    def unknown_global(self, name: str) -> Value:
        """The value of an assumed name (a global with a type but no definition)."""
        if self.cfg.unknown_globals_to_zero:  # ID_05
            return VZERO
        if self.cfg.unknown_globals_to_identity:  # ID_11
            return self.eval(_IDENTITY, ())
        return vfree(Global(name))

    # -- closures and application ---------------------------------------------------------

    def instantiate(self, closure: AnyClosure, arg: Value) -> Value:
        """Instantiate a Pi codomain with ``arg`` (sound environment discipline)."""
        if type(closure) is NativeClosure:
            return closure.fn(arg)
        return self.eval(closure.body, bind(closure.env, arg))

    def apply_lambda(self, fun: VLam, arg: Value) -> Value:
        """Instantiate a lambda body with ``arg``: beta reduction proper."""
        closure = fun.closure
        return self.eval(closure.body, bind_lambda_argument(closure.env, arg, self.cfg))

    def vapp(self, fun: Value, arg: Value) -> Value:
        """Apply a value to a value."""
        if type(fun) is VLam:
            cfg = self.cfg
            if cfg.argument_dropping:  # ID_13: the argument is replaced by Type
                arg = VStar(0)
            result = self.apply_lambda(fun, arg)
            if cfg.double_application and type(result) is VLam:  # ID_09: (f x) x
                result = self.apply_lambda(result, arg)
            return result
        if type(fun) is VNeutral:
            return VNeutral(NApp(fun.neutral, arg))
        raise EvalError(f"cannot apply a non-function value ({shape(fun)})")

    # -- eliminators -----------------------------------------------------------------------

    def nat_elim(self, motive: Value, zero_case: Value, succ_case: Value, n: Value) -> Value:
        preds: list[Value] = []
        while type(n) is VSucc:
            self.budget.tick()
            preds.append(n.pred)
            n = n.pred
        if type(n) is VZero:
            acc = zero_case
        elif type(n) is VNeutral:
            acc = VNeutral(NNatElim(motive, zero_case, succ_case, n.neutral))
        else:
            raise EvalError(f"NatElim expects a natural number, got {shape(n)}")
        for pred in reversed(preds):
            acc = self.vapp(self.vapp(succ_case, pred), acc)
        return acc

    def vec_elim(
        self, elem: Value, motive: Value, nil_case: Value, cons_case: Value, length: Value, xs: Value
    ) -> Value:
        cells: list[VCons] = []
        while type(xs) is VCons:
            self.budget.tick()
            cells.append(xs)
            xs = xs.tail
        if type(xs) is VNil:
            acc = nil_case
        elif type(xs) is VNeutral:
            stuck_length = cells[-1].length if cells else length
            acc = VNeutral(NVecElim(elem, motive, nil_case, cons_case, stuck_length, xs.neutral))
        else:
            raise EvalError(f"VecElim expects a vector, got {shape(xs)}")
        for cell in reversed(cells):
            step = self.vapp(self.vapp(self.vapp(cons_case, cell.length), cell.head), cell.tail)
            acc = self.vapp(step, acc)
        return acc

    def fin_elim(self, motive: Value, zero_case: Value, succ_case: Value, bound: Value, f: Value) -> Value:
        cells: list[VFSucc] = []
        while type(f) is VFSucc:
            self.budget.tick()
            cells.append(f)
            f = f.pred
        if type(f) is VFZero:
            acc = self.vapp(zero_case, f.bound)
        elif type(f) is VNeutral:
            # the recursive call on `FSucc k g` uses the cell's own index k
            stuck_bound = cells[-1].bound if cells else bound
            acc = VNeutral(NFinElim(motive, zero_case, succ_case, stuck_bound, f.neutral))
        else:
            raise EvalError(f"FinElim expects an element of a finite set, got {shape(f)}")
        for cell in reversed(cells):
            acc = self.vapp(self.vapp(self.vapp(succ_case, cell.bound), cell.pred), acc)
        return acc

    def eq_elim(
        self, type_: Value, motive: Value, refl_case: Value, left: Value, right: Value, proof: Value
    ) -> Value:
        if type(proof) is VRefl:
            return self.vapp(refl_case, proof.point)
        if type(proof) is VNeutral:
            return VNeutral(NEqElim(type_, motive, refl_case, left, right, proof.neutral))
        raise EvalError(f"EqElim expects an equality proof, got {shape(proof)}")


# --- one evaluation rule per syntax node ------------------------------------------------------


def _eval_star(ev: Evaluator, t: s.Star, env: Env) -> Value:
    return VStar(t.level)


def _eval_pi(ev: Evaluator, t: s.Pi, env: Env) -> Value:
    return VPi(t.name, ev.eval(t.domain, env), Closure(env, t.codomain))


def _eval_lam(ev: Evaluator, t: s.Lam, env: Env) -> Value:
    if ev.cfg.lambda_env_padding:  # ID_08: spurious neutral value in the closure
        env = (PAD_VALUE, *env)
    return VLam(t.name, Closure(env, t.body))


def _eval_ann(ev: Evaluator, t: s.Ann, env: Env) -> Value:
    return ev.eval(t.term, env)


def _eval_bound(ev: Evaluator, t: s.Bound, env: Env) -> Value:
    return lookup(env, t.index, ev.cfg)


def _eval_free(ev: Evaluator, t: s.Free, env: Env) -> Value:
    name = t.name
    if type(name) is Global:
        entry = ev.globals.get(name.name)
        if entry is not None and entry.value is not None:
            return entry.value
        return ev.unknown_global(name.name)
    return vfree(name)


def _eval_app(ev: Evaluator, t: s.App, env: Env) -> Value:
    return ev.vapp(ev.eval(t.fun, env), ev.eval(t.arg, env))


def _eval_nat(ev: Evaluator, t: s.Nat, env: Env) -> Value:
    return VNAT


def _eval_zero(ev: Evaluator, t: s.Zero, env: Env) -> Value:
    return VZERO


def _eval_succ(ev: Evaluator, t: s.Succ, env: Env) -> Value:
    return VSucc(ev.eval(t.pred, env))


def _eval_nat_elim(ev: Evaluator, t: s.NatElim, env: Env) -> Value:
    e = ev.eval
    return ev.nat_elim(e(t.motive, env), e(t.zero_case, env), e(t.succ_case, env), e(t.scrutinee, env))


def _eval_vec(ev: Evaluator, t: s.Vec, env: Env) -> Value:
    return VVec(ev.eval(t.elem, env), ev.eval(t.length, env))


def _eval_nil(ev: Evaluator, t: s.Nil, env: Env) -> Value:
    return VNil(ev.eval(t.elem, env))


def _eval_cons(ev: Evaluator, t: s.Cons, env: Env) -> Value:
    e = ev.eval
    return VCons(e(t.elem, env), e(t.length, env), e(t.head, env), e(t.tail, env))


def _eval_vec_elim(ev: Evaluator, t: s.VecElim, env: Env) -> Value:
    e = ev.eval
    return ev.vec_elim(
        e(t.elem, env), e(t.motive, env), e(t.nil_case, env), e(t.cons_case, env),
        e(t.length, env), e(t.scrutinee, env),
    )


def _eval_fin(ev: Evaluator, t: s.Fin, env: Env) -> Value:
    return VFin(ev.eval(t.bound, env))


def _eval_fzero(ev: Evaluator, t: s.FZero, env: Env) -> Value:
    return VFZero(ev.eval(t.bound, env))


def _eval_fsucc(ev: Evaluator, t: s.FSucc, env: Env) -> Value:
    return VFSucc(ev.eval(t.bound, env), ev.eval(t.pred, env))


def _eval_fin_elim(ev: Evaluator, t: s.FinElim, env: Env) -> Value:
    e = ev.eval
    return ev.fin_elim(
        e(t.motive, env), e(t.zero_case, env), e(t.succ_case, env), e(t.bound, env), e(t.scrutinee, env)
    )


def _eval_eq(ev: Evaluator, t: s.Eq, env: Env) -> Value:
    return VEq(ev.eval(t.type, env), ev.eval(t.left, env), ev.eval(t.right, env))


def _eval_refl(ev: Evaluator, t: s.Refl, env: Env) -> Value:
    return VRefl(ev.eval(t.type, env), ev.eval(t.point, env))


def _eval_eq_elim(ev: Evaluator, t: s.EqElim, env: Env) -> Value:
    e = ev.eval
    return ev.eq_elim(
        e(t.type, env), e(t.motive, env), e(t.refl_case, env), e(t.left, env), e(t.right, env),
        e(t.proof, env),
    )


_EVAL: dict[type, Callable[[Evaluator, s.Term, Env], Value]] = {
    s.Star: _eval_star,
    s.Pi: _eval_pi,
    s.Lam: _eval_lam,
    s.Ann: _eval_ann,
    s.Bound: _eval_bound,
    s.Free: _eval_free,
    s.App: _eval_app,
    s.Nat: _eval_nat,
    s.Zero: _eval_zero,
    s.Succ: _eval_succ,
    s.NatElim: _eval_nat_elim,
    s.Vec: _eval_vec,
    s.Nil: _eval_nil,
    s.Cons: _eval_cons,
    s.VecElim: _eval_vec_elim,
    s.Fin: _eval_fin,
    s.FZero: _eval_fzero,
    s.FSucc: _eval_fsucc,
    s.FinElim: _eval_fin_elim,
    s.Eq: _eval_eq,
    s.Refl: _eval_refl,
    s.EqElim: _eval_eq_elim,
}

_SHAPES: dict[type, str] = {
    VStar: "a universe",
    VPi: "a function type",
    VLam: "a function",
    VNeutral: "a neutral term",
    VNat: "the type Nat",
    VZero: "Zero",
    VSucc: "a successor Succ _",
    VVec: "a vector type",
    VNil: "an empty vector Nil _",
    VCons: "a vector Cons _ _ _ _",
    VFin: "a finite-set type",
    VFZero: "FZero _",
    VFSucc: "FSucc _ _",
    VEq: "an equality type",
    VRefl: "a proof Refl _ _",
}


def shape(value: Value) -> str:
    """A short, deterministic description of a value's head, for error messages."""
    if type(value) is VStar:
        return "Type" if value.level == 0 else f"Type{value.level}"
    return _SHAPES.get(type(value), type(value).__name__)
