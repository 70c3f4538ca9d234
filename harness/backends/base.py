"""The one interface every model backend implements: a batch of chat requests in, a batch of completions out.

An ``Engine`` knows nothing about MIRA-Math or Elenchos. It takes ``ChatRequest``s (a conversation, an
optional JSON Schema to enforce, a token limit) and the ``Decoding`` settings of the calling role, and returns
one ``Completion`` per request, in order, from **one** engine call (one ``LLM.chat``, one batched
``generate``, or one pool of concurrent HTTP requests). Protocol agents (``harness.backends.mira``) turn
turns into requests and completions into actions.

Errors: a completion that failed for that item only (a refused or malformed reply, a request the server
rejected) carries ``error``; the agent records it as a parse error. A failure that makes the whole run
meaningless (bad key, unknown model, a server that stays down after all retries) raises ``BackendError``,
which stops the run with one clear message; the run directory can be resumed.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any

from harness.errors import HarnessError

DEFAULT_SEED = 1234


class BackendError(HarnessError):
    """The engine cannot go on (configuration, authentication, persistent server failure)."""


@dataclass(frozen=True)
class Decoding:
    """Per-role decoding settings. Greedy (temperature 0) with seed 1234 by default; max_tokens always set."""

    temperature: float = 0.0
    seed: int = DEFAULT_SEED
    max_tokens: int = 512
    top_p: float = 1.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ChatRequest:
    messages: list[dict[str, str]]
    schema: dict[str, Any] | None = None  # JSON Schema the engine should enforce (structured outputs)
    schema_name: str = "output"
    max_tokens: int | None = None  # overrides Decoding.max_tokens for this request


@dataclass
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    error: str | None = None  # this item failed (after retries where they apply); text may be empty
    cost_usd: float | None = None
    retries: int = 0

    def usage(self) -> dict[str, int | float]:
        out: dict[str, int | float] = {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens}
        if self.cost_usd is not None:
            out["cost_usd"] = round(self.cost_usd, 8)
        if self.retries:
            out["retries"] = self.retries
        if self.finish_reason == "length":
            out["truncated"] = 1
        return out


@dataclass
class EngineStats:
    """Totals over the engine's life (shared by every agent that uses the engine)."""

    calls: int = 0
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    errors: int = 0
    retries: int = 0
    cost_usd: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def add(self, completions: list[Completion], seconds: float) -> None:
        self.calls += 1
        self.requests += len(completions)
        self.seconds += seconds
        for c in completions:
            self.prompt_tokens += c.prompt_tokens
            self.completion_tokens += c.completion_tokens
            self.errors += c.error is not None
            self.retries += c.retries
            self.cost_usd += c.cost_usd or 0.0

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        extra = out.pop("extra")
        out["seconds"] = round(self.seconds, 3)
        out["cost_usd"] = round(self.cost_usd, 6)
        out["completion_tokens_per_s"] = round(self.completion_tokens / self.seconds, 1) if self.seconds else None
        out.update(extra)
        return out


class Engine(ABC):
    """A loaded model or a client. Subclasses implement ``_generate``; ``generate`` adds the bookkeeping."""

    backend: str = "engine"
    supports_schema: bool = False  # can enforce a JSON Schema while decoding
    deterministic: bool = True  # same inputs -> same outputs (an API may ignore the seed)

    def __init__(self, model: str):
        self.model = model
        self.stats = EngineStats()
        self._lock = threading.Lock()

    def generate(self, requests: list[ChatRequest], decoding: Decoding) -> list[Completion]:
        if not requests:
            return []
        started = time.perf_counter()
        with self._lock:  # one engine call at a time (an engine shared by two roles)
            out = self._generate(requests, decoding)
        if len(out) != len(requests):
            raise BackendError(f"{self.backend} engine returned {len(out)} completions for {len(requests)} requests")
        self.stats.add(out, time.perf_counter() - started)
        return out

    @abstractmethod
    def _generate(self, requests: list[ChatRequest], decoding: Decoding) -> list[Completion]:
        """One engine call for the whole batch; one completion per request, same order."""

    def describe(self) -> dict[str, Any]:
        """Static identity for run.json (checked on resume): never statistics, never secrets."""
        return {"backend": self.backend, "model": self.model}

    def close(self) -> None:  # noqa: B027 - most engines have nothing to free
        """Free the model / connections."""
