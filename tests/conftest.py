import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# huggingface_hub reads these once, at its first import: set them before any test module imports transformers,
# datasets or huggingface_hub, so that every Hub call of any test goes to the fake Hub of tests/builder/fakehub.py.
os.environ["HF_ENDPOINT"] = "https://hub.mock"
os.environ["HF_HUB_DISABLE_XET"] = "1"
os.environ.pop("HF_TOKEN", None)
# In a pytest-xdist worker (make test) the other workers use the other CPUs: torch and the BLAS libraries get one
# thread each (set before any test imports them; subprocesses inherit it), rather than fighting for every CPU.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(_name, "1")
# The commands the tests start (the CLIs, every documented command) import the same modules again and again: with
# bytecode caching off (PYTHONDONTWRITEBYTECODE, set on this project's CI machines) each would compile them all from
# source, a quarter of those tests' time. The caches go to __pycache__ (git-ignored), written atomically.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# Stamps of passed verifications (builder.verified) go to a folder of this process, never to the user's cache;
# each pytest-xdist worker imports this file itself, so each has its own.
_STAMP_CACHE = os.environ["MIRA_ELENCHOS_CACHE"] = tempfile.mkdtemp(prefix="mira-cache-")
# The Elenchos observations and admissibility (~3 s of CPU) are computed once per run and read by every other process
# of the run (pytest-xdist workers and the commands the tests start, which inherit the variable): the pytest process
# that starts first makes the folder (0700), the workers it starts find it set. Keyed by the code's sha256
# (elenchos.family.STORE_ENV), so a stored table is never one of other code.
# MIRA_TEST_SHARED: the same for files the tests share between workers (tests/mira/default_split.py).
_SHARED_OWNED = [name for name in ("MIRA_ELENCHOS_FAMILY_STORE", "MIRA_TEST_SHARED") if name not in os.environ]
for _name in _SHARED_OWNED:
    os.environ[_name] = tempfile.mkdtemp(prefix="mira-run-")

# ------------------------------------------------------------------------------ running in parallel (make test)
# `make test` runs pytest-xdist with --dist loadfile: each test file goes whole to one worker, in collection order,
# as a worker becomes free. These files take longest (pytest --durations); they are collected first, so that no
# worker starts one of them last. The order of the tests inside a file never changes, nor does it in a plain run.
SLOW_FILES_FIRST = (
    "tests/test_docs_commands.py",
    "tests/inspect/test_inspect_front_end.py",
    "tests/backends/test_backends_elenchos.py",
    "tests/harness/test_harness_cli.py",
    "tests/backends/test_device_check.py",
    "tests/mira/test_cli_edges.py",
    "tests/backends/test_backends_hf.py",
    "tests/builder/test_eval_release.py",
    "tests/harness/test_harness_run_folders.py",
    "tests/harness/test_harness_rule.py",
    "tests/builder/test_verify.py",
    "tests/harness/test_harness_runs.py",
)


def pytest_collection_modifyitems(config, items) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    rank = {name: i for i, name in enumerate(SLOW_FILES_FIRST)}

    def file_rank(item) -> int:
        return rank.get(item.nodeid.split("::", 1)[0], len(rank))

    items.sort(key=file_rank)  # stable: the files not listed, and every file's own tests, keep their order


def pytest_unconfigure(config) -> None:
    import shutil

    for folder in [*(os.environ[name] for name in _SHARED_OWNED), _STAMP_CACHE]:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_terminal_summary(terminalreporter) -> None:
    started = os.environ.get("MIRA_TEST_STARTED")  # set by `make test` (Makefile)
    if started and started.isdigit():
        import time

        seconds = int(time.time()) - int(started)
        terminalreporter.write_line(f"make test: {seconds // 60} min {seconds % 60:02d} s wall so far "
                                    "(ruff, collection and tests; target under 4 min on an idle 2-core machine)")
