"""Every command in the README's and the docs' shell blocks, run as written (issue 17).

The commands are taken from the fenced blocks of README.md and docs/*.md (lines that start with
``.venv/bin/python``, continuation lines joined), ``.venv/bin/python`` is replaced by this interpreter, and
each runs through bash in a scratch checkout (the packages linked, ``data/`` copied, ``../shared`` linked
when present), in document order, so that a later command finds what an earlier one wrote. It must exit 0
without a traceback.

Kept fast: ``--n-a 20 --n-b 50`` becomes ``--n-a 2 --n-b 2``, and so does the default split written into
``data/`` (the same code path on fewer instances; the full default split is regenerated and checked byte for
byte by ``tests/mira/test_default_split_checksums.py``).
Commands that cannot or should not run here are skipped with the reason (synopsis lines with
placeholders, vLLM, the whole main job, the Hub builder's 10-20 s export, benchmarks, regenerating a
tracked file); each of those is covered by its own tests, named in the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # about 1-2 minutes in all (the Elenchos family is built by several commands)
ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "docs/lambdapy.md", "docs/elenchos.md", "docs/harness.md", "docs/import-reference.md",
             "docs/models.md"]
LINKED = ["generators", "verifiers", "lambdapy", "elenchos", "harness", "builder", "schemas", "benchmarks",
          "run_eval.py", "pyproject.toml"]
SMALLER = {"--n-a 20 --n-b 50": "--n-a 2 --n-b 2",
           # the default split into data/ (tests/mira/test_default_split_checksums.py regenerates it in full)
           "-m generators mira --out data/": "-m generators mira --n-a 2 --n-b 2 --out data/",
           "-m generators mira --four-shot --out data/": "-m generators mira --n-a 2 --n-b 2 --four-shot --out data/"}
PROBE = "let plus = (\\m n -> NatElim (\\_ -> Nat) n (\\k r -> Succ r) m) : Nat -> Nat -> Nat\n" \
        "eval plus (Succ (Succ Zero)) (Succ (Succ (Succ Zero)))\n"

SKIPS = [  # (pattern, reason): the first that matches the command decides
    (r"\.venv-vllm/|\$MODEL", "needs vLLM and a real model (make test-vllm, scripts/gpu_smoke.sh)"),
    (r"openai:", "needs an API key or a served model (tests/backends/test_backends_openai.py fakes the server)"),
    (r"runs/llama-", "scores the model runs above, which need vLLM"),
    (r"(\[|\||\.\.\.|\bFILE\b|\bSPEC\b|\bDIR\b|RUN_DIR|NAME\b|KEY=VALUE)", "a synopsis with placeholders"),
    (r"run_eval\.py main\b", "the whole main job (~1 min); tests/harness/test_harness_cli.py runs it small"),
    (r"-m builder|import datasets", "the Hub builder (10-20 s per export); tests/builder runs it"),
    (r"--dataset MIRA-MATH", "reads the builder's export folder; tests/builder/test_eval_release.py runs it"),
    (r"benchmarks/", "a benchmark script (make bench)"),
    (r"-m elenchos table6", "rewrites a tracked file; tests/elenchos checks it is current"),
    (r"harness\.backends\.tiny|hf:runs/tiny-llama", "builds and runs a model (~1 min); tests/backends run it"),
]


def _commands(document: str) -> list[str]:
    commands, fence, pending = [], False, ""
    for line in (ROOT / document).read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fence, pending = not fence, ""
            continue
        if not fence:
            continue
        text = pending + line.strip()
        if text.endswith("\\"):
            pending = text[:-1] + " "
            continue
        pending = ""
        if text.startswith(".venv/bin/python") or text.startswith(".venv-vllm/bin/python"):
            commands.append(text)
    return commands


CASES = [(doc, i, cmd) for doc in DOCUMENTS for i, cmd in enumerate(_commands(doc))]


def test_the_documents_have_commands() -> None:
    assert {doc for doc, _, _ in CASES} == set(DOCUMENTS)
    assert all(".venv/bin/python" in c or ".venv-vllm/bin/python" in c for _, _, c in CASES)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs") / "checkout"
    root.mkdir()
    for name in LINKED:
        (root / name).symlink_to(ROOT / name)
    shutil.copytree(ROOT / "data", root / "data")
    shared = ROOT.parent / "shared"
    if shared.exists():
        (root.parent / "shared").symlink_to(shared)
    (root / "probe.lp").write_text(PROBE)
    return root


def _skip_reason(command: str) -> str | None:
    for pattern, reason in SKIPS:
        if re.search(pattern, command):
            return reason
    if "../shared/" in command and not (ROOT.parent / "shared").exists():
        return "the authors' samples are not next to this checkout (../shared)"
    return None


@pytest.mark.parametrize(("document", "index", "command"), CASES, ids=[f"{d}:{i}" for d, i, _ in CASES])
def test_documented_command_runs_as_written(checkout: Path, document: str, index: int, command: str) -> None:
    reason = _skip_reason(command)
    if reason:
        pytest.skip(reason)
    for long, short in SMALLER.items():
        command = command.replace(long, short)
    command = command.replace(".venv/bin/python", f'"{sys.executable}"')
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    stdin = PROBE if command.rstrip().endswith(" -") else ""
    proc = subprocess.run(["bash", "-c", command], cwd=checkout, env=env, input=stdin, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, f"{document}: {command}\n{proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr
