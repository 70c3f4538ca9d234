"""``openai:MODEL``: the OpenAI API (gpt-4o-mini, the paper's responder) or any OpenAI-compatible server.

* ``base_url=http://127.0.0.1:8000/v1`` points it at ``vllm serve`` (or any compatible server); the key is
  read from the environment variable named by ``api_key_env`` (default ``OPENAI_API_KEY``) and never
  written anywhere: not to run.json, transcripts, errors or logs (every error text is redacted). A local
  server without a key gets the placeholder ``EMPTY``.
* One engine call sends every request of the batch through a pool of ``concurrency`` threads (default 16).
* Structured outputs: ``response_format={"type": "json_schema", "json_schema": {..., "strict": true}}``.
  For the OpenAI API the schema is rewritten to its strict subset (a flat object, every property required,
  no length or range keywords, ``const`` as a one-value ``enum``); a server given by ``base_url`` (vLLM)
  gets the full per-turn schema, length caps included (``schema_flavor=auto|openai|full``).
* Retries: 429, 5xx, 408/409, timeouts and connection errors are retried up to ``max_retries`` times with
  exponential backoff and full jitter (``backoff_base`` x 2^attempt, capped at ``backoff_max``; a
  ``Retry-After`` header is honoured). A request that still fails stops the run (``BackendError``: resume it
  later) unless ``on_error=record``, which records it as that turn's parse error. Authentication,
  permission and unknown-model errors stop the run at once. A 400 (e.g. context too long) or an
  unreadable response is recorded for that item only.
* Usage and cost: token counts per request; cost from ``price_in`` / ``price_out`` (USD per million
  tokens; defaults known for gpt-4o-mini and gpt-4o, none for other models).

Options: base_url, api_key_env, concurrency, timeout, max_retries, backoff_base, backoff_max, on_error,
strict, schema_flavor, price_in, price_out, max_tokens_field (max_tokens | max_completion_tokens), extra_body (JSON).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from harness import redact as secrets
from harness.backends.base import BackendError, ChatRequest, Completion, Decoding, Engine
from harness.backends.options import Options

ENGINE_OPTIONS = ("base_url", "api_key_env", "concurrency", "timeout", "max_retries", "backoff_base", "backoff_max",
                  "on_error", "strict", "schema_flavor", "price_in", "price_out", "max_tokens_field", "extra_body")
# USD per million tokens (input, output); longest matching prefix wins. Override with price_in / price_out.
PRICES = {"gpt-4o-mini": (0.15, 0.60), "gpt-4o": (2.50, 10.00)}
_STRICT_DROP = ("minLength", "maxLength", "pattern", "minimum", "maximum", "format", "description", "title")
_REDACTED = "[redacted]"

# Tests replace this to route the SDK through httpx2.MockTransport; returns an httpx2.Client or None.
http_client_factory: Any = None


def create(model: str, opts: Options) -> OpenAIEngine:
    extra = opts.str("extra_body")
    try:
        extra_body = json.loads(extra) if extra else None
    except json.JSONDecodeError as exc:
        raise BackendError(f"openai:{model}: extra_body is not JSON: {exc}") from None
    engine = OpenAIEngine(
        model,
        base_url=opts.str("base_url"),
        api_key_env=opts.str("api_key_env", "OPENAI_API_KEY") or "OPENAI_API_KEY",
        concurrency=opts.int("concurrency", 16, minimum=1) or 16,
        timeout=opts.float("timeout", 120.0, minimum=0.001) or 120.0,
        max_retries=opts.int("max_retries", 6, minimum=0) or 0,
        backoff_base=opts.float("backoff_base", 1.0, minimum=0.0) or 0.0,
        backoff_max=opts.float("backoff_max", 60.0, minimum=0.0) or 0.0,
        on_error=opts.choice("on_error", "raise", ("raise", "record")),
        strict=opts.bool("strict", True),
        schema_flavor=opts.choice("schema_flavor", "auto", ("auto", "openai", "full")),
        price_in=opts.float("price_in", None, minimum=0.0),
        price_out=opts.float("price_out", None, minimum=0.0),
        max_tokens_field=opts.choice("max_tokens_field", "max_tokens", ("max_tokens", "max_completion_tokens")),
        extra_body=extra_body,
    )
    opts.finish()
    return engine


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """OpenAI's strict subset: no length/range keywords, ``const`` -> ``enum``, objects closed and all-required."""
    if isinstance(schema, list):
        return [strict_schema(s) for s in schema]  # type: ignore[return-value]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _STRICT_DROP:
            continue
        if key == "const":
            out["enum"] = [value]
        elif key == "properties":
            out[key] = {name: strict_schema(sub) for name, sub in value.items()}
        elif key in ("anyOf", "items", "$defs"):
            out[key] = strict_schema(value) if key != "$defs" else {k: strict_schema(v) for k, v in value.items()}
        else:
            out[key] = value
    if out.get("type") == "object" and "properties" in out:
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


