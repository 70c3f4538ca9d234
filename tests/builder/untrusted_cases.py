"""Crafted export folders and generation arguments (issue 25), shared by the fuzz test and its benchmark.

A *folder case* changes a copy of a small export (``make_export``) inside a scratch folder; files it plants
"elsewhere" go to a sibling folder ``outside``. Each case is run through every reader of export folders that
reads what the case changed (``builder verify --no-regenerate``, ``builder to-jsonl``, ``run_eval.py mira
--dataset FOLDER``): each must exit 2 with one line on stderr, within 5 s, without a traceback, and without
touching any file outside the scratch folder. An *argument case* is a command line that asks for unbounded work.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import multiprocessing
import os
import shutil
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ZS = "mira_zero_shot/test-00000-of-00001.parquet"
ZS_SMALL = {"seed": 4321, "n_a": 1, "n_b": 1, "difficulties": (1,)}
TIMEOUT_S = 5
READERS = ("verify", "to-jsonl", "dataset")


def make_export(out: Path) -> Path:
    """A one-config export of 22 rows (fast to read and verify)."""
    from builder.export import export

    export(out, configs=["mira_zero_shot"], code_commit="0" * 40, log=lambda _: None, **ZS_SMALL)
    return out


# ------------------------------------------------------------------------------------------------ helpers
def _manifest(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "manifest.json").read_text())


def _write_manifest(folder: Path, manifest: Any) -> None:
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2))


def _edit_manifest(edit: Callable[[dict[str, Any]], None]) -> Callable[[Path, Path], None]:
    def mutate(folder: Path, outside: Path) -> None:
        manifest = _manifest(folder)
        edit(manifest)
        _write_manifest(folder, manifest)
    return mutate


def _zs(manifest: dict[str, Any]) -> dict[str, Any]:
    return manifest["configs"]["mira_zero_shot"]


def _file_path(value: Callable[[Path], str]) -> Callable[[Path, Path], None]:
    """The split's file path in the manifest set to ``value(outside)``."""
    def mutate(folder: Path, outside: Path) -> None:
        manifest = _manifest(folder)
        _zs(manifest)["splits"]["test"]["files"][0]["path"] = value(outside)
        _write_manifest(folder, manifest)
    return mutate


def _replace_data(make: Callable[[Path, Path], None]) -> Callable[[Path, Path], None]:
    """The split's Parquet file replaced by what ``make(path, outside)`` puts there."""
    def mutate(folder: Path, outside: Path) -> None:
        path = folder / ZS
        path.unlink()
        make(path, outside)
    return mutate


def _card(edit: Callable[[str, Path], str]) -> Callable[[Path, Path], None]:
    def mutate(folder: Path, outside: Path) -> None:
        readme = folder / "README.md"
        readme.write_text(edit(readme.read_text(), outside))
    return mutate


def _data_files(value: str) -> Callable[[str, Path], str]:
    return lambda text, outside: text.replace("path: mira_zero_shot/test-*.parquet",
                                              "path: " + value.replace("OUTSIDE", str(outside)), 1)


def _schema_swapped(path: Path, outside: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": ["x"], "question": [1], "sha256": ["0" * 64]}), path)


def _deep_json_cell(path: Path, outside: Path) -> None:
    import pyarrow.parquet as pq

    table = pq.read_table(outside / "x.parquet")
    rows = table.to_pylist()
    rows[0]["target"] = "[" * 200_000 + "]" * 200_000
    import pyarrow as pa

    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)


def _sparse(path: Path, size: int) -> None:
    with open(path, "wb") as f:
        f.truncate(size)


def _fifo(path: Path, outside: Path) -> None:
    os.mkfifo(path)


@dataclass(frozen=True)
class FolderCase:
    name: str
    category: str  # paths | records | limits
    mutate: Callable[[Path, Path], None]
    readers: tuple[str, ...] = READERS
    message: str = ""  # a part of the one line (the file or field it names)


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(manifest: dict[str, Any]) -> None:
        node: Any = manifest
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def _rename_config(new: str) -> Callable[[dict[str, Any]], None]:
    def edit(manifest: dict[str, Any]) -> None:
        manifest["configs"] = {new: manifest["configs"]["mira_zero_shot"]}
    return edit


ZS_PATH = ["configs", "mira_zero_shot"]
FILE0 = [*ZS_PATH, "splits", "test", "files", 0]

