"""MIRA-Math agents over any engine: ``ModelSolver`` and ``ModelResponder``.

Each ``act`` / ``respond`` turns the whole batch of pending turns into chat requests and makes **one** engine
call; the scheduler calls each role once per step, so a run costs at most ``2 x (max turns + 1)`` engine
calls. Every reply is read leniently (``verifiers.jsonparse``), normalised (known alternative keys)
and validated against ``schemas/mira_solver_action.schema.json`` / ``mira_responder_decision.schema.json``:

* a solver reply that is still invalid becomes ``SolverAction.invalid`` (the loop records the parse error
  and the turn costs one unit of budget);
* a responder reply that is invalid, or an offer that quotes none of B's constraints, becomes a decline
  with ``parse_error`` (the solver sees only the fixed decline message).

Where the engine can enforce a schema (vLLM, transformers + xgrammar, OpenAI ``json_schema``), each request
carries a per-turn specialisation: the instance's answer shape, only an answer on the last turn, B's
constraints as the only quotable strings, length caps. Nothing here raises for bad model output.
"""

from __future__ import annotations

import importlib
import json
import time
from typing import Any

from harness.backends import pool
from harness.backends.base import ChatRequest, Completion, Decoding, Engine
from harness.backends.options import Options, engine_key
from harness.errors import HarnessError
from harness.mira.audit import audit_form
from harness.mira.types import (
    DECLINE_MESSAGE,
    Responder,
    ResponderDecision,
    ResponderTurn,
    Solver,
    SolverAction,
    SolverTurn,
)
from harness.prompts.mira import (
    RESPONDER_PROMPT_VERSION,
    SOLVER_PROMPT_VERSION,
    responder_messages,
    solver_messages,
)
from schemas import load_schema
from verifiers.jsonparse import (
    as_bool,
    as_text,
    as_word,
    first_json_object,
    lower_keys,
    never_raises,
    pick,
    validation_error,
)
from verifiers.replies import SOLVER_SCHEMA, read_solver_reply

ENGINE_MODULES = {
    "openai": "harness.backends.openai_engine",
    "vllm": "harness.backends.vllm_engine",
    "hf": "harness.backends.hf_engine",
}
RESPONDER_SCHEMA = "mira_responder_decision"

_OFFER_WORDS = {"offer", "offered", "match", "matched", "accept", "provide", "hint"}
_DECLINE_WORDS = {"decline", "declined", "no_match", "nomatch", "reject", "refuse", "none", "no match"}


# ---------------------------------------------------------------------------------------------- schemas
INT_BOUND = 10**15  # engine schemas bound integers so a small model cannot loop on digits


def answer_schema(answer_type: str, answer_keys: list[str]) -> dict[str, Any]:
    """The answer object of this instance (from the schema file's $defs), integers bounded by INT_BOUND."""
    defs = load_schema(SOLVER_SCHEMA)["$defs"]
    if answer_type == "int":
        shape = json.loads(json.dumps(defs["answer_int"]))
    elif answer_type == "rational":
        shape = json.loads(json.dumps(defs["answer_rational"]))
    else:
        shape = {"type": "object", "properties": {k: {"type": "integer"} for k in answer_keys},
                 "required": list(answer_keys), "additionalProperties": False}
    for prop in shape["properties"].values():
        prop.setdefault("minimum", -INT_BOUND)
        prop["maximum"] = INT_BOUND
    shape.pop("description", None)
    return shape


