"""The Elenchos configs, registered now and generated once the ``elenchos`` package provides the records.

THE ONE PLACE that defines what the Elenchos record generators must produce. To wire them, the
``elenchos`` package provides a module ``elenchos.hf_records`` with, for each config below,

    def <kind>_count(params: Mapping[str, Any], split: str) -> int
    def <kind>_records(params: Mapping[str, Any], split: str, start: int, stop: int) -> Iterator[dict]

with ``<kind>`` in ``configurations``, ``ladder``, ``benchmark``. ``params`` is
``{"seed": int, "repetitions": int}`` (``configurations`` gets ``{"seed": int}``); ``records`` yields the
records ``start .. stop-1`` of the split in release order, each a dict with exactly the keys of the
shape below, in that order (the builder refuses anything else, naming the field, and adds ``sha256``).
Point ``HOOK_MODULE`` / the function names elsewhere if the elenchos engineer chooses other names; when
the Elenchos schemas settle, edit the three shapes here (``JSON`` for variable-shaped values); nothing else
in ``builder/`` changes. Until then the three configs are skipped with the message of ``unavailable()``.
"""

from __future__ import annotations

from typing import Any

from builder.registry import ConfigSpec, register
from builder.shape import JSON

HOOK_MODULE = "elenchos.hf_records"
VERSION = "elenchos:ELENCHOS_VERSION"  # the Elenchos generator version (not MIRA's GENERATOR_VERSION)
HINT = f"the Elenchos configs need the elenchos package with {HOOK_MODULE} (see builder/elenchos_configs.py)"

# One admissible mutation configuration S in F_1..F_3 (paper Appendix B.3-B.5; Table 6 for the curated sets).
CONFIGURATION_SHAPE: dict[str, Any] = {
    "id": "string",  # stable id, e.g. "cfg-ID_04+ID_06"
    "k": "int32",  # |S|
    "mutations": ["string"],  # sorted mutation ids, e.g. ["ID_04", "ID_06"]
    "interaction": "string",  # "single" (k = 1) | "additive" (k+) | "interacting" (k^x)
    "classes": ["string"],  # mutation classes, e.g. ["binding"], ["def_equality", "application"]
    "in_ladder": "bool",  # curated set used by the Difficulty Ladder
    "in_benchmark": "bool",  # curated set used by the wide-panel Benchmark
    "divergence": JSON,  # div(S) over the probe library: the evidence that S is admissible
    "generator_version": "string",
}

# One audit session of the Difficulty Ladder (Levels 0-2, exactly one corrupted kernel, P_max = 50).
SESSION_SHAPE: dict[str, Any] = {
    "id": "string",  # e.g. "lad-000000" / "ben-000000"
    "level": "int32",  # prompt level 0, 1, 2 (Ladder) or 3 (Benchmark)
    "prompt": "string",  # prompt variant, e.g. "ladder_single_split_probe", "ladder_mix"
    "k": "int32",  # number of active mutations (0 only in the Benchmark)
    "mutations": ["string"],  # the ground-truth mutation set (sorted ids; [] for the null case)
    "interaction": "string",  # "none" (k = 0) | "single" | "additive" | "interacting"
    "classes": ["string"],
    "corrupted_kernel": "string",  # "A" | "B" | "neither" (Benchmark only)
    "repetition": "int32",  # 0 .. repetitions-1
    "seed": "int64",  # the session's seed (which kernel is corrupted, any sampling)
    "probe_budget": "int32",  # P_max: 50 (Ladder) or 65 (Benchmark)
    "metadata": JSON,  # anything else the harness needs (probe library version, prompt hash, ...)
    "generator_version": "string",
}

register(
    ConfigSpec(
        name="elenchos_configurations",
        benchmark="elenchos",
        description="The valid configuration family F_1..F_3: admissible mutation sets with their classes.",
        shape=CONFIGURATION_SHAPE,
        count=f"{HOOK_MODULE}:configurations_count",
        records=f"{HOOK_MODULE}:configurations_records",
        params=("seed",),
        hint=HINT,
        version=VERSION,
    )
)
register(
    ConfigSpec(
        name="elenchos_ladder",
        benchmark="elenchos",
        description="Difficulty Ladder audit sessions (Levels 0-2, k in {1, 2}, P_max = 50).",
        shape=SESSION_SHAPE,
        count=f"{HOOK_MODULE}:ladder_count",
        records=f"{HOOK_MODULE}:ladder_records",
        params=("seed", "repetitions"),
        hint=HINT,
        version=VERSION,
    )
)
register(
    ConfigSpec(
        name="elenchos_benchmark",
        benchmark="elenchos",
        description="Wide-panel Benchmark audit sessions (Level 3, k in {0, 1, 2, 3}, P_max = 65).",
        shape=SESSION_SHAPE,
        count=f"{HOOK_MODULE}:benchmark_count",
        records=f"{HOOK_MODULE}:benchmark_records",
        params=("seed", "repetitions"),
        hint=HINT,
        version=VERSION,
    )
)
