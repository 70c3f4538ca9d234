"""The built-in type formers, constructors and eliminators (one table).

Built-ins are keywords of the grammar and are written as applications.  The
elaborator turns a fully applied built-in into its core node; extra arguments
become ordinary applications.  An *under-applied* built-in (``Succ``, ``Cons
Nat``) is eta-expanded to an annotated lambda, ``(\\x1 ... xk -> B x1 ... xk) :
signature``, and then applied to the arguments that were given; it is therefore
an ordinary function value (and mutations of lambdas apply to it).

The signatures follow the LambdaPi tutorial, with ``*`` written ``Type`` and the
eliminators' motives returning ``Type1`` (see ``typecheck``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import syntax as s


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str
    arity: int
    build: Callable[..., s.Term]
    signature: str  # surface syntax; every argument is a named forall binder


_TABLE = (
    Builtin("Nat", 0, s.Nat, "Type"),
    Builtin("Zero", 0, s.Zero, "Nat"),
    Builtin("Succ", 1, s.Succ, "forall (n : Nat) . Nat"),
    Builtin(
        "NatElim", 4, s.NatElim,
        "forall (m : Nat -> Type1) (mz : m Zero) (ms : forall (l : Nat) . m l -> m (Succ l)) "
        "(k : Nat) . m k",
    ),
    Builtin("Vec", 2, s.Vec, "forall (A : Type) (n : Nat) . Type"),
    Builtin("Nil", 1, s.Nil, "forall (A : Type) . Vec A Zero"),
    Builtin("Cons", 4, s.Cons, "forall (A : Type) (n : Nat) (x : A) (xs : Vec A n) . Vec A (Succ n)"),
    Builtin(
        "VecElim", 6, s.VecElim,
        "forall (A : Type) (m : forall (k : Nat) . Vec A k -> Type1) (mn : m Zero (Nil A)) "
        "(mc : forall (l : Nat) (x : A) (xs : Vec A l) . m l xs -> m (Succ l) (Cons A l x xs)) "
        "(k : Nat) (xs : Vec A k) . m k xs",
    ),
    Builtin("Fin", 1, s.Fin, "forall (n : Nat) . Type"),
    Builtin("FZero", 1, s.FZero, "forall (n : Nat) . Fin (Succ n)"),
    Builtin("FSucc", 2, s.FSucc, "forall (n : Nat) (f : Fin n) . Fin (Succ n)"),
    Builtin(
        "FinElim", 5, s.FinElim,
        "forall (m : forall (n : Nat) . Fin n -> Type1) (mz : forall (n : Nat) . m (Succ n) (FZero n)) "
        "(ms : forall (n : Nat) (f : Fin n) . m n f -> m (Succ n) (FSucc n f)) "
        "(n : Nat) (f : Fin n) . m n f",
    ),
    Builtin("Eq", 3, s.Eq, "forall (A : Type) (x : A) (y : A) . Type"),
    Builtin("Refl", 2, s.Refl, "forall (A : Type) (x : A) . Eq A x x"),
    Builtin(
        "EqElim", 6, s.EqElim,
        "forall (A : Type) (m : forall (x : A) (y : A) . Eq A x y -> Type1) "
        "(mr : forall (z : A) . m z z (Refl A z)) (x : A) (y : A) (p : Eq A x y) . m x y p",
    ),
)

BUILTINS: dict[str, Builtin] = {b.name: b for b in _TABLE}

#: grammar alias of the keyword atom -> built-in
KEYWORD_ALIASES: dict[str, Builtin] = {
    "nat": BUILTINS["Nat"],
    "zero": BUILTINS["Zero"],
    "succ_kw": BUILTINS["Succ"],
    "nat_elim_kw": BUILTINS["NatElim"],
    "vec_kw": BUILTINS["Vec"],
    "nil_kw": BUILTINS["Nil"],
    "cons_kw": BUILTINS["Cons"],
    "vec_elim_kw": BUILTINS["VecElim"],
    "fin_kw": BUILTINS["Fin"],
    "fzero_kw": BUILTINS["FZero"],
    "fsucc_kw": BUILTINS["FSucc"],
    "fin_elim_kw": BUILTINS["FinElim"],
    "eq_kw": BUILTINS["Eq"],
    "refl_kw": BUILTINS["Refl"],
    "eq_elim_kw": BUILTINS["EqElim"],
}

#: words that can never be the name of a variable
RESERVED_NAMES = frozenset(
    {"assume", "let", "eval", "check", "forall", "Type", "natElim", "vecElim", "finElim", "eqElim"}
    | set(BUILTINS)
)


def is_reserved(name: str) -> bool:
    return name in RESERVED_NAMES or (name.startswith("Type") and name[4:].isdigit())
