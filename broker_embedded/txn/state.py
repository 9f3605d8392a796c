"""Transaction state of one transactional id (Kafka's TransactionState / TransactionMetadata).

Sans-IO: the coordinator decides a transition, writes it to ``__transaction_state`` and only then
applies it here, so what clients are told never runs ahead of what a restart would load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class TransactionState(Enum):
    """Kafka's states with their ids in TransactionLogValue.TransactionStatus."""

    EMPTY = 0
    ONGOING = 1
    PREPARE_COMMIT = 2
    PREPARE_ABORT = 3
    COMPLETE_COMMIT = 4
    COMPLETE_ABORT = 5
    DEAD = 6
    PREPARE_EPOCH_FENCE = 7

    @property
    def display_name(self) -> str:
        """The name DescribeTransactions/ListTransactions carry (Kafka's TransactionState.name)."""
        return _NAMES[self]

    @classmethod
    def from_name(cls, name: str) -> TransactionState | None:
        for state, n in _NAMES.items():
            if n == name:
                return state
        return None


_NAMES = {
    TransactionState.EMPTY: "Empty",
    TransactionState.ONGOING: "Ongoing",
    TransactionState.PREPARE_COMMIT: "PrepareCommit",
    TransactionState.PREPARE_ABORT: "PrepareAbort",
    TransactionState.COMPLETE_COMMIT: "CompleteCommit",
    TransactionState.COMPLETE_ABORT: "CompleteAbort",
    TransactionState.DEAD: "Dead",
    TransactionState.PREPARE_EPOCH_FENCE: "PrepareEpochFence",
}

S = TransactionState
# Kafka's TransactionState.validPreviousStates.
VALID_PREVIOUS: dict[TransactionState, frozenset[TransactionState]] = {
    S.EMPTY: frozenset({S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.ONGOING: frozenset({S.ONGOING, S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.PREPARE_COMMIT: frozenset({S.ONGOING}),
    S.PREPARE_ABORT: frozenset({S.ONGOING, S.PREPARE_EPOCH_FENCE, S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.COMPLETE_COMMIT: frozenset({S.PREPARE_COMMIT}),
    S.COMPLETE_ABORT: frozenset({S.PREPARE_ABORT}),
    S.DEAD: frozenset({S.EMPTY, S.COMPLETE_ABORT, S.COMPLETE_COMMIT}),
    S.PREPARE_EPOCH_FENCE: frozenset({S.ONGOING}),
}

# States with markers still to be written: no new transaction may start.
PREPARING = frozenset({S.PREPARE_COMMIT, S.PREPARE_ABORT, S.PREPARE_EPOCH_FENCE})
# No transaction open: InitProducerId may bump the epoch right away.
COMPLETE = frozenset({S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT})

NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1
# Epochs are int16; at the last one the coordinator moves the id to a fresh producer id.
MAX_PRODUCER_EPOCH = 32767


class IllegalTransitionError(RuntimeError):
    pass


@dataclass
class TransactionMetadata:
    """The state of one transactional id, as the coordinator serves it."""

    transactional_id: str
    producer_id: int
    producer_epoch: int
    txn_timeout_ms: int
    state: TransactionState = TransactionState.EMPTY
    partitions: set[tuple[str, int]] = field(default_factory=set)
    txn_start_timestamp: int = -1
    txn_last_update_timestamp: int = -1
    # the id/epoch before the last bump (KIP-360: a producer retrying InitProducerId after a
    # lost response presents the pair it had)
    last_producer_id: int = NO_PRODUCER_ID
    last_producer_epoch: int = NO_PRODUCER_EPOCH

    def copy(self) -> TransactionMetadata:
        return TransactionMetadata(
            self.transactional_id,
            self.producer_id,
            self.producer_epoch,
            self.txn_timeout_ms,
            self.state,
            set(self.partitions),
            self.txn_start_timestamp,
            self.txn_last_update_timestamp,
            self.last_producer_id,
            self.last_producer_epoch,
        )

    def transition(self, to: TransactionState, now_ms: int) -> TransactionMetadata:
        """The metadata after moving to `to` (self unchanged): validated against Kafka's rules."""
        if self.state not in VALID_PREVIOUS[to]:
            raise IllegalTransitionError(
                f"transactional id {self.transactional_id}: {self.state.display_name} -> {to.display_name}"
            )
        nxt = self.copy()
        nxt.state = to
        nxt.txn_last_update_timestamp = now_ms
        if to in (S.COMPLETE_COMMIT, S.COMPLETE_ABORT, S.EMPTY):
            nxt.partitions = set()
        return nxt

    def is_expired_transaction(self, now_ms: int) -> bool:
        """An open transaction past its timeout (Kafka aborts it proactively)."""
        return self.state is S.ONGOING and self.txn_start_timestamp + self.txn_timeout_ms < now_ms
