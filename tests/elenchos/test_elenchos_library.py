"""The probe library: format, coverage of every mutation, balance, closure under a persistent state."""

from __future__ import annotations

import pytest

from elenchos.curated import TABLE6
from elenchos.family import SOUND, Family
from elenchos.library import CLASSES, LibraryError, check_names, class_counts, library, parse_file
from lambdapy import MUTATION_IDS, Kernel, KernelConfig


def test_library_loads_with_unique_names_and_descriptions() -> None:
    lib = library()
    assert len(lib) == len(set(lib.names)) >= 60
    assert all(p.description and p.source.split("\n")[-1].startswith("eval ") for p in lib.probes)
    assert {p.probe_class for p in lib.core} == set(CLASSES)
    assert len(lib.sha256) == 64


def test_library_is_ontology_balanced() -> None:
    counts = class_counts()
    assert min(counts.values()) >= 12 and max(counts.values()) - min(counts.values()) <= 6, counts


def test_every_mutation_has_at_least_three_diverging_probes(fam: Family) -> None:
    sound = fam.observations[SOUND]
    for m in MUTATION_IDS:
        diverging = [p.name for p, o, r in zip(fam.library.core, fam.observations[(m,)], sound, strict=False) if o != r]
        assert len(diverging) >= 3, (m, diverging)


def test_declared_targets_really_diverge(fam: Family) -> None:
    sound = fam.observations[SOUND]
    for j, probe in enumerate(fam.library.probes):
        for m in probe.targets:
            assert fam.observations[(m,)][j] != sound[j], (probe.name, m)
    for cls in CLASSES:  # every class file exercises its own class
        assert any(probe.targets for probe in fam.library.core if probe.probe_class == cls)


CLOSURE_CONFIGS = [SOUND, *((m,) for m in MUTATION_IDS), *(row.ids for row in TABLE6 if row.k >= 2)]


@pytest.mark.parametrize("config", CLOSURE_CONFIGS, ids=lambda c: "+".join(c) or "sound")
def test_probes_observe_the_same_in_a_session_as_on_a_fresh_kernel(fam: Family, config: tuple[str, ...]) -> None:
    """Library probes are closed: after every other probe has run (in order, then reversed) they observe the
    same as on a fresh kernel, so the agents' fresh-state tables hold inside a session."""
    fresh = fam.observations[config]
    kernel = Kernel(KernelConfig.from_ids(config))
    probes = fam.library.probes
    for j in [*range(len(probes)), *reversed(range(len(probes)))]:
        assert kernel.probe(probes[j].source) == fresh[j], (config, probes[j].name)


def test_parse_errors_name_the_file_and_line() -> None:
    good = "-- header\n-- @probe universe.x\n-- targets: ID_12\n-- what it does\neval Type\n"
    assert parse_file(good, "universe", "u.lp")[0].targets == ("ID_12",)
    bad = {
        "-- @probe universe.x\n-- targets: ID_12\neval Type\n": "no description",
        "-- @probe universe.x\n-- doc\nassume n : Nat\n": "must end with one eval",
        "-- @probe binding.x\n-- doc\neval Type\n": "must look like universe.",
        "-- @probe universe.x\n-- doc\nassume n : Nat\n-- late\neval n\n": "comment inside",
        "-- @probe universe.x\n-- targets: ID_99\n-- doc\neval Type\n": "unknown mutation",
        "-- @probe universe.x\n-- doc\n": "no statements",
    }
    for text, message in bad.items():
        with pytest.raises(LibraryError, match=message) as info:
            parse_file(text, "universe", "u.lp")
        assert "u.lp:" in str(info.value)


def test_names_bound_in_one_probe_must_not_be_declared_by_another() -> None:
    a = parse_file("-- @probe binding.a\n-- doc\nassume x : Nat\neval x\n", "binding", "b.lp")
    b = parse_file("-- @probe binding.b\n-- doc\neval ((\\x -> x) : Nat -> Nat) Zero\n", "binding", "b.lp")
    with pytest.raises(LibraryError, match="binds names the library declares: x"):
        check_names(a + b)
    check_names(b)  # a probe may bind any name nobody declares
