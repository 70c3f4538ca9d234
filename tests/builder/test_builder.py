import dataclasses
import sys
import types

import datasets
import pytest

from builder.mira_elenchos import BenchConfig, MiraElenchos, make_builder, record_sha256
from builder.registry import REGISTRY, ConfigUnavailable, all_specs, get_spec
from builder.rows import row_to_record
from generators.families import FAMILIES
from generators.jsonl import dumps
from generators.split import generate, typed_slots
from tests.builder.conftest import SMALL

datasets.disable_progress_bars()


def build(tmp_path, name, num_proc=None, **params):
    b = make_builder(name, cache_dir=str(tmp_path / f"cache-{name}-{num_proc}"), **{**SMALL, **params})
    b.download_and_prepare(num_proc=num_proc)
    return b, b.as_dataset(split="test")


def test_configs_are_registered_as_data():
    names = [c.name for c in MiraElenchos.BUILDER_CONFIGS]
    assert names[:2] == ["mira_zero_shot", "mira_few_shot"]
    assert {"elenchos_configurations", "elenchos_ladder", "elenchos_benchmark"} <= set(names)
    assert names == [s.name for s in all_specs()]
    assert MiraElenchos.DEFAULT_CONFIG_NAME == "mira_zero_shot"


def test_config_fields_set_seed_and_counts(tmp_path):
    b = make_builder("mira_zero_shot", cache_dir=str(tmp_path), seed=99, n_a=3, n_b=1, difficulties=(2,))
    assert isinstance(b.config, BenchConfig) and b.config.seed == 99
    assert b.info.splits["test"].num_examples == len(typed_slots(3, 1, (2,)))
    assert b.params["seed"] == 99 and b.params["few_shot"] is False
    assert b.params["families"] == list(FAMILIES)  # the default is recorded as the explicit list


@pytest.mark.parametrize("name,few_shot", [("mira_zero_shot", False), ("mira_few_shot", True)])
def test_rows_are_the_generator_instances(tmp_path, name, few_shot):
    _, ds = build(tmp_path, name)
    slots = typed_slots(SMALL["n_a"], SMALL["n_b"], SMALL["difficulties"])
    expected = list(generate(slots, SMALL["seed"], few_shot=few_shot))
    assert ds.num_rows == len(expected)
    for row, inst in zip(ds, expected, strict=True):
        assert dumps(row_to_record(name, row)) == dumps(inst)
        assert row["sha256"] == record_sha256(inst)
    assert set(ds.unique("type")) <= {"A", "B"}
    assert ds.filter(lambda r: r["type"] == "B" and r["requested_difficulty"] == 3).num_rows == sum(
        1 for s in slots if s.requested_difficulty == 3 and get_family_type(s.family) == "B"
    )


def get_family_type(name):
    from generators.families import get_family

    return get_family(name).type


def test_parallel_shards_give_the_single_process_rows(tmp_path, monkeypatch):
    spec = get_spec("mira_few_shot")
    monkeypatch.setitem(REGISTRY, spec.name, dataclasses.replace(spec, chunk_rows=5))  # many shards
    _, one = build(tmp_path, "mira_few_shot", num_proc=None)
    _, two = build(tmp_path, "mira_few_shot", num_proc=2)
    assert one["sha256"] == two["sha256"]
    assert one.data.table.equals(two.data.table)


def test_split_sizes_are_declared_and_a_short_generator_is_refused(tmp_path, monkeypatch):
    b = make_builder("mira_zero_shot", cache_dir=str(tmp_path), **SMALL)
    assert b.info.splits["test"].num_examples == len(typed_slots(SMALL["n_a"], SMALL["n_b"], SMALL["difficulties"]))
    spec = get_spec("mira_zero_shot")
    monkeypatch.setitem(REGISTRY, spec.name, dataclasses.replace(spec, count=lambda p, s: spec.count(p, s) + 1))
    with pytest.raises(datasets.exceptions.DatasetGenerationError) as info:
        build(tmp_path, "mira_zero_shot")
    assert "yielded" in str(info.value.__cause__)


def test_a_generator_that_breaks_the_shape_is_refused(tmp_path, monkeypatch):
    spec = get_spec("mira_zero_shot")

    def records(params, split, start, stop):
        for rec in spec.records(params, split, start, stop):
            yield {**rec, "surprise": True}

    monkeypatch.setitem(REGISTRY, spec.name, dataclasses.replace(spec, records=records))
    with pytest.raises(datasets.exceptions.DatasetGenerationError) as info:
        build(tmp_path, "mira_zero_shot")
    assert "extra ['surprise']" in str(info.value.__cause__)


def test_elenchos_configs_skip_cleanly_without_the_package(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "elenchos.hf_records", None)  # unimportable, whatever is installed
    for name in ("elenchos_configurations", "elenchos_ladder", "elenchos_benchmark"):
        reason = get_spec(name).unavailable()
        assert reason and "elenchos.hf_records" in reason and "builder/elenchos_configs.py" in reason
        with pytest.raises(ConfigUnavailable, match=f"config {name} is unavailable"):
            make_builder(name, cache_dir=str(tmp_path))


# ----------------------------------------------------------------- a stand-in elenchos.hf_records
SETS = [["ID_01"], ["ID_04", "ID_06"], ["ID_01", "ID_03", "ID_10"]]


