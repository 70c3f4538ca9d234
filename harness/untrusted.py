"""Reading run folders and inspect logs from elsewhere: regular files only, sizes checked, every record checked.

A run folder travels (shared by a colleague, downloaded, resumed by a script), so nothing in it is trusted:

* files are opened with ``generators.safefs.open_regular`` (no final link, no FIFO or device, the size checked
  on the open descriptor before a byte is read);
* JSON is parsed by the toolkit's one JSONL reader (``verifiers.jsonl.parse_json_line``) and refused when
  nested deeper than ``MAX_DEPTH``;
* every record is validated against its schema in ``schemas/`` before anything uses it; a failure is one
  line, ``FILE:LINE: field: message`` (exit 2).
"""

from __future__ import annotations

import os
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from generators.safefs import open_or_refuse
from harness.errors import HarnessError, InputError
from schemas import schema_errors
from verifiers.jsonl import parse_json_line

MAX_RUN_JSON_BYTES = 64 << 20  # run.json, metrics.json, agreement.json
MAX_TRANSCRIPT_BYTES = 4 << 30  # transcripts.jsonl (a long real-model run is a few hundred MB)
MAX_LINE_BYTES = 64 << 20  # one transcript line (model replies are stored cut to MAX_REPLY_CHARS)
MAX_INSPECT_LOG_BYTES = 4 << 30
MAX_DATASET_BYTES = 2 << 30
MAX_DEPTH = 64  # nesting of arrays and objects in one record (ours stay under 12)

# Schemas of parts of a record, checked after the record's own: (schema, field) -> part schema.
PART_SCHEMAS = {"elenchos_transcript": (("session", "elenchos_session"),)}


