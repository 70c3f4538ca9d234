"""The OpenAI-compatible engine against httpx2.MockTransport and a loopback server (no network)."""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest

httpx2 = pytest.importorskip("httpx2")
pytest.importorskip("openai")

from harness.backends import openai_engine  # noqa: E402
from harness.backends.base import BackendError, ChatRequest, Decoding  # noqa: E402
from harness.backends.openai_engine import OpenAIEngine  # noqa: E402

KEY = "sk-test-SECRET-0123456789abcdef"
MESSAGES = [{"role": "system", "content": "Answer in JSON."}, {"role": "user", "content": "2+3?"}]
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "maxLength": 8}}, "required": ["answer"],
          "additionalProperties": False}


def chat_body(content: str, prompt: int = 11, completion: int = 7) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4o-mini",
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                         "message": {"role": "assistant", "content": content, "refusal": None}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}}


class Script:
    """A MockTransport handler that plays the given steps in order, then repeats the last one."""

    def __init__(self, *steps):
        self.steps = list(steps)
        self.seen: list[dict] = []
        self.lock = threading.Lock()

    def __call__(self, request):
        with self.lock:
            self.seen.append({"url": str(request.url), "body": json.loads(request.content),
                              "auth": request.headers.get("authorization")})
            step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        if isinstance(step, Exception):
            raise step
        if callable(step):
            return step(request)
        return step


def ok(content: str = '{"answer": "5"}') -> httpx2.Response:
    return httpx2.Response(200, json=chat_body(content))


def err(status: int, message: str = "nope", headers: dict | None = None) -> httpx2.Response:
    return httpx2.Response(status, json={"error": {"message": message, "type": "error"}}, headers=headers or {})


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return KEY


def make(script: Script, sleeps: list | None = None, **kw) -> OpenAIEngine:
    client = httpx2.Client(transport=httpx2.MockTransport(script))
    kw.setdefault("backoff_base", 0.5)
    return OpenAIEngine("gpt-4o-mini", http_client=client, sleep=(sleeps.append if sleeps is not None else None),
                        **kw)


def test_request_body_usage_and_cost(key) -> None:
    script = Script(ok())
    engine = make(script)
    schema = engine.prepare_schema(SCHEMA)
    [out] = engine.generate([ChatRequest(MESSAGES, schema, "verdict")], Decoding(max_tokens=64))
    body = script.seen[0]["body"]
    assert script.seen[0]["url"] == "https://api.openai.com/v1/chat/completions"
    assert body["temperature"] == 0.0 and body["seed"] == 1234 and body["max_tokens"] == 64
    assert body["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "verdict", "schema": {"type": "object", "properties": {"answer": {"type": "string"}},
                                      "required": ["answer"], "additionalProperties": False}, "strict": True}}
    assert out.text == '{"answer": "5"}' and out.error is None
    assert (out.prompt_tokens, out.completion_tokens) == (11, 7)
    assert out.cost_usd == pytest.approx((11 * 0.15 + 7 * 0.60) / 1e6)
    assert engine.stats.calls == 1 and engine.stats.cost_usd > 0
    assert KEY not in json.dumps(engine.describe())


def test_retries_429_500_timeout_with_backoff_then_success(key) -> None:
    sleeps: list[float] = []
    script = Script(err(429, "slow down", {"retry-after": "2"}), err(500), httpx2.ReadTimeout("slow"),
                    err(503), ok())
    engine = make(script, sleeps, max_retries=5, backoff_max=4.0)
    [out] = engine.generate([ChatRequest(MESSAGES)], Decoding())
    assert out.error is None and out.retries == 4 and len(script.seen) == 5
    assert len(sleeps) == 4 and sleeps[0] >= 2.0  # Retry-After honoured
    assert all(0 <= s <= 4.0 for s in sleeps)
    assert engine.stats.retries == 4


def test_persistent_failure_stops_the_run_or_is_recorded(key) -> None:
    with pytest.raises(BackendError, match=r"InternalServerError after 3 attempt.*can be resumed"):
        make(Script(err(500)), [], max_retries=2).generate([ChatRequest(MESSAGES)], Decoding())
    [out] = make(Script(err(500)), [], max_retries=1, on_error="record").generate([ChatRequest(MESSAGES)], Decoding())
    assert out.text == "" and "InternalServerError after 2 attempt" in out.error


def test_authentication_error_stops_at_once_and_is_redacted(key) -> None:
    script = Script(err(401, f"Incorrect API key provided: {KEY}."))
    with pytest.raises(BackendError, match="AuthenticationError") as info:
        make(script, []).generate([ChatRequest(MESSAGES)], Decoding())
    assert KEY not in str(info.value) and len(script.seen) == 1


