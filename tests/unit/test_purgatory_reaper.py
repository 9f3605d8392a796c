"""ExpirationReaper (asyncio) and ThreadedExpirationReaper, on the real monotonic clock."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from broker_embedded.purgatory import (
    DelayedOperationPurgatory,
    ExpirationReaper,
    SystemTimer,
    ThreadedExpirationReaper,
)
from tests.unit.test_purgatory import DelayedCallback

try:
    import uvloop
except ImportError:  # pragma: no cover - uvloop is optional (not on Windows)
    uvloop = None  # type: ignore[assignment]

LOOPS = ["asyncio"] + (["uvloop"] if uvloop is not None else [])


def run_on(loop_kind: str, main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    if loop_kind == "uvloop":
        assert uvloop is not None
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(main())
    else:
        asyncio.run(main())


class TimedCallback(DelayedCallback):
    """Records when (monotonic) and on which thread it expired, and wakes a waiter."""

    def __init__(self, delay_ms: int) -> None:
        super().__init__(delay_ms)
        self.started = time.monotonic()
        self.expired_at: float | None = None
        self.done = asyncio.Event()

    def on_expiration(self) -> None:
        super().on_expiration()
        self.expired_at = time.monotonic()
        self.done.set()  # on the loop thread: plain Event.set is fine

    @property
    def elapsed_ms(self) -> float:
        assert self.expired_at is not None
        return (self.expired_at - self.started) * 1000


def new_purgatory() -> tuple[DelayedOperationPurgatory[DelayedCallback], ExpirationReaper]:
    timer = SystemTimer(name="fetch")
    return DelayedOperationPurgatory("fetch", timer), ExpirationReaper(timer)


@pytest.mark.parametrize("loop_kind", LOOPS)
def test_20ms_operation_expires_on_time_on_the_loop_thread(loop_kind: str) -> None:
    async def main() -> None:
        purgatory, reaper = new_purgatory()
        reaper.start()
        op = TimedCallback(20)
        purgatory.try_complete_else_watch(op, [("fetch", "t", 0)])
        await asyncio.wait_for(op.done.wait(), 2)
        print(f"\n{loop_kind}: 20 ms operation expired after {op.elapsed_ms:.1f} ms")
        assert 19 <= op.elapsed_ms < 60
        assert op.expiration_threads == [threading.get_ident()]
        assert purgatory.num_delayed == 0
        reaper.stop()
        purgatory.shutdown()

    run_on(loop_kind, main)


@pytest.mark.parametrize("loop_kind", LOOPS)
def test_earlier_deadline_added_later_rearms(loop_kind: str) -> None:
    async def main() -> None:
        purgatory, reaper = new_purgatory()
        reaper.start()
        late = TimedCallback(1000)
        purgatory.try_complete_else_watch(late, ["k"])
        await asyncio.sleep(0.005)  # the reaper is now sleeping towards ~1 s
        early = TimedCallback(20)
        purgatory.try_complete_else_watch(early, ["k"])
        await asyncio.wait_for(early.done.wait(), 2)
        print(f"\n{loop_kind}: early op expired after {early.elapsed_ms:.1f} ms")
        assert 19 <= early.elapsed_ms < 60
        assert not late.is_completed
        # Completing the late one via its key removes it from the timer; nothing else fires.
        late.condition = lambda: True
        assert purgatory.check_and_complete("k") == 1
        assert late.expiration_calls == 0
        assert purgatory.timer.size == 0
        reaper.stop()
        purgatory.shutdown()

    run_on(loop_kind, main)


@pytest.mark.parametrize("loop_kind", LOOPS)
def test_adds_from_other_threads_expire_on_the_loop_thread(loop_kind: str) -> None:
    async def main() -> None:
        purgatory, reaper = new_purgatory()
        reaper.start()
        late = TimedCallback(5000)
        purgatory.try_complete_else_watch(late, ["k"])
        ops = [TimedCallback(delay) for delay in (0, 10, 30)]

        def producer() -> None:
            for op in ops:
                purgatory.try_complete_else_watch(op, ["k"])

        worker = threading.Thread(target=producer)
        worker.start()
        await asyncio.wait_for(asyncio.gather(*(op.done.wait() for op in ops)), 2)
        worker.join()
        loop_thread = threading.get_ident()
        for op in ops:
            # Even the already-expired (0 ms) one must not run on the adding thread.
            assert op.expiration_threads == [loop_thread]
            assert op.complete_threads == [loop_thread]
        print(f"\n{loop_kind}: cross-thread elapsed ms {[round(op.elapsed_ms, 1) for op in ops]}")
        assert ops[1].elapsed_ms < 60 and ops[2].elapsed_ms < 80
        assert not late.is_completed
        reaper.stop()
        purgatory.shutdown()

    run_on(loop_kind, main)


def test_many_operations_expire_in_order_with_bounded_lateness() -> None:
    async def main() -> None:
        purgatory, reaper = new_purgatory()
        reaper.start()
        ops = [TimedCallback(delay) for delay in range(5, 105, 5)]
        for op in reversed(ops):  # each add lowers the head: re-arm every time
            purgatory.try_complete_else_watch(op, [("p", op.delay_ms % 3)])
        await asyncio.wait_for(asyncio.gather(*(op.done.wait() for op in ops)), 2)
        lateness = [op.elapsed_ms - op.delay_ms for op in ops]
        print(f"\nlateness ms: max {max(lateness):.1f}")
        assert min(lateness) > -1
        assert max(lateness) < 40
        reaper.stop()
        purgatory.shutdown()

    asyncio.run(main())


def test_stopped_reaper_does_not_fire() -> None:
    async def main() -> None:
        purgatory, reaper = new_purgatory()
        reaper.start()
        op = TimedCallback(10)
        purgatory.try_complete_else_watch(op, ["k"])
        reaper.stop()
        await asyncio.sleep(0.05)
        assert not op.is_completed
        purgatory.shutdown()

    asyncio.run(main())


def test_threaded_reaper() -> None:
    timer = SystemTimer(name="t")
    purgatory: DelayedOperationPurgatory[DelayedCallback] = DelayedOperationPurgatory("t", timer)
    reaper = ThreadedExpirationReaper(timer, max_wait_ms=1000)
    reaper.start()
    try:
        done = threading.Event()

        class Op(DelayedCallback):
            def on_expiration(self) -> None:
                super().on_expiration()
                done.set()

        late = Op(5000)
        purgatory.try_complete_else_watch(late, ["k"])
        start = time.monotonic()
        op = Op(20)
        purgatory.try_complete_else_watch(op, ["k"])
        assert done.wait(2)
        elapsed = (time.monotonic() - start) * 1000
        print(f"\nthreaded reaper: 20 ms op expired after {elapsed:.1f} ms")
        assert 19 <= elapsed < 100
        assert op.expiration_threads[0] != threading.get_ident()
        assert not late.is_completed
    finally:
        reaper.stop()
        purgatory.shutdown()


def test_already_expired_on_add_runs_soon_not_inside_the_caller() -> None:
    async def main() -> None:
        purgatory, reaper = new_purgatory()
        reaper.start()
        op = TimedCallback(0)
        assert purgatory.try_complete_else_watch(op, ["k"]) is False
        assert not op.is_completed  # deferred with call_soon: no re-entrancy into the handler
        await asyncio.wait_for(op.done.wait(), 1)
        assert op.expiration_calls == 1

        # Same from inside an expiring operation's callback.
        inner = TimedCallback(0)

        class Outer(TimedCallback):
            def on_expiration(self) -> None:
                purgatory.try_complete_else_watch(inner, ["k"])
                assert not inner.is_completed
                super().on_expiration()

        outer = Outer(5)
        purgatory.try_complete_else_watch(outer, ["k"])
        await asyncio.wait_for(inner.done.wait(), 1)
        assert outer.expiration_calls == 1 and inner.expiration_calls == 1
        reaper.stop()
        purgatory.shutdown()

    asyncio.run(main())
