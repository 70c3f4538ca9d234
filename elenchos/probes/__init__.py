"""Probe library data files (``*.lp``); see ``elenchos.library`` for the format.

``PI_RSA`` (computed on first access) maps every mutation ID to the source of its Level-0 *unique probe*: the
library probe marked ``-- level0: ID`` (13 distinct probes; each shows its mutation, and the tests record which
ones single it out among the 13). They make up the Simple Reflex Agent's default Pi_RSA (see
``elenchos.family.level0_probes``). The system prompts of Level 0 read it.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "PI_RSA":
        from elenchos.family import level0_probes

        return level0_probes()
    raise AttributeError(name)
