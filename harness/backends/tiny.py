"""A tiny random-weight Llama with an offline tokenizer and a chat template, for tests and smoke checks.

No download: the byte-level BPE tokenizer is trained here on the prompts' own text (so prompts tokenize
compactly) and the weights are random (``torch.manual_seed``). head_dim is 32, which vLLM's CPU and GPU
attention backends accept. The outputs are noise; constrained decoding still makes them parseable.

    python -m harness.backends.tiny OUT_DIR        # writes config, weights, tokenizer, chat template
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

SPECIALS = ["<pad>", "<s>", "</s>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>"]
CHAT_TEMPLATE = ("{{ bos_token }}{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
                 "{% if add_generation_prompt %}<|assistant|>{% endif %}")


def _corpus() -> list[str]:
    from harness.prompts.elenchos import elenchos_system_prompt
    from harness.prompts.mira import action_json, responder_system_prompt, solver_system_prompt

    texts = [solver_system_prompt(True), solver_system_prompt(False), responder_system_prompt(),
             elenchos_system_prompt(1, tool_format="json")]
    texts += [action_json("request", request="What is the value of c?"),
              action_json("answer", answer={"numerator": 5, "denominator": 11}),
              json.dumps({"type": "offer", "has_exact_match": True, "constraint_quoted": "c = 6", "hint": "6"}),
              json.dumps({"type": "decline", "has_exact_match": False, "constraint_quoted": None, "hint": None}),
              "Your facts: P(E|H) = 1/2 Requests left: 3 of 3. Unknowns: x0, x1, q0, q1, q2, mu_4, lambda_2",
              "0123456789 + - * / = ( ) [ ] { } < > , . : ; ' \" \\"]
    try:  # the instances' own wording (a separate seed from the default split's)
        from generators.split import generate, typed_slots

        for inst in generate(typed_slots(1, 1), 99):
            texts.append(inst["question"])
            for view in inst["agent_views"]:
                texts.extend(view["private_data"]["constraints_text"])
    except ImportError:
        pass
    return texts


def build_tiny_model(out: str | Path, vocab_size: int = 2048, seed: int = 0, hidden_size: int = 64,
                     layers: int = 2) -> Path:
    """Write a tiny Llama to ``out`` (created) and return the path. Deterministic for a given seed."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIALS, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(_corpus() * 4, trainer=trainer)
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", pad_token="<pad>",
                                     padding_side="left", chat_template=CHAT_TEMPLATE)
    hf_tok.model_max_length = 16384
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(hf_tok), hidden_size=hidden_size, intermediate_size=2 * hidden_size,
                         num_hidden_layers=layers, num_attention_heads=hidden_size // 32, num_key_value_heads=1,
                         head_dim=32, max_position_embeddings=16384, bos_token_id=hf_tok.bos_token_id,
                         eos_token_id=hf_tok.eos_token_id, pad_token_id=hf_tok.pad_token_id,
                         tie_word_embeddings=False)
    model = LlamaForCausalLM(config)
    model.generation_config = GenerationConfig(bos_token_id=config.bos_token_id, eos_token_id=config.eos_token_id,
                                               pad_token_id=config.pad_token_id, do_sample=False)
    model.save_pretrained(out)
    hf_tok.save_pretrained(out)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--vocab-size", type=int, default=2048)
    parser.add_argument("--hidden-size", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(build_tiny_model(args.out, args.vocab_size, args.seed, args.hidden_size, args.layers))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
