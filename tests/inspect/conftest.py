"""Fixtures for the inspect_ai front end: a few MIRA-Math instances and Elenchos sessions, and scripts of
replies written the way different models answer (terse tool calls, chatty preambles, a plain-text reply
without a tool call, an unknown tool, a request after an offer, a vague request)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from generators.jsonl import write_jsonl
from generators.split import generate, typed_slots


def _alias(inst: dict[str, Any], n: int = 0) -> str:
    aliases = inst["minimal_hint_spec"]["atomic_hints"][0]["request_aliases"]
    return aliases[n % len(aliases)]


@pytest.fixture(scope="session")
def mira_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("inspect_mira")
    slots = typed_slots(1, 1)
    families = list(dict.fromkeys(s.family for s in slots))[::4][:6]  # six families, Types A and B
    picked = [next(s for s in slots if s.family == fam and s.requested_difficulty == 1 + j % 3)
              for j, fam in enumerate(families)]
    path = root / "mira.jsonl"
    write_jsonl(path, generate(picked, 1234))
    instances = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    script = mira_script(instances)
    script_path = root / "script.json"
    script_path.write_text(json.dumps({"format": "scripted-replies/1", "replies": script}), encoding="utf-8")
    return {"dataset": path, "instances": instances, "script": script, "script_path": script_path, "root": root}


def mira_script(instances: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """One behaviour per instance, cycling; every reply is consumed by the protocol (checked by the tests)."""
    script: dict[str, list[dict[str, Any]]] = {}
    for i, inst in enumerate(instances):
        right = inst["global_solution"]
        wrong = {k: (v + 1 if isinstance(v, int) and k != "denominator" else v) for k, v in right.items()}
        ask = {"tool": "ask_partner", "arguments": {"request": f"What is {_alias(inst)}?"}}
        kind = i % 6
        if kind == 0:  # terse model: one precise request, then the answer
            replies = [ask, {"tool": "submit_answer", "arguments": {"answer": right}}]
        elif kind == 1:  # chatty model: reasoning text before each call, vague request first, wrong answer
            replies = [{"content": "Let me think about which quantity is missing here. I will ask B.",
                        "tool": "ask_partner", "arguments": {"request": "What information am I missing?"}},
                       {"content": "B could not help; asking precisely.", **ask},
                       {"content": "With that fact I can finish.", "tool": "submit_answer",
                        "arguments": {"answer": wrong}}]
        elif kind == 2:  # a reply without a tool call (costs a request), then a request and the answer
            replies = [{"content": '{"action": "request", "request": "mu4?"}'}, ask,
                       {"tool": "submit_answer", "arguments": {"answer": right}}]
        elif kind == 3:  # a request after the offer: the episode ends without an answer
            replies = [ask, {"tool": "ask_partner", "arguments": {"request": "And what else do you know?"}}]
        elif kind == 4:  # an unknown tool and a malformed submission, then the answer without asking
            replies = [{"tool": "calculator", "arguments": {"expression": "1+1"}},
                       {"tool": "submit_answer", "arguments": {"value": 3}},
                       {"tool": "submit_answer", "arguments": {"answer": right}}]
        else:  # answers "10/37"-style text instead of the object: graded by the verifier
            replies = [ask, {"tool": "submit_answer", "arguments": {"answer": "7"}}]
        script[inst["id"]] = replies
    return script


@pytest.fixture(scope="session")
def elenchos_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from elenchos.sessions import sessions

    root = tmp_path_factory.mktemp("inspect_elenchos")
    records = list(sessions("benchmark", repetitions=1))
    picked = [records[0], records[1], records[7]]  # the null set, a singleton, a pair
    path = root / "sessions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in picked), encoding="utf-8")
    script = elenchos_script(picked)
    script_path = root / "script.json"
    script_path.write_text(json.dumps({"format": "scripted-replies/1", "replies": script}), encoding="utf-8")
    return {"sessions": path, "records": picked, "script": script, "script_path": script_path, "root": root}


def _submit(label: str, ids: list[str], content: str = "") -> dict[str, Any]:
    return {"content": content, "tool": "submit_answer",
            "arguments": {"corrupted_kernel": label, "mutation_ids": ids, "justification": "probe evidence",
                          "minimal_probe": "eval Zero", "explanatory_probe": "eval Succ Zero"}}


def elenchos_script(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    script = {}
    for i, r in enumerate(records):
        probe = {"tool": "probe", "arguments": {"source": "assume n : Nat\neval NatElim (\\x -> Nat) Zero "
                                                            "(\\k r -> Succ r) (Succ (Succ Zero))"}}
        if i == 0:  # free tools, a probe, a plain-text turn, then the right answer
            replies = [{"tool": "budget_left", "arguments": {}}, probe, {"tool": "list_context", "arguments": {}},
                       {"content": "I believe neither kernel is corrupted."},
                       _submit("neither", [], "No divergence observed.")]
        elif i == 1:  # a rejected submission (neither with ids), then the true answer
            replies = [probe, _submit("neither", ["ID_01"]), _submit(r["corrupted_kernel"], r["mutations"])]
        else:  # a probe that does not parse, an unknown tool, then a wrong kernel label
            wrong = "A" if r["corrupted_kernel"] == "B" else "B"
            replies = [{"tool": "probe", "arguments": {"source": "eval ((("}},
                       {"tool": "run_python", "arguments": {"code": "print(1)"}},
                       _submit(wrong, r["mutations"][:1])]
        script[r["id"]] = replies
    return script
