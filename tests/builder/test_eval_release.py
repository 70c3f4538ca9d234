"""run_eval.py reads what load_dataset reads: an export folder or a Hub release gives the JSONL run's metrics."""

import json

import pytest

from builder.export import MANIFEST, export
from generators.__main__ import main as generators_cli
from harness.cli import main as run_eval
from tests.builder.conftest import quiet
from tests.builder.test_publish import REPO, hub, pub  # noqa: F401  (hub: the fake Hub fixture)

PARAMS = {"seed": 4321, "n_a": 1, "n_b": 1, "difficulties": (1, 2)}


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    root = tmp_path_factory.mktemp("eval")
    folder = root / "MIRA-MATH"
    export(folder, configs=["mira_zero_shot", "mira_few_shot"], code_commit="2" * 40, log=quiet, **PARAMS)
    jsonl = {}
    for name, extra in (("mira_zero_shot", []), ("mira_few_shot", ["--few-shot"])):
        jsonl[name] = root / f"{name}.jsonl"
        args = ["mira", "--seed", "4321", "--n-a", "1", "--n-b", "1", "--difficulties", "1,2"]
        assert generators_cli([*args, *extra, "--out", str(jsonl[name])]) == 0
    return folder, jsonl


def run(tmp_path, name, dataset, *extra):
    out = tmp_path / name
    argv = ["mira", "--dataset", str(dataset), *extra, "--solver", "oracle", "--responder", "rule",
            "--out", str(out), "--quiet"]
    assert run_eval(argv) == 0
    return out


def test_an_export_folder_gives_the_jsonl_runs_metrics(release, tmp_path):
    folder, jsonl = release
    for config in ("mira_zero_shot", "mira_few_shot"):
        a = run(tmp_path, f"jsonl-{config}", jsonl[config])
        b = run(tmp_path, f"export-{config}", folder, "--config", config)
        assert (a / "metrics.json").read_bytes() == (b / "metrics.json").read_bytes()
        info_a, info_b = (json.loads((p / "run.json").read_text()) for p in (a, b))
        assert info_a["config"] == info_b["config"]  # same dataset sha256: the canonical JSONL of the split
        source = info_b["dataset"]["source"]
        split = json.loads((folder / MANIFEST).read_text())["configs"][config]["splits"]["test"]
        assert source["kind"] == "export" and source["config"] == config
        assert source["jsonl_sha256"] == split["jsonl_sha256"] == info_b["dataset"]["sha256"]
        assert source["rows_sha256"] == split["rows_sha256"] and source["checked_against_manifest"]
    # resume: the same folder again is complete
    assert run_eval(["mira", "--dataset", str(folder), "--config", "mira_zero_shot", "--out",
                     str(tmp_path / "export-mira_zero_shot"), "--quiet"]) == 0


def test_a_hub_release_by_tag_is_evaluated_and_recorded(release, hub, tmp_path):  # noqa: F811
    folder, jsonl = release
    result, _ = pub(folder)
    a = run(tmp_path, "jsonl", jsonl["mira_zero_shot"])
    b = run(tmp_path, "hub", REPO, "--config", "mira_zero_shot", "--revision", result.tag)
    assert (a / "metrics.json").read_bytes() == (b / "metrics.json").read_bytes()
    source = json.loads((b / "run.json").read_text())["dataset"]["source"]
    assert source["kind"] == "hub" and source["revision"] == result.tag
    assert source["resolved_revision"] == result.commit and source["release_tag"] == result.tag


@pytest.mark.parametrize("argv,message", [
    (["--config", "nope"], "unknown config 'nope'"),
    (["--config", "elenchos_ladder"], "--config elenchos_ladder is an Elenchos config"),
    (["--revision", "v1"], "--revision is for a Hub repo id"),
])
def test_bad_release_arguments_give_one_clear_line(release, tmp_path, capsys, argv, message):
    folder, jsonl = release
    code = run_eval(["mira", "--dataset", str(folder), *argv, "--out", str(tmp_path / "x"), "--quiet"])
    err = capsys.readouterr().err
    assert code != 0 and message in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()
    assert run_eval(["mira", "--dataset", str(jsonl["mira_zero_shot"]), "--config", "mira_zero_shot",
                     "--out", str(tmp_path / "y"), "--quiet"]) != 0


def test_elenchos_sessions_from_an_export_folder_give_the_jsonl_runs_metrics(tmp_path):
    from elenchos.sessions import sessions
    from generators.jsonl import dumps

    folder = tmp_path / "EL"
    export(folder, configs=["elenchos_ladder"], code_commit="3" * 40, log=quiet, seed=7, repetitions=1)
    manifest = json.loads((folder / MANIFEST).read_text())
    from elenchos import ELENCHOS_VERSION

    assert manifest["configs"]["elenchos_ladder"]["benchmark"] == "elenchos"
    assert manifest["configs"]["elenchos_ladder"]["generator_version"] == ELENCHOS_VERSION  # not MIRA's
    assert manifest["generator_versions"] == {"elenchos": ELENCHOS_VERSION}
    jsonl = tmp_path / "ladder.jsonl"
    jsonl.write_text("".join(dumps(r) + "\n" for r in sessions("ladder", 7, 1)))
    outs = []
    for name, extra in (("jsonl", ["--sessions", str(jsonl)]), ("export", ["--sessions", str(folder)])):
        outs.append(tmp_path / name)
        argv = ["elenchos", *extra, "--agent", "sra", "--limit", "6", "--out", str(outs[-1]), "--quiet"]
        assert run_eval(argv) == 0
    assert (outs[0] / "metrics.json").read_bytes() == (outs[1] / "metrics.json").read_bytes()
    data = json.loads((outs[1] / "run.json").read_text())["data"]
    assert data["source"]["config"] == "elenchos_ladder" and data["source"]["checked_against_manifest"]
    assert data["source"]["generator_version"] == manifest["configs"]["elenchos_ladder"]["generator_version"]


