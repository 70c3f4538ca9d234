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

from dataclasses import dataclass, field

from .names import Name


def node(cls: type) -> type:
    """Declare a term node: a slotted dataclass with identity equality and a ``loose`` slot.

    ``loose`` is one more than the largest de Bruijn index occurring anywhere
    inside the node, counted without adjusting for the binders crossed (0 if
    there is none, -1 if unknown).  If ``loose <= k`` no substitution for an
    index ``>= k`` can touch the node, whether or not the substitution shifts its
    target under binders (so the shortcut is valid for mutation ID_02 as well).
    The elaborator fills it in (``annotate_loose``); it is not part of the
    term's meaning.
    """
    cls.__annotations__["loose"] = "int"
    cls.loose = field(default=-1, repr=False)
    return dataclass(slots=True, eq=False)(cls)


# --- core calculus -------------------------------------------------------------


@node
class Star:
    """The universe ``Type_level`` (``Type``, ``Type0`` and ``*`` are level 0)."""

    level: int


@node
class Pi:
    name: str
    domain: Term
    codomain: Term  # under one binder


@node
class Lam:
    name: str
    body: Term  # under one binder


@node
class Ann:
    term: Term
    type: Term


@node
class Bound:
    index: int


@node
class Free:
    name: Name


@node
class App:
    fun: Term
    arg: Term


# --- natural numbers -------------------------------------------------------------


@node
class Nat:
    pass


@node
class Zero:
    pass


@node
class Succ:
    pred: Term


@node
class NatElim:
    motive: Term
    zero_case: Term
    succ_case: Term
    scrutinee: Term


# --- vectors -----------------------------------------------------------------------


@node
class Vec:
    elem: Term
    length: Term


@node
class Nil:
    elem: Term


@node
class Cons:
    elem: Term
    length: Term
    head: Term
    tail: Term


@node
class VecElim:
    elem: Term
    motive: Term
    nil_case: Term
    cons_case: Term
    length: Term
    scrutinee: Term


# --- finite sets -------------------------------------------------------------------


@node
class Fin:
    bound: Term


@node
class FZero:
    bound: Term


@node
class FSucc:
    bound: Term
    pred: Term


@node
class FinElim:
    motive: Term
    zero_case: Term
    succ_case: Term
    bound: Term
    scrutinee: Term


# --- propositional equality --------------------------------------------------------


@node
class Eq:
    type: Term
    left: Term
    right: Term


@node
class Refl:
    type: Term
    point: Term


@node
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


def compute_loose(term: Term) -> int:
    """``loose`` of ``term`` from its children's (``-1`` if any child is unknown)."""
    if type(term) is Bound:
        return term.index + 1
    result = 0
    for child in children(term):
        if child.loose < 0:
            return -1
        result = max(result, child.loose)
    return result


def annotate_loose(term: Term) -> Term:
    """Fill in ``loose`` for every node of ``term`` (post-order, no recursion)."""
    stack: list[tuple[Term, bool]] = [(term, False)]
    while stack:
        t, done = stack.pop()
        if done:
            t.loose = compute_loose(t)
        elif t.loose < 0:
            stack.append((t, True))
            stack.extend((c, False) for c in children(t))
    return term
