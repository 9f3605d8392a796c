"""Purgatory: delayed operations (DelayedFetch, DelayedProduce, ...) and their timer.

Wiring in the broker (all on the asyncio loop)::

    purgatory = DelayedOperationPurgatory[DelayedFetch]("Fetch")
    reaper = ExpirationReaper(purgatory.timer)   # purgatory.timer is a SystemTimer
    reaper.start()                               # inside the running loop
    ...
    purgatory.try_complete_else_watch(op, [("fetch", topic, partition), ...])
    purgatory.check_and_complete(("fetch", topic, partition))   # after appends / HW moves
    ...
    reaper.stop(); purgatory.shutdown()
"""

from .callback import DelayedCallback
from .delayed_operation import CompletionListener, DelayedOperation, LockLike
from .keys import PurgatoryKey, fetch_key, produce_key
from .purgatory import DelayedOperationPurgatory
from .reaper import ExpirationReaper, ThreadedExpirationReaper
from .timing_wheel import (
    Clock,
    DelayQueue,
    ManualClock,
    SystemTimer,
    TaskCounter,
    Timer,
    TimerTask,
    TimerTaskList,
    TimingWheel,
    monotonic_ms,
)

__all__ = [
    "Clock",
    "CompletionListener",
    "DelayQueue",
    "DelayedCallback",
    "DelayedOperation",
    "DelayedOperationPurgatory",
    "ExpirationReaper",
    "LockLike",
    "ManualClock",
    "PurgatoryKey",
    "SystemTimer",
    "TaskCounter",
    "ThreadedExpirationReaper",
    "Timer",
    "TimerTask",
    "TimerTaskList",
    "TimingWheel",
    "fetch_key",
    "monotonic_ms",
    "produce_key",
]
