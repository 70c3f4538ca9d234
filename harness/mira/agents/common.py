"""Small pieces the deterministic agents share."""

from __future__ import annotations

import time
from typing import Any

from harness.errors import HarnessError


class SimulatedLatency:
    """``delay_s`` seconds per batched call (one simulated engine call), 0 by default."""

    def __init__(self, options: dict[str, str]):
        try:
            self.delay_s = float(options.pop("delay_s", 0) or 0)
        except ValueError as exc:
            raise HarnessError(f"delay_s must be a number: {exc}") from None

    def wait(self) -> None:
        if self.delay_s > 0:
            time.sleep(self.delay_s)


def reject_unknown_options(agent: str, arg: str | None, options: dict[str, str], takes_arg: bool = False) -> None:
    if arg is not None and not takes_arg:
        raise HarnessError(f"agent {agent!r} takes no ':ARG' (got {arg!r})")
    if options:
        raise HarnessError(f"agent {agent!r}: unknown option(s) {', '.join(sorted(options))}")


def typed_zero(answer_type: str, answer_keys: list[str]) -> dict[str, Any]:
    """The fixed guess: 0 in the instance's answer format."""
    if answer_type == "int":
        return {"value": 0}
    if answer_type == "rational":
        return {"numerator": 0, "denominator": 1}
    return {key: 0 for key in answer_keys}
