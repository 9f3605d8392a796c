"""Warn when the broker's event loop stops turning.

Every request, timer and replica fetch of a broker runs on one event loop: a call that blocks it
(a lock held across a slow fsync, a stuck system call, a C extension holding the GIL) freezes the
whole broker, and clients only see their requests time out. A daemon thread posts a no-op to the
loop every `interval_s`; when one has not run `stall_s` after it was posted, the watchdog logs a
WARNING with the loop thread's stack as it is at that moment, once per stall, and when the loop
turns again, how long it stood still. The decision (`tick`) takes the time as an argument, so it
is tested without waiting.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)


class _Loop(Protocol):
    def call_soon_threadsafe(self, callback: Callable[[], Any]) -> Any: ...


class LoopStallWatchdog:
    def __init__(
        self,
        loop: _Loop,
        loop_thread_id: int,
        stall_s: float = 5.0,
        interval_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.loop = loop
        self.loop_thread_id = loop_thread_id
        self.stall_s = stall_s
        self.interval_s = interval_s
        self.clock = clock
        self.stalls = 0  # stalls reported since start
        self._lock = threading.Lock()
        self._posted_at: float | None = None  # when the beat not yet run was posted
        self._reported = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self, now: float) -> None:
        """Post a beat if none is pending; report a stall if the pending one is `stall_s` old."""
        with self._lock:
            if self._posted_at is None:
                self._posted_at = now
                post = True
            else:
                post = False
                waited = now - self._posted_at
                if self._reported or waited < self.stall_s:
                    return
                self._reported = True
                self.stalls += 1
        if post:
            try:
                self.loop.call_soon_threadsafe(self._beat)
            except RuntimeError:  # the loop closed under us: the broker is stopping
                self._stop.set()
            return
        frame = sys._current_frames().get(self.loop_thread_id)
        stack = "".join(traceback.format_stack(frame)) if frame is not None else "(the loop thread is gone)\n"
        log.warning(
            "the broker's event loop has not run for %.1f s: no request, timer or fetch is served; "
            "its thread is at:\n%s",
            waited,
            stack.rstrip(),
        )

    def _beat(self) -> None:
        now = self.clock()
        with self._lock:
            posted, reported = self._posted_at, self._reported
            self._posted_at = None
            self._reported = False
        if reported and posted is not None:
            log.warning("the broker's event loop runs again after standing still for %.1f s", now - posted)

    def start(self) -> None:
        def run() -> None:
            while not self._stop.wait(self.interval_s):
                self.tick(self.clock())

        self._thread = threading.Thread(target=run, name="pykafka-loop-watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None
