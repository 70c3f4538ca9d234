"""Elenchos auditing agents over any engine (role ``elenchos.agent``): ``hf:``, ``vllm:``, ``openai:``.

Each ``act`` turns every open session's turn into one chat request and makes **one** engine call. The
conversation is rebuilt from the turn (system prompt of the session's level from ``harness.prompts.elenchos``,
then one assistant/user pair per earlier tool call: the agent's own reply and the tool's JSON result), so
batched and one-by-one runs see identical prompts. Replies are read leniently (the first JSON object; known
alternative keys such as ``name``/``args``; arguments given as a JSON string; mutation IDs like ``id_4``),
then validated against ``schemas/elenchos_tool_call.schema.json``; anything still invalid becomes
``ToolCall.invalid`` (the loop answers it with an error and spends no probe).

With an engine that enforces schemas, each turn gets a specialisation: the probe source length cap, the
kernel labels the level allows (``neither`` only at Level 3), catalogue IDs only, at most max(k) IDs, and
only ``submit_answer`` once the loop says ``must_submit``.
"""

from __future__ import annotations

import json
from typing import Any

from harness.backends import pool
from harness.backends.base import ChatRequest, Completion, Decoding
from harness.backends.mira_agents import _cut_note, _engine_module, _object
from harness.backends.options import Options, engine_key
from harness.elenchos.types import ElenchosAgent, ElenchosTurn, ToolCall
from harness.errors import HarnessError
from harness.prompts.elenchos import ELENCHOS_PROMPT_VERSION, elenchos_system_prompt
from verifiers import safejson
from verifiers.jsonparse import (
    as_text,
    first_json_object,
    lower_keys,
    never_raises,
    pick,
    validation_error,
)

TOOL_SCHEMA = "elenchos_tool_call"
SUBMIT_FIELDS = ("corrupted_kernel", "mutation_ids", "justification", "minimal_probe", "explanatory_probe")
_TOOL_ALIASES = {"submit": "submit_answer", "answer": "submit_answer", "submit_answer": "submit_answer",
                 "probe": "probe", "run_probe": "probe", "list_context": "list_context", "context": "list_context",
                 "budget_left": "budget_left", "budget": "budget_left"}


def mutation_ids() -> list[str]:
    from lambdapy import MUTATION_IDS

    return list(MUTATION_IDS)


def _normalize_id(raw: Any) -> Any:
    try:
        from lambdapy.mutations import normalize_id

        return normalize_id(str(raw))
    except (KeyError, ValueError, ImportError):
        return raw


# ---------------------------------------------------------------------------------------------- schema
def tool_engine_schema(turn: Any, style: str = "union", reasoning: bool = True, reasoning_chars: int = 1500,
                       source_chars: int = 1500, text_chars: int = 1000) -> dict[str, Any]:
    """The schema an engine enforces for this turn (a specialisation of elenchos_tool_call)."""
    head = {"reasoning": {"type": "string", "maxLength": reasoning_chars}} if reasoning else {}
    labels = ["A", "B", "neither"] if turn.allow_neither else ["A", "B"]
    k_max = max(turn.k_told) if turn.k_told else 3
    k_min = min(turn.k_told) if turn.k_told else 0
    ids = {"type": "array", "items": {"enum": mutation_ids()}, "minItems": k_min, "maxItems": max(k_max, 1)}
    text = {"type": "string", "maxLength": text_chars}
    submit_args = _object({"corrupted_kernel": {"enum": labels}, "mutation_ids": ids, "justification": text,
                           "minimal_probe": text, "explanatory_probe": text})
    probe_args = _object({"source": {"type": "string", "minLength": 1, "maxLength": source_chars}})
    empty = {"type": "object", "properties": {}, "additionalProperties": False}
    submit = _object({**head, "tool": {"const": "submit_answer"}, "arguments": submit_args})
    if turn.must_submit:
        return submit
    if style == "flat":
        nullable = {name: {"anyOf": [schema, {"type": "null"}]}
                    for name, schema in {**probe_args["properties"], **submit_args["properties"]}.items()}
        return _object({**head, "tool": {"enum": ["probe", "list_context", "budget_left", "submit_answer"]},
                        "arguments": _object(nullable)})
    probe = _object({**head, "tool": {"const": "probe"}, "arguments": probe_args})
    free = _object({**head, "tool": {"enum": ["list_context", "budget_left"]}, "arguments": empty})
    return {"anyOf": [probe, free, submit]}


