"""Ragged prefill for the transformers backend; ``generate`` then decodes from a preallocated cache.

A plain left-padded ``generate`` computes every prompt padded to the longest one in the chunk, from scratch,
with masked attention over the padding, and grows its cache by concatenation at every step. In a multi-turn
protocol most of each prompt was already seen (the role's system prompt, the previous turn), so this module

1. looks each prompt up in a ``PrefixCache`` (whole blocks of tokens seen before, same context and positions);
2. computes only the remaining tokens, in groups of similar length (little padding), with the cached states as
   context and explicit position ids;
3. lays every row's states out left-padded in a ``StaticCache`` sized for the prompt and the new tokens, and
   stores the new blocks in the prefix cache.

``generate`` is then called with the full (left-padded) prompts and that cache: it feeds only each row's last
prompt token and decodes as usual (same logits processors, stopping and sampling). The greedy tokens are those of
the plain path up to floating-point rounding (the same kernels on differently shaped inputs), as with vLLM's
prefix caching. Models whose cache is not one full-attention key/value pair per layer (sliding windows, hybrid
or recurrent layers, encoder-decoders) keep the plain path.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from harness.backends.prefix_cache import PrefixCache, States

# Padding may add at most this fraction to a group's attention work (new tokens x context).
PADDING_SLACK = 0.25
# At most this many (padded) new tokens per forward pass, so that activations and the attention mask stay small
# with long prompts (a single longer row still goes alone).
GROUP_TOKENS = 16384


@dataclass
class Prepared:
    input_ids: Any  # (rows, width) left-padded prompts
    attention_mask: Any
    cache: Any  # every prompt token but the last: a StaticCache (a DynamicCache for a single row)
    cache_kwarg: str  # the name generate() takes it under ("cache", or "past_key_values" before transformers 5.2x)


def ragged_unsupported(lm: Any) -> str | None:
    """Why the ragged path cannot serve this model (``None`` when it can)."""
    try:
        from transformers import DynamicCache, StaticCache
        from transformers.cache_utils import DynamicLayer, StaticLayer
    except ImportError as exc:
        return f"this transformers has no DynamicCache/StaticCache layers ({exc})"
    config = lm.config
    if getattr(config, "is_encoder_decoder", False):
        return "encoder-decoder model"
    if getattr(config, "sliding_window", None) or getattr(config, "attention_chunk_size", None):
        return "sliding-window or chunked attention"
    if any(t != "full_attention" for t in getattr(config, "layer_types", None) or ()):
        return "layers other than full attention"
    try:
        dynamic = DynamicCache(config=config)
        static = StaticCache(config=config, max_cache_len=8)
    except Exception as exc:  # a config the cache classes cannot read
        return f"cache classes refuse this config ({exc})"
    if not all(type(layer) is DynamicLayer for layer in dynamic.layers):
        return "cache layers other than plain key/value"
    if not all(type(layer) is StaticLayer for layer in static.layers):
        return "static cache layers other than plain key/value"
    return None


def cache_kwarg(lm: Any) -> str:
    params = inspect.signature(lm.forward).parameters
    return "cache" if "cache" in params else "past_key_values"


class RaggedPrefill:
    def __init__(self, lm: Any, pad_id: int, device: str, prefix_cache: PrefixCache | None, group_rows: int = 16):
        import torch

        self.torch = torch
        self.lm = lm
        self.pad_id = pad_id
        self.device = device
        self.prefix_cache = prefix_cache
        self.group_rows = max(1, group_rows)
        self.kwarg = cache_kwarg(lm)
        self.forward_calls = 0
        self.prompt_tokens = 0
        self.reused_tokens = 0  # prompt tokens whose states came from the prefix cache

    def prepare(self, prompts: list[list[int]], max_new_tokens: int) -> Prepared | None:
        """The decode inputs for ``prompts`` (each at least one token); ``None`` if no row has context to cache."""
        targets = [p[:-1] for p in prompts]  # generate() itself feeds each row's last token
        found = [self._lookup(t) for t in targets]
        rows: list[Row] = [Row(hit, pieces) for hit, pieces in found]
        shared = self._shared(targets, rows)
        leaders = {group[0] for group in shared}
        if shared:  # a prefix several rows continue with is computed once (by its first row), then reused
            self._compute(sorted(leaders), targets, rows)
            for r in (r for group in shared for r in group[1:]):
                rows[r] = Row(*self._lookup(targets[r]))
        self._compute([r for r, row in enumerate(rows) if r not in leaders and row.reused < len(targets[r])],
                      targets, rows)
        self.prompt_tokens += sum(len(p) for p in prompts)
        self.reused_tokens += sum(row.reused for row in rows)
        if all(not row.pieces for row in rows):
            return None
        return self._decode_inputs(prompts, rows, max_new_tokens)

    def _lookup(self, tokens: list[int]) -> tuple[int, list[States]]:
        if self.prefix_cache is None or not tokens:
            return 0, []
        return self.prefix_cache.match(tokens)

    def _shared(self, targets: list[list[int]], rows: list[Row]) -> list[list[int]]:
        """Rows whose first uncached block is the same, for each such block that two or more rows share."""
        if self.prefix_cache is None:
            return []
        size = self.prefix_cache.block_tokens
        by_block: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for r, (t, row) in enumerate(zip(targets, rows, strict=True)):
            if len(t) - row.reused >= size:
                by_block.setdefault((row.reused, tuple(t[row.reused:row.reused + size])), []).append(r)
        return [group for group in by_block.values() if len(group) > 1]

    def _compute(self, todo: list[int], targets: list[list[int]], rows: list[Row]) -> None:
        """A forward pass over the uncached tokens of ``todo``'s rows, in groups; the new states join each row."""
        todo = sorted(todo, key=lambda r: (-len(targets[r]), -(len(targets[r]) - rows[r].reused), r))
        for group in self._groups(todo, targets, rows):
            for r, new in zip(group, self._forward(group, targets, rows), strict=True):
                if self.prefix_cache is not None:
                    self.prefix_cache.store(targets[r], rows[r].reused, new)
                rows[r].pieces.append(new)

    def _groups(self, todo: list[int], targets: list[list[int]], rows: list[Row]) -> list[list[int]]:
        """Consecutive rows, up to ``group_rows`` and ``GROUP_TOKENS`` padded new tokens at a time, while padding
        adds at most ``PADDING_SLACK`` of the attention work (new tokens x context) of the group."""
        groups: list[list[int]] = []
        for r in todo:
            candidate = [*groups[-1], r] if groups and len(groups[-1]) < self.group_rows else None
            if (candidate and len(candidate) * max(_new(g, targets, rows) for g in candidate) <= GROUP_TOKENS
                    and _padded_work(candidate, targets, rows) <= (1 + PADDING_SLACK) * sum(
                        _work(g, targets, rows) for g in candidate)):
                groups[-1] = candidate
            else:
                groups.append([r])
        return groups

    def _forward(self, group: list[int], targets: list[list[int]], rows: list[Row]) -> list[States]:
        """One forward pass over the uncached tokens of ``group`` (cached states as context): each row's new states."""
        torch = self.torch
        from transformers import DynamicCache

        past_len = max(rows[r].reused for r in group)
        width = max(len(targets[r]) - rows[r].reused for r in group)
        ids = torch.full((len(group), width), self.pad_id, dtype=torch.long)
        positions = torch.zeros((len(group), width), dtype=torch.long)
        mask = torch.zeros((len(group), past_len + width), dtype=torch.long)
        for i, r in enumerate(group):
            hit, suffix = rows[r].reused, targets[r][rows[r].reused:]
            ids[i, width - len(suffix):] = torch.tensor(suffix, dtype=torch.long)
            positions[i, width - len(suffix):] = torch.arange(hit, hit + len(suffix))
            mask[i, past_len - hit:past_len] = 1
            mask[i, past_len + width - len(suffix):] = 1
        if past_len:
            past = DynamicCache(ddp_cache_data=self._stack([rows[r].pieces for r in group], past_len))
        else:
            past = DynamicCache(config=self.lm.config)
        with torch.inference_mode():
            self.lm(input_ids=ids.to(self.device), attention_mask=mask.to(self.device),
                    position_ids=positions.to(self.device), use_cache=True, logits_to_keep=1, **{self.kwarg: past})
        self.forward_calls += 1
        return [[(layer.keys[i, :, past_len + width - n:], layer.values[i, :, past_len + width - n:])
                 for layer in past.layers] for i, n in enumerate(len(targets[r]) - rows[r].reused for r in group)]

    def _stack(self, pieces_per_row: list[list[States]], width: int) -> States:
        """Rows' states (each a list of pieces), left-padded to ``width`` and stacked: one pair per layer."""
        template = next(pieces[0] for pieces in pieces_per_row if pieces)
        stacked = [(k.new_zeros((len(pieces_per_row), k.shape[0], width, k.shape[2])),
                    v.new_zeros((len(pieces_per_row), v.shape[0], width, v.shape[2]))) for k, v in template]
        _write(pieces_per_row, stacked, width)
        return stacked

    def _decode_inputs(self, prompts: list[list[int]], rows: list[Row], max_new_tokens: int) -> Prepared:
        torch = self.torch
        width = max(len(p) for p in prompts) - 1
        ids = torch.full((len(prompts), width + 1), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(prompts), width + 1), dtype=torch.long)
        for r, p in enumerate(prompts):
            ids[r, width + 1 - len(p):] = torch.tensor(p, dtype=torch.long)
            mask[r, width + 1 - len(p):] = 1
        pieces = [row.pieces for row in rows]
        if len(prompts) == 1:  # no padding: a growing cache needs no mask, and one row is cheap to copy
            from transformers import DynamicCache

            cache = DynamicCache(ddp_cache_data=self._stack(pieces, width))
        else:
            cache = self._static_cache(pieces, width, width + max_new_tokens)
        return Prepared(ids.to(self.device), mask.to(self.device), cache, self.kwarg)

    def _static_cache(self, pieces: list[list[States]], width: int, size: int) -> Any:
        """A StaticCache of ``size`` positions holding the rows' states in its first ``width``, written in place."""
        torch = self.torch
        from transformers import StaticCache

        cache = StaticCache(config=self.lm.config, max_cache_len=size)
        if not all(isinstance(getattr(layer, "cumulative_length", None), torch.Tensor) for layer in cache.layers):
            for layer, (keys, values) in enumerate(self._stack(pieces, width)):  # a transformers without that counter
                cache.update(keys, values, layer, {"cache_position": torch.arange(width, device=keys.device)})
            return cache
        template = next(p[0] for p in pieces if p)
        for layer, (k, v) in enumerate(template):  # allocates each layer's buffers for this batch
            cache.update(k.new_zeros((len(pieces), k.shape[0], 0, k.shape[2])),
                         v.new_zeros((len(pieces), v.shape[0], 0, v.shape[2])), layer,
                         {"cache_position": torch.arange(0, device=k.device)})
        _write(pieces, [(layer.keys, layer.values) for layer in cache.layers], width)
        for layer in cache.layers:
            layer.cumulative_length.fill_(width)
        return cache

    def remember(self, prompts: list[list[int]], prepared: Prepared, generated: list[list[int]], steps: int) -> None:
        """Keep the states decoding computed too (each prompt and what was generated before its stop): the
        conversation's next prompt repeats them, when the template renders the reply as the same tokens."""
        if self.prefix_cache is None or steps < 2:
            return
        width = prepared.input_ids.shape[1] - 1
        layers = prepared.cache.layers
        for r, (prompt, tokens) in enumerate(zip(prompts, generated, strict=True)):
            fed = tokens[:steps - 1]  # the last token sampled was never fed back
            first, last = width + 1 - len(prompt), width + 1 + len(fed)
            self.prefix_cache.store(prompt + fed, 0, [(layer.keys[r, :, first:last], layer.values[r, :, first:last])
                                                      for layer in layers])

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"forward_calls": self.forward_calls, "prompt_tokens": self.prompt_tokens,
                               "reused_tokens": self.reused_tokens,
                               "reused_rate": round(self.reused_tokens / self.prompt_tokens, 4)
                               if self.prompt_tokens else None}
        if self.prefix_cache is not None:
            out["prefix_cache"] = self.prefix_cache.summary()
        return out


@dataclass
class Row:
    """One prompt's states so far: ``reused`` tokens from the prefix cache, then what was computed, in pieces."""

    reused: int
    pieces: list[States]


def _write(pieces_per_row: list[list[States]], buffers: States, end: int) -> None:
    """Copy each row's pieces into ``buffers`` (one (keys, values) pair per layer), the row ending at ``end``."""
    for i, pieces in enumerate(pieces_per_row):
        stop = end
        for piece in reversed(pieces):
            n = piece[0][0].shape[1]
            for (keys, values), (k, v) in zip(buffers, piece, strict=True):
                keys[i, :, stop - n:stop] = k
                values[i, :, stop - n:stop] = v
            stop -= n


def _new(r: int, targets: list[list[int]], rows: list[Row]) -> int:
    return len(targets[r]) - rows[r].reused


def _work(r: int, targets: list[list[int]], rows: list[Row]) -> int:
    return _new(r, targets, rows) * len(targets[r])


def _padded_work(group: list[int], targets: list[list[int]], rows: list[Row]) -> int:
    new = max(_new(r, targets, rows) for r in group)
    return len(group) * new * (max(rows[r].reused for r in group) + new)
