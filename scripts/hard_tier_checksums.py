"""Regenerate the hard tier's published files and write their sha256 into data/CHECKSUMS (``make hard-checksums``).

The two files are exactly what these commands write (seed 1234, 10 instances per family, difficulty and k):

    python -m generators mira --tier hard --out mira_hard.jsonl
    python -m generators mira --tier hard --four-shot --out mira_hard_four_shot.jsonl

Their lines in data/CHECKSUMS are replaced (or added); the default split's lines are kept as they are. Run it when
``HARD_TIER_VERSION`` changes, and update ``PUBLISHED_HARD_VERSION`` in tests/mira/test_hard_tier_checksums.py.
Usage: python scripts/hard_tier_checksums.py [--check]   (--check: compare only, exit 1 on a difference)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from generators import HARD_TIER_VERSION
from generators.jsonl import write_jsonl
from generators.safefs import atomic_write
from generators.split import HARD_PER_BLOCK, generate, hard_slots

ROOT = Path(__file__).resolve().parents[1]
CHECKSUMS = ROOT / "data" / "CHECKSUMS"
SEED = 1234
PER_BLOCK = HARD_PER_BLOCK  # as `python -m generators mira --tier hard` writes it
FILES = {"mira_hard.jsonl": False, "mira_hard_four_shot.jsonl": True}  # name -> four-shot


def hard_tier_digests() -> dict[str, str]:
    """sha256 of each hard-tier file, generated now into a scratch folder."""
    with tempfile.TemporaryDirectory(prefix="mira-hard-") as scratch:
        return {name: write_jsonl(Path(scratch) / name, generate(list(hard_slots(PER_BLOCK)), SEED, few_shot=few))
                for name, few in FILES.items()}


def with_entries(text: str, digests: dict[str, str]) -> str:
    """CHECKSUMS text with the hard tier's lines replaced or appended, every other line kept in place."""
    kept = [line for line in text.splitlines() if line and line.split()[-1] not in digests]
    return "\n".join([*kept, *(f"{digest}  {name}" for name, digest in digests.items())]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with data/CHECKSUMS; write nothing")
    args = parser.parse_args(argv)
    digests = hard_tier_digests()
    current = CHECKSUMS.read_text()
    updated = with_entries(current, digests)
    for name, digest in digests.items():
        print(f"{digest}  {name}  (hard tier {HARD_TIER_VERSION}, seed {SEED}, {PER_BLOCK} per block)")
    if args.check:
        if updated != current:
            print(f"{CHECKSUMS}: the hard tier's entries differ (run make hard-checksums)", file=sys.stderr)
            return 1
        return 0
    if updated != current:
        atomic_write(CHECKSUMS, updated)
        print(f"updated {CHECKSUMS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
