"""The records of the three Hugging Face configs (the hook module named in ``builder/elenchos_configs.py``).

* ``elenchos_configurations``: every admissible set of F_1..F_3 (k >= 1), in family order, with its
  interaction (``single`` / ``additive`` / ``interacting``), classes, Table 6 membership and
  ``divergence``: the library probes on which K_S differs from K_ref with K_S's observation (the evidence
  for admissibility), the interacting sub-types, and what Pi_RSA shows of the set (the builder's shape has
  no sub-type column, so the sub-types travel in this JSON field).
* ``elenchos_ladder`` / ``elenchos_benchmark``: the session records of ``elenchos.sessions`` (their fields
  are the builder's ``SESSION_SHAPE``).

``params`` is ``{"seed", "repetitions"}`` (``{"seed"}`` for the configurations, which do not depend on it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from elenchos import ELENCHOS_VERSION
from elenchos.curated import curated, in_benchmark, in_ladder
from elenchos.family import Candidate, classes_of, family, set_id
from elenchos.sessions import DEFAULT_REPETITIONS, DEFAULT_SEED, count, sessions

CONFIG_VERSION = f"elenchos-family/{ELENCHOS_VERSION}"


def _admissible() -> list[Candidate]:
    return [c for c in family().candidates if c.admissible and c.k >= 1]


def configurations_count(params: Mapping[str, Any], split: str) -> int:
    return len(_admissible())


def configurations_records(params: Mapping[str, Any], split: str, start: int, stop: int) -> Iterator[dict]:
    fam = family()
    for cand in _admissible()[start:stop]:
        row = curated(cand.ids)
        inter = cand.interaction
        yield {
            "id": set_id(cand.ids),
            "k": cand.k,
            "mutations": list(cand.ids),
            "interaction": cand.kind,
            "classes": classes_of(cand.ids),
            "in_ladder": bool(row and in_ladder(row)),
            "in_benchmark": bool(row and in_benchmark(row)),
            "divergence": {"library_sha256": fam.library.sha256, "probes": len(fam.library),
                           "pi_rsa": fam.pi_choice,
                           "subtypes": list(inter.subtypes) if inter and cand.kind == "interacting" else [],
                           "interaction_sra": cand.kind_sra,
                           "subtypes_sra": list(inter.subtypes) if inter else [],
                           "diverging": fam.diverging(cand.ids),
                           "seen_on_pi_rsa": inter.seen if inter else list(cand.ids),
                           "explanations": inter.explanations if inter else [list(cand.ids)]},
            "generator_version": CONFIG_VERSION,
        }


def _suite_params(params: Mapping[str, Any]) -> tuple[int, int]:
    return int(params.get("seed", DEFAULT_SEED)), int(params.get("repetitions", DEFAULT_REPETITIONS))


def ladder_count(params: Mapping[str, Any], split: str) -> int:
    return count("ladder", _suite_params(params)[1])


def ladder_records(params: Mapping[str, Any], split: str, start: int, stop: int) -> Iterator[dict]:
    seed, repetitions = _suite_params(params)
    yield from sessions("ladder", seed, repetitions, start=start, stop=stop)


def benchmark_count(params: Mapping[str, Any], split: str) -> int:
    return count("benchmark", _suite_params(params)[1])


def benchmark_records(params: Mapping[str, Any], split: str, start: int, stop: int) -> Iterator[dict]:
    seed, repetitions = _suite_params(params)
    yield from sessions("benchmark", seed, repetitions, start=start, stop=stop)
