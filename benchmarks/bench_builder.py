"""Export every available config (seed 1234, 20/50 typed split) to a Hub-ready folder; time it and size it.

Prints the wall time of the export with one process and with ``--num-proc`` processes (and checks that the
two folders are byte-identical), the time of ``verify`` (which regenerates everything), and the size of
every file. Target: the single-process export under 30 s. Usage:

    python benchmarks/bench_builder.py [--num-proc 2] [--n-a 20] [--n-b 50] [--seed 1234]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_S = 30.0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--num-proc", type=int, default=2)
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--n-a", type=int, default=20)
    p.add_argument("--n-b", type=int, default=50)
    args = p.parse_args()

    from builder.export import data_files, export
    from builder.verify import verify
    from generators.jsonl import sha256_file

    params = {"seed": args.seed, "n_a": args.n_a, "n_b": args.n_b}
    with tempfile.TemporaryDirectory() as tmp:
        one, many = Path(tmp) / "one" / "MIRA-MATH", Path(tmp) / "many" / "MIRA-MATH"
        start = time.perf_counter()
        manifest = export(one, code_commit="bench", log=lambda _: None, **params)
        t_one = time.perf_counter() - start
        start = time.perf_counter()
        export(many, code_commit="bench", num_proc=args.num_proc, log=lambda _: None, **params)
        t_many = time.perf_counter() - start
        identical = all(sha256_file(one / f) == sha256_file(many / f) for f in data_files(one)) and data_files(
            one
        ) == data_files(many)
        start = time.perf_counter()
        report = verify(one)
        t_verify = time.perf_counter() - start
        sizes = {f: (one / f).stat().st_size for f in data_files(one)}

    rows = {n: sum(s["num_examples"] for s in c["splits"].values()) for n, c in manifest["configs"].items()}
    result = {
        "params": params,
        "rows": rows,
        "skipped": list(manifest["skipped"]),
        "export_s": round(t_one, 2),
        f"export_num_proc_{args.num_proc}_s": round(t_many, 2),
        "identical_across_num_proc": identical,
        "verify_s": round(t_verify, 2),
        "verify_ok": report.ok,
        "bytes_total": sum(sizes.values()),
        "bytes": sizes,
        "target_s": TARGET_S,
        "within_target": t_one < TARGET_S,
    }
    print(json.dumps(result, indent=2))
    return 0 if identical and report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
