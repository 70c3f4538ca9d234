"""Pretty printing of terms in the surface syntax, with readable names.

Binders are printed with the source name they were written with; a name is
freshened (``x``, ``x1``, ``x2``, ...) when it would clash with an enclosing
binder, a free name of the term or a local variable of the checker, so the
output can be parsed back.  A Pi whose codomain does not mention its variable
prints as an arrow.  Level 0 prints as ``Type``, level n > 0 as ``Typen``.
Application of a built-in prints like any application (``Cons Nat n x xs``).

Printing never recurses along ``Succ`` chains or application spines, so the
depth of the Python stack is bounded by the nesting of other constructs.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import syntax as s
from .names import Global, Local, Pad, Quote

_BUILTIN_NAMES: dict[type, str] = {
    s.Succ: "Succ",
    s.NatElim: "NatElim",
    s.Vec: "Vec",
    s.Nil: "Nil",
    s.Cons: "Cons",
    s.VecElim: "VecElim",
    s.Fin: "Fin",
    s.FZero: "FZero",
    s.FSucc: "FSucc",
    s.FinElim: "FinElim",
    s.Eq: "Eq",
    s.Refl: "Refl",
    s.EqElim: "EqElim",
}

# precedence levels
_TOP, _APP, _ATOM = 0, 1, 2


def pretty(term: s.Term, local_names: Sequence[str] = ()) -> str:
    """Print ``term``; ``local_names[i]`` is the name of the checker's ``Local(i)``."""
    used, free_names = _analyse(term)
    return _Printer(used, free_names | set(local_names), local_names).show(term, _TOP)


def universe_name(level: int) -> str:
    return "Type" if level == 0 else f"Type{level}"


def _analyse(term: s.Term) -> tuple[set[int], set[str]]:
    """Ids of binders whose variable occurs, and the global names of ``term`` (no recursion)."""
    used: set[int] = set()
    names: set[str] = set()
    binders: list[s.Term] = []
    stack: list[tuple[str, s.Term | None]] = [("visit", term)]
    while stack:
        action, t = stack.pop()
        if action == "pop":
            binders.pop()
        elif action == "push":
            binders.append(t)
        elif type(t) is s.Bound:
            position = len(binders) - 1 - t.index
            if position >= 0:
                used.add(id(binders[position]))
        elif type(t) is s.Free:
            if type(t.name) is Global:
                names.add(t.name.name)
        elif type(t) is s.Pi:
            stack += [("pop", None), ("visit", t.codomain), ("push", t), ("visit", t.domain)]
        elif type(t) is s.Lam:
            stack += [("pop", None), ("visit", t.body), ("push", t)]
        else:
            stack += [("visit", c) for c in s.children(t)]
    return used, names


class _Printer:
    def __init__(self, used: set[int], taken: set[str], local_names: Sequence[str]) -> None:
        self.used = used
        self.taken = taken
        self.local_names = local_names
        self.scope: list[str] = []
        self.in_scope: dict[str, int] = {}
        self.last_suffix: dict[str, int] = {}  # per base name: suffix of its innermost binder
        self.saved: list[tuple[str, int]] = []

    def bind(self, hint: str) -> str:
        """Enter a binder: pick a name (``hint``, else ``hint1``, ``hint2``, ...) not in use."""
        base = hint if hint and hint != "_" else "x"
        k = self.last_suffix.get(base, -1) + 1
        name = base if k == 0 else f"{base}{k}"
        while name in self.taken or self.in_scope.get(name):
            k += 1
            name = f"{base}{k}"
        self.saved.append((base, self.last_suffix.get(base, -1)))
        self.last_suffix[base] = k
        self.scope.append(name)
        self.in_scope[name] = self.in_scope.get(name, 0) + 1
        return name

    def bind_anonymous(self) -> None:
        """Enter the binder of ``A -> B`` (its variable is never referenced)."""
        self.saved.append(("", self.last_suffix.get("", -1)))
        self.scope.append("")

    def unbind(self, count: int = 1) -> None:
        for _ in range(count):
            name = self.scope.pop()
            if name:
                self.in_scope[name] -= 1
            base, previous = self.saved.pop()
            self.last_suffix[base] = previous

    def show(self, t: s.Term, prec: int) -> str:
        kind = type(t)
        if kind is s.Lam:
            return self._paren(self._lam(t), prec > _TOP)
        if kind is s.Pi:
            return self._paren(self._pi(t), prec > _TOP)
        if kind is s.Ann:
            return self._paren(f"{self.show(t.term, _APP)} : {self.show(t.type, _TOP)}", prec > _TOP)
        if kind is s.App:
            return self._app(t, prec)
        if kind is s.Succ:
            return self._succ(t, prec)
        if kind in _BUILTIN_NAMES:
            parts = [_BUILTIN_NAMES[kind]] + [self.show(c, _ATOM) for c in s.children(t)]
            return self._paren(" ".join(parts), prec > _APP)
        return self._atom(t)

    @staticmethod
    def _paren(text: str, needed: bool) -> str:
        return f"({text})" if needed else text

    def _lam(self, t: s.Term) -> str:
        names = []
        while type(t) is s.Lam:
            names.append(self.bind(t.name))
            t = t.body
        body = self.show(t, _TOP)
        self.unbind(len(names))
        return "\\" + " ".join(names) + " -> " + body

    def _pi(self, t: s.Pi) -> str:
        if id(t) not in self.used:
            domain = self.show(t.domain, _APP)
            self.bind_anonymous()
            codomain = self.show(t.codomain, _TOP)
            self.unbind()
            return f"{domain} -> {codomain}"
        binders = []
        opened = 0
        while type(t) is s.Pi and id(t) in self.used:
            domain = self.show(t.domain, _TOP)
            binders.append(f"({self.bind(t.name)} : {domain})")
            opened += 1
            t = t.codomain
        body = self.show(t, _TOP)
        self.unbind(opened)
        return "forall " + " ".join(binders) + " . " + body

    def _app(self, t: s.Term, prec: int) -> str:
        args = []
        while type(t) is s.App:
            args.append(t.arg)
            t = t.fun
        parts = [self.show(t, _ATOM)] + [self.show(a, _ATOM) for a in reversed(args)]
        return self._paren(" ".join(parts), prec > _APP)

    def _succ(self, t: s.Term, prec: int) -> str:
        count = 0
        while type(t) is s.Succ:
            count += 1
            t = t.pred
        text = "Succ " + "(Succ " * (count - 1) + self.show(t, _ATOM) + ")" * (count - 1)
        return self._paren(text, prec > _APP)

    def _atom(self, t: s.Term) -> str:
        kind = type(t)
        if kind is s.Star:
            return universe_name(t.level)
        if kind is s.Nat:
            return "Nat"
        if kind is s.Zero:
            return "Zero"
        if kind is s.Bound:
            position = len(self.scope) - 1 - t.index
            return self.scope[position] if position >= 0 else f"#{t.index}"
        if kind is s.Free:
            return self._free(t.name)
        raise TypeError(f"cannot print {kind.__name__}")

    def _free(self, name: object) -> str:
        if type(name) is Global:
            return name.name
        if type(name) is Local:
            return self.local_names[name.level] if name.level < len(self.local_names) else f"%{name.level}"
        if type(name) is Quote:
            return f"?{name.level}"
        if type(name) is Pad:
            return "_"
        raise TypeError(f"unknown name {name!r}")
