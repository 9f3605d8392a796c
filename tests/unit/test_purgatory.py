"""DelayedOperation and DelayedOperationPurgatory, with a manual clock."""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterator

import pytest

from broker_embedded.purgatory import (
    DelayedOperation,
    DelayedOperationPurgatory,
    ManualClock,
    SystemTimer,
)


class DelayedCallback(DelayedOperation):
    """Reference operation: completes when ``condition()`` holds, or on timeout."""

    def __init__(
        self,
        delay_ms: int,
        condition: Callable[[], bool] = lambda: False,
        lock: threading.Lock | None = None,
    ) -> None:
        super().__init__(delay_ms, lock)
        self.condition = condition
        self.try_calls = 0
        self.complete_calls = 0
        self.expiration_calls = 0
        self.complete_threads: list[int] = []
        self.expiration_threads: list[int] = []
        self._concurrent = 0
        self.max_concurrent_tries = 0

    def try_complete(self) -> bool:
        # Detects overlapping try_complete() calls, which maybe_try_complete() must prevent.
        self._concurrent += 1
        self.max_concurrent_tries = max(self.max_concurrent_tries, self._concurrent)
        try:
            self.try_calls += 1
            if self.condition():
                return self.force_complete()
            return False
        finally:
            self._concurrent -= 1

    def on_complete(self) -> None:
        self.complete_calls += 1
        self.complete_threads.append(threading.get_ident())

    def on_expiration(self) -> None:
        self.expiration_calls += 1
        self.expiration_threads.append(threading.get_ident())


@pytest.fixture
def fast_switching() -> Iterator[None]:
    # Make the GIL switch threads very often so races actually interleave.
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def make_purgatory(
    purge_interval: int = 1000, start_ms: int = 0
) -> tuple[DelayedOperationPurgatory[DelayedCallback], ManualClock]:
    clock = ManualClock(start_ms)
    timer = SystemTimer(name="test", clock=clock)
    return DelayedOperationPurgatory("test", timer, purge_interval=purge_interval), clock


# -- DelayedOperation ------------------------------------------------------------------------


def test_force_complete_exactly_once() -> None:
    op = DelayedCallback(100)
    assert op.force_complete() is True
    assert op.force_complete() is False
    op.run()  # the timer firing late must not complete it again or count as expiry
    assert (op.complete_calls, op.expiration_calls) == (1, 0)
    assert op.is_completed and not op.completed_by_expiration


def test_expiry_completes_then_calls_on_expiration() -> None:
    op = DelayedCallback(100)
    op.run()
    assert (op.complete_calls, op.expiration_calls) == (1, 1)
    assert op.completed_by_expiration
    assert op.force_complete() is False
    assert op.maybe_try_complete() is False


