"""The ``datasets`` builder for MIRA-Math and Elenchos (used from our package; ``datasets`` 5.x runs no scripts).

    from builder import MiraElenchos
    b = MiraElenchos(config_name="mira_zero_shot", cache_dir="cache", seed=99, n_a=100, n_b=100)
    b.download_and_prepare(num_proc=4)          # parallel shards; the rows are the same as num_proc=1
    ds = b.as_dataset(split="test")

One builder class; its configs are data (``builder.registry``). Config fields: ``seed``, ``n_a``,
``n_b``, ``difficulties``, ``families`` (MIRA-Math) and ``repetitions`` (Elenchos sessions). The split
sizes are declared in ``_info``, so ``datasets`` checks the generated counts; every row carries the
``sha256`` of its record's canonical JSON line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar

import datasets
from datasets import DatasetInfo, SplitDict, SplitGenerator, SplitInfo, Value, Version

from builder.registry import ConfigSpec, all_specs, get_spec
from builder.shape import encode, features
from generators import GENERATOR_VERSION
from generators.jsonl import dumps

DATASET_NAME = "mira_elenchos"
LICENSE = "cc-by-4.0"
# The project's code repository: the one place that names it (the card, the manifest and ``DatasetInfo`` use
# it; ``python -m builder export --code-repo URL`` or ``MIRA_ELENCHOS_CODE_REPO`` overrides it for a fork).
CODE_REPOSITORY = "https://github.com/mira-elenchos/mira-elenchos"
HOMEPAGE = CODE_REPOSITORY
PAPERS = {
    "MIRA-Math": "https://arxiv.org/abs/2607.07391",
    "Elenchos": "https://arxiv.org/abs/2607.12733",
}
CITATION = """\
@article{albateh2026miramath,
  title   = {{MIRA-Math}: A Benchmark for Minimal Information Requesting and Mathematical Reasoning},
  author  = {Al Bateh, Charbel and Saab Jr., Samer},
  journal = {arXiv preprint arXiv:2607.07391},
  year    = {2026}
}
@article{mahler2026elenchos,
  title   = {{LLMs} Can See the Smoke but not the Fire: Evaluating Abductive Reasoning with {Elenchos}},
  author  = {Mahler, Lucas and Lohmann, Gabriele},
  journal = {arXiv preprint arXiv:2607.12733},
  year    = {2026}
}
"""


@dataclass
class BenchConfig(datasets.BuilderConfig):
    """A registered config plus the generation parameters users may change."""

    seed: int = 1234
    n_a: int = 20  # MIRA-Math: instances per Type-A family and difficulty
    n_b: int = 50  # MIRA-Math: instances per Type-B family and difficulty
    difficulties: tuple[int, ...] = (1, 2, 3)
    families: tuple[str, ...] | None = None  # MIRA-Math: None = every registered family
    n_hard: int = 10  # MIRA-Math hard tier: instances per family, difficulty (4, 5) and k (1, 2)
    repetitions: int = 5  # Elenchos: sessions per (level, mutation set)

    def __post_init__(self):
        super().__post_init__()
        self.difficulties = tuple(self.difficulties)
        if self.families is not None:
            self.families = tuple(self.families)


def row_features(spec: ConfigSpec) -> datasets.Features:
    feats = features(spec.shape)
    feats["sha256"] = Value("string")
    return feats


def record_sha256(record: dict[str, Any]) -> str:
    """sha256 of the record's canonical JSON line (``generators.jsonl.dumps``, UTF-8, no newline)."""
    return hashlib.sha256(dumps(record).encode("utf-8")).hexdigest()


def record_to_row(spec: ConfigSpec, record: dict[str, Any]) -> dict[str, Any]:
    row = encode(spec.shape, record)
    row["sha256"] = record_sha256(record)
    return row


def config_version(spec: ConfigSpec) -> Version:
    """The config's own benchmark generator version (MIRA or Elenchos), so the ``datasets`` cache is keyed by it.

    ``datasets`` takes x.y.z only: a version with a local part (the hard tier's ``2.0.0+hard.1``) is keyed by its
    x.y.z and keeps the whole version as the description (the export's manifest records the whole version)."""
    version = spec.generator_version() or "0.0.0"
    base, plus, _ = version.partition("+")
    return Version(base, description=version) if plus else Version(version)


class MiraElenchos(datasets.GeneratorBasedBuilder):
    BUILDER_CONFIG_CLASS = BenchConfig
    VERSION = Version(GENERATOR_VERSION)
    BUILDER_CONFIGS: ClassVar[list[BenchConfig]] = [
        BenchConfig(name=spec.name, version=config_version(spec), description=spec.description)
        for spec in all_specs()
    ]
    DEFAULT_CONFIG_NAME = "mira_zero_shot"

    @property
    def spec(self) -> ConfigSpec:
        return get_spec(self.config.name)

    @property
    def params(self) -> dict[str, Any]:
        return self.spec.params_of(self.config)

    def _info(self) -> DatasetInfo:
        spec = self.spec
        count = spec.resolve("count")  # ConfigUnavailable (with the reason) when it cannot be generated here
        params = self.params
        splits = SplitDict({s: SplitInfo(s, num_examples=count(params, s)) for s in spec.splits})
        return DatasetInfo(
            description=spec.description,
            features=row_features(spec),
            license=LICENSE,
            homepage=HOMEPAGE,
            citation=CITATION,
            splits=splits,
        )

    def _split_generators(self, dl_manager) -> list[SplitGenerator]:
        spec, params = self.spec, self.params
        out = []
        for split in spec.splits:
            n = self.info.splits[split].num_examples
            step = spec.chunk_rows
            # A list of ranges: ``datasets`` hands contiguous runs of it to the num_proc workers, in order.
            chunks = [(a, min(a + step, n)) for a in range(0, n, step)] or [(0, 0)]
            out.append(SplitGenerator(name=split, gen_kwargs={"split": split, "params": params, "chunks": chunks}))
        return out

    def _generate_examples(self, split: str, params: dict[str, Any], chunks: list[tuple[int, int]]):
        spec = self.spec
        records = spec.resolve("records")
        for start, stop in chunks:
            i = start
            for record in records(params, split, start, stop):
                if i >= stop:
                    raise RuntimeError(f"{spec.name}: records({start}, {stop}) yielded more than {stop - start} rows")
                yield i, record_to_row(spec, record)
                i += 1
            if i != stop:
                got, want = i - start, stop - start
                raise RuntimeError(f"{spec.name}: records({start}, {stop}) yielded {got} rows, not {want}")


def make_builder(config_name: str, cache_dir: str | None = None, **params: Any) -> MiraElenchos:
    """The builder for one config with generation parameters (``seed``, ``n_a``, ...) overriding the defaults."""
    params = {k: v for k, v in params.items() if v is not None}
    return MiraElenchos(config_name=config_name, cache_dir=cache_dir, **params)
