"""The audit loop: one session as an episode of ``harness.scheduler`` (role ``agent``).

Each step the episode hands the agent an ``ElenchosTurn`` and executes the ``ToolCall`` it gets back on its
``AuditSession``. The session ends

* with ``end_reason = "submitted"`` when a submission is accepted;
* with ``"no_submission"`` when the budget is spent and ``GRACE_TURNS`` more turns pass without an accepted
  submission (the paper: "must submit once the budget is exhausted");
* with ``"turn_limit"`` after ``P_max + EXTRA_TURNS`` turns (free and invalid calls cannot loop forever);
* with ``"internal_error"`` when handling a reply raised unexpectedly (``fail``; recorded, the run goes on).

On a turn with ``must_submit`` (budget spent, or within ``GRACE_TURNS`` of the turn limit) every call other
than ``submit_answer`` is refused with an error. ``record()`` is the transcript line
(``schemas/elenchos_transcript.schema.json``); everything the scorer needs is in it.
"""

from __future__ import annotations

from typing import Any

from harness.elenchos.metrics import session_metrics
from harness.elenchos.tools import AuditSession
from harness.elenchos.types import ElenchosTurn, ToolCall, ToolExchange, ToolResult
from harness.scheduler import Pending
from harness.text import stored_reply

AGENT = "agent"
TRANSCRIPT_FORMAT = "elenchos-transcript/1"
EXTRA_TURNS = 25
GRACE_TURNS = 3


class ElenchosEpisode:
    def __init__(self, record: dict[str, Any], level0_probes: dict[str, str] | None = None, privileged: bool = False):
        self.record = record
        self.session = AuditSession(record)
        self.level0 = dict(level0_probes or {}) if record["level"] == 0 else {}
        self.privileged = privileged
        self.max_turns = self.session.budget + EXTRA_TURNS
        self.turn = 0
        self.exhausted_at: int | None = None  # the turn after which the budget was 0
        self.history: list[ToolExchange] = []
        self.events: list[dict[str, Any]] = []
        self.usage: dict[str, int] = {}
        self.end_reason: str | None = None

    @property
    def id(self) -> str:
        return self.record["id"]

    def must_submit(self) -> bool:
        return self.session.budget_left <= 0 or self.max_turns - self.turn <= GRACE_TURNS

    def pending(self) -> Pending | None:
        if self.end_reason is not None:
            return None
        meta = self.record.get("metadata", {})
        turn = ElenchosTurn(
            session_id=self.id,
            level=self.session.level,
            prompt_id=self.record["prompt"],
            k_told=list(meta.get("k_told", [])),
            allow_neither=self.session.allow_neither,
            budget=self.session.budget,
            probes_used=self.session.probes_used,
            turn=self.turn + 1,
            max_turns=self.max_turns,
            must_submit=self.must_submit(),
            history=list(self.history),
            level0_probes=self.level0,
            privileged=self.record if self.privileged else None,
        )
        return Pending(AGENT, turn)

    def deliver(self, role: str, reply: Any) -> None:
        call = reply if isinstance(reply, ToolCall) else ToolCall.invalid(repr(reply), "the agent returned no ToolCall")
        must_submit = self.must_submit()
        self.turn += 1
        if must_submit and call.tool != "submit_answer" and call.parse_error is None:
            why = "the probe budget is exhausted" if self.session.budget_left <= 0 else "this is one of the last turns"
            result = self.session.refuse(call, f"{why}: only submit_answer is possible now")
        else:
            result = self.session.execute(call)
        self._log(call, result, must_submit)
        self.history.append(ToolExchange(call, result))
        if self.session.budget_left <= 0 and self.exhausted_at is None:
            self.exhausted_at = self.turn
        if self.session.finished:
            self.end_reason = "submitted"
        elif self.turn >= self.max_turns:
            self.end_reason = "turn_limit"
        elif self.exhausted_at is not None and self.turn - self.exhausted_at >= GRACE_TURNS:
            self.end_reason = "no_submission"

    def fail(self, message: str) -> None:
        """An unexpected error while handling a reply: the session ends as ``internal_error`` (no submission)."""
        self.events.append({"turn": max(self.turn, 1), "tool": "(internal)", "arguments": {}, "ok": False, "cost": 0,
                            "error": message})
        self.end_reason = "internal_error"

    def _log(self, call: ToolCall, result: ToolResult, must_submit: bool) -> None:
        event: dict[str, Any] = {"turn": self.turn, "tool": call.tool, "arguments": call.arguments,
                                 "ok": result.ok, "cost": result.cost}
        if result.ok:
            event["result"] = result.content
        else:
            event["error"] = result.error
        if must_submit:
            event["must_submit"] = True
        if call.message:
            event.update(stored_reply(call.message))
        if call.parse_error is not None:
            event["parse_error"] = call.parse_error
        self.events.append(event)
        for key, value in (call.usage or {}).items():
            if isinstance(value, int | float):
                self.usage[key] = self.usage.get(key, 0) + value

    def record_line(self) -> dict[str, Any]:
        """The transcript line of the finished session."""
        line: dict[str, Any] = {
            "format": TRANSCRIPT_FORMAT,
            "instance_id": self.id,
            "session": self.record,
            "events": self.events,
            "submission": self.session.submission,
            "end_reason": self.end_reason,
            "probes_used": self.session.probes_used,
            "turns": self.turn,
        }
        line["live_metrics"] = session_metrics(line)
        if self.usage:
            line["usage"] = {"agent": self.usage}
        return line
