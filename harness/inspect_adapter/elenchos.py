"""The ``elenchos`` inspect task: the model audits two LambdaPy kernels through the four tools.

Each sample is one session record (``elenchos.sessions``); ``harness.elenchos.episode.ElenchosEpisode`` runs it exactly
as ``run_eval.py elenchos`` does (probe budget, must-submit turns, grace turns, turn limit). The system prompt is
the session level's (``harness.prompts.elenchos``, without the JSON-format section: the tools are native);
each tool result is our ``ToolResult`` JSON, followed by the status line. The transcript line
(``elenchos-transcript/1``) is kept in the sample's store and scored with ``harness.elenchos.metrics.session_metrics``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, get_model
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef

from elenchos import ELENCHOS_VERSION
from elenchos.family import level0_probes
from harness.backends.elenchos_agents import audit_messages, status_line
from harness.elenchos import PROTOCOL_VERSION
from harness.elenchos.episode import AGENT, ElenchosEpisode
from harness.elenchos.metrics import session_metrics
from harness.elenchos.run import ElenchosRunConfig, load_sessions, sessions_sha256
from harness.elenchos.types import ElenchosTurn
from harness.errors import HarnessError
from harness.inspect_adapter.actions import elenchos_call
from harness.inspect_adapter.loop import run_turns
from harness.prompts.elenchos import ELENCHOS_PROMPT_VERSION

STORE_TRANSCRIPT = "elenchos_transcript"
STORE_RUN = "elenchos_run"
SCORE_KEYS = ("V", "V_K", "V_A", "V_A_J", "E_ELX", "precision", "recall", "P", "P_over_P_max")
EXPORT_CONFIGS = {"ladder": "elenchos_ladder", "benchmark": "elenchos_benchmark"}


def elenchos_tools() -> list[ToolDef]:
    async def probe(source: str) -> str:
        """Send one LambdaPi source string to both kernels; returns both outputs and a divergence summary.

        Args:
            source: any number of assume/let lines, then exactly one eval line, separated by newlines.
        """
        raise RuntimeError("dispatched by the elenchos solver")

    async def list_context() -> str:
        """Show both kernels' persistent contexts (earlier assumptions and definitions); free."""
        raise RuntimeError("dispatched by the elenchos solver")

    async def budget_left() -> str:
        """Return the remaining probe budget; free."""
        raise RuntimeError("dispatched by the elenchos solver")

    async def submit_answer(corrupted_kernel: str, mutation_ids: list[str], justification: str,
                            minimal_probe: str, explanatory_probe: str) -> str:
        """Final submission; ends the session.

        Args:
            corrupted_kernel: "A" or "B" (or "neither" where the prompt allows it).
            mutation_ids: catalog IDs such as ["ID_02"]; an empty list with "neither".
            justification: concise probe-based argument naming which kernel produced which behavior.
            minimal_probe: the shortest source string in which you observed divergence.
            explanatory_probe: a second probe you already ran that confirms the semantic consequence.
        """
        raise RuntimeError("dispatched by the elenchos solver")

    return [ToolDef(probe), ToolDef(list_context), ToolDef(budget_left), ToolDef(submit_answer)]


class ElenchosDriver:
    def __init__(self, episode: ElenchosEpisode):
        self.episode = episode

    def wants_model(self) -> bool:
        return self.episode.pending() is not None

    def turn(self) -> ElenchosTurn:
        return self.episode.pending().payload  # type: ignore[union-attr]

    async def act(self, tool: str | None, arguments: Any, content: str, parse_error: str | None,
                  usage: dict[str, int] | None) -> tuple[str, bool]:
        call = elenchos_call(tool, arguments, content, parse_error)
        if usage:
            call = type(call)(**{**call.__dict__, "usage": usage})
        self.episode.deliver(AGENT, call)
        result = self.episode.history[-1].result
        if self.episode.pending() is None:
            return result.text(), not result.ok
        return result.text() + "\n" + status_line(self.turn()), not result.ok


def load(suite: str, sessions: str | None, config: str | None, seed: int, repetitions: int, limit: int | None
         ) -> tuple[list[dict[str, Any]], str]:
    if sessions and Path(sessions).is_dir():
        from builder.rows import read_records

        name = config or EXPORT_CONFIGS.get(suite, "")
        records = list(read_records(sessions, name))
        records = records if limit is None else records[:limit]
        if not records:
            raise HarnessError(f"{sessions} [{name}]: no sessions")
        return records, f"export:{sessions}:{name}"
    cfg = ElenchosRunConfig(out="", suite=suite, seed=seed, repetitions=repetitions, sessions_file=sessions,
                            limit=limit)
    return load_sessions(cfg)


def elenchos_task(suite: str = "ladder", sessions: str | None = None, config: str | None = None, seed: int = 1234,
                  repetitions: int = 5, limit: int | None = None, message_limit: int | None = None,
                  token_limit: int | None = None, time_limit: int | None = None) -> Task:
    records, source = load(suite, sessions, config, int(seed), int(repetitions), None if limit is None else int(limit))
    suites = sorted({r.get("metadata", {}).get("suite") or suite for r in records})
    run = {"benchmark": "elenchos", "protocol_version": PROTOCOL_VERSION, "source": source,
           "suite": suites[0] if len(suites) == 1 else "mixed", "sessions_sha256": sessions_sha256(records),
           "sessions": len(records), "limit": limit, "seed": None if sessions else int(seed),
           "repetitions": None if sessions else int(repetitions), "elenchos_version": ELENCHOS_VERSION,
           "prompt_version": ELENCHOS_PROMPT_VERSION + "+native-tools"}
    data = [Sample(id=r["id"], input=f"Elenchos session {r['id']} (level {r['level']})",
                   target=r["corrupted_kernel"], metadata={"level": r["level"], "k": r["k"], "session": r})
            for r in records]
    return Task(dataset=MemoryDataset(data, name=f"elenchos-{run['suite']}", location=source),
                solver=elenchos_solver(run), scorer=elenchos_scorer(), metadata={"elenchos_run": run}, name="elenchos",
                message_limit=message_limit, token_limit=token_limit, time_limit=time_limit, version=1)


@solver
def elenchos_solver(run: dict[str, Any]) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        record = state.metadata["session"]
        probes = level0_probes() if record["level"] == 0 else {}
        episode = ElenchosEpisode(record, probes)
        driver = ElenchosDriver(episode)
        system, user = audit_messages(driver.turn(), tool_format=None)  # our prompt without its JSON-format section
        messages = [ChatMessageSystem(content=system["content"]), ChatMessageUser(content=user["content"])]
        messages, output = await run_turns(get_model(), messages, elenchos_tools(), driver)
        state.messages = messages
        if output is not None:
            state.output = output
        state.store.set(STORE_TRANSCRIPT, episode.record_line())
        state.store.set(STORE_RUN, run)
        state.completed = True
        return state

    return solve


@scorer(metrics={**{key: [mean()] for key in SCORE_KEYS if key != "V"}, "V": [mean(), stderr()]})
def elenchos_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        line = state.store.get(STORE_TRANSCRIPT)
        if line is None:
            return Score(value=dict.fromkeys(SCORE_KEYS, 0), explanation="no transcript (the sample did not run)")
        return score_of(line)

    return score


def score_of(line: dict[str, Any]) -> Score:
    row = session_metrics(line)
    value = {key: row[key] for key in SCORE_KEYS}
    sub = line.get("submission") or {}
    answer = f"{sub.get('corrupted_kernel')} {sub.get('mutation_ids')}" if sub else None
    return Score(value=value, answer=answer, explanation=line.get("end_reason"))
