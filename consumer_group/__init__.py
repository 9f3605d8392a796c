"""Client side of Kafka consumer groups: membership (join/sync/heartbeat/leave), leader-side
assignors and generation-fenced offset commits. Depends on `kafka_wire` only."""

from consumer_group.assignors import (
    ASSIGNORS,
    Assignor,
    CooperativeStickyAssignor,
    RangeAssignor,
    RoundRobinAssignor,
    StickyAssignor,
    get_assignor,
)
from consumer_group.membership import GroupMember, MemberState, RebalanceProtocol
from consumer_group.protocol import (
    Assignment,
    Subscription,
    decode_assignment,
    decode_subscription,
    encode_assignment,
    encode_subscription,
)
from consumer_group.structs import (
    CommitFailedError,
    CoordinatorNotAvailableError,
    FencedInstanceIdError,
    Generation,
    GroupError,
    GroupMemberClosedError,
    MemberSubscription,
    OffsetAndMetadata,
    RebalanceInProgressError,
    TopicPartition,
)

__all__ = [
    "ASSIGNORS",
    "Assignment",
    "Assignor",
    "CommitFailedError",
    "CooperativeStickyAssignor",
    "CoordinatorNotAvailableError",
    "FencedInstanceIdError",
    "Generation",
    "GroupError",
    "GroupMember",
    "GroupMemberClosedError",
    "MemberState",
    "MemberSubscription",
    "OffsetAndMetadata",
    "RangeAssignor",
    "RebalanceInProgressError",
    "RebalanceProtocol",
    "RoundRobinAssignor",
    "StickyAssignor",
    "Subscription",
    "TopicPartition",
    "decode_assignment",
    "decode_subscription",
    "encode_assignment",
    "encode_subscription",
    "get_assignor",
]
