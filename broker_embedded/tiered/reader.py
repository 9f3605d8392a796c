"""The read path of tiered storage: fetches and timestamp lookups below the local log start offset,
served from the remote tier by the reader pool (`remote.log.reader.threads`, at most
`remote.log.reader.max.pending.tasks` queued). The request waits at most `remote.fetch.max.wait.ms`,
then that partition alone answers KAFKA_STORAGE_ERROR. Nothing here runs on the broker's event loop
except the waiting and handing out answers read ahead: a sequential consumer's fetches are answered
from runs of consecutive answers read in one ranged read by a reader thread (`read_run`), each
exactly what a single read (`read`) at its offset returns, so the fetch needs no thread hand-off.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from kafka_wire.errors import ErrorCode, KafkaError, OffsetOutOfRangeError
from kafka_wire.protocol.messages import fetch_response
from kafka_wire.records import BATCH_HEADER_SIZE, parse_batch_header

from ..log.txn_index import AbortedTxn
from .config import RemoteLogManagerConfig
from .index_cache import RemoteIndexCache
from .partitions import TieredPartition
from .storage import (
    RemoteLogMetadataManager,
    RemoteLogSegmentMetadata,
    RemoteLogSegmentState,
    RemoteStorageException,
    RemoteStorageManager,
    TopicIdPartition,
)
from .thread_pool import DaemonPool

log = logging.getLogger(__name__)

_FINISHED = RemoteLogSegmentState.COPY_SEGMENT_FINISHED
READ_CHUNK = 64 * 1024
# Read-ahead for sequential consumers: one ranged read of READ_AHEAD_RUN_BYTES serves the next
# fetches of a stream (one consumer position: partition, max bytes, next offset) from memory. A
# stream keeps at most two runs' buffers (the one being answered from and the next, read as soon as
# the consumer is into the current run, so the reader thread has a run's worth of fetches to finish
# it), and at most READ_AHEAD_STREAMS streams are kept (least recently used dropped): at most
# 16 x 2 x (4 MiB + 128 KiB), about 132 MiB, held besides the responses being written.
READ_AHEAD_RUN_BYTES = 4 << 20
READ_AHEAD_STREAMS = 16
_READ_AHEAD_MAX_BYTES = READ_AHEAD_RUN_BYTES  # a fetch asking more than this reads without read-ahead


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
        self._streams: OrderedDict[int, _Stream] = OrderedDict()  # by stream id, least recently used first
        self._stream_ids = itertools.count()

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
        start = _batch_holding(buf, info.fetch_offset)
        stop, _, full = _answer_end(buf, start, info.max_bytes, info.min_one_batch)
        if stop > start and (full or position + len(buf) >= md.segment_size_in_bytes):
            return bytes(memoryview(buf)[start:stop])
        # A first batch larger than that read, or a sparse index (the answer was cut by the range,
        # not by max_bytes): walk the segment in chunks from the batch holding the offset (or
        # from where this read stopped holding whole batches below it).
        out = bytearray()
        for _, batch in self.iter_batches(md, position + start):
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

    def collect_aborted_transactions(
        self,
        info: RemoteFetchInfo,
        records: bytes | memoryview,
        chain: tuple[list[AbortedTxn], int] | None = None,
    ) -> list[AbortedTxn]:
        """In a reader thread: the aborted transactions a read_committed consumer needs for
        `records` (read from the remote tier at info.fetch_offset): those in the transaction
        indexes of the remote segments from the one holding the fetch offset on, then of the local
        log (an ABORT marker may be anywhere after the data it ends). A segment uploaded without a
        transaction index had no aborted transaction. `chain`: `remote_aborted_chain` of an offset
        of the same remote segment (the answers of one run share it)."""
        upper = info.fetch_offset
        p = 0
        while p + BATCH_HEADER_SIZE <= len(records):
            h = parse_batch_header(records, p)
            upper = h.next_offset
            p += h.size
        if upper <= info.fetch_offset:
            return []
        entries, offset = self.remote_aborted_chain(info) if chain is None else chain
        out = [e for e in entries if e.last_offset >= info.fetch_offset and e.first_offset < upper]
        out.extend(info.partition.log.collect_aborted_transactions(max(offset, info.fetch_offset), upper))
        return sorted(set(out), key=lambda e: (e.first_offset, e.producer_id))

    def remote_aborted_chain(self, info: RemoteFetchInfo) -> tuple[list[AbortedTxn], int]:
        """The transaction index entries of the remote segments from the one holding the fetch
        offset on, and the offset after the last of them (where the local log's take over)."""
        out: list[AbortedTxn] = []
        offset = info.fetch_offset
        seen: set[str] = set()
        while (md := self.find_segment(info.partition, info.tip, offset)) is not None:
            key = str(md.remote_log_segment_id.id)
            if key in seen:
                break
            seen.add(key)
            out.extend(self.index_cache.aborted_transactions(self.rsm, md))
            offset = md.end_offset + 1
        return out, offset

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.wait(self.submit(fn, *args))

    async def read_fetches(self, pending: list[tuple[Any, RemoteFetchInfo]]) -> None:
        """Fill each placeholder PartitionData with its remote records, or an error of its own.

        On the loop thread. A consumer reading the remote tier asks for the next offsets right
        after, so the reads run ahead of it (`_Stream`): the next fetches are answered from memory,
        without waiting for a reader thread. Answers that are ready are filled in at once.
        """
        waits = []
        for pd, info in pending:
            read_committed = getattr(pd, "aborted_transactions", None) is not None
            try:
                answer = self._ready_answer(info, read_committed)
            except Exception as e:  # noqa: BLE001 - never fail the whole response for one partition
                _fail(pd, info, e)
                continue
            if answer is None:
                waits.append(self._read_through(pd, info, read_committed))
            else:
                _fill(pd, answer)
        if waits:
            await asyncio.gather(*waits)

    async def _read_through(self, pd: Any, info: RemoteFetchInfo, read_committed: bool) -> None:
        """A fetch no read-ahead answered: wait for a run starting at its offset (a stream's run
        in flight when one starts there, else a new stream's), then keep reading ahead."""
        key = (info.tip, info.max_bytes, info.min_one_batch, read_committed)
        try:
            s = self._find_stream(key, info.fetch_offset)
            if s is not None and s.pending is not None and s.pending_from == info.fetch_offset and not s.claimed:
                s.claimed = True  # one waiter per run: a timed-out waiter cancels what it waits on
                fut = s.pending
            else:
                # a new stream at this offset (a first fetch, a seek, another consumer): its
                # first run reads no more than this fetch needs
                s = self._new_stream(key)
                fut = self.submit(self.read_run, info, read_committed, info.max_bytes)
                s.pending, s.pending_from, s.claimed = fut, info.fetch_offset, True
            try:
                await self.wait(fut)
            except BaseException:
                if self._streams.get(s.id) is s:
                    del self._streams[s.id]  # never serve a run that failed or came too late
                raise
            self._absorb(s)
            answer = s.ready.get(info.fetch_offset)
            if answer is None:  # the stream was dropped meanwhile: read alone
                answer = await self.run(self.read_run_one, info, read_committed)
            else:
                self._advance(s, info)
            _fill(pd, answer)
        except Exception as e:  # noqa: BLE001 - the partition answers an error of its own
            _fail(pd, info, e)

    def _ready_answer(self, info: RemoteFetchInfo, read_committed: bool) -> _Answer | None:
        s = self._find_stream((info.tip, info.max_bytes, info.min_one_batch, read_committed), info.fetch_offset)
        if s is None:
            return None
        answer = s.ready.get(info.fetch_offset)
        if answer is not None:
            self._advance(s, info)
        return answer

    def _find_stream(self, key: _StreamKey, offset: int) -> _Stream | None:
        """The stream that has the answer at `offset` ready or is reading it (several consumers
        of a partition at different positions each have their own)."""
        for s in self._streams.values():
            if s.key == key:
                self._absorb(s)
                if offset in s.ready or (s.pending is not None and s.pending_from == offset):
                    return s
        return None

    def _new_stream(self, key: _StreamKey) -> _Stream:
        s = _Stream(key, next(self._stream_ids))
        self._streams[s.id] = s
        while len(self._streams) > READ_AHEAD_STREAMS:
            self._streams.popitem(last=False)  # the least recently used
        return s

    @staticmethod
    def _absorb(s: _Stream) -> None:
        """Take a finished run's answers into the stream (a failed one is dropped: the fetch that
        needs its offset reads again and gets the error itself)."""
        fut = s.pending
        if fut is None or not fut.done():
            return
        s.pending = None
        if fut.cancelled() or fut.exception() is not None:
            return
        answers, tail = fut.result()
        s.ready.update(answers)
        s.tail = tail
        if answers:
            s.last_run_from = min(answers)

    def _advance(self, s: _Stream, info: RemoteFetchInfo) -> None:
        """The consumer is at info.fetch_offset: forget what is behind it and, once it is into the
        last run read (the runs before are then dropped), read the next run from where the answers
        end."""
        if s.id in self._streams:
            self._streams.move_to_end(s.id)
        offset = info.fetch_offset
        for o in [o for o in s.ready if o < offset]:
            del s.ready[o]
        if (
            s.pending is not None
            or s.tail < 0
            or info.max_bytes > _READ_AHEAD_MAX_BYTES
            or s.tail >= info.partition.log.log_start_offset  # the rest is local
            or self.pool.pending >= self.config.reader_max_pending_tasks // 2
        ):
            return
        if offset < s.last_run_from:
            return  # still answering from the run before: its buffer and the last run's are held
        nxt = RemoteFetchInfo(info.partition, info.tip, s.tail, info.max_bytes, info.min_one_batch)
        s.pending = self.pool.submit(self.read_run, nxt, s.key[3], READ_AHEAD_RUN_BYTES)
        s.pending_from, s.claimed = s.tail, False

    def read_run(self, info: RemoteFetchInfo, read_committed: bool, budget: int) -> tuple[dict[int, _Answer], int]:
        """In a reader thread: the answers to info's fetch and to the fetches that follow it, read
        with one ranged read of about `budget` bytes of one remote segment, and the offset after
        the last answer (-1: none to read ahead). Each answer is exactly what `read` returns for
        its offset: whole batches, at most max_bytes (the first whole with min_one_batch), ending
        where the next batch would not fit or the segment ends."""
        md = self.find_segment(info.partition, info.tip, info.fetch_offset)
        if md is None:
            raise OffsetOutOfRangeError(f"offset {info.fetch_offset} of {info.tip} is in no remote segment")
        size = md.segment_size_in_bytes
        position = self.index_cache.get(self.rsm, md).position_for(info.fetch_offset)
        end_position = min(size, position + max(budget, info.max_bytes) + 2 * READ_CHUNK)
        buf = memoryview(self.rsm.fetch_log_segment(md, position, end_position - 1).read())
        whole = position + len(buf) >= size  # the read reached the segment's end
        answers: dict[int, _Answer] = {}
        offset = info.fetch_offset
        p = _batch_holding(buf, offset)
        tail = -1
        chain: tuple[list[AbortedTxn], int] | None = None
        while True:
            start = p
            p, next_offset, full = _answer_end(buf, start, info.max_bytes, info.min_one_batch)
            if p == start:
                break
            if not (full or whole):
                break  # cut by this read's range, not by max_bytes: the next run (or `read`) reads it whole
            records = buf[start:p]
            aborted = None
            if read_committed:
                at = RemoteFetchInfo(info.partition, info.tip, offset, info.max_bytes, info.min_one_batch)
                chain = chain or self.remote_aborted_chain(at)  # the same for every answer of the run
                aborted = self.collect_aborted_transactions(at, records, chain)
            answers[offset] = (records, aborted)
            offset = tail = next_offset
            if not full:
                break  # the segment's end
        if info.fetch_offset not in answers:
            # a first batch larger than that read, or a sparse index: the chunked walk of `read`
            return {info.fetch_offset: self.read_run_one(info, read_committed)}, -1
        return answers, tail

    def read_run_one(self, info: RemoteFetchInfo, read_committed: bool) -> _Answer:
        """In a reader thread: one fetch's answer, read on its own."""
        data = self.read(info)
        return data, (self.collect_aborted_transactions(info, data) if read_committed and data else None)


_Answer = tuple[bytes | memoryview, "list[AbortedTxn] | None"]


def _batch_holding(buf: bytes | memoryview, offset: int) -> int:
    """Position in `buf` (whole batches from its start) of the batch holding `offset`, or of the
    first batch this read does not hold whole (its header or its end is past `buf`)."""
    p = 0
    while p + BATCH_HEADER_SIZE <= len(buf):
        h = parse_batch_header(buf, p)
        if h.last_offset >= offset or p + h.size > len(buf):
            break
        p += h.size
    return p


def _answer_end(buf: bytes | memoryview, start: int, max_bytes: int, min_one_batch: bool) -> tuple[int, int, bool]:
    """Where a fetch's answer from `start` ends: (end position, offset after its last batch or -1
    without one, whether it ended because the next batch would pass max_bytes). Whole batches of
    `buf`, at most max_bytes, the first whole with min_one_batch. A header tells its batch's size,
    so a batch that would pass max_bytes ends the answer even when `buf` holds only its beginning;
    an answer of read and of read-ahead alike (they must agree to the byte)."""
    p, next_offset = start, -1
    while p + BATCH_HEADER_SIZE <= len(buf):
        h = parse_batch_header(buf, p)
        if p + h.size - start > max_bytes and not (p == start and min_one_batch):
            return p, next_offset, True
        if p + h.size > len(buf):
            break
        p += h.size
        next_offset = h.next_offset
    return p, next_offset, False


_StreamKey = tuple[TopicIdPartition, int, bool, bool]  # partition, max bytes, min one batch, read_committed


@dataclass
class _Stream:
    """Read-ahead of one consumer position: answers by fetch offset (whole batches, exactly what a
    fetch at that offset gets) and the run in flight. On the loop thread only."""

    key: _StreamKey
    id: int
    ready: dict[int, _Answer] = field(default_factory=dict)
    tail: int = -1  # the fetch offset after the last answer (-1: nothing to read ahead)
    last_run_from: int = -1  # the first answer's offset of the last run read
    pending: Future[Any] | None = None  # a run of answers being read
    pending_from: int = -1
    claimed: bool = False  # a fetch waits on `pending` (it cancels it when it times out)


def _fill(pd: Any, answer: _Answer) -> None:
    records, aborted = answer
    if aborted is not None and pd.aborted_transactions is not None:
        # read_committed: the consumer drops these transactions' records
        pd.aborted_transactions = [
            fetch_response.AbortedTransaction(producer_id=a.producer_id, first_offset=a.first_offset) for a in aborted
        ]
    pd.records = records


def _fail(pd: Any, info: RemoteFetchInfo, e: BaseException) -> None:
    if isinstance(e, KafkaError):
        pd.error_code = e.code
    else:
        log.warning("remote read of %s at %d failed: %s", info.tip, info.fetch_offset, e)
        pd.error_code = ErrorCode.KAFKA_STORAGE_ERROR
    pd.records = b""


__all__ = [
    "READ_AHEAD_RUN_BYTES",
    "READ_AHEAD_STREAMS",
    "READ_CHUNK",
    "RemoteFetchInfo",
    "RemoteLogReader",
    "RemoteStorageError",
]
