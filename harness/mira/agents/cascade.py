"""``cascade:MODEL_SPEC``: the rule responder first, a model responder for the requests the rule declines.

The rule responder (``rule``) offers what it reads as asking for the hint alone, and declines "everything you have"
and the readings that name another of B's facts. Every other request it declines goes, in one batch, to the model
responder named by the spec's argument (``cascade:openai:gpt-4o-mini``, ``cascade:vllm:/models/llama``), which
sees only B's facts and the request, as in a run: requests it reads as naming nothing it knows
(``nothing_named``), a fact A already has (``known_fact``, which a described phrase read wrongly can give), an
unnamed quantity (``not_held``), two quantities (``two_quantities``: "not L1, the one I don't have" read as two)
or the target (``target``: "the first coefficient, the one multiplying x0"). A request naming two of the withheld
fact's own slots ("P(1->0) and P(1->1)") stays declined. The model's offer stands only when it quotes the hint's
own constraint; an offer of another of B's facts, a decline and an unreadable reply are declines. So the rule's
offers cost nothing, and the model reads the phrasings the rule's lists miss (slots described in words: issue
28). Over the 18 labelled corpora, with a capable model behind it, it agreed on 98-100% of the offers of every
file, where the rule alone gives 86-100% (``docs/harness.md``, rule/7); 36% of the requests reached the model.

Options: ``defer=READING,...`` (the rule's declines sent to the model; default ``DEFERRED``); every other option
goes to the model responder (``base_url=...``, ``temperature=0``). An instance with k > 1 withheld facts (the hard
tier) is decided by the rule alone. Every decision's rationale records the rule's reading and, when the model was
asked, what it answered (``"deferred"``, ``"model"``).
"""

from __future__ import annotations

from typing import Any

from harness import registry
from harness.errors import HarnessError
from harness.mira.agents.rule import DECLINE_READINGS, RuleResponder
from harness.mira.agents.rule_lexicon import HINT
from harness.mira.audit import offer_is_canonical
from harness.mira.types import Responder, ResponderDecision, ResponderTurn

DEFERRED = ("nothing_named", "known_fact", "not_held", "two_quantities", "target")


class CascadeResponder(Responder):
    privileged = True

    def __init__(self, model: Responder, defer: tuple[str, ...] = DEFERRED):
        unknown = sorted(set(defer) - set(DECLINE_READINGS))
        if unknown:
            raise HarnessError(f"cascade: defer names no reading of the rule responder: {', '.join(unknown)}; "
                               f"known: {', '.join(DECLINE_READINGS)}")
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
        try:
            model = registry.create("mira.responder", arg, options)
        except HarnessError as exc:
            if "unknown option" not in str(exc):
                raise
            raise HarnessError(f"cascade: {exc}; and the cascade's own: defer") from None
        return cls(model, defer)

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
        reading = (decision.rationale or {}).get("rule")
        if decision.kind != "decline" or reading not in self.defer:
            return False
        # two names of B's withheld fact ("P(1->0) and P(1->1)", a row and its partner) ask for two quantities as
        # written; a model seeing that one fact states both would offer it
        return reading != "two_quantities" or any(kind != HINT for kind in self.rule.judge(instance,
                                                                                           turn.request).kinds)

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
