"""The pluggable interfaces of tiered storage (KIP-405) and the types they exchange.

Shapes follow Apache Kafka's `org.apache.kafka.server.log.remote.storage` package, in Python
naming: `RemoteStorageManager` (RSM) stores segment data, `RemoteLogMetadataManager` (RLMM) stores
what is where. The RLMM is the strongly consistent source of truth: a segment is readable only
once its metadata says COPY_SEGMENT_FINISHED, so an RSM may be eventually consistent (an object
store) and never needs a LIST call.

Kafka's RLMM methods return CompletableFutures; here they are synchronous and return once the
change is durable (the RemoteLogManager calls them from its own worker threads, never from the
broker's event loop).
"""

from __future__ import annotations

import base64
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from pathlib import Path
from typing import Any, BinaryIO


class RemoteStorageException(Exception):
    """A remote storage operation failed (transient or not): the caller retries with backoff."""


class RemoteResourceNotFoundException(RemoteStorageException):
    """The segment or index asked for does not exist in the remote store (deleted or never copied)."""


class RemoteLogSegmentState(IntEnum):
    """Lifecycle of one remote segment; the int8 values of Kafka's metadata records."""

    COPY_SEGMENT_STARTED = 0
    COPY_SEGMENT_FINISHED = 1
    DELETE_SEGMENT_STARTED = 2
    DELETE_SEGMENT_FINISHED = 3


# Allowed transitions (Kafka's RemoteLogSegmentState.isValidTransition).
_VALID_TRANSITIONS: dict[RemoteLogSegmentState, frozenset[RemoteLogSegmentState]] = {
    RemoteLogSegmentState.COPY_SEGMENT_STARTED: frozenset(
        {RemoteLogSegmentState.COPY_SEGMENT_FINISHED, RemoteLogSegmentState.DELETE_SEGMENT_STARTED}
    ),
    RemoteLogSegmentState.COPY_SEGMENT_FINISHED: frozenset({RemoteLogSegmentState.DELETE_SEGMENT_STARTED}),
    RemoteLogSegmentState.DELETE_SEGMENT_STARTED: frozenset({RemoteLogSegmentState.DELETE_SEGMENT_FINISHED}),
    RemoteLogSegmentState.DELETE_SEGMENT_FINISHED: frozenset(),
}


def is_valid_transition(old: RemoteLogSegmentState, new: RemoteLogSegmentState) -> bool:
    return new in _VALID_TRANSITIONS[old]


class RemotePartitionDeleteState(IntEnum):
    DELETE_PARTITION_MARKED = 0
    DELETE_PARTITION_STARTED = 1
    DELETE_PARTITION_FINISHED = 2


class IndexType(Enum):
    """What `RemoteStorageManager.fetch_index` can return (Kafka's RemoteStorageManager.IndexType)."""

    OFFSET = "offset"
    TIMESTAMP = "timestamp"
    PRODUCER_SNAPSHOT = "producer_snapshot"
    TRANSACTION = "transaction"
    LEADER_EPOCH = "leader_epoch"


@dataclass(frozen=True, slots=True)
class TopicIdPartition:
    """A partition named by topic id (a re-created topic has a new id, so it never sees old data)."""

    topic_id: bytes  # 16 bytes
    topic: str
    partition: int

    @property
    def topic_id_base64(self) -> str:
        """Kafka's printed form of a Uuid: URL-safe base64 without padding."""
        return base64.urlsafe_b64encode(self.topic_id).decode().rstrip("=")

    def __str__(self) -> str:
        return f"{self.topic_id_base64}:{self.topic}-{self.partition}"


@dataclass(frozen=True, slots=True)
class RemoteLogSegmentId:
    """A segment copy: a fresh UUID per copy attempt, even when retrying the same local segment."""

    topic_id_partition: TopicIdPartition
    id: uuid.UUID

    @classmethod
    def generate_new(cls, tip: TopicIdPartition) -> RemoteLogSegmentId:
        return cls(tip, uuid.uuid4())


