"""What ``benchmarks/device_check.py`` builds: the run profiles (the 8B shape on the GPU, the tiny CPU dry run), a
Llama-shaped model with random weights made directly on the device, and ``BuiltEngine``, the real ``HFEngine``
serving that in-memory model with a per-phase deadline and a log of every engine call."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.backends.hf_engine import HFEngine


@dataclass(frozen=True)
class Profile:
    """What is built and run: the model's shape, the data sizes, the reply lengths and each phase's budget."""

    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    intermediate: int
    vocab: int | None  # None: the tokenizer's size
    dtype: str
    batch_size: int
    split: tuple[int, int]  # typed_slots(n_a, n_b): (20, 50) is the 2,310-instance default split
    full_limit: int | None
    slice: int
    one_by_one_limit: int | None
    elenchos_sessions: int
    equality_conversations: int
    equality_turns: int
    solver_opts: dict[str, str]
    agent_opts: dict[str, str]
    budgets: dict[str, float]
    total_s: float
    tokenizer_vocab: int = 32000  # BPE merges stop earlier: the prompts' text is small
    big_cache_gib: float = 48.0  # slice_batched_big_cache: a prefix cache that holds the slice's histories
    full_max_concurrent: int | None = None  # full_split: episodes at a time (None: all, the default of a run)
    extra: dict[str, Any] = field(default_factory=dict)


# Llama-3.1-8B's published shape. Replies: a short reasoning field and request (random weights fill every string to
# its cap under the grammar, so the caps set the reply lengths: a terse real model's, well under max_tokens).
GPU = Profile(
    name="llama-3.1-8b-shape", layers=32, hidden=4096, heads=32, kv_heads=8, intermediate=14336, vocab=128256,
    dtype="bf16", batch_size=256, split=(20, 50), full_limit=None, slice=110, one_by_one_limit=None,
    elenchos_sessions=8, equality_conversations=8, equality_turns=3,
    solver_opts={"max_tokens": "192", "reasoning": "true", "reasoning_chars": "200", "request_chars": "80"},
    agent_opts={"max_tokens": "192", "reasoning": "true", "reasoning_chars": "160", "source_chars": "200",
                "text_chars": "100"},
    budgets={"equality": 30, "full_split": 220, "slice_batched": 40, "slice_batched_big_cache": 40,
             "slice_one_by_one": 40, "elenchos": 35},
    total_s=500, big_cache_gib=48.0,
)
TINY = Profile(
    name="tiny", layers=2, hidden=64, heads=2, kv_heads=1, intermediate=128, vocab=None, dtype="fp32",
    batch_size=64, split=(1, 1), full_limit=24, slice=8, one_by_one_limit=None, elenchos_sessions=2,
    equality_conversations=3, equality_turns=2,
    solver_opts={"max_tokens": "32", "reasoning": "false", "request_chars": "16"},
    agent_opts={"max_tokens": "32", "reasoning": "false", "source_chars": "24", "text_chars": "16"},
    budgets={"equality": 20, "full_split": 40, "slice_batched": 20, "slice_batched_big_cache": 20,
             "slice_one_by_one": 20, "elenchos": 15},
    total_s=150, tokenizer_vocab=2048, big_cache_gib=0.25,
)


class PhaseTimeout(Exception):
    """The phase reached its time budget (raised before a ``generate`` chunk)."""



# ---------------------------------------------------------------------------------------------------- the engine
class BuiltEngine(HFEngine):
    """``HFEngine`` on a model already in memory; logs every engine call and chunk and honours a deadline."""

    def __init__(self, model_dir: str, lm: Any, **kwargs: Any):
        self._built = lm
        self.deadline: float | None = None
        self.calls: list[dict[str, Any]] = []
        self.chunks = {"chunks": 0, "rows": 0, "completion_tokens": 0, "seconds": 0.0}
        super().__init__(model_dir, **kwargs)

    def _load(self, model: str, trust_remote_code: bool) -> tuple[Any, Any]:
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(model), self._built.eval()

    def generate(self, requests: list[Any], decoding: Any) -> list[Any]:
        reused = self.ragged.reused_tokens if self.ragged else 0
        started, entry = time.perf_counter(), {"schema": requests[0].schema_name if requests else None,
                                               "items": len(requests)}
        try:
            out = super().generate(requests, decoding)
        except BaseException:
            entry.update(seconds=round(time.perf_counter() - started, 3), interrupted=True)
            self.calls.append(entry)
            raise
        entry.update(seconds=round(time.perf_counter() - started, 3),
                     prompt_tokens=sum(c.prompt_tokens for c in out),
                     completion_tokens=sum(c.completion_tokens for c in out),
                     reused_tokens=(self.ragged.reused_tokens - reused) if self.ragged else None)
        self.calls.append(entry)
        return out

    def _generate_chunk(self, prompts: list[list[int]], requests: list[Any], decoding: Any) -> list[Any]:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise PhaseTimeout("time budget reached")
        started = time.perf_counter()
        try:
            out = super()._generate_chunk(prompts, requests, decoding)
        except self.torch.cuda.OutOfMemoryError:
            if len(prompts) < 2:
                raise
            # Recorded (the figures then say that batch_size is too large for this model on this GPU), and the
            # chunk is served in halves so that the phase goes on.
            self.chunks["oom_splits"] = self.chunks.get("oom_splits", 0) + 1
            self.torch.cuda.empty_cache()
            half = len(prompts) // 2
            return (self._generate_chunk(prompts[:half], requests[:half], decoding)
                    + self._generate_chunk(prompts[half:], requests[half:], decoding))
        self.chunks["chunks"] += 1
        self.chunks["rows"] += len(out)
        self.chunks["completion_tokens"] += sum(c.completion_tokens for c in out)
        self.chunks["seconds"] += time.perf_counter() - started
        return out

    def reset_phase(self, cache_bytes: int | None = None) -> None:
        """A fresh prefix cache (of ``cache_bytes``, default the engine's own bound) and fresh counters, so that each
        phase's figures are its own."""
        from harness.backends.hf_prefill import RaggedPrefill
        from harness.backends.prefix_cache import PrefixCache

        if self.ragged is not None:
            old = self.ragged
            if old.prefix_cache is not None:
                self.cache_bytes = getattr(self, "cache_bytes", old.prefix_cache.max_bytes)
            size = cache_bytes if cache_bytes is not None else getattr(self, "cache_bytes", 0)
            cache = PrefixCache(size) if size > 0 else None
            old.prefix_cache = None
            self.ragged = RaggedPrefill(self.lm, self.pad_id, self.device, cache, old.group_rows)
        self.calls = []
        self.chunks = {"chunks": 0, "rows": 0, "completion_tokens": 0, "seconds": 0.0}


# The hf: options the check passes on to its engine (--engine-opt), parsed as hf_engine.create parses them.
TUNABLE = ("prefix_cache_gib", "prefill_rows", "prefill", "grammar")


def engine_kwargs(opts: dict[str, str]) -> dict[str, Any]:
    from harness.backends import hf_engine
    from harness.backends.options import Options

    parsed = Options("device check", dict(opts))
    kwargs = {"device": parsed.str("device", "auto"),
              "dtype": parsed.choice("dtype", "auto", ("auto", *hf_engine.DTYPES)),
              "batch_size": parsed.int("batch_size", 64, minimum=0) or 0,
              "grammar": parsed.choice("grammar", "auto", ("auto", "xgrammar", "none")),
              "prefill": parsed.choice("prefill", "auto", ("auto", "ragged", "padded")),
              "prefix_cache_gib": hf_engine._gib_option(parsed, "prefix_cache_gib"),
              "prefill_rows": parsed.int("prefill_rows", 16, minimum=1) or 16}
    parsed.finish()
    return kwargs


# ---------------------------------------------------------------------------------------------------- building
def build_model_dir(root: Path, profile: Profile) -> Path:
    """A directory with the tokenizer (trained here on the prompts' text) and the model's config; no weights."""
    from transformers import AutoTokenizer
    from transformers.utils import logging as hf_logging

    from harness.backends.tiny import build_tiny_model

    hf_logging.disable_progress_bar()
    model_dir = build_tiny_model(root / "model", vocab_size=profile.tokenizer_vocab)
    for weights in model_dir.glob("*.safetensors*"):
        weights.unlink()  # the weights are built in memory from the config below
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model_config(profile, tokenizer).save_pretrained(model_dir)
    return model_dir


def model_config(profile: Profile, tokenizer: Any) -> Any:
    from transformers import LlamaConfig

    return LlamaConfig(vocab_size=profile.vocab or len(tokenizer), hidden_size=profile.hidden,
                       intermediate_size=profile.intermediate, num_hidden_layers=profile.layers,
                       num_attention_heads=profile.heads, num_key_value_heads=profile.kv_heads,
                       head_dim=profile.hidden // profile.heads, max_position_embeddings=16384, rms_norm_eps=1e-5,
                       rope_theta=500000.0, bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                       pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=False)


def build_model(model_dir: Path, device: str, dtype_name: str) -> Any:
    """Random weights created and initialised directly on ``device`` in ``dtype`` (no CPU copy, no disk)."""
    import torch
    from transformers import AutoConfig, GenerationConfig, LlamaForCausalLM

    config = AutoConfig.from_pretrained(model_dir)
    torch.manual_seed(0)
    with torch.device(device):
        lm = LlamaForCausalLM._from_config(config, dtype=getattr(torch, dtype_name))
    lm.generation_config = GenerationConfig(bos_token_id=config.bos_token_id, eos_token_id=config.eos_token_id,
                                            pad_token_id=config.pad_token_id, do_sample=False)
    return lm.eval()
