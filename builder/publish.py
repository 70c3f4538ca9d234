"""``python -m builder publish FOLDER --repo-id ORG/NAME``: publish a verified export as a tagged release.

A seed set is a version of the Hub repo: every publish makes one commit on the target branch (``main``
unless ``--revision``) and tags it (``--tag``, default from the manifest, e.g.
``mira-2.0.0-seed1234-20x50_elenchos-0.2.0-seed1234-r5`` for the default export of all five configs),
so ``load_dataset(REPO, CONFIG, revision=TAG)`` gives exactly that release later. Safety rules:

* the remote ``manifest.json`` is read first; a *different* seed set on the branch is replaced only with
  ``--replace``, and the replaced release stays reachable by its tag (tagged now if it had none);
* only files the export owns are ever deleted: ``README.md``, ``manifest.json``, ``CHECKSUMS`` and the
  config folders (``mira_zero_shot/`` ...); anything else in the repo (``docs/figure.png``,
  ``.gitattributes``) is kept;
* the commit names its parent (``parent_commit``): a commit that lands between our read and our commit
  makes the Hub answer 412; we then read again, re-check and retry once;
* an export made from uncommitted code is refused unless ``--allow-dirty``;
* ``--dry-run`` reads the remote (without a token if none is set) and prints every add, change and delete
  and the tags; it writes nothing.

What is uploaded is the export with ``release: {repo_id, tag}`` added to ``manifest.json`` (so the card's
snippets name the real repo and tag), the card re-rendered from it and ``CHECKSUMS`` recomputed; the Parquet
files are uploaded unchanged. The token comes from ``HF_TOKEN`` or the Hub's stored login and is never printed.

Exactly the verified bytes are uploaded: verification records the sha256 of every file it checked
(``verify_stamped(record_digests=True)``); publish then reads each file of the release once (``builder.untrusted``),
refuses one whose sha256 is not the verified one (a file swapped after verification), and hands those bytes, not
paths, to ``huggingface_hub``, so a file changed later is not read again. The release is held in memory: each file
at most ``untrusted.MAX_DATA_FILE_BYTES``, all of them together at most ``MAX_RELEASE_BYTES`` (4 GiB; the default
export is a few MB).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder import untrusted
from builder.export import CHECKSUMS, MANIFEST, README, generator_versions, release_groups
from builder.untrusted import ExportError
from builder.verify import owned_paths, verify_stamped

OWNED_FILES = (README, MANIFEST, CHECKSUMS)
TAG_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
MAX_RELEASE_BYTES = 4 << 30  # the whole release, held in memory between verification and upload


class PublishError(RuntimeError):
    pass


# ------------------------------------------------------------------------------------------ release identity
def release_tag(manifest: Mapping[str, Any]) -> str:
    """The default tag: per benchmark its generator version, seed and counts, joined by ``_``.

    E.g. ``mira-2.0.0-seed1234-20x50_elenchos-0.2.0-seed1234-r5`` (all configs) or ``mira-2.0.0-seed1234-20x50``; the
    hard tier exported with the paper split adds its own part (``..._mira-2.0.0-hard.1-seed1234-hard10``)."""
    from generators.families import FAMILIES

    parts = []
    for (bench, version), params in release_groups(manifest).items():  # a tier each: mira's paper split, its hard tier
        part = f"{bench}-{version.replace('+', '-')}-seed{params.get('seed')}"  # a tag has no "+" (2.0.0+hard.1)
        if bench == "mira":
            if "n_hard" in params:  # the hard tier (mira_hard)
                part += f"-hard{params['n_hard']}"
            else:
                part += f"-{params.get('n_a')}x{params.get('n_b')}"
            if list(params.get("difficulties", [1, 2, 3])) != [1, 2, 3]:
                part += "-d" + "".join(str(d) for d in params["difficulties"])
            families = params.get("families")
            if families is not None and list(families) != list(FAMILIES):
                digest = hashlib.sha256(",".join(families).encode()).hexdigest()[:8]
                part += f"-{len(families)}fam-{digest}"
        elif "repetitions" in params:
            part += f"-r{params['repetitions']}"
        parts.append(part)
    return "_".join(parts)


def release_identity(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """What makes two exports the same seed set: per config its generator version, parameters and row hashes."""
    return {
        name: {
            "generator_version": c.get("generator_version", manifest.get("generator_version")),
            "params": c["params"],
            "rows": {split: s.get("rows_sha256") for split, s in c["splits"].items()},
        }
        for name, c in manifest["configs"].items()
    }


def describe(manifest: Mapping[str, Any]) -> str:
    """One line per config: version, parameters, rows (for commit descriptions and refusals)."""
    lines = []
    for name, c in manifest["configs"].items():
        params = ", ".join(f"{k}={v}" for k, v in c["params"].items() if k != "families")
        rows = sum(s["num_examples"] for s in c["splits"].values())
        lines.append(f"{name}: generator {c.get('generator_version', manifest.get('generator_version'))}, "
                     f"{params}, {rows:,} rows")
    return "\n".join(lines)


def commit_text(manifest: Mapping[str, Any], tag: str, replaced: str | None) -> tuple[str, str]:
    versions = ", ".join(f"{b} {v}" for b, v in generator_versions(manifest).items())
    rows = sum(s["num_examples"] for c in manifest["configs"].values() for s in c["splits"].values())
    title = f"Release {tag} ({rows:,} rows; generators {versions})"
    dirty = " (with local changes)" if manifest.get("code_dirty") else ""
    body = [
        f"Published by `python -m builder publish` as tag {tag}.",
        f"Code: {manifest.get('code_repository', '')} at {manifest.get('code_commit')}{dirty}",
        f"Generator versions: {versions}",
        describe(manifest),
    ]
    if replaced:
        body.append(f"Replaces the seed set tagged {replaced} on this branch "
                    f"(still loadable with revision={replaced}).")
    return title, "\n".join(body)


# ------------------------------------------------------------------------------------------------ the upload
@dataclass
class VerifiedRelease:
    """The release's files as verified: each read once, its sha256 the one verification recorded."""

    files: dict[str, bytes]  # CHECKSUMS, manifest.json, README.md and every file CHECKSUMS lists
    listed: list[str]  # the paths CHECKSUMS lists
    manifest: dict[str, Any]


