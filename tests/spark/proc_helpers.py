"""Running a command that starts its own Spark driver (spark-submit, the demo) from a test."""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Any


def communicate_in_own_session(cmd: list[str], timeout: float, **popen_kwargs: Any) -> tuple[int, Any, Any]:
    """Run `cmd` in a session of its own and wait up to `timeout` s for it: (exit code, stdout, stderr).
    Whatever it started is SIGKILLed as a group if it is still running when the wait ends (a timeout
    raises subprocess.TimeoutExpired after that), so no JVM outlives the test."""
    kwargs: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **popen_kwargs}
    proc = subprocess.Popen(cmd, start_new_session=True, **kwargs)
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
    return proc.returncode, out, err
