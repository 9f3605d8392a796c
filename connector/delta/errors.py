"""The Delta sink's errors, one per phase: options and schema fail on the driver before any task
runs, a write error fails a task, a commit error fails the batch on the driver."""

from __future__ import annotations

from kafka_wire.errors import PykafkaError


class DeltaSinkOptionError(PykafkaError, ValueError):
    """A sink option is missing, malformed or not allowed (raised on the driver, before writing)."""


class DeltaSchemaMismatchError(PykafkaError, ValueError):
    """The input's schema does not fit the existing table (raised on the driver, before writing)."""


class DeltaSinkWriteError(PykafkaError, RuntimeError):
    """Rows cannot be written (e.g. a null Kafka offset); the task fails."""


class DeltaCommitError(PykafkaError, RuntimeError):
    """The driver could not commit a batch (other writers kept winning, or the table changed shape)."""


__all__ = ["DeltaCommitError", "DeltaSchemaMismatchError", "DeltaSinkOptionError", "DeltaSinkWriteError"]
