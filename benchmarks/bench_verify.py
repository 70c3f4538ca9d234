"""``builder verify`` against the ``builder export`` it checks, each as the command a user runs (a fresh process).

Prints, for the default export (every available config, seed 1234, 20/50 typed split): the wall and CPU time of
``python -m builder export``, of ``python -m builder verify`` on that folder, and their ratio, with the best of
``--repeat`` runs of each (the machine may be busy). Also the verification that ``publish`` reuses: the
integrity check plus the stamp look-up. Target: verify at most 0.75x the export's wall time. Usage:

    python benchmarks/bench_verify.py [--repeat 2] [--num-proc N] [--n-a 20] [--n-b 50]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_RATIO = 0.75


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s of the process and its children) of one command; exits on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def best(runs: list[tuple[float, float]]) -> dict[str, float]:
    wall, cpu = min(runs)
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2)}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--num-proc", type=int, help="verify's processes (default: the CPUs this process may use)")
    p.add_argument("--n-a", type=int, default=20)
    p.add_argument("--n-b", type=int, default=50)
    args = p.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               "MIRA_ELENCHOS_CACHE": str(Path(tmp) / "cache"), "HF_HOME": str(Path(tmp) / "hf")}
        folder = Path(tmp) / "MIRA-MATH"
        export_args = ["-m", "builder", "export", "--out", str(folder), "--code-commit", "bench", "--force",
                       "--n-a", str(args.n_a), "--n-b", str(args.n_b)]
        verify_args = ["-m", "builder", "verify", str(folder)]
        if args.num_proc:
            verify_args += ["--num-proc", str(args.num_proc)]
        exports, verifies = [], []
        for _ in range(args.repeat):  # interleaved, so that a busy spell hits both
            exports.append(timed(export_args, env))
            verifies.append(timed(verify_args, env))
        reuse = timed(["-c", "from builder.verify import verify_stamped; import sys; "
                             f"sys.exit(0 if verify_stamped({str(folder)!r}, reuse=True).ok else 1)"], env)

    export_t, verify_t = best(exports), best(verifies)
    ratio = verify_t["wall_s"] / export_t["wall_s"]
    result = {
        "n_a": args.n_a, "n_b": args.n_b, "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "export": export_t,
        "verify": verify_t,
        "verify_over_export_wall": round(ratio, 2),
        "verify_over_export_cpu": round(verify_t["cpu_s"] / export_t["cpu_s"], 2),
        "publish_reusing_the_verification": best([reuse]),
        "target_ratio": TARGET_RATIO,
    }
    print(json.dumps(result, indent=2))
    print(f"verify / export (wall, best of {args.repeat}): {ratio:.2f} "
          f"(target <= {TARGET_RATIO}): {'MET' if ratio <= TARGET_RATIO else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
