"""The share-group state as the share coordinator keeps it in ``__share_group_state`` (KIP-932).

Pure data model, no log I/O. Kafka's coordinator writes two record types per share-partition key
``(group_id, topic_id, partition)``:

* ``ShareSnapshot``: the whole state (snapshot epoch, state epoch, leader epoch, start offset,
  timestamps, state batches).
* ``ShareUpdate``: a delta (snapshot epoch it applies to, leader epoch, start offset or -1 for
  "unchanged", the state batches that changed).

A state batch is ``(first_offset, last_offset, delivery_state, delivery_count)``; the persisted
delivery states are AVAILABLE (0), ACKNOWLEDGED (2) and ARCHIVED (4). An acquired record is
persisted as AVAILABLE with its delivery count: acquisition locks do not survive a failover.

``ShareStateStore.replay(key, record)`` is the only thing that changes the stored state (the §7
shape); replaying a snapshot followed by its updates gives the state the share partition had.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum


class RecordState(IntEnum):
    """Kafka's in-flight record states (ids as in its RecordState and the persisted DeliveryState)."""

    AVAILABLE = 0
    ACQUIRED = 1
    ACKNOWLEDGED = 2
    ARCHIVED = 4

    @property
    def is_terminal(self) -> bool:
        return self in (RecordState.ACKNOWLEDGED, RecordState.ARCHIVED)


@dataclass(frozen=True, slots=True)
class PersisterStateBatch:
    first_offset: int
    last_offset: int
    delivery_state: RecordState
    delivery_count: int

    def __post_init__(self) -> None:
        if self.first_offset > self.last_offset:
            raise ValueError(f"state batch first offset {self.first_offset} > last offset {self.last_offset}")
        if self.delivery_state == RecordState.ACQUIRED:
            raise ValueError("ACQUIRED is never persisted (locks do not survive a failover)")


@dataclass(frozen=True, slots=True)
class ShareGroupStateKey:
    group_id: str
    topic_id: str
    partition: int


@dataclass(frozen=True, slots=True)
class ShareSnapshotValue:
    snapshot_epoch: int
    state_epoch: int
    leader_epoch: int
    start_offset: int
    create_timestamp: int
    write_timestamp: int
    state_batches: tuple[PersisterStateBatch, ...]
    # Tagged field (KIP-1226 share lag): offsets >= SPSO that are delivery-complete; -1 unknown.
    delivery_complete_count: int = -1


@dataclass(frozen=True, slots=True)
class ShareUpdateValue:
    snapshot_epoch: int
    leader_epoch: int
    start_offset: int  # -1: unchanged
    state_batches: tuple[PersisterStateBatch, ...]
    delivery_complete_count: int = -1  # tagged field; -1: not known to the writer


@dataclass(slots=True)
class ShareGroupState:
    """What ReadShareGroupState would answer for one key."""

    snapshot_epoch: int = 0
    state_epoch: int = 0
    leader_epoch: int = -1
    start_offset: int = -1
    create_timestamp: int = -1
    write_timestamp: int = -1
    state_batches: tuple[PersisterStateBatch, ...] = field(default_factory=tuple)
    delivery_complete_count: int = -1


def coalesce(batches: Iterable[PersisterStateBatch]) -> tuple[PersisterStateBatch, ...]:
    """Sorted, non-overlapping batches with adjacent equal (state, count) neighbours merged.

    Input must not overlap (use ``overlay`` first); this is the canonical form compared by tests.
    """
    out: list[PersisterStateBatch] = []
    for b in sorted(batches, key=lambda b: b.first_offset):
        if out:
            prev = out[-1]
            if b.first_offset <= prev.last_offset:
                raise ValueError(f"overlapping state batches {prev} and {b}")
            if (
                b.first_offset == prev.last_offset + 1
                and b.delivery_state == prev.delivery_state
                and b.delivery_count == prev.delivery_count
            ):
                out[-1] = PersisterStateBatch(prev.first_offset, b.last_offset, b.delivery_state, b.delivery_count)
                continue
        out.append(b)
    return tuple(out)


