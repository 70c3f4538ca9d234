"""JSON-Schema constrained decoding for transformers ``generate`` through xgrammar (the library vLLM uses).

``SchemaGrammars`` compiles schemas for one tokenizer (cached by schema text); ``GrammarLogitsProcessor``
masks the logits of each row with that row's grammar (rows without a schema are left alone):

* a row whose grammar has finished may only emit a stop token, so it ends at once;
* a row whose token the grammar refuses (cannot happen with masking, but sampling code can change) is
  dropped from masking instead of raising: its text is then parsed leniently like any other reply;
* no whitespace outside strings (``any_whitespace=False``, compact separators), so a small model cannot fill
  its token budget with newlines inside the JSON.

Use one processor per ``generate`` call.
"""

from __future__ import annotations

import json
from typing import Any

import torch
import transformers


class SchemaGrammars:
    def __init__(self, tokenizer: Any, vocab_size: int, stop_token_ids: list[int]):
        import xgrammar as xgr

        self.xgr = xgr
        info = xgr.TokenizerInfo.from_huggingface(tokenizer, vocab_size=vocab_size, stop_token_ids=stop_token_ids)
        self.compiler = xgr.GrammarCompiler(info, cache_enabled=True)
        self.vocab_size = vocab_size
        self.stop_token_ids = list(stop_token_ids)
        self._cache: dict[str, Any] = {}

    def compile(self, schema: dict[str, Any]) -> Any:
        key = json.dumps(schema, ensure_ascii=False)  # property order matters: the grammar follows it
        grammar = self._cache.get(key)
        if grammar is None:
            grammar = self.compiler.compile_json_schema(key, any_whitespace=False, separators=(",", ":"),
                                                        strict_mode=True)
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[key] = grammar
        return grammar

    def processor(self, schemas: list[dict[str, Any] | None]) -> GrammarLogitsProcessor:
        grammars = [None if s is None else self.compile(s) for s in schemas]
        return GrammarLogitsProcessor(self.xgr, grammars, self.vocab_size, self.stop_token_ids)


class GrammarLogitsProcessor(transformers.LogitsProcessor):
    def __init__(self, xgr: Any, grammars: list[Any | None], vocab_size: int, stop_token_ids: list[int]):
        self.xgr = xgr
        self.matchers = [None if g is None else xgr.GrammarMatcher(g) for g in grammars]
        self.batch = xgr.BatchGrammarMatcher()
        self.bitmask = xgr.allocate_token_bitmask(len(grammars), vocab_size)
        self.stop_token_ids = stop_token_ids
        self.started = False
        self.filling = [i for i, m in enumerate(self.matchers) if m is not None]  # grammar not finished yet
        self.finished: list[int] = []  # grammar finished: only a stop token may follow

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if self.started and self.filling:
            tokens = input_ids[self.filling, -1].tolist()
            accepted = self.batch.batch_accept_token([self.matchers[i] for i in self.filling], tokens)
            still = []
            for i, ok in zip(self.filling, accepted, strict=True):
                if not ok:  # left to lenient parsing
                    continue
                (self.finished if self.matchers[i].is_terminated() else still).append(i)
            self.filling = still
        self.started = True
        if self.filling:
            fill = self.filling
            self.batch.batch_fill_next_token_bitmask([self.matchers[i] for i in fill], self.bitmask, indices=fill)
            device = scores.device
            if device.type not in ("cuda", "cpu"):
                cpu = scores.to("cpu")
                self.xgr.apply_token_bitmask_inplace(cpu, self.bitmask, indices=fill)
                scores = cpu.to(device)
            else:
                self.xgr.apply_token_bitmask_inplace(scores, self.bitmask.to(device), indices=fill)
        if self.finished:
            done = self.finished
            keep = scores[done][:, self.stop_token_ids].clone()
            scores[done] = float("-inf")
            scores[torch.tensor(done).unsqueeze(1), torch.tensor(self.stop_token_ids).unsqueeze(0)] = keep
        return scores
