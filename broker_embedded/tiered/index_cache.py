"""The remote index cache: a bounded LRU of remote segments' offset and time indexes, fetched from
the RemoteStorageManager once and kept parsed (Kafka's RemoteIndexCache,
`remote.log.index.file.cache.total.size.bytes`). The files have the local log's format, so they are
read with the local log's own index classes (`broker_embedded.log.index`). A segment's transaction
index is fetched on its first read_committed read and kept with the others: a read_committed
consumer's every remote fetch looks at the transaction indexes of the segments after it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from broker_embedded.log.index import OffsetIndex, TimeIndex
from broker_embedded.log.txn_index import AbortedTxn, decode_entries

from .storage import IndexType, RemoteLogSegmentMetadata, RemoteResourceNotFoundException, RemoteStorageManager


@dataclass(slots=True)
class RemoteIndexes:
    """The parsed indexes of one remote segment."""

    offset_index: OffsetIndex
    time_index: TimeIndex
    size: int  # bytes of the files, what the cache's bound counts
    aborted: list[AbortedTxn] | None = None  # the transaction index, once fetched

    def position_for(self, offset: int) -> int:
        """Position of the last indexed batch whose offset is <= `offset` (0 if none)."""
        return self.offset_index.lookup(offset)[1]

    def offset_before_timestamp(self, timestamp: int) -> int:
        """Offset of the last time index entry strictly below `timestamp` (the base if none)."""
        return self.time_index.lookup_before(timestamp)[1]


class RemoteIndexCache:
    """A bounded LRU of remote segments' indexes, parsed, keyed by segment id."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Any, RemoteIndexes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, rsm: RemoteStorageManager, md: RemoteLogSegmentMetadata) -> RemoteIndexes:
        key = md.remote_log_segment_id.id
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None:
                self._entries.move_to_end(key)
                return hit
        # fetched outside the lock: a slow store must not hold up hits on other segments
        off_data = rsm.fetch_index(md, IndexType.OFFSET).read()
        time_data = rsm.fetch_index(md, IndexType.TIMESTAMP).read()
        entry = RemoteIndexes(
            OffsetIndex.from_bytes(off_data, md.start_offset),
            TimeIndex.from_bytes(time_data, md.start_offset),
            len(off_data) + len(time_data),
        )
        with self._lock:
            if key not in self._entries:
                self._entries[key] = entry
                self._bytes += entry.size
                while self._bytes > self.max_bytes and len(self._entries) > 1:
                    _, old = self._entries.popitem(last=False)
                    self._bytes -= old.size
        return entry

    def aborted_transactions(self, rsm: RemoteStorageManager, md: RemoteLogSegmentMetadata) -> list[AbortedTxn]:
        """The entries of the segment's transaction index (none if it was uploaded without one:
        it had no aborted transaction). Remote segments never change, so one fetch serves all."""
        entry = self.get(rsm, md)
        if entry.aborted is not None:
            return entry.aborted
        try:
            data = rsm.fetch_index(md, IndexType.TRANSACTION).read()
        except RemoteResourceNotFoundException:
            data = b""
        aborted = decode_entries(data)
        with self._lock:
            if entry.aborted is None:
                entry.aborted = aborted
                if self._entries.get(md.remote_log_segment_id.id) is entry:
                    entry.size += len(data)
                    self._bytes += len(data)
        return aborted

    def remove(self, segment_id: Any) -> None:
        with self._lock:
            old = self._entries.pop(segment_id, None)
            if old is not None:
                self._bytes -= old.size


__all__ = ["RemoteIndexCache", "RemoteIndexes"]
