"""Session records: the audit sessions of the Difficulty Ladder and the wide-panel Benchmark (data).

A session is (mutation set, corrupted kernel, prompt level, probe budget, repetition, seed):

* **Ladder** (paper Section 5.1): the 23 Ladder sets of Table 6 x prompt Levels 0, 1, 2 x ``repetitions``
  (5 in the paper) = 345 sessions; exactly one kernel is corrupted; ``P_max = 50``.
* **Benchmark** (Section 5.2): the 14 Benchmark sets (null, 6 singletons, 3 additive pairs, 3 additive
  triplets, 1 interacting pair) at Level 3 x ``repetitions`` = 70 sessions; ``neither`` for the null set;
  ``P_max = 65``.

Each session's seed is derived from the dataset seed and the session's identity (suite, level, set,
repetition) with SHA-256, so it does not depend on the order or the number of other sessions; the
corrupted kernel (``A`` or ``B``) is drawn from it. ``interaction`` follows the paper's additivity formula on
the family's Pi_RSA (``metadata.pi_rsa``, default ``level0``); ``metadata.interaction_sra`` gives the stricter
SRA-recoverable classification. Records follow ``schemas/elenchos_session.schema.json``
(the builder's ``SESSION_SHAPE``) and are validated when generated.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

from elenchos import ELENCHOS_VERSION
from elenchos.curated import CuratedSet, benchmark_sets, ladder_sets
from elenchos.defaults import DEFAULT_REPETITIONS, DEFAULT_SEED, SUITES
from elenchos.family import Family, classes_of, family, set_id

LADDER_LEVELS = (0, 1, 2)
BENCHMARK_LEVEL = 3
BUDGETS = {"ladder": 50, "benchmark": 65}
PREFIX = {"ladder": "lad", "benchmark": "ben"}
GENERATOR_VERSION = f"elenchos-sessions/{ELENCHOS_VERSION}"

# Prompt variants of paper Appendix D (k = 2 variants of Levels 0 and 1 are the "double" prompts).
PROMPTS = {(0, 1): "ladder_single_split_probe", (0, 2): "ladder_double_split_probe",
           (1, 1): "ladder_single_split", (1, 2): "ladder_double_split", 2: "ladder_mix", 3: "stress_test"}


def prompt_id(level: int, k: int) -> str:
    return PROMPTS[(level, k)] if level in (0, 1) else PROMPTS[level]


def k_told(level: int, k: int) -> list[int]:
    """The cardinalities the prompt of ``level`` allows (exact k at Levels 0-1)."""
    return [k] if level in (0, 1) else ([1, 2] if level == 2 else [0, 1, 2, 3])


def session_seed(dataset_seed: int, suite: str, level: int, ids: tuple[str, ...], repetition: int) -> int:
    text = f"elenchos|{dataset_seed}|{suite}|{level}|{set_id(ids)}|{repetition}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1  # a non-negative int64


def _plan(suite: str) -> list[tuple[int, CuratedSet]]:
    if suite == "ladder":
        return [(level, row) for level in LADDER_LEVELS for row in ladder_sets()]
    if suite == "benchmark":
        return [(BENCHMARK_LEVEL, row) for row in benchmark_sets()]
    raise ValueError(f"unknown suite {suite!r}; known: {', '.join(SUITES)}")


def count(suite: str, repetitions: int = DEFAULT_REPETITIONS) -> int:
    return len(_plan(suite)) * repetitions


def sessions(suite: str, seed: int = DEFAULT_SEED, repetitions: int = DEFAULT_REPETITIONS,
             fam: Family | None = None, start: int = 0, stop: int | None = None) -> Iterator[dict[str, Any]]:
    """The records ``start .. stop-1`` of a suite, in release order (level, Table 6 order, repetition)."""
    if repetitions < 1:
        raise ValueError("repetitions must be at least 1")
    fam = fam or family()
    plan = _plan(suite)
    total = len(plan) * repetitions
    stop = total if stop is None else min(stop, total)
    sizes = {f"k{k}": len(fam.admissible(k)) for k in range(1, fam.max_k + 1)}
    for index in range(start, stop):
        level, row = plan[index // repetitions]
        repetition = index % repetitions
        yield session_record(suite, index, level, row, repetition, seed, fam, sizes)


def session_record(suite: str, index: int, level: int, row: CuratedSet, repetition: int, seed: int,
                   fam: Family, sizes: dict[str, int]) -> dict[str, Any]:
    k = row.k
    sseed = session_seed(seed, suite, level, row.ids, repetition)
    label = "neither" if k == 0 else random.Random(sseed).choice(("A", "B"))
    cand = fam.get(row.ids)
    interaction = cand.kind if cand.admissible else f"not_admissible:{cand.reason}"
    return {
        "id": f"{PREFIX[suite]}-{index:06d}",
        "level": level,
        "prompt": prompt_id(level, k),
        "k": k,
        "mutations": list(row.ids),
        "interaction": interaction,
        "classes": classes_of(row.ids),
        "corrupted_kernel": label,
        "repetition": repetition,
        "seed": sseed,
        "probe_budget": BUDGETS[suite],
        "metadata": {
            "suite": suite,
            "set_id": set_id(row.ids),
            "k_told": k_told(level, k),
            "allow_neither": level == BENCHMARK_LEVEL,
            "paper_order": row.order,
            "paper_interaction": row.paper_interaction,
            "subtype": cand.subtype,
            "interaction_sra": cand.kind_sra if cand.admissible else f"not_admissible:{cand.reason}",
            "subtype_sra": cand.subtype_sra,
            "pi_rsa": fam.pi_choice,
            "admissible_sets": sizes,
            "dataset_seed": seed,
            "probe_library_sha256": fam.library.sha256,
        },
        "generator_version": GENERATOR_VERSION,
    }


def suite_of(record: dict[str, Any]) -> str:
    return record.get("metadata", {}).get("suite") or ("benchmark" if record["level"] == BENCHMARK_LEVEL else "ladder")
