"""Elenchos: kernel-audit sessions over LambdaPy (Mahler & Lohmann, arXiv 2607.12733).

* ``elenchos.library``   the probe library (``elenchos/probes/*.lp``);
* ``elenchos.family``    observation tables, Pi_RSA (Level-0 probes or set cover), the family F_1..F_3,
                         additive / interacting classification;
* ``elenchos.curated``   the paper's Table 6 sets checked against our family (``elenchos.table6`` renders
                         ``docs/elenchos-table6.md``);
* ``elenchos.sessions``  session records (Ladder and Benchmark) drawn from a seed;
* ``elenchos.cli``       ``python -m generators elenchos``: the family, Pi_RSA and session files;
* ``elenchos.hf_records`` the records of the Hugging Face configs (``builder/elenchos_configs.py``).

The data side only: it imports ``lambdapy`` and ``schemas``, never ``harness`` or ``builder``. The audit
loop, the session tools, the agent interface and agents, runs, metrics and reports are ``harness.elenchos``.
See ``docs/elenchos.md``.
"""

ELENCHOS_VERSION = "0.2.0"  # 0.2.0: Level-0 Pi_RSA, both additivity rules (session labels changed)
