"""Model backends: one engine interface, three engines, MIRA-Math agents on top.

Spec strings (any solver pairs with any responder; the same local model for both roles is loaded once):

* ``openai:MODEL``         the OpenAI API, or any OpenAI-compatible server with ``base_url=...``
                           (``vllm serve``); json_schema structured outputs, bounded concurrency, retries
                           with exponential backoff and jitter, token usage and cost; key from the
                           environment only (``OPENAI_API_KEY``);
* ``vllm:MODEL_OR_PATH``   offline ``vllm.LLM.chat`` over the whole batch, structured outputs, tensor and data
                           parallelism (vLLM lives in its own environment: imported only when used);
* ``hf:MODEL_OR_PATH``     transformers: chat template, left-padded batched greedy ``generate``, JSON-Schema
                           constrained decoding through xgrammar.

The same specs serve the Elenchos role ``elenchos.agent`` (``elenchos_agents.ModelAuditor``).

Modules: ``base`` (Engine, ChatRequest, Completion, Decoding), ``mira_agents`` (ModelSolver,
ModelResponder, schemas, lenient parsing), ``elenchos_agents`` (ModelAuditor), ``openai_engine``,
``vllm_engine``, ``hf_engine``, ``grammar`` (xgrammar logits processor), ``parallel`` (data parallelism over
worker processes), ``pool`` (shared engines), ``options``, ``tiny`` (a tiny random model for tests).
Nothing heavy is imported here: the registry imports an engine module only when its spec is used.
"""

from harness import registry

for _backend in ("openai", "vllm", "hf"):
    registry.register_lazy("mira.solver", _backend, f"harness.backends.mira_agents:{_backend}_solver")
    registry.register_lazy("mira.responder", _backend, f"harness.backends.mira_agents:{_backend}_responder")
    registry.register_lazy("elenchos.agent", _backend, f"harness.backends.elenchos_agents:{_backend}_agent")
