"""A Spark checkpoint left by a driver killed while it wrote its first batch, made restartable.

Spark writes each entry of a query's offset and commit logs as a temporary file (`.0.<uuid>.tmp`, with a
`..0.<uuid>.tmp.crc` beside it on a local file system) and renames it into place. A driver killed between the
two leaves the temporary file behind. When the query restarts with no batch in its offset log, Spark 4
(MicroBatchExecution.verifyNewCheckpointDirectory) requires `offsets/`, `commits/` and `state/` to be empty,
counts the orphaned temporary file, and fails the query for good with STATE_STORE_CHECKPOINT_LOCATION_NOT_EMPTY
-- whatever the source and the sink. The crash test met this (a SIGKILL during Spark's first offset-log write).

Removing the orphan is safe: Spark never reads a temporary file (the entry it would have become was never
committed), and the restarted query plans batch 0 again, exactly as if the kill had landed a moment earlier;
the pykafka sinks' own offset stores keep the output exactly once. Only temporary files of those two logs are
removed, and only while the offset log holds no batch; anything else in the directories is left for Spark's
error to name.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from urllib.parse import urlparse

from offsets.delta_store import _local_path

log = logging.getLogger(__name__)

# HDFSMetadataLog entries are batch ids; the checkpoint file manager writes ".<name>.<uuid>.tmp" first
_BATCH = re.compile(r"^\d+$")
_TEMPORARY = re.compile(r"^\.\.?\d+\.[0-9a-fA-F-]{36}\.tmp(\.crc)?$")
LOGS = ("offsets", "commits")


def _local_root(checkpoint_location: str) -> Path:
    path = _local_path(checkpoint_location)  # the sinks' own reading of a checkpoint location
    if path is None:
        raise ValueError(
            f"checkpointLocation {checkpoint_location!r}: only a local path or a file:// URI can be repaired here "
            f"(scheme {urlparse(checkpoint_location).scheme!r}); remove the '.N.<uuid>.tmp' files of its offsets/ "
            "and commits/ with that file system's tools"
        )
    return Path(path)


def discard_unfinished_first_batch(checkpoint_location: str) -> list[str]:
    """Remove the temporary files a killed driver left in `offsets/` and `commits/` of a checkpoint whose offset
    log holds no batch yet; returns what was removed ('offsets/.0.<uuid>.tmp', ...). Call it before
    `writeStream...start()` of a query that may have been killed in its first batch. A checkpoint with a batch in
    its offset log is left untouched (Spark resumes it and ignores temporary files)."""
    root = _local_root(checkpoint_location)
    offsets = root / "offsets"
    if offsets.is_dir() and any(_BATCH.match(p.name) for p in offsets.iterdir()):
        return []
    removed: list[str] = []
    for name in LOGS:
        directory = root / name
        if not directory.is_dir():
            continue
        for entry in sorted(directory.iterdir()):
            if entry.is_file() and _TEMPORARY.match(entry.name):
                entry.unlink()
                removed.append(f"{name}/{entry.name}")
    if removed:
        log.warning("checkpoint %s: removed %s left by a driver killed in its first batch", root, removed)
    return removed


__all__ = ["discard_unfinished_first_batch"]