def test_completion_and_expiry_race_from_threads(fast_switching: None) -> None:
    ops = [DelayedCallback(100, condition=lambda: True) for _ in range(2000)]
    barrier = threading.Barrier(3)
    wins = [[0, 0] for _ in ops]

    def hammer(slot: int, action: Callable[[DelayedCallback], object]) -> None:
        for i, op in enumerate(ops):
            barrier.wait()  # all three start on the same operation at the same moment
            for _ in range(3):
                if action(op) is True:
                    wins[i][slot] += 1

    def expire(op: DelayedCallback) -> None:
        op.run()

    threads = [
        threading.Thread(target=hammer, args=(0, DelayedCallback.force_complete)),
        threading.Thread(target=hammer, args=(1, DelayedCallback.maybe_try_complete)),
        threading.Thread(target=hammer, args=(2, expire)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [0, 0, 0]
    for op, w in zip(ops, wins, strict=True):
        assert op.complete_calls == 1
        assert op.expiration_calls == (1 if op.completed_by_expiration else 0)
        # Exactly one winner: one of the completers, or the expiry.
        assert w[0] + w[1] + op.expiration_calls == 1
        assert op.max_concurrent_tries <= 1
        winners[0] += w[0]
        winners[1] += w[1]
        winners[2] += op.expiration_calls
    print(f"race winners: force_complete={winners[0]} try_complete={winners[1]} expiry={winners[2]}")


def _bump_and_check_round(n_threads: int) -> DelayedCallback:
    state = {"count": 0}
    op = DelayedCallback(1000, condition=lambda: state["count"] >= n_threads)
    barrier = threading.Barrier(n_threads)
    guard = threading.Lock()

    def bump() -> None:
        barrier.wait()
        with guard:
            state["count"] += 1
        op.maybe_try_complete()

    threads = [threading.Thread(target=bump) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return op


def test_maybe_try_complete_never_runs_concurrently_and_never_misses_a_change(
    fast_switching: None,
) -> None:
    # Each thread makes the condition closer to true and asks for a check; most calls bail
    # out because another thread holds the lock, yet the last change must still be seen.
    for _ in range(50):
        op = _bump_and_check_round(8)
        assert op.is_completed and op.complete_calls == 1
        assert op.max_concurrent_tries == 1


def test_shared_reentrant_lock_is_usable_while_held() -> None:
    # DelayedJoin-style: the group lock is held by the caller of check_and_complete.
    group_lock = threading.RLock()
    op = DelayedCallback(100, condition=lambda: True, lock=group_lock)  # type: ignore[arg-type]
    with group_lock:
        assert op.maybe_try_complete() is True


# -- Purgatory ------------------------------------------------------------------------------


def test_completes_immediately_without_watching() -> None:
    purgatory, _ = make_purgatory()
    op = DelayedCallback(100, condition=lambda: True)
    assert purgatory.try_complete_else_watch(op, ["k"]) is True
    assert purgatory.watched("k") == 0
    assert purgatory.num_delayed == 0
    assert purgatory.timer.size == 0


def test_double_check_after_watch() -> None:
    # The state changes between the first try and the watch: its check_and_complete found
    # nobody watching. The second try must catch it.
    purgatory, _ = make_purgatory()
    answers = iter([False, True])
    op = DelayedCallback(100, condition=lambda: next(answers))
    assert purgatory.try_complete_else_watch(op, ["k"]) is True
    assert op.try_calls == 2 and op.complete_calls == 1
    assert purgatory.timer.size == 0  # never reached the timer
    assert purgatory.num_delayed == 0


def test_watch_under_several_keys_complete_via_one_and_purge_the_others() -> None:
    purgatory, clock = make_purgatory(purge_interval=3)
    ready = {"v": False}
    keys: list[Hashable] = [("fetch", "t", 0), ("fetch", "t", 1), ("group", "g")]
    op = DelayedCallback(500, condition=lambda: ready["v"])
    assert purgatory.try_complete_else_watch(op, keys) is False
    assert [purgatory.watched(k) for k in keys] == [1, 1, 1]
    assert purgatory.num_delayed == 1 and purgatory.timer.size == 1

    assert purgatory.check_and_complete(keys[1]) == 0  # not ready yet
    ready["v"] = True
    assert purgatory.check_and_complete(keys[1]) == 1
    assert op.complete_calls == 1 and op.expiration_calls == 0
    assert purgatory.num_delayed == 0 and purgatory.timer.size == 0
    # Removed from the key that completed it right away; the others lag until a purge.
    assert purgatory.watched(keys[1]) == 0
    assert purgatory.watched(keys[0]) == 1 and purgatory.watched(keys[2]) == 1

    # More completions push the estimate over purge_interval=3: a batch purge runs.
    for i in range(3):
        other = DelayedCallback(500)
        purgatory.try_complete_else_watch(other, [keys[0], ("x", i)])
        other.force_complete()
    assert purgatory.watched(keys[0]) == 0
    assert purgatory.watched(keys[2]) == 0
    assert purgatory.num_watcher_lists == 0  # empty watcher lists are dropped too
    assert purgatory.num_completed_unpurged == 0
    clock.set(10_000)
    purgatory.timer.advance_clock(10_000)
    assert op.expiration_calls == 0


def test_expired_operations_are_purged_from_watchers() -> None:
    purgatory, clock = make_purgatory(purge_interval=10)
    ops = [DelayedCallback(50) for _ in range(25)]
    for i, op in enumerate(ops):
        purgatory.try_complete_else_watch(op, [("p", i % 5), "all"])
    assert purgatory.watched("all") == 25
    clock.set(50)
    purgatory.timer.advance_clock(50)
    assert all(op.expiration_calls == 1 and op.complete_calls == 1 for op in ops)
    assert purgatory.num_delayed == 0
    # 25 completions with purge_interval 10: two batch purges of 11 happened, 3 remain.
    assert purgatory.num_completed_unpurged == 3
    assert purgatory.watched("all") == 3
    assert purgatory.purge_completed() == 3
    assert purgatory.num_watcher_lists == 0


def test_check_and_complete_unknown_key() -> None:
    purgatory, _ = make_purgatory()
    assert purgatory.check_and_complete(("fetch", "nope", 0)) == 0


def test_duplicate_keys_and_empty_keys() -> None:
    purgatory, _ = make_purgatory()
    op = DelayedCallback(100)
    purgatory.try_complete_else_watch(op, ["a", "a", "b"])
    assert purgatory.watched("a") == 1
    with pytest.raises(ValueError):
        purgatory.try_complete_else_watch(DelayedCallback(100), [])


def test_cancel_for_key_withdraws_without_completing() -> None:
    purgatory, clock = make_purgatory()
    a = DelayedCallback(100)
    b = DelayedCallback(100)
    purgatory.try_complete_else_watch(a, [("group", "g"), "other"])
    purgatory.try_complete_else_watch(b, ["other"])
    cancelled = purgatory.cancel_for_key(("group", "g"))
    assert cancelled == [a]
    assert purgatory.watched("other") == 1  # only b
    assert purgatory.num_delayed == 1
    assert purgatory.timer.size == 1
    clock.set(1000)
    purgatory.timer.advance_clock(1000)
    assert a.complete_calls == 0 and a.expiration_calls == 0
    assert b.expiration_calls == 1
    assert purgatory.cancel_for_key("nothing") == []


def test_shutdown_withdraws_everything() -> None:
    purgatory: DelayedOperationPurgatory[DelayedCallback] = DelayedOperationPurgatory("own")
    ops = [DelayedCallback(10_000) for _ in range(5)]
    for i, op in enumerate(ops):
        purgatory.try_complete_else_watch(op, [i % 2])
    withdrawn = purgatory.shutdown()
    assert sorted(map(id, withdrawn)) == sorted(map(id, ops))
    assert purgatory.num_delayed == 0 and purgatory.num_watcher_lists == 0
    assert purgatory.timer.size == 0
    with pytest.raises(RuntimeError):
        purgatory.try_complete_else_watch(DelayedCallback(1), ["k"])


def test_zero_timeout_expires_immediately() -> None:
    purgatory, _ = make_purgatory()
    op = DelayedCallback(0)
    assert purgatory.try_complete_else_watch(op, ["k"]) is False
    assert op.expiration_calls == 1 and op.complete_calls == 1
    assert purgatory.num_delayed == 0


def test_concurrent_completion_and_expiry_through_purgatory(fast_switching: None) -> None:
    # Thread A makes operations ready and calls check_and_complete; thread B advances the
    # clock so they expire. Every operation completes exactly once, whichever side wins.
    purgatory, clock = make_purgatory(purge_interval=100)
    n_keys = 50
    ready = [False] * n_keys
    ops: list[DelayedCallback] = []
    for i in range(5000):
        k = i % n_keys
        op = DelayedCallback(1 + i % 200, condition=lambda k=k: ready[k])  # type: ignore[misc]
        purgatory.try_complete_else_watch(op, [("p", k), ("p", (k + 1) % n_keys)])
        ops.append(op)
    barrier = threading.Barrier(2)
    clock_lock = threading.Lock()

    def completer() -> None:
        barrier.wait()
        for k in range(n_keys):
            ready[k] = True
            purgatory.check_and_complete(("p", k))

    def expirer() -> None:
        barrier.wait()
        for _ in range(210):
            with clock_lock:
                now = clock.advance(1)
            purgatory.timer.advance_clock(now)

    threads = [threading.Thread(target=completer), threading.Thread(target=expirer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for op in ops:
        assert op.complete_calls == 1
        assert op.expiration_calls == (1 if op.completed_by_expiration else 0)
    assert purgatory.num_delayed == 0
    assert purgatory.timer.size == 0
    purgatory.purge_completed()
    assert purgatory.num_watcher_lists == 0


def test_scale_100k_operations_over_1000_keys() -> None:
    n_ops, n_keys = 100_000, 1000
    purgatory, clock = make_purgatory(start_ms=5_000)
    rng = random.Random(42)
    ready = [False] * n_keys
    ops: list[DelayedCallback] = []
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    for i in range(n_ops):
        k = i % n_keys
        # Odd operations never become ready: they must expire. Delays up to ~30 s exercise
        # three wheel levels.
        cond: Callable[[], bool] = (lambda k=k: ready[k]) if i % 2 == 0 else (lambda: False)  # type: ignore[misc]
        op = DelayedCallback(rng.randint(1, 30_000), condition=cond)
        assert purgatory.try_complete_else_watch(op, [("fetch", "topic", k)]) is False
        ops.append(op)
    t_added = time.perf_counter()
    assert purgatory.num_delayed == n_ops and purgatory.timer.size == n_ops

    completed = 0
    for k in range(n_keys):
        ready[k] = True
        completed += purgatory.check_and_complete(("fetch", "topic", k))
    t_checked = time.perf_counter()
    assert completed == n_ops // 2
    assert purgatory.num_delayed == n_ops // 2

    # Expire the rest as the reaper does: sleep until the next bucket is due, advance.
    timer = purgatory.timer
    while (next_ms := timer.next_expiration_ms()) is not None:
        clock.set(max(clock(), next_ms))
        timer.advance_clock(clock())
    t_expired = time.perf_counter()
    cpu = time.process_time() - cpu0

    assert purgatory.num_delayed == 0 and purgatory.timer.size == 0
    assert sum(op.expiration_calls for op in ops) == n_ops // 2
    assert all(op.complete_calls == 1 for op in ops)
    purgatory.purge_completed()
    assert purgatory.num_watcher_lists == 0
    total = t_expired - t0
    print(
        f"\nscale: add {t_added - t0:.2f}s, check_and_complete {t_checked - t_added:.2f}s, "
        f"expire {t_expired - t_checked:.2f}s, total {total:.2f}s wall / {cpu:.2f}s CPU "
        f"for {n_ops} ops / {n_keys} keys"
    )
    # CPU time, so neighbours on a shared box do not fail us; wall time is a loose sanity bound.
    assert cpu < 10.0
    assert total < 60.0
