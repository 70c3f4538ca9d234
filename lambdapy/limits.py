"""Resource limits: a hostile probe can neither hang nor crash the kernel.

``Limits`` is the (frozen) policy; ``Budget`` is the mutable allowance of one
probe.  Evaluation, quotation, substitution, conversion and type checking all
spend *steps* (fuel) and track their nesting *depth*; both are deterministic, so
a probe that runs out of fuel does so on every machine.  The wall-clock limit is
only a backstop and is checked every ``CLOCK_EVERY`` steps.

Every limit hit raises ``LimitExceeded`` (category ``resource_limit``) and the
kernel rolls the whole probe back.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from .errors import LimitExceeded

CLOCK_EVERY = 1024  # must be a power of two


@dataclass(frozen=True, slots=True)
class Limits:
    max_probe_chars: int = 20_000  # characters in one probe
    max_term_depth: int = 1_000  # nesting of a parsed term (parentheses, arrows, applications)
    max_steps: int = 100_000  # fuel for one probe (the library uses < 1,000; a 5,120 numeral 56,000)
    max_depth: int = 2_000  # nesting of evaluation / quotation / conversion
    time_limit_s: float = 0.8  # wall-clock backstop for one probe (deterministic limits come first)
    max_result_chars: int = 100_000  # length of the printed result

    def python_recursion_limit(self) -> int:
        """A recursion limit comfortably above what the depth limits allow."""
        return 20_000 + 8 * (self.max_term_depth + self.max_depth)


class Budget:
    """Fuel, depth counter and deadline of one probe."""

    __slots__ = ("deadline", "depth", "limits", "max_depth", "steps")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.steps = limits.max_steps
        self.depth = 0
        self.max_depth = limits.max_depth
        self.deadline = time.perf_counter() + limits.time_limit_s

    def tick(self) -> None:
        """Spend one step."""
        self.steps -= 1
        if self.steps & (CLOCK_EVERY - 1) == 0:
            self.checkpoint()

    def checkpoint(self) -> None:
        """Raise ``LimitExceeded`` if any limit is exhausted."""
        if self.depth > self.max_depth:
            raise LimitExceeded(f"nesting depth limit exceeded ({self.max_depth} levels)")
        if self.steps <= 0:
            raise LimitExceeded(f"step limit exceeded ({self.limits.max_steps} steps)")
        if time.perf_counter() > self.deadline:
            raise LimitExceeded(f"time limit exceeded ({self.limits.time_limit_s:g} s)")


def ensure_recursion_limit(limits: Limits) -> None:
    """Raise Python's recursion limit so that our own depth limits trigger first."""
    wanted = limits.python_recursion_limit()
    if sys.getrecursionlimit() < wanted:
        sys.setrecursionlimit(wanted)
