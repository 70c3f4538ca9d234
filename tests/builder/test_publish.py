"""publish against a stateful fake Hub (tests/builder/fakehub.py behind httpx2.MockTransport): no network."""

import json

import datasets
import httpx2
import huggingface_hub
import pytest
from huggingface_hub import constants, set_client_factory
from huggingface_hub.utils._http import default_client_factory

from builder.__main__ import main as cli
from builder.card import render_readme
from builder.export import CHECKSUMS, MANIFEST, README, export, write_checksums
from builder.publish import PublishError, publish, release_tag
from builder.rows import load_records
from generators import GENERATOR_VERSION
from tests.builder.conftest import quiet
from tests.builder.fakehub import ENDPOINT, FakeHub

TOKEN = "hf_secret_for_tests_0123456789"
REPO = "org/MIRA-MATH"
FIGURE = "docs/figure.png"
COMMIT = "1" * 40
TAG1234 = f"mira-{GENERATOR_VERSION}-seed1234-1x1-d1"  # the default tag names the generator version
TAG99 = f"mira-{GENERATOR_VERSION}-seed99-1x1-d1"


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """Two seed sets: 1234 (both MIRA configs) and 99 (zero-shot only), small counts."""
    root = tmp_path_factory.mktemp("releases")
    small = {"n_a": 1, "n_b": 1, "difficulties": (1,)}
    export(root / "seed1234", configs=["mira_zero_shot", "mira_few_shot"], code_commit=COMMIT, log=quiet,
           seed=1234, **small)
    export(root / "seed99", configs=["mira_zero_shot"], code_commit=COMMIT, log=quiet, seed=99, **small)
    return root / "seed1234", root / "seed99"


@pytest.fixture
def hub(monkeypatch, tmp_path):
    fake = FakeHub()
    set_client_factory(lambda: httpx2.Client(transport=httpx2.MockTransport(fake)))
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # the fake Hub is online
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", False)
    yield fake
    set_client_factory(default_client_factory)


def pub(folder, **kwargs):
    lines = []
    result = publish(folder, REPO, endpoint=ENDPOINT, regenerate=False, log=lines.append, **kwargs)
    return result, lines


def manifest_at(hub, rev):
    return json.loads(hub.files(REPO, rev)[MANIFEST])


def test_seed_sets_are_tagged_versions_and_foreign_files_survive(releases, hub):
    first, second = releases
    hub.create(REPO)
    hub.commit(REPO, "main", {FIGURE: b"\x89PNG user figure", "mira_zero_shot/test-00001-of-00002.parquet": b"old"})

    r1, _ = pub(first)
    assert r1.tag == TAG1234 == release_tag(json.loads((first / MANIFEST).read_text()))
    repo = hub.repos[REPO]
    assert repo.tags[r1.tag] == repo.branches["main"] == r1.commit
    files = hub.files(REPO)
    assert FIGURE in files and ".gitattributes" in files
    assert "mira_zero_shot/test-00001-of-00002.parquet" not in files  # a stale shard of a config folder: ours
    head = repo.commits[r1.commit]
    assert head.title.startswith(f"Release {r1.tag}") and f"mira {GENERATOR_VERSION}" in head.title
    assert f"at {COMMIT}" in head.description and "seed=1234" in head.description
    assert f"mira_few_shot: generator {GENERATOR_VERSION}" in head.description
    assert manifest_at(hub, r1.tag)["release"] == {"repo_id": REPO, "tag": r1.tag}

    # a different seed set is refused without --replace, and nothing changes
    before = (dict(repo.branches), dict(repo.tags), len(repo.commits))
    with pytest.raises(PublishError, match=rf"different seed set \(tag {TAG1234}\)") as info:
        pub(second)
    assert "--replace" in str(info.value) and "seed=1234" in str(info.value)
    assert (dict(repo.branches), dict(repo.tags), len(repo.commits)) == before

    r2, _ = pub(second, replace=True)
    assert r2.tag == TAG99 and r2.replaced_tag == r1.tag
    assert set(repo.tags) == {r1.tag, r2.tag} and repo.tags[r1.tag] == r1.commit
    files = hub.files(REPO)
    assert FIGURE in files and files[FIGURE] == b"\x89PNG user figure"
    assert not any(p.startswith("mira_few_shot/") for p in files)  # seed 99 has no few-shot config
    assert manifest_at(hub, "main")["configs"]["mira_zero_shot"]["params"]["seed"] == 99
    assert manifest_at(hub, r1.tag)["configs"]["mira_zero_shot"]["params"]["seed"] == 1234
    assert f"Replaces the seed set tagged {TAG1234}" in repo.commits[r2.commit].description

    # the card on the Hub names the repo, the tag, the seed and the default config of its own release
    card = files[README].decode()
    assert f'load_dataset("{REPO}", "mira_zero_shot", split="test", revision="{r2.tag}")' in card
    assert "seed=99" in card and "seed=1234" not in card and "MIRA-MATH\", \"mira" in card
    assert "https://arxiv.org/abs/2607.07391" in card and "https://arxiv.org/abs/2607.12733" in card
    assert f"/tree/{COMMIT}" in card and "](docs/" not in card

    # publishing the same release again changes nothing
    r3, lines = pub(second)
    assert r3.commit is None and len(repo.commits) == before[2] + 1
    assert any("already holds this release" in line for line in lines)


