"""Value types and exceptions shared by the assignors and the membership client."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.types import TopicPartition


class OffsetAndMetadata(NamedTuple):
    """A committed position: `offset` is the next offset to read (Kafka's convention)."""

    offset: int
    metadata: str = ""
    leader_epoch: int = -1


@dataclass(frozen=True, slots=True)
class Generation:
    """The member's view of the group generation it belongs to.

    `generation_id` -1 / `member_id` "" mean "not in a generation" (Kafka's NO_GENERATION).
    Pass a captured `Generation` to `GroupMember.commit` to fence a commit to that generation.
    """

    generation_id: int = -1
    member_id: str = ""
    protocol_name: str | None = None
    group_instance_id: str | None = None

    @property
    def is_valid(self) -> bool:
        return self.generation_id >= 0 and bool(self.member_id)


NO_GENERATION = Generation()


@dataclass(frozen=True, slots=True)
class MemberSubscription:
    """One member of the group as the leader's assignor sees it (decoded JoinGroup metadata).

    `owned_partitions` comes from ConsumerProtocolSubscription v1+, `generation_id` from v2+ (-1
    when absent), `rack_id` from v3+. `user_data` is the assignor-specific blob (the eager
    `sticky` assignor carries its previous assignment there).
    """

    member_id: str
    topics: tuple[str, ...]
    group_instance_id: str | None = None
    owned_partitions: tuple[TopicPartition, ...] = ()
    generation_id: int = -1
    user_data: bytes | None = None
    rack_id: str | None = None


class GroupError(KafkaError):
    """Base class for group membership errors."""


class CommitFailedError(GroupError):
    """The coordinator refused a commit because the member is not in the committing generation.

    Raised for ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID and FENCED_INSTANCE_ID: the partitions may
    already belong to another member, so the caller must not assume its offsets were stored.
    """


class RebalanceInProgressError(GroupError):
    code = ErrorCode.REBALANCE_IN_PROGRESS


class FencedInstanceIdError(GroupError):
    """Another member with the same group.instance.id took over (static membership): fatal."""

    code = ErrorCode.FENCED_INSTANCE_ID


class CoordinatorNotAvailableError(GroupError):
    """The group coordinator could not be reached within the timeout."""

    code = ErrorCode.COORDINATOR_NOT_AVAILABLE


class GroupMemberClosedError(GroupError):
    """The member was closed (or failed fatally) and can no longer be used."""

    code = ErrorCode.UNKNOWN_MEMBER_ID


__all__ = [
    "NO_GENERATION",
    "CommitFailedError",
    "CoordinatorNotAvailableError",
    "FencedInstanceIdError",
    "Generation",
    "GroupError",
    "GroupMemberClosedError",
    "MemberSubscription",
    "OffsetAndMetadata",
    "RebalanceInProgressError",
    "TopicPartition",
]
