"""Errors raised by the log layer, each carrying the Kafka error code a handler should return."""

from __future__ import annotations

from kafka_wire.errors import ErrorCode, KafkaError


class OutOfOrderSequenceError(KafkaError):
    code = ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER


class InvalidProducerEpochError(KafkaError):
    code = ErrorCode.INVALID_PRODUCER_EPOCH


class RecordBatchTooLargeError(KafkaError):
    """The records of one append exceed segment.bytes: they could never fit in a segment."""

    code = ErrorCode.RECORD_LIST_TOO_LARGE


class UnexpectedAppendOffsetError(KafkaError):
    """A follower append whose first offset is below the log end offset (replication bug)."""

    code = ErrorCode.UNKNOWN_SERVER_ERROR


class KafkaStorageError(KafkaError):
    code = ErrorCode.KAFKA_STORAGE_ERROR