def overlay(
    old: Iterable[PersisterStateBatch], new: Iterable[PersisterStateBatch], start_offset: int
) -> tuple[PersisterStateBatch, ...]:
    """Batches of ``new`` win where they overlap ``old``; everything below ``start_offset`` goes."""
    new_sorted = coalesce(new)
    pieces: list[PersisterStateBatch] = list(new_sorted)
    for b in old:
        # Cut every old batch around each new batch it overlaps.
        fragments = [(b.first_offset, b.last_offset)]
        for n in new_sorted:
            next_fragments: list[tuple[int, int]] = []
            for lo, hi in fragments:
                if n.last_offset < lo or n.first_offset > hi:
                    next_fragments.append((lo, hi))
                    continue
                if lo < n.first_offset:
                    next_fragments.append((lo, n.first_offset - 1))
                if hi > n.last_offset:
                    next_fragments.append((n.last_offset + 1, hi))
            fragments = next_fragments
        pieces.extend(PersisterStateBatch(lo, hi, b.delivery_state, b.delivery_count) for lo, hi in fragments)
    trimmed: list[PersisterStateBatch] = []
    for p in pieces:
        if p.last_offset < start_offset:
            continue
        if p.first_offset < start_offset:
            p = PersisterStateBatch(start_offset, p.last_offset, p.delivery_state, p.delivery_count)
        trimmed.append(p)
    return coalesce(trimmed)


class ShareStateStore:
    """The share coordinator's in-memory state: one ``ShareGroupState`` per key, changed only by replay."""

    def __init__(self) -> None:
        self._states: dict[ShareGroupStateKey, ShareGroupState] = {}

    def read(self, key: ShareGroupStateKey) -> ShareGroupState | None:
        return self._states.get(key)

    def keys(self) -> list[ShareGroupStateKey]:
        return list(self._states)

    def replay(self, key: ShareGroupStateKey, record: ShareSnapshotValue | ShareUpdateValue | None) -> None:
        """Apply one record of ``__share_group_state``; ``None`` is a tombstone (DeleteShareGroupState)."""
        if record is None:
            self._states.pop(key, None)
            return
        if isinstance(record, ShareSnapshotValue):
            self._states[key] = ShareGroupState(
                snapshot_epoch=record.snapshot_epoch,
                state_epoch=record.state_epoch,
                leader_epoch=record.leader_epoch,
                start_offset=record.start_offset,
                create_timestamp=record.create_timestamp,
                write_timestamp=record.write_timestamp,
                state_batches=overlay((), record.state_batches, record.start_offset),
                delivery_complete_count=record.delivery_complete_count,
            )
            return
        state = self._states.get(key)
        if state is None:
            # Kafka writes a snapshot first (InitializeShareGroupState); an update alone has no base.
            raise ValueError(f"ShareUpdate for {key} without a snapshot")
        if record.snapshot_epoch != state.snapshot_epoch:
            raise ValueError(
                f"ShareUpdate for snapshot epoch {record.snapshot_epoch}, state is at {state.snapshot_epoch}"
            )
        start = state.start_offset if record.start_offset == -1 else record.start_offset
        state.start_offset = start
        state.leader_epoch = record.leader_epoch
        state.state_batches = overlay(state.state_batches, record.state_batches, start)
        if record.delivery_complete_count != -1:
            state.delivery_complete_count = record.delivery_complete_count

    def snapshot(self, key: ShareGroupStateKey, write_timestamp: int) -> ShareSnapshotValue:
        """The snapshot Kafka writes after enough updates (next snapshot epoch, same content)."""
        state = self._states[key]
        return ShareSnapshotValue(
            snapshot_epoch=state.snapshot_epoch + 1,
            state_epoch=state.state_epoch,
            leader_epoch=state.leader_epoch,
            start_offset=state.start_offset,
            create_timestamp=state.create_timestamp,
            write_timestamp=write_timestamp,
            state_batches=state.state_batches,
            delivery_complete_count=state.delivery_complete_count,
        )
