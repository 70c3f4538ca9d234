"""Prefix cache (radix tree of key/value blocks) and ragged prefill of the transformers backend."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from harness.backends.base import BackendError, ChatRequest, Decoding  # noqa: E402
from harness.backends.hf_prefill import ragged_unsupported  # noqa: E402
from harness.backends.prefix_cache import PrefixCache  # noqa: E402

LAYERS, HEADS, DIM = 2, 1, 4


def states_for(tokens: list[int]) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Fake per-layer states whose values encode (layer, position, token), so mix-ups show."""
    pos = torch.arange(len(tokens), dtype=torch.float32)
    tok = torch.tensor(tokens, dtype=torch.float32)
    out = []
    for layer in range(LAYERS):
        k = (layer * 1e6 + pos * 1e3 + tok).reshape(1, -1, 1).expand(HEADS, -1, DIM).clone()
        out.append((k, -k))
    return out


def joined(pieces: list) -> list[tuple[torch.Tensor, torch.Tensor]]:
    return [(torch.cat([p[layer][0] for p in pieces], dim=1), torch.cat([p[layer][1] for p in pieces], dim=1))
            for layer in range(LAYERS)]


def assert_states(pieces: list, tokens: list[int]) -> None:
    expected = states_for(tokens)
    for (k, v), (ek, ev) in zip(joined(pieces), expected, strict=True):
        assert torch.equal(k, ek) and torch.equal(v, ev)


def test_whole_blocks_only_and_exact_states() -> None:
    cache = PrefixCache(max_bytes=2**20, block_tokens=4)
    tokens = list(range(100, 111))  # 11 tokens: two whole blocks
    cache.store(tokens, 0, states_for(tokens))
    hit, pieces = cache.match([*tokens, 7, 7])
    assert hit == 8
    assert_states(pieces, tokens[:8])
    assert cache.match([100, 101, 102])[0] == 0  # less than a block
    assert cache.match([999, *tokens])[0] == 0  # same tokens at other positions are not reused


def test_divergence_splits_an_edge_and_both_branches_stay_exact() -> None:
    cache = PrefixCache(max_bytes=2**20, block_tokens=4)
    a = list(range(16))
    b = a[:8] + [50 + i for i in range(8)]
    cache.store(a, 0, states_for(a))
    hit, pieces = cache.match(b)
    assert hit == 8
    cache.store(b, 8, [(k[:, 8:], v[:, 8:]) for k, v in states_for(b)])
    for tokens in (a, b):
        hit, pieces = cache.match(tokens)
        assert hit == 16 and len(pieces) == 2  # shared edge + own edge
        assert_states(pieces, tokens)
    assert cache.summary()["edges"] == 3 and cache.summary()["stored_tokens"] == 24


def test_continuing_a_conversation_adds_one_edge() -> None:
    cache = PrefixCache(max_bytes=2**20, block_tokens=4)
    turn1 = list(range(12))
    turn2 = turn1 + list(range(200, 210))
    cache.store(turn1, 0, states_for(turn1))
    hit, _ = cache.match(turn2)
    assert hit == 12
    cache.store(turn2, 12, [(k[:, 12:], v[:, 12:]) for k, v in states_for(turn2)])
    hit, pieces = cache.match(turn2)
    assert hit == 20 and len(pieces) == 2
    assert_states(pieces, turn2[:20])


def test_memory_bound_evicts_least_recently_used_and_keeps_the_new_path() -> None:
    per_token = LAYERS * 2 * HEADS * DIM * 4
    cache = PrefixCache(max_bytes=20 * per_token, block_tokens=4)
    first, second, third = ([base + i for i in range(8)] for base in (0, 100, 200))
    cache.store(first, 0, states_for(first))
    cache.store(second, 0, states_for(second))
    cache.match(first)  # first is now more recent than second
    cache.store(third, 0, states_for(third))  # 24 tokens > 20: one conversation must go
    assert cache.match(second)[0] == 0
    assert cache.match(first)[0] == 8 and cache.match(third)[0] == 8
    assert cache.bytes <= cache.max_bytes and cache.evicted_tokens == 8


def test_store_needs_its_prefix_and_a_zero_budget_stores_nothing() -> None:
    cache = PrefixCache(max_bytes=2**20, block_tokens=4)
    tokens = list(range(12))
    cache.store(tokens, 4, [(k[:, 4:], v[:, 4:]) for k, v in states_for(tokens)])  # first block not cached
    assert cache.match(tokens)[0] == 0
    off = PrefixCache(max_bytes=0, block_tokens=4)
    off.store(tokens, 0, states_for(tokens))
    assert off.match(tokens)[0] == 0


def test_models_the_ragged_path_cannot_serve_are_named() -> None:
    def fake(**config):
        return SimpleNamespace(config=SimpleNamespace(**config))

    assert "sliding" in ragged_unsupported(fake(sliding_window=4096))
    assert "full attention" in ragged_unsupported(fake(layer_types=["full_attention", "sliding_attention"]))
    assert "encoder-decoder" in ragged_unsupported(fake(is_encoder_decoder=True))


# ---------------------------------------------------------------------------------------------- engine


@pytest.fixture(scope="module")
def engines(tiny_model: Path):
    from harness.backends.hf_engine import HFEngine

    padded = HFEngine(str(tiny_model), threads=2, prefill="padded")
    ragged = HFEngine(str(tiny_model), threads=2, prefill="ragged", prefix_cache_gib=0.25)
    yield padded, ragged
    padded.close()
    ragged.close()


