"""Names of free variables, as in the LambdaPi tutorial.

* ``Global(x)``: a name declared at top level by ``assume`` or ``let``.
* ``Local(i)``: the i-th binder the type checker has opened (de Bruijn level);
  the checker substitutes ``Free(Local(i))`` for ``Bound(0)`` when it goes under
  a binder (locally nameless terms).
* ``Quote(i)``: the fresh variable that quotation feeds to a closure at level i;
  quotation turns it back into a ``Bound`` index.
* ``Pad()``: the "neutral element" that mutation ID_08 pads lambda closures with.
  It prints as ``_``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Global:
    name: str


@dataclass(frozen=True, slots=True)
class Local:
    level: int


@dataclass(frozen=True, slots=True)
class Quote:
    level: int


@dataclass(frozen=True, slots=True)
class Pad:
    pass


Name = Global | Local | Quote | Pad

PAD = Pad()
