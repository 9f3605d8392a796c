"""Kafka's `log.cleaner.threads`: the compacted logs due for cleaning are cleaned N at a time, each by
one worker thread (Kafka's CleanerThreads, each taking the dirtiest log it can), and the count changes
at runtime (a dynamic broker config; LogCleaner.reconfigure replaces its threads).

The maintenance pass hands its compacted logs over and waits for them: retention, flushes and
segment deletion of a log never run while the same log is being cleaned, as before the pool.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from .cleaner import CleanerStats, clean_log
from .log import Log


class CleanerPool:
    def __init__(self, threads: int = 1, clean: Callable[[Log, int], CleanerStats | None] = clean_log) -> None:
        self._clean = clean
        self._lock = threading.Lock()
        self._threads = max(1, threads)
        self._executor: ThreadPoolExecutor | None = None

    @property
    def threads(self) -> int:
        return self._threads

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

    def clean(self, logs: Iterable[Log], now_ms: int) -> int:
        """Clean `logs` (those with nothing to clean are skipped by the cleaner); how many were cleaned.
        The first error a cleaning raises is raised here once every cleaning has ended."""
        todo = list(logs)
        if not todo:
            return 0
        with self._lock:
            if self._threads == 1 or len(todo) == 1:
                executor = None
            else:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(self._threads, thread_name_prefix="kafka-log-cleaner-thread")
                executor = self._executor
        if executor is None:
            return sum(1 for log in todo if self._clean(log, now_ms))
        futures = [executor.submit(self._clean, log, now_ms) for log in todo]
        cleaned, error = 0, None
        for f in futures:
            try:
                cleaned += 1 if f.result() else 0
            except BaseException as e:  # re-raised below, after the other cleanings ended
                error = error or e
        if error is not None:
            raise error
        return cleaned

    def shutdown(self) -> None:
        with self._lock:
            old, self._executor = self._executor, None
        if old is not None:
            old.shutdown(wait=False)


__all__ = ["CleanerPool"]
