"""Probe library data files (``*.lp``); see ``elenchos.library`` for the format.

``PI_RSA`` (computed on first access) maps every mutation ID to its Level-0 *unique probe*: a probe of the
Simple Reflex Agent's set Pi_RSA on which that singleton diverges from the sound kernel (see
``elenchos.family.level0_probes``). The system prompts of Level 0 read it.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "PI_RSA":
        from elenchos.family import level0_probes

        return level0_probes()
    raise AttributeError(name)