def read_verified(folder: Path, digests: Mapping[str, str] | None) -> VerifiedRelease:
    """Read ``CHECKSUMS``, the manifest, the card and every listed file once (inside the folder, regular files,
    at most ``MAX_RELEASE_BYTES`` in all); refuse any whose bytes are not those verification hashed."""
    if digests is None:
        raise PublishError(f"refusing to publish {folder}: no record of the bytes verification checked")
    files: dict[str, bytes] = {}
    left = MAX_RELEASE_BYTES

    def read(name: str) -> bytes:
        nonlocal left
        if name not in files:
            limit = min(untrusted.MAX_DATA_FILE_BYTES, left)
            try:
                files[name] = _read_verified_file(folder, name, digests.get(name), limit)
            except ExportError as exc:
                held = f" (the release is held in memory: at most {MAX_RELEASE_BYTES} bytes in all)" if left == limit \
                    else ""
                raise ExportError(f"{exc}{held}") from None
            left -= len(files[name])
        return files[name]

    try:
        sums = untrusted.parse_checksums(folder, untrusted.utf8(read(CHECKSUMS), CHECKSUMS))
        manifest = untrusted.parse_manifest(untrusted.utf8(read(MANIFEST), MANIFEST))
        untrusted.utf8(read(README), README)
        for path in sorted(sums):
            read(path)
    except ExportError as exc:
        raise PublishError(f"refusing to publish {folder}: cannot be staged: {exc}") from None
    return VerifiedRelease(files, sorted(sums), manifest)


def _read_verified_file(folder: Path, name: str, verified: str | None, limit: int) -> bytes:
    with untrusted.open_data(folder, name, name, limit) as f:
        data = f.read(limit + 1)
    if len(data) > limit:  # grew after it was opened
        raise ExportError(f"{name}: more than {limit} bytes")
    digest = hashlib.sha256(data).hexdigest()
    if digest != verified:
        raise PublishError(f"refusing to publish {folder}: {name} changed after it was verified (sha256 "
                           f"{digest[:12]}, verified {(verified or 'absent')[:12]}); verify and publish again")
    return data


