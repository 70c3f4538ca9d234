"""The diagnostic tuple of one probe and the divergence summary of two.

``Observation`` is the paper's tuple (sigma, result, epsilon):

* ``sigma``: ``"accept"`` or ``"reject"``;
* ``result``: for an accepted probe, the normal form and its type,
  ``"Succ Zero : Nat"``; ``None`` otherwise;
* ``epsilon``: for a rejected probe, ``(category, message)``; ``None`` otherwise.
  Its agent-facing text is ``"category: message"``.

``diff(a, b)`` returns one of the paper's five strings::

    identical
    both reject with same error
    result divergence: A=<result A>, B=<result B>
    sigma divergence: A=accept, B=reject          (or A=reject, B=accept)
    error divergence: A=<epsilon A>, B=<epsilon B>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ACCEPT = "accept"
REJECT = "reject"


@dataclass(frozen=True, slots=True)
class Observation:
    sigma: str
    result: str | None = None
    epsilon: tuple[str, str] | None = None

    @classmethod
    def accepted(cls, result: str) -> Observation:
        return cls(ACCEPT, result, None)

    @classmethod
    def rejected(cls, category: str, message: str) -> Observation:
        return cls(REJECT, None, (category, message))

    @property
    def epsilon_text(self) -> str | None:
        if self.epsilon is None:
            return None
        category, message = self.epsilon
        return f"{category}: {message}"

    def to_json(self) -> dict[str, Any]:
        """``{"sigma": ..., "result": ..., "epsilon": "category: message" | None}``."""
        return {"sigma": self.sigma, "result": self.result, "epsilon": self.epsilon_text}

    def __str__(self) -> str:
        return self.result if self.sigma == ACCEPT else f"rejected: {self.epsilon_text}"


def diff(a: Observation, b: Observation) -> str:
    """The divergence summary of kernel A's and kernel B's observations of one probe."""
    if a.sigma != b.sigma:
        return f"sigma divergence: A={a.sigma}, B={b.sigma}"
    if a.sigma == ACCEPT:
        return "identical" if a.result == b.result else f"result divergence: A={a.result}, B={b.result}"
    if a.epsilon == b.epsilon:
        return "both reject with same error"
    return f"error divergence: A={a.epsilon_text}, B={b.epsilon_text}"
