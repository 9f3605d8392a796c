"""The broker's loop-stall watchdog: a WARNING with the loop thread's stack when the loop stands
still, once per stall, and the stall's length when it turns again."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from broker_embedded.loop_watchdog import LoopStallWatchdog


class _HeldLoop:
    """Keeps what was posted instead of running it: a loop that stands still until `turn()`."""

    def __init__(self) -> None:
        self.posted: list[Callable[[], Any]] = []

    def call_soon_threadsafe(self, callback: Callable[[], Any]) -> None:
        self.posted.append(callback)

    def turn(self) -> None:
        posted, self.posted = self.posted, []
        for callback in posted:
            callback()


def test_a_stall_is_reported_once_with_the_stack_and_its_end(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    loop = _HeldLoop()
    dog = LoopStallWatchdog(loop, threading.get_ident(), stall_s=5.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="broker_embedded.loop_watchdog"):
        dog.tick(100.0)  # posts the beat
        assert len(loop.posted) == 1
        dog.tick(104.9)
        assert not caplog.records and dog.stalls == 0
        dog.tick(105.0)  # the beat posted at 100 has not run
        dog.tick(107.0)  # the same stall: not reported again, nothing more posted
        assert dog.stalls == 1 and len(caplog.records) == 1 and len(loop.posted) == 1
        message = caplog.records[0].getMessage()
        assert "has not run for 5.0 s" in message
        # the stack is the loop thread's (here: this test's thread)
        assert "test_a_stall_is_reported_once_with_the_stack_and_its_end" in message
        now[0] = 108.5
        loop.turn()
        assert caplog.records[-1].getMessage().endswith("standing still for 8.5 s")
        dog.tick(109.0)  # a new beat, and a new stall counts again
        dog.tick(114.0)
        assert dog.stalls == 2


def test_a_loop_that_turns_is_never_reported(caplog: pytest.LogCaptureFixture) -> None:
    loop = _HeldLoop()
    dog = LoopStallWatchdog(loop, threading.get_ident(), stall_s=5.0, clock=lambda: 0.0)
    with caplog.at_level(logging.WARNING, logger="broker_embedded.loop_watchdog"):
        for second in range(60):
            dog.tick(float(second))
            loop.turn()
    assert dog.stalls == 0 and not caplog.records


def test_a_real_loop_blocked_by_a_call_is_named(caplog: pytest.LogCaptureFixture) -> None:
    """A real event loop on its own thread, blocked by a synchronous sleep in a callback: the
    warning names the function that blocks it."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    ident: list[int] = []

    def run() -> None:
        ident.append(threading.get_ident())
        loop.call_soon(ready.set)
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(5)
    dog = LoopStallWatchdog(loop, ident[0], stall_s=0.2, interval_s=0.02)

    def blocking_handler() -> None:
        time.sleep(0.6)

    try:
        with caplog.at_level(logging.WARNING, logger="broker_embedded.loop_watchdog"):
            dog.start()
            loop.call_soon_threadsafe(blocking_handler)
            deadline = time.monotonic() + 5
            while not any("runs again" in r.getMessage() for r in caplog.records):
                assert time.monotonic() < deadline, [r.getMessage() for r in caplog.records]
                time.sleep(0.02)
    finally:
        dog.stop()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
    assert dog.stalls == 1
    assert "blocking_handler" in caplog.records[0].getMessage()
