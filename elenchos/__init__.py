"""Elenchos: kernel-audit sessions over LambdaPy (Mahler & Lohmann, arXiv 2607.12733).

* ``elenchos.library``   the probe library (``elenchos/probes/*.lp``);
* ``elenchos.family``    observation tables, Pi_RSA (Level-0 probes or set cover), the family F_1..F_3,
                         additive / interacting classification;
* ``elenchos.curated``   the paper's Table 6 sets checked against our family (``elenchos.table6`` renders
                         ``docs/elenchos-table6.md``);
* ``elenchos.sessions``  session records (Ladder and Benchmark) drawn from a seed;
* ``elenchos.tools``     one audit session: two kernels, the four tools, budget;
* ``elenchos.types``     what the audit loop exchanges with agents (``ElenchosTurn`` -> ``ToolCall``);
* ``elenchos.agents``    deterministic agents: Simple Reflex Agent, random, information-optimal;
* ``elenchos.episode``   the audit loop as a harness episode; ``elenchos.run`` one run directory
                         (``elenchos.harness_cli``: the ``run_eval.py`` glue);
* ``elenchos.metrics``   per-session scores and aggregates; ``elenchos.report`` tables;
* ``elenchos.hf_records`` the records of the Hugging Face configs (``builder/elenchos_configs.py``).

See ``docs/elenchos.md``.
"""

ELENCHOS_VERSION = "0.2.0"  # 0.2.0: Level-0 Pi_RSA, both additivity rules (session labels changed)
