"""A partition this broker leads: validation of appended batches, the high watermark, reads.

Single node: the ISR is this broker alone, so the high watermark is the log end offset after every
append and acks=all is satisfied by the append itself. (Replication replaces `_advance_high_watermark`.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from broker_embedded.log.log import Log
from kafka_wire.errors import ErrorCode, InvalidRecordError, KafkaError, MessageTooLargeError
from kafka_wire.records import decode_batch, iter_batches, validate_batch

if TYPE_CHECKING:
    from broker_embedded.broker import Broker

LONG_MAX = 9223372036854775807
EARLIEST_TIMESTAMP = -2
LATEST_TIMESTAMP = -1
MAX_TIMESTAMP = -3
EARLIEST_LOCAL_TIMESTAMP = -4
EARLIEST_PENDING_UPLOAD_TIMESTAMP = -5
LATEST_TIERED_TIMESTAMP = -5


@dataclass(slots=True)
class AppendResult:
    base_offset: int
    log_append_time_ms: int
    log_start_offset: int


@dataclass(slots=True)
class ReadResult:
    records: bytes | memoryview | None
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int


class Partition:
    def __init__(self, topic: str, index: int, topic_id: bytes, log: Log, broker: Broker) -> None:
        self.topic = topic
        self.index = index
        self.topic_id = topic_id
        self.log = log
        self.broker = broker
        self.leader_epoch = 0
        self.fetch_key = ("fetch", topic, index)
        self.deleted = False
        self.timestamp_before_max_ms = LONG_MAX
        self.timestamp_after_max_ms = 3_600_000
        self.log_append_time = False
        # The ISR is this broker alone, so a leader's HW is its LEO from the start (Kafka's
        # makeLeader → maybeIncrementLeaderHW). After a crash the checkpointed HW lags the
        # recovered log: without this, acknowledged records stay invisible until the next append.
        self.log.update_high_watermark(self.log.log_end_offset)

    def update_topic_configs(self, configs: dict[str, Any]) -> None:
        """Topic configs checked on the produce path (the log keeps its own LogConfig)."""
        self.timestamp_before_max_ms = int(configs["message.timestamp.before.max.ms"])
        self.timestamp_after_max_ms = int(configs["message.timestamp.after.max.ms"])
        self.log_append_time = configs["message.timestamp.type"] == "LogAppendTime"

    # --- offsets -----------------------------------------------------------------------
    @property
    def high_watermark(self) -> int:
        return self.log.high_watermark

    @property
    def last_stable_offset(self) -> int:
        return self.log.last_stable_offset

    @property
    def log_start_offset(self) -> int:
        return self.log.log_start_offset

    def check_leader_epoch(self, current_leader_epoch: int) -> None:
        if current_leader_epoch == -1:
            return
        if current_leader_epoch < self.leader_epoch:
            raise KafkaError(
                f"leader epoch {current_leader_epoch} is older than {self.leader_epoch}",
                ErrorCode.FENCED_LEADER_EPOCH,
            )
        if current_leader_epoch > self.leader_epoch:
            raise KafkaError(
                f"leader epoch {current_leader_epoch} is newer than {self.leader_epoch}",
                ErrorCode.UNKNOWN_LEADER_EPOCH,
            )

    # --- produce -------------------------------------------------------------------------
    def append_records_as_leader(self, records: memoryview) -> AppendResult:
        if self.deleted:
            raise KafkaError(code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        config = self.log.config
        batches = list(iter_batches(records))
        # Kafka requires exactly one v2 batch per partition in a produce request: the producer
        # state (sequence numbers) is tracked per batch.
        if len(batches) != 1:
            raise InvalidRecordError("Produce requests must contain exactly one record batch per partition")
        pos, _ = batches[0]
        header = validate_batch(records, pos, max_size=None)
        if header.size > config.max_message_bytes:
            raise MessageTooLargeError(
                f"The record batch of {header.size} bytes exceeds max.message.bytes={config.max_message_bytes}"
            )
        if header.is_control:
            raise InvalidRecordError("Clients may not write control records")
        if header.record_count <= 0:
            raise InvalidRecordError("The record batch holds no records")
        if header.last_offset_delta != header.record_count - 1:
            # Kafka's LogValidator: a client batch covers exactly one offset per record
            raise InvalidRecordError("Inconsistent batch offset range and record count")
        if not self.log_append_time:
            # CreateTime bounds (KIP-937), checked on the batch's first and max timestamps: the
            # records in between are not decompressed on this path
            now = time.time_ns() // 1_000_000
            for ts in (header.base_timestamp, header.max_timestamp):
                if ts >= 0 and (ts < now - self.timestamp_before_max_ms or ts > now + self.timestamp_after_max_ms):
                    raise KafkaError(
                        f"Timestamp {ts} of the record batch is out of range: it must be within "
                        f"message.timestamp.before.max.ms={self.timestamp_before_max_ms} / "
                        f"message.timestamp.after.max.ms={self.timestamp_after_max_ms} of the broker time {now}",
                        ErrorCode.INVALID_TIMESTAMP,
                    )
        if config.compact_enabled:
            # compaction needs a key to compact on: refuse keyless records (decompresses only
            # for compacted topics, off the common path)
            _, recs = decode_batch(records, pos, verify_crc=False)
            if any(r.key is None for r in recs):
                raise InvalidRecordError("Compacted topic cannot accept message without key")
        # Offsets, the leader epoch and LogAppendTime are stamped by the log; idempotent
        # duplicates come back with their original offsets and nothing written.
        info = self.log.append_as_leader(records, self.leader_epoch)
        if not info.duplicate:
            self.log.update_high_watermark(self.log.log_end_offset)
            self.broker.fetch_purgatory.check_and_complete(self.fetch_key)
        return AppendResult(info.first_offset, info.log_append_time_ms, info.log_start_offset)

    # --- fetch -----------------------------------------------------------------------------
    def read(self, fetch_offset: int, max_bytes: int, min_one_batch: bool, read_committed: bool) -> ReadResult:
        hw = self.high_watermark
        max_offset = self.last_stable_offset if read_committed else hw
        data = self.log.read(fetch_offset, max_bytes, max_offset=max_offset, min_one_batch=min_one_batch)
        return ReadResult(data.records, hw, self.last_stable_offset, self.log.log_start_offset)

    def offset_for_timestamp(self, timestamp: int, read_committed: bool) -> tuple[int, int, int] | None:
        """(offset, timestamp, leader epoch) for ListOffsets, or None when no record qualifies."""
        if timestamp == LATEST_TIMESTAMP:
            return (self.last_stable_offset if read_committed else self.high_watermark), -1, self.leader_epoch
        if timestamp in (EARLIEST_TIMESTAMP, EARLIEST_LOCAL_TIMESTAMP):
            return self.log.log_start_offset, -1, self.leader_epoch
        if timestamp == EARLIEST_PENDING_UPLOAD_TIMESTAMP:
            return None
        if timestamp < 0 and timestamp != MAX_TIMESTAMP:
            raise KafkaError(f"invalid timestamp {timestamp}", ErrorCode.INVALID_REQUEST)
        found = self.log.offset_for_timestamp(timestamp)
        if found is None:
            return None
        if found.offset >= (self.last_stable_offset if read_committed else self.high_watermark):
            return None
        epoch = found.leader_epoch if found.leader_epoch is not None else -1
        return found.offset, found.timestamp, epoch

    def delete_records_before(self, offset: int) -> int:
        hw = self.high_watermark
        if offset == -1:
            offset = hw
        if offset < 0 or offset > hw:
            raise KafkaError(f"offset {offset} is beyond the high watermark {hw}", ErrorCode.OFFSET_OUT_OF_RANGE)
        return self.log.delete_records_before(offset, high_watermark=hw)

    def on_deleted(self) -> None:
        self.deleted = True
        # wake any long poll waiting on this partition: it will now answer with an error
        self.broker.fetch_purgatory.check_and_complete(self.fetch_key)
