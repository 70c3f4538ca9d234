"""The test-run store of the Elenchos observations and admissibility (``MIRA_ELENCHOS_FAMILY_STORE``): plain JSON
(reading it runs nothing), keyed by the library's and the code's sha256, in a private folder, read back equal to
what was computed, in the same order, so the family built on it is the same."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path
from typing import Any

import pytest

from elenchos import family as F


@pytest.fixture(scope="module")
def computed() -> Any:
    return F._admissibility(F.MAX_K, None)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, computed: Any) -> dict[str, Any]:
    folder = tmp_path / "store"
    monkeypatch.setenv(F.STORE_ENV, str(folder))
    calls: list[int] = []

    def compute(kmax: int, jobs: int | None) -> Any:
        calls.append(kmax)
        return computed

    monkeypatch.setattr(F, "_admissibility", compute)
    return {"folder": folder, "calls": calls, "sha": F.library().sha256}


def _families(base: Any, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    key = (F.MAX_K, F.library().sha256)
    monkeypatch.setattr(F, "_ADMISSIBILITY", {key: base})
    fam = F._compute_family(F.MAX_K, None)
    return [F.configuration_record(fam, c) for c in fam.candidates]


def test_stored_as_json_and_read_back_equal(store: dict[str, Any], computed: Any,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    first = F._stored_admissibility(F.MAX_K, None, store["sha"])
    (path,) = store["folder"].iterdir()
    assert path.suffix == ".json" and store["sha"][:16] in path.name and F._code_sha256()[:32] in path.name
    assert os.stat(store["folder"]).st_mode & 0o777 == 0o700
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == F.STORE_FORMAT
    loaded = F._stored_admissibility(F.MAX_K, None, store["sha"])
    assert store["calls"] == [F.MAX_K]  # computed once, then read
    assert first is computed and loaded is not computed and loaded == computed
    for part in ("table", "out", "full", "uniform_sigma"):
        assert list(getattr(loaded, part)) == list(getattr(computed, part))  # the same order
    assert _families(loaded, monkeypatch) == _families(computed, monkeypatch)


@pytest.mark.parametrize("content", [b"not json", b'{"format": "elenchos-admissibility/1"}', b"[1, 2]",
                                     pickle.dumps({"format": F.STORE_FORMAT})])
def test_an_unreadable_table_is_computed_again(store: dict[str, Any], computed: Any, content: bytes) -> None:
    F._stored_admissibility(F.MAX_K, None, store["sha"])
    (path,) = store["folder"].iterdir()
    path.write_bytes(content)
    assert F._stored_admissibility(F.MAX_K, None, store["sha"]) is computed
    assert store["calls"] == [F.MAX_K, F.MAX_K]
    assert F._admissibility_from_json(json.loads(path.read_bytes())) == computed  # written again, whole


def test_a_folder_others_may_write_is_not_used(store: dict[str, Any], computed: Any) -> None:
    store["folder"].mkdir(mode=0o700)
    os.chmod(store["folder"], 0o777)
    assert F._stored_admissibility(F.MAX_K, None, store["sha"]) is computed
    assert F._stored_admissibility(F.MAX_K, None, store["sha"]) is computed
    assert store["calls"] == [F.MAX_K, F.MAX_K] and not list(store["folder"].iterdir())
