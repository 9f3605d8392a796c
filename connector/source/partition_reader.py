"""The source's executor side: one Spark task reads [from, until) of one partition into Arrow.

Everything a task needs travels in the pickled `KafkaInputPartition` (client settings, offsets,
read options); it fetches from the partition's leader with a per-process cached client, one
Fetch ahead of decoding, and skips gaps (compaction, transaction markers, aborted records under
read_committed). The task's `KafkaInputPartition` and `ReadSpec` live in `connector.source.input_partition`
(the driver plans with them without importing this decoder) and are re-exported here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator

import pyarrow as pa

from connector.kafka_client import (
    READ_COMMITTED,
    KafkaClient,
    KafkaClientError,
    PendingFetch,
    drop_shared_client,
    shared_client,
)
from connector.source.arrow import (
    VectorDecodeError,
    allocate,
    buffers_to_record_batch,
    index_to_record_batch,
    to_record_batch,
    trim,
)
from connector.source.input_partition import KafkaInputPartition, KafkaInputPartitionGroup, ReadSpec
from connector.source.offsets import OffsetFetcher, report_data_loss
from connector.worker_gc import freeze_gc_once  # re-exported: the read path calls it first
from kafka_wire.client.bootstrap import format_addrs
from kafka_wire.columnar import (
    NativeDecodeError,
    decode_columns,
    decode_to_buffers,
    native_decoder_available,
    scan_records,
)
from kafka_wire.errors import ErrorCode
from offsets.spec import (
    TopicPartition,
    tp_str,
)

log = logging.getLogger("connector.source")


_RETRY_SLEEP_S = 0.1
# Below this many records the Arrow-kernel decoder's fixed cost (tens of kernel calls) exceeds
# the all-Python decoder's per-record cost.
_VECTOR_MIN_RECORDS = 256


def _in_place(records: bytes | memoryview) -> tuple[bytes | memoryview, int, int | None]:
    """(buffer, start, stop) for scan_records: a memoryview slice of a `bytes` frame (what the
    codecs hand out) becomes the frame plus bounds, so 8 MB of records are not copied once more."""
    if isinstance(records, memoryview) and isinstance(records.obj, bytes) and records.contiguous:
        start = pa.py_buffer(records).address - pa.py_buffer(records.obj).address
        if 0 <= start and start + records.nbytes <= len(records.obj):
            return records.obj, start, start + records.nbytes
    return records, 0, None


def records_to_arrow(
    records: bytes | memoryview,
    topic: str,
    partition: int,
    from_offset: int,
    until_offset: int,
    *,
    verify_crc: bool,
    aborted: list[tuple[int, int]] | None,
    include_headers: bool,
    on_scanned: Callable[[int], None] | None = None,
) -> tuple[pa.RecordBatch | None, int]:
    """Records of one Fetch response with from <= offset < until as Arrow, and where to fetch next.

    With the C record loop built (kafka_wire._columnar_ext), records go straight into Arrow buffers in
    one pass. Without it, the bulk path scans record boundaries in Python and decodes everything else
    with Arrow kernels. Small responses (Python path), and anything the fast paths find inconsistent,
    go through the exact all-Python decoder (which raises CorruptRecordError on corrupt data).
    """
    frame, start, stop = _in_place(records)
    crc_checked = False
    if native_decoder_available():
        try:
            bufs = decode_to_buffers(
                frame,
                from_offset=from_offset,
                until_offset=until_offset,
                verify_crc=verify_crc,
                aborted=aborted,
                headers=include_headers,
                start=start,
                stop=stop,
                allocate=allocate,
                trim=trim,
                on_scanned=on_scanned,
            )
            return buffers_to_record_batch(bufs, topic, partition, include_headers=include_headers), bufs.next_offset
        except NativeDecodeError as e:
            log.warning("native decode of %s-%d failed (%s): decoding record by record", topic, partition, e)
    else:
        idx = scan_records(frame, verify_crc=verify_crc, aborted=aborted, start=start, stop=stop)
        crc_checked = True
        if on_scanned is not None:
            on_scanned(idx.next_offset)
        if len(idx) >= _VECTOR_MIN_RECORDS:
            try:
                return (
                    index_to_record_batch(
                        idx, topic, partition, from_offset, until_offset, include_headers=include_headers
                    ),
                    idx.next_offset,
                )
            except VectorDecodeError as e:
                log.warning("vectorized decode of %s-%d failed (%s): decoding record by record", topic, partition, e)
    # (the native path may have stopped before checking every CRC: this decoder checks them then)
    cols = decode_columns(records, verify_crc=verify_crc and not crc_checked, aborted=aborted, headers=include_headers)
    i0 = cols.index_of(from_offset)
    i1 = cols.index_of(until_offset)
    if i1 <= i0:
        return None, cols.next_offset
    return to_record_batch(cols, topic, partition, i0, i1, include_headers=include_headers), cols.next_offset


def read_partition(part: KafkaInputPartition | KafkaInputPartitionGroup) -> Iterator[pa.RecordBatch]:
    """One task's read (executor side): its offset range, or each range of a group in turn."""
    if isinstance(part, KafkaInputPartitionGroup):
        for member in part.parts:
            yield from _read_range(member)
    else:
        yield from _read_range(part)


