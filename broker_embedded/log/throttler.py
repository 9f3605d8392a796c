"""Kafka's Throttler (org.apache.kafka.storage.internals.utils.Throttler, once kafka.utils.Throttler):
the log cleaner threads share one, and every cleaner read and write reports its bytes to it, so
together they stay under `log.cleaner.io.max.bytes.per.second`.

Kafka's algorithm: bytes are counted since the start of a check period; once a period of more than
`check_interval_ms` (300 ms for the cleaner) has seen bytes at a rate above the desired one, the
caller sleeps until the period's bytes fit the rate, and a new period starts. The sleep is taken
under the throttler's lock, so the other cleaner threads wait behind it: one rate for them all.

Two differences, both so an operator's change acts at once: the sleep ends early when the rate is
updated and the rest of it, if any, is computed with the new rate (Kafka's LogCleaner.reconfigure
updates the rate, then restarts the cleaner threads: a sleeper sleeps out the old rate and its
cleaning is aborted, to start over); and `close()` (broker shutdown) wakes a sleeper, and every
later call, with `CleanerAborted` (Kafka's cleaner checks `checkDone` per buffer in the same loops
and aborts with ThreadShutdownException).

The default, Double.MAX_VALUE, never throttles: a call is then one attribute read and a compare.
Time comes from an injectable clock and wait, so tests run on a fake clock.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable

# Kafka's default for log.cleaner.io.max.bytes.per.second (Double.MAX_VALUE): no throttle
UNLIMITED = sys.float_info.max
_NS_PER_SEC = 1_000_000_000
_NS_PER_MS = 1_000_000

log = logging.getLogger(__name__)


class CleanerAborted(Exception):
    """The cleaner is shutting down: the cleaning in progress is abandoned (its `.cleaned` files removed)."""


class Throttler:
    def __init__(
        self,
        desired_rate_per_sec: float = UNLIMITED,
        check_interval_ms: int = 300,
        *,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        wait: Callable[[float], object] | None = None,
    ) -> None:
        """`wait(seconds)` sleeps at most that long and may return early; the default returns early
        when the rate is updated or the throttler closed (a fake clock's wait advances its time)."""
        self._desired = float(desired_rate_per_sec)
        self._check_interval_ns = check_interval_ms * _NS_PER_MS
        self._clock_ns = clock_ns
        self._wakeup = threading.Event()
        self._wait = wait if wait is not None else self._wakeup.wait
        self._lock = threading.Lock()
        self._period_start_ns = clock_ns()
        self._observed_so_far = 0.0
        self._closed = False
        self.throttle_count = 0  # sleeps taken (tests and logs)

    @property
    def desired_rate_per_sec(self) -> float:
        return self._desired

    @property
    def limited(self) -> bool:
        return self._desired < UNLIMITED

    def update_desired_rate_per_sec(self, rate: float) -> None:
        """A new log.cleaner.io.max.bytes.per.second (LogCleaner.reconfigure): a cleaner asleep
        under the old rate wakes and finishes its sleep, if any is left, under the new one."""
        self._desired = float(rate)
        self._wakeup.set()

    def close(self) -> None:
        self._closed = True
        self._wakeup.set()

    def maybe_throttle(self, observed: float) -> None:
        """Count `observed` bytes; sleep first if the current period ran above the desired rate."""
        if self._closed:
            raise CleanerAborted("the log cleaner is shutting down")
        if self._desired >= UNLIMITED:
            return
        with self._lock:
            self._observed_so_far += observed
            now = self._clock_ns()
            elapsed_ns = now - self._period_start_ns
            if elapsed_ns <= self._check_interval_ns or self._observed_so_far <= 0:
                return
            if self._observed_so_far * _NS_PER_SEC / elapsed_ns > self._desired:
                self._sleep_to_desired_rate()
            self._period_start_ns = self._clock_ns()
            self._observed_so_far = 0.0

    def _sleep_to_desired_rate(self) -> None:
        """Sleep (holding the lock, as Kafka does) until this period's bytes fit the desired rate,
        recomputed whenever the rate changes. As in Kafka, a negative rate never sleeps and 0 lets
        nothing through (here: until a new rate or close)."""
        counted = False
        while True:
            self._wakeup.clear()
            if self._closed:
                raise CleanerAborted("the log cleaner is shutting down")
            rate = self._desired
            if rate >= UNLIMITED or rate < 0:
                return
            if rate > 0:
                # Kafka: round(observed / desired-per-ms - elapsed ms), slept when > 0
                elapsed_ms = (self._clock_ns() - self._period_start_ns) / _NS_PER_MS
                remaining_ms = round(self._observed_so_far * 1000 / rate - elapsed_ms)
                if remaining_ms <= 0:
                    return
                timeout = remaining_ms / 1000
            else:
                timeout = 1.0
            if not counted:
                self.throttle_count += 1
                counted = True
                log.debug("cleaner I/O above %s B/s: sleeping %.3f s", rate, timeout)
            self._wait(timeout)


__all__ = ["UNLIMITED", "CleanerAborted", "Throttler"]
