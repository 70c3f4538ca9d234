#!/usr/bin/env bash
# The one-call GPU check (docs/models.md, "The GPU check"): the hf: path on a Llama-3.1-8B-shaped model with random
# bf16 weights built on the GPU: the full zero-shot split batched, the 110-instance slice batched and one by one,
# greedy-token equality of ragged prefill against plain generate, a few Elenchos sessions. Under 9 minutes in all,
# installs included; every phase has a time budget, and OUT/summary.json holds what was measured even when the
# check is stopped early (a phase's budget, LIMIT_S, SIGTERM or SIGINT).
#
#   scripts/device_check.sh [--tiny] [DRIVER OPTIONS]     (options: python benchmarks/device_check.py --help)
#
# OUT       where summary.json, run_info.json and device_check.log go (default runs/device_check; the device
#           tool sets it)
# DEVICE    cuda (default) or cpu; `DEVICE=cpu scripts/device_check.sh --tiny` is the dry run on a CPU machine
# LIMIT_S   the whole script's wall-time limit in seconds (default 540), wheel install included
# WHEELS    a folder of wheels (`make device-wheels`, default .whl) installed with pip --no-index --no-deps into a
#           temporary target put first on PYTHONPATH, where the folder holds wheels and DEVICE is not cpu
#           (INSTALL_WHEELS=1 forces it, 0 skips it)
# PY        the Python to run (default python3, or .venv/bin/python where it exists)
set -uo pipefail
cd "$(dirname "$0")/.."
START=$(date +%s)
OUT=${OUT:-runs/device_check}
DEVICE=${DEVICE:-cuda}
LIMIT_S=${LIMIT_S:-540}
WHEELS=${WHEELS:-.whl}
if [ -z "${PY:-}" ]; then
  if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
mkdir -p "$OUT"
LOG="$OUT/device_check.log"
: >"$LOG"
say() { echo "== [$(( $(date +%s) - START ))s] $*" | tee -a "$LOG" >&2; }

fail_summary() {  # the driver never started: say why in the summary all the same
  "$PY" - "$OUT/summary.json" "$1" <<'PYEOF' || printf '{"complete": false, "stopped": "%s"}\n' "$1" >"$OUT/summary.json"
import json, sys
json.dump({"version": 1, "complete": False, "stopped": sys.argv[2], "phases": {}}, open(sys.argv[1], "w"), indent=2)
PYEOF
}

INSTALL=${INSTALL_WHEELS:-auto}
if [ "$INSTALL" = auto ]; then
  if [ "$DEVICE" != cpu ] && compgen -G "$WHEELS/*.whl" >/dev/null; then INSTALL=1; else INSTALL=0; fi
fi
if [ "$INSTALL" = 1 ]; then
  SITE=$(mktemp -d -t device_site.XXXXXX)
  say "installing $(ls "$WHEELS"/*.whl | wc -l) wheels from $WHEELS into $SITE (no index, no deps)"
  if ! "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" \
      "$WHEELS"/*.whl >>"$LOG" 2>&1; then
    say "wheel install failed (see $LOG)"
    fail_summary "wheel install failed"
    exit 1
  fi
  export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
else
  say "no wheel install (DEVICE=$DEVICE, INSTALL_WHEELS=${INSTALL_WHEELS:-auto}, $WHEELS)"
fi

LEFT=$(( LIMIT_S - ($(date +%s) - START) ))
if [ "$LEFT" -lt 60 ]; then
  say "only ${LEFT}s left of LIMIT_S=$LIMIT_S: not starting"
  fail_summary "no time left after the install"
  exit 1
fi
# The driver keeps 20 s of the limit for itself to write the summary; timeout sends SIGTERM just before the limit
# (the driver then stops its phase and writes the summary) and SIGKILL 10 s later.
say "driver: $PY benchmarks/device_check.py (device $DEVICE, ${LEFT}s left)"
PYTHONUNBUFFERED=1 timeout --signal=TERM --kill-after=10 $(( LEFT - 10 )) \
  "$PY" benchmarks/device_check.py --out "$OUT" --device "$DEVICE" --total-s $(( LEFT - 20 )) "$@" \
  > >(tee -a "$LOG") 2>&1 &
CHILD=$!
# A SIGTERM / SIGINT to this script reaches the driver (timeout passes it on), which then writes its summary.
trap 'kill -TERM "$CHILD" 2>/dev/null' TERM INT
RC=0
wait "$CHILD" || RC=$?
while kill -0 "$CHILD" 2>/dev/null; do  # wait returned early because a trapped signal arrived
  RC=0
  wait "$CHILD" || RC=$?
done
[ -f "$OUT/summary.json" ] || fail_summary "the driver wrote no summary (exit $RC)"
say "done: $OUT/summary.json"
exit "$RC"
