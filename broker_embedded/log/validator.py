"""Validation of a producer's record batch before the leader appends it (Kafka's LogValidator).

One entry point, `validate_records_for_append`: it raises one `KafkaError` for a fault of the whole
batch (answered as that partition's error code) and returns the per-record errors (KIP-467's
``record_errors``: batch index and message) for faults of single records. As in Kafka, a batch with
invalid records is refused whole (INVALID_RECORD): `InvalidRecordsError` names the offending
records, which the produce path answers in ``PartitionProduceResponse.record_errors`` so a client
fails those records with their own error and the others as collateral (e.g. keyless records in a
compacted topic).

Offsets, the leader epoch and LogAppendTime are stamped later by the log; this module only reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka_wire.errors import ErrorCode, InvalidRecordError, KafkaError, MessageTooLargeError
from kafka_wire.records import BatchHeader, check_records, decode_batch, iter_batches, validate_batch

LONG_MAX = 9223372036854775807


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


def validate_records_for_append(records: memoryview, policy: AppendPolicy, now_ms: int) -> ValidatedBatch:
    """Check a produce request's records for one partition. Raises `KafkaError` (one error for the
    batch: INVALID_RECORD, MESSAGE_TOO_LARGE, INVALID_TIMESTAMP, CORRUPT_MESSAGE, ...); returns the
    batch header and the records refused one by one (none today)."""
    batches = list(iter_batches(records))
    # Kafka requires exactly one v2 batch per partition in a produce request: the producer
    # state (sequence numbers) is tracked per batch.
    if len(batches) != 1:
        raise InvalidRecordError("Produce requests must contain exactly one record batch per partition")
    pos, _ = batches[0]
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
