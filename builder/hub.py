"""Reaching the Hub: a Hub that cannot be reached (no network, ``HF_HUB_OFFLINE=1``, a closed endpoint) is one line,
``cannot reach the Hub at URL: why``, never a client library's traceback."""

from __future__ import annotations

import importlib

# the transport errors of the HTTP clients huggingface_hub has used (httpx2 now; httpx, requests before)
_CLIENT_ERRORS = (("httpx2", "TransportError"), ("httpx", "TransportError"), ("requests", "ConnectionError"),
                  ("requests", "Timeout"))


def unreachable_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "the Hub did not answer" (``OfflineModeIsEnabled`` is a ``ConnectionError``)."""
    errors: list[type[BaseException]] = [ConnectionError, TimeoutError]
    for module, name in _CLIENT_ERRORS:
        try:
            errors.append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            continue
    return tuple(errors)


def hub_endpoint(endpoint: str | None = None) -> str:
    if endpoint:
        return endpoint
    from huggingface_hub import constants

    return constants.ENDPOINT


def unreachable_message(exc: BaseException, endpoint: str | None = None) -> str:
    """``cannot reach the Hub at URL: why`` (the first line of the client's message; no token, no traceback)."""
    from huggingface_hub.errors import OfflineModeIsEnabled

    if isinstance(exc, OfflineModeIsEnabled):
        why = "offline mode is on (HF_HUB_OFFLINE is set)"
    else:
        text = str(exc).strip().splitlines()
        why = text[0] if text else type(exc).__name__
    return f"cannot reach the Hub at {hub_endpoint(endpoint)}: {why}"
