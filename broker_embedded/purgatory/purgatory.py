"""DelayedOperationPurgatory: operations parked under watch keys, with a timeout timer.

An operation (one per client request) is watched under every key its completion depends on,
e.g. ``("fetch", topic, partition)`` for each partition of a FETCH, or ``("group", group_id)``.
When something changes for a key (an append, a high-watermark move, a member joining) the
broker calls ``check_and_complete(key)``; every operation still waiting under that key gets a
``try_complete()``. Whatever has not completed when its timeout passes is completed by the timer.

Completed operations are not taken out of the *other* keys' watcher lists right away (that
would cost a visit to each key per completion on the hot path); they are purged in batches once
more than ``purge_interval`` completed operations may still be watched. Watcher lists that
become empty are dropped so the key map does not grow with every partition/group ever seen.

Thread-safety: every method may be called from any thread. Operation callbacks run on the
thread that completed the operation: the caller of ``try_complete_else_watch`` /
``check_and_complete``, or the timer's executor on expiry (the asyncio loop thread when driven
by ``ExpirationReaper``). No purgatory lock is held while operation code runs.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

from .delayed_operation import DelayedOperation
from .timing_wheel import SystemTimer, Timer

T = TypeVar("T", bound=DelayedOperation)


class DelayedOperationPurgatory(Generic[T]):
    def __init__(self, name: str, timer: Timer | None = None, purge_interval: int = 1000) -> None:
        self.name = name
        self._owns_timer = timer is None
        self.timer: Timer = timer if timer is not None else SystemTimer(name=f"{name}-timer")
        self.purge_interval = purge_interval
        # Guards the key map and every watcher dict. One lock is enough under the GIL, and it
        # makes "drop an empty watcher list" race-free against a concurrent watch.
        self._lock = threading.Lock()
        # key -> operations watched under it, insertion-ordered, keyed by id(op) so any
        # subclass works (no reliance on __hash__/__eq__).
        self._watchers_by_key: dict[Hashable, dict[int, T]] = {}
        self._stats_lock = threading.Lock()
        self._num_delayed = 0  # watched and not yet completed
        self._completed_unpurged: list[T] = []  # completed, possibly still in watcher lists
        self._shut_down = False

    # -- parking ----------------------------------------------------------------------------

    def try_complete_else_watch(self, operation: T, watch_keys: Iterable[Hashable]) -> bool:
        """Complete ``operation`` now if it can; otherwise watch it under every key and start
        its timeout.

        Returns True if the operation was completed by this call. After watching, it is tried
        once more: a state change between the first try and the watch ran its
        ``check_and_complete`` before the operation was watched and would otherwise be missed
        until the timeout.
        """
        keys = tuple(dict.fromkeys(watch_keys))
        if not keys:
            raise ValueError("an operation must be watched under at least one key")
        if self._shut_down:
            raise RuntimeError(f"purgatory {self.name} is shut down")

        if operation.maybe_try_complete():
            return True

        with operation._completion_guard:
            if operation._completed:
                return False  # completed concurrently by someone else
            # From here on every completion of the operation is reported to this purgatory.
            operation._completion_listener = self
            operation._watch_keys = keys
            with self._stats_lock:
                self._num_delayed += 1

        op_id = id(operation)
        with self._lock:
            watchers_by_key = self._watchers_by_key
            for key in keys:
                if operation._completed:
                    break  # completed meanwhile: no point watching the remaining keys
                watchers = watchers_by_key.get(key)
                if watchers is None:
                    watchers = watchers_by_key[key] = {}
                watchers[op_id] = operation

        if operation.maybe_try_complete():
            return True

        if not operation._completed:
            self.timer.add(operation)
            # A completion between the check above and the add already ran cancel(), which
            # makes the timer skip the task; cancel again in case it landed in between.
            if operation._completed:
                operation.cancel()
        return False

    # -- completing -------------------------------------------------------------------------

    def check_and_complete(self, key: Hashable) -> int:
        """Try to complete every operation watched under ``key``; return how many completed."""
        with self._lock:
            watchers = self._watchers_by_key.get(key)
            if not watchers:
                return 0
            operations = list(watchers.values())
        completed = 0
        finished: list[T] = []
        for operation in operations:
            if operation._completed:
                finished.append(operation)
            elif operation.maybe_try_complete():
                completed += 1
                finished.append(operation)
        if finished:
            with self._lock:
                watchers = self._watchers_by_key.get(key)
                if watchers is not None:
                    for operation in finished:
                        watchers.pop(id(operation), None)
                    if not watchers:
                        del self._watchers_by_key[key]
        return completed

    def _operation_completed(self, operation: DelayedOperation) -> None:
        """CompletionListener hook, called once per watched operation on completion."""
        with self._stats_lock:
            self._num_delayed -= 1
            # the listener is called with this purgatory's own operation type
            self._completed_unpurged.append(operation)  # type: ignore[arg-type]
            if len(self._completed_unpurged) <= self.purge_interval:
                return
            batch = self._completed_unpurged
            self._completed_unpurged = []
        self._purge(batch)

    def purge_completed(self) -> int:
        """Take all completed operations out of the watcher lists now; returns how many."""
        with self._stats_lock:
            batch = self._completed_unpurged
            self._completed_unpurged = []
        self._purge(batch)
        return len(batch)

    def _purge(self, batch: list[T]) -> None:
        with self._lock:
            watchers_by_key = self._watchers_by_key
            for operation in batch:
                op_id = id(operation)
                for key in operation._watch_keys:
                    watchers = watchers_by_key.get(key)
                    if watchers is not None and watchers.pop(op_id, None) is not None and not watchers:
                        del watchers_by_key[key]

    # -- withdrawing ------------------------------------------------------------------------

    def cancel_for_key(self, key: Hashable) -> list[T]:
        """Withdraw every uncompleted operation watched under ``key`` (from all its keys and
        from the timer) without completing it; the caller decides what to do with them (e.g.
        a group being removed). Returns the withdrawn operations."""
        with self._lock:
            watchers = self._watchers_by_key.pop(key, None)
            if not watchers:
                return []
            candidates = [op for op in watchers.values() if not op._completed]
            for operation in candidates:
                self._unwatch_locked(operation, skip_key=key)
        return self._detach(candidates)

    def _unwatch_locked(self, operation: T, skip_key: Hashable | None = None) -> None:
        op_id = id(operation)
        for other in operation._watch_keys:
            if other == skip_key:
                continue
            watchers = self._watchers_by_key.get(other)
            if watchers is not None and watchers.pop(op_id, None) is not None and not watchers:
                del self._watchers_by_key[other]

    def _detach(self, candidates: list[T]) -> list[T]:
        withdrawn: list[T] = []
        for operation in candidates:
            operation.cancel()  # no expiry
            with operation._completion_guard:
                if operation._completed:
                    continue  # it won a race with us and completed normally
                operation._completion_listener = None
            withdrawn.append(operation)
        if withdrawn:
            with self._stats_lock:
                self._num_delayed -= len(withdrawn)
        return withdrawn

    # -- introspection ----------------------------------------------------------------------

    def watched(self, key: Hashable) -> int:
        """Operations in ``key``'s watcher list (completed ones may linger until purged)."""
        with self._lock:
            watchers = self._watchers_by_key.get(key)
            return len(watchers) if watchers is not None else 0

    @property
    def num_delayed(self) -> int:
        """Operations parked here and not completed yet."""
        return self._num_delayed

    @property
    def num_watcher_lists(self) -> int:
        return len(self._watchers_by_key)

    @property
    def num_completed_unpurged(self) -> int:
        return len(self._completed_unpurged)

    def shutdown(self) -> list[T]:
        """Withdraw every pending operation (none will complete or expire) and stop the timer
        if this purgatory created it. Returns the withdrawn operations."""
        self._shut_down = True
        with self._lock:
            seen: dict[int, T] = {}
            for watchers in self._watchers_by_key.values():
                for op_id, operation in watchers.items():
                    if not operation._completed:
                        seen[op_id] = operation
            self._watchers_by_key.clear()
        with self._stats_lock:
            self._completed_unpurged = []
        withdrawn = self._detach(list(seen.values()))
        if self._owns_timer:
            self.timer.shutdown()
        return withdrawn
