"""Engines shared between roles: ``--solver hf:M --responder hf:M`` loads the model once.

Agents ``acquire`` an engine by (backend, model, engine options) and ``release`` it in ``close()``; the
engine is closed when its last user releases it. Decoding settings are per request, so the two roles may
still use different ``max_tokens``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

from harness.backends.base import Engine

_lock = threading.Lock()
_engines: dict[Hashable, list] = {}  # key -> [engine, users]


def acquire(key: Hashable, factory: Callable[[], Engine]) -> Engine:
    with _lock:
        entry = _engines.get(key)
        if entry is None:
            entry = _engines[key] = [factory(), 0]
        entry[1] += 1
        return entry[0]


def release(engine: Engine) -> None:
    with _lock:
        for key, entry in list(_engines.items()):
            if entry[0] is engine:
                entry[1] -= 1
                if entry[1] <= 0:
                    del _engines[key]
                    engine.close()
                return
    engine.close()  # not pooled


def users(engine: Engine) -> int:
    with _lock:
        return next((entry[1] for entry in _engines.values() if entry[0] is engine), 0)
