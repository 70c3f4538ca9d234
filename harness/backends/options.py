"""Typed ``--solver-opt key=value`` options with one clear error for a bad or unknown key."""

from __future__ import annotations

from typing import Any

from harness.errors import HarnessError

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class Options:
    """Read options by type; ``finish()`` rejects any key nobody read (a typo is an error, not a default)."""

    def __init__(self, where: str, raw: dict[str, str] | None):
        self.where = where
        self.raw = dict(raw or {})
        self._read: set[str] = set()

    def _get(self, key: str) -> str | None:
        self._read.add(key)
        value = self.raw.get(key)
        return None if value is None or value == "" else value

    def has(self, key: str) -> bool:
        return self._get(key) is not None

    def str(self, key: str, default: str | None = None) -> str | None:
        value = self._get(key)
        return default if value is None else value

    def int(self, key: str, default: int | None = None, minimum: int | None = None) -> int | None:
        value = self._get(key)
        if value is None:
            return default
        try:
            out = int(value)
        except ValueError:
            raise HarnessError(f"{self.where}: option {key} must be an integer, not {value!r}") from None
        if minimum is not None and out < minimum:
            raise HarnessError(f"{self.where}: option {key} must be at least {minimum}")
        return out

    def float(self, key: str, default: float | None = None, minimum: float | None = None) -> float | None:
        value = self._get(key)
        if value is None:
            return default
        try:
            out = float(value)
        except ValueError:
            raise HarnessError(f"{self.where}: option {key} must be a number, not {value!r}") from None
        if minimum is not None and out < minimum:
            raise HarnessError(f"{self.where}: option {key} must be at least {minimum}")
        return out

    def bool(self, key: str, default: bool) -> bool:
        value = self._get(key)
        if value is None:
            return default
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise HarnessError(f"{self.where}: option {key} must be true or false, not {value!r}")

    def choice(self, key: str, default: str, choices: tuple[str, ...]) -> str:
        value = self._get(key) or default
        if value not in choices:
            raise HarnessError(f"{self.where}: option {key} must be one of {', '.join(choices)}, not {value!r}")
        return value

    def take(self, keys: tuple[str, ...]) -> dict[str, str]:
        """The raw values of ``keys`` that were given (marked as read)."""
        return {k: v for k in keys if (v := self._get(k)) is not None}

    def finish(self, known: tuple[str, ...] = ()) -> None:
        unknown = sorted(set(self.raw) - self._read - set(known))
        if unknown:
            names = ", ".join(sorted(self._read | set(known)))
            raise HarnessError(f"{self.where}: unknown option(s) {', '.join(unknown)}; known: {names}")


def engine_key(backend: str, model: str, options: dict[str, Any]) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    return backend, model, tuple(sorted((k, str(v)) for k, v in options.items()))
