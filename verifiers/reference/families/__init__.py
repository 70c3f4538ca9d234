"""One mapping module per family, named as in ``generators/families/``; each exposes ``SPEC``, a
``verifiers.reference.mapping.Spec``. Modules are discovered: adding a family's mapping means adding a module."""

from __future__ import annotations

import importlib
import pkgutil

from verifiers.reference.mapping import Spec


def _discover() -> dict[str, Spec]:
    found: dict[str, Spec] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            found[info.name] = importlib.import_module(f"{__name__}.{info.name}").SPEC
    return found


MAPPINGS: dict[str, Spec] = _discover()