SYSTEM = ("You are agent A. Ask agent B for the one missing quantity, by its name, or answer exactly. "
          "Reply with one JSON object. ") * 3


def conversations(turns: int) -> list[list[dict[str, str]]]:
    out = []
    for i in range(6):
        messages = [{"role": "system", "content": SYSTEM},
                    {"role": "user", "content": f"Problem {i}: the facts are x{i} = {i * 7} and " + "y " * (i * 9)}]
        for t in range(turns):
            messages += [{"role": "assistant", "content": f'{{"action": "request", "request": "What is q{t}?"}}'},
                         {"role": "user", "content": f"B says: q{t} = {t + i}. Requests left: {3 - t}."}]
        out.append(messages)
    return out


def test_ragged_prefill_gives_the_plain_greedy_tokens(engines) -> None:
    padded, ragged = engines
    decoding = Decoding(max_tokens=12)
    for turns in (0, 1, 2):  # later turns extend earlier prompts: the prefix cache serves most of each prompt
        requests = [ChatRequest(c) for c in conversations(turns)]
        expected = [c.text for c in padded.generate(requests, decoding)]
        assert [c.text for c in ragged.generate(requests, decoding)] == expected
        assert [ragged.generate([r], decoding)[0].text for r in requests] == expected  # one by one
    info = ragged.stats.as_dict()["prefill"]
    assert info["reused_rate"] > 0.5 and info["prefix_cache"]["edges"] > 6
    assert ragged.describe()["prefill"] == "ragged" and padded.describe()["prefill"] == "padded"


def test_ragged_prefill_without_a_prefix_cache(tiny_model: Path, engines) -> None:
    from harness.backends.hf_engine import HFEngine

    padded, _ = engines
    uncached = HFEngine(str(tiny_model), threads=2, prefill="ragged", prefix_cache_gib=0)
    requests = [ChatRequest(c) for c in conversations(2)]
    try:
        assert uncached.ragged.prefix_cache is None
        assert ([c.text for c in uncached.generate(requests, Decoding(max_tokens=8))]
                == [c.text for c in padded.generate(requests, Decoding(max_tokens=8))])
        assert uncached.stats.as_dict()["prefill"]["reused_tokens"] == 0
    finally:
        uncached.close()


def test_ragged_prefill_under_a_json_schema_and_a_tight_cache(tiny_model: Path, engines) -> None:
    from harness.backends.hf_engine import HFEngine

    padded, _ = engines
    tight = HFEngine(str(tiny_model), threads=2, prefill="ragged", prefix_cache_gib=2**-14)  # 64 KiB: evicts
    schema = {"type": "object", "properties": {"value": {"type": "integer", "minimum": 0, "maximum": 999}},
              "required": ["value"], "additionalProperties": False}
    requests = [ChatRequest(c, schema) for c in conversations(1)]
    try:
        for _ in range(2):
            assert ([c.text for c in tight.generate(requests, Decoding(max_tokens=10))]
                    == [c.text for c in padded.generate(requests, Decoding(max_tokens=10))])
        assert tight.ragged.prefix_cache.bytes <= tight.ragged.prefix_cache.max_bytes
        assert tight.ragged.prefix_cache.evicted_tokens > 0
    finally:
        tight.close()


def test_encode_many_matches_the_tokenizer_chat_template(engines) -> None:
    _, engine = engines
    convs = conversations(1)
    expected = [engine.tokenizer.apply_chat_template(c, add_generation_prompt=True, tokenize=True,
                                                     return_dict=False) for c in convs]
    assert engine.encode_many(convs) == [list(e) for e in expected]


def test_prefill_option_is_checked(tiny_model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.backends import hf_engine
    from harness.backends.options import Options

    monkeypatch.setattr(hf_engine, "ragged_unsupported", lambda lm: "sliding-window or chunked attention")
    with pytest.raises(BackendError, match=r"prefill=ragged is not possible.*sliding"):
        hf_engine.create(str(tiny_model), Options("hf", {"prefill": "ragged", "threads": "2"}))
    engine = hf_engine.create(str(tiny_model), Options("hf", {"threads": "2"}))  # auto falls back, and says why
    try:
        assert engine.describe()["prefill"] == "padded"
        assert "sliding" in engine.describe()["prefill_fallback"]
    finally:
        engine.close()


def test_prefill_groups_bound_rows_padding_and_tokens() -> None:
    from harness.backends import hf_prefill
    from harness.backends.hf_prefill import RaggedPrefill, Row

    lm = SimpleNamespace(forward=lambda input_ids=None, cache=None: None)
    prefill = RaggedPrefill(lm, pad_id=0, device="cpu", prefix_cache=None, group_rows=3)
    lengths = [100, 98, 97, 96, 40, 39]
    targets = [[1] * n for n in lengths]
    rows = [Row(0, []) for _ in lengths]
    assert prefill._groups(list(range(6)), targets, rows) == [[0, 1, 2], [3], [4, 5]]  # row cap, then padding
    prefill.group_rows = 16
    long = [[1] * hf_prefill.GROUP_TOKENS] * 2
    assert prefill._groups([0, 1], long, [Row(0, []), Row(0, [])]) == [[0], [1]]  # token cap
