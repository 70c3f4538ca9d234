"""The ``mira_math`` inspect task: agent A is the inspect model, agent B is the tool ``ask_partner``.

Each sample is one instance; ``harness.mira.episode.MiraEpisode`` runs the protocol exactly as
``run_eval.py mira`` does (budget, last turn, refusals, parse failures, the oracle-hint condition). A model
turn is read by ``actions.mira_action``; a request goes to one of our responders (any ``mira.responder``
spec of ``harness.registry``, ``rule`` by default) and B's sanitised reply comes back as the tool result.
The transcript line (``mira-transcript/1``) is kept in the sample's store, scored with
``harness.mira.metrics.instance_metrics`` and turned into a run directory by ``run_eval.py import-inspect``.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from pathlib import Path
from typing import Any

import anyio
from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Target, mean, metric, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef

import harness.prompts.mira as mira_prompts  # the status wording shared with the JSON prompts
from generators.jsonl import dumps as canonical_dumps
from harness import registry
from harness.errors import HarnessError
from harness.inspect_adapter.actions import ASK_PARTNER, MIRA_SUBMIT, mira_action, reply_call
from harness.inspect_adapter.loop import option_dict, run_turns
from harness.mira import PROTOCOL_VERSION
from harness.mira.dataset import Dataset, instance_problem, load_dataset
from harness.mira.episode import AFTER_OFFER, CONDITIONS, RESPONDER, SOLVER, EpisodeConfig, MiraEpisode
from harness.mira.metrics import instance_metrics
from harness.mira.run import resolve_regime
from harness.mira.types import DECLINE_MESSAGE, Responder, ResponderDecision, SolverTurn
from harness.prompts.mira import example_offers, problem_text, render_examples, reply_text, solver_system_prompt
from harness.registry import AgentSpec

TOOL_PROMPT_VERSION = "mira-solver-tools/2"  # /2: built on mira-solver/3
STORE_TRANSCRIPT = "mira_transcript"
STORE_RUN = "mira_run"
DEFAULT_CONFIG = "mira_zero_shot"
UNDEFINED = float("nan")  # a per-sample score that is not defined (our None); skipped by defined_mean
SCORE_KEYS = ("correct", "answered", "requests", "offers", "declines", "first_request_success", "tokens", "O", "C",
              "p_integration_fail", "p_no_canonical", "solver_parse_errors", "hit_rate")

_TOOL_SECTION = """\
Act by calling exactly one tool on each turn:
- ask_partner(request): send one request to B; B's reply comes back as the tool's result.
- submit_answer(answer): your final answer, an object with exactly the keys of the problem's answer format.
A turn without a tool call cannot be read as an action (it uses one request)."""


# ---------------------------------------------------------------------------------------------- prompts
def tool_system_prompt(gaps_unstated: bool = False) -> str:
    """Our solver prompt (``harness.prompts.mira``) with its JSON reply format replaced by the two tools
    (``gaps_unstated``: the hard tier's count-neutral wording)."""
    base = solver_system_prompt(with_reasoning=False, gaps_unstated=gaps_unstated)
    cut = base.find("\n\nReply with a single JSON object")
    if cut < 0:
        raise HarnessError("harness.prompts.mira changed: the solver prompt no longer ends with its JSON format")
    return base[:cut] + "\n\n" + _TOOL_SECTION


def tool_examples(examples: list[dict[str, Any]]) -> str:
    """Our worked examples (``harness.prompts.mira.render_examples``) with A's actions written as tool calls."""
    return render_examples(examples, exchange=lambda ex: [
        *(line for request, hint in example_offers(ex) for line in (
            "A calls ask_partner: " + json.dumps({"request": request}, ensure_ascii=False), f'B offers "{hint}"')),
        "A calls submit_answer: " + json.dumps({"answer": ex.get("answer")}, ensure_ascii=False)])


def status_text(turn: SolverTurn) -> str:
    if turn.hint is not None:
        return f"B has already given you {mira_prompts.given_hints(turn)}. Call submit_answer now."
    if turn.must_answer:
        if turn.requests_used >= turn.budget:
            return f"You have used all {turn.budget} requests. Call submit_answer now; a request will not be answered."
        return f"{mira_prompts.after_offer_text(turn)} Call submit_answer now; a further request will not be answered."
    return (f"Requests left: {turn.requests_left} of {turn.budget}. Call ask_partner, or submit_answer if your "
            "facts already determine the answer.")


def first_user_text(turn: SolverTurn) -> str:
    text = problem_text(turn)
    if turn.few_shot_examples:
        text = tool_examples(turn.few_shot_examples) + "\n\n" + text
    return text + "\n\n" + status_text(turn)


ASK_PARTNER_UNSTATED = "Send one request to agent B, who holds facts you are missing."


def mira_tools(oracle_hint: bool, gaps_unstated: bool = False) -> list[ToolDef]:
    """The two tools; ``gaps_unstated`` (the hard tier): ask_partner's description does not say "the fact"."""

    async def ask_partner(request: str) -> str:
        """Send one request to agent B, who holds the fact you are missing.

        Args:
            request: One specific quantity, named in the notation of your facts (e.g. "What is mu_4?").
        """
        raise RuntimeError("dispatched by the mira_math solver")

    async def submit_answer(answer: dict[str, int]) -> str:
        """Submit your final answer; this ends the task.

        Args:
            answer: The answer object, with exactly the keys of the answer format (integers).
        """
        raise RuntimeError("dispatched by the mira_math solver")

    defs = [ToolDef(submit_answer, name=MIRA_SUBMIT)]
    ask = ToolDef(ask_partner, name=ASK_PARTNER, description=ASK_PARTNER_UNSTATED if gaps_unstated else None)
    return defs if oracle_hint else [ask, *defs]


# ---------------------------------------------------------------------------------------------- B as a model role
class RoleResponder:
    """B played by an inspect model role (``responder=role`` or ``role:NAME``; ``--model-role responder=...``).

    Same prompt (``harness.prompts.mira.responder_messages``) and the same lenient reading
    (``harness.backends.mira_agents.parse_responder_reply``) as our model responders; an unreadable reply is
    a decline with its parse error. Its token usage is tracked by inspect per role."""

    privileged = False

    def __init__(self, role: str = "responder"):
        self.role = role

    def describe(self) -> dict[str, Any]:
        from harness.prompts.mira import RESPONDER_PROMPT_VERSION

        return {"spec": f"role:{self.role}", "kind": "RoleResponder", "backend": "inspect", "model_role": self.role,
                "prompt_version": RESPONDER_PROMPT_VERSION, "deterministic": False}

    async def respond(self, turn: Any) -> ResponderDecision:
        from harness.backends.mira_agents import parse_responder_reply
        from harness.prompts.mira import responder_messages

        chat = responder_messages(turn)
        messages = [ChatMessageSystem(content=chat[0]["content"]), ChatMessageUser(content=chat[1]["content"])]
        output = await get_model(role=self.role, required=True).generate(messages)
        text = output.completion or ""
        usage = {"prompt_tokens": output.usage.input_tokens, "completion_tokens": output.usage.output_tokens} if (
            output.usage) else None
        if output.error:
            return ResponderDecision.decline(text or DECLINE_MESSAGE, f"model error: {output.error}", usage=usage)
        parsed, error = parse_responder_reply(text, turn)
        if parsed is None:
            return ResponderDecision.decline(text or DECLINE_MESSAGE, error or "unreadable", usage=usage)
        if parsed["type"] == "decline":
            return ResponderDecision.decline(text, usage=usage)
        return ResponderDecision.offer(parsed["constraint_quoted"], parsed.get("hint") or parsed["constraint_quoted"],
                                       text, usage=usage)

    def close(self) -> None:
        """Nothing to release: inspect owns the model."""


def make_responder(spec: str, options: dict[str, str]) -> Any:
    parsed = AgentSpec.parse(spec)
    if parsed.name == "role":
        if options:
            raise HarnessError("responder=role takes no responder_options (set them on the model role)")
        return RoleResponder(parsed.arg or "responder")
    return registry.create("mira.responder", spec, options)


# ---------------------------------------------------------------------------------------------- driver
class MiraDriver:
    """One episode; the model plays A, ``responder`` plays B (calls serialised: backends are not reentrant)."""

    def __init__(self, episode: MiraEpisode, responder: Responder | RoleResponder | None, lock: threading.Lock):
        self.episode = episode
        self.responder = responder
        self.lock = lock

    def wants_model(self) -> bool:
        pending = self.episode.pending()
        return pending is not None and pending.role == SOLVER

    def turn(self) -> SolverTurn:
        return self.episode.pending().payload  # type: ignore[union-attr]

    async def act(self, tool: str | None, arguments: Any, content: str, parse_error: str | None,
                  usage: dict[str, int] | None) -> tuple[str, bool]:
        action = mira_action(tool, arguments, content, parse_error)
        if usage:
            action = type(action)(**{**action.__dict__, "usage": usage})
        ep = self.episode
        ep.deliver(SOLVER, action)
        pending = ep.pending()
        if pending is not None and pending.role == RESPONDER:
            if isinstance(self.responder, RoleResponder):
                decision = await self.responder.respond(pending.payload)
            else:
                decision = await anyio.to_thread.run_sync(self._respond, pending.payload)
            ep.deliver(RESPONDER, decision)
        if ep.pending() is None:
            return self._closing_text(), ep.end_reason != "answered"
        last = ep.history[-1]
        return reply_text(last) + "\n\n" + status_text(self.turn()), last.request is None

    def _respond(self, turn: Any) -> Any:
        with self.lock:
            return self.responder.respond([turn])[0]  # type: ignore[union-attr]

    def _closing_text(self) -> str:
        reason = self.episode.end_reason
        if reason == "answered":
            return "Your answer is recorded."
        if reason == "final_turn_parse_error":
            return "Your last reply could not be read as an answer; the task ends without one."
        return "No request is answered now; the task ends without an answer."


# ---------------------------------------------------------------------------------------------- data
def load_instances(dataset: str | None, config: str, limit: int | None, revision: str | None = None) -> Dataset:
    """A JSONL file (checked as ``run_eval.py mira`` does), one of our export folders, a Hub repo id (read, checked
    and recorded as ``run_eval.py mira --dataset ORG/NAME --config C --revision R`` does), or a builder config's
    records generated here (the default split's parameters; only the first ``limit`` are generated)."""
    from builder.registry import canonical_config

    config = canonical_config(config)
    if revision and not (dataset and _is_hub_repo(dataset)):
        raise HarnessError("revision is for a Hub repo id given as dataset")
    if dataset:
        path = Path(dataset)
        if _is_hub_repo(dataset):
            return load_dataset(dataset, limit, config=config, revision=revision)
        if path.is_dir():
            from builder.rows import read_records

            records = []
            for record in read_records(path, config):
                if limit is not None and len(records) >= limit:
                    break
                problem = instance_problem(record)
                if problem is not None:
                    raise HarnessError(f"{path} [{config}] {record.get('id')}: {problem}")
                records.append(record)
            return _dataset(f"export:{path}:{config}", records)
        return load_dataset(path, limit)
    from builder.mira_elenchos import BenchConfig
    from builder.registry import get_spec

    spec = get_spec(config)
    if spec.benchmark != "mira":
        raise HarnessError(f"config {config!r} is not a MIRA-Math config")
    params = spec.params_of(BenchConfig(name=config))
    total = spec.resolve("count")(params, "test")
    stop = total if limit is None else min(limit, total)
    records = list(spec.resolve("records")(params, "test", 0, stop))
    return _dataset(f"generated:{config}:seed={params['seed']}", records)


def _is_hub_repo(dataset: str) -> bool:
    """``ORG/NAME`` that is not a local path."""
    if Path(dataset).exists():
        return False
    from builder.rows import is_release_source

    return is_release_source(dataset)


def _dataset(source: str, records: list[dict[str, Any]]) -> Dataset:
    """Records that do not come from a file: their checksum is over their canonical JSON lines."""
    h = hashlib.sha256()
    for record in records:
        h.update((canonical_dumps(record) + "\n").encode())
    return Dataset(path=source, sha256=h.hexdigest(), instances=records,
                   line_of={r["id"]: i for i, r in enumerate(records, start=1)}, total_lines=len(records))


def samples(instances: list[dict[str, Any]]) -> list[Sample]:
    out = []
    for inst in instances:
        view_a = next(v["private_data"] for v in inst["agent_views"] if v["agent_id"] == "A")
        question = "\n".join([f"Question: {inst['question']}", *(f"- {c}" for c in view_a["constraints_text"])])
        out.append(Sample(id=inst["id"], input=question, target=json.dumps(inst["global_solution"]),
                          metadata={"family": inst["family"], "type": inst["type"],
                                    "difficulty": inst["difficulty"], "instance": inst}))
    return out


# ---------------------------------------------------------------------------------------------- task
def mira_task(dataset: str | None = None, config: str = DEFAULT_CONFIG, regime: str = "auto",
              condition: str = "standard", responder: str = "rule", responder_options: Any = None,
              after_offer: str = "answer", limit: int | None = None, message_limit: int | None = None,
              token_limit: int | None = None, time_limit: int | None = None, revision: str | None = None) -> Task:
    if condition not in CONDITIONS:
        raise HarnessError(f"condition must be one of {', '.join(CONDITIONS)}")
    if after_offer not in AFTER_OFFER:
        raise HarnessError(f"after_offer must be one of {', '.join(AFTER_OFFER)}")
    data = load_instances(dataset, config, None if limit is None else int(limit), revision)
    instances, source = data.instances, data.path
    if not instances:
        raise HarnessError(f"{source}: no instances")
    resolved = resolve_regime(regime, data)
    options = option_dict(responder_options)
    agent = None if condition == "oracle_hint" else make_responder(responder, options)
    run = {"benchmark": "mira", "protocol_version": PROTOCOL_VERSION, "dataset_sha256": data.sha256, "dataset": source,
           "dataset_source": data.source, "instances": len(instances), "generator_versions": data.generator_versions(),
           "dataset_seeds": data.dataset_seeds(), "instance_seeds_sha256": data.seed_digest(),
           "limit": limit, "condition": condition, "regime": resolved,
           "after_offer": after_offer, "responder": responder if agent else None,
           "responder_options": options if agent else {}, "responder_describe": agent.describe() if agent else None,
           "solver_prompt_version": TOOL_PROMPT_VERSION}
    return Task(dataset=MemoryDataset(samples(instances), name=Path(source).name, location=source),
                solver=mira_solver(run, agent), scorer=mira_scorer(), metadata={"mira_run": run}, name="mira_math",
                message_limit=message_limit, token_limit=token_limit, time_limit=time_limit, version=1)


@solver
def mira_solver(run: dict[str, Any], responder: Responder | RoleResponder | None) -> Solver:
    lock = threading.Lock()
    config = EpisodeConfig(condition=run["condition"], regime=run["regime"], after_offer=run["after_offer"],
                           responder_privileged=bool(responder and responder.privileged))

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        episode = MiraEpisode(state.metadata["instance"], config)
        driver = MiraDriver(episode, responder, lock)
        first = driver.turn()
        messages = [ChatMessageSystem(content=tool_system_prompt(first.gaps_unstated)),
                    ChatMessageUser(content=first_user_text(first))]
        tools = mira_tools(config.condition == "oracle_hint", first.gaps_unstated)
        messages, output = await run_turns(get_model(), messages, tools, driver)
        state.messages = messages
        if output is not None:
            state.output = output
        state.store.set(STORE_TRANSCRIPT, episode.record())
        state.store.set(STORE_RUN, run)
        state.completed = True
        return state

    return solve


@metric
def defined_mean() -> Metric:
    """Mean over the samples where the value is defined (our ``hit_rate``: instances with responder messages);
    an undefined value is NaN in the score dict."""

    def compute(scores: list[SampleScore]) -> float:
        values = [v for v in (s.score.value for s in scores) if isinstance(v, int | float) and not math.isnan(v)]
        return sum(values) / len(values) if values else float("nan")

    return compute


@scorer(metrics={**{key: [mean()] for key in SCORE_KEYS if key not in ("correct", "hit_rate")},
                 "correct": [mean(), stderr()], "hit_rate": [defined_mean()]})
def mira_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        record = state.store.get(STORE_TRANSCRIPT)
        if record is None:
            return Score(value=dict.fromkeys(SCORE_KEYS, 0), explanation="no transcript (the sample did not run)")
        return score_of(record)

    return score


def score_of(record: dict[str, Any]) -> Score:
    m = instance_metrics(record)
    value = {key: m[key] for key in SCORE_KEYS if key in m}
    value["p_integration_fail"] = m["C"] * (1 - m["F"])
    value["p_no_canonical"] = (1 - m["C"]) * (1 - m["F"])
    # undefined (no responder message): NaN, not None, which inspect's reducers would count as 0 (with a warning)
    value["hit_rate"] = UNDEFINED if m["hit_rate"] is None else m["hit_rate"]
    normalized = (record.get("final_answer") or {}).get("normalized")
    if normalized is not None and not isinstance(normalized, str):
        normalized = json.dumps(normalized, ensure_ascii=False, sort_keys=True)
    return Score(value=value, answer=normalized, explanation=record.get("end_reason"))


# ---------------------------------------------------------------------------------------------- mock replies
def mock_outputs(script: dict[str, list[dict[str, Any]]], ids: list[str], model: str = "mockllm/model"
                 ) -> list[ModelOutput]:
    """inspect ``mockllm`` outputs for a ``scripted:`` script (``harness.scripted``), samples run in ``ids`` order."""
    return [reply_output(reply, model) for key in ids for reply in script.get(key, [])]


def reply_output(reply: dict[str, Any], model: str = "mockllm/model") -> ModelOutput:
    """One scripted reply as a model output, with its token usage set (mockllm would otherwise count tokens
    with tiktoken, which downloads its encoding: not possible offline)."""
    tool, arguments, content, _ = reply_call(reply)
    if tool is None:
        output = ModelOutput.from_content(model=model, content=content)
    else:
        output = ModelOutput.for_tool_call(model=model, tool_name=tool, tool_arguments=arguments, content=content)
    words = len(content.split()) + len(json.dumps(arguments).split()) if tool else len(content.split())
    output.usage = ModelUsage(input_tokens=0, output_tokens=words, total_tokens=words)
    return output
