"""MIRA-Math prompts: the solver (agent A, zero-shot and four-shot) and the responder (agent B).

Written for this toolkit (the paper does not print its prompts). Choices, against the weaknesses of the
authors' runner (reference-implementation-notes §d, §h):

* one protocol statement for every family: no family-specific scaffolding, no "scan the 4X = ... lines";
* the budget is stated up front and on every turn ("requests left: k of N"), not only as "attempt k";
* the answer format is the instance's own (``answer_type`` / ``answer_keys``), with an example object, so
  the keys the solver is told are the keys the verifier reads;
* the four worked examples are the instance's ``few_shot_examples`` shown in the same JSON action format
  the solver must produce (request, B's offer, final answer), before the problem;
* the responder sees only its numbered private constraints and the current request: never the solver's
  reasoning, history or problem. It offers by quoting one constraint verbatim, or declines; the solver then
  sees only the fixed decline message.
* the hard tier (``SolverTurn.gaps_unstated``: difficulty 4-5 or k > 1, docs/hard-tier.md) gets the same prompt
  with the few sentences that say "exactly one piece" of information is missing made count-neutral
  (``_UNSTATED``), so that A is never told how many facts it lacks; the paper's split (d1-3, k = 1) keeps
  ``mira-solver/3`` word for word. The responder's prompt already lets B hold several facts and offer only the
  one asked for.

The conversation is rebuilt from the turn on every call (stateless), so batched and one-by-one runs see
identical prompts. The solver's earlier replies are replayed as its own assistant messages when the agent
kept them, otherwise as the canonical JSON of the request it made.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from harness.mira.types import DECLINE_MESSAGE, Exchange, ResponderTurn, SolverTurn

SOLVER_PROMPT_VERSION = "mira-solver/3"  # /3: views no longer name the gap (issue 24); the prompt says so
RESPONDER_PROMPT_VERSION = "mira-responder/1"

_SOLVER_SYSTEM = """\
You are agent A in a two-agent mathematics task.

You are given a problem and some facts about it. The facts are exactly one piece of information short of \
determining the answer. Your partner, agent B, privately holds a few facts, among them the one you are \
missing. B cannot see your problem or your reasoning: it reads only your request, compares it with its \
own facts, and either offers the one fact that your request names (quoting it) or declines with \
"{decline}".

Protocol:
- On each turn you reply with exactly one action: a request to B, or your final answer.
- A request asks for one specific missing quantity, named precisely in the notation of your facts \
(for example "What is mu_4?" or "What is the value of c?"). Vague requests ("What information is \
missing?"), requests for the answer itself and requests for several things at once are declined.
- Every request uses one unit of your request budget, and so does a reply that cannot be read as an \
action. When the budget is used up, or when you are told to answer now, the next turn must be your final \
answer; a request then ends the task without an answer.
- Your facts do not say which piece is missing. Before asking, work out from them which quantity they \
leave undetermined, and ask for exactly that one.
- If your facts already determine the answer, you may answer without asking.
- Answers are exact: integers, and fractions as a numerator and a positive denominator in lowest terms; \
never decimals.

Reply with a single JSON object and nothing else, in one of these two forms:
{request_form}
{answer_form}
The "answer" object must have exactly the keys given in the problem's answer format.\
"""

_RESPONDER_SYSTEM = """\
You are agent B. You privately hold a short numbered list of facts (constraints). Another agent sends you \
one request at a time. You do not see its problem or its reasoning, only the request.

Decide whether the request asks for one specific quantity or fact that exactly one of your constraints \
states.
- If it does, offer that constraint: "type" is "offer", "has_exact_match" is true, "constraint_quoted" is \
that constraint copied word for word, and "hint" is the value or statement it gives.
- Otherwise decline: "type" is "decline", "has_exact_match" is false, "constraint_quoted" and "hint" are \
null.

Match by meaning, not by wording: different names for the same quantity count as the same (for example \
"the prior", "P(H)" and "the prior probability of H"; "mu_4", "μ4" and "the death rate mu_4"). Decline \
vague requests ("what is missing?", "can you help?"), requests for a final result, requests for several \
facts at once, and requests for anything none of your constraints states. Never solve, explain, negotiate, \
give partial clues, or reveal what else you hold.

Reply with a single JSON object and nothing else:
{{"type": "offer", "has_exact_match": true, "constraint_quoted": "<one of your constraints, verbatim>", \
"hint": "<the value it gives>"}}
or
{{"type": "decline", "has_exact_match": false, "constraint_quoted": null, "hint": null}}\
"""


# ---------------------------------------------------------------------------------------------- formats
def answer_template(answer_type: str, answer_keys: list[str]) -> str:
    """The answer object with placeholders, e.g. ``{"numerator": <integer>, "denominator": <integer>}``."""
    if answer_type == "int":
        return '{"value": <integer>}'
    if answer_type == "rational":
        return '{"numerator": <integer>, "denominator": <positive integer>}'
    return "{" + ", ".join(f'"{k}": <integer>' for k in answer_keys) + "}"


