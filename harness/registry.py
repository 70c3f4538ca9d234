"""Agent spec strings -> agent objects, per role.

A spec is ``NAME`` or ``NAME:ARG`` (split at the first colon): ``rule``, ``oracle``, ``guess``, and, once
the backends exist, ``openai:gpt-4o-mini``, ``vllm:/models/llama``, ``hf:PATH``. Options come separately
as ``key=value`` strings (``--solver-opt temperature=0``), so a spec never has to quote a path.

Roles are strings: ``mira.solver``, ``mira.responder`` (and ``elenchos.agent`` later). A backend module
registers itself with ``register(role, name, factory)``, or ``register_lazy(role, name, "module:function")``
so that heavy imports (torch, vllm) only happen when that agent is asked for. Modules listed in
``PLUGIN_MODULES`` are imported on first lookup when they exist.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.errors import HarnessError

Factory = Callable[[str | None, dict[str, str]], Any]
PLUGIN_MODULES = ("harness.mira.agents", "harness.backends", "harness.elenchos.agents", "harness.scripted")

_factories: dict[str, dict[str, Factory | str]] = {}
_plugins_loaded = False


@dataclass(frozen=True)
class AgentSpec:
    name: str
    arg: str | None

    @staticmethod
    def parse(spec: str) -> AgentSpec:
        spec = spec.strip()
        if not spec:
            raise HarnessError("empty agent spec")
        name, sep, arg = spec.partition(":")
        return AgentSpec(name.strip().lower(), arg if sep else None)


def register(role: str, name: str, factory: Factory | str) -> None:
    """``factory(arg, options)`` returns the agent; a ``"module:function"`` string is imported lazily."""
    _factories.setdefault(role, {})[name.lower()] = factory


def register_lazy(role: str, name: str, target: str) -> None:
    register(role, name, target)


def unregister(role: str, name: str) -> None:
    _factories.get(role, {}).pop(name.lower(), None)


def known(role: str) -> list[str]:
    _load_plugins()
    return sorted(_factories.get(role, {}))


# Where each role's spec is given on the command line (for an agent named in the wrong one).
ROLE_FLAGS = {"mira.solver": "use --solver", "mira.responder": "use --responder",
              "elenchos.agent": "use run_eval.py elenchos --agent"}


def create(role: str, spec: str, options: dict[str, str] | None = None) -> Any:
    """Build the agent named by ``spec`` for ``role``; a clear ``HarnessError`` if it is unknown."""
    _load_plugins()
    parsed = AgentSpec.parse(spec)
    factory = _factories.get(role, {}).get(parsed.name)
    if factory is None:
        names = ", ".join(known(role)) or "none"
        elsewhere = [other for other, factories in _factories.items() if other != role and parsed.name in factories]
        hint = f" ({parsed.name!r} is a {elsewhere[0]} agent: {ROLE_FLAGS.get(elsewhere[0], 'another role')})" \
            if elsewhere else ""
        raise HarnessError(f"unknown {role} agent {parsed.name!r} in spec {spec!r}{hint}; known: {names}")
    if isinstance(factory, str):
        factory = _import(factory)
    agent = factory(parsed.arg, dict(options or {}))
    agent.spec = spec
    return agent


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``["k=v", ...]`` -> dict; a clear error for a pair without ``=``."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise HarnessError(f"option {pair!r} is not key=value")
        out[key.strip()] = value.strip()
    return out


def _import(target: str) -> Factory:
    module_name, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except ImportError as exc:
        raise HarnessError(f"cannot load agent backend {target}: {exc}") from exc


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for module in PLUGIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:  # the plugin exists but one of its own imports is missing
                print(f"warning: agent plugin {module} not loaded: {exc}", file=sys.stderr)
