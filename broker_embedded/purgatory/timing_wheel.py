"""Hierarchical timing wheel: the timer behind the broker's purgatories.

Same shape as Kafka's purgatory timer (``TimerTask`` / ``TimerTaskList`` / ``TimingWheel`` /
``SystemTimer``), written from the description of the algorithm:

* A wheel has ``wheel_size`` buckets of ``tick_ms`` each. A task whose deadline does not fit in
  the wheel's span goes to an *overflow* wheel whose tick is the lower wheel's whole span,
  created on demand, so a handful of levels covers any delay.
* Every non-empty bucket sits, keyed by its expiration, in ONE delay queue shared by all
  levels (a min-heap here). Advancing the clock pops due buckets and re-inserts their tasks:
  a task from a coarse bucket cascades into a finer wheel, and a task whose deadline has been
  reached is handed to the executor. Work is proportional to buckets and tasks, never to ticks.

Sans-IO: nothing here sleeps or reads the wall clock on its own. ``SystemTimer`` takes a clock
(a callable returning milliseconds) and ``advance_clock(now_ms)`` is driven from outside, by
``reaper.ExpirationReaper`` in the broker and by a ``ManualClock`` in tests.

Timing guarantee (integer milliseconds, level-0 tick ``t``): a task with deadline ``D`` runs
during the first ``advance_clock(now)`` with ``now >= ceil(D / t) * t``; never before its
deadline, at most one tick after it. A task whose deadline has already passed on ``add`` runs
at once.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable

log = logging.getLogger(__name__)

Clock = Callable[[], int]
"""Returns the current time in milliseconds (monotonic)."""

TaskExecutor = Callable[["TimerTask"], None]


def monotonic_ms() -> int:
    """The default clock: ``time.monotonic()`` in whole milliseconds."""
    return time.monotonic_ns() // 1_000_000


class ManualClock:
    """A clock that only moves when told to (tests, deterministic simulations)."""

    def __init__(self, start_ms: int = 0) -> None:
        self.now_ms = start_ms

    def __call__(self) -> int:
        return self.now_ms

    def advance(self, delta_ms: int) -> int:
        if delta_ms < 0:
            raise ValueError("a monotonic clock cannot go backwards")
        self.now_ms += delta_ms
        return self.now_ms

    def set(self, now_ms: int) -> None:
        if now_ms < self.now_ms:
            raise ValueError("a monotonic clock cannot go backwards")
        self.now_ms = now_ms


class TimerTask(ABC):
    """Something to run once ``delay_ms`` after it is added to a ``Timer``.

    A task lives in at most one bucket at a time; ``cancel()`` takes it out in O(1). A task is
    meant to be added to a timer once.
    """

    __slots__ = ("delay_ms", "expiration_ms", "_bucket", "_cancelled", "__weakref__")

    def __init__(self, delay_ms: int) -> None:
        self.delay_ms = int(delay_ms)
        # Absolute deadline, fixed by Timer.add (Kafka also starts the countdown on add).
        self.expiration_ms = -1
        self._bucket: TimerTaskList | None = None
        self._cancelled = False

    @abstractmethod
    def run(self) -> None:
        """Called (through the timer's executor) when the deadline is reached."""

    @property
    def is_cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        """Withdraw the task from its timer; it will not run (unless it already started)."""
        self._cancelled = True
        bucket = self._bucket
        # The advancing thread may move the task to another bucket between our read and our
        # lock; all buckets of a timer share its lock, so re-read under it until it sticks.
        while bucket is not None:
            with bucket.lock:
                if self._bucket is bucket:
                    bucket.remove(self)
                    return
            bucket = self._bucket


class TaskCounter:
    """Number of tasks in all buckets of one timer (shared by every wheel level)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


class TimerTaskList:
    """One bucket: O(1) add/remove (an insertion-ordered dict keyed by task identity, the
    Python equivalent of Kafka's doubly-linked list) plus the expiration under which the bucket
    is queued in the delay queue.

    Not locked itself: every method is called with the owning timer's ``lock`` held.
    """

    __slots__ = ("lock", "expiration_ms", "_tasks", "_counter")

    def __init__(self, counter: TaskCounter, lock: threading.Lock) -> None:
        self.lock = lock
        self.expiration_ms = -1
        # Keyed by id(): works for any task, even subclasses that define __eq__ without __hash__.
        self._tasks: dict[int, TimerTask] = {}
        self._counter = counter

    def __len__(self) -> int:
        return len(self._tasks)

    def add(self, task: TimerTask) -> None:
        old = task._bucket
        if old is not None:
            old.remove(task)
        self._tasks[id(task)] = task
        task._bucket = self
        self._counter.value += 1

    def remove(self, task: TimerTask) -> None:
        if task._bucket is self and self._tasks.pop(id(task), None) is not None:
            task._bucket = None
            self._counter.value -= 1

    def set_expiration(self, expiration_ms: int) -> bool:
        """Set the bucket's expiration; True if it changed, i.e. the bucket must be (re)queued."""
        changed = expiration_ms != self.expiration_ms
        self.expiration_ms = expiration_ms
        return changed

    def flush(self) -> list[TimerTask]:
        """Empty the bucket and return its tasks (for re-insertion); the bucket is reusable."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task._bucket = None
        self._counter.value -= len(tasks)
        self.expiration_ms = -1
        return tasks


class DelayQueue:
    """The single queue of buckets ordered by expiration (Kafka uses a java DelayQueue).

    A bucket is queued when its expiration is set and popped when due; entries whose bucket
    has since changed expiration are stale and skipped.
    """

    __slots__ = ("_heap", "_seq", "head_lowered")

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, TimerTaskList]] = []
        self._seq = itertools.count()  # tie-breaker: buckets are not comparable
        # Set when an offer becomes the new head: the driver must wake up earlier.
        self.head_lowered = False

    def __len__(self) -> int:
        return len(self._heap)

    def offer(self, bucket: TimerTaskList) -> None:
        entry = (bucket.expiration_ms, next(self._seq), bucket)
        heapq.heappush(self._heap, entry)
        if self._heap[0] is entry:
            self.head_lowered = True

    def _drop_stale_head(self) -> None:
        heap = self._heap
        while heap and heap[0][2].expiration_ms != heap[0][0]:
            heapq.heappop(heap)

    def peek_expiration(self) -> int | None:
        self._drop_stale_head()
        return self._heap[0][0] if self._heap else None

    def poll_due(self, now_ms: int) -> list[TimerTaskList]:
        """All buckets sharing the earliest expiration, if that expiration is <= now_ms.

        Popping every bucket of that instant before re-inserting any task matters: a level-0
        bucket due at T occupies the slot that a task due at T + span would map to.
        """
        expiration = self.peek_expiration()
        if expiration is None or expiration > now_ms:
            return []
        heap = self._heap
        due: list[TimerTaskList] = []
        while heap and heap[0][0] == expiration:
            _, _, bucket = heapq.heappop(heap)
            if bucket.expiration_ms == expiration:
                due.append(bucket)
        return due

    def drain(self) -> list[TimerTaskList]:
        buckets = [bucket for exp, _, bucket in self._heap if bucket.expiration_ms == exp]
        self._heap.clear()
        return buckets


class TimingWheel:
    """One level of the hierarchy. Not locked itself: the owning timer's lock is held.

    Level 0 files a task under the bucket ending at ``ceil(deadline / tick) * tick`` so it never
    runs early. Overflow levels file it under the bucket starting at ``floor(deadline / tick) *
    tick`` so it comes down to a finer level before its deadline.
    """

    __slots__ = (
        "tick_ms",
        "wheel_size",
        "interval_ms",
        "current_time_ms",
        "_counter",
        "_queue",
        "_lock",
        "_level",
        "_buckets",
        "_overflow_wheel",
    )

    def __init__(
        self,
        tick_ms: int,
        wheel_size: int,
        start_ms: int,
        task_counter: TaskCounter,
        queue: DelayQueue,
        lock: threading.Lock | None = None,
        level: int = 0,
    ) -> None:
        if tick_ms < 1:
            raise ValueError("tick_ms must be >= 1")
        if wheel_size < 2:
            raise ValueError("wheel_size must be >= 2")  # an overflow level needs >= 1 usable slot
        self.tick_ms = tick_ms
        self.wheel_size = wheel_size
        self.interval_ms = tick_ms * wheel_size
        # Rounded down to a tick so bucket boundaries are absolute multiples of tick_ms.
        self.current_time_ms = start_ms - start_ms % tick_ms
        self._counter = task_counter
        self._queue = queue
        self._lock = lock if lock is not None else threading.Lock()
        self._level = level
        self._buckets = [TimerTaskList(task_counter, self._lock) for _ in range(wheel_size)]
        self._overflow_wheel: TimingWheel | None = None

    @property
    def overflow_wheel(self) -> TimingWheel | None:
        return self._overflow_wheel

    def _overflow(self) -> TimingWheel:
        wheel = self._overflow_wheel
        if wheel is None:
            wheel = self._overflow_wheel = TimingWheel(
                tick_ms=self.interval_ms,
                wheel_size=self.wheel_size,
                start_ms=self.current_time_ms,
                task_counter=self._counter,
                queue=self._queue,
                lock=self._lock,
                level=self._level + 1,
            )
        return wheel

    def _place(self, task: TimerTask, virtual_id: int) -> None:
        bucket = self._buckets[virtual_id % self.wheel_size]
        bucket.add(task)
        if bucket.set_expiration(virtual_id * self.tick_ms):
            self._queue.offer(bucket)

    def add(self, task: TimerTask) -> bool:
        """File the task; False if its deadline has been reached (the caller runs it)."""
        expiration = task.expiration_ms
        now = self.current_time_ms
        if self._level == 0:
            if expiration <= now:
                return False
            if expiration <= now + self.interval_ms:
                self._place(task, -(-expiration // self.tick_ms))
                return True
        elif expiration < now + self.interval_ms:
            self._place(task, expiration // self.tick_ms)
            return True
        # Climb the overflow levels iteratively (long delays pass through several).
        wheel = self._overflow()
        while expiration >= wheel.current_time_ms + wheel.interval_ms:
            wheel = wheel._overflow()
        # Reached only from the level below, so expiration >= current + tick: the slot is ahead.
        wheel._place(task, expiration // wheel.tick_ms)
        return True

    def advance_clock(self, time_ms: int) -> None:
        """Move this level (and the coarser ones) forward; never backwards."""
        new_time = time_ms - time_ms % self.tick_ms
        if new_time > self.current_time_ms:
            self.current_time_ms = new_time
            if self._overflow_wheel is not None:
                self._overflow_wheel.advance_clock(new_time)


def _run_inline(task: TimerTask) -> None:
    task.run()


class Timer(ABC):
    """Kafka's ``Timer`` interface."""

    @abstractmethod
    def add(self, task: TimerTask) -> None:
        """Schedule ``task`` to run ``task.delay_ms`` from now."""

    @abstractmethod
    def advance_clock(self, now_ms: int | None = None) -> bool:
        """Run/cascade everything due at ``now_ms``; True if any bucket expired."""

    @property
    @abstractmethod
    def size(self) -> int:
        """Number of tasks waiting in the timer."""

    @abstractmethod
    def next_expiration_ms(self) -> int | None:
        """When the next bucket is due (absolute ms), or None if nothing is queued."""

    @abstractmethod
    def shutdown(self) -> None:
        """Drop all pending tasks; further adds are refused."""

    @abstractmethod
    def now_ms(self) -> int:
        """The timer's clock."""

    @abstractmethod
    def set_executor(self, executor: TaskExecutor | None) -> None:
        """Where due tasks run; None means inline on the advancing/adding thread."""

    @abstractmethod
    def set_expiration_listener(self, listener: Callable[[], None] | None) -> None:
        """Called after an add() that made the earliest expiration earlier (driver re-arm)."""


class SystemTimer(Timer):
    """Thread-safe hierarchical timer.

    One lock guards the wheels, buckets and delay queue. Tasks are run through ``executor``
    (inline by default) after that lock is released, so a task may add or cancel tasks.
    ``expiration_listener`` is called (outside the lock, from the adding thread) whenever an
    ``add`` makes the earliest queued expiration earlier: the driver uses it to re-arm.
    """

    def __init__(
        self,
        name: str = "timer",
        tick_ms: int = 1,
        wheel_size: int = 20,
        start_ms: int | None = None,
        clock: Clock = monotonic_ms,
        executor: TaskExecutor | None = None,
    ) -> None:
        self.name = name
        self.clock = clock
        self._lock = threading.Lock()
        self._counter = TaskCounter()
        self._queue = DelayQueue()
        self._wheel = TimingWheel(
            tick_ms=tick_ms,
            wheel_size=wheel_size,
            start_ms=clock() if start_ms is None else start_ms,
            task_counter=self._counter,
            queue=self._queue,
            lock=self._lock,
        )
        self._executor: TaskExecutor = executor if executor is not None else _run_inline
        self._expiration_listener: Callable[[], None] | None = None
        self._shut_down = False

    @property
    def tick_ms(self) -> int:
        return self._wheel.tick_ms

    @property
    def wheel(self) -> TimingWheel:
        """The level-0 wheel (introspection/tests only; hold no reference across adds)."""
        return self._wheel

    def now_ms(self) -> int:
        return self.clock()

    def set_executor(self, executor: TaskExecutor | None) -> None:
        """Where due tasks run; None restores inline execution on the advancing/adding thread."""
        self._executor = executor if executor is not None else _run_inline

    def set_expiration_listener(self, listener: Callable[[], None] | None) -> None:
        self._expiration_listener = listener

    def add(self, task: TimerTask) -> None:
        now = self.clock()
        task.expiration_ms = now + task.delay_ms
        expired = False
        lowered = False
        with self._lock:
            if self._shut_down:
                raise RuntimeError(f"timer {self.name} is shut down")
            if task._cancelled:
                return
            if not self._queue:
                # Nothing pending: let an idle wheel catch up with the clock so the insert does
                # not cascade down from a stale time. (With buckets queued, advance_clock must
                # pop them first, so the wheel may lag the clock; correctness holds either way.)
                self._wheel.advance_clock(now)
            if task.delay_ms <= 0:
                expired = True
            else:
                self._queue.head_lowered = False
                expired = not self._wheel.add(task)
                lowered = self._queue.head_lowered
        if expired:
            self._execute(task)
        elif lowered:
            listener = self._expiration_listener
            if listener is not None:
                listener()

    def advance_clock(self, now_ms: int | None = None) -> bool:
        now = self.clock() if now_ms is None else now_ms
        due_tasks: list[TimerTask] = []
        any_expired = False
        with self._lock:
            wheel = self._wheel
            while True:
                buckets = self._queue.poll_due(now)
                if not buckets:
                    break
                any_expired = True
                wheel.advance_clock(buckets[0].expiration_ms)
                for bucket in buckets:
                    for task in bucket.flush():
                        # Re-insert: cascades to a finer level, or is due (add returns False).
                        if not task._cancelled and not wheel.add(task):
                            due_tasks.append(task)
            # Every bucket up to `now` has been popped, so the wheels may jump to `now`.
            wheel.advance_clock(now)
        for task in due_tasks:
            self._execute(task)
        return any_expired

    def _execute(self, task: TimerTask) -> None:
        if task._cancelled:
            return
        try:
            self._executor(task)
        except Exception:  # one failing task must not stop the others or the driver
            log.exception("timer %s: task %r failed", self.name, task)

    @property
    def size(self) -> int:
        return self._counter.value

    def next_expiration_ms(self) -> int | None:
        with self._lock:
            return self._queue.peek_expiration()

    def shutdown(self) -> None:
        with self._lock:
            self._shut_down = True
            for bucket in self._queue.drain():
                bucket.flush()
