"""An interactive read-eval-print loop over one kernel.

Every line is one statement (``assume``, ``let``, ``eval`` or ``check``); the
context persists.  Commands: ``:context``, ``:reset``, ``:mutations``,
``:help``, ``:quit``.
"""

from __future__ import annotations

import sys
from typing import TextIO

from .kernel import Kernel
from .mutations import MUTATIONS

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
commands: :context  :reset  :mutations  :help  :quit"""


def run_repl(kernel: Kernel, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    """Read statements from ``stdin`` until end of input or ``:quit``."""
    interactive = stdin.isatty()
    if interactive:
        print(BANNER, file=stdout)
    while True:
        if interactive:
            print("lambdapy> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            break
        line = line.strip()
        if not line:
            continue
        if line.startswith(":"):
            if not _command(kernel, line, stdout):
                break
            continue
        for observation in kernel.execute(line):
            if observation.sigma == "accept":
                print(observation.result, file=stdout)
            else:
                print(f"error: {observation.epsilon_text}", file=stdout)


def _command(kernel: Kernel, line: str, stdout: TextIO) -> bool:
    command = line.split()[0]
    if command in (":q", ":quit", ":exit"):
        return False
    if command in (":c", ":context"):
        print(kernel.list_context() or "(empty context)", file=stdout)
    elif command in (":r", ":reset"):
        kernel.reset()
        print("context cleared", file=stdout)
    elif command in (":m", ":mutations"):
        active = kernel.config.mutation_ids
        print("active: " + (", ".join(active) if active else "none (sound kernel)"), file=stdout)
        for info in MUTATIONS.values():
            print(f"  {info.id}  {info.title}", file=stdout)
    else:
        print(HELP, file=stdout)
    return True
