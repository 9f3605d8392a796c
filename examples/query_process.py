"""Run `examples/kafka_to_delta.py` as a child process with its own Spark driver, in its own process
group, so it can be killed like a crashed machine (SIGKILL to the whole group) and restarted.

Used by the demo and by the crash test. Spark's Python daemon moves itself into a process group of
its own; the child's descendants are collected from /proc before the kill and killed by pid too,
so nothing outlives a kill.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

REPO_ROOT = Path(__file__).resolve().parent.parent

# A child driver that starts fast: one local core, one shuffle partition, no UI.
FAST_LOCAL_CONF = (
    "spark.ui.enabled=false",
    "spark.sql.shuffle.partitions=1",
    "spark.sql.streaming.stopTimeout=5s",
    "spark.driver.memory=512m",
    # C1 only: a short-lived driver spends its first seconds compiling, not running
    "spark.driver.extraJavaOptions=-XX:TieredStopAtLevel=1",
)


def _children_map() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name may contain spaces and parentheses: the ppid follows the last ')'
        fields = stat[stat.rfind(")") + 2 :].split()
        out.setdefault(int(fields[1]), []).append(int(entry))
    return out


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (Linux /proc; empty elsewhere)."""
    if not os.path.isdir("/proc"):
        return []
    children = _children_map()
    out: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class QueryProcess:
    """One run of the Kafka -> Delta query in a child process."""

    def __init__(
        self,
        args: list[str],
        log_path: Path,
        env: dict[str, str] | None = None,
        module: str = "examples.kafka_to_delta",
    ) -> None:
        self.args = args
        self.module = module  # run with `python -m`: the example, or a test's wrapper around it
        self.log_path = log_path
        self.env = {**os.environ, **(env or {})}
        self.env.setdefault("PYSPARK_PYTHON", sys.executable)
        self.env.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def start(self) -> QueryProcess:
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in wait()/kill()
        conf = [arg for item in FAST_LOCAL_CONF for arg in ("--conf", item)]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", self.module, "--master", "local[1]", *conf, *self.args],
            cwd=REPO_ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._log,
            start_new_session=True,  # its own process group: killpg takes the driver and its JVM
        )
        threading.Thread(target=self._read_events, daemon=True).start()
        return self

    def _read_events(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode(errors="replace").strip()
            if line.startswith("{"):
                try:
                    self.events.put(json.loads(line))
                except ValueError:
                    pass
        self.events.put({"event": "exited"})

    def wait_event(self, name: str, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(
                    f"no {name!r} event from the query process within {timeout:.0f}s (log: {self.log_path}):\n"
                    + self.log_excerpt()
                )
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if event.get("event") == name:
                return event
            if event.get("event") in ("exited", "failed"):
                raise RuntimeError(
                    f"query process ended before {name!r}: {event} (log: {self.log_path}):\n{self.log_excerpt()}"
                )

    def log_excerpt(self, errors: int = 8, last: int = 6) -> str:
        """The child log's last error lines and its last lines: why a run ended, readable in a CI report
        where the log file itself is gone."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError as e:
            return f"(no log: {e})"
        marks = ("Error", "Exception", "Traceback", "FAILED", "Caused by")
        picked = [ln for ln in lines if any(m in ln for m in marks)][-errors:]
        return "\n".join(ln[:300] for ln in [*picked, "...", *lines[-last:]])

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the child's process group and every descendant (a crash, not a shutdown)."""
        if self.proc is None:
            return
        below = descendants(self.proc.pid)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for pid in below:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(30)
        self._close()

    def wait(self, timeout: float) -> int:
        assert self.proc is not None
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is not None:
                self._close()

    def _close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


__all__ = ["FAST_LOCAL_CONF", "QueryProcess", "descendants"]
