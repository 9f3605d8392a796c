"""The share coordinator's RPCs over ``SharePersister``: InitializeShareGroupState (83),
ReadShareGroupState (84), WriteShareGroupState (85), DeleteShareGroupState (86) and
ReadShareGroupStateSummary (87), with Apache Kafka 4.3.1's answers (checked on the wire against it):

* read / write of a key never initialized: INVALID_REQUEST ("... on uninitialized share partition
  not allowed."); the summary of one answers NONE with start offset -1;
* initialize with a state epoch older than the stored one: FENCED_STATE_EPOCH; otherwise it
  replaces the state (a new snapshot);
* write with another state epoch: FENCED_STATE_EPOCH; read or write with a leader epoch older than
  the stored one: FENCED_LEADER_EPOCH; start offset -1 keeps the stored one, batches below the
  start offset are dropped;
* delete of a missing key is a success.

Sans-IO apart from the persister's appends; the handlers in ``broker_embedded/apis`` map the
results onto the wire.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from kafka_wire.errors import ErrorCode

from .persister import SharePersister
from .state import (
    PersisterStateBatch,
    RecordState,
    ShareGroupStateKey,
    ShareSnapshotValue,
    ShareUpdateValue,
)

FENCED_STATE_EPOCH_MESSAGE = (
    "The share coordinator rejected the request because the share-group state epoch did not match."
)
FENCED_LEADER_EPOCH_MESSAGE = "The leader epoch in the request is older than the epoch on the broker."


@dataclass(frozen=True, slots=True)
class StateResult:
    error: ErrorCode = ErrorCode.NONE
    message: str | None = None
    state_epoch: int = 0
    leader_epoch: int = 0
    start_offset: int = 0
    delivery_complete_count: int = -1
    batches: tuple[PersisterStateBatch, ...] = field(default_factory=tuple)


def _now_ms() -> int:
    return int(time.time() * 1000)


class ShareStateService:
    def __init__(self, persister: SharePersister) -> None:
        self.persister = persister

    def initialize(self, key: ShareGroupStateKey, state_epoch: int, start_offset: int) -> StateResult:
        with self.persister._lock:
            old = self.persister.read(key)
            if old is not None and state_epoch < old.state_epoch:
                return StateResult(ErrorCode.FENCED_STATE_EPOCH, FENCED_STATE_EPOCH_MESSAGE)
            now = _now_ms()
            self.persister.initialize(
                key,
                ShareSnapshotValue(
                    snapshot_epoch=0 if old is None else old.snapshot_epoch + 1,
                    state_epoch=state_epoch,
                    leader_epoch=-1 if old is None else old.leader_epoch,
                    start_offset=start_offset,
                    create_timestamp=now,
                    write_timestamp=now,
                    state_batches=(),
                    delivery_complete_count=-1,
                ),
            )
            return StateResult()

    def read(self, key: ShareGroupStateKey, leader_epoch: int) -> StateResult:
        with self.persister._lock:
            state = self.persister.read(key)
            if state is None:
                return StateResult(
                    ErrorCode.INVALID_REQUEST, "Read operation on uninitialized share partition not allowed."
                )
            if leader_epoch < state.leader_epoch:
                return StateResult(ErrorCode.FENCED_LEADER_EPOCH, FENCED_LEADER_EPOCH_MESSAGE)
            return StateResult(
                state_epoch=state.state_epoch,
                leader_epoch=state.leader_epoch,
                start_offset=state.start_offset,
                delivery_complete_count=state.delivery_complete_count,
                batches=state.state_batches,
            )

    def summary(self, key: ShareGroupStateKey, leader_epoch: int) -> StateResult:
        with self.persister._lock:
            state = self.persister.read(key)
            if state is None:
                return StateResult(start_offset=-1)
            if leader_epoch < state.leader_epoch:
                return StateResult(ErrorCode.FENCED_LEADER_EPOCH, FENCED_LEADER_EPOCH_MESSAGE)
            return StateResult(
                state_epoch=state.state_epoch,
                leader_epoch=max(state.leader_epoch, 0),
                start_offset=state.start_offset,
                delivery_complete_count=state.delivery_complete_count,
            )

    def write(
        self,
        key: ShareGroupStateKey,
        state_epoch: int,
        leader_epoch: int,
        start_offset: int,
        batches: list[tuple[int, int, int, int]],
        delivery_complete_count: int = -1,
    ) -> StateResult:
        try:
            parsed = tuple(PersisterStateBatch(a, b, RecordState(s), n) for a, b, s, n in batches)
        except ValueError as e:
            return StateResult(ErrorCode.INVALID_REQUEST, f"Invalid state batch: {e}")
        with self.persister._lock:
            state = self.persister.read(key)
            if state is None:
                return StateResult(
                    ErrorCode.INVALID_REQUEST, "Write operation on uninitialized share partition not allowed."
                )
            if state_epoch != state.state_epoch:
                return StateResult(ErrorCode.FENCED_STATE_EPOCH, FENCED_STATE_EPOCH_MESSAGE)
            if leader_epoch < state.leader_epoch:
                return StateResult(ErrorCode.FENCED_LEADER_EPOCH, FENCED_LEADER_EPOCH_MESSAGE)
            update = ShareUpdateValue(state.snapshot_epoch, leader_epoch, start_offset, parsed, delivery_complete_count)
            self.persister.write(key, [update])
            return StateResult()

    def delete(self, key: ShareGroupStateKey) -> StateResult:
        self.persister.delete(key)
        return StateResult()


def not_coordinator(operation: str) -> StateResult:
    """This broker does not coordinate the key (a cluster: RPCs 83-87 are served on a single broker only)."""
    return StateResult(ErrorCode.NOT_COORDINATOR, f"Unable to {operation}: This is not the correct coordinator.")