def staged_files(release: VerifiedRelease, repo_id: str, tag: str) -> dict[str, bytes]:
    """What goes to the Hub: the verified data files, and manifest/card/CHECKSUMS with the release named."""
    from builder.card import render_readme

    released = {**release.manifest, "release": {"repo_id": repo_id, "tag": tag}}
    files = {p: release.files[p] for p in release.listed if p not in OWNED_FILES}
    files[MANIFEST] = (json.dumps(released, indent=2) + "\n").encode()
    files[README] = _rerender_card(release.files[README].decode("utf-8"), released, render_readme)
    sums = "".join(f"{hashlib.sha256(files[p]).hexdigest()}  {p}\n" for p in sorted(files))
    return {**dict(sorted(files.items())), CHECKSUMS: sums.encode()}


def _rerender_card(current: str, manifest: Mapping[str, Any], render: Callable) -> bytes:
    """The export's card with its YAML and generated blocks re-rendered for the release (prose kept as is)."""
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "card.md"
        template.write_text(current, encoding="utf-8")
        return render(manifest, template).encode()


def _blob_ids(data: bytes) -> set[str]:
    """The ids the Hub may list for a file with these bytes: git blob sha1 (regular) or sha256 (LFS)."""
    return {hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest(), hashlib.sha256(data).hexdigest()}


@dataclass
class Remote:
    exists: bool = False
    branch_exists: bool = False
    head: str | None = None
    files: dict[str, set[str]] = field(default_factory=dict)  # path -> ids the Hub lists for it
    tags: dict[str, str] = field(default_factory=dict)  # tag -> commit
    manifest: dict[str, Any] | None = None


def read_remote(api: Any, repo_id: str, branch: str) -> Remote:
    from huggingface_hub.errors import RepositoryNotFoundError

    try:
        refs = api.list_repo_refs(repo_id, repo_type="dataset")
    except RepositoryNotFoundError:
        return Remote()
    branches = {b.name: b.target_commit for b in refs.branches}
    remote = Remote(exists=True, branch_exists=branch in branches, tags={t.name: t.target_commit for t in refs.tags})
    remote.head = branches.get(branch) or branches.get("main")
    if remote.head is None:
        return remote
    for entry in api.list_repo_tree(repo_id, recursive=True, revision=remote.head, repo_type="dataset"):
        if hasattr(entry, "blob_id"):
            ids = {entry.blob_id}
            if getattr(entry, "lfs", None):
                ids.add(entry.lfs.sha256)
            remote.files[entry.path] = ids
    if MANIFEST in remote.files:
        with tempfile.TemporaryDirectory() as tmp:
            path = api.hf_hub_download(repo_id, MANIFEST, repo_type="dataset", revision=remote.head, cache_dir=tmp)
            try:
                manifest = json.loads(Path(path).read_text(encoding="utf-8"))
            except ValueError:
                manifest = None
        remote.manifest = manifest if _is_manifest(manifest) else {"configs": {}, "unreadable": True}
    return remote


def _is_manifest(value: Any) -> bool:
    """A manifest's shape, as far as the release checks read it (a JSON object with config objects)."""
    return isinstance(value, dict) and isinstance(value.get("configs"), dict) and all(
        isinstance(c, dict) and isinstance(c.get("params"), dict) and isinstance(c.get("splits"), dict)
        and all(isinstance(s, dict) for s in c["splits"].values())
        for c in value["configs"].values()
    )


@dataclass
class Changes:
    add: list[tuple[str, int]] = field(default_factory=list)
    change: list[tuple[str, int]] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # remote files that are not ours

    def __bool__(self) -> bool:
        return bool(self.add or self.change or self.delete)


def diff(staged: Mapping[str, bytes], remote: Remote, manifest: Mapping[str, Any]) -> Changes:
    owned = owned_paths(manifest, remote.manifest or {})
    out = Changes()
    for path, data in staged.items():
        if path not in remote.files:
            out.add.append((path, len(data)))
        elif remote.files[path] & _blob_ids(data):
            out.unchanged.append(path)
        else:
            out.change.append((path, len(data)))
    for path in sorted(remote.files):
        if path in staged:
            continue
        (out.delete if owned(path) else out.kept).append(path)
    return out


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{int(n)} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


@dataclass
class PublishResult:
    repo_id: str
    branch: str
    tag: str
    commit: str | None  # None: nothing changed (the release was already there)
    commit_url: str | None
    replaced_tag: str | None
    changes: Changes


def resolve_token() -> str:
    token = os.environ.get("HF_TOKEN")
    if not token:
        from huggingface_hub import get_token

        token = get_token()
    if not token:
        raise PublishError("no Hugging Face token: set HF_TOKEN or log in with `hf auth login`")
    return token


def _tag_of(remote: Remote) -> str | None:
    """A tag that points at the remote branch head, else the tag the remote manifest would get."""
    at_head = sorted(t for t, c in remote.tags.items() if c == remote.head)
    if at_head:
        return at_head[0]
    if not (remote.manifest and remote.manifest.get("configs")):
        return None
    published_as = (remote.manifest.get("release") or {}).get("tag")
    if published_as in remote.tags:  # the seed set was published with that tag (later commits added other files)
        return published_as
    name = release_tag(remote.manifest)
    return name if name not in remote.tags else f"{name}-{remote.head[:8]}"  # that name is another commit's


def check_replace(remote: Remote, manifest: Mapping[str, Any], replace: bool, branch: str) -> str | None:
    """The tag of the release being replaced (None if the branch holds no release or the same one).

    A branch that does not exist yet holds nothing: it is created from ``main``, whose release stays there."""
    if not remote.manifest or not remote.branch_exists:
        return None
    if remote.manifest.get("configs") and release_identity(remote.manifest) == release_identity(manifest):
        return None
    old_tag = _tag_of(remote)
    if not replace:
        what = describe(remote.manifest) if remote.manifest.get("configs") else "an unreadable manifest.json"
        raise PublishError(
            f"{branch} already holds a different seed set (tag {old_tag or 'none'}):\n{what}\n"
            f"pass --replace to publish this one over it (the old one stays loadable with revision={old_tag}), "
            "or --revision BRANCH to publish on another branch"
        )
    return old_tag


def check_tag(remote: Remote, tag: str, changes: Changes) -> None:
    target = remote.tags.get(tag)
    if target is not None and (changes or target != remote.head):
        raise PublishError(f"tag {tag} already exists (commit {target[:12]}) and is another release; "
                           "pass --tag NAME to name this one")


def plan_lines(repo_id: str, branch: str, tag: str, remote: Remote, changes: Changes, old_tag: str | None) -> list[str]:
    out = []
    if not remote.exists:
        out.append(f"create_repo {repo_id} (repo_type=dataset)")
    if not remote.branch_exists and branch != "main":
        out.append(f"create_branch {branch} (from main)")
    if old_tag and old_tag not in remote.tags:
        out.append(f"create_tag {old_tag} -> {branch} head {remote.head[:12]} (the release being replaced)")
    if changes:
        size = sum(n for _, n in changes.add + changes.change)
        out.append(f"create_commit {repo_id}@{branch} (parent {(remote.head or 'none')[:12]}): "
                   f"{len(changes.add)} add, {len(changes.change)} change, {len(changes.delete)} delete, "
                   f"{len(changes.unchanged)} unchanged, {_size(size)} to upload")
        out += [f"  add {p} ({_size(n)})" for p, n in changes.add]
        out += [f"  change {p} ({_size(n)})" for p, n in changes.change]
        out += [f"  delete {p}" for p in changes.delete]
    else:
        out.append(f"no commit: {repo_id}@{branch} already holds exactly this release")
    out += [f"  keep {p} (not part of an export)" for p in changes.kept]
    if remote.tags.get(tag) is None:
        out.append(f"create_tag {tag} -> the new commit" if changes else f"create_tag {tag} -> {branch} head")
    return out


def local_plan_lines(folder: Path, staged: Mapping[str, bytes], repo_id: str, branch: str, tag: str) -> list[str]:
    """The release as it would be uploaded, read from ``folder`` alone (no Hub call)."""
    sizes = {p: len(v) for p, v in staged.items()}
    total = _size(sum(sizes.values()))
    out = [f"dry run: the release in {folder}: {len(staged)} files, {total}, for {repo_id}@{branch} "
           f"as tag {tag} (what would change there follows once the Hub is read)"]
    out += [f"  file {p} ({_size(n)})" for p, n in sizes.items()]
    return out


def publish(
    folder: str | Path,
    repo_id: str,
    *,
    revision: str | None = None,
    tag: str | None = None,
    replace: bool = False,
    allow_dirty: bool = False,
    private: bool = False,
    dry_run: bool = False,
    commit_message: str | None = None,
    endpoint: str | None = None,
    regenerate: bool = True,
    reuse_verification: bool = True,
    log: Callable[[str], None] = print,
) -> PublishResult | None:
    """Verify, then publish (or print the plan with ``dry_run``, returning None).

    A full verification that ``builder verify`` (or an earlier publish) just passed on the same bytes with the same
    code is not repeated (``builder.verified``), unless ``reuse_verification`` is false."""
    folder = Path(folder)
    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise PublishError(f"--repo-id must be ORG/NAME, got {repo_id!r}")
    report = verify_stamped(folder, reuse=reuse_verification, regenerate=regenerate, record_digests=True)
    if not report.ok:
        raise PublishError(f"refusing to publish {folder}: verify failed: {report.problems[0]}")
    for note in report.notes:
        log(f"note: {note}")
    release = read_verified(folder, report.digests)  # each file read once: the bytes verified are those uploaded
    manifest = release.manifest
    if manifest.get("code_dirty") and not allow_dirty:
        raise PublishError(
            f"refusing to publish {folder}: it was exported from code with uncommitted changes "
            f"(commit {manifest.get('code_commit')} plus local edits), so nobody can regenerate it; "
            "commit and export again, or pass --allow-dirty"
        )
    tag = tag or release_tag(manifest)
    if not TAG_RE.match(tag):
        raise PublishError(f"--tag {tag!r}: use letters, digits, '.', '_' and '-' (at most 128)")
    branch = revision or "main"
    staged = staged_files(release, repo_id, tag)
    if dry_run:  # what is local first: it is shown even when the Hub cannot be reached
        for line in local_plan_lines(folder, staged, repo_id, branch, tag):
            log(line)

    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi
    from huggingface_hub.errors import HfHubHTTPError

    api = HfApi(endpoint=endpoint, token=None if dry_run and not os.environ.get("HF_TOKEN") else resolve_token())
    for attempt in (1, 2):
        remote = read_remote(api, repo_id, branch)
        old_tag = check_replace(remote, manifest, replace, branch)
        changes = diff(staged, remote, manifest)
        check_tag(remote, tag, changes)
        if dry_run:
            log("dry run: nothing is written; the operations would be")
            for line in plan_lines(repo_id, branch, tag, remote, changes, old_tag):
                log(line)
            return None
        if not remote.exists:
            api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
            remote = read_remote(api, repo_id, branch)
        if not remote.branch_exists:
            api.create_branch(repo_id, repo_type="dataset", branch=branch, exist_ok=True)
            remote = read_remote(api, repo_id, branch)
            changes = diff(staged, remote, manifest)
        if old_tag and old_tag not in remote.tags:
            api.create_tag(repo_id, repo_type="dataset", tag=old_tag, revision=remote.head,
                           tag_message="the release replaced by a later publish")
        if not changes:
            commit, url = remote.head, None
            log(f"{repo_id}@{branch} already holds this release; nothing to commit")
            break
        title, body = commit_text(manifest, tag, old_tag)
        operations = [CommitOperationAdd(path_in_repo=p, path_or_fileobj=staged[p])
                      for p, _ in changes.add + changes.change]
        operations += [CommitOperationDelete(path_in_repo=p) for p in changes.delete]
        try:
            info = api.create_commit(repo_id, operations=operations, commit_message=commit_message or title,
                                     commit_description=body, repo_type="dataset", revision=branch,
                                     parent_commit=remote.head)
        except HfHubHTTPError as exc:
            if exc.response is None or exc.response.status_code != 412:
                raise PublishError(f"commit to {repo_id}@{branch} failed: {exc}") from None
            if attempt == 2:
                raise PublishError(f"{repo_id}@{branch} changed again while publishing (412 twice); "
                                   "nothing was committed, run publish again") from None
            log(f"{repo_id}@{branch} changed between our read and our commit (412); reading it again")
            continue
        commit, url = info.oid, info.commit_url
        log(f"committed {len(changes.add)} added, {len(changes.change)} changed, {len(changes.delete)} deleted: {url}")
        break
    if remote.tags.get(tag) is None:
        api.create_tag(repo_id, repo_type="dataset", tag=tag, revision=commit, tag_message=commit_text(
            manifest, tag, old_tag)[0])
    log(f"tagged {tag}: datasets.load_dataset({repo_id!r}, CONFIG, revision={tag!r})")
    return PublishResult(repo_id, branch, tag, commit if changes else None, url, old_tag, changes)