def open_file(path: str | Path, max_bytes: int, root: str | Path | None = None) -> IO[bytes]:
    """``open_regular`` with every refusal as a one-line ``HarnessError`` naming ``path``."""
    return open_or_refuse(path, max_bytes, HarnessError, root)


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Is ``value`` nested deeper than ``limit`` levels of arrays and objects?"""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list) and child)
    return False


def parse_record(raw: bytes) -> tuple[Any, str | None]:
    """(record, None) or (None, why it is not a JSON object within the limits)."""
    value, problem = parse_json_line(raw)
    if problem is not None:
        return None, problem
    if not isinstance(value, dict):
        return None, f"a record must be a JSON object, not {type(value).__name__}"
    if too_deep(value):
        return None, f"nested deeper than {MAX_DEPTH} levels"
    return value, None


def record_problem(schema: str, record: Any) -> str | None:
    """``field: message`` of the first schema violation of ``record`` (and of its parts), or None."""
    problems = schema_errors(schema, record)
    if problems:
        return f"{problems[0][0]}: {problems[0][1]}"
    for field, part in PART_SCHEMAS.get(schema, ()):
        if field in record:
            problems = schema_errors(part, record[field])
            if problems:
                inner = problems[0][0]
                return f"{field}{'' if inner == '(record)' else '.' + inner}: {problems[0][1]}"
    return None


def check_record(schema: str, record: Any, path: str | Path, line: int | None, record_id: str | None = None) -> None:
    """Raise ``InputError`` (``FILE:LINE [id]: field: message``) if ``record`` violates ``schema``."""
    problem = record_problem(schema, record)
    if problem is not None:
        raise InputError(str(path), line, _short(problem), record_id)


def scored_each(path: str | Path, lines: list[dict[str, Any]], metrics: Callable[[dict[str, Any]], dict[str, Any]]
                ) -> list[dict[str, Any]]:
    """``metrics`` of every (schema-valid) line of the transcript ``path``; a line that still cannot be scored is
    one clear error naming its id, never a traceback."""
    rows = []
    for line in lines:
        try:
            rows.append(metrics(line))
        except Exception as exc:  # a crafted line must end in one clear line
            raise InputError(str(path), None, f"events: cannot be scored ({type(exc).__name__})",
                             line.get("instance_id")) from None
    return rows


def read_json(path: str | Path, schema: str | None = None, max_bytes: int = MAX_RUN_JSON_BYTES) -> dict[str, Any]:
    """One JSON object file (``run.json``), read under the limits and checked against ``schema``."""
    with open_file(path, max_bytes) as f:
        raw = f.read(max_bytes + 1)
    record, problem = parse_record(raw)
    if problem is not None:
        raise InputError(str(path), None, f"(file): {problem}")
    if schema is not None:
        check_record(schema, record, path, None)
    return record


def iter_raw_lines(path: str | Path, max_bytes: int | None = None, max_line: int | None = None) -> Iterator[bytes]:
    """The lines of ``path`` with their ``\\n`` (the last one may lack it); a line over ``max_line`` bytes
    (default ``MAX_LINE_BYTES``) is an ``InputError``."""
    max_bytes = MAX_TRANSCRIPT_BYTES if max_bytes is None else max_bytes
    max_line = MAX_LINE_BYTES if max_line is None else max_line
    with open_file(path, max_bytes) as f:
        lineno = 0
        while True:
            raw = f.readline(max_line + 1)
            if not raw:
                return
            lineno += 1
            if len(raw) > max_line:
                raise InputError(str(path), lineno, f"(line): longer than {max_line} bytes; refusing to read it")
            yield raw


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ------------------------------------------------------------------------------------------------- zip archives
# An inspect ``.eval`` log is a zip archive; its member sizes in the headers are the writer's word, so the members
# are decompressed here, counting the bytes that come out, before inspect reads a byte of them.
MAX_ZIP_MEMBERS = 100_000  # a log holds one member per sample, plus a few (header, summaries, journal)
MAX_ZIP_DIRECTORY_BYTES = 64 << 20  # the central directory (about 100 bytes a member)
MAX_ZIP_MEMBER_BYTES = 1 << 30  # one member, decompressed (one sample's messages, events and store)
MAX_ZIP_TOTAL_BYTES = 8 << 30  # every member together, decompressed
MAX_ZIP_NAME_CHARS = 1024
_EOCD, _EOCD64, _EOCD64_LOCATOR = b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07"
_CHUNK = 1 << 20


def zip_directory(f: IO[bytes]) -> tuple[int, int] | None:
    """(members, central directory bytes) from the end record of the zip archive ``f`` (zip64 included), or None
    when ``f`` is not a zip archive. Read before ``zipfile`` builds one object per member."""
    size = f.seek(0, os.SEEK_END)
    tail_start = max(0, size - (22 + 0xFFFF))
    f.seek(tail_start)
    tail = f.read()
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) - at < 22:
        return None
    members, directory = struct.unpack("<HI", tail[at + 10:at + 16])
    if members != 0xFFFF and directory != 0xFFFFFFFF:
        return members, directory
    locator = tail[at - 20:at] if at >= 20 else b""
    if not locator.startswith(_EOCD64_LOCATOR):
        return members, directory
    f.seek(struct.unpack("<Q", locator[8:16])[0])
    record = f.read(56)
    if len(record) < 56 or not record.startswith(_EOCD64):
        return members, directory
    members64, directory64 = struct.unpack("<QQ", record[32:48])
    return members64, directory64


def check_zip(f: IO[bytes], path: str | Path) -> bool:
    """Refuse (one ``HarnessError`` line naming ``path`` and the member) a zip archive over the limits: too many
    members, a member name that is absolute, has ``..`` or is repeated, a member or the whole decompressing to
    more than ``MAX_ZIP_MEMBER_BYTES`` / ``MAX_ZIP_TOTAL_BYTES`` (counted as they come out, whatever the headers
    say), a member that cannot be read. False when ``f`` is not a zip archive; ``f`` is left at its start."""
    end = zip_directory(f)
    if end is None:
        f.seek(0)
        return False
    members, directory = end
    if members > MAX_ZIP_MEMBERS:
        raise HarnessError(f"{path}: a zip archive of {members} members, more than the limit of {MAX_ZIP_MEMBERS}; "
                           "refusing to read it")
    if directory > MAX_ZIP_DIRECTORY_BYTES:
        raise HarnessError(f"{path}: a zip directory of {directory} bytes, more than the limit of "
                           f"{MAX_ZIP_DIRECTORY_BYTES}; refusing to read it")
    f.seek(0)
    try:
        with zipfile.ZipFile(f) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_ZIP_MEMBERS:
                raise HarnessError(f"{path}: a zip archive of more than {MAX_ZIP_MEMBERS} members; refusing to read it")
            seen: set[str] = set()
            total = 0
            for info in infos:
                _check_member_name(path, info.filename, seen)
                total = _decompressed(archive, info, path, total)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, ValueError, EOFError,
            OSError, zlib.error) as exc:
        raise HarnessError(f"{path}: not a readable zip archive ({_short(str(exc) or type(exc).__name__, 200)}); "
                           "refusing to read it") from None
    f.seek(0)
    return True


def _shown(name: str) -> str:
    return ascii(name if len(name) <= 100 else name[:97] + "...")


def _check_member_name(path: str | Path, name: str, seen: set[str]) -> None:
    parts = name.replace("\\", "/").split("/")
    why = (f"longer than {MAX_ZIP_NAME_CHARS} characters" if len(name) > MAX_ZIP_NAME_CHARS
           else "an absolute path" if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":")
           else "a '..' component" if ".." in parts
           else "a NUL or control character" if any(ord(ch) < 32 for ch in name)
           else "a second member of that name" if name in seen else None)
    if why is not None:
        raise HarnessError(f"{path}: member {_shown(name)}: {why}; refusing to read it")
    seen.add(name)


def _decompressed(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: str | Path, total: int) -> int:
    """``total`` plus the bytes ``info`` decompresses to, read in chunks and refused past either limit."""
    size = 0
    with archive.open(info) as member:
        while chunk := member.read(_CHUNK):
            size += len(chunk)
            total += len(chunk)
            if size > MAX_ZIP_MEMBER_BYTES:
                raise HarnessError(f"{path}: member {_shown(info.filename)}: decompresses to more than "
                                   f"{MAX_ZIP_MEMBER_BYTES} bytes; refusing to read it")
            if total > MAX_ZIP_TOTAL_BYTES:
                raise HarnessError(f"{path}: member {_shown(info.filename)}: the archive decompresses to more "
                                   f"than {MAX_ZIP_TOTAL_BYTES} bytes; refusing to read it")
    return total