def _read_range(part: KafkaInputPartition) -> Iterator[pa.RecordBatch]:
    """Fetch [from, until) of one partition from its leader and yield Arrow batches.

    Offsets are a range, not a count: gaps (compaction, transaction markers, aborted records
    under read_committed) are skipped; the read ends at the first offset >= until.
    """
    freeze_gc_once()
    spec = part.spec
    if part.from_offset >= part.until_offset:
        return
    client = shared_client(spec.client)
    tp = TopicPartition(part.topic, part.partition)
    offset, until = part.from_offset, part.until_offset
    committed = spec.client.isolation_level == READ_COMMITTED
    last_progress = time.monotonic()
    # One Fetch in flight ahead: as soon as a response's records are indexed (which gives the next
    # offset) the next Fetch goes out, so the broker works while this response is decoded and
    # while Spark consumes the batch.
    pending: PendingFetch | None = None
    pending_offset = -1
    last_error = ErrorCode.NONE
    client.tried = set()

    def prefetch(next_offset: int) -> None:
        nonlocal pending, pending_offset
        if offset < next_offset < until:
            sent = client.fetch_send(tp, next_offset, spec.client.fetch_max_wait_ms)
            if isinstance(sent, PendingFetch):
                pending, pending_offset = sent, next_offset

    try:
        while offset < until:
            waited_ms = (time.monotonic() - last_progress) * 1000
            if waited_ms > spec.poll_timeout_ms:
                cause = "" if last_error == ErrorCode.NONE else f"; last error: {last_error.name}"
                raise TimeoutError(
                    f"Cannot fetch records of {tp_str(tp)} in [{offset}, {until}) within "
                    f"kafkaConsumer.pollTimeoutMs={spec.poll_timeout_ms} ms (brokers tried: "
                    f"{format_addrs(sorted(client.tried))}{cause})"
                )
            if pending is not None and pending_offset == offset:
                res = client.fetch_receive(pending)
            else:
                if pending is not None:
                    client.fetch_discard(pending)
                wait = int(min(spec.client.fetch_max_wait_ms, spec.poll_timeout_ms - waited_ms + 1))
                res = client.fetch(tp, offset, max_wait_ms=wait)
            pending = None
            if res.error != ErrorCode.NONE:
                last_error = res.error
            if res.error == ErrorCode.OFFSET_OUT_OF_RANGE:
                moved_to = _out_of_range(client, spec, tp, offset, until)
                if moved_to == offset:  # valid again: retried within pollTimeoutMs, not forever
                    time.sleep(_RETRY_SLEEP_S)
                else:
                    offset, last_progress = moved_to, time.monotonic()
                continue
            if res.error in (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_ID):
                md = client.metadata([tp[0]])
                if tp[0] not in md.topics or tp[1] not in md.topics[tp[0]].partitions:
                    report_data_loss(
                        f"Cannot fetch {tp_str(tp)} [{offset}, {until}): the topic or partition no longer exists.",
                        spec.fail_on_data_loss,
                    )
                    return
                time.sleep(_RETRY_SLEEP_S)
                continue
            if res.error != ErrorCode.NONE:
                if res.error.name in _FATAL_FETCH:
                    raise KafkaClientError(
                        f"Fetch of {tp_str(tp)} at offset {offset} failed: {res.error.name}", res.error
                    )
                time.sleep(_RETRY_SLEEP_S)  # retriable: leader moving, broker restarting...
                continue
            records = res.records if res.records is not None else b""
            batch, next_offset = records_to_arrow(
                records,
                part.topic,
                part.partition,
                offset,
                until,
                verify_crc=spec.client.check_crcs,
                aborted=res.aborted if committed else None,
                include_headers=spec.include_headers,
                on_scanned=prefetch,
            )
            if next_offset <= offset:
                # nothing at or after `offset` yet; if the log already reaches `until`, the rest of
                # the range is offsets that hold no records (compacted away, or markers)
                visible = res.last_stable_offset if committed and res.last_stable_offset >= 0 else res.high_watermark
                if visible >= until:
                    return
                if res.log_start_offset > offset:
                    moved_to = _out_of_range(client, spec, tp, offset, until)
                    if moved_to != offset:
                        offset, last_progress = moved_to, time.monotonic()
                continue
            offset = next_offset
            last_progress = time.monotonic()
            if batch is not None:
                yield batch
    except (OSError, KafkaClientError):
        # a broken connection must not poison the worker's next task
        pending = None
        drop_shared_client(spec.client)
        raise
    finally:
        if pending is not None:
            # the read ended early (error, or Spark stopped consuming): keep the connection in sync
            try:
                client.fetch_discard(pending)
            except Exception:
                drop_shared_client(spec.client)


