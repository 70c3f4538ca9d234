"""``run_eval.py elenchos``: the Elenchos benchmark plug-in (logic in ``elenchos.harness_cli``)."""

from __future__ import annotations

from elenchos.harness_cli import add_arguments, add_main_arguments, main_step, run, score
from harness.plugins import Benchmark

PLUGIN = Benchmark(
    name="elenchos",
    help="run an agent over Elenchos audit sessions (Ladder or Benchmark)",
    add_arguments=add_arguments,
    run=run,
    score=score,
    main_step=main_step,
    add_main_arguments=add_main_arguments,
)