def test_revision_loads_return_each_seed_set(releases, hub, tmp_path):
    first, second = releases
    r1, _ = pub(first)
    r2, _ = pub(second, replace=True)
    for tag, folder, seed in ((r1.tag, first, 1234), (r2.tag, second, 99)):
        ds = datasets.load_dataset(REPO, "mira_zero_shot", split="test", revision=tag,
                                   cache_dir=str(tmp_path / "cache"))
        assert set(ds["dataset_seed"]) == {seed}
        expected = json.loads((folder / MANIFEST).read_text())["configs"]["mira_zero_shot"]["splits"]["test"]
        assert ds.num_rows == expected["num_examples"]
        loaded = load_records(REPO, "mira_zero_shot", revision=tag, cache_dir=str(tmp_path / "cache"))
        assert loaded.provenance["resolved_revision"] == hub.repos[REPO].tags[tag]
        assert loaded.provenance["jsonl_sha256"] == expected["jsonl_sha256"]
        assert loaded.provenance["release_tag"] == tag and loaded.provenance["checked_against_manifest"]
    latest = datasets.load_dataset(REPO, split="test", cache_dir=str(tmp_path / "cache"))  # default config, main
    assert set(latest["dataset_seed"]) == {99}


def test_dry_run_lists_exactly_the_changes_and_writes_nothing(releases, hub, capsys):
    first, second = releases
    hub.create(REPO)
    hub.commit(REPO, "main", {FIGURE: b"png"})
    r1, _ = pub(first)
    repo = hub.repos[REPO]
    state = (dict(repo.branches), dict(repo.tags), len(repo.commits))
    assert cli(["publish", str(second), "--repo-id", REPO, "--replace", "--dry-run", "--no-regenerate"]) == 0
    out = capsys.readouterr().out
    assert (dict(repo.branches), dict(repo.tags), len(repo.commits)) == state  # nothing written
    listed = {(line.split()[0], line.split()[1]) for line in out.splitlines()
              if line.startswith(("  add ", "  change ", "  delete "))}
    r2, _ = pub(second, replace=True)
    old, new = hub.files(REPO, r1.commit), hub.files(REPO, r2.commit)
    actual = {("add", p) for p in new if p not in old}
    actual |= {("change", p) for p in new if p in old and new[p] != old[p]}
    actual |= {("delete", p) for p in old if p not in new}
    assert listed == actual and ("delete", "mira_few_shot/test-00000-of-00001.parquet") in listed
    assert f"  keep {FIGURE} (not part of an export)" in out
    assert f"create_tag {r2.tag} -> the new commit" in out
    assert TOKEN not in out


def test_a_concurrent_change_is_detected_and_retried_once(releases, hub):
    first, second = releases
    hub.create(REPO)

    def other_writer(fake, repo_id, branch):
        fake.commit(repo_id, branch, {"notes.md": b"added by someone else"})

    hub.before_commit = other_writer
    r1, lines = pub(first)
    assert hub.conflicts == 1 and any("412" in line for line in lines)
    assert hub.files(REPO)["notes.md"] == b"added by someone else" and r1.commit == hub.repos[REPO].branches["main"]

    def always(fake, repo_id, branch):
        other_writer(fake, repo_id, branch)
        fake.before_commit = always

    hub.before_commit = always
    with pytest.raises(PublishError, match="changed again"):
        pub(second, replace=True)
    assert hub.conflicts == 3 and hub.repos[REPO].tags.keys() == {r1.tag}

    # a concurrent publish of another seed set is not overwritten: the retry re-reads and refuses
    def other_release(fake, repo_id, branch):
        fake.commit(repo_id, branch, {MANIFEST: (second / MANIFEST).read_bytes()})

    hub.before_commit = other_release
    with pytest.raises(PublishError, match="different seed set"):
        pub(first, tag="again")


