"""The hard tier's configs (mira_hard, mira_hard_four_shot): exported when named, verified, loaded like the others."""

import json

import pytest

from builder.export import MANIFEST, export, make_plan
from builder.publish import TAG_RE, release_tag
from builder.registry import get_spec
from builder.rows import export_to_jsonl, load_records
from builder.verify import verify
from generators import GENERATOR_VERSION, HARD_TIER_VERSION
from generators.__main__ import main as generators_cli
from harness.cli import main as run_eval
from harness.mira.dataset import load_dataset
from tests.builder.conftest import quiet

FAMILY = "bayes_missing_prior"  # a family with k = 2; the lead's full export covers every family
PARAMS = {"seed": 4321, "n_hard": 1, "families": [FAMILY]}
CONFIGS = ("mira_hard", "mira_hard_four_shot")


@pytest.fixture(scope="module")
def hard_release(tmp_path_factory):
    root = tmp_path_factory.mktemp("hard")
    folder = root / "MIRA-HARD"
    export(folder, configs=list(CONFIGS), code_commit="4" * 40, log=quiet, **PARAMS)
    jsonl = {}
    for name, extra in (("mira_hard", []), ("mira_hard_four_shot", ["--four-shot"])):
        jsonl[name] = root / f"{name}.jsonl"
        args = ["mira", "--tier", "hard", "--family", FAMILY, "--n-hard", "1", "--seed", "4321", *extra]
        assert generators_cli([*args, "--out", str(jsonl[name])]) == 0
    return folder, jsonl


def test_the_hard_configs_are_registered_with_their_own_version() -> None:
    for name in CONFIGS:
        spec = get_spec(name)
        assert spec.generator_version() == HARD_TIER_VERSION and not spec.default_export
    assert get_spec("mira_hard_few_shot").name == "mira_hard_four_shot"
    plan = make_plan(code_commit="0" * 40)  # the default export: the paper's configs, the hard tier only when named
    assert "mira_hard" not in plan.configs and "--configs mira_hard" in plan.skipped["mira_hard"]
    assert plan.versions["mira_zero_shot"] == GENERATOR_VERSION


def test_an_export_of_the_hard_tier_equals_the_generators_file_and_verifies(hard_release, tmp_path) -> None:
    folder, jsonl = hard_release
    manifest = json.loads((folder / MANIFEST).read_text())
    for name in CONFIGS:
        config = manifest["configs"][name]
        assert config["generator_version"] == HARD_TIER_VERSION
        assert config["params"] == {**PARAMS, "few_shot": name == "mira_hard_four_shot"}
        assert config["splits"]["test"]["num_examples"] == 4
        out = tmp_path / f"{name}.jsonl"
        export_to_jsonl(folder, name, "test", out)
        assert out.read_bytes() == jsonl[name].read_bytes()
        assert [r for r in load_records(str(folder), name).records] == \
            [json.loads(line) for line in jsonl[name].read_text().splitlines()]
    tag = release_tag(manifest)
    assert tag.startswith(f"mira-{HARD_TIER_VERSION.replace('+', '-')}-seed4321-hard1-1fam-")
    assert TAG_RE.match(tag)  # publish accepts the default tag
    report = verify(folder)
    assert report.ok, report.problems


def test_run_eval_reads_the_hard_config_of_an_export(hard_release, tmp_path) -> None:
    folder, jsonl = hard_release
    dataset = load_dataset(folder, config="mira_hard")
    assert {(i["difficulty"], i["minimal_hint_spec"]["k_min"]) for i in dataset.instances} == {
        (4, 1), (4, 2), (5, 1), (5, 2)}
    runs = []
    for source, extra in ((jsonl["mira_hard"], []), (folder, ["--config", "mira_hard"])):
        out = tmp_path / f"run{len(runs)}"
        assert run_eval(["mira", "--dataset", str(source), *extra, "--solver", "oracle", "--responder", "rule",
                         "--out", str(out), "--quiet"]) == 0
        runs.append((out / "metrics.json").read_bytes())
    assert runs[0] == runs[1]


def test_an_export_of_both_tiers_names_both_in_its_tag_and_card(tmp_path) -> None:
    folder = tmp_path / "MIRA-BOTH"
    export(folder, configs=["mira_zero_shot", "mira_hard"], code_commit="5" * 40, log=quiet, n_a=1, n_b=1,
           **PARAMS)
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["generator_versions"] == {"mira": f"{GENERATOR_VERSION}, {HARD_TIER_VERSION}"}
    tag = release_tag(manifest)
    paper, hard = tag.split("_")
    assert paper.startswith(f"mira-{GENERATOR_VERSION}-seed4321-1x1-1fam-")  # the paper split's counts
    assert hard.startswith(f"mira-{HARD_TIER_VERSION.replace('+', '-')}-seed4321-hard1-1fam-")  # and the tier's
    assert TAG_RE.match(tag)
    card = (folder / "README.md").read_text()
    assert f"| MIRA-Math generator version | `{GENERATOR_VERSION}`, `{HARD_TIER_VERSION}` |" in card
    report = verify(folder)
    assert report.ok, report.problems
