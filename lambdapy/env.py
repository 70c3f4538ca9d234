"""Evaluation environments: the only place where de Bruijn indices meet values.

An environment is a tuple of values; ``env[0]`` is the innermost bound
variable, so ``Bound(i)`` denotes ``env[i]`` (the tutorial's convention).
"""

from __future__ import annotations

from .errors import ScopeError
from .mutations import KernelConfig
from .values import Env, Value


def lookup(env: Env, index: int, cfg: KernelConfig) -> Value:
    """The value of ``Bound(index)``."""
    try:
        if cfg.bound_lookup_shift:  # ID_04: index drift
            return env[min(index + 1, len(env) - 1)]
        return env[index]
    except IndexError:
        raise ScopeError(f"escaped bound variable #{index}") from None


def bind(env: Env, value: Value) -> Env:
    """Extend ``env`` with a new innermost variable (Pi codomains, built-ins)."""
    return (value, *env)


def bind_lambda_argument(env: Env, value: Value, cfg: KernelConfig) -> Env:
    """Extend a lambda closure's environment with its argument."""
    if cfg.lambda_env_reversed:  # ID_06: binder at the wrong end
        return (*env, value)
    return (value, *env)
