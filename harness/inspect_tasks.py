"""inspect_ai tasks for MIRA-Math and Elenchos (``pip install -e '.[inspect]'``; see docs/inspect.md)::

    inspect eval harness/inspect_tasks.py@mira_math -T config=mira_zero_shot -T responder=rule --model PROVIDER/MODEL
    inspect eval harness/inspect_tasks.py@mira_math -T dataset=data/mira_zero_shot.jsonl --model ...
    inspect eval mira_elenchos/mira_math -T dataset=data/mira_zero_shot.jsonl --model ...   (the entry point)
    inspect eval harness/inspect_tasks.py@elenchos -T suite=benchmark --model PROVIDER/MODEL
    python run_eval.py import-inspect logs/FILE.eval --out runs/NAME      (then run_eval.py score runs/NAME)

Both tasks are thin: the protocols are our own loops (``harness.mira.episode``, ``harness.elenchos.episode``) and the
scores our own metrics, so a run here and a run of ``run_eval.py`` with the same replies give the same numbers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from inspect_ai import Task, task

from harness.inspect_adapter.elenchos import elenchos_task
from harness.inspect_adapter.mira import DEFAULT_CONFIG, mira_task

TASK_DIR = Path(__file__).resolve().parent


def from_caller(path: str | None) -> str | None:
    """``path`` relative to the directory ``inspect eval`` was started in.

    inspect runs a task file's code inside the file's folder (``harness/``), so a relative ``-T dataset=...``
    would be read from there; the shell's ``$PWD`` still names the caller's directory. A path that is
    absolute, already there from here, or not there from ``$PWD`` either (a Hub repo id) is kept as given.
    """
    if not path or Path(path).is_absolute() or Path.cwd().resolve() != TASK_DIR:
        return path
    caller = os.environ.get("PWD")
    if not caller or Path(caller).resolve() == TASK_DIR or not (Path(caller) / path).exists():
        return path
    return str(Path(caller) / path)


def spec_from_caller(spec: str) -> str:
    """An agent spec whose model is a relative folder (``hf:./runs/tiny``, ``cascade:hf:runs/tiny``) with that
    folder read from the caller's directory, as ``from_caller`` reads a dataset."""
    head, sep, model = spec.rpartition(":")
    return f"{head}{sep}{from_caller(model)}" if sep and model else spec


@task
def mira_math(dataset: str | None = None, config: str = DEFAULT_CONFIG, regime: str = "auto",
              condition: str = "standard", responder: str = "rule", responder_options: Any = None,
              after_offer: str = "answer", limit: int | None = None, message_limit: int | None = None,
              token_limit: int | None = None, time_limit: int | None = None, revision: str | None = None) -> Task:
    """MIRA-Math: the model is agent A; agent B (``responder``, any of ours) answers the tool ``ask_partner``.

    Args:
        dataset: a MIRA-Math JSONL file, one of our export folders or a Hub repo id ``ORG/NAME`` (default:
            generate ``config`` here).
        config: builder config (``mira_zero_shot``, ``mira_four_shot`` also spelled ``mira_few_shot``) to read from
            an export or generate.
        regime: ``auto`` (four-shot iff every instance has worked examples), ``zero_shot`` or ``four_shot``
            (also spelled ``few_shot``).
        condition: ``standard`` or ``oracle_hint`` (no responder; the hint is given up front).
        responder: a ``mira.responder`` spec of ``run_eval.py agents`` (``rule``, ``openai:MODEL``, ...); a relative
            model folder (``hf:./runs/tiny``) is read from where ``inspect eval`` was started.
        responder_options: responder options, ``"k=v,k2=v2"`` or a mapping.
        after_offer: ``answer`` (the next turn after an offer is the last) or ``continue``.
        limit: only the first N instances (generated configs generate only these).
        message_limit: inspect's per-sample message limit (our protocol ends every episode by itself).
        token_limit: inspect's per-sample token limit.
        time_limit: inspect's per-sample time limit in seconds.
        revision: with a Hub repo id: branch, release tag or commit (default main).
    """
    return mira_task(from_caller(dataset), config, regime, condition, spec_from_caller(responder), responder_options,
                     after_offer, limit, message_limit, token_limit, time_limit, revision)


@task
def elenchos(suite: str = "ladder", sessions: str | None = None, config: str | None = None, seed: int = 1234,
             repetitions: int = 5, limit: int | None = None, message_limit: int | None = None,
             token_limit: int | None = None, time_limit: int | None = None) -> Task:
    """Elenchos: the model audits two LambdaPy kernels with ``probe``, ``list_context``, ``budget_left`` and
    ``submit_answer``, under the system prompt of the session's level.

    Args:
        suite: ``ladder`` (Levels 0-2, P_max 50) or ``benchmark`` (Level 3, P_max 65), generated from ``seed``.
        sessions: a sessions JSONL file or one of our export folders instead of generating ``suite``.
        config: the export's config (``elenchos_ladder``, ``elenchos_benchmark``; default from ``suite``).
        seed: session dataset seed.
        repetitions: sessions per set and level.
        limit: only the first N sessions.
        message_limit: inspect's per-sample message limit (our loop ends every session by itself).
        token_limit: inspect's per-sample token limit.
        time_limit: inspect's per-sample time limit in seconds.
    """
    return elenchos_task(suite, from_caller(sessions), config, seed, repetitions, limit, message_limit, token_limit,
                         time_limit)
