"""Benchmarks known to ``run_eval.py``: each contributes a subcommand, a scorer and a main-job step.

Both are built in: MIRA-Math (``harness.mira.cli``) and Elenchos (``harness.elenchos.cli``), each module with a
``PLUGIN`` object of type ``Benchmark``. A benchmark listed in ``OPTIONAL`` whose module does not exist gets a
placeholder: ``run_eval.py NAME`` says that it is not available yet and the main job skips it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Benchmark:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    # Score run directories of this benchmark (run.json "benchmark" == name); returns an exit code.
    score: Callable[[list[str], argparse.Namespace], int] | None = None
    # The benchmark's part of ``run_eval.py main``: regenerate data, run the deterministic default under
    # ``out``, print the tables; returns an exit code.
    main_step: Callable[[Path, argparse.Namespace], int] | None = None
    add_main_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    available: bool = True


BUILTIN = ("harness.mira.cli", "harness.elenchos.cli")
OPTIONAL: dict[str, str] = {}


def _placeholder(name: str, module: str) -> Benchmark:
    def not_available(args: argparse.Namespace) -> int:
        print(f"{name}: not available yet (the {name} harness module {module} does not exist)", file=sys.stderr)
        return 2

    def no_arguments(parser: argparse.ArgumentParser) -> None:
        """Any arguments are accepted (and ignored) until the real plugin defines them."""

    return Benchmark(name, f"{name} (not available yet)", no_arguments, not_available, available=False)


def benchmarks() -> dict[str, Benchmark]:
    """Every benchmark, built-in first; a missing optional one is a placeholder."""
    found: dict[str, Benchmark] = {}
    for module in BUILTIN:
        plugin = importlib.import_module(module).PLUGIN
        found[plugin.name] = plugin
    for name, module in OPTIONAL.items():
        try:
            plugin = importlib.import_module(module).PLUGIN
        except ModuleNotFoundError as exc:
            if exc.name is None or not module.startswith(exc.name):
                raise
            plugin = _placeholder(name, module)
        found[plugin.name] = plugin
    return found
