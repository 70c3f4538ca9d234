"""MIRA-Math and Elenchos as inspect_ai tasks (``harness/inspect_tasks.py``), a thin adapter over our own loops.

* ``actions``   native tool calls -> our protocol actions (``SolverAction``, Elenchos ``ToolCall``); no inspect
                import, shared with the ``scripted`` agents so that both front ends read a reply the same way;
* ``mira``      the ``mira_math`` task: agent A is the inspect model, B is the tool ``ask_partner`` backed by one
                of our responders, ``harness.mira.episode.MiraEpisode`` runs the protocol;
* ``elenchos``  the ``elenchos`` task: the four tools over ``harness.elenchos.episode.ElenchosEpisode``;
* ``importer``  ``run_eval.py import-inspect LOG --out RUN``: an inspect log becomes one of our run directories.

Only ``actions`` may be imported without inspect_ai installed (``pip install -e '.[inspect]'``).
See ``docs/inspect.md``.
"""
