"""Secrets never reach anything the harness writes: one registry of the key values in use, one ``redact``.

A backend that reads an API key registers its value (``register``). ``redact`` replaces every occurrence of a
registered value, in any letter case and whatever precedes it (``key=test-SECRET123``, a server that echoes it
lowercased), and anything shaped like an OpenAI key (``sk-...``). The transcript writer, ``run.json``/metrics
writes and the command line's error printing all pass their text through it, so a key that a server or a model
echoes in an altered form is caught where it would be written, not only where it was first seen.
"""

from __future__ import annotations

import re
import threading

REDACTED = "[redacted]"
MIN_SECRET = 4  # shorter values would blank ordinary words
KEY_SHAPE = re.compile(r"sk-[A-Za-z0-9_\-*]{6,}")

_lock = threading.Lock()
_secrets: set[str] = set()
_pattern: re.Pattern[str] | None = None


def register(secret: str | None) -> None:
    """Redact ``secret`` (any case) from now on in this process."""
    global _pattern
    if not secret or len(secret) < MIN_SECRET or secret == "EMPTY":
        return
    with _lock:
        if secret.lower() in {s.lower() for s in _secrets}:
            return
        _secrets.add(secret)
        ordered = sorted(_secrets, key=len, reverse=True)
        _pattern = re.compile("|".join(re.escape(s) for s in ordered), re.IGNORECASE)


def forget_all() -> None:
    """For tests: drop every registered secret."""
    global _pattern
    with _lock:
        _secrets.clear()
        _pattern = None


def redact(text: str, keys_too: bool = False) -> str:
    """``text`` without any registered secret (any case); with ``keys_too`` also without ``sk-...`` shapes."""
    pattern = _pattern
    if pattern is not None:
        text = pattern.sub(REDACTED, text)
    return KEY_SHAPE.sub(REDACTED, text) if keys_too else text


def active() -> bool:
    return _pattern is not None