def test_dirty_exports_need_allow_dirty(releases, hub, tmp_path):
    import shutil

    folder = tmp_path / "dirty"
    shutil.copytree(releases[0], folder)
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["code_dirty"] = True
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    (folder / README).write_text(render_readme(manifest))
    write_checksums(folder)
    with pytest.raises(PublishError, match="uncommitted changes"):
        pub(folder)
    assert hub.calls == []
    result, _ = pub(folder, allow_dirty=True, tag="dirty-test")
    assert hub.repos[REPO].tags == {"dirty-test": result.commit}


def test_an_existing_tag_for_another_release_is_refused(releases, hub):
    r1, _ = pub(releases[0])
    with pytest.raises(PublishError, match=f"tag {r1.tag} already exists"):
        pub(releases[1], replace=True, tag=r1.tag)


def test_another_seed_set_goes_to_a_new_branch_without_replace(releases, hub):
    first, second = releases
    r1, _ = pub(first)
    r2, _ = pub(second, revision="heldout")  # what the refusal on main suggests: --revision BRANCH
    repo = hub.repos[REPO]
    assert r2.replaced_tag is None and repo.branches["main"] == r1.commit and repo.tags[r2.tag] == r2.commit
    assert manifest_at(hub, "heldout")["configs"]["mira_zero_shot"]["params"]["seed"] == 99
    assert not any(p.startswith("mira_few_shot/") for p in hub.files(REPO, "heldout"))
    assert manifest_at(hub, "main")["configs"]["mira_zero_shot"]["params"]["seed"] == 1234


@pytest.mark.parametrize("remote_manifest", [b"{not json", b"[1, 2]", b'{"configs": {"mira_zero_shot": 1}}',
                                             b'{"configs": {"mira_zero_shot": {"params": {}, "splits": []}}}'])
def test_a_malformed_remote_manifest_needs_replace(releases, hub, remote_manifest):
    hub.create(REPO)
    hub.commit(REPO, "main", {MANIFEST: remote_manifest})
    with pytest.raises(PublishError, match=r"an unreadable manifest\.json"):
        pub(releases[0])
    r1, _ = pub(releases[0], replace=True)
    assert manifest_at(hub, "main")["release"]["tag"] == r1.tag


def test_publish_refuses_a_folder_that_fails_verify(releases, hub, tmp_path, capsys):
    import shutil

    folder = tmp_path / "broken"
    shutil.copytree(releases[0], folder)
    (folder / "mira_zero_shot" / "test-00000-of-00001.parquet").write_bytes(b"not parquet")
    for extra in ([], ["--dry-run"]):
        assert cli(["publish", str(folder), "--repo-id", REPO, "--no-regenerate", *extra]) == 1
        err = capsys.readouterr().err
        assert "refusing to publish" in err and "mira_zero_shot/test-00000-of-00001.parquet" in err
    assert hub.calls == []


