"""The ``copy`` solver: asks for what its view names as missing, then guesses (issue 24's standing check).

It reads nothing but its own turn (not ``privileged``) and never reasons about the mathematics:

* first turn: if A's view carries a slot notice (a ``domain`` constraint with ``missing_slot``, as in the
  ``slot_notice`` ablation), it asks ``"What is <missing_slot>?"``; otherwise it asks for the first quantity
  its view mentions without giving it a value (``first_unvalued_name``, below), and, when the view mentions
  none, for its first unknown (the question's own quantity, which is always declined);
* every later turn: the fixed guess of ``guess`` (0 in the answer format); except in the hard tier
  (``SolverTurn.gaps_unstated``), where after an offer, while it may still ask, it asks for the first name that its
  view and B's offers leave without a value (another gap at k = 2), and guesses when there is none.

Its first-request success is therefore what a solver gets from copying a name: near 1 when the views
announce the gap, near 0 when they do not (a view that names the withheld quantity some other way shows up
here). The scan is deliberately naive; finding the slot from the structure of the facts is the skill the
benchmark measures, so it is not this agent's job.

**The scan** reads the rendered lines of A's view (``turn.constraints``), in order, as text:

* *Names* are symbol-like tokens: a word with a digit suffix (``R4``, ``m10``, ``x0``), a word with ``_`` indices
  (``lambda_1``, ``y_3``, ``u_2_0``), a word with ``[..]`` indices (``A[0][1]``, ``P[1][0]``, ``E[2][1]``), a word
  with a parenthesised argument written without a space (``P(1->2)``, ``rho(1,2)``, ``p(3)``, ``cell(1,0)``,
  ``a(1)``, ``sign(x0)``, ``P(H)``), and a single letter (``c``, ``t``). Not names: the English words "a", "A" and
  "I", and a single letter that is an index (``i``, ``j``, ``k``, ``n``, or a letter used as an index of a
  template name in the same view, e.g. ``r`` and ``c`` of ``M[r][c]``).
* *Templates* are skipped: a name whose index holds a lone index letter (i, j, k, n, r, c, s, o: ``lambda_i``,
  ``u_i_j``, ``cell(i,j)``, ``x_j``, ``A[i][0]``, ``M[r][c]``, ``E[s][o]``, ``a(n+2)``) names a family of
  quantities, not one.
* A name is *given a value* where the view states ``NAME = value``, ``NAME = expression = value`` or
  ``NAME: expression = value`` (the value a number, a fraction or a parenthesised list of numbers), with NAME
  not right after an arithmetic operator (``- c = -17`` gives a right-hand side, not c).
* *Enumerations are skipped* (issue 24's own design): a run of three or more names separated only by commas and
  "and" is the view's complete, ordered list of the quantities of one kind ("The rates are lambda_0, lambda_1,
  lambda_2, mu_1, mu_2, mu_3"); the withheld slot of a Type-B view is in such a list by design, and the gap is
  only its absence from the values that follow. A name mentioned only inside enumerations is not a "quantity
  the view mentions without a value"; a name also mentioned elsewhere (a resistor in the circuit's structure) is.

The request is for the first name, in reading order, mentioned outside an enumeration and never given a value.
Without the enumeration rule, this scan finds the gap in almost every Type-B default view
(``copy:literal`` reads them; ``benchmarks/bench_copy_solver.py --literal`` prints both, docs/harness.md has the
figures).
"""

from __future__ import annotations

import json
import re
from typing import Any

from generators.base import is_slot_notice
from harness.errors import HarnessError
from harness.mira.agents.common import SimulatedLatency, reject_unknown_options, typed_zero
from harness.mira.types import Exchange, Solver, SolverAction, SolverTurn

NAME = re.compile(
    r"(?<![\w\[(_^.'’])"
    r"(?:[A-Za-z]+(?:_[A-Za-z0-9]+)+"  # lambda_1, u_2_0, y_3, lambda_i
    r"|[A-Za-z]+(?:\[[A-Za-z0-9+\-]+\])+"  # A[0][1], M[r][c]
    r"|[A-Za-z]+\([^()\s][^()]*\)"  # P(1->2), rho(1,2), cell(1,0), sign(x0), P(H), a(n+2)
    r"|[A-Za-z]+\d+"  # R4, m10, x0, e01
    r"|[A-Za-z])"  # c, t
    r"(?![\w\[(])"
)
ENGLISH_LETTERS = frozenset({"a", "A", "I"})
INDEX_LETTERS = frozenset({"i", "j", "k", "n"})
TEMPLATE_LETTERS = INDEX_LETTERS | {"r", "c", "s", "o"}  # M[r][c], E[s][o]
_INDEX_PART = re.compile(r"(?<![A-Za-z])([A-Za-z])(?![A-Za-z])")
NUMBER = r"[-−+]?\d+(?:/\d+)?(?!\.\d|[\w(\[])"
VALUE = rf"(?:{NUMBER}|\(\s*{NUMBER}(?:\s*,\s*{NUMBER})*\s*\))"
GIVEN_AFTER = re.compile(rf"\s*(?:=(?:[^=,;:]*?=)?|:[^=;]*?=)\s*{VALUE}")
OPERATOR_BEFORE = re.compile(r"[+\-−*/·^×]\s*$")
LIST_GLUE = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)")
MIN_ENUMERATION = 3


