"""``python -m generators elenchos``: thin wrapper; the logic is in ``elenchos.cli``."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    from elenchos.cli import add_arguments

    p = sub.add_parser("elenchos", help="compute the Elenchos configuration family F_1..F_k (and session files)")
    add_arguments(p)


def run(args: argparse.Namespace) -> int:
    from elenchos.cli import run as run_elenchos

    return run_elenchos(args)
