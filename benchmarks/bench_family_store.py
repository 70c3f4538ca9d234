"""Benchmark: the test-run store of the Elenchos observations and admissibility (``MIRA_ELENCHOS_FAMILY_STORE``).

    python benchmarks/bench_family_store.py [--repeat 20]

Computes the table once (cold, no store), then reads it back from a fresh private store ``--repeat`` times and
builds the family on it. Prints one JSON line: the store file's bytes, the cold computation, the median read and
the median ``family()`` from the store (ms), and the read as a ratio of the cold computation.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from elenchos import family as F  # noqa: E402


def _ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=20)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="family-store-") as scratch:
        os.environ[F.STORE_ENV] = str(Path(scratch) / "store")
        sha = F.library().sha256
        cold = _ms(lambda: F._stored_admissibility(F.MAX_K, None, sha))  # computes and writes the store
        (stored,) = Path(os.environ[F.STORE_ENV]).iterdir()
        name, size = stored.name, stored.stat().st_size
        reads, families = [], []
        for _ in range(args.repeat):
            F.clear_cache()
            reads.append(_ms(lambda: F._stored_admissibility(F.MAX_K, None, sha)))
            F.clear_cache()
            families.append(_ms(F.family))
    read = statistics.median(reads)
    print(json.dumps({"store_file": name, "store_bytes": size, "cold_ms": round(cold, 1),
                      "read_ms": round(read, 1), "family_from_store_ms": round(statistics.median(families), 1),
                      "read_over_cold": round(read / cold, 4)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
