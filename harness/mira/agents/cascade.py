"""``cascade:MODEL_SPEC``: the rule responder first, a model responder for what the rule cannot read.

The rule responder (``rule``) decides every request it reads as naming something: the hint (offered), the target,
two or more quantities, everything B has. Requests it reads as naming nothing it knows (``nothing_named``), a fact A
already has (``known_fact``, which a described phrase read wrongly can give) or an unnamed quantity (``not_held``)
go, in one batch, to the model responder named by the spec's argument (``cascade:openai:gpt-4o-mini``,
``cascade:vllm:/models/llama``), which sees only B's facts and the request, as in a run. Its offer stands only when
it quotes the hint's own constraint; an offer of another of B's facts, a decline and an unreadable reply are
declines. So the rule's decisions keep their precision and cost nothing, and the model reads what the rule's
phrase lists miss (slots described in words: issue 28): on the blind file ``heldout_requests_styles12.jsonl`` a
model read 51 of the 54 described requests the rule offered 35 of (``docs/harness.md``, rule/7).

Options: ``defer=nothing_named,known_fact,not_held`` (the rule's outcomes sent to the model); every other option
goes to the model responder (``base_url=...``, ``temperature=0``). An instance with k > 1 withheld facts (the hard
tier) is decided by the rule alone. Every decision's rationale records the rule's reading and, when the model was
asked, what it answered (``"deferred"``, ``"model"``).
"""

from __future__ import annotations

from typing import Any

from harness import registry
from harness.errors import HarnessError
from harness.mira.agents.rule import RuleResponder
from harness.mira.audit import offer_is_canonical
from harness.mira.types import Responder, ResponderDecision, ResponderTurn

DEFERRED = ("nothing_named", "known_fact", "not_held")
READINGS = frozenset(("nothing_named", "known_fact", "not_held", "other_slot", "ambiguous", "target",
                      "two_quantities", "everything", "too_many_names", "too_long"))


class CascadeResponder(Responder):
    privileged = True

    def __init__(self, model: Responder, defer: tuple[str, ...] = DEFERRED):
        unknown = sorted(set(defer) - READINGS)
        if unknown:
            raise HarnessError(f"cascade: defer names no reading of the rule responder: {', '.join(unknown)}; "
                               f"known: {', '.join(sorted(READINGS))}")
        if getattr(model, "privileged", False):
            raise HarnessError(f"cascade: the model responder {model.spec!r} must be one that sees only B's facts")
        self.rule = RuleResponder()
        self.model = model
        self.defer = tuple(dict.fromkeys(defer))

    @classmethod
    def from_spec(cls, arg: str | None, options: dict[str, str]) -> CascadeResponder:
        if not arg:
            raise HarnessError("cascade needs a model responder: cascade:openai:gpt-4o-mini, cascade:vllm:PATH, ...")
        options = dict(options)
        defer = tuple(d.strip() for d in options.pop("defer", ",".join(DEFERRED)).split(",") if d.strip())
        return cls(registry.create("mira.responder", arg, options), defer)

    def describe(self) -> dict[str, Any]:
        model = self.model.describe()
        return {**super().describe(), "deterministic": bool(model.get("deterministic")),
                "rule": self.rule.describe()["matcher"], "defer": list(self.defer), "model": model,
                "prompt_version": model.get("prompt_version"), "decoding": model.get("decoding")}

    def stats(self) -> dict[str, Any]:
        report = getattr(self.model, "stats", None)
        return report() if callable(report) else {}

    def close(self) -> None:
        self.model.close()

    def respond(self, turns: list[ResponderTurn]) -> list[ResponderDecision]:
        decisions = self.rule.respond(turns)
        asked = [i for i, (turn, d) in enumerate(zip(turns, decisions, strict=True)) if self._defers(turn, d)]
        if not asked:
            return decisions
        blind = [ResponderTurn(turns[i].instance_id, turns[i].family, turns[i].constraints, turns[i].request)
                 for i in asked]
        for i, answer in zip(asked, self.model.respond(blind), strict=True):
            decisions[i] = self._merged(turns[i], decisions[i], answer)
        return decisions

    def _defers(self, turn: ResponderTurn, decision: ResponderDecision) -> bool:
        instance = turn.privileged or {}
        if len(instance.get("minimal_hint_spec", {}).get("atomic_hints", ())) != 1:
            return False
        return decision.kind == "decline" and (decision.rationale or {}).get("rule") in self.defer

    def _merged(self, turn: ResponderTurn, ruled: ResponderDecision, answer: ResponderDecision) -> ResponderDecision:
        hint = turn.privileged["minimal_hint_spec"]["atomic_hints"][0]["text"]  # type: ignore[index]
        said = "unreadable" if answer.parse_error else answer.kind
        if answer.kind == "offer" and not offer_is_canonical(answer.constraint_quoted, answer.hint, hint,
                                                             turn.constraints):
            said = "offer of another fact"
        rationale = {**(ruled.rationale or {}), "deferred": (ruled.rationale or {}).get("rule"), "model": said,
                     "model_spec": self.model.spec}
        if said == "offer":
            return ResponderDecision.offer(hint, hint, answer.message, usage=answer.usage,
                                           rationale={**rationale, "rule": "model_offer"})
        return ResponderDecision.decline(answer.message, answer.parse_error, usage=answer.usage, rationale=rationale)
