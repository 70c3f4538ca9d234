"""The wall time of `make test`'s commands (ruff, then the suite in parallel with pytest-xdist), and its CPU time.

Prints the wall time, the CPU time of every process it started (user + system), their ratio (how many CPUs the
run kept busy) and the target: under 4 minutes on an idle 2-core machine. ``--serial`` also runs the suite in one
process first, for the speed-up against it in the same run (that doubles the time this script takes). Usage:

    python benchmarks/bench_test_suite.py [--jobs auto] [--serial] [-- PYTEST ARGS]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 240.0


def timed(args: list[str]) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tail = proc.stdout.strip().splitlines()[-1:] or [""]
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "rc": proc.returncode, "last_line": tail[0]}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--jobs", default="logical", help="pytest-xdist workers (-n), as `make test` (PYTEST_JOBS)")
    p.add_argument("--serial", action="store_true", help="also run the suite in one process, for the speed-up")
    p.add_argument("pytest_args", nargs="*")
    args = p.parse_args()

    lint = timed(["-m", "ruff", "check", "."])
    result: dict[str, object] = {"cpus": os.cpu_count(), "ruff": lint}
    if args.serial:
        result["serial"] = timed(["-m", "pytest", "-p", "no:xdist", *args.pytest_args])
    parallel = timed(["-m", "pytest", "-n", args.jobs, "--dist", "loadfile", *args.pytest_args])
    result["parallel"] = parallel
    wall = lint["wall_s"] + parallel["wall_s"]
    result["make_test_wall_s"] = round(wall, 1)
    result["cpus_kept_busy"] = round(parallel["cpu_s"] / parallel["wall_s"], 2) if parallel["wall_s"] else None
    if args.serial:
        result["speedup_over_serial"] = round(result["serial"]["wall_s"] / parallel["wall_s"], 2)
    result["target_s"] = TARGET_S
    print(json.dumps(result, indent=2))
    print(f"make test wall: {wall:.0f} s (target < {TARGET_S:.0f} s on an idle 2-core machine): "
          f"{'MET' if wall < TARGET_S else 'MISSED'}")
    return 0 if lint["rc"] == 0 and parallel["rc"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
