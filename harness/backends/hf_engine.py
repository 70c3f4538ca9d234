"""``hf:MODEL_OR_PATH``: a transformers causal LM, batched greedy ``generate`` with left padding.

One engine call runs ``generate`` over chunks of ``batch_size`` conversations (64 by default; 0 = all at
once), sorted by length so padding stays small; the outputs are put back in request order. The chat
template comes from the tokenizer (or ``chat_template=PATH``); a template that refuses a system message
gets it prepended to the first user message. Decoding is greedy at temperature
0 (``do_sample=False``); with temperature > 0 it samples after ``torch.manual_seed(seed)``. A fresh
``GenerationConfig`` is used, never the model's defaults (like vLLM's ``generation_config="vllm"``).

JSON-Schema constrained decoding uses xgrammar (``grammar=xgrammar``, the default when it is installed).

Prefill (``prefill=ragged``, the default where the model allows it; see ``hf_prefill``): each prompt's blocks
already seen (the role's system prompt, the conversation's previous turn) come from a prefix cache of at most
``prefix_cache_gib`` GiB; only the rest is computed, in groups of similar length, and ``generate`` decodes
from a preallocated cache. ``prefill=padded`` is the plain left-padded ``generate``.

Options (``--solver-opt K=V``): ``dtype`` (auto | bf16 | fp16 | fp32; auto = bf16 on a GPU that supports
it, else fp32), ``device`` (auto | cpu | cuda | cuda:N | mps), ``batch_size`` (64; 0 = the whole batch),
``grammar`` (auto | xgrammar | none), ``chat_template`` (path to a Jinja file), ``threads`` (torch CPU threads),
``trust_remote_code`` (false), ``prefill`` (auto | ragged | padded), ``prefix_cache_gib`` (auto = a tenth of the
free GPU memory after loading, or of the machine's RAM on CPU; 0 = off),
``prefill_rows`` (16: rows per prefill forward pass).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from harness.backends.base import BackendError, ChatRequest, Completion, Decoding, Engine
from harness.backends.hf_prefill import Prepared, RaggedPrefill, ragged_unsupported
from harness.backends.options import Options
from harness.backends.prefix_cache import PrefixCache

ENGINE_OPTIONS = ("dtype", "device", "batch_size", "grammar", "chat_template", "threads", "trust_remote_code",
                  "prefill", "prefix_cache_gib", "prefill_rows")
DTYPES = {"bf16": "bfloat16", "bfloat16": "bfloat16", "fp16": "float16", "float16": "float16", "fp32": "float32",
          "float32": "float32"}


def _check_local_path(model: str) -> None:
    """``hf:./x``, ``hf:/models/x`` and ``hf:runs/x`` (its first part a folder here) name a folder: say plainly
    when it is missing, at once (not after the Hub's retries for a repo of that name)."""
    path = Path(model).expanduser()
    if not _names_a_folder(model, path):
        return
    if not path.exists():
        raise BackendError(f"hf backend: model path {model} does not exist (a local folder with config.json; "
                           "`python -m harness.backends.tiny DIR` writes a tiny test model; a Hub repo is ORG/NAME)")
    if not path.is_dir():
        raise BackendError(f"hf backend: model path {model} is not a folder")


def _names_a_folder(model: str, path: Path) -> bool:
    """Whether ``model`` is a path rather than a Hub repo id (``gpt2``, ``ORG/NAME``): it says so (``./``, ``/``,
    ``~``), it exists here, it has more than two parts, or its first part is a folder here (``runs/tiny``)."""
    if model.startswith(("/", "./", "../", "~", ".\\")) or model in (".", "..") or path.exists():
        return True
    parts = model.split("/")
    return len(parts) > 2 or (len(parts) == 2 and Path(parts[0]).is_dir())


def create(model: str, opts: Options) -> HFEngine:
    engine = HFEngine(
        model,
        dtype=opts.choice("dtype", "auto", ("auto", *DTYPES)),
        device=opts.str("device", "auto") or "auto",
        batch_size=opts.int("batch_size", 64, minimum=0) or 0,
        grammar=opts.choice("grammar", "auto", ("auto", "xgrammar", "none")),
        chat_template=opts.str("chat_template"),
        threads=opts.int("threads", None, minimum=1),
        trust_remote_code=opts.bool("trust_remote_code", False),
        prefill=opts.choice("prefill", "auto", ("auto", "ragged", "padded")),
        prefix_cache_gib=_gib_option(opts, "prefix_cache_gib"),
        prefill_rows=opts.int("prefill_rows", 16, minimum=1) or 16,
    )
    opts.finish()
    return engine


class HFEngine(Engine):
    backend = "hf"

    def __init__(self, model: str, dtype: str = "auto", device: str = "auto", batch_size: int = 64,
                 grammar: str = "auto", chat_template: str | None = None, threads: int | None = None,
                 trust_remote_code: bool = False, prefill: str = "auto", prefix_cache_gib: float | None = None,
                 prefill_rows: int = 16):
        super().__init__(model)
        _check_local_path(model)
        try:
            import torch
            import transformers  # noqa: F401 - fail here, with the install hint
        except ImportError as exc:
            raise BackendError(f"hf backend: transformers and torch are needed (pip install '.[transformers]'): "
                               f"{exc}") from exc
        self.torch = torch
        if threads:
            torch.set_num_threads(threads)
        self.device = _resolve_device(torch, device)
        self.dtype_name = _resolve_dtype(torch, dtype, self.device)
        self.batch_size = batch_size
        self.options = {"dtype": self.dtype_name, "device": self.device, "batch_size": batch_size, "grammar": grammar,
                        "chat_template": chat_template}
        self.tokenizer, self.lm = self._load(model, trust_remote_code)
        if chat_template:
            with open(chat_template, encoding="utf-8") as f:
                self.tokenizer.chat_template = f.read()
        if not getattr(self.tokenizer, "chat_template", None):
            raise BackendError(f"hf backend: {model!r} has no chat template; pass chat_template=PATH")
        self.stop_ids = _stop_ids(self.lm, self.tokenizer)
        if not self.stop_ids:
            raise BackendError(f"hf backend: {model!r} defines no end-of-sequence token")
        self.pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else self.stop_ids[0]
        self.vocab_size = int(self.lm.get_output_embeddings().weight.shape[0])
        self.grammars = None
        self.why_no_schema = "grammar=none"
        if grammar != "none":
            try:
                from harness.backends.grammar import SchemaGrammars

                self.grammars = SchemaGrammars(self.tokenizer, self.vocab_size, self.stop_ids)
            except ImportError as exc:
                if grammar == "xgrammar":
                    raise BackendError(f"hf backend: grammar=xgrammar but xgrammar is not installed: {exc}") from exc
                self.why_no_schema = f"xgrammar is not installed ({exc})"
        self.supports_schema = self.grammars is not None
        self.ragged = self._ragged_prefill(prefill, prefix_cache_gib, prefill_rows)
        self.options.update(prefill="ragged" if self.ragged else "padded", prefill_rows=prefill_rows,
                            prefix_cache_gib="auto" if prefix_cache_gib is None else prefix_cache_gib)

    def _load(self, model: str, trust_remote_code: bool) -> tuple[Any, Any]:
        """The tokenizer and the model, on ``self.device`` in eval mode (a subclass may build them in memory, as
        ``benchmarks/device_check.py`` does with random weights)."""
        from transformers import AutoModelForCausalLM, AutoTokenizer

        try:
            tokenizer = AutoTokenizer.from_pretrained(model, trust_remote_code=trust_remote_code)
            lm = AutoModelForCausalLM.from_pretrained(
                model, dtype=getattr(self.torch, self.dtype_name), trust_remote_code=trust_remote_code
            ).to(self.device).eval()
        except (OSError, ValueError) as exc:
            raise BackendError(f"hf backend: cannot load {model!r}: {exc}") from exc
        return tokenizer, lm

    def _ragged_prefill(self, prefill: str, prefix_cache_gib: float | None,
                        prefill_rows: int) -> RaggedPrefill | None:
        if prefill == "padded":
            return None
        why = ragged_unsupported(self.lm)
        if why is not None:
            if prefill == "ragged":
                raise BackendError(f"hf backend: prefill=ragged is not possible for {self.model!r}: {why}")
            self.options["prefill_fallback"] = why
            return None
        size = _auto_cache_bytes(self.torch, self.device) if prefix_cache_gib is None else int(prefix_cache_gib * 2**30)
        cache = PrefixCache(size) if size > 0 else None
        return RaggedPrefill(self.lm, self.pad_id, self.device, cache, prefill_rows)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), **self.options, "grammar": "xgrammar" if self.grammars else "none"}

    def _record_prefill(self) -> None:
        if self.ragged is None:
            return
        self.stats.extra["prefill"] = self.ragged.summary()

    # ------------------------------------------------------------------------------------------ prompts
    def encode(self, messages: list[dict[str, str]]) -> list[int]:
        return self.encode_many([messages])[0]

    def encode_many(self, conversations: list[list[dict[str, str]]]) -> list[list[int]]:
        """Token ids of each conversation under the chat template, with the generation prompt.

        Rendered one by one (templates are Jinja), tokenized in one batch (the Rust tokenizer runs it in
        parallel); the same ids as ``apply_chat_template(..., tokenize=True)``, which adds no special tokens.
        """
        texts = [self._render(messages) for messages in conversations]
        return [list(ids) for ids in self.tokenizer(texts, add_special_tokens=False)["input_ids"]]

    def _render(self, messages: list[dict[str, str]]) -> str:
        try:
            return self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        except Exception as exc:  # a template that refuses the system role (jinja raises)
            if not messages or messages[0].get("role") != "system":
                raise BackendError(f"hf backend: chat template failed: {exc}") from exc
            merged = [dict(m) for m in messages[1:]] or [{"role": "user", "content": ""}]
            merged[0]["content"] = messages[0]["content"] + "\n\n" + merged[0]["content"]
            return self.tokenizer.apply_chat_template(merged, add_generation_prompt=True, tokenize=False)

    # ------------------------------------------------------------------------------------------ generation
    def _generate(self, requests: list[ChatRequest], decoding: Decoding) -> list[Completion]:
        encoded = self.encode_many([r.messages for r in requests])
        order = sorted(range(len(requests)), key=lambda i: (-len(encoded[i]), i))
        size = self.batch_size or len(order)
        out: list[Completion | None] = [None] * len(requests)
        for start in range(0, len(order), size):
            chunk = order[start:start + size]
            results = self._generate_chunk([encoded[i] for i in chunk], [requests[i] for i in chunk], decoding)
            for i, completion in zip(chunk, results, strict=True):
                out[i] = completion
        self._record_prefill()
        return out  # type: ignore[return-value]

    def _generate_chunk(self, prompts: list[list[int]], requests: list[ChatRequest],
                        decoding: Decoding) -> list[Completion]:
        torch = self.torch
        from transformers import GenerationConfig

        limits = [r.max_tokens or decoding.max_tokens for r in requests]
        sample = decoding.temperature > 0
        config = GenerationConfig(max_new_tokens=max(limits), do_sample=sample, eos_token_id=self.stop_ids,
                                  pad_token_id=self.pad_id, bos_token_id=None,
                                  **({"temperature": decoding.temperature, "top_p": decoding.top_p, "top_k": 0}
                                     if sample else {}))
        processors = []
        schemas = [r.schema for r in requests]
        if self.grammars is not None and any(s is not None for s in schemas):
            processors.append(self.grammars.processor(schemas))
        if sample:
            torch.manual_seed(decoding.seed)
        inputs, prepared = self._inputs(prompts, max(limits))
        width = inputs["input_ids"].shape[1]
        with torch.inference_mode():
            output = self.lm.generate(**inputs, generation_config=config, logits_processor=processors or None)
        new = output[:, width:].tolist()
        results, kept_rows = [], []
        stops = set(self.stop_ids)
        for row, tokens in enumerate(new):
            tokens = tokens[: limits[row]]
            end = next((k for k, t in enumerate(tokens) if t in stops), None)
            kept = tokens if end is None else tokens[:end]
            kept_rows.append(kept)
            text = self.tokenizer.decode(kept, skip_special_tokens=True)
            results.append(Completion(text=text, prompt_tokens=len(prompts[row]),
                                      completion_tokens=len(kept) + (0 if end is None else 1),
                                      finish_reason="length" if end is None else "stop"))
        if prepared is not None:
            self.ragged.remember(prompts, prepared, kept_rows, output.shape[1] - width)
        return results

    def _inputs(self, prompts: list[list[int]], max_new_tokens: int) -> tuple[dict[str, Any], Prepared | None]:
        """generate()'s inputs: left-padded prompts, and with ragged prefill the cache of all but their last token."""
        if self.ragged is not None:
            prepared = self.ragged.prepare(prompts, max_new_tokens)
            if prepared is not None:
                return {"input_ids": prepared.input_ids, "attention_mask": prepared.attention_mask,
                        prepared.cache_kwarg: prepared.cache}, prepared
        torch = self.torch
        width = max(len(p) for p in prompts)
        input_ids = torch.full((len(prompts), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(prompts), width), dtype=torch.long)
        for row, ids in enumerate(prompts):
            input_ids[row, width - len(ids):] = torch.tensor(ids, dtype=torch.long)
            mask[row, width - len(ids):] = 1
        return {"input_ids": input_ids.to(self.device), "attention_mask": mask.to(self.device)}, None

    def close(self) -> None:
        model = getattr(self, "lm", None)
        if model is not None:
            del self.lm
            if self.device.startswith("cuda"):
                self.torch.cuda.empty_cache()


