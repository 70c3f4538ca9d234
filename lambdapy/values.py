"""Values (semantic domain of normalisation by evaluation) and neutral terms.

A value is a term in weak head normal form whose binders are *closures*:
``Closure(env, body)`` pairs a term under one binder with the environment it was
created in (``env[0]`` is the innermost variable, as in the tutorial's
``Bound(i) -> env[i]`` convention).  ``NativeClosure`` wraps a Python function;
it is used only for the Pi types the kernel builds itself (the eliminators'
premises), so those types do not depend on the environment discipline.

A *neutral* term is a computation blocked on a free variable: a variable, an
application of a neutral, or an eliminator whose scrutinee is neutral.

Like terms, values are never mutated after construction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .names import Name
from .syntax import Term

Env = tuple["Value", ...]


@dataclass(slots=True, eq=False)
class Closure:
    env: Env
    body: Term


@dataclass(slots=True, eq=False)
class NativeClosure:
    fn: Callable[[Value], Value]


AnyClosure = Closure | NativeClosure

# --- values --------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class VStar:
    level: int


@dataclass(slots=True, eq=False)
class VPi:
    name: str
    domain: Value
    closure: AnyClosure


@dataclass(slots=True, eq=False)
class VLam:
    name: str
    closure: Closure


@dataclass(slots=True, eq=False)
class VNeutral:
    neutral: Neutral


@dataclass(slots=True, eq=False)
class VNat:
    pass


@dataclass(slots=True, eq=False)
class VZero:
    pass


@dataclass(slots=True, eq=False)
class VSucc:
    pred: Value


@dataclass(slots=True, eq=False)
class VVec:
    elem: Value
    length: Value


@dataclass(slots=True, eq=False)
class VNil:
    elem: Value


@dataclass(slots=True, eq=False)
class VCons:
    elem: Value
    length: Value
    head: Value
    tail: Value


@dataclass(slots=True, eq=False)
class VFin:
    bound: Value


@dataclass(slots=True, eq=False)
class VFZero:
    bound: Value


@dataclass(slots=True, eq=False)
class VFSucc:
    bound: Value
    pred: Value


@dataclass(slots=True, eq=False)
class VEq:
    type: Value
    left: Value
    right: Value


@dataclass(slots=True, eq=False)
class VRefl:
    type: Value
    point: Value


# --- neutral terms ---------------------------------------------------------------


@dataclass(slots=True, eq=False)
class NFree:
    name: Name


@dataclass(slots=True, eq=False)
class NApp:
    fun: Neutral
    arg: Value


@dataclass(slots=True, eq=False)
class NNatElim:
    motive: Value
    zero_case: Value
    succ_case: Value
    scrutinee: Neutral


@dataclass(slots=True, eq=False)
class NVecElim:
    elem: Value
    motive: Value
    nil_case: Value
    cons_case: Value
    length: Value
    scrutinee: Neutral


@dataclass(slots=True, eq=False)
class NFinElim:
    motive: Value
    zero_case: Value
    succ_case: Value
    bound: Value
    scrutinee: Neutral


@dataclass(slots=True, eq=False)
class NEqElim:
    type: Value
    motive: Value
    refl_case: Value
    left: Value
    right: Value
    scrutinee: Neutral


Value = (
    VStar | VPi | VLam | VNeutral
    | VNat | VZero | VSucc
    | VVec | VNil | VCons
    | VFin | VFZero | VFSucc
    | VEq | VRefl
)
Neutral = NFree | NApp | NNatElim | NVecElim | NFinElim | NEqElim

VNAT = VNat()
VZERO = VZero()


def vfree(name: Name) -> Value:
    """The value of a free variable: a neutral term."""
    return VNeutral(NFree(name))
