"""What a path given as a dataset or sessions source is, to say in one line what to pass instead.

Every reader (``run_eval.py mira --dataset``, ``run_eval.py elenchos --sessions``, ``verifiers validate``) asks
:func:`wrong_kind` before it parses anything, so a folder, a Parquet file or a file of the other benchmark gets
one line naming what it is and the option that reads it, not a ``datasets`` message or hundreds of line errors.
Only the first bytes of a file and the names inside a folder are read.
"""

from __future__ import annotations

import json
from pathlib import Path

MANIFEST = "manifest.json"  # builder.export.MANIFEST (builder sits above this package)
PARQUET_MAGIC = b"PAR1"
ELENCHOS_FILES = ("ladder.jsonl", "benchmark.jsonl", "configurations.jsonl")
MIRA = "mira"
SESSIONS = "sessions"


def is_export(folder: Path) -> bool:
    """A folder written by ``python -m builder export`` (or a downloaded Hub release)."""
    return (folder / MANIFEST).is_file()


def is_parquet(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(4) == PARQUET_MAGIC
    except OSError:
        return False


def _first_record(path: Path) -> dict | None:
    """The first line of ``path`` as a JSON object, or None (unreadable, not JSON, not an object)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(1 << 20)
    except OSError:
        return None
    line = head.split(b"\n", 1)[0]
    try:
        record = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):  # the file's own reader reports what is wrong
        return None
    return record if isinstance(record, dict) else None


def record_kind(record: dict) -> str | None:
    """``mira`` (an instance), ``sessions`` (an Elenchos session), ``configurations`` or None."""
    if "family" in record and "agent_views" in record:
        return MIRA
    if "level" in record and "corrupted_kernel" in record:
        return SESSIONS
    if "mutations" in record and "admissible" in record:
        return "configurations"
    return None


JSONL_ONLY = "validate"  # the option of commands that read JSONL files only (validate, check-answer)


def export_hint(path: Path, option: str) -> str | None:
    """The one recogniser of an export's parts: one line when ``path`` is an export folder (for a command that
    reads JSONL files only), one of its config folders, or a Parquet file, saying what it is and what to pass
    (``option FOLDER --config CONFIG``, or for ``JSONL_ONLY`` the ``to-jsonl`` command that writes a JSONL file)."""
    if path.is_dir():
        if is_export(path) and option == JSONL_ONLY:
            return (f"{path} is an export folder, not a JSONL file; {_remedy(path, 'mira_zero_shot', option)} "
                    f"(python -m builder verify {path} checks the whole export)")
        if not is_export(path) and is_export(path.parent):
            return f"{path} is the {path.name} folder of the export {path.parent}; " \
                   f"{_remedy(path.parent, path.name, option)}"
        return None
    if not is_parquet(path):
        return None
    folder, config = path.parent.parent, path.parent.name
    if is_export(folder):
        return f"{path} is a Parquet file of the export {folder}; {_remedy(folder, config, option)}"
    convert = _remedy(Path("FOLDER"), "CONFIG", JSONL_ONLY)
    if option == JSONL_ONLY:
        return f"{path} is a Parquet file, not JSONL; {convert}"
    return f"{path} is a Parquet file, not JSONL; pass its export folder ({option} FOLDER --config CONFIG), or " \
           f"{convert}"


def _remedy(folder: Path, config: str, option: str) -> str:
    if option == JSONL_ONLY:
        return f"python -m builder to-jsonl {folder} --config {config} --out FILE.jsonl writes one"
    return f"pass {option} {folder} --config {config}"


def _folder_hint(path: Path, option: str, expected: str) -> str | None:
    if is_export(path) or is_export(path.parent):
        return export_hint(path, option)
    if (path / "run.json").is_file() or (path / "transcripts.jsonl").is_file():
        return f"{path} is a run directory, not a dataset; pass the dataset it ran on (its run.json names it)"
    names = sorted(p.name for p in path.glob("*.jsonl") if p.is_file())
    if expected == SESSIONS and any(n in names for n in ELENCHOS_FILES):
        sessions = [n for n in ("ladder.jsonl", "benchmark.jsonl") if n in names]
        if not sessions:
            return (f"{path} is a python -m generators elenchos folder without sessions; write them with "
                    f"python -m generators elenchos --sessions --out {path}, or run --suite ladder|benchmark")
        return f"{path} is a python -m generators elenchos folder, not an export; pass one of its session " \
               f"files: {' or '.join(f'{option} {path / n}' for n in sessions)}"
    wanted = [n for n in names if _kind_of_file(path / n) == expected]
    if wanted and option == JSONL_ONLY:
        return f"{path} is a folder; validate its JSONL files: python -m verifiers validate " + \
            " ".join(str(path / n) for n in wanted[:3])
    if wanted:
        shown = " or ".join(f"{option} {path / n}" for n in wanted[:3])
        return f"{path} is a folder of JSONL files, not an export folder; pass one of them: {shown}"
    return None


def _kind_of_file(path: Path) -> str | None:
    record = _first_record(path)
    return record_kind(record) if record is not None else None


WHAT = {MIRA: "MIRA-Math instances", SESSIONS: "Elenchos sessions",
        "configurations": "Elenchos configurations (configurations.jsonl)"}
READ_BY = {MIRA: "run_eval.py mira --dataset", SESSIONS: "run_eval.py elenchos --sessions"}


def wrong_kind(source: str | Path, expected: str, option: str) -> str | None:
    """One line saying what ``source`` is and what to pass instead, when it is not a source of ``expected``.

    ``expected``: ``mira`` (instances) or ``sessions`` (Elenchos sessions); ``option``: the flag to name
    (``--dataset``, ``--sessions``; ``JSONL_ONLY`` for commands that read JSONL files only). None when ``source``
    may be right (or does not exist: the reader says so).
    """
    path = Path(source)
    if path.is_dir():
        return _folder_hint(path, option, expected)
    if not path.is_file():
        return None
    if is_parquet(path):
        return export_hint(path, option)
    kind = _kind_of_file(path)
    if kind is None or kind == expected:
        return None
    if kind == "configurations":
        hint = ("pass ladder.jsonl or benchmark.jsonl (python -m generators elenchos --sessions)"
                if expected == SESSIONS else "run Elenchos sessions with run_eval.py elenchos")
        return f"{path} holds {WHAT[kind]}, not {WHAT[expected]}; {hint}"
    return f"{path} holds {WHAT[kind]}, not {WHAT[expected]}; run it with {READ_BY[kind]} {path}"