FOLDER_CASES: list[FolderCase] = [
    # --- names that leave the folder, files that are not regular, sizes
    FolderCase("manifest path ../../outside", "paths", _file_path(lambda o: "../../outside/x.parquet"),
               message="not a relative path"),
    FolderCase("manifest absolute path", "paths", _file_path(lambda o: str(o / "x.parquet")),
               message="not a relative path"),
    FolderCase("manifest path /etc/passwd", "paths", _file_path(lambda o: "../../../../../etc/passwd"),
               message="not a relative path"),
    FolderCase("manifest path through a linked folder", "paths",
               lambda f, o: (os.symlink(o, f / "elsewhere"),
                             _file_path(lambda _: "elsewhere/x.parquet")(f, o)), message="outside the folder"),
    FolderCase("parquet linked to an outside copy", "paths",
               _replace_data(lambda p, o: os.symlink(o / "x.parquet", p)), message="outside the folder"),
    FolderCase("parquet linked to a copy inside", "paths",
               _replace_data(lambda p, o: (shutil.copy(o / "x.parquet", p.with_name("copy.parquet")),
                                           os.symlink("copy.parquet", p))), readers=("to-jsonl", "dataset"),
               message="symbolic link"),
    FolderCase("config folder linked outside", "paths",
               lambda f, o: (shutil.rmtree(f / "mira_zero_shot"), os.symlink(o, f / "mira_zero_shot")),
               message="outside the folder"),
    FolderCase("parquet is a FIFO", "paths", _replace_data(_fifo), message="not a regular file"),
    FolderCase("parquet linked to /dev/zero", "paths",
               _replace_data(lambda p, o: os.symlink("/dev/zero", p)), message="outside the folder"),
    FolderCase("manifest is a FIFO", "paths", lambda f, o: ((f / "manifest.json").unlink(),
                                                           os.mkfifo(f / "manifest.json")),
               message="not a regular file"),
    FolderCase("manifest linked to /dev/zero", "paths", lambda f, o: ((f / "manifest.json").unlink(),
                                                                     os.symlink("/dev/zero", f / "manifest.json")),
               message="outside the folder"),
    FolderCase("manifest of 17 MB", "paths", lambda f, o: _sparse(f / "manifest.json", 17 << 20),
               message="more than the limit"),
    FolderCase("parquet of 1.1 GB", "paths", _replace_data(lambda p, o: _sparse(p, (1 << 30) + 1)),
               message="more than the limit"),
    FolderCase("CHECKSUMS names ../../outside", "paths",
               lambda f, o: (f / "CHECKSUMS").write_text((f / "CHECKSUMS").read_text()
                                                         + "0" * 64 + "  ../../outside/x.parquet\n"),
               readers=("verify",), message="CHECKSUMS:"),
    FolderCase("CHECKSUMS is a FIFO", "paths", lambda f, o: ((f / "CHECKSUMS").unlink(), os.mkfifo(f / "CHECKSUMS")),
               readers=("verify",), message="not a regular file"),
    FolderCase("card data_files ../../outside", "paths", _card(_data_files("../../outside/*.parquet")),
               readers=("verify", "dataset"), message="data_files"),
    FolderCase("card data_files absolute", "paths", _card(_data_files("OUTSIDE/*.parquet")),
               readers=("verify", "dataset"), message="data_files"),
    FolderCase("card data_files URL", "paths", _card(_data_files("hf://datasets/x/y/*.parquet")),
               readers=("verify", "dataset"), message="data_files"),
    FolderCase("card data_files recursive glob", "paths", _card(_data_files("'**/*.parquet'")),
               readers=("verify", "dataset"), message="data_files"),
    FolderCase("README linked to /dev/zero", "paths", lambda f, o: ((f / "README.md").unlink(),
                                                                   os.symlink("/dev/zero", f / "README.md")),
               readers=("verify", "dataset"), message="outside the folder"),
    # --- records of the wrong shape
    FolderCase("config named ../../evil", "records", _edit_manifest(_rename_config("../../evil")),
               message="not a config name"),
    FolderCase("200k nested brackets", "records",
               lambda f, o: (f / "manifest.json").write_text("[" * 200_000 + "]" * 200_000), message="manifest.json"),
    FolderCase("not JSON", "records", lambda f, o: (f / "manifest.json").write_text("{configs: 1"),
               message="not valid JSON"),
    FolderCase("not UTF-8", "records", lambda f, o: (f / "manifest.json").write_bytes(b'{"a": "\xff"}'),
               message="not UTF-8"),
    FolderCase("top level a list", "records", lambda f, o: _write_manifest(f, [1, 2]), message="must be an object"),
    FolderCase("configs a list", "records", _edit_manifest(_set(["configs"], [])), message="configs"),
    FolderCase("files a string", "records", _edit_manifest(_set([*ZS_PATH, "splits", "test", "files"], "x")),
               message="files"),
    FolderCase("files[0] a number", "records", _edit_manifest(_set(FILE0, 7)), message="files[0]"),
    FolderCase("file rows a string", "records", _edit_manifest(_set([*FILE0, "rows"], "22")), message="rows"),
    FolderCase("splits a list", "records", _edit_manifest(_set([*ZS_PATH, "splits"], ["test"])), message="splits"),
    FolderCase("split named ../x", "records",
               _edit_manifest(lambda m: _zs(m).update(splits={"../x": _zs(m)["splits"]["test"]})),
               message="not a split name"),
    FolderCase("release a list", "records", _edit_manifest(_set(["release"], ["x"])), message="release"),
    FolderCase("release tag a number", "records", _edit_manifest(_set(["release"], {"tag": 5})),
               message="release.tag"),
    FolderCase("writer a string", "records", _edit_manifest(_set(["writer"], "pyarrow")), message="writer"),
    FolderCase("skipped a list", "records", _edit_manifest(_set(["skipped"], ["x"])), message="skipped"),
    FolderCase("params n_a a string", "records", _edit_manifest(_set([*ZS_PATH, "params", "n_a"], "1")),
               message="params.n_a"),
    FolderCase("params difficulties [7]", "records", _edit_manifest(_set([*ZS_PATH, "params", "difficulties"], [7])),
               message="difficulties"),
    FolderCase("params unknown key", "records", _edit_manifest(_set([*ZS_PATH, "params", "evil"], 1)),
               message="params.evil"),
    FolderCase("file sha256 not hex", "records", _edit_manifest(_set([*FILE0, "sha256"], "zz")), message="sha256"),
    FolderCase("bad README YAML", "records", _card(lambda t, o: t.replace("license:", "license: [unclosed", 1)),
               readers=("verify", "dataset"), message="README.md"),
    FolderCase("README YAML alias bomb", "records",
               _card(lambda t, o: t.replace("---\n", "---\nbomb: &a [x, x]\nmore: [*a, *a, *a]\n", 1)),
               readers=("verify", "dataset"), message="alias"),
    FolderCase("README 200k nested YAML", "records",
               _card(lambda t, o: t.replace("---\n", "---\ndeep: " + "[" * 200_000 + "]" * 200_000 + "\n", 1)),
               readers=("verify", "dataset"), message="README.md"),
    FolderCase("README configs a string", "records", _card(lambda t, o: t.replace("configs:\n", "configs: x\nx:\n", 1)),
               readers=("verify", "dataset"), message="configs"),
    FolderCase("loading script NAME.py", "records",
               lambda f, o: (f / f"{f.name}.py").write_text("import os\nos.system('touch /tmp/pwned')\n"),
               readers=("verify", "dataset"), message=".py"),
    FolderCase("garbage parquet", "records", _replace_data(lambda p, o: p.write_bytes(os.urandom(4096))),
               message="not a readable Parquet file"),
    FolderCase("schema-swapped parquet", "records", _replace_data(_schema_swapped), message="schema differs"),
    FolderCase("a JSON cell nested 200k deep", "records", _replace_data(_deep_json_cell),
               readers=("to-jsonl",), message="row 0"),
    # --- work asked for by the manifest
    FolderCase("params n_a 10**9", "limits", _edit_manifest(_set([*ZS_PATH, "params", "n_a"], 10**9)),
               readers=("verify-full", "to-jsonl"), message="n_a"),
    FolderCase("num_examples 10**12", "limits",
               _edit_manifest(_set([*ZS_PATH, "splits", "test", "num_examples"], 10**12)),
               readers=("verify-full",), message="num_examples"),
]


