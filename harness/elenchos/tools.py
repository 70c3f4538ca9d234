"""One audit session: two kernels with their own persistent state, the four tools, the probe budget.

``AuditSession(record).execute(call) -> ToolResult`` runs one tool call. Rules (decisions in
``docs/elenchos.md``):

* ``probe(source)``: the source goes to both kernels (each keeps its own context: a ``let`` that fails in
  one kernel is not kept there); the result is ``{"A": {sigma, result, epsilon}, "B": {...}, "diff": ...,
  "budget_left": n}``. It costs one probe whenever the kernels run it, including probes they reject (parse
  errors, format errors, type errors): the paper counts those as probes ("both reject with same error").
* ``list_context()``: both kernels' contexts (``{"A": "...", "B": "..."}``); free.
* ``budget_left()``: ``{"budget_left": n, "probes_used": n, "budget": P_max}``; free.
* ``submit_answer(...)``: validated against ``schemas/elenchos_submission.schema.json`` (a superset of the
  ``submission`` of ``schemas/elenchos_tool_call.schema.json``, the model-output contract: it also accepts
  loosely written IDs such as ``id_4``) and the level (no
  ``neither`` below Level 3; ``neither`` iff no IDs; at most three IDs; IDs normalised and de-duplicated);
  an accepted submission ends the session.
* An invalid call (unknown tool, malformed arguments, a probe that is not a non-empty string, a submission
  that breaks a rule) gets ``ok = false`` with a message naming the problem; it spends no probe.
* At budget 0 only ``submit_answer`` is accepted; every other call gets an error.
"""

from __future__ import annotations

from typing import Any

from harness.elenchos.types import TOOLS, ToolCall, ToolResult
from lambdapy import Kernel, KernelConfig, diff
from lambdapy.mutations import normalize_id
from schemas import schema_errors

MAX_IDS = 3


def argument_errors(tool: str, arguments: Any) -> list[str]:
    """What is wrong with a tool's arguments (empty when they are fine)."""
    if not isinstance(arguments, dict):
        return [f"arguments must be a JSON object, not {type(arguments).__name__}"]
    if tool == "probe":
        extra = sorted(set(arguments) - {"source"})
        source = arguments.get("source")
        problems = [f"unexpected argument(s) {', '.join(extra)}"] if extra else []
        if "source" not in arguments:
            problems.append("source: required (the probe text: assume/let lines, then one eval line)")
        elif not isinstance(source, str) or not source.strip():
            problems.append("source: must be a non-empty string")
        return problems
    if tool in ("list_context", "budget_left"):
        return [f"{tool} takes no arguments (got {', '.join(sorted(arguments))})"] if arguments else []
    return [f"{path}: {message}" if path != "(record)" else message
            for path, message in schema_errors("elenchos_submission", arguments)]


class AuditSession:
    """The environment of one session record (``elenchos.sessions``)."""

    def __init__(self, record: dict[str, Any]):
        self.record = record
        self.level = int(record["level"])
        self.budget = int(record["probe_budget"])
        label = record["corrupted_kernel"]
        corrupted = KernelConfig.from_ids(record["mutations"])
        self.kernels = {side: Kernel(corrupted if side == label else KernelConfig()) for side in ("A", "B")}
        self.probes_used = 0
        self.submission: dict[str, Any] | None = None

    @property
    def budget_left(self) -> int:
        return self.budget - self.probes_used

    @property
    def allow_neither(self) -> bool:
        return self.level == 3

    @property
    def finished(self) -> bool:
        return self.submission is not None

    def execute(self, call: ToolCall) -> ToolResult:
        tool = call.tool
        if call.parse_error is not None:
            return self._error(tool, f"could not read the tool call: {call.parse_error}")
        if tool not in TOOLS:
            return self._error(tool, f"unknown tool {tool!r}; the tools are {', '.join(TOOLS)}")
        if self.finished:
            return self._error(tool, "the session is over: an answer was already submitted")
        if tool != "submit_answer" and self.budget_left <= 0:
            return self._error(tool, "the probe budget is exhausted: only submit_answer is possible now")
        problems = argument_errors(tool, call.arguments)
        if problems:
            return self._error(tool, f"invalid arguments for {tool}: " + "; ".join(problems))
        return getattr(self, f"_{tool}")(call.arguments)

    def refuse(self, call: ToolCall, reason: str) -> ToolResult:
        """An error result for a call the loop does not run (e.g. anything but a submission on the last turn)."""
        return self._error(call.tool, reason)

    # -- tools -------------------------------------------------------------------------------------------------
    def _probe(self, arguments: dict[str, Any]) -> ToolResult:
        source = arguments["source"]
        obs = {side: kernel.probe(source) for side, kernel in self.kernels.items()}
        self.probes_used += 1
        content = {"A": obs["A"].to_json(), "B": obs["B"].to_json(), "diff": diff(obs["A"], obs["B"]),
                   "budget_left": self.budget_left}
        return ToolResult("probe", True, content, cost=1)

    def _list_context(self, arguments: dict[str, Any]) -> ToolResult:
        return ToolResult("list_context", True, {side: k.list_context() for side, k in self.kernels.items()})

    def _budget_left(self, arguments: dict[str, Any]) -> ToolResult:
        return ToolResult("budget_left", True, {"budget_left": self.budget_left, "probes_used": self.probes_used,
                                                "budget": self.budget})

    def _submit_answer(self, arguments: dict[str, Any]) -> ToolResult:
        label = arguments["corrupted_kernel"]
        if label == "neither" and not self.allow_neither:
            return self._error("submit_answer", 'corrupted_kernel "neither" is only possible at Level 3; exactly one '
                                                'kernel is corrupted here: submit "A" or "B"')
        ids: list[str] = []
        for raw in arguments["mutation_ids"]:
            try:
                mid = normalize_id(raw)
            except KeyError:
                return self._error("submit_answer", f"unknown mutation id {raw!r}; the ids are ID_01 ... ID_13")
            if mid not in ids:
                ids.append(mid)
        if label == "neither" and ids:
            return self._error("submit_answer", 'with corrupted_kernel "neither" submit an empty mutation_ids list')
        if label != "neither" and not ids:
            return self._error("submit_answer", f"name at least one mutation id for corrupted kernel {label}")
        if len(ids) > MAX_IDS:
            return self._error("submit_answer", f"at most {MAX_IDS} mutation ids (got {len(ids)})")
        self.submission = {**arguments, "corrupted_kernel": label, "mutation_ids": sorted(ids),
                           "raw_mutation_ids": list(arguments["mutation_ids"])}
        return ToolResult("submit_answer", True, {"accepted": True, "corrupted_kernel": label,
                                                  "mutation_ids": sorted(ids)})

    @staticmethod
    def _error(tool: str, message: str) -> ToolResult:
        return ToolResult(tool, False, {}, message, 0)