def _gib_option(opts: Options, key: str) -> float | None:
    if (opts.str(key, "auto") or "auto") == "auto":
        return None
    return opts.float(key, minimum=0.0)


def _auto_cache_bytes(torch: Any, device: str) -> int:
    """A tenth of the device's free memory (GPU), or of the machine's memory (CPU and others)."""
    if device.startswith("cuda"):
        free, _ = torch.cuda.mem_get_info(torch.device(device))
        return int(free) // 10
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 10
    except (ValueError, OSError, AttributeError):
        return 2**30


def _resolve_device(torch: Any, device: str) -> str:
    if device == "auto":
        if torch.cuda.is_available():
            return "cuda"
        return "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise BackendError(f"hf backend: device={device} but CUDA is not available")
    return device


def _resolve_dtype(torch: Any, dtype: str, device: str) -> str:
    if dtype != "auto":
        return DTYPES[dtype]
    if device.startswith("cuda") and torch.cuda.is_bf16_supported():
        return "bfloat16"
    return "float32"


def _stop_ids(model: Any, tokenizer: Any) -> list[int]:
    ids: list[int] = []
    eos = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    for value in (eos if isinstance(eos, list) else [eos]) + [tokenizer.eos_token_id]:
        if isinstance(value, int) and value not in ids:
            ids.append(value)
    return ids
