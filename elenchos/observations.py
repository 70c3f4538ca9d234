"""Observations: every configuration on every probe, each probe on a fresh kernel (paper Appendix B.3).

Configurations are sorted tuples of mutation ids (``Config``; ``SOUND = ()`` is the sound kernel). ``observe``
runs the probes, in worker processes when there are many (the result does not depend on ``jobs``). The
family built on these tables is ``elenchos.family``.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor

from tqdm import tqdm

from elenchos.library import CLASSES, Probe
from lambdapy import MUTATION_IDS, MUTATIONS, Kernel, KernelConfig, Observation
from lambdapy.lifeline import watch_parent

Config = tuple[str, ...]  # sorted mutation ids; () is the sound kernel
SOUND: Config = ()
MAX_K = 3


def config_of(ids: Iterable[str]) -> Config:
    return tuple(sorted(set(ids)))


def classes_of(ids: Iterable[str]) -> list[str]:
    """The Table 6 labels of the members, without repetition, in ``CLASSES`` order."""
    labels = {MUTATIONS[m].label for m in ids}
    return [c for c in CLASSES if c in labels]


def set_id(ids: Sequence[str]) -> str:
    return "cfg-" + ("+".join(ids) if ids else "null")


def _observe_chunk(args: tuple[list[Config], list[str]]) -> list[tuple[Observation, ...]]:
    configs, sources = args
    out = []
    for config in configs:
        kc = KernelConfig.from_ids(config)
        out.append(tuple(Kernel(kc).probe(src) for src in sources))
    return out


def default_jobs() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def observe(configs: Sequence[Config], probes: Sequence[Probe], jobs: int | None = None
            ) -> dict[Config, tuple[Observation, ...]]:
    """``{config: (observation per probe)}``, each probe on a fresh kernel. ``jobs > 1`` uses processes
    (the result does not depend on it)."""
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if multiprocessing.current_process().daemon:  # e.g. a datasets worker: it may not start processes
        jobs = 1
    sources = [p.source for p in probes]
    configs = list(configs)
    if jobs == 1 or len(configs) * len(sources) < 2000:
        rows = _observe_chunk((configs, sources))
    else:
        size = max(1, -(-len(configs) // (jobs * 4)))
        chunks = [(configs[i:i + size], sources) for i in range(0, len(configs), size)]
        # a bar on a terminal only (tqdm's disable=None): computing F_<=3 takes seconds
        with worker_pool(jobs) as pool, tqdm(total=len(configs), unit="config", desc="observing kernels",
                                             disable=None, file=sys.stderr, mininterval=0.5, leave=False) as bar:
            futures = [pool.submit(_observe_chunk, chunk) for chunk in chunks]
            for future, size in zip(futures, [len(chunk[0]) for chunk in chunks], strict=True):
                future.add_done_callback(lambda _f, n=size: bar.update(n))
            rows = [row for future in futures for row in future.result()]
    return dict(zip(configs, rows, strict=True))


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """A process pool whose workers exit when this process dies (a killed run leaves no orphans)."""
    return ProcessPoolExecutor(max_workers=jobs, initializer=watch_parent, initargs=(os.getpid(),))


def candidates(max_k: int = MAX_K) -> list[Config]:
    """Every subset of the ontology with at most ``max_k`` members, by size, then lexicographically."""
    return [c for k in range(max_k + 1) for c in itertools.combinations(MUTATION_IDS, k)]
