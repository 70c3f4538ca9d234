"""Evaluation harness: protocol loops, agents, run directories, scoring and reports.

Layout (see ``docs/harness.md``):

* ``harness.scheduler``  generic batched scheduler: per-instance episode state machines advanced one turn
                         at a time, one batched agent call per role and step;
* ``harness.rundir``     run directories: config fingerprint, append-only fsynced transcripts, resume;
* ``harness.registry``   agent spec strings (``rule``, ``oracle``, ``openai:MODEL``...) to agent objects;
* ``harness.mira``       the MIRA-Math protocol, deterministic agents, scoring and reports;
* ``harness.plugins``    the benchmark extension point used by ``run_eval.py`` (Elenchos plugs in here);
* ``harness.cli``        ``run_eval.py``.
"""

HARNESS_VERSION = "1.0.0"
