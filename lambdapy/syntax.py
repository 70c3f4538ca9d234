"""Core syntax: locally nameless terms with de Bruijn indices.

As in the LambdaPi tutorial there are *inferable* terms (the type can be read
off) and *checkable* terms (a type must be supplied).  The only checkable-only
term is the unannotated lambda ``Lam``; every other node is inferable, and the
tutorial's ``Inf`` embedding of inferable into checkable terms is implicit.
Unlike the tutorial, the constructors ``Zero``, ``Succ``, ``Nil``, ``Cons``,
``FZero``, ``FSucc`` and ``Refl`` take their type parameters explicitly and are
therefore inferable too (``eval Succ Zero`` works without an annotation).

``Bound(i)`` is a de Bruijn *index* (0 = innermost binder); everything else is
``Free(name)``.  Binders keep the source name as a hint for printing only.

Nodes are plain slotted dataclasses for speed.  They are never mutated after
construction: elaborated terms are cached and shared between kernels.
Equality is identity; structural comparison lives in ``conversion``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .names import Name

# --- core calculus -------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Star:
    """The universe ``Type_level`` (``Type``, ``Type0`` and ``*`` are level 0)."""

    level: int


@dataclass(slots=True, eq=False)
class Pi:
    name: str
    domain: Term
    codomain: Term  # under one binder


@dataclass(slots=True, eq=False)
class Lam:
    name: str
    body: Term  # under one binder


@dataclass(slots=True, eq=False)
class Ann:
    term: Term
    type: Term


@dataclass(slots=True, eq=False)
class Bound:
    index: int


@dataclass(slots=True, eq=False)
class Free:
    name: Name


@dataclass(slots=True, eq=False)
class App:
    fun: Term
    arg: Term


# --- natural numbers -------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Nat:
    pass


@dataclass(slots=True, eq=False)
class Zero:
    pass


@dataclass(slots=True, eq=False)
class Succ:
    pred: Term


@dataclass(slots=True, eq=False)
class NatElim:
    motive: Term
    zero_case: Term
    succ_case: Term
    scrutinee: Term


# --- vectors -----------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Vec:
    elem: Term
    length: Term


@dataclass(slots=True, eq=False)
class Nil:
    elem: Term


@dataclass(slots=True, eq=False)
class Cons:
    elem: Term
    length: Term
    head: Term
    tail: Term


@dataclass(slots=True, eq=False)
class VecElim:
    elem: Term
    motive: Term
    nil_case: Term
    cons_case: Term
    length: Term
    scrutinee: Term


# --- finite sets -------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Fin:
    bound: Term


@dataclass(slots=True, eq=False)
class FZero:
    bound: Term


@dataclass(slots=True, eq=False)
class FSucc:
    bound: Term
    pred: Term


@dataclass(slots=True, eq=False)
class FinElim:
    motive: Term
    zero_case: Term
    succ_case: Term
    bound: Term
    scrutinee: Term


# --- propositional equality --------------------------------------------------------


@dataclass(slots=True, eq=False)
class Eq:
    type: Term
    left: Term
    right: Term


@dataclass(slots=True, eq=False)
class Refl:
    type: Term
    point: Term


@dataclass(slots=True, eq=False)
class EqElim:
    type: Term
    motive: Term
    refl_case: Term
    left: Term
    right: Term
    proof: Term


Term = (
    Star | Pi | Lam | Ann | Bound | Free | App
    | Nat | Zero | Succ | NatElim
    | Vec | Nil | Cons | VecElim
    | Fin | FZero | FSucc | FinElim
    | Eq | Refl | EqElim
)
CheckTerm = Term  # every term can be checked
InferTerm = Term  # every term except ``Lam`` can be inferred

# Field names of the nodes whose fields are all sub-terms (no binder).  Used by
# the generic traversals in ``substitution``, ``conversion`` and ``pretty``.
SIMPLE_NODES: dict[type, tuple[str, ...]] = {
    Ann: ("term", "type"),
    App: ("fun", "arg"),
    Succ: ("pred",),
    NatElim: ("motive", "zero_case", "succ_case", "scrutinee"),
    Vec: ("elem", "length"),
    Nil: ("elem",),
    Cons: ("elem", "length", "head", "tail"),
    VecElim: ("elem", "motive", "nil_case", "cons_case", "length", "scrutinee"),
    Fin: ("bound",),
    FZero: ("bound",),
    FSucc: ("bound", "pred"),
    FinElim: ("motive", "zero_case", "succ_case", "bound", "scrutinee"),
    Eq: ("type", "left", "right"),
    Refl: ("type", "point"),
    EqElim: ("type", "motive", "refl_case", "left", "right", "proof"),
}

LEAF_NODES: tuple[type, ...] = (Star, Bound, Free, Nat, Zero)
BINDER_NODES: tuple[type, ...] = (Pi, Lam)


def children(term: Term) -> list[Term]:
    """The direct sub-terms of ``term`` (binder bodies included)."""
    if isinstance(term, Pi):
        return [term.domain, term.codomain]
    if isinstance(term, Lam):
        return [term.body]
    fields = SIMPLE_NODES.get(type(term))
    if fields is None:
        return []
    return [getattr(term, f) for f in fields]


def term_depth(term: Term) -> int:
    """Nesting depth of a term, computed without recursion."""
    deepest = 0
    stack = [(term, 1)]
    while stack:
        t, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in children(t))
    return deepest
