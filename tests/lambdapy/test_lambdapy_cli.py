"""Command line: probe, diff and the REPL."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lambdapy import Kernel, KernelConfig
from lambdapy.__main__ import main
from lambdapy.repl import run_repl

ROOT = Path(__file__).resolve().parents[2]
PROBE = "assume A : Type\nassume x y : A\neval (((\\u -> \\v -> u) : A -> A -> A) x) y\n"


def test_probe_command_prints_the_observation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "probe.lp"
    path.write_text(PROBE)
    assert main(["probe", "--mutations", "ID_04,ID_06", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"sigma": "accept", "result": "y : A", "epsilon": None}


def test_diff_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "probe.lp"
    path.write_text(PROBE)
    assert main(["diff", "--a", "ID_08", "--b", "none", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mutations_A"] == ["ID_08"] and report["mutations_B"] == []
    assert report["K_A"]["result"] == "_ : A" and report["K_B"]["result"] == "x : A"
    assert report["diff"] == "result divergence: A=_ : A, B=x : A"


def test_unknown_mutation_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "probe.lp"
    path.write_text(PROBE)
    with pytest.raises(SystemExit) as caught:
        main(["probe", "--mutations", "ID_99", str(path)])
    assert caught.value.code == 2


def test_module_runs_as_a_script_reading_stdin() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "lambdapy", "probe", "-"],
        input="eval Succ Zero : Nat\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert json.loads(completed.stdout)["result"] == "Succ Zero : Nat"


def test_repl_session() -> None:
    lines = "\n".join(
        [
            "assume A : Type",
            "let id = (\\x -> x) : A -> A",
            ":context",
            "eval id",
            "eval Zero : A",
            ":reset",
            ":context",
            ":quit",
            "eval Zero",
        ]
    )
    out = io.StringIO()
    run_repl(Kernel(KernelConfig()), io.StringIO(lines + "\n"), out)
    assert out.getvalue().splitlines() == [
        "A : Type",
        "id : A -> A",
        "assume A : Type",
        "let id : A -> A = \\x -> x",
        "\\x -> x : A -> A",
        "error: type_error: type mismatch: expected A, but `Zero` has type Nat",
        "context cleared",
        "(empty context)",
    ]


# --- the edges a new user hits (issue 17) -------------------------------------------------------


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "lambdapy", *args], input=stdin, capture_output=True, text=True,
        cwd=ROOT, env=env, timeout=60,
    )


def _one_line_usage_error(completed: subprocess.CompletedProcess[str], message: str) -> None:
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert completed.stderr.strip().splitlines()[-1] == f"python -m lambdapy: error: {message}"


def test_probe_file_with_invalid_utf8_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "probe.lp"
    path.write_bytes(b"eval Zero -- caf\xe9\n")
    _one_line_usage_error(_cli("probe", str(path)), f"{path}: not UTF-8 text (invalid byte at offset 16)")
    _one_line_usage_error(_cli("diff", str(path)), f"{path}: not UTF-8 text (invalid byte at offset 16)")


@pytest.mark.parametrize("args", [("--mutations", "ID_99"), ("repl", "--mutations", "ID_99")])
def test_unknown_mutation_for_the_repl_is_a_one_line_error(args: tuple[str, ...]) -> None:
    _one_line_usage_error(_cli(*args), "unknown mutation id 'ID_99'")


def test_repl_accepts_mutations_after_the_subcommand() -> None:
    completed = _cli("repl", "--mutations", "ID_12", stdin=":mutations\n")
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.splitlines()[0] == "active: ID_12"


def _repl(lines: list[str], config: KernelConfig | None = None) -> list[str]:
    out = io.StringIO()
    run_repl(Kernel(config or KernelConfig()), io.StringIO("\n".join(lines) + "\n"), out)
    return [line for line in out.getvalue().splitlines() if not line.startswith("  ID_")]


def test_repl_mutations_command_switches_the_kernel() -> None:
    assert _repl(["assume A : Type", ":mutations ID_04", ":context", ":mutations ID_99", ":mutations none"]) == [
        "A : Type",
        "kernel replaced, context cleared",
        "active: ID_04",
        "(empty context)",
        "error: unknown mutation id 'ID_99'; the context is unchanged",
        "kernel replaced, context cleared",
        "active: none (sound kernel)",
    ]


def test_repl_unknown_command_says_so() -> None:
    assert _repl([":foo"]) == ["unknown command ':foo'; :help lists the commands"]


def test_repl_bare_term_hints_at_eval() -> None:
    assert _repl(["Zero"]) == [
        "error: parse_error: unexpected 'Zero'  (a line is a statement: assume, let, eval or check; try `eval Zero`)"
    ]


@pytest.mark.parametrize(
    ("line", "word"), [("evaluate Zero", "evaluate"), ("checking Zero", "checking"), ("letx = Zero", "letx")]
)
def test_statement_keywords_are_whole_words(line: str, word: str) -> None:
    assert _repl([line]) == [
        f"error: parse_error: unexpected '{word}'  (a line starts with one of the words assume, let, eval, check)"
    ]
    observation = Kernel().probe(f"{line}\neval Zero\n" if line.startswith("let") else line)
    assert observation.sigma == "reject" and observation.epsilon_text == f"parse_error: unexpected '{word}'"


class LostInterrupt(Exception):
    """CPython's readline loop checks for a pending SIGINT only when select() is interrupted: a Ctrl-C that lands
    just before it blocks is acted on at the next keystroke, not at once. That race is CPython's, not the REPL's;
    the test retries the session when it happens, so it still fails if Ctrl-C never cancels the line."""


def _pty_repl_retrying(keys: list[bytes], attempts: int = 3) -> str:
    for attempt in range(attempts):
        try:
            return _pty_repl(keys)
        except LostInterrupt as exc:
            if attempt == attempts - 1:
                raise AssertionError(f"Ctrl-C was not acted on in {attempts} sessions; last output: {exc}") from None
    raise AssertionError("unreachable")


def _pty_repl(keys: list[bytes]) -> str:
    """Run the REPL on a pseudo-terminal, type ``keys`` one after another, return what it printed."""
    import pty
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: the REPL on the terminal
        os.environ["PYTHONPATH"] = str(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "lambdapy"])
    output = b""

    def read_for(seconds: float, until: bytes | None = None, since: int = 0) -> None:
        """Read until the output after offset ``since`` ends with ``until`` (or the child closes the terminal)."""
        nonlocal output
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (until and len(output) > since and output.endswith(until)):
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    output += os.read(fd, 4096)
                except OSError:  # the child closed the terminal
                    return

    # Each key is sent only once the REPL has shown it took the previous one (the echo of typed text, a new
    # prompt after Enter or Ctrl-C), never after a fixed sleep: on a loaded machine a Ctrl-C sent before the
    # line editor has read the text before it was lost.
    read_for(60, until=b"lambdapy> ")
    for key in keys:
        seen = len(output)
        if key == b"\x03":
            time.sleep(0.3)  # the echo is printed before the line editor blocks in select() again: let it get there
        os.write(fd, key)
        if key == b"\x03":
            read_for(10, until=b"lambdapy> ", since=seen)
            if not output.endswith(b"lambdapy> "):  # see LostInterrupt
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                os.close(fd)
                raise LostInterrupt(output.decode(errors="replace"))
        elif key.endswith(b"\r"):
            read_for(60, until=b"lambdapy> ", since=seen)
        elif key != b"\x04":
            read_for(60, until=key, since=seen)
        else:
            read_for(60)  # until the child closes the terminal
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return output.decode(errors="replace") + f"\n[exit {os.waitstatus_to_exitcode(status)}]"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_repl_on_a_terminal_ctrl_c_cancels_the_line_and_ctrl_d_leaves() -> None:
    printed = _pty_repl_retrying([b"eval Suc", b"\x03", b"eval Succ Zero\r", b"\x04"])
    assert "Traceback" not in printed and "KeyboardInterrupt" not in printed
    assert "^C" in printed and "Succ Zero : Nat" in printed
    assert printed.rstrip().endswith("[exit 0]")
    assert printed.replace("\r", "").endswith("lambdapy> \n\n[exit 0]")  # Ctrl-D ends the prompt line
