"""The configs the builder knows: config name -> (shape/Features, record generator, counts).

A config is registered as data (a ``ConfigSpec``). Its record generator is a pair of functions

    count(params: Mapping[str, Any], split: str) -> int
    records(params: Mapping[str, Any], split: str, start: int, stop: int) -> Iterator[dict]

where ``params`` holds the config fields listed in ``ConfigSpec.params`` (plus ``ConfigSpec.fixed``),
and ``records(p, s, a, b)`` yields exactly the records ``a .. b-1`` of the split in their release order
(so that any partition into ranges, in any number of processes, gives the same rows). Each record is a
dict whose keys are the shape's fields in the shape's order; the builder adds the ``sha256`` column.

``count``/``records`` may be given as ``"module:function"`` strings, resolved on first use: a config
whose module cannot be imported is *unavailable* and is skipped with ``ConfigSpec.unavailable()``'s
message (that is how the Elenchos configs stay registered before the ``elenchos`` package exists).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from builder.shape import Shape

CountFn = Callable[[Mapping[str, Any], str], int]
RecordsFn = Callable[[Mapping[str, Any], str, int, int], Iterator[dict]]


class ConfigUnavailable(RuntimeError):
    """The config's record generator cannot be loaded here (e.g. the ``elenchos`` package is missing)."""

    reason: str = ""


@dataclass(frozen=True)
class ConfigSpec:
    name: str
    benchmark: str  # "mira" | "elenchos"
    description: str
    shape: Shape  # the record's fields, in order (without sha256)
    count: CountFn | str
    records: RecordsFn | str
    params: tuple[str, ...]  # BenchConfig fields that change the rows (recorded in the manifest)
    fixed: Mapping[str, Any] = field(default_factory=dict)  # parameters fixed by the config itself
    splits: tuple[str, ...] = ("test",)
    chunk_rows: int = 64  # rows per generation chunk (the unit of parallelism; never changes the output)
    hint: str = ""  # what to do when unavailable
    normalize: Callable[[dict[str, Any]], dict[str, Any]] | None = None  # make defaults explicit (e.g. families)
    version: str = "generators:GENERATOR_VERSION"  # "module:ATTRIBUTE" of the benchmark's generator version
    default_export: bool = True  # False: an ablation, exported only when named (``--configs``)

    def generator_version(self) -> str | None:
        """The version of the code that generates this config's rows (None when it cannot be imported here)."""
        module_name, _, attr = self.version.partition(":")
        try:
            return str(getattr(importlib.import_module(module_name), attr))
        except (ImportError, AttributeError):
            return None

    def resolve(self, which: str) -> Callable:
        target = getattr(self, which)
        if callable(target):
            return target
        module_name, _, attr = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise self._message(f"cannot import {module_name} ({exc})") from None
        fn = getattr(module, attr, None)
        if not callable(fn):
            raise self._message(f"{module_name} has no function {attr}")
        return fn

    def unavailable(self) -> str | None:
        """None when the config can be generated here, else the reason (one line)."""
        try:
            self.resolve("count")
            self.resolve("records")
        except ConfigUnavailable as exc:
            return exc.reason
        return None

    def _message(self, why: str) -> ConfigUnavailable:
        reason = why + (f"; {self.hint}" if self.hint else "")
        exc = ConfigUnavailable(f"config {self.name} is unavailable: {reason}")
        exc.reason = reason
        return exc

    def params_of(self, config: Any) -> dict[str, Any]:
        """The generation parameters of a ``BenchConfig`` for this spec, JSON-able and in a fixed order."""
        out: dict[str, Any] = {}
        for name in self.params:
            value = getattr(config, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        out.update(self.fixed)
        return self.normalize(out) if self.normalize else out


REGISTRY: dict[str, ConfigSpec] = {}


def register(spec: ConfigSpec) -> ConfigSpec:
    if spec.name in REGISTRY and REGISTRY[spec.name] is not spec:
        raise ValueError(f"config {spec.name} is already registered")
    REGISTRY[spec.name] = spec
    return spec


# The paper split's four-shot config is named mira_few_shot on the Hub (the export's folder and card) and the command
# lines also accept the name the docs use, mira_four_shot; the hard tier's are named mira_hard / mira_hard_four_shot,
# as its docs say, and the other spellings are accepted too.
CONFIG_ALIASES = {"mira_four_shot": "mira_few_shot", "mira_four_shot_notice": "mira_few_shot_notice",
                  "mira_hard_few_shot": "mira_hard_four_shot", "mira_hard_zero_shot": "mira_hard"}


def canonical_config(name: str) -> str:
    """The registered name of ``name`` (``mira_four_shot`` is ``mira_few_shot``); others unchanged."""
    return CONFIG_ALIASES.get(name, name)


def get_spec(name: str) -> ConfigSpec:
    _load_builtin()
    try:
        return REGISTRY[canonical_config(name)]
    except KeyError:
        raise KeyError(f"unknown config {name!r}; known: {', '.join(REGISTRY)}") from None


def all_specs() -> list[ConfigSpec]:
    _load_builtin()
    return list(REGISTRY.values())


BUILTIN_MODULES = ("builder.mira_configs", "builder.elenchos_configs")


def _load_builtin() -> None:
    # Importing the modules registers their configs, in this order (the order of the card and the export).
    for module in BUILTIN_MODULES:
        importlib.import_module(module)
