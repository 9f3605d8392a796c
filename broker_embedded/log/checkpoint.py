"""Checkpoint files in Kafka's text format, written atomically.

Format (every checkpoint Kafka keeps in a log dir or partition dir)::

    0                 <- version
    2                 <- number of entries
    my-topic 0 1234   <- one entry per line, fields separated by a space
    my-topic 1 99

`recovery-point-offset-checkpoint`, `log-start-offset-checkpoint` and
`replication-offset-checkpoint` hold `topic partition offset`; a partition's
`leader-epoch-checkpoint` holds `epoch start_offset`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from kafka_wire.types import TopicPartition

RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint"
LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint"
REPLICATION_OFFSET_CHECKPOINT = "replication-offset-checkpoint"
LEADER_EPOCH_CHECKPOINT = "leader-epoch-checkpoint"

CHECKPOINT_VERSION = 0


class CheckpointError(Exception):
    """A checkpoint file exists but cannot be parsed."""


def write_atomically(path: Path, data: bytes) -> None:
    """Write tmp, fsync, rename over `path`, fsync the directory: never a half-written file."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    """Make a rename/create/unlink inside `directory` durable."""
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass  # some filesystems refuse fsync on directories
    finally:
        os.close(dfd)


def _write_lines(path: Path, lines: list[str]) -> None:
    text = f"{CHECKPOINT_VERSION}\n{len(lines)}\n" + "".join(line + "\n" for line in lines)
    write_atomically(path, text.encode("utf-8"))


def _read_lines(path: Path, fields_per_line: int) -> list[list[str]]:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 2:
        raise CheckpointError(f"{path}: missing version or count line")
    try:
        version = int(lines[0])
        count = int(lines[1])
    except ValueError:
        raise CheckpointError(f"{path}: malformed header") from None
    if version != CHECKPOINT_VERSION:
        raise CheckpointError(f"{path}: unsupported checkpoint version {version}")
    entries = lines[2:]
    if len(entries) != count:
        raise CheckpointError(f"{path}: expected {count} entries, found {len(entries)}")
    out: list[list[str]] = []
    for line in entries:
        # Topic names cannot contain spaces, so splitting on whitespace is unambiguous.
        parts = line.split()
        if len(parts) != fields_per_line:
            raise CheckpointError(f"{path}: malformed line {line!r}")
        out.append(parts)
    return out


class OffsetCheckpointFile:
    """`topic partition offset` entries: recovery points, log start offsets, high watermarks."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def write(self, offsets: Mapping[TopicPartition, int] | Mapping[tuple[str, int], int]) -> None:
        _write_lines(self.path, [f"{t} {p} {o}" for (t, p), o in sorted(offsets.items())])

    def read(self) -> dict[TopicPartition, int]:
        """Entries of the file, {} if it does not exist; raises CheckpointError if malformed."""
        out: dict[TopicPartition, int] = {}
        for topic, partition, offset in _read_lines(self.path, 3):
            try:
                out[TopicPartition(topic, int(partition))] = int(offset)
            except ValueError:
                raise CheckpointError(f"{self.path}: malformed entry {topic} {partition} {offset}") from None
        return out


class LeaderEpochCheckpointFile:
    """`epoch start_offset` entries of one partition's leader epoch cache."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def write(self, entries: list[tuple[int, int]]) -> None:
        _write_lines(self.path, [f"{e} {o}" for e, o in entries])

    def read(self) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for epoch, offset in _read_lines(self.path, 2):
            try:
                out.append((int(epoch), int(offset)))
            except ValueError:
                raise CheckpointError(f"{self.path}: malformed entry {epoch} {offset}") from None
        return out


def read_high_watermarks(log_dir: str | os.PathLike[str]) -> dict[TopicPartition, int]:
    """The broker's `replication-offset-checkpoint` (HW per partition) in `log_dir`."""
    return OffsetCheckpointFile(Path(log_dir) / REPLICATION_OFFSET_CHECKPOINT).read()


def write_high_watermarks(log_dir: str | os.PathLike[str], high_watermarks: dict[TopicPartition, int]) -> None:
    OffsetCheckpointFile(Path(log_dir) / REPLICATION_OFFSET_CHECKPOINT).write(high_watermarks)