class CopySolver(Solver):
    """``copy`` skips enumerations; ``copy:literal`` does not (to measure what the enumerations give away)."""

    def __init__(self, latency: SimulatedLatency | None = None, skip_enumerations: bool = True):
        self.latency = latency or SimulatedLatency({})
        self.skip_enumerations = skip_enumerations

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> CopySolver:
        latency = SimulatedLatency(options)
        if arg not in (None, "literal"):
            raise HarnessError(f"agent 'copy' takes no ':ARG' but ':literal' (got {arg!r})")
        reject_unknown_options("copy", None, options)
        return cls(latency, skip_enumerations=arg is None)

    def describe(self) -> dict[str, Any]:
        skipped = "enumerations skipped" if self.skip_enumerations else "enumerations read (literal)"
        return {**super().describe(),
                "strategy": "asks for the slot its view names as missing, else the first quantity its view mentions "
                            f"without a value ({skipped}), else its first unknown; then answers 0"}

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        self.latency.wait()
        return [self.decide(turn) for turn in turns]

    def decide(self, turn: SolverTurn) -> SolverAction:
        if not turn.must_answer and turn.gaps_unstated and turn.history and _was_offer(turn.history[-1]):
            found = first_unvalued_name([*turn.constraints, *_offered(turn)], self.skip_enumerations)
            if found:
                return SolverAction.ask(f"What is {found}?")
        if turn.history or turn.must_answer:
            guess = typed_zero(turn.answer_type, turn.answer_keys)
            return SolverAction.final(guess, json.dumps(guess))
        return SolverAction.ask(copied_request(turn, self.skip_enumerations))


def _was_offer(exchange: Exchange) -> bool:
    return exchange.decision is not None and exchange.decision.kind == "offer"


def _offered(turn: SolverTurn) -> list[str]:
    """The facts B has offered so far (their quoted text)."""
    return [e.decision.constraint_quoted for e in turn.history if _was_offer(e) and e.decision.constraint_quoted]


def copied_request(turn: SolverTurn, skip_enumerations: bool = True) -> str:
    """The request a copier composes from its view alone."""
    named = [c["missing_slot"] for c in turn.view_machine if is_slot_notice(c) and isinstance(c["missing_slot"], str)]
    if named:
        return f"What is {named[0]}?"
    found = first_unvalued_name(turn.constraints, skip_enumerations)
    if found:
        return f"What is {found}?"
    if turn.unknowns:
        return f"What is {turn.unknowns[0]}?"
    return "What is the value you hold?"


def first_unvalued_name(lines: list[str], skip_enumerations: bool = True) -> str | None:
    """The first name the lines mention (outside enumerations) that they never give a value; see the docstring."""
    mentions = [(m, line) for line in lines for m in NAME.finditer(line)]  # m.string is the line it was found in
    index_letters = INDEX_LETTERS | {x for m, _ in mentions for x in _template_letters(m.group())}
    names = [(m, line) for m, line in mentions if _is_name(m.group(), index_letters)]
    valued = {m.group() for m, line in names if _given_a_value(m, line)}
    listed = _in_enumerations(names) if skip_enumerations else set()
    for k, (m, _) in enumerate(names):
        if k not in listed and m.group() not in valued:
            return m.group()
    return None


def _indices_of(name: str) -> str:
    """The index part of a name: after the first ``_``, ``[`` or ``(``; empty for ``R4`` or ``c``."""
    cut = re.search(r"[_\[(]", name)
    return name[cut.start():] if cut else ""


def _template_letters(name: str) -> set[str]:
    return set(_INDEX_PART.findall(_indices_of(name))) & TEMPLATE_LETTERS


def _is_name(name: str, index_letters: set[str]) -> bool:
    if len(name) == 1:
        return name not in ENGLISH_LETTERS and name not in index_letters
    return not _template_letters(name)


def _given_a_value(m: re.Match[str], line: str) -> bool:
    return bool(GIVEN_AFTER.match(line, m.end())) and not OPERATOR_BEFORE.search(line[: m.start()])


def _in_enumerations(names: list[tuple[re.Match[str], str]]) -> set[int]:
    """Positions (in ``names``) of the names inside a run of three or more joined only by commas and "and"."""
    listed: set[int] = set()
    run = [0] if names else []
    for k in range(1, len(names) + 1):
        joined = k < len(names) and names[k][0].string is names[k - 1][0].string and bool(
            LIST_GLUE.fullmatch(names[k][1][names[k - 1][0].end():names[k][0].start()]))
        if joined:
            run.append(k)
            continue
        if len(run) >= MIN_ENUMERATION:
            listed.update(run)
        run = [k]
    return listed
