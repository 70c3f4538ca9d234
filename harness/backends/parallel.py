"""Data parallelism: N copies of an engine in worker processes, each batch split across them.

For users who outgrow one GPU: ``data_parallel_size=N`` (vLLM) starts N spawned workers, gives worker r the
GPUs ``devices[r*tp:(r+1)*tp]`` (``CUDA_VISIBLE_DEVICES`` set before the worker imports anything), sends
each one a contiguous shard of the batch and concatenates the answers in order. Every worker gets the same
decoding settings; with greedy decoding the results match one engine up to the batch-composition effects
that any batched engine has.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import traceback
from typing import Any

from harness.backends.base import BackendError, ChatRequest, Completion, Decoding, Engine
from lambdapy.lifeline import watch_parent


def _worker(conn: Any, target: str, model: str, kwargs: dict[str, Any], env: dict[str, str],
            parent_pid: int | None = None) -> None:
    if parent_pid is not None:
        watch_parent(parent_pid)  # a killed run leaves no GPU-holding orphans
    os.environ.update(env)
    try:
        module_name, _, attr = target.partition(":")
        engine = getattr(importlib.import_module(module_name), attr)(model, **kwargs)
        conn.send(("ready", engine.describe(), engine.supports_schema))
    except BaseException as exc:  # report, then exit: the parent raises
        conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}", False))
        return
    while True:
        message = conn.recv()
        if message is None:
            break
        requests, decoding = message
        try:
            conn.send(("ok", engine.generate(requests, decoding)))
        except BaseException as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
    engine.close()


def shards(n_items: int, n_parts: int) -> list[range]:
    """Contiguous, balanced index ranges (the first ones one longer)."""
    size, extra = divmod(n_items, n_parts)
    out, start = [], 0
    for part in range(n_parts):
        end = start + size + (1 if part < extra else 0)
        out.append(range(start, end))
        start = end
    return out


class DataParallelEngine(Engine):
    def __init__(self, backend: str, model: str, target: str, kwargs: dict[str, Any], size: int,
                 devices_per_worker: int = 1, devices: list[str] | None = None):
        super().__init__(model)
        self.backend = backend
        self.size = size
        ctx = multiprocessing.get_context("spawn")
        self._workers: list[tuple[Any, Any]] = []
        for rank in range(size):
            env = {}
            if devices:
                mine = devices[rank * devices_per_worker:(rank + 1) * devices_per_worker]
                if len(mine) < devices_per_worker:
                    self.close()
                    raise BackendError(f"data parallelism: {size} workers x {devices_per_worker} device(s) need "
                                       f"{size * devices_per_worker} devices, only {len(devices)} visible")
                env["CUDA_VISIBLE_DEVICES"] = ",".join(mine)
            parent, child = ctx.Pipe()
            process = ctx.Process(target=_worker, args=(child, target, model, kwargs, env, os.getpid()),
                                  daemon=True)
            process.start()
            self._workers.append((parent, process))
        described = []
        for parent, _ in self._workers:
            status, info, schema = parent.recv()
            if status != "ready":
                self.close()
                raise BackendError(f"data-parallel worker failed to start: {info}")
            described.append(info)
            self.supports_schema = schema
        self._inner = described[0]

    def describe(self) -> dict[str, Any]:
        return {**self._inner, "data_parallel_size": self.size}

    def _generate(self, requests: list[ChatRequest], decoding: Decoding) -> list[Completion]:
        parts = shards(len(requests), self.size)
        busy = []
        for (conn, _), part in zip(self._workers, parts, strict=True):
            if len(part):
                conn.send(([requests[i] for i in part], decoding))
                busy.append(conn)
        out: list[Completion] = []
        errors = []
        for conn in busy:
            status, payload = conn.recv()
            if status == "ok":
                out.extend(payload)
            else:
                errors.append(payload)
        if errors:
            raise BackendError(f"data-parallel worker failed: {errors[0]}")
        return out

    def close(self) -> None:
        for conn, process in getattr(self, "_workers", []):
            with contextlib.suppress(OSError, ValueError):
                conn.send(None)
            process.join(timeout=30)
            if process.is_alive():
                process.terminate()
        self._workers = []


def visible_devices() -> list[str]:
    """GPU ids the workers may use: ``CUDA_VISIBLE_DEVICES`` or every device torch sees."""
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env:
        return [d.strip() for d in env.split(",") if d.strip()]
    try:
        import torch

        return [str(i) for i in range(torch.cuda.device_count())]
    except ImportError:
        return []