def _object(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def solver_engine_schema(turn: SolverTurn, style: str = "union", reasoning: bool = True, reasoning_chars: int = 1500,
                         request_chars: int = 300) -> dict[str, Any]:
    """The schema an engine enforces for this turn (a specialisation of mira_solver_action)."""
    head = {"reasoning": {"type": "string", "maxLength": reasoning_chars}} if reasoning else {}
    shape = answer_schema(turn.answer_type, turn.answer_keys)
    answer = _object({**head, "action": {"const": "answer"}, "request": {"type": "null"}, "answer": shape})
    if turn.must_answer:
        return answer
    request_text = {"type": "string", "minLength": 1, "maxLength": request_chars}
    if style == "flat":
        return _object({**head, "action": {"enum": ["request", "answer"]},
                        "request": {"anyOf": [request_text, {"type": "null"}]},
                        "answer": {"anyOf": [shape, {"type": "null"}]}})
    request = _object({**head, "action": {"const": "request"}, "request": request_text, "answer": {"type": "null"}})
    return {"anyOf": [request, answer]}


def responder_engine_schema(turn: ResponderTurn, style: str = "union", quote_enum: bool = True,
                            hint_chars: int = 300) -> dict[str, Any]:
    quotes = list(dict.fromkeys(turn.constraints))
    quote: dict[str, Any] = {"enum": quotes} if (quote_enum and quotes) else {"type": "string", "minLength": 1,
                                                                            "maxLength": 2000}
    hint = {"type": "string", "minLength": 1, "maxLength": hint_chars}
    if style == "flat":
        return _object({"type": {"enum": ["offer", "decline"]}, "has_exact_match": {"type": "boolean"},
                        "constraint_quoted": {"anyOf": [quote, {"type": "null"}]},
                        "hint": {"anyOf": [hint, {"type": "null"}]}})
    offer = _object({"type": {"const": "offer"}, "has_exact_match": {"const": True}, "constraint_quoted": quote,
                     "hint": hint})
    decline = _object({"type": {"const": "decline"}, "has_exact_match": {"const": False},
                       "constraint_quoted": {"type": "null"}, "hint": {"type": "null"}})
    return {"anyOf": [offer, decline]}


# ---------------------------------------------------------------------------------------------- parsing
def parse_solver_reply(text: str, turn: SolverTurn) -> tuple[dict[str, Any] | None, str | None]:
    """(normalised action object, None) or (None, parse error): ``verifiers.replies.read_solver_reply``, which
    ``python -m verifiers check-answer`` uses too."""
    return read_solver_reply(text, turn.answer_type, turn.answer_keys)


@never_raises
def parse_responder_reply(text: str, turn: ResponderTurn) -> tuple[dict[str, Any] | None, str | None]:
    """(normalised decision, None) or (None, parse error). An offer's quote is mapped onto B's constraint."""
    obj, error = first_json_object(text)
    if obj is None:
        return None, error
    o = lower_keys(obj)
    match = as_bool(pick(o, ("has_exact_match", "exact_match", "match", "matched", "has_match")))
    word = as_word(pick(o, ("type", "decision", "kind", "action", "response_type", "response")))
    if word in _OFFER_WORDS:
        kind = "offer"
    elif word in _DECLINE_WORDS:
        kind = "decline"
    elif word is None and match is not None:
        kind = "offer" if match else "decline"
    else:
        return None, f"no decision: expected 'offer' or 'decline', got {word!r}" if word else "no decision"
    normalized: dict[str, Any] = {"type": kind}
    if match is not None:
        normalized["has_exact_match"] = match
    if kind == "offer":
        quote = as_text(pick(o, ("constraint_quoted", "quoted_constraint", "constraint", "quote", "quoted")))
        hint = as_text(pick(o, ("hint", "hint_value", "extracted_hint", "value", "information")))
        normalized["constraint_quoted"] = quote
        normalized["hint"] = hint or None
    error = validation_error(RESPONDER_SCHEMA, normalized)
    if error:
        return None, error
    if kind == "offer":
        held = match_constraint(normalized["constraint_quoted"], turn.constraints)
        if held is None:
            return None, "the offer quotes none of B's constraints"
        normalized["constraint_quoted"] = held
    return normalized, None


def match_constraint(quote: str, constraints: list[str]) -> str | None:
    """B's constraint that ``quote`` is (same audit form), or the only one it contains."""
    form = audit_form(quote)
    for text in constraints:
        if audit_form(text) == form:
            return text
    inside = [t for t in constraints if audit_form(t) and audit_form(t) in form]
    return inside[0] if len(set(inside)) == 1 else None


def _cut_note(error: str, completion: Completion) -> str:
    return error + " (the reply was cut at max_tokens)" if completion.finish_reason == "length" else error


# ---------------------------------------------------------------------------------------------- agents
class _ModelAgent:
    role = ""
    prompt_version = ""
    schema = ""

    def __init__(self, backend: str, model: str, engine: Engine, decoding: Decoding, structured: bool,
                 settings: dict[str, Any]):
        self.backend = backend
        self.model = model
        self.engine = engine
        self.decoding = decoding
        self.structured = structured
        self.settings = settings
        self.schema_style = getattr(engine, "schema_style", "union")
        self._stats = {"engine_calls": 0, "requests": 0, "prompt_tokens": 0, "completion_tokens": 0,
                       "seconds": 0.0, "parse_errors": 0, "engine_errors": 0}
        self._closed = False

    def describe(self) -> dict[str, Any]:
        return {"spec": getattr(self, "spec", ""), "kind": type(self).__name__, "backend": self.backend,
                "model": self.model, "deterministic": self.engine.deterministic,
                "decoding": self.decoding.as_dict(), "prompt_version": self.prompt_version,
                "output_schema": self.schema, "structured": self.structured, "schema_style": self.schema_style,
                "settings": self.settings, "engine": self.engine.describe()}

    def stats(self) -> dict[str, Any]:
        out = dict(self._stats)
        out["seconds"] = round(out["seconds"], 3)
        out["engine_totals"] = self.engine.stats.as_dict()
        out["engine_shared"] = pool.users(self.engine) > 1
        return out

    def _call(self, requests: list[ChatRequest]) -> list[Completion]:
        started = time.perf_counter()
        out = self.engine.generate(requests, self.decoding)
        s = self._stats
        s["engine_calls"] += 1
        s["requests"] += len(requests)
        s["seconds"] += time.perf_counter() - started
        for c in out:
            s["prompt_tokens"] += c.prompt_tokens
            s["completion_tokens"] += c.completion_tokens
            s["engine_errors"] += c.error is not None
        return out

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            pool.release(self.engine)


class ModelSolver(_ModelAgent, Solver):
    role = "mira.solver"
    prompt_version = SOLVER_PROMPT_VERSION
    schema = SOLVER_SCHEMA

    def __init__(self, *args: Any, **kw: Any):
        super().__init__(*args, **kw)
        self._said: dict[str, list[str]] = {}  # instance id -> this solver's earlier replies (replayed verbatim)

    def request_for(self, turn: SolverTurn) -> ChatRequest:
        reasoning = self.settings["reasoning"]
        messages = solver_messages(turn, self._said.get(turn.instance_id), reasoning)
        schema = None
        if self.structured:
            schema = self.engine_schema(solver_engine_schema(turn, self.schema_style, reasoning,
                                                             self.settings["reasoning_chars"],
                                                             self.settings["request_chars"]))
        return ChatRequest(messages, schema, SOLVER_SCHEMA)

    def engine_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        prepare = getattr(self.engine, "prepare_schema", None)
        return prepare(schema) if prepare else schema

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        completions = self._call([self.request_for(turn) for turn in turns])
        return [self._action(turn, c) for turn, c in zip(turns, completions, strict=True)]

    def _action(self, turn: SolverTurn, completion: Completion) -> SolverAction:
        usage = completion.usage()
        text = completion.text or ""
        if completion.error is not None:
            action = SolverAction.invalid(text, f"engine error: {completion.error}", usage=usage)
        else:
            parsed, error = parse_solver_reply(text, turn)
            if parsed is None:
                action = SolverAction.invalid(text, _cut_note(error or "unreadable", completion), usage=usage)
            elif parsed["action"] == "request":
                action = SolverAction.ask(parsed["request"], text, usage=usage)
            else:
                action = SolverAction.final(parsed["answer"], text, usage=usage)
        if action.kind == "invalid":
            self._stats["parse_errors"] += 1
        if action.kind == "answer" or turn.must_answer:
            self._said.pop(turn.instance_id, None)  # the episode ends with this turn
        else:
            said = self._said.setdefault(turn.instance_id, [])
            if len(said) != len(turn.history):  # out of step (should not happen): replay canonically from now on
                said.clear()
                self._said.pop(turn.instance_id)
            else:
                said.append(text)
        return action


class ModelResponder(_ModelAgent, Responder):
    role = "mira.responder"
    prompt_version = RESPONDER_PROMPT_VERSION
    schema = RESPONDER_SCHEMA

    def request_for(self, turn: ResponderTurn) -> ChatRequest:
        schema = None
        if self.structured:
            schema = responder_engine_schema(turn, self.schema_style, self.settings["quote_enum"],
                                             self.settings["hint_chars"])
            prepare = getattr(self.engine, "prepare_schema", None)
            schema = prepare(schema) if prepare else schema
        return ChatRequest(responder_messages(turn), schema, RESPONDER_SCHEMA)

    def respond(self, turns: list[ResponderTurn]) -> list[ResponderDecision]:
        completions = self._call([self.request_for(turn) for turn in turns])
        return [self._decision(turn, c) for turn, c in zip(turns, completions, strict=True)]

    def _decision(self, turn: ResponderTurn, completion: Completion) -> ResponderDecision:
        usage = completion.usage()
        text = completion.text or ""
        if completion.error is not None:
            self._stats["parse_errors"] += 1
            return ResponderDecision.decline(text or DECLINE_MESSAGE, f"engine error: {completion.error}", usage=usage)
        parsed, error = parse_responder_reply(text, turn)
        if parsed is None:
            self._stats["parse_errors"] += 1
            return ResponderDecision.decline(text or DECLINE_MESSAGE, _cut_note(error or "unreadable", completion),
                                             usage=usage)
        if parsed["type"] == "decline":
            return ResponderDecision.decline(text, usage=usage)
        hint = parsed.get("hint") or parsed["constraint_quoted"]
        return ResponderDecision.offer(parsed["constraint_quoted"], hint, text, usage=usage)


# ---------------------------------------------------------------------------------------------- factories
AGENT_OPTIONS = ("max_tokens", "temperature", "seed", "top_p", "structured")
SOLVER_OPTIONS = ("reasoning", "reasoning_chars", "request_chars")
RESPONDER_OPTIONS = ("quote_enum", "hint_chars")


def _engine_module(backend: str) -> Any:
    try:
        return importlib.import_module(ENGINE_MODULES[backend])
    except ImportError as exc:
        raise HarnessError(f"backend {backend!r} is not available: {exc}") from exc


def build_agent(role: str, backend: str, model: str | None, options: dict[str, str]) -> _ModelAgent:
    if not model:
        raise HarnessError(f"the {backend} backend needs a model: --{role.split('.')[-1]} {backend}:MODEL")
    where = f"{role} {backend}:{model}"
    opts = Options(where, options)
    solver = role == "mira.solver"
    decoding = Decoding(
        temperature=opts.float("temperature", 0.0, minimum=0.0),
        seed=opts.int("seed", 1234),
        max_tokens=opts.int("max_tokens", 1024 if solver else 256, minimum=1),
        top_p=opts.float("top_p", 1.0, minimum=0.0),
    )
    structured_opt = opts.choice("structured", "auto", ("auto", "on", "off"))
    if solver:
        settings: dict[str, Any] = {"reasoning": opts.bool("reasoning", True),
                                    "reasoning_chars": opts.int("reasoning_chars", 1500, minimum=1),
                                    "request_chars": opts.int("request_chars", 300, minimum=8)}
    else:
        settings = {"quote_enum": opts.bool("quote_enum", True), "hint_chars": opts.int("hint_chars", 300, minimum=1)}
    module = _engine_module(backend)
    raw_engine_opts = opts.take(module.ENGINE_OPTIONS)
    opts.finish()
    engine = pool.acquire(engine_key(backend, model, raw_engine_opts),
                          lambda: module.create(model, Options(f"{backend}:{model}", raw_engine_opts)))
    try:
        if structured_opt == "on" and not engine.supports_schema:
            raise HarnessError(f"{where}: structured=on, but this engine cannot enforce a JSON schema "
                               f"({getattr(engine, 'why_no_schema', 'not supported')})")
        structured = engine.supports_schema and structured_opt != "off"
        cls = ModelSolver if solver else ModelResponder
        return cls(backend, model, engine, decoding, structured, settings)
    except BaseException:
        pool.release(engine)
        raise


def _factory(role: str, backend: str):
    def make(arg: str | None, options: dict[str, str]) -> _ModelAgent:
        return build_agent(role, backend, arg, options)

    return make


openai_solver = _factory("mira.solver", "openai")
openai_responder = _factory("mira.responder", "openai")
vllm_solver = _factory("mira.solver", "vllm")
vllm_responder = _factory("mira.responder", "vllm")
hf_solver = _factory("mira.solver", "hf")
hf_responder = _factory("mira.responder", "hf")
