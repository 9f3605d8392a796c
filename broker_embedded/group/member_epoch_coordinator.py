"""The plumbing shared by the member-epoch group runtimes (consumer groups, KIP-848, and streams
groups, KIP-1071): records appended to the group's ``__consumer_offsets`` partition and then
replayed into the in-memory group, member timers (session and revocation deadlines) on the broker's
timing wheel with an injectable clock, and the member-epoch checks of OffsetCommit / OffsetFetch.
A subclass says how its records are encoded and decoded, how it builds an empty group, and how it
fences a member whose timer expired.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from broker_embedded.purgatory import DelayedCallback, DelayedOperationPurgatory, Timer
from broker_embedded.purgatory.timing_wheel import monotonic_ms
from kafka_wire.errors import ErrorCode

Append = Callable[[str, list[tuple[bytes, bytes | None]]], None]


class GroupModel(Protocol):
    """What the plumbing needs of a group model (ConsumerGroup, StreamsGroup)."""

    group_id: str
    members: dict[str, Any]
    deleted: bool

    def replay(self, record: Any) -> None: ...


G = TypeVar("G", bound=GroupModel)
R = TypeVar("R", bound=tuple[Any, Any])  # a record: (key with a group_id, value or None)


class MemberEpochCoordinator(Generic[G, R]):
    TIMER_KINDS = ("session", "rebalance")

    def __init__(
        self,
        purgatory_name: str,
        config: Any,
        append: Append,
        timer: Timer,
        coordinator_error: Callable[[str | None], ErrorCode] = lambda _g: ErrorCode.NONE,
        clock: Callable[[], int] = monotonic_ms,
    ) -> None:
        self.config = config
        self.append = append
        self.coordinator_error = coordinator_error
        self.clock = clock
        self.groups: dict[str, G] = {}
        self.purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory(purgatory_name, timer)
        # (group, member, kind) -> the deadline of that member's live timer of that kind
        self._deadlines: dict[tuple[str, str, str], int] = {}

    # --- what a subclass provides ------------------------------------------------------------
    def _new_group(self, group_id: str) -> G:
        raise NotImplementedError

    def _encode(self, record: R) -> tuple[bytes, bytes | None]:
        raise NotImplementedError

    def _decode(self, key: bytes, value: bytes | None) -> R | None:
        raise NotImplementedError

    def _fence(self, group_id: str, member_id: str, reason: str) -> None:
        raise NotImplementedError

    def _after_write(self, group: G) -> None:
        """Derived state to refresh once a group changed (nothing by default)."""

    # --- the write path: append, then replay -------------------------------------------------
    def write(self, group_id: str, records: list[R]) -> G:
        group = self.groups.get(group_id) or self._new_group(group_id)
        if records:
            self.append(group_id, [self._encode(r) for r in records])
            for r in records:
                group.replay(r)
        if group.deleted:
            self.groups.pop(group_id, None)
        else:
            self.groups[group_id] = group
            self._after_write(group)
        return group

    def replay_raw(self, key: bytes, value: bytes | None) -> bool:
        """Replay one record read back from __consumer_offsets; False if it is not ours."""
        record = self._decode(key, value)
        if record is None:
            return False
        group_id = record[0].group_id
        group = self.groups.get(group_id) or self.groups.setdefault(group_id, self._new_group(group_id))
        group.replay(record)
        if group.deleted:
            del self.groups[group_id]
        return True

    def has_members(self, group_id: str) -> bool:
        group = self.groups.get(group_id)
        return group is not None and bool(group.members)

    # --- member timers -----------------------------------------------------------------------
    def _schedule_timer(self, kind: str, group_id: str, member_id: str, delay: int) -> None:
        """(Re)arm the member's `kind` timer: when it expires unsuperseded, the member is fenced."""
        key = (group_id, member_id, kind)
        deadline = self.clock() + delay
        self._deadlines[key] = deadline
        self.purgatory.check_and_complete(key)  # the previous timer is superseded

        def done(expired: bool) -> None:
            if expired and self._deadlines.get(key) == deadline:
                self._deadlines.pop(key, None)
                self._fence(group_id, member_id, f"{kind} timeout expired")

        op = DelayedCallback(delay, condition=lambda: self._deadlines.get(key) != deadline, on_done=done)
        self.purgatory.try_complete_else_watch(op, [key])

    def _has_timer(self, group_id: str, member_id: str, kind: str) -> bool:
        return (group_id, member_id, kind) in self._deadlines

    def _cancel_timer(self, group_id: str, member_id: str, kind: str) -> bool:
        """True if the member had a live timer of that kind."""
        had = self._deadlines.pop((group_id, member_id, kind), None) is not None
        self.purgatory.check_and_complete((group_id, member_id, kind))
        return had

    def _cancel_member_timers(self, group_id: str, member_id: str) -> None:
        for kind in self.TIMER_KINDS:
            self._cancel_timer(group_id, member_id, kind)

    def _drop_member_timers(self, group_id: str, member_id: str) -> None:
        """On unload: forget the deadlines (their operations then complete without fencing)."""
        for kind in self.TIMER_KINDS:
            self._deadlines.pop((group_id, member_id, kind), None)

    # --- offsets -----------------------------------------------------------------------------
    def _offset_request_error(self, group_id: str, member_id: str, member_epoch: int, commit: bool) -> ErrorCode:
        """Kafka's validateOffsetCommit/Fetch of these groups: a member's request must carry its
        current epoch. An admin's (no member id, epoch -1) fetch is answered; its commit only while
        the group has no members (Kafka 4.3.1 answers UNKNOWN_MEMBER_ID otherwise)."""
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.NONE
        members = group.members
        if not member_id and member_epoch < 0:
            return ErrorCode.UNKNOWN_MEMBER_ID if commit and members else ErrorCode.NONE
        member = members.get(member_id)
        if member is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if member_epoch != member.member_epoch:
            return self._stale_epoch_error(member)
        return ErrorCode.NONE

    def _stale_epoch_error(self, member: Any) -> ErrorCode:
        return ErrorCode.STALE_MEMBER_EPOCH

    def shutdown(self) -> None:
        self.purgatory.shutdown()
