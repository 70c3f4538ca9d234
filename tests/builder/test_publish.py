"""publish against huggingface_hub with an httpx2.MockTransport client factory: never the network."""

import json

import httpx2
import huggingface_hub
import pytest
from huggingface_hub import set_client_factory
from huggingface_hub.utils._http import default_client_factory

from builder.__main__ import main as cli
from builder.export import CHECKSUMS, data_files
from builder.publish import PublishError, _size, publish

ENDPOINT = "https://hub.mock"
TOKEN = "hf_secret_for_tests_0123456789"
STALE = "mira_zero_shot/test-00000-of-00002.parquet"


class FakeHub:
    def __init__(self):
        self.calls = []
        self.commit_lines = []
        self.create_body = None

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.path
        self.calls.append((request.method, path, request.headers.get("authorization")))
        if path == "/api/repos/create":
            self.create_body = json.loads(request.content)
            body = self.create_body
            return httpx2.Response(200, json={"url": f"{ENDPOINT}/datasets/{body['organization']}/{body['name']}"})
        if path == "/api/validate-yaml":
            return httpx2.Response(200, json={"errors": [], "warnings": []})
        if "/branch/" in path:
            return httpx2.Response(200, json={})
        if "/tree/" in path:
            files = [".gitattributes", STALE, "README.md"]
            return httpx2.Response(200, json=[{"type": "file", "path": p, "oid": "0" * 40, "size": 1} for p in files])
        if "/preupload/" in path:
            files = json.loads(request.content)["files"]
            modes = [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]
            return httpx2.Response(200, json={"files": modes})
        if "/commit/" in path:
            self.commit_lines = [json.loads(line) for line in request.content.decode().splitlines()]
            oid = "a" * 40
            return httpx2.Response(
                200,
                json={"commitUrl": f"{ENDPOINT}/datasets/org/x/commit/{oid}", "commitOid": oid, "pullRequestUrl": None},
            )
        return httpx2.Response(404, json={"error": f"unmocked {path}"})


@pytest.fixture
def hub(monkeypatch):
    fake = FakeHub()
    set_client_factory(lambda: httpx2.Client(transport=httpx2.MockTransport(fake)))
    monkeypatch.setenv("HF_HUB_DISABLE_XET", "1")
    yield fake
    set_client_factory(default_client_factory)


def test_dry_run_lists_operations_without_network_or_token(small_export, hub, monkeypatch, capsys):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert cli(["publish", str(small_export), "--repo-id", "org/MIRA-MATH", "--revision", "v1", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert hub.calls == []
    assert "create_repo org/MIRA-MATH (repo_type=dataset, private=False, exist_ok=True)" in out
    assert "create_branch v1" in out and "create_commit org/MIRA-MATH@v1" in out
    for path in data_files(small_export):
        assert f"  add {path} ({_size((small_export / path).stat().st_size)})" in out


def test_publish_commits_every_file_and_deletes_stale_ones(small_export, hub, monkeypatch, capsys):
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    url = publish(small_export, "org/MIRA-MATH", revision="v1", private=True, endpoint=ENDPOINT)
    assert url.endswith("a" * 40)
    paths = [p for _, p, _ in hub.calls]
    assert paths[0] == "/api/repos/create" and hub.create_body["type"] == "dataset"
    assert hub.create_body["visibility"] == "private"
    assert "/api/datasets/org/MIRA-MATH/branch/v1" in paths
    assert "/api/datasets/org/MIRA-MATH/commit/v1" in paths
    assert all(auth == f"Bearer {TOKEN}" for _, _, auth in hub.calls)
    added = [line["value"]["path"] for line in hub.commit_lines if line["key"] == "file"]
    deleted = [line["value"]["path"] for line in hub.commit_lines if line["key"] == "deletedFile"]
    assert sorted(added) == data_files(small_export) and added[-1] == CHECKSUMS
    assert deleted == [STALE]  # .gitattributes kept, README.md overwritten
    captured = capsys.readouterr()
    assert TOKEN not in captured.out + captured.err


def test_publish_refuses_a_folder_that_fails_verify(export_copy, hub, monkeypatch, capsys):
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    (export_copy / "mira_zero_shot" / "test-00000-of-00001.parquet").write_bytes(b"not parquet")
    for extra in ([], ["--dry-run"]):
        assert cli(["publish", str(export_copy), "--repo-id", "org/MIRA-MATH", *extra]) == 1
        err = capsys.readouterr().err
        assert "refusing to publish" in err and "mira_zero_shot/test-00000-of-00001.parquet" in err
    assert hub.calls == []


def test_publish_needs_a_token_and_a_repo_id(small_export, hub, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(huggingface_hub, "get_token", lambda: None)
    with pytest.raises(PublishError, match="no Hugging Face token"):
        publish(small_export, "org/MIRA-MATH", endpoint=ENDPOINT, regenerate=False)
    with pytest.raises(PublishError, match="ORG/NAME"):
        publish(small_export, "MIRA-MATH", dry_run=True)
    assert hub.calls == []
