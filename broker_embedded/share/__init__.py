"""Share groups (KIP-932): the share-partition state machine and the share coordinator's state.

Sans-IO rooms only so far: ``partition`` (in-flight records, acquisition locks on the purgatory's
timing wheel, delivery counts, SPSO/SPEO), ``session`` (share sessions per member and connection)
and ``state`` (the ``__share_group_state`` snapshot and update records, replayed into the
coordinator's state).
"""

from .partition import (
    AcknowledgementBatch,
    AcknowledgeType,
    AcquiredRecords,
    AutoOffsetReset,
    ShareErrorCode,
    SharePartition,
    SharePartitionError,
)
from .session import ContextKind, ShareFetchContext, ShareSession, ShareSessionCache
from .state import (
    PersisterStateBatch,
    RecordState,
    ShareGroupState,
    ShareGroupStateKey,
    ShareSnapshotValue,
    ShareStateStore,
    ShareUpdateValue,
)

__all__ = [
    "AcknowledgeType",
    "AcknowledgementBatch",
    "AcquiredRecords",
    "AutoOffsetReset",
    "ContextKind",
    "PersisterStateBatch",
    "RecordState",
    "ShareErrorCode",
    "ShareFetchContext",
    "ShareGroupState",
    "ShareGroupStateKey",
    "SharePartition",
    "SharePartitionError",
    "ShareSession",
    "ShareSessionCache",
    "ShareSnapshotValue",
    "ShareStateStore",
    "ShareUpdateValue",
]
