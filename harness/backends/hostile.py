"""Hostile model replies, seeded: the fuzz corpus of issue 16 and an engine that answers only with them.

``hostile_replies(seed, n)`` yields ``n`` reply texts mixing what models really send when they go wrong
(prose, cut JSON, fences, wrong keys and types, near-miss answers) with adversarial bytes: huge integers and
exponents, ``NaN``, lone surrogates (escaped and literal), duplicate keys, deep nesting, many ``{``, long runs
of spaces, non-ASCII digits, control characters, replies up to ``max_chars``. Each text is a pure function of
``(seed, index)``.

``HostileEngine`` (engine-module interface: ``ENGINE_OPTIONS``, ``create``) replies to every request with one of
them, chosen by a hash of the conversation, so a run with it is deterministic and resumable. It is for tests
and ``benchmarks/bench_hostile.py``; register it under a backend name as the tests do with ``tests.backends.fakes``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from harness.backends.base import ChatRequest, Completion, Decoding, Engine

BIG = "9" * 5000
ANSWERS = [  # answer values a solver might submit: near misses, hostile numbers, odd shapes
    '{"value": 1e999999999}', '{"value": 1e5000}', '{"value": -1e-5000}', '{"value": NaN}', '{"value": Infinity}',
    '{"value": ' + BIG + '}', '"0.' + "3" * 5000 + '"', '{"numerator": 10}', '{"not": 7}', '{"approximately": 7}',
    '{"value": 8, "value": 7}', '{"c": {"d": 3}}', '"1,000"', '"a' + " " * 80000 + 'b"', '"\\ud800"', '"\\udfff7"',
    '{"value": "\\ud800"}', '"\\\\frac{' + " " * 50000 + '"', '"x = ' + " " * 50000 + '7"', '[' * 5000 + ']' * 5000,
    '{"value": [7]}', '{"value": true}', 'null', '"7"', '7', '"3/4"', '"\\\\frac{1}{0}"', '"1/0"', '{"answer": "7"}',
    '{"value": 0.1000000000000000000000001}', '"²"', '"٧"', '"７"', '"-7"', '"−7"', '"7 or 8"', '"about 7"',
    '{"numerator": 1, "denominator": 0}', '{"numerator": 1, "denominator": 2, "value": 3}', '"1e3"', '"0x10"',
    '"1_000"', '"(1, 2)"', '"a = 1, a = 2"', '"a=1,b=2,c=3"', '[1, 2, 3]', '{"a": 1, "b": 2, "c": 3, "d": 4}',
    '{"a": "1,000", "b": 2}', '"' + "(" * 3000 + '"', '"\\\\boxed{' * 200 + '"', '"7' + "." * 3000 + '"',
    '{"value": 12345678901234567890123456789}', '{"value": 1.5e308}', '{"value": 5e-324}', '"\\u0000"',
]
MUTATION_IDS = ['"²"', '"ID_²"', '"٤"', '"ID_' + BIG + '"', BIG, '"ID_04"', '4', '"id_4"', 'null', '[]', '"\\ud800"',
                '1e999', '"ID_-1"', '"ID_4.0"', '"ID_４"']


def _solver_reply(rng: random.Random) -> str:
    kind = rng.randrange(6)
    answer = rng.choice(ANSWERS)
    if kind == 0:
        return '{"action": "answer", "answer": ' + answer + '}'
    if kind == 1:
        return 'Final answer:\n```json\n{"reasoning": "r", "action": "answer", "answer": ' + answer + '}\n```'
    if kind == 2:
        return '{"action": "request", "request": ' + rng.choice(['"\\ud800"', '"' + "x" * 3000 + '"', "5", BIG]) + '}'
    if kind == 3:
        return '{"action": "answer", "answer": ' + answer + ', "action": "request"}'
    if kind == 4:
        return '{"action": "answer", "value": ' + answer + '}'
    return '{"type": "final", "final_answer": ' + answer + ', "reasoning": ' + rng.choice(['NaN', '"ok"', BIG]) + '}'


def _responder_reply(rng: random.Random) -> str:
    quote = rng.choice(['"\\ud800"', "5", BIG, '"' + " " * 20000 + '"', '["a"]', '{"a": 1}', '"x"', 'NaN'])
    return ('{"type": "offer", "has_exact_match": ' + rng.choice(["true", '"yes"', "1", "NaN", BIG])
            + ', "constraint_quoted": ' + quote + ', "hint": ' + quote + '}')


def _tool_reply(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        ids = ", ".join(rng.choice(MUTATION_IDS) for _ in range(rng.randrange(1, 4)))
        label = rng.choice(['"A"', '"b"', '"neither"', "5", '"\\ud800"', BIG])
        return ('{"tool": "submit_answer", "arguments": {"corrupted_kernel": ' + label + ', "mutation_ids": [' + ids
                + '], "justification": ' + rng.choice(['"j"', '"\\ud800"', "NaN", BIG]) + '}}')
    if kind == 1:
        source = rng.choice(['"eval Type"', '"\\ud800"', '"' + "(" * 7000 + '"', '"' + "x " * 3999 + '"', BIG, "1e999",
                             '"eval ' + "S (" * 2000 + "Zero" + ")" * 2000 + '"', '"def f := f\\neval f"'])
        return '{"tool": "probe", "arguments": {"source": ' + source + '}}'
    if kind == 2:
        return '{"tool": "probe", "arguments": "' + rng.choice(["{\\\"source\\\": 1e999}", "\\ud800", "{" * 50]) + '"}'
    return '{"name": ' + rng.choice(['"budget_left"', "5", '"\\ud800"', "[]"]) + ', "arguments": ' + rng.choice(
        ["{}", "[]", "NaN", '{"x": 1, "x": 2}']) + '}'


def _noise(rng: random.Random, max_chars: int) -> str:
    kind = rng.randrange(12)
    n = rng.randrange(1, max_chars)
    if kind == 0:
        return "{" * n
    if kind == 1:
        return '{"a":' * (n // 5)
    if kind == 2:
        return "[" * n
    if kind == 3:
        return '{"a": "' + "\\" * (n // 2)
    if kind == 4:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(min(n, 2000)))
    if kind == 5:
        return "\ud800" + "text with a literal lone surrogate \udfff" + "\x00\x1b[2J"
    if kind == 6:
        return "```json\n" * (n // 8)
    if kind == 7:
        return " " * n + "{"
    if kind == 8:
        return '{"value": ' + "1" * n + "}"
    if kind == 9:
        return "".join(rng.choice('{}[]":,\\ 0123456789eE.-+truefalsnul') for _ in range(min(n, 20000)))
    if kind == 10:
        return ""
    return '{"x": "' + "a" * n + '"'


def _mangle(text: str, rng: random.Random) -> str:
    """A reply with a few characters changed, cut or duplicated (how a sampler goes wrong)."""
    if not text:
        return text
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(chars))
        op = rng.randrange(3)
        if op == 0:
            chars[i] = rng.choice('{}[]",:\\0e-')
        elif op == 1:
            del chars[i:]
            if not chars:
                break
        else:
            chars.insert(i, chars[i] * rng.randrange(1, 50))
    return "".join(chars)


GENERATORS: tuple[Callable[[random.Random], str], ...] = (_solver_reply, _responder_reply, _tool_reply)


def hostile_reply(seed: int, index: int, max_chars: int = 1_000_000) -> str:
    rng = random.Random(f"{seed}:{index}")
    kind = rng.randrange(10)
    if kind < 6:
        text = GENERATORS[kind % 3](rng)
    elif kind < 8:
        text = _mangle(GENERATORS[kind % 3](rng), rng)
    else:
        text = _noise(rng, max_chars if rng.random() < 0.1 else 5000)
    return text[:max_chars]


def hostile_replies(seed: int, n: int, max_chars: int = 1_000_000) -> Iterator[str]:
    for index in range(n):
        yield hostile_reply(seed, index, max_chars)


class HostileEngine(Engine):
    backend = "hostile"
    supports_schema = False
    deterministic = True

    def __init__(self, model: str = "hostile", seed: int = 0, max_chars: int = 100_000):
        super().__init__(model)
        self.seed = seed
        self.max_chars = max_chars

    def describe(self) -> dict:
        return {"backend": self.backend, "model": self.model, "seed": self.seed, "max_chars": self.max_chars}

    def _generate(self, requests: list[ChatRequest], decoding: Decoding) -> list[Completion]:
        out = []
        for request in requests:
            digest = hashlib.sha256(json.dumps(request.messages, ensure_ascii=True, sort_keys=True).encode())
            index = int(digest.hexdigest()[:12], 16)
            text = hostile_reply(self.seed, index, self.max_chars)
            out.append(Completion(text, prompt_tokens=1, completion_tokens=1, finish_reason="stop"))
        return out


ENGINE_OPTIONS = ("seed", "max_chars")


def create(model: str, opts: Any) -> HostileEngine:  # opts: harness.backends.options.Options
    engine = HostileEngine(model, seed=opts.int("seed", 0), max_chars=opts.int("max_chars", 100_000, minimum=1))
    opts.finish()
    return engine