def test_publish_needs_a_token_and_a_repo_id(releases, hub, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(huggingface_hub, "get_token", lambda: None)
    with pytest.raises(PublishError, match="no Hugging Face token"):
        pub(releases[0])
    with pytest.raises(PublishError, match="ORG/NAME"):
        publish(releases[0], "MIRA-MATH", dry_run=True)
    assert hub.calls == []
    # a dry run needs no token (a public repo is readable); the repo does not exist yet: every file is an add
    lines = []
    publish(releases[0], REPO, dry_run=True, regenerate=False, endpoint=ENDPOINT, log=lines.append)
    assert f"create_repo {REPO} (repo_type=dataset)" in lines
    assert sum(line.startswith("  add ") for line in lines) == 5  # 2 Parquet files, card, manifest, CHECKSUMS
    assert any(line.startswith(f"  add {CHECKSUMS} (") for line in lines)


def test_an_untagged_release_is_tagged_before_it_is_replaced(releases, hub):
    from builder.export import data_files

    first, second = releases
    hub.create(REPO)
    old = hub.commit(REPO, "main", {p: (first / p).read_bytes() for p in data_files(first)}, title="Export MIRA-MATH")
    assert hub.repos[REPO].tags == {}  # what the earlier publish left: a plain commit
    with pytest.raises(PublishError, match="different seed set"):
        pub(second)
    lines = []
    publish(second, REPO, endpoint=ENDPOINT, regenerate=False, log=lines.append, replace=True, dry_run=True)
    assert f"create_tag {TAG1234} -> main head {old[:12]} (the release being replaced)" in lines
    r2, _ = pub(second, replace=True)
    assert hub.repos[REPO].tags == {TAG1234: old, r2.tag: r2.commit}
    assert manifest_at(hub, TAG1234)["configs"]["mira_zero_shot"]["params"]["seed"] == 1234


def test_staging_reads_data_files_as_regular_files_only(releases, tmp_path):
    """A data file swapped for a FIFO after verify is refused in one line; reading it would block forever."""
    import os
    import shutil

    from builder.publish import read_verified
    from builder.untrusted import read_checksums
    from builder.verified import file_digests

    folder = tmp_path / "swapped"
    shutil.copytree(releases[0], folder)
    verified = file_digests(folder)
    data = next(p for p in read_checksums(folder) if p.endswith(".parquet"))
    (folder / data).unlink()
    os.mkfifo(folder / data)
    def hung(*_):
        raise AssertionError("staging opened the FIFO and blocked")

    import signal

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(10)  # a regression blocks in open(); fail instead of hanging the suite
    try:
        with pytest.raises(PublishError, match=r"cannot be staged.*not a regular file"):
            read_verified(folder, verified)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ------------------------------------------------------------------ the bytes verified are the bytes uploaded
def _parquet(folder):
    from builder.untrusted import read_checksums

    return next(p for p in read_checksums(folder) if p.endswith(".parquet"))


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_file_replaced_after_verification_is_refused(releases, hub, tmp_path, monkeypatch, dry_run):
    import shutil

    import builder.publish

    folder = tmp_path / "release"
    shutil.copytree(releases[0], folder)
    data = _parquet(folder)
    verify_stamped = builder.publish.verify_stamped

    def then_swap(*args, **kwargs):  # the swap lands between verification and the upload
        report = verify_stamped(*args, **kwargs)
        (folder / data).write_bytes((releases[1] / _parquet(releases[1])).read_bytes())
        return report

    monkeypatch.setattr(builder.publish, "verify_stamped", then_swap)
    hub.create(REPO)
    with pytest.raises(PublishError, match=f"{data} changed after it was verified"):
        pub(folder, dry_run=dry_run)
    assert hub.repos[REPO].tags == {} and data not in hub.files(REPO)


def test_the_upload_is_the_bytes_read_once_not_the_file_later(releases, hub, tmp_path, monkeypatch):
    """A file changed while the commit is being made is not read again: the Hub gets the verified bytes."""
    import hashlib
    import shutil

    folder = tmp_path / "release"
    shutil.copytree(releases[0], folder)
    data = _parquet(folder)
    verified = (folder / data).read_bytes()
    create_commit = huggingface_hub.HfApi.create_commit

    def swap_then_commit(self, *args, **kwargs):
        (folder / data).write_bytes(b"PAR1 swapped while committing PAR1")
        return create_commit(self, *args, **kwargs)

    monkeypatch.setattr(huggingface_hub.HfApi, "create_commit", swap_then_commit)
    hub.create(REPO)
    r1, _ = pub(folder)
    files = hub.files(REPO, r1.tag)
    assert files[data] == verified
    sums = dict(line.split("  ")[::-1] for line in files[CHECKSUMS].decode().splitlines())
    assert sums[data] == hashlib.sha256(verified).hexdigest()


def test_the_release_held_in_memory_is_capped(releases, tmp_path, monkeypatch):
    import builder.publish
    from builder.publish import read_verified
    from builder.verified import file_digests

    digests = file_digests(releases[0])
    assert read_verified(releases[0], digests).files[CHECKSUMS] == (releases[0] / CHECKSUMS).read_bytes()
    monkeypatch.setattr(builder.publish, "MAX_RELEASE_BYTES", 2000)
    with pytest.raises(PublishError, match="held in memory: at most 2000 bytes"):
        read_verified(releases[0], digests)


@pytest.mark.parametrize("repetitions", [1, 2, 5])
def test_the_default_tag_names_the_repetitions_of_every_elenchos_export(repetitions):
    # elenchos_configurations comes first and takes only the seed: the tag reads the tier's configs together
    def config(name, params):
        return name, {"benchmark": "elenchos", "generator_version": "0.2.0", "params": params, "splits": {}}

    manifest = {"configs": dict([config("elenchos_configurations", {"seed": 1234}),
                                 config("elenchos_ladder", {"seed": 1234, "repetitions": repetitions})])}
    assert release_tag(manifest) == f"elenchos-0.2.0-seed1234-r{repetitions}"
