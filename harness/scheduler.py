"""A benchmark-agnostic batched scheduler for multi-turn episodes.

Each instance is an *episode*: a small state machine that, at any moment, either waits for one agent
role (``Pending(role, payload)``) or is finished. A *step* serves the roles in a fixed order; for each
role it collects the payloads of every active episode waiting on that role and makes **one** batched
call to that role's handler, then delivers the replies. So a MIRA step is one solver call for all
pending solver turns followed by one responder call for all the requests they produced; a run makes a
number of calls proportional to the number of turns, not to instances x turns.

Episodes run ``max_concurrent`` at a time (all at once by default), in input order, so the batches and
therefore the results are deterministic. Finished episodes are handed to ``on_finished`` once per step
(the run directory writes and fsyncs them there, before the next engine call).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Pending:
    role: str
    payload: Any


class Episode(Protocol):
    def pending(self) -> Pending | None:
        """What the episode waits for now; ``None`` once it is finished. Cheap and idempotent."""

    def deliver(self, role: str, reply: Any) -> None:
        """Advance the state machine with one agent reply. Should it raise, the scheduler calls the episode's
        ``fail(message)`` (if it has one), which must finish it as ``internal_error``; the run goes on."""


BatchHandler = Callable[[list[Any]], list[Any]]


@dataclass
class RoleStats:
    calls: int = 0
    items: int = 0
    max_batch: int = 0
    seconds: float = 0.0

    def add(self, batch: int, seconds: float) -> None:
        self.calls += 1
        self.items += batch
        self.max_batch = max(self.max_batch, batch)
        self.seconds += seconds

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["seconds"] = round(self.seconds, 3)
        return out


@dataclass
class SchedulerStats:
    steps: int
    roles: dict[str, RoleStats]

    def as_dict(self) -> dict[str, Any]:
        return {
            "steps": self.steps,
            "engine_calls": sum(r.calls for r in self.roles.values()),
            "by_role": {name: r.as_dict() for name, r in self.roles.items()},
        }


class SchedulerError(RuntimeError):
    """An agent broke the batch contract (wrong number of replies) or an episode asked for no known role."""


def run_episodes(
    episodes: Iterable[Episode],
    handlers: Mapping[str, BatchHandler],
    role_order: Sequence[str],
    on_finished: Callable[[list[Episode]], None],
    max_concurrent: int | None = None,
) -> SchedulerStats:
    """Advance all episodes to the end; return call statistics per role."""
    stats = SchedulerStats(0, {role: RoleStats() for role in role_order})
    source = iter(episodes)
    with frozen_heap():
        active: list[Episode] = _take(source, max_concurrent)
        while active:
            stats.steps += 1
            for role in role_order:
                _serve(role, active, handlers, stats.roles[role])
            finished = [ep for ep in active if ep.pending() is None]
            if finished:
                on_finished(finished)
            active = [ep for ep in active if ep.pending() is not None]
            _check_roles(active, role_order)
            if max_concurrent is None or len(active) < max_concurrent:
                active.extend(_take(source, None if max_concurrent is None else max_concurrent - len(active)))
    return stats


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Leave what is already loaded (datasets, models, tokenizers) out of cyclic garbage collection while the loop
    runs. Collections otherwise rescan that heap every few thousand allocations, which cost the transformers
    backend about 8% of its batched run time (vLLM freezes its heap after start-up for the same reason). One
    collection first, so that garbage is not frozen and freed later at an unpredictable moment."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _serve(role: str, active: list[Episode], handlers: Mapping[str, BatchHandler], stats: RoleStats) -> None:
    waiting: list[tuple[Episode, Any]] = []
    for ep in active:
        pending = ep.pending()
        if pending is not None and pending.role == role:
            waiting.append((ep, pending.payload))
    if not waiting:
        return
    started = time.perf_counter()
    replies = handlers[role]([payload for _, payload in waiting])
    stats.add(len(waiting), time.perf_counter() - started)
    if len(replies) != len(waiting):
        raise SchedulerError(f"{role} agent returned {len(replies)} replies for a batch of {len(waiting)}")
    for (ep, _), reply in zip(waiting, replies, strict=True):
        try:
            ep.deliver(role, reply)
        except Exception as exc:  # one bad reply must not end the run: record it on its episode
            fail_episode(ep, f"{role} reply", exc)


def fail_episode(ep: Episode, where: str, exc: BaseException) -> None:
    """End ``ep`` as ``internal_error`` (its ``fail(message)``); an episode without ``fail`` re-raises."""
    fail = getattr(ep, "fail", None)
    if fail is None:
        raise exc
    fail(internal_error_message(where, exc))


def internal_error_message(where: str, exc: BaseException) -> str:
    text = f"internal error while handling the {where}: {type(exc).__name__}: {exc}"
    return text if len(text) <= 500 else text[:497] + "..."


def _check_roles(active: list[Episode], role_order: Sequence[str]) -> None:
    for ep in active:
        pending = ep.pending()
        if pending is not None and pending.role not in role_order:
            raise SchedulerError(f"episode waits for unknown role {pending.role!r}")


def _take(source: Iterator[Episode], n: int | None) -> list[Episode]:
    out: list[Episode] = []
    for ep in source:
        out.append(ep)
        if n is not None and len(out) >= n:
            break
    return out