def answer_format_line(answer_type: str, answer_keys: list[str]) -> str:
    if answer_type == "int":
        what = "one integer"
    elif answer_type == "rational":
        what = "a fraction in lowest terms (an integer n is n/1)"
    else:
        what = f"one integer for each of {', '.join(answer_keys)}"
    return f"Answer format: {what}, as \"answer\": {answer_template(answer_type, answer_keys)}"


def action_json(kind: str, *, request: str | None = None, answer: Any = None, reasoning: str | None = None,
                with_reasoning: bool = True) -> str:
    """The canonical JSON text of an action (used for worked examples and replayed turns)."""
    obj: dict[str, Any] = {}
    if with_reasoning:
        obj["reasoning"] = reasoning or ""
    obj["action"] = kind
    obj["request"] = request if kind == "request" else None
    obj["answer"] = answer if kind == "answer" else None
    return json.dumps(obj, ensure_ascii=False)


# The hard tier's count-neutral wording (the sentences of _SOLVER_SYSTEM that say how much is missing).
_UNSTATED = (
    ("The facts are exactly one piece of information short of determining the answer. Your partner, agent B, "
     "privately holds a few facts, among them the one you are missing.",
     "The facts are not enough to determine the answer. Your partner, agent B, privately holds a few facts, "
     "among them what you are missing."),
    ("- Your facts do not say which piece is missing. Before asking, work out from them which quantity they leave "
     "undetermined, and ask for exactly that one.",
     "- Your facts do not say what is missing, nor how much. Before each request, work out from your facts and "
     "what B has given you which quantity is still undetermined, and ask for exactly that one."),
    ("- If your facts already determine the answer, you may answer without asking.",
     "- As soon as your facts and what B has given you determine the answer, you may answer without asking "
     "further."),
)


def solver_system_prompt(with_reasoning: bool = True, gaps_unstated: bool = False) -> str:
    """The solver's system prompt; ``gaps_unstated`` (the hard tier) never says how many facts are missing."""
    head = '"reasoning": "<brief working>", ' if with_reasoning else ""
    request_form = '{' + head + '"action": "request", "request": "<your request to B>", "answer": null}'
    answer_form = '{' + head + '"action": "answer", "request": null, "answer": <answer object>}'
    text = _SOLVER_SYSTEM.format(decline=DECLINE_MESSAGE, request_form=request_form, answer_form=answer_form)
    if gaps_unstated:
        for stated, unstated in _UNSTATED:
            if stated not in text:
                raise RuntimeError(f"the solver prompt no longer says {stated[:40]!r}...")
            text = text.replace(stated, unstated)
    return text


# ---------------------------------------------------------------------------------------------- solver
def _bullets(lines: list[str]) -> str:
    return "\n".join(f"- {line}" for line in lines)


def render_examples(examples: list[dict[str, Any]], with_reasoning: bool = True,
                    exchange: Callable[[dict[str, Any]], list[str]] | None = None) -> str:
    """The worked examples shown before the problem. ``exchange(example)`` writes A's request, B's offer and
    A's answer; by default as the JSON actions the solver must produce (the inspect task writes tool calls)."""
    if exchange is None:
        def exchange(ex: dict[str, Any]) -> list[str]:
            asked = [line for request, hint in example_offers(ex) for line in (
                "A: " + action_json("request", request=request, with_reasoning=with_reasoning), f'B: offers "{hint}"')]
            return [*asked, "A: " + action_json("answer", answer=ex.get("answer"), with_reasoning=with_reasoning)]
    # the hard tier's examples show one or two requests (k = 1, 2): the sentence then does not say "a request"
    shown = ("good requests, B's offers" if any(len(example_offers(ex)) > 1 for ex in examples)
             else "a good request, B's offer")
    parts = [f"Here are {len(examples)} worked examples of problems of the same kind (their numbers differ "
             f"from yours). Each shows the facts agent A had, {shown} and the final answer."]
    for n, ex in enumerate(examples, start=1):
        keys = list(ex.get("answer_keys") or [])
        lines = [f"Example {n}", f"Question: {ex.get('question', '')}", "Facts:", _bullets(list(ex.get("constraints")
                 or []))]
        if ex.get("unknowns"):
            lines.append(asked_for_line(ex["unknowns"]))
        lines.append(answer_format_line(str(ex.get("answer_type", "")), keys))
        lines.extend(exchange(ex))
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def example_offers(ex: dict[str, Any]) -> list[tuple[str, str]]:
    """A worked example's (request, B's offer) pairs: one, or one per withheld fact where the example lists
    ``requests`` and ``hints`` (the hard tier's k = 2 examples)."""
    requests, hints = ex.get("requests"), ex.get("hints")
    if isinstance(requests, list) and isinstance(hints, list) and requests:
        return [(str(r), str(h)) for r, h in zip(requests, hints, strict=False)]  # equal: the dataset check
    return [(str(ex.get("request", "")), str(ex.get("hint", "")))]


def asked_for_line(unknowns: list[str]) -> str:
    """The quantities the answer asks for, named as in the question (mira-solver/2; /1 said "Unknowns:" and
    listed, in some families, every unknown of the model rather than what the answer asks for)."""
    return f"Asked for: {', '.join(map(str, unknowns))}"


def problem_text(turn: SolverTurn) -> str:
    lines = ["Your problem", f"Question: {turn.question}", "Your facts:", _bullets(turn.constraints)]
    if turn.unknowns:
        lines.append(asked_for_line(turn.unknowns))
    lines.append(answer_format_line(turn.answer_type, turn.answer_keys))
    if turn.hint is None:
        lines.append(f"Request budget: {turn.budget} request{'s' if turn.budget != 1 else ''} in total.")
    return "\n".join(lines)


def given_hints(turn: SolverTurn) -> str:
    """Oracle-hint condition: what B has given up front (every hint at k > 1)."""
    if len(turn.hints) > 1:
        return "the missing facts: " + "; ".join(f'"{h}"' for h in turn.hints)
    return f'the missing fact: "{turn.hint}"'


def after_offer_text(turn: SolverTurn) -> str:
    """Why the last turn came before the budget ran out: B's offer(s) (count-neutral in the hard tier)."""
    return "B has given you what you asked for." if turn.gaps_unstated else "B has given you a fact."


def status_line(turn: SolverTurn) -> str:
    if turn.hint is not None:
        return f"B has already given you {given_hints(turn)}. Give your final answer now."
    if turn.must_answer:
        if turn.requests_used >= turn.budget:
            return (f"You have used all {turn.budget} requests. Give your final answer now; a request will not "
                    "be answered.")
        return f"{after_offer_text(turn)} Give your final answer now; a further request will not be answered."
    return (f"Requests left: {turn.requests_left} of {turn.budget}. Send one request, or your final answer if "
            "your facts already determine it.")


def reply_text(exchange: Exchange) -> str:
    """How an earlier exchange is reported back to the solver: only the structured offer fields or the
    fixed decline message (never B's raw output), or the parse error that cost the turn."""
    if exchange.request is None:
        why = exchange.solver_parse_error or "unreadable"
        return f"Your last reply could not be read as an action ({why}). It used one request."
    decision = exchange.decision
    if decision is not None and decision.kind == "offer":
        text = f'B offers: "{decision.constraint_quoted}"'
        if decision.hint and decision.hint != decision.constraint_quoted:
            text += f" (hint: {decision.hint})"
        return text + "."
    return f'B replies: "{DECLINE_MESSAGE}"'


def solver_messages(turn: SolverTurn, earlier_replies: list[str] | None = None,
                    with_reasoning: bool = True) -> list[dict[str, str]]:
    """The chat for one solver turn: system, problem (+ examples), then one (A, B-report) pair per exchange."""
    first = problem_text(turn)
    if turn.few_shot_examples:
        first = render_examples(turn.few_shot_examples, with_reasoning) + "\n\n" + first
    messages = [{"role": "system", "content": solver_system_prompt(with_reasoning, turn.gaps_unstated)}]
    user = first
    replies = earlier_replies if earlier_replies is not None and len(earlier_replies) == len(turn.history) else None
    for index, exchange in enumerate(turn.history):
        messages.append({"role": "user", "content": user + "\n\n" + status_before(turn, index)})
        if replies is not None:
            said = replies[index]
        elif exchange.request is not None:
            said = action_json("request", request=exchange.request, with_reasoning=with_reasoning)
        else:
            said = "(unreadable reply)"
        messages.append({"role": "assistant", "content": said})
        user = reply_text(exchange)
    messages.append({"role": "user", "content": user + "\n\n" + status_line(turn)})
    return messages


def status_before(turn: SolverTurn, index: int) -> str:
    """The status line the solver saw before its ``index``-th earlier turn (only requests came before)."""
    return (f"Requests left: {turn.budget - index} of {turn.budget}. Send one request, or your final answer if "
            "your facts already determine it.")


# ---------------------------------------------------------------------------------------------- responder
def responder_system_prompt() -> str:
    return _RESPONDER_SYSTEM.format()


def responder_messages(turn: ResponderTurn) -> list[dict[str, str]]:
    facts = "\n".join(f"{n}. {text}" for n, text in enumerate(turn.constraints, start=1))
    user = f"Your constraints:\n{facts}\n\nRequest: {json.dumps(turn.request, ensure_ascii=False)}"
    return [{"role": "system", "content": responder_system_prompt()}, {"role": "user", "content": user}]
