"""One MIRA-Math instance as a state machine: solver turn -> (responder turn -> solver turn)* -> done.

Protocol (paper §2, decisions in ``docs/harness.md``):

* each solver turn is a request (free text), a final answer, or ``invalid`` (a parse failure);
* a request spends one unit of the budget (3 / 6 / 9 at effective difficulty 1 / 2 / 3) and goes to the
  responder, which offers or declines; a solver parse failure also spends one unit (it costs the turn);
* after the budget is spent the solver gets **one last turn** in which only an answer counts; a request
  there is recorded as ``request_refused`` and the episode ends without an answer;
* ``after_offer = "answer"`` (default, as the reference runner): after an offer (k > 1 withheld facts: once
  every one of them has been offered canonically) the next turn is that last turn; ``"continue"``: the solver may keep
  asking while budget remains;
* a responder reply that is not a well-formed offer becomes a decline (recorded with its parse error);
  the solver only ever sees the fixed decline message;
* oracle-hint condition: no responder; the canonical hints (all k of them) are given up front and the first
  turn is the last turn.

At k > 1 (the hard tier, docs/hard-tier.md) each offer is audited against every withheld fact (the offer event
names the one it is canonical for, ``hint_id``), and the transcript line and its live metrics add the per-hint
fields of the contract there; a line of a k = 1 instance is byte-identical to what it was before k > 1 existed.

The live counters here and the re-scorer (``harness.mira.metrics``) are independent implementations;
the tests check that they agree on every instance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.mira.audit import grade_answer, offer_is_canonical
from harness.mira.types import DECLINE_MESSAGE, Exchange, ResponderDecision, ResponderTurn, SolverAction, SolverTurn
from harness.scheduler import Pending, internal_error_message
from harness.text import stored_reply, token_estimate, word_count

TRANSCRIPT_FORMAT = "mira-transcript/1"
CONDITIONS = ("standard", "oracle_hint")
REGIMES = ("zero_shot", "four_shot")
AFTER_OFFER = ("answer", "continue")
SOLVER, RESPONDER = "solver", "responder"
HINT_FIELDS = ("slot", "kind", "text", "constraint", "value")  # copied into each transcript line for the audit


@dataclass(frozen=True)
class EpisodeConfig:
    condition: str = "standard"
    regime: str = "zero_shot"
    after_offer: str = "answer"
    solver_privileged: bool = False
    responder_privileged: bool = False


class MiraEpisode:
    """Advance with ``deliver``; read the finished transcript line with ``record()``."""

    def __init__(self, instance: dict[str, Any], config: EpisodeConfig):
        self.instance = instance
        self.config = config
        self.id: str = instance["id"]
        views = {v["agent_id"]: v["private_data"] for v in instance["agent_views"]}
        self.view_a, self.view_b = views["A"], views["B"]
        spec = instance["minimal_hint_spec"]
        self.hints: list[dict[str, Any]] = list(spec["atomic_hints"])
        self.hint = self.hints[0]
        self.k = int(spec.get("k_min", 1))
        self.hint_ids = [str(h.get("hint_id") or f"h{n}") for n, h in enumerate(self.hints, start=1)]
        # the hard tier's prompts never say how many facts are missing (k = 1 and k = 2 look alike there)
        self.gaps_unstated = self.k > 1 or int(instance.get("requested_difficulty", instance["difficulty"])) > 3
        self.oracle_hint = config.condition == "oracle_hint"
        self.budget = 0 if self.oracle_hint else int(instance["request_budget"])
        self.events: list[dict[str, Any]] = []
        self.history: list[Exchange] = []
        self.turn = 0
        self.units_used = 0
        self.counts = {"requests": 0, "offers": 0, "declines": 0, "canonical_offers": 0, "noncanonical_offers": 0,
                       "solver_parse_errors": 0, "responder_parse_errors": 0}
        self.first_offer_at: int | None = None  # request number that got the first offer
        self.acquired: dict[str, int] = {}  # k > 1: hint id -> the request number that first got it, in order
        self.words = {"solver": 0, "responder": 0}
        self.usage: dict[str, dict[str, int]] = {}
        self.final: dict[str, Any] = {"submitted": False, "raw": None, "normalized": None, "parse_error": None,
                                      "correct": False}
        self.end_reason: str | None = None
        self._request: str | None = None
        if self.oracle_hint:
            for hint in self.hints if self.k > 1 else [self.hint]:
                self.events.append({"turn": 0, "agent": "harness", "type": "hint_given", "hint": hint["text"]})
        self._pending: Pending | None = Pending(SOLVER, self._solver_turn())

    # ------------------------------------------------------------------ scheduler interface
    def pending(self) -> Pending | None:
        return self._pending

    def deliver(self, role: str, reply: Any) -> None:
        if self._pending is None or role != self._pending.role:
            raise RuntimeError(f"{self.id}: got a {role} reply while waiting for {self._pending}")
        if role == SOLVER:
            self._on_solver(reply)
        else:
            self._on_responder(reply)

    def fail(self, message: str) -> None:
        """An unexpected error while handling a reply: the episode ends as ``internal_error`` (no answer graded)."""
        self.events.append({"turn": self.turn, "agent": "harness", "type": "internal_error", "error": message})
        self.end_reason = "internal_error"
        self._pending = None

    def safe_record(self) -> dict[str, Any]:
        """``record()``; should building it fail, the episode is failed and a record of the failure returned."""
        try:
            return self.record()
        except Exception as exc:  # a record that cannot be built is recorded, not fatal
            self.fail(internal_error_message("transcript record", exc))
        try:
            return self.record()
        except Exception:
            return {"format": TRANSCRIPT_FORMAT, "instance_id": self.id, "family": self.instance.get("family"),
                    "events": self.events[-1:], "end_reason": "internal_error"}

    # ------------------------------------------------------------------ turns
    def _must_answer(self) -> bool:
        if self.units_used >= self.budget:
            return True
        if self.config.after_offer != "answer":
            return False
        # k > 1: once every withheld fact has been offered (a repeated offer of one fact does not end the asking)
        return self.counts["offers"] > 0 if self.k == 1 else len(self.acquired) >= self.k

    def _solver_turn(self) -> SolverTurn:
        self.turn += 1
        inst = self.instance
        return SolverTurn(
            instance_id=self.id,
            family=inst["family"],
            question=inst["question"],
            constraints=list(self.view_a["constraints_text"]),
            unknowns=list(self.view_a["unknowns"]),
            answer_type=inst["answer_type"],
            answer_keys=list(inst["answer_keys"]),
            budget=self.budget,
            requests_used=self.units_used,
            must_answer=self._must_answer(),
            history=list(self.history),
            few_shot_examples=list(inst.get("few_shot_examples") or []) if self.config.regime == "four_shot" else [],
            hint=self.hint["text"] if self.oracle_hint else None,
            hints=[h["text"] for h in self.hints] if self.oracle_hint else [],
            gaps_unstated=self.gaps_unstated,
            view_machine=self.view_a["constraints_machine"],
            target=inst["target"],
            turn=self.turn,
            privileged=inst if self.config.solver_privileged else None,
        )

    def _on_solver(self, action: SolverAction) -> None:
        if not isinstance(action, SolverAction):
            action = SolverAction.invalid(repr(action), f"solver returned {type(action).__name__}, not SolverAction")
        must_answer = self._pending.payload.must_answer  # type: ignore[union-attr]
        self._count_words("solver", action.message)
        self._add_usage(SOLVER, action.usage)
        if action.kind == "answer":
            self._finish_with_answer(action)
        elif action.kind == "request" and (action.request or "").strip():
            if must_answer:
                self._log("A", "request_refused", action.message, request=action.request)
                self._finish(None, "request_after_budget" if self.units_used >= self.budget else "request_after_offer")
                return
            self.units_used += 1
            self.counts["requests"] += 1
            self._request = action.request
            self._log("A", "request", action.message, request=action.request)
            self._pending = Pending(RESPONDER, self._responder_turn(action.request))
        else:
            error = action.parse_error or ("empty request" if action.kind == "request" else f"bad kind {action.kind!r}")
            self.counts["solver_parse_errors"] += 1
            self._log("A", "parse_error", action.message, parse_error=error)
            if must_answer:
                self._finish(None, "final_turn_parse_error")
                return
            self.units_used += 1
            self.history.append(Exchange(None, None, error))
            self._pending = Pending(SOLVER, self._solver_turn())

    def _responder_turn(self, request: str) -> ResponderTurn:
        return ResponderTurn(
            instance_id=self.id,
            family=self.instance["family"],
            constraints=list(self.view_b["constraints_text"]),
            request=request,
            privileged=self.instance if self.config.responder_privileged else None,
        )

    def _on_responder(self, decision: ResponderDecision) -> None:
        if not isinstance(decision, ResponderDecision):
            decision = ResponderDecision.decline(repr(decision), f"responder returned {type(decision).__name__}")
        self._count_words("responder", decision.message)
        self._add_usage(RESPONDER, decision.usage)
        error = decision.parse_error
        well_formed = decision.kind == "offer" and decision.has_exact_match and bool(decision.constraint_quoted)
        if decision.kind == "offer" and not well_formed and error is None:
            error = "offer without has_exact_match=true and a quoted constraint"
        if well_formed and error is None:
            self._record_offer(decision)
        else:
            self._record_decline(decision, error)
        self._pending = Pending(SOLVER, self._solver_turn())

    def _record_offer(self, decision: ResponderDecision) -> None:
        self.counts["offers"] += 1
        if self.first_offer_at is None:
            self.first_offer_at = self.counts["requests"]
        hint = decision.hint if decision.hint else decision.constraint_quoted
        if self.k > 1:
            hint_id = self._canonical_for(decision)
            canonical = hint_id is not None
            if canonical and hint_id not in self.acquired:
                self.acquired[hint_id] = self.counts["requests"]
            self._log("B", "offer", decision.message, has_exact_match=True,
                      constraint_quoted=decision.constraint_quoted, hint=hint, hint_id=hint_id,
                      rationale=decision.rationale)
        else:
            others = [t for t in self.view_b["constraints_text"] if t != self.hint["text"]]
            canonical = offer_is_canonical(decision.constraint_quoted, decision.hint, self.hint["text"], others)
            self._log("B", "offer", decision.message, has_exact_match=True,
                      constraint_quoted=decision.constraint_quoted, hint=hint, rationale=decision.rationale)
        self.counts["canonical_offers" if canonical else "noncanonical_offers"] += 1
        shown = ResponderDecision.offer(decision.constraint_quoted or "", hint or "")
        self.history.append(Exchange(self._request, shown))

    def _canonical_for(self, decision: ResponderDecision) -> str | None:
        """The id of the withheld fact the offer is canonical for (B's other facts as ``others``), or None."""
        for hint, hint_id in zip(self.hints, self.hint_ids, strict=True):
            others = [t for t in self.view_b["constraints_text"] if t != hint["text"]]
            if offer_is_canonical(decision.constraint_quoted, decision.hint, hint["text"], others):
                return hint_id
        return None

    def _record_decline(self, decision: ResponderDecision, error: str | None) -> None:
        self.counts["declines"] += 1
        if error is not None:
            self.counts["responder_parse_errors"] += 1
        self._log("B", "decline", decision.message, parse_error=error, rationale=decision.rationale)
        self.history.append(Exchange(self._request, ResponderDecision.decline(DECLINE_MESSAGE)))

    def _finish_with_answer(self, action: SolverAction) -> None:
        self._log("A", "final", action.message, answer=action.answer)
        grade = grade_answer(action.answer, self.instance["answer_type"], list(self.instance["answer_keys"]),
                             self.instance["global_solution"])
        self._finish({"submitted": True, "raw": action.answer, **grade}, "answered")

    def _finish(self, final: dict[str, Any] | None, reason: str) -> None:
        if final is not None:
            self.final = final
        self.end_reason = reason
        self._pending = None

    # ------------------------------------------------------------------ bookkeeping
    def _log(self, agent: str, kind: str, message: str, **fields: Any) -> None:
        event: dict[str, Any] = {"turn": self.turn, "agent": agent, "type": kind}
        event.update(stored_reply(message) if isinstance(message, str) else {"message": message})
        if "message_chars" in event:  # the scorer recounts words from the message: keep the whole reply's count
            event["message_words"] = word_count(message)
        event.update({k: v for k, v in fields.items() if v is not None or k in ("answer", "hint_id")})
        self.events.append(event)

    def _count_words(self, side: str, message: str | None) -> None:
        self.words[side] += word_count(message)

    def _add_usage(self, role: str, usage: dict[str, int] | None) -> None:
        if usage:
            totals = self.usage.setdefault(role, {})
            for key, value in usage.items():
                if isinstance(value, int | float):
                    totals[key] = totals.get(key, 0) + value
            totals["calls"] = totals.get("calls", 0) + 1

    def live_metrics(self) -> dict[str, Any]:
        c = self.counts
        messages = c["offers"] + c["declines"]
        words = self.words["solver"] + self.words["responder"]
        offered = c["offers"] > 0
        canonical = self.oracle_hint or c["canonical_offers"] > 0
        metrics = {
            "correct": int(self.final["correct"]),
            "answered": int(self.final["submitted"]),
            "requests": c["requests"],
            "offers": c["offers"],
            "declines": c["declines"],
            "hints": c["offers"],
            "canonical_offers": c["canonical_offers"],
            "noncanonical_offers": c["noncanonical_offers"],
            "hit_rate": c["offers"] / messages if messages else None,
            "first_request_success": int(self.first_offer_at == 1),
            "requests_before_first_offer": None if self.first_offer_at is None else self.first_offer_at - 1,
            "solver_parse_errors": c["solver_parse_errors"],
            "responder_parse_errors": c["responder_parse_errors"],
            "words": words,
            "tokens": token_estimate(words),
            "O": int(offered or self.oracle_hint),
            "C": int(canonical),
            "F": int(self.final["correct"]),
        }
        return metrics if self.k == 1 else {**metrics, **self._hint_metrics()}

    def _hint_metrics(self) -> dict[str, Any]:
        """What a k > 1 line adds: ``C`` = every hint acquired, and the per-hint metrics."""
        requests = self.counts["requests"]
        acquired = list(self.hint_ids) if self.oracle_hint else list(self.acquired)
        all_hints = int(len(acquired) == len(self.hint_ids))
        at = [0, *self.acquired.values()]  # request numbers of the acquisitions, after 0 for the start
        firsts = [int(at[i + 1] == at[i] + 1) for i in range(len(at) - 1)]
        return {
            "C": all_hints,
            "k": self.k,
            "hints_acquired": acquired,
            "all_hints": all_hints,
            "some_hints": int(0 < len(acquired) < len(self.hint_ids)),
            "requests_per_acquired_hint": requests / len(acquired) if acquired and not self.oracle_hint else None,
            "first_request_success_per_hint": sum(firsts) / len(firsts) if firsts else None,
        }

    def record(self) -> dict[str, Any]:
        """The transcript line: everything the scorer needs, with no reference to the dataset file."""
        inst = self.instance
        record: dict[str, Any] = {
            "format": TRANSCRIPT_FORMAT,
            "instance_id": self.id,
            "family": inst["family"],
            "type": inst["type"],
            "difficulty": inst["difficulty"],
            "requested_difficulty": inst.get("requested_difficulty", inst["difficulty"]),
            "condition": self.config.condition,
            "regime": self.config.regime,
            "after_offer": self.config.after_offer,
            "budget": self.budget,
            "answer_type": inst["answer_type"],
            "answer_keys": list(inst["answer_keys"]),
            "expected": inst["global_solution"],
            "canonical_hint": {k: self.hint[k] for k in HINT_FIELDS if k in self.hint},
            **({"k": self.k, "canonical_hints": [
                {"hint_id": hint_id, **{k: hint[k] for k in HINT_FIELDS if k in hint}}
                for hint, hint_id in zip(self.hints, self.hint_ids, strict=True)]} if self.k > 1 else {}),
            "b_constraints": list(self.view_b["constraints_text"]),
            "events": self.events,
            "final_answer": self.final,
            "end_reason": self.end_reason,
            "live_metrics": self.live_metrics(),
        }
        if inst.get("view_variant") is not None:  # absent from records made before the variants existed
            record["view_variant"] = inst["view_variant"]
        if self.usage:
            record["usage"] = self.usage
        return record