def fake_hf_records() -> types.ModuleType:
    """The documented plug-in contract, implemented by a throwaway module (the real one lives in elenchos)."""
    mod = types.ModuleType("elenchos.hf_records")

    def configuration(i):
        muts = SETS[i]
        return {
            "id": "cfg-" + "+".join(muts),
            "k": len(muts),
            "mutations": muts,
            "interaction": ["single", "interacting", "additive"][i],
            "classes": ["def_equality"],
            "in_ladder": i < 2,
            "in_benchmark": i != 0,
            "divergence": {"probes": [{"ref": "ok", "mut": "reject"}], "n": i},
            "generator_version": "0.0.test",
        }

    def session(kind, params, i):
        level = 3 if kind == "benchmark" else i % 3
        return {
            "id": f"{kind[:3]}-{i:06d}",
            "level": level,
            "prompt": "ladder_mix" if kind == "ladder" else "benchmark",
            "k": 1,
            "mutations": ["ID_01"],
            "interaction": "single",
            "classes": ["def_equality"],
            "corrupted_kernel": "AB"[(params["seed"] + i) % 2],
            "repetition": i % params["repetitions"],
            "seed": params["seed"] * 1000 + i,
            "probe_budget": 65 if kind == "benchmark" else 50,
            "metadata": {"probe_library": "v1"},
            "generator_version": "0.0.test",
        }

    mod.configurations_count = lambda params, split: len(SETS)
    mod.configurations_records = lambda params, split, a, b: (configuration(i) for i in range(a, b))
    for kind in ("ladder", "benchmark"):
        setattr(mod, f"{kind}_count", lambda params, split: 3 * params["repetitions"])
        setattr(
            mod,
            f"{kind}_records",
            lambda params, split, a, b, kind=kind: (session(kind, params, i) for i in range(a, b)),
        )
    return mod


def test_elenchos_configs_plug_in_through_the_hook_module(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "elenchos.hf_records", fake_hf_records())
    for name in ("elenchos_configurations", "elenchos_ladder", "elenchos_benchmark"):
        assert get_spec(name).unavailable() is None
    _, cfg = build(tmp_path, "elenchos_configurations")
    assert cfg.num_rows == 3 and cfg[1]["mutations"] == ["ID_04", "ID_06"] and cfg[1]["in_benchmark"] is True
    assert row_to_record("elenchos_configurations", cfg[1])["divergence"]["n"] == 1
    b, lad = build(tmp_path, "elenchos_ladder", repetitions=2)
    assert b.params == {"seed": SMALL["seed"], "repetitions": 2}
    assert lad.num_rows == 6 and set(lad["probe_budget"]) == {50}


def test_configs_cli_reports_availability(monkeypatch, capsys):
    from builder.__main__ import main as cli

    monkeypatch.setitem(sys.modules, "elenchos.hf_records", None)
    assert cli(["configs"]) == 0
    out = capsys.readouterr().out
    assert "mira_zero_shot" in out and "available" in out
    assert "elenchos_ladder" in out and "unavailable" in out and "elenchos.hf_records" in out


def test_each_config_carries_its_benchmarks_generator_version(tmp_path):
    """The datasets cache is keyed by the config's own generator version (MIRA or Elenchos)."""
    from elenchos import ELENCHOS_VERSION
    from generators import GENERATOR_VERSION

    assert ELENCHOS_VERSION != GENERATOR_VERSION  # otherwise this test proves nothing
    versions = {c.name: str(c.version) for c in MiraElenchos.BUILDER_CONFIGS}
    assert versions["mira_zero_shot"] == versions["mira_few_shot"] == GENERATOR_VERSION
    for name in ("elenchos_configurations", "elenchos_ladder", "elenchos_benchmark"):
        assert versions[name] == ELENCHOS_VERSION == get_spec(name).generator_version()
    assert make_builder("mira_zero_shot", cache_dir=str(tmp_path)).cache_dir.endswith(f"/{GENERATOR_VERSION}")
    assert make_builder("elenchos_ladder", cache_dir=str(tmp_path)).cache_dir.endswith(f"/{ELENCHOS_VERSION}")


def test_slot_notice_configs_are_the_ablation_and_exported_only_when_named(tmp_path):
    from builder.export import make_plan

    _, ds = build(tmp_path, "mira_zero_shot_notice", n_b=1, difficulties=(2,))
    slots = typed_slots(SMALL["n_a"], 1, (2,))
    default = list(generate(slots, SMALL["seed"]))
    notice = list(generate(slots, SMALL["seed"], slot_notice=True))
    assert [dumps(row_to_record("mira_zero_shot_notice", r)) for r in ds] == [dumps(i) for i in notice]
    assert {r["view_variant"] for r in ds} == {"slot_notice"} and {i["view_variant"] for i in default} == {"default"}
    for a, b in zip(default, notice, strict=True):  # the same instance, the notice aside
        assert a["global_solution"] == b["global_solution"] and a["verifier"] == b["verifier"]
    plan = make_plan(code_commit="0" * 40, **SMALL)
    assert "mira_zero_shot_notice" in plan.skipped and "mira_few_shot_notice" in plan.skipped
    assert "mira_zero_shot" in plan.configs
    named = make_plan(["mira_few_shot_notice"], code_commit="0" * 40, **SMALL)
    assert list(named.configs) == ["mira_few_shot_notice"] and named.configs["mira_few_shot_notice"]["slot_notice"]