_FATAL_FETCH = {
    "TOPIC_AUTHORIZATION_FAILED",
    "CLUSTER_AUTHORIZATION_FAILED",
    "CORRUPT_MESSAGE",
    "UNSUPPORTED_VERSION",
    "UNSUPPORTED_COMPRESSION_TYPE",
    "INVALID_REQUEST",
}


def _out_of_range(client: KafkaClient, spec: ReadSpec, tp: TopicPartition, offset: int, until: int) -> int:
    """Where to continue after OFFSET_OUT_OF_RANGE at `offset`; `until` ends the read. Returns
    `offset` itself when the partition's current leader has it after all (retry there)."""
    client.invalidate(tp[0])  # the answer may have come from a replica that is no longer the leader
    fetcher = OffsetFetcher(client, spec.retries, spec.retry_interval_ms)
    earliest = fetcher.earliest([tp])[tp]
    latest = fetcher.latest([tp])[tp]
    if offset < earliest:
        report_data_loss(
            f"Cannot fetch offset {offset} of {tp_str(tp)}: the earliest available offset is {earliest}; "
            f"offsets [{offset}, {min(earliest, until)}) are skipped.",
            spec.fail_on_data_loss,
        )
        return min(earliest, until)
    if offset < latest:
        # In range by the current leader's ListOffsets: the out-of-range answer came from a broker
        # in the middle of a leader change (e.g. a restarted replica truncated to its high watermark
        # before it learned it is no longer the leader). Not data loss: fetch the same offset again,
        # as Spark's Kafka source does when the offset is inside [earliest, latest).
        log.info("%s: offset %d out of range at a broker, but in [%d, %d) now: retrying", tp_str(tp), offset,
                 earliest, latest)  # fmt: skip
        return offset
    report_data_loss(
        f"Cannot fetch offset {offset} of {tp_str(tp)}: it is beyond the latest offset {latest} (was the topic "
        f"recreated?); offsets [{offset}, {until}) are skipped.",
        spec.fail_on_data_loss,
    )
    return until
