"""Kafka's command-line tools run in turn in one JVM (peers/kafka/.../ToolShell.java).

A kafka-*.sh run starts a JVM (1.5-3 s on a loaded 2-core box); a test that runs dozens of tool
commands runs them here instead: the same main classes with the same arguments, the exit code the
process would have had (the tool's Exit.exit), its stdout and stderr. ``run`` has the signature
and result of :meth:`tests.peers.fixtures.JavaClient.run`.
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
from typing import IO

from peers import jvm

MAIN = "pykafka.peers.ToolShell"


class ToolShell:
    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: IO[str] | None = None

    def _start(self, timeout: float = 60.0) -> subprocess.Popen[str]:
        self._stderr = tempfile.TemporaryFile("w+")  # noqa: SIM115 - closed in close()
        proc = subprocess.Popen(
            jvm.java_argv(MAIN, []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            start_new_session=True,
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, name="tool-shell", daemon=True).start()
        self._proc, self._lines = proc, lines
        if self._next(timeout) != "READY":
            raise RuntimeError(f"{MAIN} did not start: {self._tail()}")
        return proc

    def _next(self, timeout: float) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            if self._proc is not None:
                jvm.stop_process(self._proc)  # a tool that hangs: the shell goes, the next run starts another
            self.close()
            raise TimeoutError(f"{MAIN}: no answer within {timeout} s") from None
        if line is None:
            tail = self._tail()
            self.close()
            raise RuntimeError(f"{MAIN} exited: {tail}")
        return line.strip()

    def _tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        return self._stderr.read()[-4000:]

    def run(
        self, main_class: str, *args: str, timeout: float = 120.0, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        proc = self._proc if self._proc is not None and self._proc.poll() is None else self._start()
        assert proc.stdin is not None
        proc.stdin.write("\x1f".join([main_class, *args]) + "\n")
        proc.stdin.flush()
        answer = json.loads(self._next(timeout))
        done = subprocess.CompletedProcess([main_class, *args], answer["code"], answer["stdout"], answer["stderr"])
        if check and done.returncode != 0:
            raise RuntimeError(
                f"{main_class} {' '.join(args)} exited {done.returncode}\n"
                f"--- stdout ---\n{done.stdout[-4000:]}\n--- stderr ---\n{done.stderr[-4000:]}"
            )
        return done

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin is not None:
                self._proc.stdin.close()  # the shell ends at end of input
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                jvm.stop_process(self._proc)  # type: ignore[arg-type]
            self._proc = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
