#!/usr/bin/env bash
# GPU smoke check, under 5 minutes on one GPU: the transformers and vLLM backends on a tiny random Llama on
# the GPU (a short MIRA-Math run each, solver and responder on the same model, loaded once), plus a
# throughput figure per backend (one engine call of N zero-shot solver prompts, free and JSON-constrained).
#
#   scripts/gpu_smoke.sh [OUT_DIR]
#
# PY runs the transformers part (default .venv/bin/python, else python3; needs torch with CUDA,
# transformers, xgrammar). VLLM_PY runs the vLLM part (default .venv-vllm/bin/python if present, else $PY);
# it is skipped, with a message, where vLLM is not installed. Nothing is downloaded: the model is built here.
# DEVICE=cpu runs the same steps on the CPU (a dry run of the script on a machine without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-$(mktemp -d -t gpu_smoke.XXXXXX)}
mkdir -p "$OUT"
if [ -z "${PY:-}" ]; then
  if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
if [ -z "${VLLM_PY:-}" ]; then
  if [ -x .venv-vllm/bin/python ]; then VLLM_PY=.venv-vllm/bin/python; else VLLM_PY=$PY; fi
fi
DEVICE=${DEVICE:-cuda}
START=$(date +%s)
say() { echo "== [$(( $(date +%s) - START ))s] $*" >&2; }

if [ "$DEVICE" != cpu ]; then
  "$PY" -c "import torch; assert torch.cuda.is_available(), 'no CUDA device'; print('GPU:', torch.cuda.get_device_name(0))"
fi
say "building the tiny model and a small split in $OUT"
"$PY" -m harness.backends.tiny "$OUT/tiny" >/dev/null 2>&1
"$PY" -m generators mira --n-a 2 --n-b 2 --out "$OUT/zs.jsonl" >/dev/null

COMMON=(--dataset "$OUT/zs.jsonl" --limit 66 --no-progress --quiet
        --solver-opt max_tokens=64 --solver-opt reasoning=false --solver-opt request_chars=40
        --responder-opt max_tokens=64 --responder-opt hint_chars=20)

say "transformers backend: MIRA run on $DEVICE"
"$PY" run_eval.py mira "${COMMON[@]}" --solver "hf:$OUT/tiny" --responder "hf:$OUT/tiny" \
  --solver-opt "device=$DEVICE" --responder-opt "device=$DEVICE" --out "$OUT/run-hf"
say "transformers backend: throughput"
"$PY" benchmarks/bench_backends.py --throughput --backend hf --device "$DEVICE" --model "$OUT/tiny" --n "${N_HF:-512}" \
  --json "$OUT/throughput-hf.json" >/dev/null

if "$VLLM_PY" -c "import vllm" >/dev/null 2>&1; then
  if [ "$DEVICE" = cpu ]; then
    VOPTS=(max_model_len=4096 dtype=float32 enforce_eager=true kv_cache_gib=1)
  else
    VOPTS=(max_model_len=4096 gpu_memory_utilization=0.30)
  fi
  SOLVER_V=(); RESP_V=()
  for o in "${VOPTS[@]}"; do SOLVER_V+=(--solver-opt "$o"); RESP_V+=(--responder-opt "$o"); done
  say "vLLM backend: MIRA run on $DEVICE"
  "$VLLM_PY" run_eval.py mira "${COMMON[@]}" --solver "vllm:$OUT/tiny" --responder "vllm:$OUT/tiny" \
    "${SOLVER_V[@]}" "${RESP_V[@]}" --out "$OUT/run-vllm"
  say "vLLM backend: throughput"
  "$VLLM_PY" benchmarks/bench_backends.py --throughput --backend vllm --device "$DEVICE" --model "$OUT/tiny" --n "${N_VLLM:-2048}" \
    --json "$OUT/throughput-vllm.json" >/dev/null
else
  say "vLLM is not installed for $VLLM_PY: vLLM part skipped"
fi

"$PY" - "$OUT" <<'PYEOF'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
for name in ("hf", "vllm"):
    run, tp = out / f"run-{name}" / "run.json", out / f"throughput-{name}.json"
    if not run.exists():
        continue
    info = json.loads(run.read_text())
    t = json.loads(tp.read_text()) if tp.exists() else {}
    line = {"backend": name, "instances": info["summary"]["n"], "engine_calls": info["engine_calls"]["engine_calls"],
            "wall_s": info["sessions"][-1]["wall_s"], "usage": info.get("usage"),
            "throughput_tok_s": {k: t[k]["completion_tokens_per_s"] for k in ("unconstrained", "constrained") if k in t}}
    prefill = info["sessions"][-1].get("backends", {}).get("solver", {}).get("engine_totals", {}).get("prefill")
    if prefill:  # hf: tokens reused from the prefix cache
        line["prefill_reused_rate"] = prefill.get("reused_rate")
    print(json.dumps(line))
PYEOF
say "done"
