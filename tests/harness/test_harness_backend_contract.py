"""The contract a model backend (issue 7) relies on, shown with a fake text-in/text-out "model".

A backend registers a factory under a spec name, receives batches of turns, returns one action per turn
(``invalid`` for output it cannot parse), reports usage, and describes itself for run.json.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness import registry
from harness.errors import ConfigMismatch
from harness.mira.run import MiraRunConfig, run_mira
from harness.mira.types import Solver, SolverAction, SolverTurn


class FakeModelSolver(Solver):
    """Asks for the first thing listed in the few-shot request style, then answers garbage or JSON."""

    def __init__(self, version: str, options: dict[str, str]):
        self.version = version
        self.max_tokens = int(options.get("max_tokens", 64))
        self.batches: list[int] = []

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "backend": "fake", "deterministic": True, "prompt_version": self.version,
                "decoding": {"temperature": 0.0, "seed": 1234, "max_tokens": self.max_tokens}}

    def act(self, turns: list[SolverTurn]) -> list[SolverAction]:
        self.batches.append(len(turns))
        return [self._parse(self._generate(t), t) for t in turns]

    def _generate(self, turn: SolverTurn) -> str:
        if turn.instance_id.endswith("1"):
            return "I think the answer is... {oops"  # unparseable
        if turn.must_answer:
            return json.dumps({"type": "final", "answer": {"value": 0}})
        return json.dumps({"type": "request", "request": "What is missing?"})

    def _parse(self, text: str, turn: SolverTurn) -> SolverAction:
        usage = {"prompt_tokens": len(" ".join(turn.constraints).split()), "completion_tokens": len(text.split())}
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            return SolverAction.invalid(text, f"no JSON object: {exc.msg}", usage=usage)
        if data.get("type") == "final":
            return SolverAction.final(data["answer"], text, usage=usage)
        return SolverAction.ask(data["request"], text, usage=usage)


@pytest.fixture(autouse=True)
def fake_backend():
    registry.register("mira.solver", "fake", lambda arg, options: FakeModelSolver(arg or "v1", options))
    yield
    registry.unregister("mira.solver", "fake")


def test_a_backend_plugs_in_by_spec_and_reports_usage(split_files: dict[str, Path], tmp_path: Path) -> None:
    cfg = MiraRunConfig(dataset=str(split_files["zero_shot"]), out=str(tmp_path / "r"), solver="fake:v1",
                        solver_options={"max_tokens": "32"}, limit=30, progress=False)
    result = run_mira(cfg)
    info = json.loads((tmp_path / "r" / "run.json").read_text())
    assert info["agents"]["solver"]["spec"] == "fake:v1"
    assert info["decoding"]["solver"] == {"temperature": 0.0, "seed": 1234, "max_tokens": 32}
    assert info["prompt_versions"]["solver"] == "v1"
    usage = info["usage"]["solver"]
    assert usage["calls"] > 30 and usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert result.metrics["overall"]["solver_parse_errors"] > 0  # recorded, never fatal
    assert info["engine_calls"]["by_role"]["solver"]["calls"] <= 10


def test_resume_refuses_a_backend_that_describes_itself_differently(split_files, tmp_path: Path) -> None:
    out = tmp_path / "r"
    base = {"dataset": str(split_files["zero_shot"]), "out": str(out), "limit": 5, "progress": False}
    run_mira(MiraRunConfig(solver="fake:v1", **base))
    info = json.loads((out / "run.json").read_text())
    info["status"] = "running"  # pretend it was interrupted
    (out / "run.json").write_text(json.dumps(info))
    (out / "transcripts.jsonl").write_text("")
    registry.register("mira.solver", "fake", lambda arg, options: FakeModelSolver("v2", options))
    with pytest.raises(ConfigMismatch, match="describe themselves differently"):
        run_mira(MiraRunConfig(solver="fake:v1", **base))
