"""What tiered storage needs of a partition: the broker's `Partition` satisfies `TieredPartition`;
the RemoteLogManager reads its identity, offsets and log, and never its replication state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .storage import TopicIdPartition

if TYPE_CHECKING:
    from broker_embedded.log import Log


class TieredPartition(Protocol):
    """A partition as the RemoteLogManager sees it. `log` is the local log: its log start offset is
    the *local* log start offset, its `config` says whether the topic is tiered, its lock guards the
    segments and the leader epoch cache the manager reads."""

    topic: str
    index: int
    topic_id: bytes
    log: Log
    deleted: bool

    @property
    def high_watermark(self) -> int: ...

    @property
    def last_stable_offset(self) -> int: ...

    @property
    def is_leader(self) -> bool:
        """Followers never copy or expire (the leader does)."""
        ...


def topic_id_partition(p: TieredPartition) -> TopicIdPartition:
    return TopicIdPartition(p.topic_id, p.topic, p.index)


__all__ = ["TieredPartition", "topic_id_partition"]
