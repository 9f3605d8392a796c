"""Whether a log directory is usable (Kafka's LogDirFailureChannel, for our single log dir).

Kafka marks a log dir offline on the first IOException of a write, flush or checkpoint: its
partitions answer KAFKA_STORAGE_ERROR (retriable for clients) instead of the broker dying or the
connection closing. Kafka brings the dir back only with a restart; an embedded broker on a laptop
fills its disk far more often than a server does, so ours also comes back by itself once a probe
write (as large as the write that failed) succeeds again — checked by the maintenance thread.

Every transition is logged once, as one line: a full disk must not turn into a traceback per
maintenance tick.

A dir of a broker with several `log.dirs` (JBOD) is not recoverable: as in Kafka (KIP-858), it stays
offline until the broker restarts, since its partitions were reported offline and led elsewhere. Listeners
hear of each dir that goes offline (the broker reports it to the controller).
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .errors import KafkaStorageError

log = logging.getLogger(__name__)

PROBE_FILE = ".kafka_dir_probe"
_MIN_PROBE_BYTES = 64 * 1024
_MAX_PROBE_BYTES = 1024 * 1024
_PROCESS_LIMITS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM})


class LogDirState:
    """Online/offline state of one log dir, shared by its LogManager and every Log in it."""

    def __init__(self, path: Path, *, recoverable: bool = True) -> None:
        self.path = path
        # False (JBOD): once offline, the dir stays offline until a restart, as in Kafka
        self.recoverable = recoverable
        # called once per transition to offline, on the thread that saw the error
        self.listeners: list[Callable[[LogDirState], None]] = []
        self._lock = threading.Lock()
        self.offline_reason: str | None = None
        self.offline_since_ms = 0
        # Set once any storage error happened: the files may hold a torn tail that a truncate
        # could not remove, so the next start must run recovery (no clean shutdown marker).
        self.had_error = False
        self._probe_bytes = _MIN_PROBE_BYTES

    @property
    def online(self) -> bool:
        return self.offline_reason is None

    def check_online(self, what: str) -> None:
        """Refuse a write while the dir is offline (KAFKA_STORAGE_ERROR, retriable)."""
        reason = self.offline_reason
        if reason is not None:
            raise KafkaStorageError(f"Log directory {self.path} is offline ({reason}): cannot {what}")

    def fail(self, what: str, error: OSError, attempted_bytes: int = 0) -> KafkaStorageError:
        """Mark the dir offline after `error` while doing `what`; returns the error to raise."""
        reason = f"{type(error).__name__}: {error.strerror or error}"
        if error.errno in _PROCESS_LIMITS:
            # out of descriptors or memory is the process's problem, not the disk's: the dir
            # stays online (Kafka would equally not blame the disk for it)
            log.warning("%s failed with %s (a process limit, not a disk error)", what, reason)
            return KafkaStorageError(f"Error while {what} in dir {self.path}: {reason}")
        with self._lock:
            self.had_error = True
            newly = self.offline_reason is None
            if newly:
                self.offline_reason = reason
                self.offline_since_ms = time.time_ns() // 1_000_000
            self._probe_bytes = min(max(self._probe_bytes, attempted_bytes, _MIN_PROBE_BYTES), _MAX_PROBE_BYTES)
        if newly:
            log.error("Log directory %s is offline: %s failed with %s", self.path, what, reason)
            for listener in list(self.listeners):
                try:
                    listener(self)
                except Exception:
                    log.exception("log dir failure listener failed")
        return KafkaStorageError(f"Error while {what} in dir {self.path}: {reason}")

    def probe(self) -> bool:
        """While offline: try a write + fsync of the size that failed; online again if it works."""
        if self.offline_reason is None:
            return True
        if not self.recoverable:
            return False
        probe = self.path / PROBE_FILE
        try:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                data = b"\0" * self._probe_bytes
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            return False
        finally:
            try:
                probe.unlink(missing_ok=True)
            except OSError:
                pass
        with self._lock:
            reason, self.offline_reason = self.offline_reason, None
            self._probe_bytes = _MIN_PROBE_BYTES
        log.warning("Log directory %s is online again (was offline: %s)", self.path, reason)
        return True
