"""``vllm:MODEL_OR_PATH``: offline vLLM, one ``LLM.chat`` over the whole batch.

vLLM pins its own torch / transformers / lark, so it lives in its own environment (``make test-vllm``
builds ``.venv-vllm`` with the CPU wheel; a GPU machine installs ``vllm``); it is imported only here, when a
``vllm:`` spec is used. Settings verified on vLLM 0.32/0.33:

* ``generation_config="vllm"``: the model's generation_config.json does not change our sampling params;
* ``SamplingParams(temperature, seed, max_tokens, structured_outputs=StructuredOutputsParams(json=schema))``
  per request (max_tokens is always set: vLLM's default is 16);
* ``structured_outputs_config={"backend": ..., "disable_any_whitespace": true}`` at engine level (the
  per-request field has no effect), so a model cannot fill its budget with whitespace inside the JSON.

Options: ``dtype`` (auto), ``tensor_parallel_size`` (1), ``data_parallel_size`` (1: N > 1 runs N engines in
worker processes, each on tensor_parallel_size GPUs), ``max_model_len``, ``gpu_memory_utilization`` (0.90),
``max_num_seqs``, ``enforce_eager`` (false), ``enable_prefix_caching`` (engine default: on in V1),
``structured_backend`` (xgrammar | guidance | outlines | auto; default xgrammar), ``quantization``,
``tokenizer``, ``chat_template`` (path), ``trust_remote_code`` (false), ``kv_cache_gib`` (CPU builds:
``VLLM_CPU_KVCACHE_SPACE``), ``devices`` (GPU ids for data parallelism, comma-separated).
Run scripts that use it under ``if __name__ == "__main__":`` (vLLM spawns its engine process).
"""

from __future__ import annotations

import os
from typing import Any

from harness.backends.base import DEFAULT_SEED, BackendError, ChatRequest, Completion, Decoding, Engine
from harness.backends.options import Options

ENGINE_OPTIONS = ("dtype", "tensor_parallel_size", "data_parallel_size", "max_model_len", "gpu_memory_utilization",
                  "max_num_seqs", "enforce_eager", "enable_prefix_caching", "structured_backend", "quantization",
                  "tokenizer", "chat_template", "trust_remote_code", "kv_cache_gib", "devices")


def create(model: str, opts: Options) -> Engine:
    kwargs: dict[str, Any] = {
        "dtype": opts.str("dtype", "auto"),
        "tensor_parallel_size": opts.int("tensor_parallel_size", 1, minimum=1),
        "max_model_len": opts.int("max_model_len", None, minimum=16),
        "gpu_memory_utilization": opts.float("gpu_memory_utilization", 0.90, minimum=0.01),
        "max_num_seqs": opts.int("max_num_seqs", None, minimum=1),
        "enforce_eager": opts.bool("enforce_eager", False),
        "enable_prefix_caching": opts.bool("enable_prefix_caching", True) if opts.has("enable_prefix_caching")
        else None,
        "structured_backend": opts.choice("structured_backend", "xgrammar",
                                          ("xgrammar", "guidance", "outlines", "auto")),
        "quantization": opts.str("quantization"),
        "tokenizer": opts.str("tokenizer"),
        "chat_template": opts.str("chat_template"),
        "trust_remote_code": opts.bool("trust_remote_code", False),
        "kv_cache_gib": opts.int("kv_cache_gib", None, minimum=1),
    }
    dp = opts.int("data_parallel_size", 1, minimum=1) or 1
    devices = opts.str("devices")
    opts.finish()
    if dp == 1:
        return VLLMEngine(model, **kwargs)
    from harness.backends.parallel import DataParallelEngine, visible_devices

    device_list = [d.strip() for d in devices.split(",")] if devices else visible_devices()
    return DataParallelEngine("vllm", model, "harness.backends.vllm_engine:VLLMEngine", kwargs, dp,
                              kwargs["tensor_parallel_size"], device_list or None)


