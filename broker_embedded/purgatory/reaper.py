"""Drivers that advance a SystemTimer in real time ("expiration reapers").

``ExpirationReaper`` is the one the broker uses: it lives on the asyncio loop, sleeps with a
single ``call_later`` handle until the timer's next bucket is due, advances the clock, and
re-arms. Expired operations therefore run on the loop thread, where responses are written.
An ``add`` that makes the next deadline earlier re-arms it at once (so a FETCH with a 5 ms
max wait is answered after ~5 ms, not after whatever the reaper was sleeping on); adds from
other threads reach the loop through ``call_soon_threadsafe``.

``ThreadedExpirationReaper`` is the same loop on a plain thread, for code without asyncio.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from .timing_wheel import Timer, TimerTask

log = logging.getLogger(__name__)


class ExpirationReaper:
    """Drives ``timer`` from an asyncio loop.

    ``start()`` must be called on the loop thread (e.g. from the broker's async startup);
    ``stop()`` likewise. ``wake()`` may be called from any thread. While started, the reaper
    installs itself as the timer's executor and expiration listener.
    """

    def __init__(self, timer: Timer, name: str | None = None) -> None:
        self.timer = timer
        self.name = name or f"{getattr(timer, 'name', 'timer')}-reaper"
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._armed_for_ms: int | None = None  # timer deadline the handle is armed for
        self._wake_pending = False
        self._advancing = False
        self._running = False

    @property
    def running(self) -> bool:
        return self._running

    def start(self) -> None:
        if self._running:
            return
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._running = True
        self.timer.set_executor(self._execute)
        self.timer.set_expiration_listener(self.wake)
        self._rearm()

    def stop(self) -> None:
        """Stop driving the timer (pending tasks stay in it; shut the timer down separately)."""
        if not self._running:
            return
        self._running = False
        self.timer.set_expiration_listener(None)
        self.timer.set_executor(None)
        if self._handle is not None:
            self._handle.cancel()
        self._handle = None
        self._armed_for_ms = None

    def wake(self) -> None:
        """Re-read the timer's next deadline and re-arm; safe from any thread."""
        if not self._running:
            return
        if threading.get_ident() == self._loop_thread:
            self._rearm()
            return
        if self._wake_pending:
            return  # coalesce: one hop to the loop re-reads the timer for all pending adds
        self._wake_pending = True
        loop = self._loop
        assert loop is not None
        try:
            loop.call_soon_threadsafe(self._on_wake)
        except RuntimeError:  # loop closed during shutdown
            self._wake_pending = False

    def _on_wake(self) -> None:
        # Clear before reading the timer: an add after this point schedules another wake.
        self._wake_pending = False
        if self._running:
            self._rearm()

    def _rearm(self) -> None:
        next_ms = self.timer.next_expiration_ms()
        if next_ms is None:
            if self._handle is not None:
                self._handle.cancel()
                self._handle = None
                self._armed_for_ms = None
            return
        if self._handle is not None and self._armed_for_ms is not None and self._armed_for_ms <= next_ms:
            return  # already armed early enough
        if self._handle is not None:
            self._handle.cancel()
        loop = self._loop
        assert loop is not None
        # Delay from the timer's own clock (monotonic ms) rather than loop.time(), which
        # may be a different clock (uvloop caches libuv's).
        delay_ms = max(0, next_ms - self.timer.now_ms())
        self._handle = loop.call_later(delay_ms / 1000.0, self._on_timer)
        self._armed_for_ms = next_ms

    def _on_timer(self) -> None:
        self._handle = None
        self._armed_for_ms = None
        if not self._running:
            return
        self._advancing = True
        try:
            self.timer.advance_clock()
        except Exception:
            log.exception("%s: advance_clock failed", self.name)
        finally:
            self._advancing = False
        self._rearm()

    def _execute(self, task: TimerTask) -> None:
        # Inside our own advance_clock (loop thread, no caller to re-enter): run right away.
        # Otherwise an add found the task already due: run it on the loop thread, and never
        # inside the caller of try_complete_else_watch, which may not expect re-entrancy.
        if self._advancing and threading.get_ident() == self._loop_thread:
            # Cleared while the task runs: an add() from inside on_expiration is an ordinary
            # caller again and gets the deferred treatment below.
            self._advancing = False
            try:
                task.run()
            finally:
                self._advancing = True
            return
        loop = self._loop
        assert loop is not None
        if threading.get_ident() == self._loop_thread:
            loop.call_soon(_run_task, task)
        else:
            loop.call_soon_threadsafe(_run_task, task)


def _run_task(task: TimerTask) -> None:
    if task.is_cancelled:
        return
    try:
        task.run()
    except Exception:
        log.exception("expired task %r failed", task)


class ThreadedExpirationReaper:
    """Drives ``timer`` from a daemon thread; due tasks run on that thread."""

    def __init__(self, timer: Timer, name: str | None = None, max_wait_ms: int = 200) -> None:
        self.timer = timer
        self.name = name or f"{getattr(timer, 'name', 'timer')}-reaper"
        self.max_wait_ms = max_wait_ms
        self._event = threading.Event()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        self.timer.set_expiration_listener(self.wake)
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._event.set()

    def stop(self, timeout: float | None = 5.0) -> None:
        self._stopped.set()
        self._event.set()
        self.timer.set_expiration_listener(None)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                self.timer.advance_clock()
            except Exception:
                log.exception("%s: advance_clock failed", self.name)
            next_ms = self.timer.next_expiration_ms()
            wait_ms = self.max_wait_ms
            if next_ms is not None:
                wait_ms = min(wait_ms, max(0, next_ms - self.timer.now_ms()))
            # A wake() that lands between wait() returning and clear() is not lost: the next
            # iteration re-reads the timer before sleeping again.
            self._event.wait(wait_ms / 1000.0)
            self._event.clear()
