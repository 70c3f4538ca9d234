"""Errors the command line reports as one clear message (no traceback) and a non-zero exit code."""

from __future__ import annotations


class HarnessError(Exception):
    """A problem with the user's input or run directory; ``str()`` is the whole message."""

    exit_code = 2


class InputError(HarnessError):
    """A bad dataset or transcript line; the message names the file and the line."""

    def __init__(self, path: str, line: int | None, message: str, record_id: str | None = None):
        where = f"{path}:{line}" if line is not None else path
        rid = f" [{record_id}]" if record_id else ""
        super().__init__(f"{where}{rid}: {message}")
        self.path = path
        self.line = line
        self.record_id = record_id


class InputErrors(HarnessError):
    """Several ``InputError``s found in one pass (all are reported, the first ``limit`` printed)."""

    def __init__(self, errors: list[InputError], limit: int = 5):
        shown = "\n".join(str(e) for e in errors[:limit])
        more = f"\n... and {len(errors) - limit} more" if len(errors) > limit else ""
        super().__init__(f"{len(errors)} problem(s):\n{shown}{more}")
        self.errors = errors


class ConfigMismatch(HarnessError):
    """Resuming a run directory with a different dataset or configuration."""
