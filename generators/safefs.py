"""Files from elsewhere: writes that never go through a link, one writer per folder, reads that stay inside.

Run folders, exports and logs travel between people, so nothing in them is trusted. Three rules, one module:

* **Writes** create a new file beside the target (``O_CREAT | O_EXCL | O_NOFOLLOW``, a unique name), fsync it
  and rename it over the target: a link planted at the target or at a temp name is replaced, never followed.
* **One writer**: ``FolderLock`` holds an advisory ``flock`` on ``FOLDER/.lock`` for the life of the process;
  the kernel releases it when the process dies (``kill -9`` included). A second writer gets ``FolderBusy``
  naming the holder's pid.
* **Reads** of a file named by something inside a folder resolve the name, require it to stay inside the
  folder, open only regular files without following a final link, and check the size before reading.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

LOCK_NAME = ".lock"


class UnsafePath(ValueError):
    """A path that leaves its folder, is a link, is not a regular file or is too large."""


class FolderBusy(RuntimeError):
    """Another process holds the folder's writer lock."""

    def __init__(self, folder: Path, pid: str) -> None:
        self.folder, self.pid = folder, pid
        holder = f"process {pid}" if pid else "another process"
        super().__init__(f"{folder}: in use by {holder} (one writer per folder); wait for it or use another folder")


# ------------------------------------------------------------------ writing
@contextlib.contextmanager
def atomic_writer(path: str | Path, mode: str = "w") -> Iterator[IO]:
    """Yield a file object on a new temp file beside ``path``; on success fsync and rename it over ``path``.

    On any exception the temp file is removed and an existing ``path`` is left as it was. ``mode`` is
    ``"w"`` (UTF-8 text, ``\\n`` newlines) or ``"wb"``.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if mode == "wb":
            f = os.fdopen(fd, "wb")
        else:
            f = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` by create-new-then-rename (text is UTF-8)."""
    with atomic_writer(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


# ------------------------------------------------------------------ one writer per folder
class FolderLock:
    """An advisory exclusive lock on ``FOLDER/.lock``, held until ``release`` or the process ends.

    Use as a context manager or call ``acquire``/``release``. The lock file holds the holder's pid so that a
    refused second writer can name it.
    """

    def __init__(self, folder: str | Path, name: str = LOCK_NAME) -> None:
        self.folder = Path(folder)
        self.name = name  # another name locks something beside the folder (an export folder renamed into place)
        self._fd: int | None = None

    def acquire(self) -> FolderLock:
        # A lock file removed (with an empty folder made only for a run that never started) between our open and
        # our flock would leave us holding a lock nobody else can see: lock again until the file we hold is the
        # one at the path.
        for _ in range(5):
            fd = self._lock_once()
            if _same_file(fd, self.folder / self.name):
                break
            os.close(fd)
        else:
            raise FolderBusy(self.folder, "")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def _lock_once(self) -> int:
        path = self.folder / self.name
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise UnsafePath(f"{path}: not a regular file")
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            raise FolderBusy(self.folder, pid if pid.isdigit() else "") from None
        except BaseException:
            os.close(fd)
            raise
        return fd

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing drops the flock
            self._fd = None

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _same_file(fd: int, path: Path) -> bool:
    try:
        here = os.lstat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (here.st_dev, here.st_ino)


# ------------------------------------------------------------------ reading inside a folder
def inside(root: str | Path, name: str | Path) -> Path:
    """``root / name`` resolved; ``UnsafePath`` if it leaves ``root`` (``..``, an absolute name, a link out)."""
    base = Path(root).resolve()
    target = (base / name).resolve()
    if target != base and base not in target.parents:
        raise UnsafePath(f"{name}: outside {root}")
    return target


def open_regular(path: str | Path, max_bytes: int, root: str | Path | None = None) -> IO[bytes]:
    """Open ``path`` for binary reading: a regular file, not a link, at most ``max_bytes`` (and inside ``root``).

    The checks are made on the open descriptor, so a file swapped after the check is still refused.
    """
    path = Path(path)
    if root is not None:
        inside(root, path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the final component is a link
            raise UnsafePath(f"{path}: is a symbolic link") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafePath(f"{path}: not a regular file")
        if st.st_size > max_bytes:
            raise UnsafePath(f"{path}: {st.st_size} bytes, more than the limit of {max_bytes}")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_or_refuse(path: str | Path, max_bytes: int, error: type[Exception], root: str | Path | None = None,
                   name: str | None = None) -> IO[bytes]:
    """``open_regular`` with every refusal as one line of ``error`` naming the file (``name``, else ``path``):
    ``NAME: why; refusing to read it`` (a link, not a regular file, too large, outside ``root``), ``NAME: missing``,
    ``NAME: cannot read (why)``. The readers of run folders and of export folders raise their own error types."""
    shown = str(path) if name is None else name
    try:
        return open_regular(path, max_bytes, root)
    except UnsafePath as exc:
        raise error(f"{shown}: {str(exc).removeprefix(str(Path(path)) + ': ')}; refusing to read it") from None
    except FileNotFoundError:
        raise error(f"{shown}: missing") from None
    except OSError as exc:
        raise error(f"{shown}: cannot read ({exc.strerror or exc})") from None
