"""Offline, small-count fixtures for the builder tests (HF_HOME in a temporary folder, no network)."""

import os
import tempfile

_HOME = tempfile.mkdtemp(prefix="hf-home-")
os.environ["HF_HOME"] = _HOME
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.pop("HF_TOKEN", None)

import pytest  # noqa: E402

# Small counts: every registered family, two difficulties (the tests never depend on the family list).
SMALL = {"seed": 4321, "n_a": 1, "n_b": 2, "difficulties": (1, 3)}


def quiet(_message: str) -> None:
    pass


def pytest_unconfigure(config) -> None:
    import shutil

    shutil.rmtree(_HOME, ignore_errors=True)  # the datasets cache of this run's builder tests


@pytest.fixture(scope="session")
def small_export(tmp_path_factory):
    """A fresh export of the available configs with small counts; tests must copy it before changing it."""
    from builder.export import export

    out = tmp_path_factory.mktemp("export") / "MIRA-MATH"
    export(out, code_commit="0" * 40, log=quiet, **SMALL)
    return out


@pytest.fixture
def export_copy(small_export, tmp_path):
    import shutil

    dst = tmp_path / "MIRA-MATH"
    shutil.copytree(small_export, dst)
    return dst