@dataclass(frozen=True, slots=True)
class RemoteLogSegmentMetadata:
    """Everything the broker knows about one remote segment.

    `segment_leader_epochs` are (epoch, first offset of that epoch within the segment), sorted:
    the epochs that wrote records of this segment, the first clamped to `start_offset`.
    """

    remote_log_segment_id: RemoteLogSegmentId
    start_offset: int
    end_offset: int  # inclusive
    max_timestamp_ms: int
    broker_id: int
    event_timestamp_ms: int
    segment_size_in_bytes: int
    segment_leader_epochs: tuple[tuple[int, int], ...]
    state: RemoteLogSegmentState = RemoteLogSegmentState.COPY_SEGMENT_STARTED
    custom_metadata: bytes | None = None

    def __post_init__(self) -> None:
        if self.start_offset < 0 or self.end_offset < self.start_offset:
            raise ValueError(f"bad segment offsets [{self.start_offset}, {self.end_offset}]")
        if not self.segment_leader_epochs:
            raise ValueError("segment_leader_epochs must not be empty")

    @property
    def topic_id_partition(self) -> TopicIdPartition:
        return self.remote_log_segment_id.topic_id_partition

    def epoch_for_offset(self, offset: int) -> int | None:
        """The epoch that wrote `offset`, per this segment's epochs (None outside the segment)."""
        if not self.start_offset <= offset <= self.end_offset:
            return None
        found = None
        for epoch, start in self.segment_leader_epochs:
            if start > offset:
                break
            found = epoch
        return found

    def epoch_end_offset(self, epoch: int) -> int | None:
        """Last offset written under `epoch` in this segment, None if the epoch is not in it."""
        epochs = self.segment_leader_epochs
        for i, (e, _) in enumerate(epochs):
            if e == epoch:
                return epochs[i + 1][1] - 1 if i + 1 < len(epochs) else self.end_offset
        return None

    def create_with_update(self, update: RemoteLogSegmentMetadataUpdate) -> RemoteLogSegmentMetadata:
        if update.remote_log_segment_id != self.remote_log_segment_id:
            raise ValueError("the update is for another segment")
        return replace(
            self,
            state=update.state,
            event_timestamp_ms=update.event_timestamp_ms,
            broker_id=update.broker_id,
            custom_metadata=update.custom_metadata if update.custom_metadata is not None else self.custom_metadata,
        )


@dataclass(frozen=True, slots=True)
class RemoteLogSegmentMetadataUpdate:
    remote_log_segment_id: RemoteLogSegmentId
    event_timestamp_ms: int
    state: RemoteLogSegmentState
    broker_id: int
    custom_metadata: bytes | None = None


@dataclass(frozen=True, slots=True)
class RemotePartitionDeleteMetadata:
    topic_id_partition: TopicIdPartition
    state: RemotePartitionDeleteState
    event_timestamp_ms: int
    broker_id: int


@dataclass(frozen=True, slots=True)
class LogSegmentData:
    """The files of a rolled local segment handed to `copy_log_segment_data`."""

    log_segment: Path
    offset_index: Path
    time_index: Path
    transaction_index: Path | None
    producer_snapshot_index: Path
    leader_epoch_index: bytes  # the leader-epoch checkpoint up to the end of this segment
    extra: Mapping[str, Any] = field(default_factory=dict)


class RemoteStorageManager(ABC):
    """Stores and serves remote segments and their indexes (Kafka's RemoteStorageManager).

    Implementations are created by class name (`remote.log.storage.manager.class.name`), with no
    constructor arguments, then `configure()`d with the broker configs that start with
    `remote.log.storage.manager.impl.prefix` (default `rsm.config.`), prefix removed.
    They are called from several worker threads at once and must be thread-safe.
    """

    def configure(self, configs: Mapping[str, Any]) -> None:  # noqa: B027 - optional hook
        """Receive the prefixed configs (prefix removed) before any other call."""

    @abstractmethod
    def copy_log_segment_data(self, metadata: RemoteLogSegmentMetadata, data: LogSegmentData) -> bytes | None:
        """Upload a segment and its auxiliary files; returns optional custom metadata to keep.

        Must be idempotent: a retry may overwrite a partial earlier upload. Each attempt carries
        a new segment id, so a failed attempt never collides with a later one.
        Raises RemoteStorageException on failure.
        """

    @abstractmethod
    def fetch_log_segment(
        self, metadata: RemoteLogSegmentMetadata, start_position: int, end_position: int | None = None
    ) -> BinaryIO:
        """A stream of the segment's bytes from `start_position` to `end_position` (inclusive) or
        the end of the segment, whichever comes first. Raises RemoteResourceNotFoundException if
        the segment is gone, RemoteStorageException on other failures."""

    @abstractmethod
    def fetch_index(self, metadata: RemoteLogSegmentMetadata, index_type: IndexType) -> BinaryIO:
        """A stream of one auxiliary file. RemoteResourceNotFoundException if it does not exist
        (old segments may have no transaction index)."""

    @abstractmethod
    def delete_log_segment_data(self, metadata: RemoteLogSegmentMetadata) -> None:
        """Delete the segment and its auxiliary files. Idempotent: missing files are no error."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources; pending calls may fail afterwards."""