class VLLMEngine(Engine):
    backend = "vllm"
    supports_schema = True

    def __init__(self, model: str, dtype: str | None = "auto", tensor_parallel_size: int | None = 1,
                 max_model_len: int | None = None, gpu_memory_utilization: float | None = 0.90,
                 max_num_seqs: int | None = None, enforce_eager: bool = False,
                 enable_prefix_caching: bool | None = None, structured_backend: str = "xgrammar",
                 quantization: str | None = None, tokenizer: str | None = None, chat_template: str | None = None,
                 trust_remote_code: bool = False, kv_cache_gib: int | None = None):
        super().__init__(model)
        if kv_cache_gib:
            os.environ["VLLM_CPU_KVCACHE_SPACE"] = str(kv_cache_gib)
        try:
            from vllm import LLM, SamplingParams
            from vllm.sampling_params import StructuredOutputsParams
        except ImportError as exc:
            raise BackendError("vllm backend: vLLM is not installed in this environment (it needs its own: "
                               f"see docs/models.md, or `make test-vllm` for the CPU build): {exc}") from exc
        self.SamplingParams = SamplingParams
        self.StructuredOutputsParams = StructuredOutputsParams
        self.options = {"dtype": dtype, "tensor_parallel_size": tensor_parallel_size, "max_model_len": max_model_len,
                        "gpu_memory_utilization": gpu_memory_utilization, "max_num_seqs": max_num_seqs,
                        "enforce_eager": enforce_eager, "enable_prefix_caching": enable_prefix_caching,
                        "structured_backend": structured_backend, "quantization": quantization,
                        "tokenizer": tokenizer, "chat_template": chat_template,
                        "generation_config": "vllm", "disable_any_whitespace": True}
        kwargs: dict[str, Any] = {
            "model": model, "dtype": dtype or "auto", "seed": DEFAULT_SEED,
            "tensor_parallel_size": tensor_parallel_size or 1, "enforce_eager": enforce_eager,
            "gpu_memory_utilization": gpu_memory_utilization or 0.90, "generation_config": "vllm",
            "trust_remote_code": trust_remote_code,
            "structured_outputs_config": {"backend": structured_backend, "disable_any_whitespace": True},
        }
        for key, value in (("max_model_len", max_model_len), ("max_num_seqs", max_num_seqs),
                           ("enable_prefix_caching", enable_prefix_caching), ("quantization", quantization),
                           ("tokenizer", tokenizer)):
            if value is not None:
                kwargs[key] = value
        try:
            self.llm = LLM(**kwargs)
        except Exception as exc:
            raise BackendError(f"vllm backend: cannot start the engine for {model!r}: {type(exc).__name__}: "
                               f"{exc}") from exc
        self.chat_template = None
        if chat_template:
            with open(chat_template, encoding="utf-8") as f:
                self.chat_template = f.read()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), **self.options}

    def _params(self, request: ChatRequest, decoding: Decoding) -> Any:
        structured = self.StructuredOutputsParams(json=request.schema) if request.schema is not None else None
        return self.SamplingParams(temperature=decoding.temperature, top_p=decoding.top_p, seed=decoding.seed,
                                   max_tokens=request.max_tokens or decoding.max_tokens,
                                   structured_outputs=structured)

    def _generate(self, requests: list[ChatRequest], decoding: Decoding) -> list[Completion]:
        try:
            outputs = self._chat(requests, decoding)
        except (ValueError, RuntimeError, TypeError) as exc:
            if len(requests) == 1:
                return [Completion("", error=f"vLLM refused the request: {type(exc).__name__}: {exc}"[:500])]
            # one bad request (e.g. a prompt longer than max_model_len) fails the whole call: isolate it
            return [self._generate([r], decoding)[0] for r in requests]
        return [self._completion(o) for o in outputs]

    def _chat(self, requests: list[ChatRequest], decoding: Decoding) -> list[Any]:
        return self.llm.chat([r.messages for r in requests], [self._params(r, decoding) for r in requests],
                             use_tqdm=False, chat_template=self.chat_template)

    @staticmethod
    def _completion(output: Any) -> Completion:
        first = output.outputs[0]
        return Completion(text=first.text, prompt_tokens=len(output.prompt_token_ids or []),
                          completion_tokens=len(first.token_ids or []), finish_reason=first.finish_reason)

    def close(self) -> None:
        llm = getattr(self, "llm", None)
        if llm is not None:
            import gc

            del self.llm
            gc.collect()