@dataclass(frozen=True)
class ArgCase:
    name: str
    category: str
    argv: tuple[str, ...]  # after ``python``; OUT is replaced by a path in the scratch folder
    code: int = 2
    message: str = ""


ARG_CASES: list[ArgCase] = [
    ArgCase("mira --n 10**9", "limits",
            ("-m", "generators", "mira", "--family", "moment_problem", "--n", "1000000000", "--out", "OUT/a.jsonl"),
            message="at most 1,000,000"),
    ArgCase("mira --n-a 10**9", "limits", ("-m", "generators", "mira", "--n-a", "1000000000", "--out", "OUT/b.jsonl"),
            message="at most 1,000,000"),
    ArgCase("elenchos --repetitions 10**9", "limits",
            ("-m", "generators", "elenchos", "--sessions", "--repetitions", "1000000000", "--out", "OUT/e"),
            message="--repetitions"),
    ArgCase("export --n-a 10**9", "limits",
            ("-m", "builder", "export", "--n-a", "1000000000", "--out", "OUT/x"), message="--n-a 1000000000"),
    ArgCase("export --repetitions 10**9", "limits",
            ("-m", "builder", "export", "--repetitions", "1000000000", "--out", "OUT/y"),
            message="--repetitions 1000000000"),
    ArgCase("mira --jobs 60", "limits",
            ("-m", "generators", "mira", "--family", "moment_problem", "--n", "1", "--difficulty", "1", "--jobs", "60",
             "--out", "OUT/c.jsonl"), code=0, message="capped to"),
]


