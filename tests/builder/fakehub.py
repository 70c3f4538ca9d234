"""A stateful fake of the Hub's HTTP API for ``huggingface_hub`` (through ``httpx2.MockTransport``): never the network.

State per dataset repo: commits (each a full file snapshot and a parent), branches and tags. It answers
what ``publish`` and a reader use: repo create, refs, revision info, tree listing, file resolve (HEAD/GET),
preupload, commit (NDJSON; a ``parentCommit`` that is not the branch head is a 412, as on the Hub),
branch and tag creation. ``before_commit`` is called once per commit request before the parent check,
so a test can land a concurrent commit between a publisher's read and its commit.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import unquote

import httpx2

ENDPOINT = "https://hub.mock"


@dataclass
class Commit:
    oid: str
    parent: str | None
    title: str
    description: str
    files: dict[str, bytes]


@dataclass
class Repo:
    commits: dict[str, Commit] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    def resolve(self, rev: str) -> Commit | None:
        oid = self.branches.get(rev) or self.tags.get(rev) or (rev if rev in self.commits else None)
        return self.commits.get(oid) if oid else None


def blob_oid(data: bytes) -> str:
    """git's blob id (what the Hub reports as ``oid`` for a regular file)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class FakeHub:
    def __init__(self) -> None:
        self.repos: dict[str, Repo] = {}
        self.calls: list[tuple[str, str]] = []
        self.before_commit: Callable[[FakeHub, str, str], None] | None = None
        self.conflicts = 0
        self._n = 0

    # ------------------------------------------------------------------ direct state changes (the "other writer")
    def create(self, repo_id: str) -> Repo:
        if repo_id not in self.repos:
            self.repos[repo_id] = Repo()
            self.commit(repo_id, "main", {".gitattributes": b"*.parquet filter=lfs\n"}, title="initial commit")
        return self.repos[repo_id]

    def commit(self, repo_id: str, branch: str, add: dict[str, bytes], delete: tuple[str, ...] = (),
               title: str = "update", description: str = "") -> str:
        repo = self.repos[repo_id]
        parent = repo.branches.get(branch)
        files = dict(repo.commits[parent].files) if parent else {}
        for path in delete:
            files.pop(path, None)
        files.update(add)
        self._n += 1
        oid = hashlib.sha1(f"{repo_id}:{self._n}:{title}".encode()).hexdigest()
        repo.commits[oid] = Commit(oid, parent, title, description, files)
        repo.branches[branch] = oid
        return oid

    def files(self, repo_id: str, rev: str = "main") -> dict[str, bytes]:
        return self.repos[repo_id].resolve(rev).files

    # ------------------------------------------------------------------------------------------------ HTTP
    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.raw_path.decode().split("?", 1)[0]
        self.calls.append((request.method, unquote(path)))
        if path == "/api/repos/create":
            body = json.loads(request.content)
            repo_id = f"{body['organization']}/{body['name']}"
            self.create(repo_id)
            return httpx2.Response(200, json={"url": f"{ENDPOINT}/datasets/{repo_id}"})
        if path == "/api/validate-yaml":
            return httpx2.Response(200, json={"errors": [], "warnings": []})
        if path.startswith("/api/datasets/"):
            return self._api(request, path[len("/api/datasets/"):].split("/"))
        if path.startswith("/datasets/"):
            parts = path[len("/datasets/"):].split("/")
            if len(parts) >= 5 and parts[2] == "resolve":
                return self._resolve(request, "/".join(parts[:2]), unquote(parts[3]), unquote("/".join(parts[4:])))
        return httpx2.Response(404, json={"error": f"unmocked {path}"})

    def _missing(self, what: str, code: str) -> httpx2.Response:
        return httpx2.Response(404, headers={"x-error-code": code}, json={"error": what})

    def _api(self, request: httpx2.Request, parts: list[str]) -> httpx2.Response:
        repo_id, action, rest = "/".join(parts[:2]), parts[2] if len(parts) > 2 else "", parts[3:]
        repo = self.repos.get(repo_id)
        if repo is None:
            return httpx2.Response(401, headers={"x-error-code": "RepoNotFound"}, json={"error": "Repo not found"})
        if action == "refs":
            def refs(d):
                prefix = "refs/heads/" if d is repo.branches else "refs/tags/"
                return [{"name": n, "ref": prefix + n, "targetCommit": oid} for n, oid in d.items()]
            return httpx2.Response(200, json={"branches": refs(repo.branches), "tags": refs(repo.tags), "converts": []})
        rev = unquote(rest[0]) if rest else "main"
        if action == "branch":
            body = json.loads(request.content or b"{}")
            if rev in repo.branches:
                return httpx2.Response(409, json={"error": "Reference already exists"})
            start = repo.resolve(body.get("startingPoint") or "main")
            repo.branches[rev] = start.oid
            return httpx2.Response(200, json={})
        if action == "tag":
            body = json.loads(request.content)
            commit = repo.resolve(rev)
            if commit is None:
                return self._missing("Invalid rev id", "RevisionNotFound")
            if body["tag"] in repo.tags:
                return httpx2.Response(409, json={"error": "Tag already exists"})
            repo.tags[body["tag"]] = commit.oid
            return httpx2.Response(200, json={})
        commit = repo.resolve(rev)
        if action in ("revision", "tree", "paths-info") and commit is None:
            return self._missing(f"Invalid rev id: {rev}", "RevisionNotFound")
        if action == "revision":
            siblings = [{"rfilename": p} for p in sorted(commit.files)]
            return httpx2.Response(200, json={"id": repo_id, "_id": repo_id, "sha": commit.oid, "siblings": siblings,
                                              "private": False, "tags": [], "author": repo_id.split("/")[0]})
        if action == "tree":
            under = unquote("/".join(rest[1:])).strip("/")
            return httpx2.Response(200, json=self._tree(commit, under, request.url.params.get("recursive") == "true"))
        if action == "paths-info":  # get_paths_info: a form-encoded POST with repeated "paths"
            from urllib.parse import parse_qs

            wanted = parse_qs(request.content.decode()).get("paths", [])
            return httpx2.Response(200, json=self._paths_info(commit, wanted))
        if action == "preupload":
            files = json.loads(request.content)["files"]
            modes = [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]
            return httpx2.Response(200, json={"files": modes})
        if action == "commit":
            return self._commit(repo_id, repo, rev, request.content)
        return httpx2.Response(404, json={"error": f"unmocked {action}"})

    def _entry(self, path: str, data: bytes) -> dict:
        return {"type": "file", "path": path, "oid": blob_oid(data), "size": len(data)}

    def _tree(self, commit: Commit, under: str, recursive: bool) -> list[dict]:
        out, dirs = [], set()
        prefix = f"{under}/" if under else ""
        for path in sorted(commit.files):
            if not path.startswith(prefix):
                continue
            rel = path[len(prefix):]
            if "/" in rel and not recursive:
                dirs.add(prefix + rel.split("/", 1)[0])
                continue
            if "/" in rel:
                parts = rel.split("/")[:-1]
                for i in range(1, len(parts) + 1):
                    dirs.add(prefix + "/".join(parts[:i]))
            out.append(self._entry(path, commit.files[path]))
        return [{"type": "directory", "path": d, "oid": "0" * 40, "size": 0} for d in sorted(dirs)] + out

    def _paths_info(self, commit: Commit, paths: list[str]) -> list[dict]:
        out = []
        for p in paths or []:
            p = p.strip("/")
            if p in commit.files:
                out.append(self._entry(p, commit.files[p]))
            elif any(f.startswith(p + "/") for f in commit.files):
                out.append({"type": "directory", "path": p, "oid": "0" * 40, "size": 0})
        return out

    def _resolve(self, request: httpx2.Request, repo_id: str, rev: str, path: str) -> httpx2.Response:
        repo = self.repos.get(repo_id)
        if repo is None:
            return httpx2.Response(401, headers={"x-error-code": "RepoNotFound"})
        commit = repo.resolve(rev)
        if commit is None:
            return self._missing("Invalid rev id", "RevisionNotFound")
        if path not in commit.files:
            return httpx2.Response(404, headers={"x-error-code": "EntryNotFound", "X-Repo-Commit": commit.oid})
        data = commit.files[path]
        headers = {"ETag": f'"{blob_oid(data)}"', "X-Repo-Commit": commit.oid, "Content-Length": str(len(data))}
        return httpx2.Response(200, headers=headers, content=b"" if request.method == "HEAD" else data)

    def _commit(self, repo_id: str, repo: Repo, branch: str, content: bytes) -> httpx2.Response:
        lines = [json.loads(line) for line in content.decode().splitlines() if line.strip()]
        header = next(line["value"] for line in lines if line["key"] == "header")
        if self.before_commit is not None:
            hook, self.before_commit = self.before_commit, None
            hook(self, repo_id, branch)
        parent = header.get("parentCommit")
        if parent is not None and parent != repo.branches.get(branch):
            self.conflicts += 1
            return httpx2.Response(412, json={"error": "A commit has happened since. Please refresh and try again."})
        add = {line["value"]["path"]: base64.b64decode(line["value"]["content"])
               for line in lines if line["key"] == "file"}
        delete = tuple(line["value"]["path"] for line in lines if line["key"] == "deletedFile")
        oid = self.commit(repo_id, branch, add, delete, title=header["summary"],
                          description=header.get("description", ""))
        return httpx2.Response(200, json={"commitUrl": f"{ENDPOINT}/datasets/{repo_id}/commit/{oid}",
                                          "commitOid": oid, "pullRequestUrl": None})
