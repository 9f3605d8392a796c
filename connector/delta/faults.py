"""The fault point of the Delta sink's commit: where a test can see, and stretch, the moments a crash
may hit (before the Delta commit, inside it, after it landed but before Spark knows).

Production installs nothing and the calls are no-ops. A test installs a `CommitFaults` with
`install_commit_faults` in the process that runs the commit. With Spark that is not the driver
script's process: Spark's streaming sink runner (a Python worker the JVM starts per commit) unpickles
the data source, calls its ``streamWriter()`` and then ``commit()`` in the same process. So a test
registers a `PyKafkaDeltaDataSource` subclass whose ``streamWriter()`` installs the fault point
first (see tests/spark/delta_crash_query.py); without Spark (tests/spark/test_delta_fencing.py) it
installs it directly.
"""

from __future__ import annotations

from typing import Protocol


class CommitFaults(Protocol):
    """Called by `connector.delta.commit.commit_files` on the driver, in this order: `begin` once,
    then `skipped` (the batch was already in the table) or `end` (with the committed version, None
    when there was nothing to commit). May block (to widen a window) or raise (to fail the commit)."""

    def begin(self, batch_id: int | None) -> None: ...

    def skipped(self, batch_id: int | None) -> None: ...

    def end(self, batch_id: int | None, version: int | None) -> None: ...


class NoCommitFaults:
    """The production fault point: nothing happens."""

    def begin(self, batch_id: int | None) -> None:
        pass

    def skipped(self, batch_id: int | None) -> None:
        pass

    def end(self, batch_id: int | None, version: int | None) -> None:
        pass


NO_COMMIT_FAULTS: CommitFaults = NoCommitFaults()
_installed: CommitFaults = NO_COMMIT_FAULTS


def install_commit_faults(faults: CommitFaults | None) -> None:
    """Install `faults` for every later commit in this process (None: back to no faults)."""
    global _installed
    _installed = NO_COMMIT_FAULTS if faults is None else faults


def commit_faults() -> CommitFaults:
    """The fault point installed in this process."""
    return _installed


__all__ = ["NO_COMMIT_FAULTS", "CommitFaults", "NoCommitFaults", "commit_faults", "install_commit_faults"]
