"""The read path of tiered storage: fetches and timestamp lookups below the local log start offset,
served from the remote tier by the reader pool (`remote.log.reader.threads`, at most
`remote.log.reader.max.pending.tasks` queued). The request waits at most `remote.fetch.max.wait.ms`,
then that partition alone answers KAFKA_STORAGE_ERROR. Nothing here runs on the broker's event loop
except the waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from kafka_wire.errors import ErrorCode, KafkaError, OffsetOutOfRangeError
from kafka_wire.protocol.messages import fetch_response
from kafka_wire.records import BATCH_HEADER_SIZE, parse_batch_header

from ..log.txn_index import AbortedTxn, decode_entries
from .config import RemoteLogManagerConfig
from .index_cache import RemoteIndexCache
from .partitions import TieredPartition
from .storage import (
    IndexType,
    RemoteLogMetadataManager,
    RemoteLogSegmentMetadata,
    RemoteLogSegmentState,
    RemoteResourceNotFoundException,
    RemoteStorageException,
    RemoteStorageManager,
    TopicIdPartition,
)
from .thread_pool import DaemonPool

log = logging.getLogger(__name__)

_FINISHED = RemoteLogSegmentState.COPY_SEGMENT_FINISHED
READ_CHUNK = 64 * 1024
_READ_AHEAD_ENTRIES = 16  # remote reads kept ready for the next fetch...
_READ_AHEAD_MAX_BYTES = 4 << 20  # ...each of at most this many bytes: at most 64 MiB held


class RemoteStorageError(KafkaError):
    """A remote read failed or timed out: the partition answers KAFKA_STORAGE_ERROR (retriable)."""

    code = ErrorCode.KAFKA_STORAGE_ERROR


@dataclass
class RemoteFetchInfo:
    """A planned remote read of one fetch partition (whole batches from the one holding the offset)."""

    partition: TieredPartition
    tip: TopicIdPartition
    fetch_offset: int
    max_bytes: int
    min_one_batch: bool


class RemoteLogReader:
    """Reads of remote segments for one broker, on a pool of its own; the RemoteLogManager decides
    what is remote (`plan_read`) and hands the reads here."""

    def __init__(
        self,
        config: RemoteLogManagerConfig,
        rsm: RemoteStorageManager,
        rlmm: RemoteLogMetadataManager,
        index_cache: RemoteIndexCache,
    ) -> None:
        self.config = config
        self.rsm = rsm
        self.rlmm = rlmm
        self.index_cache = index_cache
        self.pool = DaemonPool(config.reader_threads, "remote-log-reader")
        self._read_ahead: dict[tuple[TopicIdPartition, int, int, bool], Future[Any]] = {}  # loop thread only

    def shutdown(self) -> None:
        self.pool.shutdown()

    def find_segment(self, p: TieredPartition, tip: TopicIdPartition, offset: int) -> RemoteLogSegmentMetadata | None:
        """offset -> leader epoch (through the epoch cache) -> (epoch, offset) -> remote segment."""
        with p.log.lock:
            epoch = p.log.leader_epoch_cache.epoch_for_offset(offset)
        if epoch is not None:
            md = self.rlmm.remote_log_segment_metadata(tip, epoch, offset)
            if md is not None:
                return md
        # Below the local epoch cache (its start moved with the local log start): use the epochs
        # the segments recorded; of overlapping copies the latest start wins.
        best = None
        for md in self.rlmm.list_remote_log_segments(tip):
            if md.state is _FINISHED and md.start_offset <= offset <= md.end_offset:
                if best is None or md.start_offset >= best.start_offset:
                    best = md
        return best

    def iter_batches(self, md: RemoteLogSegmentMetadata, position: int) -> Iterator[tuple[int, bytes]]:
        """(position, whole batch bytes) of the remote segment from `position`, read in chunks."""
        size = md.segment_size_in_bytes
        buf = bytearray()
        buf_start = position
        pos = position

        def fill(until: int) -> bool:
            nonlocal buf_start
            if buf_start + len(buf) >= until:
                return True
            del buf[: pos - buf_start]  # drop what was consumed before reading more
            buf_start = pos
            while buf_start + len(buf) < until:
                first = buf_start + len(buf)
                data = self.rsm.fetch_log_segment(md, first, min(size, max(until, first + READ_CHUNK)) - 1).read()
                if not data:
                    return False
                buf.extend(data)
            return True

        while pos + BATCH_HEADER_SIZE <= size:
            if not fill(pos + BATCH_HEADER_SIZE):
                return
            h = parse_batch_header(buf, pos - buf_start)
            end = pos + h.size
            if end > size or not fill(end):
                return
            yield pos, bytes(buf[pos - buf_start : end - buf_start])
            pos = end

    def read(self, info: RemoteFetchInfo) -> bytes:
        """In a reader thread: whole batches from the one holding the fetch offset, at most
        max_bytes (but the first batch whole with min_one_batch), from one remote segment."""
        md = self.find_segment(info.partition, info.tip, info.fetch_offset)
        if md is None:
            raise OffsetOutOfRangeError(f"offset {info.fetch_offset} of {info.tip} is in no remote segment")
        position = self.index_cache.get(self.rsm, md).position_for(info.fetch_offset)
        # Common case: one ranged read covers the index gap and max_bytes of whole batches.
        end_position = min(md.segment_size_in_bytes, position + info.max_bytes + 2 * READ_CHUNK)
        buf = self.rsm.fetch_log_segment(md, position, end_position - 1).read()
        start = stop = -1
        p = 0
        while p + BATCH_HEADER_SIZE <= len(buf):
            h = parse_batch_header(buf, p)
            if p + h.size > len(buf):
                break
            if start < 0:
                if h.last_offset >= info.fetch_offset:
                    start = p
                else:
                    p += h.size
                    continue
            if p + h.size - start > info.max_bytes and not (p == start and info.min_one_batch):
                break
            p += h.size
            stop = p
        if stop > start >= 0:
            return bytes(memoryview(buf)[start:stop])
        # A first batch larger than that read (or a sparse index): walk the segment in chunks.
        out = bytearray()
        for _, batch in self.iter_batches(md, position):
            h = parse_batch_header(batch, 0)
            if h.last_offset < info.fetch_offset:
                continue
            if len(out) + len(batch) > info.max_bytes and not (not out and info.min_one_batch):
                break
            out += batch
        return bytes(out)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        if self.pool.pending >= self.config.reader_max_pending_tasks:
            raise RemoteStorageError(
                f"the remote log reader queue is full ({self.config.reader_max_pending_tasks} pending tasks)"
            )
        return self.pool.submit(fn, *args)

    async def wait(self, fut: Future[Any]) -> Any:
        """Wait for a reader-pool task at most remote.fetch.max.wait.ms."""
        try:
            return await asyncio.wait_for(asyncio.wrap_future(fut), self.config.fetch_max_wait_ms / 1000)
        except TimeoutError:
            raise RemoteStorageError(
                f"the remote read did not finish within remote.fetch.max.wait.ms={self.config.fetch_max_wait_ms}"
            ) from None
        except KafkaError:
            raise
        except RemoteStorageException as e:
            raise RemoteStorageError(f"remote storage: {e}") from e

    def collect_aborted_transactions(self, info: RemoteFetchInfo, records: bytes) -> list[AbortedTxn]:
        """In a reader thread: the aborted transactions a read_committed consumer needs for
        `records` (read from the remote tier at info.fetch_offset): those in the transaction
        indexes of the remote segments from the one holding the fetch offset on, then of the local
        log (an ABORT marker may be anywhere after the data it ends). A segment uploaded without a
        transaction index had no aborted transaction."""
        upper = info.fetch_offset
        p = 0
        while p + BATCH_HEADER_SIZE <= len(records):
            h = parse_batch_header(records, p)
            upper = h.next_offset
            p += h.size
        if upper <= info.fetch_offset:
            return []
        out: list[AbortedTxn] = []
        offset = info.fetch_offset
        seen: set[str] = set()
        while (md := self.find_segment(info.partition, info.tip, offset)) is not None:
            key = str(md.remote_log_segment_id.id)
            if key in seen:
                break
            seen.add(key)
            try:
                data = self.rsm.fetch_index(md, IndexType.TRANSACTION).read()
            except RemoteResourceNotFoundException:
                data = b""
            out.extend(e for e in decode_entries(data) if e.last_offset >= info.fetch_offset and e.first_offset < upper)
            offset = md.end_offset + 1
        out.extend(info.partition.log.collect_aborted_transactions(max(offset, info.fetch_offset), upper))
        return sorted(set(out), key=lambda e: (e.first_offset, e.producer_id))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.wait(self.submit(fn, *args))

    async def read_fetches(self, pending: list[tuple[Any, RemoteFetchInfo]]) -> None:
        """Fill each placeholder PartitionData with its remote records, or an error of its own.

        On the loop thread. A consumer reading the remote tier asks for the next offsets right
        after, so each read also starts the next one (read-ahead, a few entries): the following
        fetch then finds its data ready instead of waiting for a reader thread.
        """

        async def one(pd: Any, info: RemoteFetchInfo) -> None:
            try:
                key = (info.tip, info.fetch_offset, info.max_bytes, info.min_one_batch)
                fut = self._read_ahead.pop(key, None)
                if fut is None or fut.cancelled() or (fut.done() and fut.exception() is not None):
                    fut = self.submit(self.read, info)
                data = await self.wait(fut)
                if getattr(pd, "aborted_transactions", None) is not None and data:
                    # read_committed: the consumer drops these transactions' records
                    aborted = await self.run(self.collect_aborted_transactions, info, data)
                    pd.aborted_transactions = [
                        fetch_response.AbortedTransaction(producer_id=a.producer_id, first_offset=a.first_offset)
                        for a in aborted
                    ]
                pd.records = data
                self._start_read_ahead(info, data)
            except KafkaError as e:
                pd.error_code = e.code
                pd.records = b""
            except Exception as e:
                log.warning("remote read of %s at %d failed: %s", info.tip, info.fetch_offset, e)
                pd.error_code = ErrorCode.KAFKA_STORAGE_ERROR
                pd.records = b""

        await asyncio.gather(*(one(pd, info) for pd, info in pending))

    def _start_read_ahead(self, info: RemoteFetchInfo, data: bytes) -> None:
        if (
            not data
            or info.max_bytes > _READ_AHEAD_MAX_BYTES
            or self.pool.pending >= self.config.reader_max_pending_tasks // 2
        ):
            return
        pos = 0
        next_offset = -1
        while pos + BATCH_HEADER_SIZE <= len(data):
            h = parse_batch_header(data, pos)
            next_offset = h.next_offset
            pos += h.size
        if next_offset < 0 or next_offset >= info.partition.log.log_start_offset:
            return  # the rest is local
        key = (info.tip, next_offset, info.max_bytes, info.min_one_batch)
        if key in self._read_ahead:
            return
        while len(self._read_ahead) >= _READ_AHEAD_ENTRIES:
            self._read_ahead.pop(next(iter(self._read_ahead)))
        nxt = RemoteFetchInfo(info.partition, info.tip, next_offset, info.max_bytes, info.min_one_batch)
        self._read_ahead[key] = self.pool.submit(self.read, nxt)


__all__ = ["READ_CHUNK", "RemoteFetchInfo", "RemoteLogReader", "RemoteStorageError"]
