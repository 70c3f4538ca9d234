"""Stamps of passed verifications, so that ``publish`` does not regenerate an export that ``verify`` just checked.

A stamp is a small JSON file in this user's cache (``$MIRA_ELENCHOS_CACHE``, else ``$XDG_CACHE_HOME/mira-elenchos``,
else ``~/.cache/mira-elenchos``; folder mode 0700), named by a key, never inside the export. The key is the sha256 of

* the export's bytes as they are now: every file's path and the sha256 of its content, read from the folder (not
  the claims of its ``CHECKSUMS``: a folder that copies a verified export's ``CHECKSUMS`` next to other bytes
  gets another key), ``CHECKSUMS`` itself included;
* the code that verified: every file under ``builder.export.CODE_PATHS`` (generators, verifiers, schemas, the
  card template ...) and the versions of Python and of the libraries the rows go through;
* the card template the README was compared with.

So a stamp says "these exact bytes passed a full verification by this exact code". A folder from elsewhere cannot
bring one (stamps never live in an export), and one changed byte, one edited source file or another card makes
another key, and a full verification. The key is computed before and after verifying, and a stamp is written
only when both agree (the folder did not change meanwhile). Anyone who can write into the cache folder can
forge a stamp, as they could replace the code itself; ``publish --no-reuse`` ignores stamps.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from builder import untrusted
from builder.export import CODE_PATHS, DEFAULT_CARD, REPO_ROOT
from generators.jsonl import sha256_file
from generators.safefs import UnsafePath, atomic_write, open_regular

STAMP_FORMAT = "mira-elenchos-verify-stamp/1"
LIBRARIES = ("pyarrow", "datasets", "jsonschema", "lark", "sympy")
MAX_STAMP_BYTES = 1 << 20


def cache_dir() -> Path:
    explicit = os.environ.get("MIRA_ELENCHOS_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mira-elenchos"


def _stamps() -> Path:
    return cache_dir() / "verified"


def _files_digest(root: Path, names: Iterable[str]) -> str:
    """The digest of the folder's files as read now, each read inside the folder only (``builder.untrusted``)."""
    return _listing_digest({name: untrusted.sha256_of(root, name) for name in names})


def file_digests(folder: str | Path) -> dict[str, str]:
    """The sha256 of every file of the export as read now (``builder.untrusted``: inside, regular, bounded)."""
    folder = Path(folder)
    return {name: untrusted.sha256_of(folder, name) for name in untrusted.data_files(folder)}


def _listing_digest(digests: Mapping[str, str]) -> str:
    h = hashlib.sha256()
    for name, digest in digests.items():
        h.update(f"{digest}  {name}\n".encode())
    return h.hexdigest()


@cache  # the code a process runs does not change while it runs; stamp_key is asked twice per verify
def code_fingerprint() -> str:
    """sha256 of the generation and verification code and of the library versions it runs on."""
    names = []
    for top in CODE_PATHS:
        path = REPO_ROOT / top
        if path.is_file():
            names.append(top)
        elif path.is_dir():
            names += sorted(p.relative_to(REPO_ROOT).as_posix() for p in path.rglob("*")
                            if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith("."))
    versions = {"python": sys.version}
    for lib in LIBRARIES:
        try:
            versions[lib] = importlib.metadata.version(lib)
        except importlib.metadata.PackageNotFoundError:
            versions[lib] = None
    return hashlib.sha256((_files_digest(REPO_ROOT, names) + json.dumps(versions, sort_keys=True)).encode()).hexdigest()


def stamp_key(folder: str | Path, card: str | Path | None = None, digests: Mapping[str, str] | None = None) -> str:
    """The key of a full verification of ``folder`` as it is now (or as ``file_digests`` read it), by this code,
    against ``card``."""
    folder = Path(folder)
    card_path = Path(card) if card else DEFAULT_CARD
    parts = {
        "format": STAMP_FORMAT,
        "export": _listing_digest(file_digests(folder) if digests is None else digests),
        "code": code_fingerprint(),
        "card": sha256_file(card_path) if card_path.is_file() else None,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def save_stamp(key: str, folder: str | Path, notes: list[str]) -> Path:
    """Record that the export with ``key`` passed a full verification (with these notes)."""
    stamps = _stamps()
    stamps.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = stamps / f"{key}.json"
    atomic_write(path, json.dumps({"format": STAMP_FORMAT, "key": key, "folder": str(Path(folder).resolve()),
                                   "notes": notes}, indent=2) + "\n")
    return path


def load_stamp(key: str) -> dict[str, Any] | None:
    """The stamp of ``key``, or None (none, unreadable, or not a stamp of that key)."""
    path = _stamps() / f"{key}.json"
    try:
        with open_regular(path, MAX_STAMP_BYTES, root=_stamps()) as f:
            stamp = json.loads(f.read().decode("utf-8"))
    except (OSError, UnsafePath, ValueError):
        return None
    ok = isinstance(stamp, dict) and stamp.get("format") == STAMP_FORMAT and stamp.get("key") == key
    return stamp if ok and isinstance(stamp.get("notes"), list) else None
