"""Validation of a producer's record batch before the leader appends it (Kafka's LogValidator).

One entry point, `validate_records_for_append`: it raises one `KafkaError` for a fault of the whole
batch (answered as that partition's error code) and returns the per-record errors (KIP-467's
``record_errors``: batch index and message) for faults of single records. As in Kafka, a batch with
invalid records is refused whole (INVALID_RECORD): `InvalidRecordsError` names the offending
records, which the produce path answers in ``PartitionProduceResponse.record_errors`` so a client
fails those records with their own error and the others as collateral (e.g. keyless records in a
compacted topic).

Offsets, the leader epoch and LogAppendTime are stamped later by the log; this module only reads,
so it may run on any thread: the replica manager runs it on the event loop while a batch is cheap
to check (`inline=True`, which raises `OffloadRequired` for a batch that is not) and on its small
validation pool otherwise (decompression, CRC and record walk release the GIL), as Kafka runs it
on a request handler thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka_wire.errors import CorruptRecordError, ErrorCode, InvalidRecordError, KafkaError, MessageTooLargeError
from kafka_wire.records import (
    COMPRESSION_MASK,
    LOG_OVERHEAD,
    BatchHeader,
    check_records,
    decode_batch,
    iter_batches,
    validate_batch,
)
from kafka_wire.types import LONG_MAX

# What the event loop checks itself (`inline=True`); anything costlier goes to the validation pool.
# Measured (bench/RESULTS.md, "Decompression bombs"): a thread hop costs ~50 us of CPU, the CRC + C
# record walk ~0.3 us per KiB uncompressed (1 MiB: ~0.3 ms). So a batch up to Kafka's default
# max.message.bytes stays on the loop (no hop on the common path, a stall of a fraction of a ms);
# only larger ones (topics configured for them) go to the pool.
INLINE_MAX_BATCH_BYTES = 1024 * 1024
# A compressed batch is tried inline only when its compressed size is at most this, and inflated
# into at most INLINE_MAX_DECOMPRESSED_BYTES there (256 KiB: 0.2-0.5 ms for lz4/zstd/gzip): a
# small batch may claim gigabytes (a decompression bomb), so the loop gives up after inflating
# this much and hands the batch to the pool.
INLINE_MAX_COMPRESSED_BYTES = 64 * 1024
INLINE_MAX_DECOMPRESSED_BYTES = 256 * 1024


class OffloadRequired(Exception):
    """The batch is too costly to check on the event loop: check it again with `inline=False` off
    the loop. Raised before anything was changed."""


@dataclass(frozen=True, slots=True)
class RecordError:
    """One record's fault (KIP-467 ``BatchIndexAndErrorMessage``): the record's index in its batch."""

    batch_index: int
    message: str | None = None


class InvalidRecordsError(InvalidRecordError):
    """INVALID_RECORD for a batch because of some of its records (KIP-467)."""

    def __init__(self, message: str, record_errors: list[RecordError]) -> None:
        super().__init__(message)
        self.record_errors = record_errors


# not frozen: built on every produce append, and a frozen dataclass's __init__ costs ~1.5 us more
@dataclass(slots=True)
class AppendPolicy:
    """The topic configs the produce path checks (the log keeps its own `LogConfig`)."""

    max_message_bytes: int
    compacted: bool
    log_append_time: bool = False
    timestamp_before_max_ms: int = LONG_MAX
    timestamp_after_max_ms: int = 3_600_000


@dataclass(slots=True)
class ValidatedBatch:
    header: BatchHeader
    record_errors: list[RecordError]


def validate_records_for_append(
    records: memoryview, policy: AppendPolicy, now_ms: int, inline: bool = False
) -> ValidatedBatch:
    """Check a produce request's records for one partition. Raises `KafkaError` (one error for the
    batch: INVALID_RECORD, MESSAGE_TOO_LARGE, INVALID_TIMESTAMP, CORRUPT_MESSAGE, ...); returns the
    batch header and the records refused one by one (none today).

    `inline` (on the event loop): raises `OffloadRequired` instead of doing costly work, i.e. for an
    uncompressed batch over INLINE_MAX_BATCH_BYTES, a compressed one over
    INLINE_MAX_COMPRESSED_BYTES, or one that inflates past INLINE_MAX_DECOMPRESSED_BYTES (or does
    not inflate: the pool's full-size try gives the answer)."""
    batches = list(iter_batches(records))
    # Kafka requires exactly one v2 batch per partition in a produce request: the producer
    # state (sequence numbers) is tracked per batch.
    if len(batches) != 1:
        raise InvalidRecordError("Produce requests must contain exactly one record batch per partition")
    pos, framing = batches[0]
    compressed = framing.attributes & COMPRESSION_MASK
    if inline and framing.batch_length + LOG_OVERHEAD > (
        INLINE_MAX_COMPRESSED_BYTES if compressed else INLINE_MAX_BATCH_BYTES
    ):
        raise OffloadRequired
    header = validate_batch(records, pos, max_size=None)
    if header.size > policy.max_message_bytes:
        raise MessageTooLargeError(
            f"The record batch of {header.size} bytes exceeds max.message.bytes={policy.max_message_bytes}"
        )
    if header.is_control:
        raise InvalidRecordError("Clients may not write control records")
    if header.record_count <= 0:
        raise InvalidRecordError("The record batch holds no records")
    if header.last_offset_delta != header.record_count - 1:
        # Kafka's LogValidator: a client batch covers exactly one offset per record
        raise InvalidRecordError("Inconsistent batch offset range and record count")
    # every record must add up (decompressed, in C when built): a batch that does not would poison the
    # partition for each consumer from its offset on (CORRUPT_MESSAGE)
    if inline and compressed:
        try:
            keyless_count = check_records(records, pos, header, INLINE_MAX_DECOMPRESSED_BYTES)
        except CorruptRecordError:
            raise OffloadRequired from None
    else:
        keyless_count = check_records(records, pos, header)
    if not policy.log_append_time:
        # CreateTime bounds (KIP-937), checked on the batch's first and max timestamps (the
        # records' own timestamps are not compared, as before)
        before, after = policy.timestamp_before_max_ms, policy.timestamp_after_max_ms
        for ts in (header.base_timestamp, header.max_timestamp):
            if ts >= 0 and (ts < now_ms - before or ts > now_ms + after):
                raise KafkaError(
                    f"Timestamp {ts} of the record batch is out of range: it must be within "
                    f"message.timestamp.before.max.ms={before} / "
                    f"message.timestamp.after.max.ms={after} of the broker time {now_ms}",
                    ErrorCode.INVALID_TIMESTAMP,
                )
    if policy.compacted and keyless_count:
        # compaction needs a key to compact on: refuse keyless records, each named (decoded
        # again only to name them, on this error path)
        _, recs = decode_batch(records, pos, verify_crc=False)
        keyless = [
            RecordError(i, "Compacted topic cannot accept message without key")
            for i, r in enumerate(recs)
            if r.key is None
        ]
        if keyless:
            raise InvalidRecordsError(
                f"One or more records have been rejected: {len(keyless)} of {len(recs)} records have no key, "
                "which a compacted topic cannot accept",
                keyless,
            )
    return ValidatedBatch(header, [])