class RemoteLogMetadataManager(ABC):
    """Strongly consistent, durable metadata of remote segments (Kafka's RemoteLogMetadataManager).

    Created by class name (`remote.log.metadata.manager.class.name`) and configured with the
    configs under `remote.log.metadata.manager.impl.prefix` (default `rlmm.config.`). The broker
    also passes `log.dir` (its log directory) and `broker.id`.
    Thread-safe; every mutating call returns once the change is durable.
    """

    def configure(self, configs: Mapping[str, Any]) -> None:  # noqa: B027 - optional hook
        """Receive the prefixed configs (prefix removed) before any other call."""

    @abstractmethod
    def add_remote_log_segment_metadata(self, metadata: RemoteLogSegmentMetadata) -> None:
        """Record a new segment copy. Its state must be COPY_SEGMENT_STARTED (else ValueError)."""

    @abstractmethod
    def update_remote_log_segment_metadata(self, update: RemoteLogSegmentMetadataUpdate) -> None:
        """Move a segment to a new state. COPY_SEGMENT_STARTED is not a valid target (ValueError);
        an unknown segment raises RemoteResourceNotFoundException; an invalid transition ValueError."""

    @abstractmethod
    def remote_log_segment_metadata(
        self, topic_id_partition: TopicIdPartition, epoch_for_offset: int, offset: int
    ) -> RemoteLogSegmentMetadata | None:
        """The COPY_SEGMENT_FINISHED segment holding `offset` written in leader epoch `epoch_for_offset`."""

    @abstractmethod
    def highest_offset_for_epoch(self, topic_id_partition: TopicIdPartition, leader_epoch: int) -> int | None:
        """The highest offset of `leader_epoch` copied (COPY_SEGMENT_FINISHED), None if none."""

    @abstractmethod
    def put_remote_partition_delete_metadata(self, metadata: RemotePartitionDeleteMetadata) -> None:
        """Record a partition deletion step (MARKED by the broker on topic deletion, then STARTED,
        FINISHED by whoever removes its segments). Repeated MARKED events are harmless."""

    @abstractmethod
    def list_remote_log_segments(
        self, topic_id_partition: TopicIdPartition, leader_epoch: int | None = None
    ) -> Iterator[RemoteLogSegmentMetadata]:
        """Every known segment of the partition, in any state, sorted by start offset; with
        `leader_epoch`, only the segments holding records of that epoch."""

    def remote_log_size(self, topic_id_partition: TopicIdPartition, leader_epoch: int | None = None) -> int:
        """Bytes of the COPY_SEGMENT_FINISHED segments (of one epoch, if given)."""
        return sum(
            m.segment_size_in_bytes
            for m in self.list_remote_log_segments(topic_id_partition, leader_epoch)
            if m.state is RemoteLogSegmentState.COPY_SEGMENT_FINISHED
        )

    @abstractmethod
    def partitions_pending_deletion(self) -> list[RemotePartitionDeleteMetadata]:
        """Partitions MARKED or STARTED for deletion and not yet FINISHED.

        Not in Kafka's interface (there, the topic-based RLMM runs the partition remover itself);
        here the RemoteLogManager removes them, so it asks.
        """

    def on_partition_leadership_changes(  # noqa: B027 - optional hook
        self, leaders: set[TopicIdPartition], followers: set[TopicIdPartition]
    ) -> None:
        """This broker now leads / follows these partitions."""

    def on_stop_partitions(self, partitions: set[TopicIdPartition]) -> None:  # noqa: B027 - optional hook
        """This broker no longer hosts these partitions."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources."""
