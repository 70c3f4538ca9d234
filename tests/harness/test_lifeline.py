"""Issue 16: worker processes never outlive their parent (kill -9 of a run left pool workers blocked forever)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX process semantics")

ROOT = Path(__file__).resolve().parents[2]

POOL_PARENT = textwrap.dedent("""
    import sys, time
    from elenchos.observations import worker_pool

    pool = worker_pool(2)
    futures = [pool.submit(time.sleep, 120) for _ in range(2)]
    time.sleep(1.0)
    print(" ".join(str(pid) for pid in pool._processes), flush=True)
    time.sleep(120)
""")



def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def _kill_parent_and_wait(script: str) -> list[int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        line = parent.stdout.readline()
        workers = [int(p) for p in line.split()]
        assert workers, "the parent printed no worker pids"
        assert all(_alive(p) for p in workers)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.1)
        return [p for p in workers if _alive(p)]
    finally:
        if parent.poll() is None:
            parent.kill()


def test_family_pool_workers_exit_when_the_parent_is_killed() -> None:
    left = _kill_parent_and_wait(POOL_PARENT)
    for pid in left:  # clean up before failing
        os.kill(pid, signal.SIGKILL)
    assert left == []


def test_watch_parent_ends_a_blocked_worker() -> None:
    script = textwrap.dedent("""
        import os, sys, time
        from lambdapy.lifeline import watch_parent

        parent = os.getpid()
        pid = os.fork()
        if pid == 0:
            watch_parent(parent)
            time.sleep(120)  # blocked, as a worker waiting on a pipe
            os._exit(0)
        print(pid, flush=True)
        time.sleep(120)
    """)
    left = _kill_parent_and_wait(script)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []
