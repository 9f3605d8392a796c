"""A log dir that fails for real: a small tmpfs (root only) filled until writes fail with ENOSPC."""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path


def mount_tmpfs(path: Path, size: str) -> bool:
    """Mount a tmpfs of `size` (e.g. "4m") at `path`; False where mounting is not allowed."""
    path.mkdir(parents=True, exist_ok=True)
    try:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    except OSError:
        return False
    return r.returncode == 0


def unmount(path: Path | str) -> None:
    """Lazy unmount: a broker still holding files there does not keep the mount."""
    subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill_until_full(path: Path) -> None:
    """Write zeros into `path` until its file system is full."""
    fd = os.open(path / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        chunk = b"\0" * 65536
        while True:
            os.write(fd, chunk)
    except OSError as e:
        assert e.errno == errno.ENOSPC, e
    finally:
        os.close(fd)
