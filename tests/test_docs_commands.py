"""Every command in the README's and the docs' shell blocks, run as written (issues 17 and 26).

The commands are taken from the fenced blocks of README.md and every docs/*.md (lines that start with
``.venv/bin/``, ``.venv-vllm/bin/``, ``python``, ``inspect``, ``pip``, ``make`` ...; continuation lines joined),
``.venv/bin/python`` is replaced by this interpreter, and each runs through bash in a scratch checkout (the
packages linked, ``data/`` copied, ``../shared`` linked when present), in document order, so that a later command
finds what an earlier one wrote. It must exit 0 without a traceback.

A synopsis is run too: its optional ``[...]`` parts are left out, of ``a|b|c`` the first is taken, and each
placeholder is replaced by the value in ``PLACEHOLDERS`` (``FILE`` is the README's ``mira_zero_shot.jsonl``,
``RUN_DIR`` its ``runs/oracle``, ...). Kept fast: the sizes in ``SMALLER`` become small ones (the same code
path on fewer instances). What cannot run here is skipped with the reason (``SKIPS``: a GPU or vLLM, an API
key, the network, the whole main job, rewriting a tracked file, a benchmark), each covered by its own tests,
named in the reason.
The default split written into ``data/`` is generated small too (the full split is regenerated and checked
byte for byte by ``tests/mira/test_default_split_checksums.py``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a few minutes in all (the Elenchos family is built by several commands)
ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))]
WITH_COMMANDS = {"README.md", "docs/answers.md", "docs/elenchos.md", "docs/harness.md", "docs/import-reference.md",
                 "docs/inspect.md", "docs/lambdapy.md", "docs/models.md"}
LINKED = ["generators", "verifiers", "lambdapy", "elenchos", "harness", "builder", "schemas", "benchmarks",
          "run_eval.py", "pyproject.toml"]
COMMAND = re.compile(r"^(\.venv(-vllm)?/bin/|python3? |inspect |pip |make |DEVICE=|sha256sum )")
SMALLER = {"--n-a 20 --n-b 50": "--n-a 2 --n-b 2",
           "-m builder export --out MIRA-MATH": "-m builder export --out MIRA-MATH --n-a 1 --n-b 1 --difficulties 1 "
                                                "--repetitions 1",
           "--n-a 100 --n-b 100": "--n-a 1 --n-b 1 --difficulties 1 --repetitions 1",
           # the default split into data/ (tests/mira/test_default_split_checksums.py regenerates it in full)
           "-m generators mira --out data/": "-m generators mira --n-a 2 --n-b 2 --out data/",
           "-m generators mira --four-shot --out data/": "-m generators mira --n-a 2 --n-b 2 --four-shot --out data/"}
PROBE = "let plus = (\\m n -> NatElim (\\_ -> Nat) n (\\k r -> Succ r) m) : Nat -> Nat -> Nat\n" \
        "eval plus (Succ (Succ Zero)) (Succ (Succ (Succ Zero)))\n"
PLACEHOLDERS = [  # (placeholder in a synopsis, what the test runs it with); {case} is the command's own name
    ("FILE.jsonl", "../shared/reference-release/sample_instances.jsonl"),
    ("RUN_DIR", "runs/oracle"),
    ("FILE", "mira_zero_shot.jsonl"),
    ("--solver SPEC", "--solver oracle"),
    ("--responder SPEC", "--responder rule"),
    ("--agent SPEC", "--agent sra"),
    ("--out DIR", "--out runs/doc-{case}"),
    ("--out runs/NAME", "--out runs/doc-{case}"),
]

SKIPS = [  # (pattern, reason): the first that matches the command decides
    (r"^make ", "builds .venv and runs everything (make run: the main job, make test: the whole suite, make "
                "device-wheels: the network); CI runs them"),
    (r"pip install|-m venv", "installs packages (the network)"),
    (r"\.venv-vllm/|\$MODEL", "needs vLLM and a real model (make test-vllm, scripts/gpu_smoke.sh)"),
    (r"openai:|openai/|anthropic/|--model MODEL", "needs an API key or a served model (tests/backends fake the server; "
                                                  "tests/inspect run both inspect tasks with the scripted provider)"),
    (r"\bLOG\b", "needs the log of an inspect run of a model (tests/inspect import scripted logs)"),
    (r"_inspect\b", "scores the inspect run above, which needs a model"),
    (r"runs/llama-", "scores the model runs above, which need vLLM"),
    (r"ORG/NAME", "the Hub: the network and a token (tests/builder use a fake Hub, tests/test_newcomer.py no Hub)"),
    (r"run_eval\.py main\b", "the whole main job (~1 min); tests/harness/test_harness_cli.py runs it small"),
    (r"benchmarks/", "a benchmark script (make bench)"),
    (r"-m elenchos table6", "rewrites a tracked file; tests/elenchos checks it is current"),
    (r"harness\.backends\.tiny|hf:runs/tiny-llama", "builds and runs a model (~1 min); tests/backends run it"),
    (r"device_check\.sh", "the device check end to end (minutes); tests/backends/test_device_check.py runs it"),
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
        if COMMAND.match(text):
            commands.append(text)
    return commands


CASES = [(doc, i, cmd) for doc in DOCUMENTS for i, cmd in enumerate(_commands(doc))]


def test_the_documents_have_commands() -> None:
    assert {doc for doc, _, _ in CASES} == WITH_COMMANDS


def test_the_documents_use_the_checkouts_environment() -> None:
    """``python``/``inspect``/``pip`` alone are whatever is on PATH (without our packages: ModuleNotFoundError)."""
    bare = [f"{doc}: {cmd}" for doc, _, cmd in CASES
            if re.match(r"^(python3? |inspect |pip )", cmd) and not cmd.startswith("python3 -m venv")]
    assert bare == []


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
    return root


def _skip_reason(command: str) -> str | None:
    for pattern, reason in SKIPS:
        if re.search(pattern, command):
            return reason
    if "../shared/" in command and not (ROOT.parent / "shared").exists():
        return "the authors' samples are not next to this checkout (../shared)"
    return None


def concrete(command: str, case: str) -> str:
    """A synopsis as the test runs it: no optional ``[...]``, the first of ``a|b``, placeholders replaced."""
    previous = None
    while previous != command:  # innermost brackets first: [--x [--y]]
        previous, command = command, re.sub(r"\s*\[[^\[\]]*\]", "", command)
    command = re.sub(r"(?<=[\s=])([\w./-]+)(\|[\w./-]+)+", r"\1", command)
    for placeholder, value in PLACEHOLDERS:
        command = re.sub(rf"(?<![\w/.-]){re.escape(placeholder)}(?![\w.-])", value.format(case=case), command)
    return command


def test_a_synopsis_becomes_a_command() -> None:
    synopsis = (".venv/bin/python run_eval.py score RUN_DIR [RUN_DIR ...] [--compare-out DIR] [--no-figures]")
    assert concrete(synopsis, "x") == ".venv/bin/python run_eval.py score runs/oracle"
    synopsis = ".venv/bin/python run_eval.py elenchos --suite ladder|benchmark --agent sra|optimal --out runs/NAME"
    assert concrete(synopsis, "h-3") == ".venv/bin/python run_eval.py elenchos --suite ladder --agent sra --out " \
                                        "runs/doc-h-3"


@pytest.mark.parametrize(("document", "index", "command"), CASES, ids=[f"{d}:{i}" for d, i, _ in CASES])
def test_documented_command_runs_as_written(checkout: Path, document: str, index: int, command: str) -> None:
    command = concrete(command.split("  #")[0].rstrip(), f"{Path(document).stem}-{index}")
    reason = _skip_reason(command)
    if reason:
        pytest.skip(reason)
    assert not re.search(r"\[|\.\.\.|\w\|\w", command), f"a placeholder left in {command!r} (PLACEHOLDERS)"
    for long, short in SMALLER.items():
        command = command.replace(long, short)
    command = command.replace(".venv/bin/python", f'"{sys.executable}"')
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    stdin = PROBE if command.rstrip().endswith(" -") else ""
    proc = subprocess.run(["bash", "-c", command], cwd=checkout, env=env, input=stdin, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, f"{document}: {command}\n{proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr
