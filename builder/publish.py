"""``python -m builder publish FOLDER --repo-id ORG/NAME``: upload a verified export to a Hub dataset repo.

One commit: every file of the export (``CHECKSUMS`` order, then ``CHECKSUMS``) is added, and remote files
that are not part of the export (stale shards of an earlier release, which the ``configs:`` globs would
otherwise pick up) are deleted; dotfiles such as ``.gitattributes`` are kept. ``--dry-run`` prints the
operations and sizes and makes no network call (it does not even look up a token). The token comes
from ``HF_TOKEN`` or the Hub's stored login and is never printed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from builder.export import CHECKSUMS
from builder.verify import read_checksums, verify


class PublishError(RuntimeError):
    pass


@dataclass
class PublishPlan:
    repo_id: str
    revision: str | None
    private: bool
    files: list[tuple[str, int]]  # (path in repo, size in bytes)

    @property
    def total_bytes(self) -> int:
        return sum(size for _, size in self.files)

    def lines(self) -> list[str]:
        branch = self.revision or "main"
        out = [f"create_repo {self.repo_id} (repo_type=dataset, private={self.private}, exist_ok=True)"]
        if self.revision and self.revision != "main":
            out.append(f"create_branch {self.revision} (exist_ok=True)")
        out.append(f"create_commit {self.repo_id}@{branch}: add {len(self.files)} files, {_size(self.total_bytes)}")
        out += [f"  add {path} ({_size(size)})" for path, size in self.files]
        out.append("  delete remote files that are not in the export (dotfiles kept)")
        return out


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


def plan_upload(folder: Path, repo_id: str, revision: str | None, private: bool) -> PublishPlan:
    paths = [*read_checksums(folder), CHECKSUMS]
    return PublishPlan(repo_id, revision, private, [(p, (folder / p).stat().st_size) for p in paths])


def resolve_token() -> str:
    token = os.environ.get("HF_TOKEN")
    if not token:
        from huggingface_hub import get_token

        token = get_token()
    if not token:
        raise PublishError("no Hugging Face token: set HF_TOKEN or log in with `hf auth login`")
    return token


def publish(
    folder: str | Path,
    repo_id: str,
    *,
    revision: str | None = None,
    private: bool = False,
    dry_run: bool = False,
    commit_message: str | None = None,
    endpoint: str | None = None,
    regenerate: bool = True,
    log: Callable[[str], None] = print,
) -> str | None:
    """Verify, then upload (or print the plan with ``dry_run``); returns the commit URL."""
    folder = Path(folder)
    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise PublishError(f"--repo-id must be ORG/NAME, got {repo_id!r}")
    report = verify(folder, regenerate=regenerate)
    if not report.ok:
        raise PublishError(f"refusing to publish {folder}: verify failed: {report.problems[0]}")
    plan = plan_upload(folder, repo_id, revision, private)
    if dry_run:
        log("dry run (no network): the operations would be")
        for line in plan.lines():
            log(line)
        return None

    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi

    api = HfApi(endpoint=endpoint, token=resolve_token())
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    if revision and revision != "main":
        api.create_branch(repo_id, repo_type="dataset", branch=revision, exist_ok=True)
    ours = {path for path, _ in plan.files}
    remote = api.list_repo_files(repo_id, repo_type="dataset", revision=revision)
    deletes = [p for p in remote if p not in ours and not any(part.startswith(".") for part in p.split("/"))]
    operations = [CommitOperationAdd(path_in_repo=p, path_or_fileobj=str(folder / p)) for p, _ in plan.files]
    operations += [CommitOperationDelete(path_in_repo=p) for p in deletes]
    info = api.create_commit(
        repo_id,
        operations=operations,
        commit_message=commit_message or f"Export {folder.name}",
        repo_type="dataset",
        revision=revision,
    )
    log(f"committed {len(plan.files)} files ({_size(plan.total_bytes)}), deleted {len(deletes)}: {info.commit_url}")
    return info.commit_url