def test_the_inspect_task_reads_a_hub_release_by_tag(release, hub, tmp_path):  # noqa: F811
    pytest.importorskip("inspect_ai")
    from harness.errors import HarnessError
    from harness.inspect_adapter.mira import load_instances
    from harness.mira.dataset import load_dataset

    folder, jsonl = release
    result, _ = pub(folder)
    data = load_instances(REPO, "mira_zero_shot", None, revision=result.tag)
    local = load_dataset(jsonl["mira_zero_shot"])
    assert data.instances == local.instances and data.sha256 == local.sha256
    assert data.source["kind"] == "hub" and data.source["release_tag"] == result.tag
    assert len(load_instances(REPO, "mira_zero_shot", 2, revision=result.tag).instances) == 2
    with pytest.raises(HarnessError, match="revision is for a Hub repo id"):
        load_instances(str(jsonl["mira_zero_shot"]), "mira_zero_shot", None, revision=result.tag)


def test_a_hub_manifest_that_is_not_a_manifest_gives_one_clear_line(hub, tmp_path, capsys):  # noqa: F811
    hub.create(REPO)
    hub.commit(REPO, "main", {MANIFEST: b"[1, 2]"})
    code = run_eval(["mira", "--dataset", REPO, "--revision", "main", "--out", str(tmp_path / "x"), "--quiet"])
    err = capsys.readouterr().err
    assert code != 0 and f"{REPO}@main: {MANIFEST}: (top level): must be an object" in err and "Traceback" not in err


# ------------------------------------------------------------------ rejudge reopens a recorded export or Hub repo
def _rejudge(run_dir, out, *extra):
    return run_eval(["rejudge", str(run_dir), "--responder", "rule", "--out", str(out), *extra, "--quiet"])


def _edit_info(run_dir, change):
    info = json.loads((run_dir / "run.json").read_text())
    change(info)
    (run_dir / "run.json").write_text(json.dumps(info))


@pytest.fixture
def export_run(release, tmp_path):
    folder, _ = release
    return run(tmp_path, "export-run", folder, "--config", "mira_zero_shot")


def test_rejudge_reopens_the_export_folder_its_run_recorded(export_run, tmp_path):
    assert _rejudge(export_run, tmp_path / "rj") == 0
    assert json.loads((tmp_path / "rj" / "agreement.json").read_text())["overall"]["full_agreement"] == 1.0


def test_rejudge_refuses_a_recorded_export_folder_without_a_checksum(export_run, release, tmp_path, capsys):
    _edit_info(export_run, lambda info: info["config"].update(dataset_sha256=None))
    assert _rejudge(export_run, tmp_path / "rj") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{export_run / 'run.json'}: config.dataset_sha256 is missing" in err[0]
    assert "--dataset" in err[0] and not (tmp_path / "rj" / "transcripts.jsonl").exists()
    folder, _ = release  # the user's own --dataset is read as before
    assert _rejudge(export_run, tmp_path / "rj2", "--dataset", str(folder)) == 0


def test_rejudge_refuses_another_export_folder_recorded_in_run_json(export_run, tmp_path, capsys):
    other = tmp_path / "OTHER"
    export(other, configs=["mira_zero_shot"], code_commit="4" * 40, log=quiet, **{**PARAMS, "seed": 99})
    _edit_info(export_run, lambda info: info["dataset"]["source"].update(source=str(other)))
    assert _rejudge(export_run, tmp_path / "rj") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(export_run / "run.json") in err[0] and "config.dataset_sha256" in err[0]
    assert "is not the dataset the run was made on" in err[0] and str(other) not in err[0]


@pytest.mark.parametrize("planted", ["garbage folder", "a file", "hub repo"])
def test_rejudge_says_nothing_about_what_a_recorded_source_holds(export_run, tmp_path, capsys, planted):
    target = tmp_path / "planted"
    if planted == "garbage folder":
        target.mkdir()
        (target / MANIFEST).write_text('{"secret": "TOP-SECRET-CONTENT"}')
    elif planted == "a file":
        target.write_text("TOP-SECRET-CONTENT\n")
    name = "nobody/nothing" if planted == "hub repo" else str(target)
    _edit_info(export_run, lambda info: info["dataset"]["source"].update(source=name, kind="hub"))
    assert _rejudge(export_run, tmp_path / "rj") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(export_run / "run.json") in err[0] and "dataset.source" in err[0]
    assert "TOP-SECRET" not in err[0] and "Traceback" not in err[0]
