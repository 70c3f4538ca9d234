"""The kernel: persistent state, statements and probes.

A ``Kernel`` owns its configuration, limits and context (``globals``: name ->
type and, for ``let``, value).  ``probe(source)`` runs a probe and returns its
``Observation``:

1. A probe longer than ``Limits.max_probe_chars`` is rejected (``resource_limit``).
2. The whole probe is parsed first (cached per line); a parse error or a
   format error (``;``, no final ``eval``, ...) rejects it before anything runs.
3. Statements run in order.  Each ``assume``/``let`` that succeeds is kept in the
   context at once; the first statement that fails stops the probe, which is
   rejected with that statement's error (earlier statements stay).  A
   statement itself is atomic (``assume (a : T) (b : U)`` keeps both or neither).
4. Hitting a resource limit rolls the whole probe back: the state is unchanged.

Redeclaring a name is allowed; the newest declaration wins for later probes
(values computed earlier keep the old meaning, as in the tutorial).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import syntax as s
from .elaborate import Assume, Check, Eval, Let, Statement
from .errors import RESOURCE_LIMIT, KernelError, LimitExceeded
from .evaluation import Evaluator
from .frontend import parse_probe, parse_statements
from .limits import Budget, Limits, ensure_recursion_limit
from .mutations import KernelConfig
from .observation import Observation
from .pretty import pretty
from .quotation import quote0
from .typecheck import Checker
from .values import Value

INTERNAL_ERROR = "internal_error"  # a kernel bug; never produced on the test corpus


@dataclass(frozen=True, slots=True)
class GlobalEntry:
    type: Value
    value: Value | None  # None for an assumed name


class Kernel:
    """A LambdaPy kernel with a persistent context."""

    def __init__(self, config: KernelConfig | None = None, limits: Limits | None = None) -> None:
        self.config = config if config is not None else KernelConfig()
        self.limits = limits if limits is not None else Limits()
        self.globals: dict[str, GlobalEntry] = {}

    def reset(self) -> None:
        """Forget every assumption and definition."""
        self.globals = {}

    # -- probes --------------------------------------------------------------------------

    def probe(self, source: str) -> Observation:
        """Run one probe (``assume``/``let`` lines, then one ``eval``) and observe it."""
        ensure_recursion_limit(self.limits)
        if len(source) > self.limits.max_probe_chars:
            return _too_large(len(source), self.limits.max_probe_chars)
        try:
            statements = parse_probe(source, self.limits.max_term_depth)
        except KernelError as error:
            return Observation.rejected(error.category, error.message)
        outcome = self.run(statements, report_all=False)
        return outcome[-1] if outcome else Observation.rejected(INTERNAL_ERROR, "empty outcome")

    def execute(self, source: str) -> list[Observation]:
        """Run statements of any kind (no probe-format rules); one observation each.

        Used by the REPL: ``assume``/``let`` observe ``name : type``.  Stops at the
        first rejected statement.
        """
        ensure_recursion_limit(self.limits)
        if len(source) > self.limits.max_probe_chars:
            return [_too_large(len(source), self.limits.max_probe_chars)]
        try:
            statements = parse_statements(source, self.limits.max_term_depth)
        except KernelError as error:
            return [Observation.rejected(error.category, error.message)]
        return self.run(statements)

    def run(self, statements: list[Statement], report_all: bool = True) -> list[Observation]:
        """Run elaborated statements under one budget; stop at the first rejection.

        With ``report_all=False`` only the last statement's result is printed (the
        others observe an empty result), which is all a probe needs.
        """
        snapshot = dict(self.globals)
        budget = Budget(self.limits)
        observations: list[Observation] = []
        last = len(statements) - 1
        try:
            for index, statement in enumerate(statements):
                text = self._execute(statement, budget, report_all or index == last)
                observations.append(Observation.accepted(text))
        except LimitExceeded as error:
            self._restore(snapshot)
            observations.append(Observation.rejected(error.category, error.message))
        except KernelError as error:
            observations.append(Observation.rejected(error.category, error.message))
        except (RecursionError, MemoryError) as error:
            self._restore(snapshot)
            observations.append(Observation.rejected(RESOURCE_LIMIT, f"{type(error).__name__}"))
        except Exception as error:  # a kernel bug: still never escapes unclassified
            self._restore(snapshot)
            observations.append(Observation.rejected(INTERNAL_ERROR, type(error).__name__))
        return observations

    def _restore(self, snapshot: dict[str, GlobalEntry]) -> None:
        self.globals.clear()
        self.globals.update(snapshot)

    # -- statements ----------------------------------------------------------------------

    def _execute(self, statement: Statement, budget: Budget, report: bool) -> str:
        before = dict(self.globals) if isinstance(statement, Assume) and len(statement.bindings) > 1 else None
        try:
            return self._execute_statement(statement, Evaluator(self.config, self.globals, budget), report)
        except KernelError:
            if before is not None:
                self._restore(before)
            raise

    def _execute_statement(self, statement: Statement, ev: Evaluator, report: bool) -> str:
        checker = Checker(ev, self.globals)
        if isinstance(statement, Assume):
            lines = []
            for name, type_term in statement.bindings:
                checker.check_type(type_term)
                self._declare(name, GlobalEntry(ev.eval(type_term, ()), None))
                if report:
                    lines.append(f"{name} : {self._show(ev, self.globals[name].type)}")
            return "\n".join(lines)
        if isinstance(statement, Let):
            if statement.type is not None:
                checker.check_type(statement.type)
                type_value = ev.eval(statement.type, ())
                checker.check(statement.value, type_value)
            else:
                type_value = checker.infer(statement.value)
            self._declare(statement.name, GlobalEntry(type_value, ev.eval(statement.value, ())))
            return f"{statement.name} : {self._show(ev, type_value)}" if report else ""
        if isinstance(statement, Eval):
            type_value = checker.infer(statement.term)
            value = ev.eval(statement.term, ())
            return self._result(f"{self._show(ev, value)} : {self._show(ev, type_value)}")
        if isinstance(statement, Check):
            type_value = checker.infer(statement.term)
            term = statement.term.term if isinstance(statement.term, s.Ann) else statement.term
            return self._result(f"{pretty(term)} : {self._show(ev, type_value)}")
        raise TypeError(f"unknown statement {statement!r}")

    def _declare(self, name: str, entry: GlobalEntry) -> None:
        self.globals.pop(name, None)  # a redeclared name moves to the end of the context
        self.globals[name] = entry

    def _result(self, text: str) -> str:
        if len(text) > self.limits.max_result_chars:
            raise LimitExceeded(f"result too large ({self.limits.max_result_chars} characters)")
        return text

    @staticmethod
    def _show(ev: Evaluator, value: Value) -> str:
        return pretty(quote0(ev, value))

    # -- context -------------------------------------------------------------------------

    def list_context(self) -> str:
        """The current context, one declaration per line, oldest first."""
        ev = Evaluator(self.config, self.globals, Budget(self.limits))
        lines = []
        try:
            for name, entry in self.globals.items():
                type_text = self._show(ev, entry.type)
                if entry.value is None:
                    lines.append(f"assume {name} : {type_text}")
                else:
                    lines.append(f"let {name} : {type_text} = {self._show(ev, entry.value)}")
        except KernelError as error:
            lines.append(f"-- context too large to print ({error.message})")
        return "\n".join(lines)


def _too_large(size: int, limit: int) -> Observation:
    return Observation.rejected(RESOURCE_LIMIT, f"probe too large ({size} characters, limit {limit})")


def run_fresh(config: KernelConfig, source: str, limits: Limits | None = None) -> Observation:
    """Observe ``source`` on a fresh kernel with configuration ``config``."""
    return Kernel(config, limits).probe(source)