def test_bad_request_and_malformed_response_are_item_errors(key) -> None:
    engine = make(Script(err(400, "context too long"), httpx2.Response(200, content=b"{not json"),
                         httpx2.Response(200, json={"unexpected": True}), ok("not json at all")), [],
                  concurrency=1)  # one thread, so the scripted responses meet the requests in order
    outs = engine.generate([ChatRequest(MESSAGES)] * 4, Decoding())
    assert [o.error is not None for o in outs] == [True, True, True, False]
    assert "HTTP 400" in outs[0].error and outs[3].text == "not json at all"


def test_concurrent_batch_keeps_order(key) -> None:
    def echo(request):
        body = json.loads(request.content)
        return httpx2.Response(200, json=chat_body(body["messages"][-1]["content"]))

    engine = make(Script(echo), concurrency=4)
    requests = [ChatRequest([{"role": "user", "content": f"m{i}"}]) for i in range(12)]
    assert [o.text for o in engine.generate(requests, Decoding())] == [f"m{i}" for i in range(12)]
    engine.close()


def test_missing_key_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(BackendError, match="OPENAI_API_KEY"):
        OpenAIEngine("gpt-4o-mini")
    assert OpenAIEngine("tiny", base_url="http://127.0.0.1:9/v1").describe()["base_url"] == "http://127.0.0.1:9/v1"


def test_secret_never_reaches_run_files_or_logs(key, mira_files, tmp_path, monkeypatch, capsys, caplog) -> None:
    """A whole run with an OpenAI responder, then a run that fails on authentication, through the CLI."""
    from harness.cli import main

    def responder(request):
        body = json.loads(request.content)
        user = body["messages"][-1]["content"]
        first = user.split("\n")[1].split(". ", 1)[1]
        reply = {"type": "offer", "has_exact_match": True, "constraint_quoted": first, "hint": first}
        return httpx2.Response(200, json=chat_body(json.dumps(reply)))

    caplog.set_level(logging.DEBUG)
    monkeypatch.setattr(openai_engine, "http_client_factory",
                        lambda: httpx2.Client(transport=httpx2.MockTransport(responder)))
    out = tmp_path / "run"
    code = main(["mira", "--dataset", str(mira_files["zero_shot"]), "--solver", "oracle", "--responder",
                 "openai:gpt-4o-mini", "--limit", "12", "--out", str(out), "--no-progress"])
    assert code == 0
    info = json.loads((out / "run.json").read_text())
    assert info["usage"]["responder"]["cost_usd"] > 0 and info["agents"]["responder"]["deterministic"] is False
    assert info["agents"]["responder"]["engine"]["api_key_env"] == "OPENAI_API_KEY"
    metrics = json.loads((out / "metrics.json").read_text())["overall"]
    assert metrics["accuracy"] > 0.5  # the oracle solves once the (mock) responder offers
    monkeypatch.setattr(openai_engine, "http_client_factory", lambda: httpx2.Client(
        transport=httpx2.MockTransport(lambda r: err(401, f"Incorrect API key provided: {KEY}"))))
    bad = tmp_path / "bad"
    code = main(["mira", "--dataset", str(mira_files["zero_shot"]), "--solver", "oracle", "--responder",
                 "openai:gpt-4o-mini", "--limit", "3", "--out", str(bad), "--no-progress"])
    assert code != 0
    captured = capsys.readouterr()
    assert "AuthenticationError" in captured.err
    written = "".join(p.read_text(errors="replace") for d in (out, bad) for p in d.rglob("*") if p.is_file())
    for text in (written, captured.out, captured.err, caplog.text):
        assert KEY not in text and "SECRET" not in text


class _FakeServe(BaseHTTPRequestHandler):
    seen: ClassVar[list] = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakeServe.seen.append((self.path, body, self.headers.get("Authorization")))
        data = json.dumps(chat_body('{"answer": "7"}')).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def test_openai_compatible_server_via_base_url(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = HTTPServer(("127.0.0.1", 0), _FakeServe)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        engine = OpenAIEngine("tiny", base_url=f"http://127.0.0.1:{server.server_port}/v1", timeout=10)
        [out] = engine.generate([ChatRequest(MESSAGES, engine.prepare_schema(SCHEMA))], Decoding(max_tokens=32))
    finally:
        server.shutdown()
    path, body, auth = _FakeServe.seen[-1]
    assert path == "/v1/chat/completions" and body["response_format"]["type"] == "json_schema"
    assert auth == "Bearer EMPTY" and out.text == '{"answer": "7"}' and out.cost_usd is None
    assert engine.deterministic is True


def test_non_text_content_is_an_item_error_not_a_crash(key) -> None:
    """Issue 16: a server answering ``"content": 5`` (or a list, an object) made redaction call .replace on it."""
    engine = make(Script(ok(5), ok(["a", "b"]), ok({"x": 1}), ok("fine")), [], concurrency=1)
    outs = engine.generate([ChatRequest(MESSAGES)] * 4, Decoding())
    assert [o.error is not None for o in outs] == [True, True, True, False]
    assert "not text" in outs[0].error and outs[3].text == "fine"
