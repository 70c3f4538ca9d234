"""Bounds on generation work, checked before any work starts (issue 25).

Generation streams to disk, so memory does not grow with the count; these bounds keep the time sane and
turn a mistyped count (``--n 1000000000``) into one line instead of hours of work.
"""

from __future__ import annotations

import os
import sys

MAX_INSTANCES = 1_000_000  # instances of one generated file (MIRA-Math) or rows of one exported config
# Elenchos sessions per (level, set), for generation, exports and runs alike: 69,000 Ladder sessions at most.
MAX_REPETITIONS = 1_000
REPETITIONS_RULE = f"must be 1 to {MAX_REPETITIONS:,} (sessions per set and level; the papers use 5)"


def repetitions_problem(value: object, name: str = "--repetitions") -> str | None:
    """``NAME VALUE: must be 1 to 1,000 (...)`` when ``value`` is not a repetitions count within the limit, else
    None (the one wording of every reader of a repetitions count)."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_REPETITIONS:
        return None
    return f"{name} {value}: {REPETITIONS_RULE}"


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
