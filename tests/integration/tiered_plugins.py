"""Test-only remote storage managers and helpers for the tiered storage tests.

`ControlledStorage` is the local-directory RSM with knobs: fail or stall copies / fetches (set as
attributes in-process), and, for the kill -9 tests in a separate broker process, block at a chosen
step while a flag file exists (`rsm.config.block.dir`): `block-copy` holds a copy after its indexes
were written and before the segment file (so partial remote files exist when the broker dies),
`block-delete` holds a delete after the segment file was removed and before its indexes. While
blocked, the plugin touches `copy-blocked` / `delete-blocked` in that directory.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from broker_embedded.tiered.local import LocalTieredStorage
from broker_embedded.tiered.storage import (
    IndexType,
    LogSegmentData,
    RemoteLogSegmentMetadata,
    RemoteStorageException,
)


class ControlledStorage(LocalTieredStorage):
    def __init__(self) -> None:
        super().__init__()
        self.block_dir: Path | None = None
        self.fail_copies = False
        self.copy_delay_s = 0.0
        self.fail_fetches = False
        self.fetch_delay_s = 0.0
        self.copy_attempts = 0
        self.fetch_calls = 0
        self._released = threading.Event()

    def configure(self, configs: Mapping[str, Any]) -> None:
        super().configure(configs)
        if configs.get("block.dir"):
            self.block_dir = Path(str(configs["block.dir"]))

    def _hold(self, flag: str, marker: str) -> None:
        if self.block_dir is None:
            return
        while (self.block_dir / flag).exists() and not self._released.is_set():
            (self.block_dir / marker).touch()
            time.sleep(0.02)

    def _sleep(self, seconds: float) -> None:
        self._released.wait(seconds)

    def release_stalls(self) -> None:
        """End the delays of stalled calls now, and of any later one (the test is done with them)."""
        self._released.set()

    def copy_log_segment_data(self, metadata: RemoteLogSegmentMetadata, data: LogSegmentData) -> bytes | None:
        self.copy_attempts += 1
        if self.copy_delay_s:
            self._sleep(self.copy_delay_s)
        if self.fail_copies:
            raise RemoteStorageException("injected copy failure")
        if self.block_dir is not None and (self.block_dir / "block-copy").exists():
            # write part of the segment's files, then hang: a kill lands mid-copy
            d = self.partition_dir(metadata.topic_id_partition)
            d.mkdir(parents=True, exist_ok=True)
            self._path(metadata, ".index").write_bytes(data.offset_index.read_bytes())
            self._path(metadata, ".log.tmp").write_bytes(data.log_segment.read_bytes()[:100])
            self._hold("block-copy", "copy-blocked")
        return super().copy_log_segment_data(metadata, data)

    def fetch_log_segment(
        self, metadata: RemoteLogSegmentMetadata, start_position: int, end_position: int | None = None
    ) -> BinaryIO:
        self.fetch_calls += 1
        if self.fetch_delay_s:
            self._sleep(self.fetch_delay_s)
        if self.fail_fetches:
            raise RemoteStorageException("injected fetch failure")
        return super().fetch_log_segment(metadata, start_position, end_position)

    def fetch_index(self, metadata: RemoteLogSegmentMetadata, index_type: IndexType) -> BinaryIO:
        if self.fetch_delay_s:
            self._sleep(self.fetch_delay_s)
        if self.fail_fetches:
            raise RemoteStorageException("injected index fetch failure")
        return super().fetch_index(metadata, index_type)

    def delete_log_segment_data(self, metadata: RemoteLogSegmentMetadata) -> None:
        if self.block_dir is not None and (self.block_dir / "block-delete").exists():
            self._path(metadata, ".log").unlink(missing_ok=True)
            self._hold("block-delete", "delete-blocked")
        super().delete_log_segment_data(metadata)

    def close(self) -> None:
        self._released.set()  # never leave a stalled call behind a stopped broker
        super().close()


CONTROLLED_STORAGE = f"{__name__}.ControlledStorage"
