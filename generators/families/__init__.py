"""One module per MIRA-Math family; each exposes ``FAMILY``, an instance of ``generators.base.Family``.

Modules are discovered automatically: adding a family means adding a module here.
"""

from __future__ import annotations

import importlib
import pkgutil

from generators.base import Family


def _discover() -> dict[str, Family]:
    found: dict[str, Family] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        family = getattr(module, "FAMILY", None)
        if family is not None:
            found[family.name] = family
    # The release's order: Type A families alphabetically, then Type B alphabetically.
    return dict(sorted(found.items(), key=lambda kv: (kv[1].type, kv[0])))


FAMILIES: dict[str, Family] = _discover()


def get_family(name: str) -> Family:
    try:
        return FAMILIES[name]
    except KeyError:
        raise KeyError(f"unknown family {name!r}; known: {', '.join(FAMILIES)}") from None