class OpenAIEngine(Engine):
    backend = "openai"
    supports_schema = True

    def __init__(self, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 concurrency: int = 16, timeout: float = 120.0, max_retries: int = 6, backoff_base: float = 1.0,
                 backoff_max: float = 60.0, on_error: str = "raise", strict: bool = True, schema_flavor: str = "auto",
                 price_in: float | None = None, price_out: float | None = None,
                 max_tokens_field: str = "max_tokens", extra_body: dict[str, Any] | None = None,
                 http_client: Any = None, sleep: Any = None):
        super().__init__(model)
        try:
            import openai
        except ImportError as exc:
            raise BackendError(f"openai backend: install the openai package (pip install '.[openai]'): {exc}") from exc
        self.openai = openai
        key = os.environ.get(api_key_env)
        if not key:
            if base_url is None:
                raise BackendError(f"openai:{model}: set the API key in the environment variable {api_key_env} "
                                   "(or give base_url=... for a local server)")
            key = "EMPTY"
        self._secret = key if key != "EMPTY" else None
        secrets.register(self._secret)
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.concurrency = concurrency
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.on_error = on_error
        self.strict = strict
        if schema_flavor == "auto":
            schema_flavor = "openai" if base_url is None else "full"
        self.schema_flavor = schema_flavor
        # OpenAI's strict mode wants an object at the root (no anyOf there): a flat object with nullable fields
        self.schema_style = "flat" if schema_flavor == "openai" else "union"
        self.max_tokens_field = max_tokens_field
        self.extra_body = extra_body
        self.prices = _prices(model, price_in, price_out)
        self.deterministic = base_url is not None  # the API may ignore the seed; a local server honours it
        self._sleep = sleep or time.sleep
        client = http_client if http_client is not None else (http_client_factory() if http_client_factory else None)
        kwargs: dict[str, Any] = {"api_key": key, "max_retries": 0, "timeout": timeout}
        if base_url:
            kwargs["base_url"] = base_url
        if client is not None:
            kwargs["http_client"] = client
        self.client = openai.OpenAI(**kwargs)
        self._pool: ThreadPoolExecutor | None = None

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "base_url": self.base_url, "api_key_env": self.api_key_env,
                "strict": self.strict, "schema_flavor": self.schema_flavor,
                "max_tokens_field": self.max_tokens_field, "extra_body": self.extra_body,
                "price_usd_per_mtok": list(self.prices) if self.prices else None}

    @property
    def endpoint(self) -> str:
        """The server this engine talks to, for error messages (``base_url`` or the OpenAI API's)."""
        return self.base_url or str(getattr(self.client, "base_url", "")) or "https://api.openai.com/v1"

    def prepare_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return strict_schema(schema) if self.schema_flavor == "openai" else schema

    def redact(self, text: str, keys_too: bool = True) -> str:
        """``text`` without the key (and, in error texts, without anything shaped like an API key)."""
        if self._secret and len(self._secret) >= secrets.MIN_SECRET:  # any case: a server may echo it lowercased
            text = re.sub(re.escape(self._secret), _REDACTED, text, flags=re.IGNORECASE)
        return secrets.redact(text, keys_too)

    # ------------------------------------------------------------------------------------------ calls
    def _generate(self, requests: list[ChatRequest], decoding: Decoding) -> list[Completion]:
        if len(requests) == 1 or self.concurrency == 1:
            results = [self._one(r, decoding) for r in requests]
        else:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="openai")
            results = list(self._pool.map(lambda r: self._one(r, decoding), requests))
        fatal = [r for r in results if isinstance(r, BackendError)]
        if fatal:
            raise fatal[0]
        return results  # type: ignore[return-value]

    def _body(self, request: ChatRequest, decoding: Decoding) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": request.messages,
                                "temperature": decoding.temperature, "seed": decoding.seed,
                                self.max_tokens_field: request.max_tokens or decoding.max_tokens}
        if decoding.top_p != 1.0:
            body["top_p"] = decoding.top_p
        if request.schema is not None:
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": request.schema_name[:64], "schema": request.schema, "strict": self.strict}}
        if self.extra_body:
            body["extra_body"] = self.extra_body
        return body

    def _one(self, request: ChatRequest, decoding: Decoding) -> Completion | BackendError:
        """One request with retries. Returns the completion, or a BackendError for the caller to raise."""
        oa = self.openai
        body = self._body(request, decoding)
        retries = 0
        while True:
            try:
                response = self.client.chat.completions.create(**body)
                return self._completion(response, retries)
            except (oa.AuthenticationError, oa.PermissionDeniedError, oa.NotFoundError) as exc:
                return BackendError(f"openai:{self.model} at {self.endpoint}: {type(exc).__name__}: "
                                    f"{self.redact(str(exc))}")
            except (oa.RateLimitError, oa.InternalServerError, oa.APITimeoutError, oa.APIConnectionError,
                    oa.ConflictError) as exc:
                transient = exc
            except oa.APIStatusError as exc:
                if exc.status_code in (408, 409) or exc.status_code >= 500:
                    transient = exc
                else:  # 400, 413, 422: this request will not succeed by retrying
                    return Completion("", error=f"HTTP {exc.status_code}: {self.redact(str(exc))[:500]}",
                                      retries=retries)
            except (oa.APIResponseValidationError, json.JSONDecodeError, ValueError, TypeError) as exc:
                return Completion("", error=f"unreadable response: {self.redact(str(exc))[:500]}", retries=retries)
            if retries >= self.max_retries:
                what = (f"{type(transient).__name__} after {retries + 1} attempt(s) at {self.endpoint}: "
                        f"{self.redact(str(transient))[:300]}")
                if self.on_error == "record":
                    return Completion("", error=what, retries=retries)
                return BackendError(f"openai:{self.model}: {what}; the run stopped and can be resumed")
            self._sleep(self._delay(retries, transient))
            retries += 1

    def _delay(self, attempt: int, exc: Exception) -> float:
        ceiling = min(self.backoff_max, self.backoff_base * (2**attempt))
        delay = random.uniform(0, ceiling)  # full jitter
        response = getattr(exc, "response", None)
        header = response.headers.get("retry-after") if response is not None else None
        try:
            if header is not None:
                delay = max(delay, min(float(header), self.backoff_max))
        except ValueError:
            pass
        return delay

    def _completion(self, response: Any, retries: int) -> Completion:
        try:
            choice = response.choices[0]
            message = choice.message
            text = message.content if message.content is not None else ""
            refusal = getattr(message, "refusal", None)
            if not isinstance(text, str):  # a non-conforming server: "content": 5, a list, an object
                raise TypeError(f"message content is a {type(text).__name__}, not text")
            if refusal is not None and not isinstance(refusal, str):
                refusal = str(refusal)
            usage = response.usage
            prompt = int(getattr(usage, "prompt_tokens", 0) or 0) if usage else 0
            completion = int(getattr(usage, "completion_tokens", 0) or 0) if usage else 0
            finish = choice.finish_reason
        except (AttributeError, IndexError, TypeError, ValueError) as exc:
            return Completion("", error=f"unreadable response: {self.redact(str(exc))[:300]}", retries=retries)
        cost = None
        if self.prices:
            cost = (prompt * self.prices[0] + completion * self.prices[1]) / 1e6
        error = f"refusal: {self.redact(refusal)[:300]}" if refusal and not text else None
        return Completion(self.redact(text, keys_too=False), prompt, completion, finish, error, cost, retries)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        with contextlib.suppress(Exception):  # closing is best effort
            self.client.close()


def _prices(model: str, price_in: float | None, price_out: float | None) -> tuple[float, float] | None:
    if price_in is not None or price_out is not None:
        return (price_in or 0.0, price_out or 0.0)
    name = model.lower()
    for prefix in sorted(PRICES, key=len, reverse=True):
        if name == prefix or name.startswith(prefix + "-"):
            return PRICES[prefix]
    return None
