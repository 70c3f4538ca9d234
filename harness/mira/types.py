"""What the MIRA-Math loop exchanges with its two agents, and the batched agent interfaces.

The loop never calls a model: it hands a *batch* of turns to an agent and gets one reply per turn back,
so a model backend (issue 7) makes one engine call per role and step for every pending instance.

What each side may see is fixed here:

* a solver turn carries A's view (``constraints``), the question, the answer format, the request budget,
  the exchanges so far and, in the four-shot regime, the worked examples;
* a responder turn carries only B's private constraints and the current request.

``privileged`` is filled with the whole instance record only for agents that declare
``privileged = True``: the deterministic reference agents (``rule``, ``oracle``), which use the
machine-readable hint specification instead of language understanding. Model backends never get it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

DECLINE_MESSAGE = "I do not have that specific information."

SolverActionKind = Literal["request", "answer", "invalid"]
DecisionKind = Literal["offer", "decline"]


@dataclass(frozen=True)
class ResponderDecision:
    """B's reply: an offer (quoted constraint + hint) or a decline (the fixed message, nothing else).

    ``message`` is the raw text the responder produced (a model's completion; a rendering for
    deterministic agents): it is stored and counted for tokens, but the solver is only ever shown the
    structured fields (``SolverTurn.history``), and after a decline only ``DECLINE_MESSAGE``.
    ``parse_error`` is set when a model reply could not be read; the loop then records a decline.
    ``rationale`` is why a deterministic responder decided as it did (the rule that decided, the phrases
    taken as asked and those set aside as context); it is recorded in the transcript event, never shown
    to the solver.
    """

    kind: DecisionKind
    has_exact_match: bool = False
    constraint_quoted: str | None = None
    hint: str | None = None
    message: str = DECLINE_MESSAGE
    parse_error: str | None = None
    usage: dict[str, int] | None = None
    rationale: dict[str, Any] | None = None

    @staticmethod
    def decline(message: str = DECLINE_MESSAGE, parse_error: str | None = None, **kw: Any) -> ResponderDecision:
        return ResponderDecision("decline", message=message, parse_error=parse_error, **kw)

    @staticmethod
    def offer(constraint_quoted: str, hint: str, message: str | None = None, **kw: Any) -> ResponderDecision:
        text = message if message is not None else constraint_quoted
        return ResponderDecision("offer", True, constraint_quoted, hint, text, **kw)


@dataclass(frozen=True)
class SolverAction:
    """A's move: a free-text request, a final answer, or ``invalid`` (unparseable model output).

    ``answer`` is the raw answer value (JSON value or text), read later by ``verifiers.answers``;
    ``message`` is the raw text the solver produced (stored and counted for tokens).
    """

    kind: SolverActionKind
    request: str | None = None
    answer: Any = None
    message: str = ""
    parse_error: str | None = None
    usage: dict[str, int] | None = None

    @staticmethod
    def ask(request: str, message: str | None = None, **kw: Any) -> SolverAction:
        return SolverAction("request", request=request, message=request if message is None else message, **kw)

    @staticmethod
    def final(answer: Any, message: str, **kw: Any) -> SolverAction:
        return SolverAction("answer", answer=answer, message=message, **kw)

    @staticmethod
    def invalid(message: str, parse_error: str, **kw: Any) -> SolverAction:
        return SolverAction("invalid", message=message, parse_error=parse_error, **kw)


@dataclass(frozen=True)
class Exchange:
    """One earlier solver turn as the solver sees it again: its request and B's (sanitised) reply.

    ``request`` is None for a turn lost to a solver parse failure (``solver_parse_error`` says why).
    ``decision`` is None for such a turn; for declines it carries only ``DECLINE_MESSAGE``.
    """

    request: str | None
    decision: ResponderDecision | None = None
    solver_parse_error: str | None = None


@dataclass(frozen=True)
class SolverTurn:
    instance_id: str
    family: str
    question: str
    constraints: list[str]  # A's constraints_text
    unknowns: list[str]
    answer_type: str
    answer_keys: list[str]
    budget: int  # requests allowed in this episode (0 under the oracle-hint condition)
    requests_used: int  # budget units spent so far (requests + turns lost to parse failures)
    must_answer: bool  # True on the last turn: a request is not allowed any more
    history: list[Exchange]
    few_shot_examples: list[dict[str, Any]] = field(default_factory=list)  # four-shot regime only
    hint: str | None = None  # oracle-hint condition: the canonical hint, given up front
    hints: list[str] = field(default_factory=list)  # oracle-hint condition: every canonical hint (k of them)
    gaps_unstated: bool = False  # the hard tier: prompts must not say how many facts are missing
    view_machine: list[dict[str, Any]] = field(default_factory=list)  # A's constraints, machine form
    target: dict[str, Any] = field(default_factory=dict)  # the machine-readable target (solver-visible)
    turn: int = 1
    privileged: dict[str, Any] | None = None  # the instance, only for ``privileged`` agents

    @property
    def requests_left(self) -> int:
        return max(0, self.budget - self.requests_used)


@dataclass(frozen=True)
class ResponderTurn:
    instance_id: str
    family: str
    constraints: list[str]  # B's constraints_text: the only facts B has
    request: str
    privileged: dict[str, Any] | None = None


class Agent:
    """Common surface of solvers and responders (and of later backends)."""

    spec: str = ""
    privileged: ClassVar[bool] = False  # receives the instance record (deterministic reference agents)

    def describe(self) -> dict[str, Any]:
        """Identity and decoding settings for ``run.json`` (never secrets)."""
        return {"spec": self.spec, "kind": type(self).__name__, "deterministic": True}

    def close(self) -> None:
        """Release engines, connections, threads."""


class Solver(Agent, ABC):
    @abstractmethod
    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        """One action per turn, same order; never raise for a bad model output (return ``invalid``)."""


class Responder(Agent, ABC):
    @abstractmethod
    def respond(self, turns: list[ResponderTurn]) -> list[ResponderDecision]:
        """One decision per turn, same order; a bad model output becomes a decline with ``parse_error``."""
