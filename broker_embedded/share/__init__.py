"""Share groups (KIP-932): the share-partition state machine and the share coordinator's state.

Sans-IO rooms only so far: ``partition`` (in-flight records, acquisition locks on the purgatory's
timing wheel, delivery counts, SPSO/SPEO) and ``state`` (the ``__share_group_state`` snapshot and
update records, replayed into the coordinator's state).
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
    "PersisterStateBatch",
    "RecordState",
    "ShareErrorCode",
    "ShareGroupState",
    "ShareGroupStateKey",
    "SharePartition",
    "SharePartitionError",
    "ShareSnapshotValue",
    "ShareStateStore",
    "ShareUpdateValue",
]
