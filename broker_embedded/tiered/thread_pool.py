"""A fixed pool of daemon threads; the RemoteLogManager runs three (partition tasks, copies, remote reads)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any


class DaemonPool:
    """A fixed pool of daemon threads: a remote call that never returns cannot hold up shutdown."""

    def __init__(self, size: int, name: str) -> None:
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]] | None] = (
            queue.SimpleQueue()
        )
        self._threads = [
            threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(max(1, size))
        ]
        self._lock = threading.Lock()
        self.pending = 0  # submitted and not finished (queued or running)
        for t in self._threads:
            t.start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        with self._lock:
            self.pending += 1
        self._queue.put((fut, fn, args))
        return fut

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            fut, fn, args = item
            try:
                if fut.set_running_or_notify_cancel():
                    try:
                        fut.set_result(fn(*args))
                    except BaseException as e:  # handed to the waiter
                        fut.set_exception(e)
            finally:
                with self._lock:
                    self.pending -= 1

    def shutdown(self) -> None:
        for _ in self._threads:
            self._queue.put(None)


__all__ = ["DaemonPool"]
