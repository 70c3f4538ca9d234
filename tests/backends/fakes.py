"""A deterministic fake chat engine: its reply is a pure function of the conversation.

It answers like a careless model would, so the parsers and the loop see every kind of output: clean JSON,
fenced JSON, prose around JSON, alternative keys, unreadable text. Batched and one-by-one runs see the
same prompts, so they must produce identical transcripts.
"""

from __future__ import annotations

import hashlib
import json
import re
import time

from harness.backends.base import ChatRequest, Completion, Decoding, Engine


def _h(messages: list[dict[str, str]]) -> int:
    return int(hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:12], 16)


class FakeEngine(Engine):
    backend = "fake"
    supports_schema = True

    def __init__(self, model: str = "fake", delay_s: float = 0.0):
        super().__init__(model)
        self.delay_s = delay_s
        self.batches: list[int] = []

    def _generate(self, requests: list[ChatRequest], decoding: Decoding) -> list[Completion]:
        self.batches.append(len(requests))
        if self.delay_s:
            time.sleep(self.delay_s)
        out = []
        for r in requests:
            text = self.reply(r)
            out.append(Completion(text, prompt_tokens=sum(len(m["content"].split()) for m in r.messages),
                                  completion_tokens=len(text.split()), finish_reason="stop"))
        return out

    def reply(self, request: ChatRequest) -> str:
        system = request.messages[0]["content"]
        if system.startswith("You are agent B"):
            return self._responder(request)
        if system.startswith("# Role"):
            return self._auditor(request)
        return self._solver(request)

    def _auditor(self, request: ChatRequest) -> str:
        """Probe twice (one reply in an odd shape), then submit with loosely written fields."""
        done = sum(1 for m in request.messages if m["role"] == "assistant")
        if done == 0:
            return json.dumps({"tool": "probe", "arguments": {"source": "eval Type"}})
        if done == 1:
            return 'Next: {"name": "probe", "args": "{\\"source\\": \\"eval Zero : Nat\\"}"}'
        if done == 2:  # every session once (the first sessions of a suite can see identical prompts)
            return "I think I am done."  # unreadable: the loop answers with an error, no probe spent
        return json.dumps({"tool": "submit", "arguments": {"corrupted_kernel": "b", "mutation_ids": ["id_12"],
                                                          "justification": "Type : Type on B"}})

    def _solver(self, request: ChatRequest) -> str:
        h = _h(request.messages)
        last = request.messages[-1]["content"]
        first = request.messages[1]["content"]
        unknowns = re.search(r"^(?:Asked for|Unknowns): (.*)$", first, re.MULTILINE)
        names = [u.strip() for u in unknowns.group(1).split(",")] if unknowns else ["x"]
        if "final answer now" in last:
            return json.dumps({"action": "answer", "answer": "0", "request": None})
        asked = sum(1 for m in request.messages if m["role"] == "assistant")
        name = names[asked % len(names)]
        kind = h % 6
        if kind == 0:
            return "Let me think about this... I am not sure."
        if kind == 1:
            return "```json\n" + json.dumps({"type": "request", "question": f"What is {name}?"}) + "\n```"
        if kind == 2:
            return f'Sure. {{"action": "request", "request": "What is {name}?", "answer": null}} Thanks!'
        return json.dumps({"reasoning": "", "action": "request", "request": f"What is {name}?", "answer": None})

    def _responder(self, request: ChatRequest) -> str:
        user = request.messages[-1]["content"]
        facts = re.findall(r"^\d+\. (.*)$", user, re.MULTILINE)
        asked = json.loads(user.split("Request: ", 1)[1])
        words = {w for w in re.findall(r"[A-Za-z_]\w*", asked) if len(w) > 1 and w.lower() not in {"what", "is"}}
        h = _h(request.messages)
        if h % 9 == 0:
            return "I cannot help with that."
        for fact in facts:
            if words & set(re.findall(r"[A-Za-z_]\w*", fact)):
                return json.dumps({"decision": "offer", "exact_match": True, "constraint": fact, "hint": fact})
        return json.dumps({"type": "decline", "has_exact_match": False, "constraint_quoted": None, "hint": None})


def make_fake_engine(model: str, **kwargs) -> FakeEngine:
    return FakeEngine(model, **kwargs)


# The engine-module interface of harness.backends.mira_agents (ENGINE_OPTIONS + create), for the registry.
ENGINE_OPTIONS = ("delay_s",)


def create(model: str, opts) -> FakeEngine:
    engine = FakeEngine(model, delay_s=opts.float("delay_s", 0.0) or 0.0)
    opts.finish()
    return engine
