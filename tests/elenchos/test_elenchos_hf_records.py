"""The builder hook module: counts, record shapes (the builder's exact field order), determinism."""

from __future__ import annotations

from builder.elenchos_configs import CONFIGURATION_SHAPE, SESSION_SHAPE
from builder.shape import decode, encode
from elenchos import hf_records as hf
from generators.jsonl import dumps


def test_counts_and_shapes(fam) -> None:
    params = {"seed": 1234, "repetitions": 5}
    assert hf.ladder_count(params, "test") == 345 and hf.benchmark_count(params, "test") == 70
    n = hf.configurations_count({"seed": 1234}, "test")
    assert n == sum(len(fam.admissible(k)) for k in (1, 2, 3))
    configs = list(hf.configurations_records({"seed": 1234}, "test", 0, n))
    assert len(configs) == n and {c["interaction"] for c in configs} == {"single", "additive", "interacting"}
    for record in configs[:20] + configs[-5:]:
        assert dumps(decode(CONFIGURATION_SHAPE, encode(CONFIGURATION_SHAPE, record))) == dumps(record)
    for kind in ("ladder", "benchmark"):
        records = list(getattr(hf, f"{kind}_records")(params, "test", 0, 12))
        for record in records:
            assert dumps(decode(SESSION_SHAPE, encode(SESSION_SHAPE, record))) == dumps(record)


def test_ranges_partition_the_split(fam) -> None:
    params = {"seed": 7, "repetitions": 2}
    whole = list(hf.ladder_records(params, "test", 0, hf.ladder_count(params, "test")))
    parts = [r for a in range(0, len(whole), 17) for r in hf.ladder_records(params, "test", a, min(a + 17, len(whole)))]
    assert parts == whole and len({r["id"] for r in whole}) == len(whole) == 138
