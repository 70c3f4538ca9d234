"""Worker processes that never outlive their parent.

A ``kill -9`` of a run leaves its ``ProcessPoolExecutor`` or data-parallel workers blocked on a queue or pipe
forever (they wait for work that will never come). ``watch_parent(pid)``, called first in the worker (as the
pool's ``initializer``, or at the top of the worker function), starts a daemon thread that polls the parent
pid and ends the worker with ``os._exit`` once the parent is gone (the worker is re-parented). Polling rather
than Linux's ``PR_SET_PDEATHSIG``: that signal fires when the *thread* that started the worker exits, which
would kill workers of a pool created from a short-lived thread; polling works on every POSIX system.
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 0.25
EXIT_CODE = 70  # EX_SOFTWARE: the parent died


def watch_parent(parent_pid: int, poll_seconds: float = POLL_SECONDS) -> None:
    """End this process soon after ``parent_pid`` stops being its parent (no-op on Windows)."""
    if os.name != "posix":
        return
    if os.getppid() != parent_pid:  # the parent died before we got here
        os._exit(EXIT_CODE)

    def watch() -> None:
        while True:
            time.sleep(poll_seconds)
            if os.getppid() != parent_pid:
                os._exit(EXIT_CODE)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
