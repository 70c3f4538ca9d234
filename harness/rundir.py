"""Run directories, shared by every benchmark: config fingerprint, append-only transcripts, resume.

A run directory holds

* ``run.json``          what was run (the fingerprinted ``config``) and how (agents, code commit, times,
                        engine calls, checksums); written atomically at start and at the end;
* ``transcripts.jsonl`` one JSON line per *finished* instance, appended, flushed and fsynced once per
                        scheduler step (``fsync="each"``: after every line) before the next engine call;
* ``metrics.json``      and the reports, recomputable from the transcripts alone.

Resume: starting a run on an existing directory compares the config fingerprint (dataset checksum,
agents, protocol settings) and refuses on any difference. The transcript is read back; a last line cut
by a crash (no newline, or not valid JSON) is cut off (its bytes are kept in ``transcripts.partial``) and
that instance is run again; a bad line *followed by* good lines is corruption, reported with its line
number, and nothing is touched.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from generators.safefs import LOCK_NAME, FolderBusy, FolderLock, UnsafePath, atomic_writer
from harness import untrusted
from harness.errors import ConfigMismatch, HarnessError, InputError
from harness.redact import redact
from verifiers import safejson

TRANSCRIPTS = "transcripts.jsonl"
RUN_JSON = "run.json"
MAIN_JSON = "main.json"  # the main job's settings: its --out is a folder of runs
MAX_ENTRIES_LOOKED_AT = 10_000
METRICS_JSON = "metrics.json"
PARTIAL = "transcripts.partial"


def dumps(record: Any) -> str:
    """One strict-JSON line (no NaN/Infinity; lone surrogates escaped). A value JSON cannot hold exactly
    (a non-finite float, an int past Python's digit limit, an unknown object) is written as a string naming
    it rather than ending the run: what the model sent is in the record's raw text anyway."""
    return _dumps(record)[0]


def _dumps(record: Any) -> tuple[str, bool]:
    """(``dumps(record)``, whether it was written as is, without ``strictify``)."""
    try:
        return safejson.dumps(record), True
    except (ValueError, TypeError, RecursionError):
        return safejson.dumps(safejson.strictify(record)), False


def transcript_line(record: dict[str, Any]) -> tuple[bytes, bool]:
    """The transcript line of ``record`` (strict JSON, secrets redacted, newline-terminated) and whether
    ``read_transcripts`` would accept it as it is: written without ``strictify``, unchanged by redaction,
    within the reader's line-length and nesting limits. Only then may a writer use the record it holds in
    memory in place of reading the line back (JSON round-trips every other value exactly)."""
    text, as_is = _dumps(record)
    redacted = redact(text)
    line = (redacted + "\n").encode()
    # the reader's own nesting rule (``safejson``): a line with fewer brackets than the limit cannot nest deeper
    readable = (as_is and (redacted is text or redacted == text) and len(line) <= untrusted.MAX_LINE_BYTES
                and (text.count("[") + text.count("{") <= untrusted.MAX_DEPTH or not untrusted.too_deep(record)))
    return line, readable


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def fingerprint(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_json_atomic(path: Path, data: Any) -> None:
    """``data`` as indented strict JSON, by create-new-then-rename (never through a link), secrets redacted."""
    try:
        text = safejson.dumps(data, indent=2, separators=(",", ": "))
    except (ValueError, TypeError, RecursionError):  # as ``dumps``: strict JSON, a stray NaN named
        text = safejson.dumps(safejson.strictify(data), indent=2, separators=(",", ": "))
    write_text_atomic(path, text + "\n")


def write_text_atomic(path: Path, text: str) -> None:
    """A report, CSV or JSON file by create-new-then-rename: a link planted at ``path`` is replaced, not followed."""
    with atomic_writer(path, "w") as f:
        f.write(redact(text))


def sha256_file(path: Path, max_bytes: int = untrusted.MAX_TRANSCRIPT_BYTES) -> str | None:
    """sha256 of a regular file (a final link is followed), None if there is none; a FIFO, a device or a file
    over ``max_bytes`` is refused. The checks are made on the open descriptor (opened without blocking), so a
    file swapped for a FIFO after ``exists`` is refused rather than hanging the open."""
    if not path.exists():
        return None
    h = hashlib.sha256()
    with untrusted.open_file(path.resolve(), max_bytes) as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def code_version() -> dict[str, Any]:
    """The git commit of the toolkit and whether tracked files differ from it (None outside git)."""
    root = Path(__file__).resolve().parents[1]

    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": None if dirty is None else bool(dirty)}


def environment() -> dict[str, Any]:
    import platform

    return {"python": platform.python_version(), "platform": platform.platform()}


# ---------------------------------------------------------------------------------- transcripts
@dataclass
class TranscriptState:
    """What an existing transcript holds: finished records keyed by instance id."""

    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    line_of: dict[str, int] = field(default_factory=dict)  # instance id -> line number
    cut_line: int | None = None  # line number of a partial last line that was (or would be) cut off
    good_bytes: int = 0  # length of the valid prefix


def read_transcripts(path: Path, key: str = "instance_id", repair: bool = False,
                     schema: str | None = None) -> TranscriptState:
    """Read ``path`` (a regular file under the size limits; each line checked against ``schema``); with
    ``repair`` cut a crash-truncated last line off the file (saving its bytes)."""
    state = TranscriptState()
    if not os.path.lexists(path):
        return state
    offset = 0
    pending_bad: int | None = None  # a line that did not parse: fine only if it is the last one
    for lineno, raw in enumerate(untrusted.iter_raw_lines(path), start=1):
        if pending_bad is not None:
            raise InputError(str(path), pending_bad, "corrupt transcript line (followed by other lines, so it was "
                                                     "not cut by a crash); fix or remove it by hand, nothing was "
                                                     "changed")
        complete = raw.endswith(b"\n")
        if complete and not raw.strip():
            offset += len(raw)
            continue
        record, _problem = untrusted.parse_record(raw) if complete else (None, None)
        if record is None:
            pending_bad = lineno
            continue
        _check_line(path, lineno, record, key, schema, state)
        offset += len(raw)
    state.cut_line = pending_bad
    state.good_bytes = offset
    if repair and state.cut_line is not None:
        _cut(path, offset, state.cut_line)
    return state


def _check_line(path: Path, lineno: int, record: dict[str, Any], key: str, schema: str | None,
                state: TranscriptState) -> None:
    rid = record.get(key)
    if not isinstance(rid, str):
        raise InputError(str(path), lineno, f"{key}: transcript line has no {key!r} string")
    if schema is not None:
        untrusted.check_record(schema, record, path, lineno, rid)
    if rid in state.records:
        raise InputError(str(path), lineno, "duplicate transcript line for this instance", rid)
    state.records[rid] = record
    state.line_of[rid] = lineno


def _open_nofollow(path: Path, flags: int) -> int:
    """A descriptor on the regular file ``path``, never through a link (a one-line ``HarnessError`` otherwise)."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link
            raise HarnessError(f"{path}: is a symbolic link; refusing to write through it") from None
        raise HarnessError(f"{path}: cannot open: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise HarnessError(f"{path}: not a regular file; refusing to write to it")
    os.set_blocking(fd, True)
    return fd


def _cut(path: Path, offset: int, lineno: int) -> None:
    with os.fdopen(_open_nofollow(path, os.O_RDWR), "rb+") as f:
        f.seek(offset)
        fragment = f.read(untrusted.MAX_LINE_BYTES + 1)
        with os.fdopen(_open_nofollow(path.with_name(PARTIAL), os.O_WRONLY | os.O_APPEND | os.O_CREAT), "ab") as keep:
            keep.write(fragment + b"\n")
            keep.flush()
            os.fsync(keep.fileno())
        f.truncate(offset)
        f.flush()
        os.fsync(f.fileno())
    print(f"{path}:{lineno}: last line was cut by a crash; that instance will be run again "
          f"(its {len(fragment)} bytes are kept in {path.with_name(PARTIAL).name})", file=sys.stderr)


class TranscriptWriter:
    """Append-only JSONL: whole lines, flushed and fsynced per ``commit`` (or per line)."""

    def __init__(self, path: Path, fsync: str = "step"):
        if fsync not in ("step", "each"):
            raise HarnessError(f"fsync must be 'step' or 'each', not {fsync!r}")
        self.path = path
        self.fsync_each = fsync == "each"
        # append-only, never through a link, never to a FIFO or a device
        self._file = os.fdopen(_open_nofollow(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT), "ab")
        self.written = 0

    def write(self, records: Iterable[dict[str, Any]]) -> None:
        self.write_lines((redact(dumps(record)) + "\n").encode() for record in records)

    def write_lines(self, lines: Iterable[bytes]) -> None:
        """Append whole lines (from ``transcript_line``), then flush and fsync (after each with ``fsync="each"``)."""
        for line in lines:
            self._file.write(line)
            self.written += 1
            if self.fsync_each:
                self._sync()
        self._sync()

    def _sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self._sync()
            self._file.close()

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------------------------- run directory
class RunDir:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.transcripts = self.path / TRANSCRIPTS
        self.run_json = self.path / RUN_JSON
        self.metrics_json = self.path / METRICS_JSON

    def load_info(self) -> dict[str, Any] | None:
        """``run.json`` (a regular file under the size limit, checked against ``schemas/run_info``), or None."""
        if not os.path.lexists(self.run_json):
            return None
        return untrusted.read_json(self.run_json, "run_info")

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the folder's writer lock (``FOLDER/.lock``) for the block: a second writer gets one line naming
        this process and exits 2. A folder this call created and left empty is removed again."""
        if self.path.exists() and not self.path.is_dir():
            raise HarnessError(f"{self.path} is a file, not a run directory; use a new --out directory")
        created = not self.path.exists()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            lock = FolderLock(self.path).acquire()
        except FolderBusy as exc:
            raise HarnessError(str(exc)) from None
        except (UnsafePath, OSError) as exc:
            raise HarnessError(f"{self.path}: cannot take the writer lock: {exc}") from None
        try:
            yield
        finally:
            if created:  # before the release: a writer that takes the lock after it keeps its lock file and folder
                _remove_if_only_lock(self.path)
            lock.release()

    @contextlib.contextmanager
    def rewriting(self, write: bool) -> Iterator[None]:
        """With ``write``, hold the writer lock of this existing run folder for the block (rescoring rewrites
        its files); without, hold nothing (only reading)."""
        if not write:
            yield
            return
        if not self.path.is_dir():
            raise HarnessError(f"{self.path}: not a run directory")
        with self.locked():
            yield

    def prepare(
        self, config: dict[str, Any], key: str = "instance_id", schema: str | None = None
    ) -> tuple[dict[str, Any] | None, TranscriptState]:
        """Check that ``config`` matches what this directory was started with; read what is done.

        Nothing is created here (the directory appears with the first ``save_info``, after the agents
        are built), so a run that fails to start leaves no empty folder behind.
        """
        if self.path.exists() and not self.path.is_dir():
            raise HarnessError(f"{self.path} is a file, not a run directory; use a new --out directory")
        info = self.load_info()
        if info is None:
            held = self.runs_held()
            if held:
                raise HarnessError(f"{self.path} is a folder of runs ({held}), not a run directory; give this run a "
                                   f"folder of its own, e.g. --out {self.path / 'NAME'}")
            if os.path.lexists(self.transcripts) and (self.transcripts.is_symlink() or not self.transcripts.is_file()
                                                      or self.transcripts.stat().st_size > 0):
                raise HarnessError(f"{self.transcripts} exists without run.json; use a new --out directory")
            return None, TranscriptState()
        check_benchmark(info, config, self.path)
        check_config(info.get("config", {}), config, self.path)
        return info, read_transcripts(self.transcripts, key=key, repair=True, schema=schema)

    def runs_held(self) -> str | None:
        """What makes this folder a folder of runs rather than a run (the main job's ``main.json``, a run folder
        inside it), or None. Only the first ``MAX_ENTRIES_LOOKED_AT`` entries are looked at."""
        if not self.path.is_dir():
            return None
        if os.path.lexists(self.path / MAIN_JSON):
            return f"the main job's, {MAIN_JSON}"
        with os.scandir(self.path) as entries:
            for entry in itertools.islice(entries, MAX_ENTRIES_LOOKED_AT):
                if is_run_folder(Path(entry.path)):
                    return f"{entry.name}/{RUN_JSON}"
        return None

    def writer(self, fsync: str = "step") -> TranscriptWriter:
        self.path.mkdir(parents=True, exist_ok=True)
        return TranscriptWriter(self.transcripts, fsync)

    def save_info(self, info: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        write_json_atomic(self.run_json, info)

    def relabel(self, info: dict[str, Any], label: str | None) -> None:
        """A new ``--label`` on an existing run replaces the old one (it changes no result), and says so."""
        if not label or label == info.get("label"):
            return
        print(f"{self.path}: label changed from {info.get('label')!r} to {label!r}", file=sys.stderr)
        info["label"] = label
        self.save_info(info)
        if self.metrics_json.exists():
            try:
                metrics = untrusted.read_json(self.metrics_json)
            except HarnessError:
                return  # rewritten from the transcript at the end of the run
            if isinstance(metrics, dict):
                metrics["label"] = label
                write_json_atomic(self.metrics_json, metrics)


def is_run_folder(path: Path) -> bool:
    """A folder with a ``run.json`` file: a run directory (what a folder of runs holds)."""
    return path.is_dir() and (path / RUN_JSON).is_file()


def _remove_if_only_lock(path: Path) -> None:
    with contextlib.suppress(OSError):
        if {p.name for p in path.iterdir()} <= {LOCK_NAME}:
            with contextlib.suppress(FileNotFoundError):
                (path / LOCK_NAME).unlink()
            path.rmdir()


BENCHMARK_NAMES = {"mira": "MIRA-Math", "elenchos": "Elenchos"}


def with_article(name: str) -> str:
    """The name with its article: a MIRA-Math, an Elenchos."""
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def check_benchmark(info: dict[str, Any], config: dict[str, Any], where: Path) -> None:
    """A run directory of one benchmark is never resumed by another."""
    was = info.get("benchmark") or info.get("config", {}).get("benchmark")
    now = config.get("benchmark")
    if was and now and was != now:
        raise ConfigMismatch(f"{where} is {with_article(BENCHMARK_NAMES.get(was, was))} run, not "
                             f"{BENCHMARK_NAMES.get(now, now)}; "
                             "use a new --out directory")


# Backend options that decide how a run is executed, never what it produces: changing them between
# sessions must not stop a resume (each session records the values it ran with).
EXECUTION_OPTIONS = frozenset({"max_retries", "timeout", "concurrency", "backoff_base", "backoff_max", "on_error"})


def split_options(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(options that can change results, execution-only options)."""
    identity = {k: v for k, v in options.items() if k not in EXECUTION_OPTIONS}
    execution = {k: v for k, v in options.items() if k in EXECUTION_OPTIONS}
    return identity, execution


def without_execution(value: Any) -> Any:
    """``value`` with every execution-only option removed at any depth (for identity comparisons)."""
    if isinstance(value, dict):
        return {k: without_execution(v) for k, v in value.items() if k not in EXECUTION_OPTIONS}
    if isinstance(value, list):
        return [without_execution(v) for v in value]
    return value


def check_config(old: dict[str, Any], new: dict[str, Any], where: Path) -> None:
    """Refuse to resume when anything in the fingerprinted config differs (execution-only options aside)."""
    old, new = without_execution(old), without_execution(new)
    if fingerprint(old) == fingerprint(new):
        return
    diffs = []
    for name in sorted(set(old) | set(new)):
        if old.get(name) != new.get(name):
            diffs.append(f"  {name}: run has {_short(old.get(name))}, now {_short(new.get(name))}")
    raise ConfigMismatch(f"{where}: refusing to resume a run with a different configuration:\n" + "\n".join(diffs)
                         + "\nuse a new --out directory (or delete this one) to start over")


def same_identity(old: Any, new: Any) -> bool:
    """Do two ``describe()`` records name the same agents (execution-only options aside)?"""
    return without_execution(json.loads(json.dumps(old))) == without_execution(json.loads(json.dumps(new)))


# ---------------------------------------------------------------------------------- sessions
def begin_session(run_dir: RunDir, info: dict[str, Any], session: dict[str, Any]) -> dict[str, Any]:
    """Record a session in ``run.json`` before it runs; one that never ended is marked as killed."""
    for earlier in info.setdefault("sessions", []):
        if earlier.get("end_status", "complete") == "running":
            earlier["end_status"] = "killed (no end recorded)"
    session["end_status"] = "running"
    info["sessions"].append(session)
    info["status"] = "running"
    run_dir.save_info(info)
    return session


def end_session_failed(run_dir: RunDir, info: dict[str, Any], session: dict[str, Any], exc: BaseException) -> None:
    """Record how a session ended when it did not complete (Ctrl-C, an API failure, any error)."""
    interrupted = isinstance(exc, KeyboardInterrupt)
    status = "interrupted" if interrupted else "failed"
    session["end"] = now_iso()
    session["end_status"] = status
    if not interrupted:
        session["error"] = redact(f"{type(exc).__name__}: {exc}", keys_too=True)[:500]
    info["status"] = status
    with contextlib.suppress(OSError):  # the original error matters more
        run_dir.save_info(info)


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def json_plain(value: Any) -> bool:
    """Does JSON hold ``value`` as it is (dicts with string keys, lists, strings, numbers, booleans, null)? A line
    made of such values reads back equal, so a run may keep it in memory instead of reading its transcript again."""
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and json_plain(v) for k, v in value.items())
    if kind is list:
        return all(json_plain(v) for v in value)
    return kind in (str, int, float, bool, type(None))
