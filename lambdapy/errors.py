"""The kernel's error taxonomy.

Every rejection carries a category and a message.  The message never contains a
file path, a line or column number, or a Python object address, so the same
probe always yields the same text on every machine.

=====================  ==========================================================
category               raised when
=====================  ==========================================================
``parse_error``        a line does not match the grammar
``probe_error``        the probe breaks the probe format (``;``, no final ``eval``,
                       two ``eval`` lines, ...)
``scope_error``        an unknown name, or a binder that rebinds a keyword
``type_error``         a bidirectional typing rule fails
``eval_error``         evaluation gets stuck on a value of the wrong shape (only
                       reachable in mutated kernels) or meets an escaped bound
                       variable
``resource_limit``     a step, depth, size or time limit is hit; the probe leaves
                       the kernel state unchanged
=====================  ==========================================================
"""

from __future__ import annotations

PARSE_ERROR = "parse_error"
PROBE_ERROR = "probe_error"
SCOPE_ERROR = "scope_error"
TYPE_ERROR = "type_error"
EVAL_ERROR = "eval_error"
RESOURCE_LIMIT = "resource_limit"

ERROR_CATEGORIES = (PARSE_ERROR, PROBE_ERROR, SCOPE_ERROR, TYPE_ERROR, EVAL_ERROR, RESOURCE_LIMIT)


class KernelError(Exception):
    """A rejection.  ``category`` is one of ``ERROR_CATEGORIES``."""

    category = "kernel_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class LambdaParseError(KernelError):
    category = PARSE_ERROR


class ProbeFormatError(KernelError):
    category = PROBE_ERROR


class ScopeError(KernelError):
    category = SCOPE_ERROR


class TypeCheckError(KernelError):
    category = TYPE_ERROR


class EvalError(KernelError):
    category = EVAL_ERROR


class LimitExceeded(KernelError):
    category = RESOURCE_LIMIT
