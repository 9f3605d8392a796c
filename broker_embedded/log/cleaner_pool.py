"""Kafka's log cleaner threads: `log.cleaner.threads` workers clean the compacted logs due for
cleaning, N at a time (Kafka's CleanerThreads, each taking the dirtiest log it can), sharing one
Throttler that holds their reads and writes under `log.cleaner.io.max.bytes.per.second`
(log/throttler.py). Both are dynamic broker configs (LogCleaner.reconfigure: new threads, the
throttler's rate updated in place, reaching a cleaning in progress).

The maintenance pass hands its compacted logs over. Without a rate limit (Kafka's default,
Double.MAX_VALUE) it waits for them, as before the throttle: the logs are cleaned when the pass
returns. With a limit a cleaning may take long, so it runs apart from the pass, as Kafka's cleaner
runs apart from its retention and flush tasks: the pass returns at once, a log still being cleaned
is not handed over again, and the pass skips only that log's retention (Kafka's LogCleanerManager
keeps retention off a log in progress likewise) until its cleaning ends; flushes, producer expiry
and file deletion, which take the log's lock, go on for every log.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial

from .cleaner import CleanerStats, clean_log
from .log import Log
from .throttler import UNLIMITED, CleanerAborted, Throttler

log_ = logging.getLogger(__name__)


class CleanerPool:
    def __init__(
        self,
        threads: int = 1,
        clean: Callable[[Log, int], CleanerStats | None] | None = None,
        *,
        io_max_bytes_per_second: float = UNLIMITED,
        throttler: Throttler | None = None,
    ) -> None:
        self.throttler = throttler if throttler is not None else Throttler(io_max_bytes_per_second)
        self._clean = clean if clean is not None else self._clean_throttled
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a cleaning ended or the rate changed
        self._threads = max(1, threads)
        self._executor: ThreadPoolExecutor | None = None
        self._in_progress: dict[int, Log] = {}  # id(log) -> log, handed over and not finished
        self._errors: dict[int, BaseException] = {}  # id(log) -> error, raised by a clean() given that log
        self._shut_down = False

    @property
    def threads(self) -> int:
        return self._threads

    def _clean_throttled(self, log: Log, now_ms: int) -> CleanerStats | None:
        return clean_log(log, now_ms, throttler=self.throttler)

    def resize(self, threads: int) -> None:
        """A new log.cleaner.threads (0 runs one, as Kafka 5 requires at least one): cleanings in
        progress finish on the old threads, the next pass uses the new count."""
        threads = max(1, threads)
        with self._lock:
            if threads == self._threads:
                return
            self._threads = threads
            old, self._executor = self._executor, None
        if old is not None:
            old.shutdown(wait=False)

    def update_io_max_bytes_per_second(self, rate: float) -> None:
        """A new log.cleaner.io.max.bytes.per.second: the throttler's rate, for the cleanings in
        progress too; a pass waiting for its cleanings stops waiting once there is a limit."""
        if rate == self.throttler.desired_rate_per_sec:
            return
        log_.info("Updating log.cleaner.io.max.bytes.per.second: %s", rate)
        self.throttler.update_desired_rate_per_sec(rate)
        with self._changed:
            self._changed.notify_all()

    def in_progress(self) -> set[int]:
        """id() of every log handed over whose cleaning has not ended."""
        with self._lock:
            return set(self._in_progress)

    def clean(self, logs: Iterable[Log], now_ms: int) -> int:
        """Hand `logs` over (those with nothing to clean are skipped by the cleaner; those still
        being cleaned are not handed over again). Without a rate limit, waits for them and returns
        how many were cleaned; with one, returns the count of those already finished. The first
        error of a cleaning is raised by the call that sees it end (or the next one), once every
        cleaning it waits for has ended; a log closed meanwhile (deleted, broker shutdown) has its
        cleaning abandoned without an error."""
        logs = list(logs)
        futures: list[tuple[Log, Future[CleanerStats | None]]] = []
        with self._lock:
            if self._shut_down:
                return 0
            for log in logs:
                if id(log) in self._in_progress:
                    continue
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(self._threads, thread_name_prefix="kafka-log-cleaner-thread")
                self._in_progress[id(log)] = log
                futures.append((log, self._executor.submit(self._clean, log, now_ms)))
        for log, f in futures:  # outside the lock: a cleaning already ended calls back at once
            f.add_done_callback(partial(self._ended, log))
        with self._changed:
            # until _ended took each log out (its error recorded), not merely until its future is done
            while not self.throttler.limited and any(id(log) in self._in_progress for log, _ in futures):
                self._changed.wait()
            # a log dir's pass raises only its own logs' errors (the pool serves every dir)
            errors = [self._errors.pop(id(log)) for log in logs if id(log) in self._errors]
        cleaned = sum(1 for _, f in futures if f.done() and not f.cancelled() and f.exception() is None and f.result())
        if errors:
            raise errors[0]
        return cleaned

    def _ended(self, log: Log, f: Future[CleanerStats | None]) -> None:
        error: BaseException | None = None
        try:
            error = None if f.cancelled() else f.exception()
            if error is not None and (isinstance(error, CleanerAborted) or getattr(log, "closed", False)):
                log_.debug("cleaning of %s abandoned: %s", log, error)
                error = None
        finally:
            with self._changed:
                self._in_progress.pop(id(log), None)
                if error is not None:
                    self._errors[id(log)] = error
                self._changed.notify_all()

    def shutdown(self) -> None:
        """Abort the cleanings in progress (at their next read or write, as Kafka's checkDone) and
        stop the threads."""
        self.throttler.close()
        with self._lock:
            self._shut_down = True
            old, self._executor = self._executor, None
            self._changed.notify_all()
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)


__all__ = ["CleanerPool"]
