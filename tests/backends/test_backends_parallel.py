"""Data parallelism: the batch is split over worker processes and put back together in order."""

from __future__ import annotations

from harness.backends.base import ChatRequest, Decoding
from harness.backends.parallel import DataParallelEngine, shards
from tests.backends.fakes import FakeEngine


def test_shards_are_contiguous_and_balanced() -> None:
    assert [list(r) for r in shards(7, 3)] == [[0, 1, 2], [3, 4], [5, 6]]
    assert [len(r) for r in shards(2, 4)] == [1, 1, 0, 0]


def test_two_workers_give_the_single_engine_results_in_order() -> None:
    requests = [ChatRequest([{"role": "system", "content": "You are agent A."},
                             {"role": "user", "content": f"Unknowns: x{i}, y\nq {i}"}]) for i in range(9)]
    single = FakeEngine("m").generate(requests, Decoding())
    engine = DataParallelEngine("fake", "m", "tests.backends.fakes:make_fake_engine", {}, size=2,
                                devices_per_worker=1, devices=["0", "1"])
    try:
        assert engine.describe()["data_parallel_size"] == 2 and engine.supports_schema
        parallel = engine.generate(requests, Decoding())
        assert [c.text for c in parallel] == [c.text for c in single]
        assert engine.generate(requests[:1], Decoding())[0].text == single[0].text  # one shard idle
        assert engine.stats.calls == 2 and engine.stats.requests == 10
    finally:
        engine.close()
