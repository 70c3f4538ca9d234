"""An interactive read-eval-print loop over one kernel.

Every line is one statement (``assume``, ``let``, ``eval`` or ``check``); the
context persists.  Commands: ``:context``, ``:reset``, ``:mutations [IDS]``,
``:help``, ``:quit``.
"""

from __future__ import annotations

import contextlib
import sys
from typing import TextIO

from .kernel import Kernel
from .mutations import MUTATIONS, parse_mutations

PROMPT = "lambdapy> "
STATEMENT_KEYWORDS = ("assume", "let", "eval", "check")

BANNER = "LambdaPy - a dependently typed lambda calculus.  :help for help, :quit to leave."
HELP = """\
statements (one per line):
  assume x y : T            declare variables
  assume (a :: *) (b :: *)  Haskell style
  let name = expr           define (type inferred)
  let name : T = expr       define with a type
  eval term                 type-check, normalise, print `value : type`
  check term                type-check only
terms: \\x -> b | forall (x : A) . B | A -> B | f a b | e : T | Type, Type1, * |
  Nat Zero Succ NatElim | Vec Nil Cons VecElim | Fin FZero FSucc FinElim | Eq Refl EqElim
commands: :context  :reset  :mutations [IDS|none]  :help  :quit
  (:mutations ID_04,ID_06 starts a fresh kernel with those mutations; Ctrl-C cancels a line, Ctrl-D quits)"""


def run_repl(kernel: Kernel, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    """Read statements from ``stdin`` until end of input or ``:quit``.

    On a terminal the line is read with ``input()`` (line editing and history through
    ``readline`` where Python has it); Ctrl-C cancels the line being typed and Ctrl-D leaves.
    """
    interactive = stdin.isatty() and stdin is sys.stdin
    if interactive:
        _enable_line_editing()
        print(BANNER, file=stdout)
    session = _Session(kernel, stdout)
    while True:
        try:
            line = _read_line(stdin, interactive)
        except KeyboardInterrupt:
            print("^C", file=stdout, flush=True)  # cancel the line, keep the session
            continue
        except EOFError:
            if interactive:
                print(file=stdout)  # leave the shell prompt on its own line
            break
        if not session.handle(line.strip()):
            break


def _read_line(stdin: TextIO, interactive: bool) -> str:
    if interactive:
        return input(PROMPT)
    line = stdin.readline()
    if not line:
        raise EOFError
    return line


def _enable_line_editing() -> None:
    with contextlib.suppress(ImportError):  # Windows has no readline
        import readline  # noqa: F401  (importing it gives input() editing and history)


class _Session:
    """The REPL's state: the kernel (replaced by ``:mutations IDS``) and the output."""

    def __init__(self, kernel: Kernel, stdout: TextIO) -> None:
        self.kernel = kernel
        self.stdout = stdout

    def say(self, text: str) -> None:
        print(text, file=self.stdout)

    def handle(self, line: str) -> bool:
        """Run one line; False when the session ends."""
        if not line:
            return True
        if line.startswith(":"):
            return self.command(line)
        for observation in self.kernel.execute(line):
            if observation.sigma == "accept":
                self.say(observation.result or "")
            else:
                self.say(f"error: {observation.epsilon_text}{_hint(line, observation.epsilon_text)}")
        return True

    def command(self, line: str) -> bool:
        command, _, argument = line.partition(" ")
        argument = argument.strip()
        if command in (":q", ":quit", ":exit"):
            return False
        if command in (":c", ":context"):
            self.say(self.kernel.list_context() or "(empty context)")
        elif command in (":r", ":reset"):
            self.kernel.reset()
            self.say("context cleared")
        elif command in (":m", ":mutations"):
            self.mutations(argument)
        elif command in (":h", ":help", ":?"):
            self.say(HELP)
        else:
            self.say(f"unknown command {command!r}; :help lists the commands")
        return True

    def mutations(self, argument: str) -> None:
        if argument:
            try:
                config = parse_mutations(argument.replace(" ", ","))
            except KeyError as error:
                self.say(f"error: {error.args[0]}; the context is unchanged")
                return
            self.kernel = Kernel(config, self.kernel.limits)
            self.say("kernel replaced, context cleared")
        active = self.kernel.config.mutation_ids
        self.say("active: " + (", ".join(active) if active else "none (sound kernel)"))
        for info in MUTATIONS.values():
            self.say(f"  {info.id}  {info.title}")


def _hint(line: str, error: str | None) -> str:
    """A hint for a line that does not start with a statement keyword (``Zero`` instead of ``eval Zero``)."""
    first = line.split(maxsplit=1)[0] if line.split() else ""
    if not error or not error.startswith("parse_error") or first in STATEMENT_KEYWORDS:
        return ""
    if first.startswith(STATEMENT_KEYWORDS):  # `evaluate Zero`, `letx = Zero`
        return "  (a line starts with one of the words assume, let, eval, check)"
    return f"  (a line is a statement: assume, let, eval or check; try `eval {line}`)"
