"""The hard tier's published files (data/CHECKSUMS) regenerate byte-identically (scripts/hard_tier_checksums.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from generators import HARD_TIER_VERSION

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED_HARD_VERSION = "2.0.0+hard.1"


def _script():
    spec = importlib.util.spec_from_file_location("hard_tier_checksums", ROOT / "scripts" / "hard_tier_checksums.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def published() -> dict[str, str]:
    lines = (ROOT / "data" / "CHECKSUMS").read_text().splitlines()
    return {name: digest for digest, name in (line.split() for line in lines if line)}


def test_the_hard_tier_matches_its_published_checksums() -> None:
    script = _script()
    entries = {name: published().get(name) for name in script.FILES}
    assert None not in entries.values(), "data/CHECKSUMS lacks a hard-tier entry: run make hard-checksums"
    assert HARD_TIER_VERSION == PUBLISHED_HARD_VERSION, "run make hard-checksums and update PUBLISHED_HARD_VERSION"
    assert script.hard_tier_digests() == entries, "hard-tier bytes changed: bump HARD_TIER_VERSION, make hard-checksums"


def test_new_entries_replace_only_the_hard_tiers_lines() -> None:
    script = _script()
    text = "aa  mira_zero_shot.jsonl\nbb  mira_hard.jsonl\ncc  mira_four_shot.jsonl\n"
    digests = {"mira_hard.jsonl": "11", "mira_hard_four_shot.jsonl": "22"}
    assert script.with_entries(text, digests) == (
        "aa  mira_zero_shot.jsonl\ncc  mira_four_shot.jsonl\n11  mira_hard.jsonl\n22  mira_hard_four_shot.jsonl\n")
    assert script.with_entries(script.with_entries(text, digests), digests) == script.with_entries(text, digests)
