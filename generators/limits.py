"""Bounds on generation work, checked before any work starts (issue 25).

Generation streams to disk, so memory does not grow with the count; these bounds keep the time sane and
turn a mistyped count (``--n 1000000000``) into one line instead of hours of work.
"""

from __future__ import annotations

import os
import sys

MAX_INSTANCES = 1_000_000  # instances of one generated file (MIRA-Math) or rows of one exported config


def available_cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cap_jobs(requested: int | None, flag: str = "--jobs") -> int | None:
    """``requested`` worker processes, at most the CPUs this process may use (a note on stderr when capped)."""
    if requested is None:
        return None
    cpus = available_cpus()
    if requested > cpus:
        print(f"note: {flag} {requested} capped to {cpus} (the CPUs available here; the output is the same)",
              file=sys.stderr)
        return cpus
    return requested
