"""The 13 mutations: configuration API, per-mutation divergence, distinguishability."""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from pathlib import Path

import pytest

from lambdapy import MUTATION_IDS, MUTATIONS, KernelConfig, Observation, diff, run_fresh
from lambdapy.probes import APPENDIX_E_PROBES, LIBRARY, SIGNATURE_PROBES

SOUND = KernelConfig()

# (mutation, observation of the singleton kernel on its signature probe)
EXPECTED = {
    "ID_01": Observation.accepted("p : P (Succ Zero)"),
    "ID_02": Observation.rejected("scope_error", "escaped bound variable #1"),
    "ID_03": Observation.accepted("h : forall (x : A) (y : A) . Eq A y x"),
    "ID_04": Observation.accepted("x : A"),
    "ID_05": Observation.rejected("eval_error", "cannot apply a non-function value (Zero)"),
    "ID_06": Observation.accepted("y : A"),
    "ID_07": Observation.accepted("Zero : Nat -> Nat"),
    "ID_08": Observation.accepted("_ : A"),
    "ID_09": Observation.accepted("x y : A"),
    "ID_10": Observation.accepted("v : Vec Nat y"),
    "ID_11": Observation.accepted("Zero : Nat"),
    "ID_12": Observation.accepted("Type : Type"),
    "ID_13": Observation.accepted("Type : Nat"),
}

SOUND_ON_SIGNATURE = {
    "ID_02": "\\a b -> a : Nat -> Nat -> Nat",
    "ID_04": "y : A",
    "ID_05": "f Zero : Nat",
    "ID_06": "x : A",
    "ID_12": "Type : Type1",
    "ID_13": "Zero : Nat",
}

TEST_PROBES: dict[str, str] = {
    **LIBRARY,
    **{f"signature_{m}": p for m, p in SIGNATURE_PROBES.items()},
    **{f"appendix_e_{i}": row[2] for i, row in enumerate(APPENDIX_E_PROBES)},
}

CONFIGS = {"sound": SOUND} | {m: KernelConfig.from_ids([m]) for m in MUTATION_IDS}


@pytest.fixture(scope="module")
def table() -> dict[str, dict[str, Observation]]:
    return {name: {p: run_fresh(cfg, src) for p, src in TEST_PROBES.items()} for name, cfg in CONFIGS.items()}


# --- configuration API -------------------------------------------------------------------


def test_catalogue_has_13_entries_in_order() -> None:
    assert list(MUTATIONS) == [f"ID_{i:02d}" for i in range(1, 14)]
    assert MUTATIONS["ID_09"].title == "Function application repeats self-feeding"
    assert MUTATIONS["ID_12"].label == "universe"
    flags = {f.name for f in dataclasses.fields(KernelConfig)}
    assert flags == {m.flag for m in MUTATIONS.values()}


