"""A solver's reply read into one action: a request for a hint or an answer, validated against
``schemas/mira_solver_action.schema.json``.

The harness reads every model reply with this (``harness.backends.mira_agents.parse_solver_reply``) and
``python -m verifiers check-answer`` reads a pasted reply with it, so both read a reply the same way. The reply may
be JSON (``verifiers.jsonparse`` finds it in prose, code fences or a cut-off reply; known alternative keys are
accepted) or, with no JSON object at all, prose whose final answer ``verifiers.answers.prose_answer`` finds.
"""

from __future__ import annotations

from typing import Any

from verifiers import jsonparse
from verifiers.answers import prose_answer

SOLVER_SCHEMA = "mira_solver_action"

_REQUEST_WORDS = {"request", "ask", "query", "question", "requesting"}
_ANSWER_WORDS = {"answer", "final", "final_answer", "finalanswer", "submit", "solution", "final answer"}


@jsonparse.never_raises
def read_solver_reply(text: str, answer_type: str,
                      answer_keys: list[str] | tuple[str, ...] = ()) -> tuple[dict[str, Any] | None, str | None]:
    """(normalised action object, None) or (None, parse error), for an instance of ``answer_type``/``answer_keys``."""
    obj, error = jsonparse.first_json_object(text)
    if obj is None:
        written = prose_answer(text, answer_type, answer_keys) if error == jsonparse.NO_OBJECT else None
        if written is None:
            return None, error
        obj = {"action": "answer", "answer": written}  # "**Final answer:** 5/8", "$\\boxed{1124}$", "x = 2182"
    o = jsonparse.lower_keys(obj)
    request = jsonparse.as_text(jsonparse.pick(o, ("request", "question", "query", "ask", "request_text", "message")))
    answer = jsonparse.pick(o, ("answer", "final_answer", "final", "result", "solution"))
    if answer is None and answer_type in ("int", "rational", "dict_int"):
        keys = {"int": ["value"], "rational": ["numerator", "denominator"]}.get(answer_type, answer_keys)
        if keys and all(k in o for k in keys):
            answer = {k: o[k] for k in keys}
    word = jsonparse.as_word(jsonparse.pick(o, ("action", "type", "kind", "move", "act", "decision")))
    if word in _REQUEST_WORDS:
        action = "request"
    elif word in _ANSWER_WORDS:
        action = "answer"
    elif word is None and request and answer is None:
        action = "request"
    elif word is None and answer is not None and not request:
        action = "answer"
    else:
        return None, f"no action: expected 'request' or 'answer', got {word!r}" if word else "no action"
    normalized: dict[str, Any] = {"action": action}
    reasoning = jsonparse.as_text(jsonparse.pick(o, ("reasoning", "thoughts", "thinking", "analysis", "rationale")))
    if reasoning is not None:
        normalized["reasoning"] = reasoning
    if action == "request":
        if not request:
            return None, "a request without request text"
        normalized["request"] = request
    else:
        if answer is None:
            return None, "a final answer without an answer"
        normalized["answer"] = answer
    error = jsonparse.validation_error(SOLVER_SCHEMA, normalized)
    return (None, error) if error else (normalized, None)