# ---------------------------------------------------------------------------------------------- parsing
@never_raises
def parse_tool_reply(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """(``{"tool", "arguments"}``, None) or (None, parse error)."""
    obj, error = first_json_object(text)
    if obj is None:
        return None, error
    o = lower_keys(obj)
    if "function" in o and isinstance(o["function"], dict):  # an OpenAI-style tool call object
        o = lower_keys(o["function"])
    name = as_text(pick(o, ("tool", "name", "tool_name", "action")))
    tool = _TOOL_ALIASES.get((name or "").lower())
    if tool is None:
        return None, f"unknown tool {name!r}" if name else "no tool name"
    arguments = pick(o, ("arguments", "args", "parameters", "input"))
    if isinstance(arguments, str):
        try:
            arguments = safejson.loads(arguments)  # no longer than the reply, which first_json_object bounds
        except ValueError:
            arguments = {"source": arguments} if tool == "probe" else None
    if arguments is None:
        arguments = {k: v for k, v in o.items() if k not in ("tool", "name", "tool_name", "action", "reasoning")}
    if not isinstance(arguments, dict):
        return None, '"arguments" must be a JSON object'
    a = lower_keys(arguments)
    if tool == "probe":
        source = pick(a, ("source", "probe", "code", "program", "term"))
        args: dict[str, Any] = {"source": source}
    elif tool == "submit_answer":
        args = {k: a[k] for k in SUBMIT_FIELDS if a.get(k) is not None}
        for k in ("justification", "minimal_probe", "explanatory_probe"):
            args.setdefault(k, "")
        if isinstance(args.get("corrupted_kernel"), str):
            label = args["corrupted_kernel"].strip()
            args["corrupted_kernel"] = label.upper() if label.upper() in ("A", "B") else label.lower()
        if isinstance(args.get("mutation_ids"), str):
            args["mutation_ids"] = [args["mutation_ids"]]
        if isinstance(args.get("mutation_ids"), list):
            args["mutation_ids"] = [_normalize_id(m) for m in args["mutation_ids"]]
    else:
        args = {}
    call = {"tool": tool, "arguments": args}
    error = validation_error(TOOL_SCHEMA, call)
    return (None, error) if error else (call, None)


# ---------------------------------------------------------------------------------------------- prompts
def status_line(turn: Any) -> str:
    if turn.must_submit:
        return "You must call submit_answer now; no other tool is accepted."
    return f"Probes left: {turn.budget_left} of {turn.budget}. Turn {turn.turn} of at most {turn.max_turns}."


def audit_messages(turn: Any, earlier_replies: list[str] | None = None,
                   tool_format: str = "json", reasoning: bool = True) -> list[dict[str, str]]:
    k = turn.k if turn.k is not None else 1
    system = elenchos_system_prompt(turn.level, k=k if turn.level in (0, 1) else 1, budget=turn.budget,
                                    probes=turn.level0_probes or None, tool_format=tool_format,
                                    reasoning=reasoning)
    messages = [{"role": "system", "content": system}]
    user = "Begin the diagnosis. The kernels start from a fresh state."
    replies = earlier_replies if earlier_replies is not None and len(earlier_replies) == len(turn.history) else None
    for index, exchange in enumerate(turn.history):
        messages.append({"role": "user", "content": user if index else user + "\n" + _first_status(turn)})
        said = replies[index] if replies is not None else json.dumps(exchange.call.to_json(), ensure_ascii=False)
        messages.append({"role": "assistant", "content": said})
        user = f"Result of {exchange.call.tool or 'your call'}: {exchange.result.text()}"
    messages.append({"role": "user", "content": user + "\n" + (status_line(turn) if turn.history
                                                             else _first_status(turn))})
    return messages


def _first_status(turn: Any) -> str:
    return f"Probes left: {turn.budget} of {turn.budget}."


# ---------------------------------------------------------------------------------------------- agent
class ModelAuditor(ElenchosAgent):
    """An ``elenchos.agent`` backed by an engine."""

    prompt_version = ELENCHOS_PROMPT_VERSION

    def __init__(self, backend: str, model: str, engine: Any, decoding: Decoding, structured: bool,
                 settings: dict[str, Any]):
        self.backend, self.model, self.engine = backend, model, engine
        self.decoding, self.structured, self.settings = decoding, structured, settings
        self.schema_style = getattr(engine, "schema_style", "union")
        self._said: dict[str, list[str]] = {}
        self._stats = {"engine_calls": 0, "requests": 0, "prompt_tokens": 0, "completion_tokens": 0,
                       "parse_errors": 0, "engine_errors": 0}
        self._closed = False

    def describe(self) -> dict[str, Any]:
        return {"spec": getattr(self, "spec", ""), "kind": type(self).__name__, "backend": self.backend,
                "model": self.model, "deterministic": self.engine.deterministic, "decoding": self.decoding.as_dict(),
                "prompt_version": self.prompt_version, "output_schema": TOOL_SCHEMA, "structured": self.structured,
                "schema_style": self.schema_style, "settings": self.settings, "engine": self.engine.describe()}

    def stats(self) -> dict[str, Any]:
        return {**self._stats, "engine_totals": self.engine.stats.as_dict()}

    def request_for(self, turn: Any) -> ChatRequest:
        messages = audit_messages(turn, self._said.get(turn.session_id), reasoning=self.settings["reasoning"])
        schema = None
        if self.structured:
            schema = tool_engine_schema(turn, self.schema_style, self.settings["reasoning"],
                                        self.settings["reasoning_chars"], self.settings["source_chars"],
                                        self.settings["text_chars"])
            prepare = getattr(self.engine, "prepare_schema", None)
            schema = prepare(schema) if prepare else schema
        return ChatRequest(messages, schema, TOOL_SCHEMA)

    def act(self, turns: list[ElenchosTurn]) -> list[ToolCall]:
        completions = self.engine.generate([self.request_for(t) for t in turns], self.decoding)
        self._stats["engine_calls"] += 1
        self._stats["requests"] += len(turns)
        return [self._call(t, c) for t, c in zip(turns, completions, strict=True)]

    def _call(self, turn: ElenchosTurn, completion: Completion) -> ToolCall:
        s = self._stats
        s["prompt_tokens"] += completion.prompt_tokens
        s["completion_tokens"] += completion.completion_tokens
        usage = completion.usage()
        text = completion.text or ""
        if completion.error is not None:
            s["engine_errors"] += 1
            call = ToolCall.invalid(text, f"engine error: {completion.error}", usage=usage)
        else:
            parsed, error = parse_tool_reply(text)
            if parsed is None:
                call = ToolCall.invalid(text, _cut_note(error or "unreadable", completion), usage=usage)
            else:
                call = ToolCall(parsed["tool"], parsed["arguments"], message=text, usage=usage)
        if call.parse_error is not None:
            s["parse_errors"] += 1
        said = self._said.setdefault(turn.session_id, [])
        if len(said) == len(turn.history):
            said.append(text)
        else:
            self._said.pop(turn.session_id, None)
        if call.tool == "submit_answer" and call.parse_error is None:
            self._said.pop(turn.session_id, None)
        return call

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            pool.release(self.engine)


def build_auditor(backend: str, model: str | None, options: dict[str, str]) -> ModelAuditor:
    if not model:
        raise HarnessError(f"the {backend} backend needs a model: --agent {backend}:MODEL")
    where = f"elenchos.agent {backend}:{model}"
    opts = Options(where, options)
    decoding = Decoding(temperature=opts.float("temperature", 0.0, minimum=0.0), seed=opts.int("seed", 1234),
                        max_tokens=opts.int("max_tokens", 1024, minimum=1), top_p=opts.float("top_p", 1.0, minimum=0.0))
    structured_opt = opts.choice("structured", "auto", ("auto", "on", "off"))
    settings = {"reasoning": opts.bool("reasoning", True),
                "reasoning_chars": opts.int("reasoning_chars", 1500, minimum=1),
                "source_chars": opts.int("source_chars", 1500, minimum=8),
                "text_chars": opts.int("text_chars", 1000, minimum=1)}
    module = _engine_module(backend)
    raw = opts.take(module.ENGINE_OPTIONS)
    opts.finish()
    engine = pool.acquire(engine_key(backend, model, raw), lambda: module.create(model, Options(f"{backend}:{model}",
                                                                                                raw)))
    try:
        if structured_opt == "on" and not engine.supports_schema:
            raise HarnessError(f"{where}: structured=on, but this engine cannot enforce a JSON schema")
        return ModelAuditor(backend, model, engine, decoding, engine.supports_schema and structured_opt != "off",
                            settings)
    except BaseException:
        pool.release(engine)
        raise


def _factory(backend: str):
    def make(arg: str | None, options: dict[str, str]) -> ModelAuditor:
        return build_auditor(backend, arg, options)

    return make


openai_agent = _factory("openai")
vllm_agent = _factory("vllm")
hf_agent = _factory("hf")