def test_config_from_ids_and_back() -> None:
    config = KernelConfig.from_ids(["ID_06", "id_4", "13"])
    assert config.mutation_ids == ("ID_04", "ID_06", "ID_13")
    assert config.has("ID_04") and not config.has("ID_05")
    assert config == KernelConfig(bound_lookup_shift=True, lambda_env_reversed=True, argument_dropping=True)
    assert KernelConfig().mutation_ids == () and KernelConfig().is_sound
    assert str(config) == "{ID_04, ID_06, ID_13}"
    assert len({config, KernelConfig.from_ids(["ID_13", "ID_04", "ID_06"])}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.bound_lookup_shift = False  # type: ignore[misc]
    with pytest.raises(KeyError):
        KernelConfig.from_ids(["ID_14"])


def test_each_flag_is_read_at_exactly_one_hook_point() -> None:
    package = Path(__file__).resolve().parents[2] / "lambdapy"
    sources = {p.name: p.read_text() for p in package.glob("*.py") if p.name != "mutations.py"}
    for info in MUTATIONS.values():
        uses = [(name, n) for name, text in sources.items() if (n := len(re.findall(rf"\.{info.flag}\b", text)))]
        assert len(uses) == 1 and uses[0][1] == 1, (info.id, uses)


# --- one divergence per mutation ------------------------------------------------------------


@pytest.mark.parametrize("mutation", MUTATION_IDS)
def test_signature_probe_diverges_from_sound(mutation: str) -> None:
    probe = SIGNATURE_PROBES[mutation]
    mutated = run_fresh(KernelConfig.from_ids([mutation]), probe)
    sound = run_fresh(SOUND, probe)
    assert mutated == EXPECTED[mutation]
    assert mutated != sound
    assert diff(sound, mutated) != "identical"
    if mutation in SOUND_ON_SIGNATURE:
        assert sound.result == SOUND_ON_SIGNATURE[mutation]


def test_mutation_symptoms_match_the_catalogue() -> None:
    three = SIGNATURE_PROBES["ID_04"]  # \a b c -> b applied to x y z
    assert run_fresh(KernelConfig.from_ids(["ID_04"]), three).result == "x : A"  # drifts outwards
    assert run_fresh(KernelConfig.from_ids(["ID_06"]), three).result == "y : A"  # reversed env: middle stays
    assert run_fresh(KernelConfig.from_ids(["ID_08"]), three).result == "_ : A"  # padding value
    assert run_fresh(KernelConfig.from_ids(["ID_09"]), three).result == "x z : A"
    quoted = "eval ((\\a b -> a) : Nat -> Nat -> Nat)"
    assert run_fresh(KernelConfig.from_ids(["ID_06"]), quoted).result == "\\a b -> b : Nat -> Nat -> Nat"
    assert run_fresh(KernelConfig.from_ids(["ID_08"]), quoted).result == "\\a b -> _ : Nat -> Nat -> Nat"
    assert run_fresh(KernelConfig.from_ids(["ID_04"]), quoted).result == "\\a b -> a : Nat -> Nat -> Nat"
    # ID_11: applying an unknown name returns the argument
    assert run_fresh(KernelConfig.from_ids(["ID_11"]), "assume f : Nat -> Nat\neval f (Succ Zero)").result == (
        "Succ Zero : Nat"
    )
    # ID_05: an unknown name is Zero
    assert run_fresh(KernelConfig.from_ids(["ID_05"]), "assume n : Nat\neval n").result == "Zero : Nat"
    # ID_13: the result does not depend on the argument
    probe = "let k = (\\x -> Succ x) : Nat -> Nat\neval k Zero"
    assert run_fresh(KernelConfig.from_ids(["ID_13"]), probe).result == "Succ Type : Nat"


def test_id_02_only_affects_type_checking_of_nested_lambdas() -> None:
    cfg = KernelConfig.from_ids(["ID_02"])
    assert run_fresh(cfg, "eval ((\\a -> \\b -> b) : Nat -> Nat -> Nat) Zero (Succ Zero)").result == (
        "Succ Zero : Nat"
    )
    # the inner variable is given the outer one's type
    probe = "eval ((\\a -> \\b -> b) : Nat -> Type -> Type)"
    assert run_fresh(SOUND, probe).sigma == "accept"
    assert run_fresh(cfg, probe).epsilon == (
        "type_error",
        "type mismatch: expected Type, but `a` has type Nat",
    )


def test_equality_mutations_differ_in_scope() -> None:
    apps = SIGNATURE_PROBES["ID_01"]  # P Zero vs P (Succ Zero): same head, different argument
    heads = "assume P Q : Nat -> Type\nassume p : P Zero\neval p : Q Zero"  # different heads
    frees = SIGNATURE_PROBES["ID_10"]  # Vec Nat x vs Vec Nat y
    verdicts = {
        m: tuple(run_fresh(KernelConfig.from_ids([m]), p).sigma for p in (apps, heads, frees))
        for m in ("ID_01", "ID_03", "ID_07", "ID_10")
    }
    assert verdicts == {
        "ID_01": ("accept", "reject", "reject"),
        "ID_03": ("reject", "reject", "reject"),
        "ID_07": ("accept", "accept", "accept"),
        "ID_10": ("reject", "accept", "accept"),
    }


# --- distinguishability ------------------------------------------------------------------------


def test_14_by_14_distinguishability_table(table: dict[str, dict[str, Observation]]) -> None:
    names = list(CONFIGS)
    separating = {}
    for a, b in itertools.combinations(names, 2):
        separating[(a, b)] = [p for p in TEST_PROBES if table[a][p] != table[b][p]]
    undistinguished = [pair for pair, probes in separating.items() if not probes]
    assert undistinguished == []
    assert len(separating) == 14 * 13 // 2


def test_every_singleton_diverges_from_sound_on_its_own_signature(
    table: dict[str, dict[str, Observation]],
) -> None:
    for mutation in MUTATION_IDS:
        key = f"signature_{mutation}"
        assert table[mutation][key] != table["sound"][key]


def test_sound_kernel_has_no_internal_errors_on_the_test_set(table: dict[str, dict[str, Observation]]) -> None:
    for name, row in table.items():
        for probe, observation in row.items():
            assert observation.epsilon is None or observation.epsilon[0] != "internal_error", (name, probe)


# --- composition ---------------------------------------------------------------------------------


def test_composition_of_binding_mutations() -> None:
    probe = SIGNATURE_PROBES["ID_04"]  # (\a b c -> b) x y z
    # ID_06 makes the environment (x, y, z); ID_04 then reads index min(2, 2)
    assert run_fresh(KernelConfig.from_ids(["ID_04", "ID_06"]), probe).result == "z : A"
    # ID_08 makes it (z, _, y, _, x, _); ID_04 reads index 2
    assert run_fresh(KernelConfig.from_ids(["ID_04", "ID_08"]), probe).result == "y : A"


def test_id_05_wins_over_id_11() -> None:
    both = KernelConfig.from_ids(["ID_05", "ID_11"])
    assert run_fresh(both, "assume n : Nat\neval n").result == "Zero : Nat"


def test_random_compositions_never_crash() -> None:
    rng = random.Random(4)
    subsets = [rng.sample(MUTATION_IDS, rng.randint(2, 5)) for _ in range(25)]
    subsets.append(list(MUTATION_IDS))
    for subset in subsets:
        config = KernelConfig.from_ids(subset)
        for source in LIBRARY.values():
            observation = run_fresh(config, source)
            assert observation.sigma in ("accept", "reject")
            assert observation.epsilon is None or observation.epsilon[0] != "internal_error", (subset, source)
