"""DelayedOperation: a request the broker parks until a condition holds or a timeout passes.

Subclasses (DelayedFetch, DelayedProduce, DelayedJoin, DelayedHeartbeat, ...) implement:

* ``try_complete()``: check the condition; if it holds, call ``force_complete()`` and return
  its result. Called by the purgatory whenever a watched key may have changed.
* ``on_complete()``: build and send the response. Runs exactly once, whichever way the
  operation completes (condition met, expired, or forced by the broker).
* ``on_expiration()``: runs after ``on_complete()`` only when the timeout completed the
  operation (metrics, logging). ``completed_by_expiration`` tells ``on_complete()`` which way it
  went (e.g. DelayedProduce reports REQUEST_TIMED_OUT for partitions still waiting).

Completion races (a fetcher thread meeting the condition while the reaper expires the same
operation) are settled by a per-operation guard: exactly one ``force_complete`` wins.
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Hashable
from types import TracebackType
from typing import Protocol

from .timing_wheel import TimerTask


class LockLike(Protocol):
    """threading.Lock or threading.RLock (e.g. a consumer group's lock shared by DelayedJoin)."""

    def acquire(self, blocking: bool = ..., timeout: float = ...) -> bool: ...

    def release(self) -> None: ...

    def __enter__(self) -> bool: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class CompletionListener(Protocol):
    """Told (once) when a watched operation completes; the purgatory uses it for purging."""

    def _operation_completed(self, operation: DelayedOperation) -> None: ...


class DelayedOperation(TimerTask):
    """Base class of all purgatory operations (Kafka's ``DelayedOperation``)."""

    def __init__(self, delay_ms: int, lock: LockLike | None = None) -> None:
        super().__init__(delay_ms)
        # Serialises try_complete() for this operation (Kafka's `lock`); may be shared, e.g.
        # by all DelayedJoin/DelayedHeartbeat of one group with the group's lock.
        self.lock: LockLike = lock if lock is not None else threading.Lock()
        # Separate from `lock`: try_complete() calls force_complete() while holding `lock`.
        self._completion_guard = threading.Lock()
        self._completed = False
        self._completed_by_expiration = False
        self._try_complete_pending = False
        # Set by the purgatory when the operation starts being watched.
        self._completion_listener: CompletionListener | None = None
        self._watch_keys: tuple[Hashable, ...] = ()

    # -- to implement ---------------------------------------------------------------------

    @abstractmethod
    def try_complete(self) -> bool:
        """Complete if the condition holds: ``return self.force_complete()``; else False."""

    @abstractmethod
    def on_complete(self) -> None:
        """The completion action (send the response). Called exactly once."""

    @abstractmethod
    def on_expiration(self) -> None:
        """Called after on_complete() when the operation completed by timing out."""

    # -- completion -------------------------------------------------------------------------

    @property
    def is_completed(self) -> bool:
        return self._completed

    @property
    def completed_by_expiration(self) -> bool:
        return self._completed_by_expiration

    @property
    def watch_keys(self) -> tuple[Hashable, ...]:
        return self._watch_keys

    def force_complete(self) -> bool:
        """Complete now. True only for the one caller (of any thread) that completed it."""
        return self._complete(expired=False)

    def _complete(self, expired: bool) -> bool:
        with self._completion_guard:
            if self._completed:
                return False
            self._completed = True
            self._completed_by_expiration = expired
            listener = self._completion_listener
        # This thread alone owns the completion from here on.
        self.cancel()  # take it out of the timer: it must not expire later
        try:
            self.on_complete()
        finally:
            if listener is not None:
                listener._operation_completed(self)
        return True

    def run(self) -> None:
        """The timer fired: complete by expiration unless something else completed it first."""
        if self._complete(expired=True):
            self.on_expiration()

    # -- safe try_complete ----------------------------------------------------------------

    def maybe_try_complete(self) -> bool:
        """Run try_complete() without ever running it concurrently for this operation.

        Kafka's tryLock pattern: if another thread holds ``lock`` it is already checking, so
        instead of blocking we leave a note (``_try_complete_pending``) and that thread checks
        once more after it releases, so the state change that prompted our call is not missed.
        Returns True if try_complete() completed the operation during this call.
        """
        while True:
            if self._completed:
                return False
            if self.lock.acquire(False):
                try:
                    self._try_complete_pending = False
                    done = self.try_complete()
                finally:
                    self.lock.release()
                if done or not self._try_complete_pending:
                    return done
                # Someone asked for another check while we held the lock: loop and do it.
            else:
                self._try_complete_pending = True
                # If the holder released (and read the note) before we wrote it, nobody would
                # retry: try to take the lock ourselves once more before leaving it to them.
                if self.lock.acquire(False):
                    self.lock.release()
                    continue
                return False