# ------------------------------------------------------------------------------------------------ running
@dataclass
class Outcome:
    code: int | None
    stderr: str
    crash: str = ""  # a traceback, when the command raised
    hung: bool = False
    lines: list[str] = field(default_factory=list)

    def problem(self, code: int = 2, message: str = "") -> str | None:
        """Why this outcome is not a clean refusal (``None`` when it is)."""
        if self.hung:
            return "hung"
        if self.crash:
            return f"crashed: {self.crash.strip().splitlines()[-1]}"
        if "Traceback" in self.stderr:
            return "a traceback on stderr"
        if self.code != code:
            return f"exit {self.code}, not {code}: {self.stderr.strip()[:300]}"
        if code != 0 and len(self.lines) != 1:
            return f"{len(self.lines)} lines on stderr, not one: {self.stderr[:300]!r}"
        if message and message not in self.stderr:
            return f"{message!r} not in {self.stderr.strip()[:300]!r}"
        return None


def run_reader(reader: str, folder: Path, scratch: Path) -> Outcome:
    """One reader on ``folder`` in a forked child (stderr captured), killed after 5 s.

    A child, because a hang inside C code (pyarrow reading a FIFO on its I/O thread) never returns to Python for
    an alarm to interrupt; forked, because the modules are already imported (a fresh interpreter needs seconds)."""
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_run_in_child, args=(reader, folder, scratch, send), daemon=True)
    child.start()
    send.close()
    try:
        if receive.poll(TIMEOUT_S):
            return receive.recv()
        return Outcome(None, "", hung=True)
    except EOFError:
        return Outcome(None, "", crash=f"the reader process died (exit {child.exitcode})")
    finally:
        child.kill()
        child.join()
        receive.close()


def _run_in_child(reader: str, folder: Path, scratch: Path, send: Any) -> None:
    send.send(_run_here(reader, folder, scratch))
    send.close()


def _run_here(reader: str, folder: Path, scratch: Path) -> Outcome:
    from builder.__main__ import main as builder_main
    from harness.cli import main as run_eval

    commands: dict[str, Callable[[], int]] = {
        "verify": lambda: builder_main(["verify", str(folder), "--no-regenerate"]),
        "verify-full": lambda: builder_main(["verify", str(folder)]),
        "to-jsonl": lambda: builder_main(["to-jsonl", str(folder), "--out", str(scratch / "out.jsonl")]),
        "dataset": lambda: run_eval(["mira", "--dataset", str(folder), "--out", str(scratch / "run"), "--quiet"]),
    }
    err, out = io.StringIO(), io.StringIO()
    code: int | None = None
    crash = ""
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = commands[reader]()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:  # a crash is what the fuzz test looks for
            crash = traceback.format_exc()
    text = err.getvalue()
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("note: ")]
    return Outcome(code, text, crash, False, lines)


def snapshot(root: Path, skip: Path | None = None) -> dict[str, tuple[str, int, str]]:
    """Every entry under ``root`` (except under ``skip``): kind, size and content hash of regular files."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        here = Path(dirpath)
        if skip is not None and (here == skip or skip in here.parents):
            dirs[:] = []
            continue
        for name in dirs + files:
            path = here / name
            st = path.lstat()
            kind = "link" if path.is_symlink() else "dir" if path.is_dir() else "file" if path.is_file() else "other"
            digest = ""
            if kind == "file" and st.st_size < (64 << 20):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            elif kind == "link":
                digest = os.readlink(path)
            out[str(path.relative_to(root))] = (kind, st.st_size if kind == "file" else 0, digest)
    return out


def prepare(case: FolderCase, source: Path, base: Path) -> tuple[Path, Path, Path]:
    """(folder, scratch, outside) for one case under ``base``: ``base/scratch/NAME`` and ``base/outside``."""
    scratch, outside = base / "scratch", base / "outside"
    scratch.mkdir(parents=True)
    outside.mkdir()
    shutil.copy(source / ZS, outside / "x.parquet")
    (outside / "secret.txt").write_text("outside\n")
    folder = scratch / source.name
    shutil.copytree(source, folder)
    case.mutate(folder, outside)
    return folder, scratch, outside


def run_folder_case(case: FolderCase, source: Path, base: Path) -> list[str]:
    """The problems of one folder case (empty when every reader refused it cleanly)."""
    folder, scratch, _ = prepare(case, source, base)
    before = snapshot(base, skip=scratch)
    problems = []
    for reader in case.readers:
        outcome = run_reader(reader, folder, scratch)
        problem = outcome.problem(2, case.message)
        if problem:
            problems.append(f"{case.name} [{reader}]: {problem}")
    if snapshot(base, skip=scratch) != before:
        problems.append(f"{case.name}: a file outside the scratch folder changed")
    return problems
