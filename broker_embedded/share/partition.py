"""One share-partition's in-flight records (KIP-932's SharePartition), sans-IO.

The share-partition start offset (SPSO) is the first offset that is not yet delivery-complete;
every record from the SPSO to the last fetched offset is *in flight*, in one of the states
AVAILABLE, ACQUIRED (by one member, under an acquisition lock), ACKNOWLEDGED or ARCHIVED. The
SPSO moves forward over acknowledged/archived prefixes. Records past the in-flight window are
AVAILABLE implicitly, with delivery count 0.

Written from KIP-932 / KIP-1222 / KIP-1240 and the behaviour of Kafka's SharePartition:

* acquire: AVAILABLE records in the fetched range become ACQUIRED by the member, their delivery
  count +1, under a lock of ``record_lock_duration_ms``; at most ``max_records`` records and at
  most ``max_in_flight_records`` (``share.partition.max.record.locks``) records in flight.
* acknowledge ACCEPT -> ACKNOWLEDGED, REJECT / GAP -> ARCHIVED, RELEASE -> AVAILABLE (ARCHIVED
  once the delivery count reached ``delivery_count_limit``), RENEW -> lock restarted. Only
  records ACQUIRED by the acknowledging member may be acknowledged; otherwise
  INVALID_RECORD_STATE and nothing changes (the whole acknowledgement is validated first).
* lock expiry and a member leaving release that member's records like RELEASE does.
* read_committed: offsets of aborted transactions (given by the caller from the log's aborted
  transaction index) are archived when first reached, never acquired.

Time comes only from the injected ``Timer`` (the purgatory's timing wheel). Every state change
is appended to an outbox of ``ShareUpdateValue`` records that the share coordinator would write.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TypedDict, TypeVar, Unpack

from kafka_wire.errors import ErrorCode

from ..purgatory.timing_wheel import Timer, TimerTask
from .state import (
    PersisterStateBatch,
    RecordState,
    ShareGroupState,
    ShareSnapshotValue,
    ShareUpdateValue,
    coalesce,
)

DEFAULT_RECORD_LOCK_DURATION_MS = 30_000  # group.share.record.lock.duration.ms
DEFAULT_DELIVERY_COUNT_LIMIT = 5  # group.share.delivery.count.limit
DEFAULT_MAX_IN_FLIGHT_RECORDS = 2_000  # group.share.partition.max.record.locks


# The share APIs' error codes live in kafka_wire.errors (121-124, 133); the old name stays for the core.
ShareErrorCode = ErrorCode


class SharePartitionError(Exception):
    def __init__(self, code: ShareErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class AcknowledgeType(IntEnum):
    """Wire values of AcknowledgeTypes in ShareFetch / ShareAcknowledge."""

    GAP = 0
    ACCEPT = 1
    RELEASE = 2
    REJECT = 3
    RENEW = 4  # KIP-1222


class AutoOffsetReset(Enum):
    """``share.auto.offset.reset``: where a new share-partition starts (Kafka default: latest)."""

    EARLIEST = "earliest"
    LATEST = "latest"
    BY_DURATION = "by_duration"  # "by_duration:<ISO-8601 duration>": the first record newer than now - duration


_ISO_DURATION = re.compile(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?")


def parse_auto_offset_reset(value: str) -> tuple[AutoOffsetReset, int | None]:
    """Parse the group config value; returns the strategy and, for by_duration, the duration in ms.

    Raises ValueError (Kafka: INVALID_CONFIG) for anything else, like a negative or malformed duration.
    """
    v = value.strip().lower()
    if v in ("earliest", "latest"):
        return AutoOffsetReset(v), None
    if v.startswith("by_duration:"):
        text = value.strip()[len("by_duration:") :].upper()
        m = _ISO_DURATION.fullmatch(text)
        if m is None or text in ("P", "PT") or text.endswith("T"):
            raise ValueError(f"Invalid share.auto.offset.reset duration: {text!r} (ISO-8601, e.g. PT1H)")
        days, hours, minutes, seconds = (float(x) if x else 0.0 for x in m.groups())
        return AutoOffsetReset.BY_DURATION, int(((days * 24 + hours) * 60 + minutes) * 60_000 + seconds * 1000)
    raise ValueError(f"Invalid share.auto.offset.reset: {value!r} (earliest, latest or by_duration:<ISO-8601>)")


@dataclass(frozen=True, slots=True)
class AcquiredRecords:
    """One AcquiredRecords entry of a ShareFetch response."""

    first_offset: int
    last_offset: int
    delivery_count: int


@dataclass(frozen=True, slots=True)
class AcknowledgementBatch:
    """One AcknowledgementBatches entry: one type for the whole range, or one per offset."""

    first_offset: int
    last_offset: int
    acknowledge_types: tuple[int, ...]


@dataclass(slots=True)
class InFlightRecord:
    state: RecordState
    delivery_count: int
    member_id: str | None = None
    lock: AcquisitionLock | None = None
    # (state, count) as last written to the share coordinator; None: never written.
    persisted: tuple[RecordState, int] | None = None


class AcquisitionLock(TimerTask):
    """The lock of one acquisition; on expiry its still-held records go back to AVAILABLE."""

    __slots__ = ("partition", "member_id", "offsets")

    def __init__(self, partition: SharePartition, member_id: str, offsets: list[int], delay_ms: int) -> None:
        super().__init__(delay_ms)
        self.partition = partition
        self.member_id = member_id
        self.offsets = offsets

    def run(self) -> None:
        self.partition._on_lock_expired(self)


_K = TypeVar("_K")


class PartitionConfig(TypedDict, total=False):
    """The settings a SharePartition takes as keywords (a share group's configs)."""

    record_lock_duration_ms: int
    delivery_count_limit: int
    max_in_flight_records: int
    renew_acknowledge_enable: bool
    persist_acquisitions: bool


def _ranges(offsets: Iterable[int], key: Callable[[int], _K]) -> list[tuple[int, int, _K]]:
    """Group sorted offsets into contiguous runs with equal ``key``."""
    out: list[tuple[int, int, _K]] = []
    for o in offsets:
        k = key(o)
        if out and out[-1][1] == o - 1 and out[-1][2] == k:
            out[-1] = (out[-1][0], o, k)
        else:
            out.append((o, o, k))
    return out


class SharePartition:
    """The in-flight records of one (share group, topic partition) on the partition leader."""

    def __init__(
        self,
        timer: Timer,
        start_offset: int,
        *,
        record_lock_duration_ms: int = DEFAULT_RECORD_LOCK_DURATION_MS,
        delivery_count_limit: int = DEFAULT_DELIVERY_COUNT_LIMIT,
        max_in_flight_records: int = DEFAULT_MAX_IN_FLIGHT_RECORDS,
        renew_acknowledge_enable: bool = True,
        persist_acquisitions: bool = False,
        state_epoch: int = 0,
        leader_epoch: int = 0,
        snapshot_epoch: int = 0,
    ) -> None:
        if record_lock_duration_ms < 1 or delivery_count_limit < 1 or max_in_flight_records < 1:
            raise ValueError("lock duration, delivery count limit and max in-flight records must be >= 1")
        self.timer = timer
        self.record_lock_duration_ms = record_lock_duration_ms
        self.delivery_count_limit = delivery_count_limit
        self.max_in_flight_records = max_in_flight_records
        self.renew_acknowledge_enable = renew_acknowledge_enable
        # Kafka writes state on acknowledge, release and lock timeout only: an acquisition (its
        # delivery count) is lost if the leader fails before one of those. True also persists
        # acquisitions (one more write per fetch; a crash then counts as a delivery attempt).
        self.persist_acquisitions = persist_acquisitions
        self._persisted_complete_count = -1
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.snapshot_epoch = snapshot_epoch
        self._start = start_offset
        self._last = start_offset - 1  # last in-flight offset; start - 1 when nothing is in flight
        self._records: dict[int, InFlightRecord] = {}
        self._outbox: list[ShareUpdateValue] = []
        # The timer runs lock expiry on the advancing thread: re-entrant so an expiry fired from
        # inside an operation (timer.add of an already-due task) is safe.
        self._lock = threading.RLock()
        # Called (outside the lock) when a lock expiry made records AVAILABLE: parked share
        # fetches on this partition may complete (the manager wires the purgatory here).
        self.on_available: Callable[[], None] | None = None

    # ---- construction -------------------------------------------------------------------------

    @staticmethod
    def initial_start_offset(
        reset: AutoOffsetReset,
        log_start_offset: int,
        log_end_offset: int,
        *,
        duration_ms: int | None = None,
        now_ms: int | None = None,
        offset_for_timestamp: Callable[[int], int] | None = None,
    ) -> int:
        """SPSO of a share-partition without persisted state (``share.auto.offset.reset``).

        by_duration looks up ``now - duration`` with ``offset_for_timestamp`` (ListOffsets by
        time: the first offset whose timestamp is >= it, the log end offset if there is none).
        """
        if reset is AutoOffsetReset.EARLIEST:
            return log_start_offset
        if reset is AutoOffsetReset.LATEST:
            return log_end_offset
        if duration_ms is None or now_ms is None or offset_for_timestamp is None:
            raise ValueError("by_duration needs duration_ms, now_ms and offset_for_timestamp")
        return offset_for_timestamp(now_ms - duration_ms)

    @classmethod
    def from_state(cls, timer: Timer, state: ShareGroupState, **config: Unpack[PartitionConfig]) -> SharePartition:
        """Rebuild from ReadShareGroupState's answer (a new leader, a restart).

        Persisted AVAILABLE records keep their delivery counts; offsets between persisted batches
        were never delivered (AVAILABLE, count 0).
        """
        sp = cls(
            timer,
            state.start_offset,
            state_epoch=state.state_epoch,
            leader_epoch=state.leader_epoch,
            snapshot_epoch=state.snapshot_epoch,
            **config,
        )
        for b in state.state_batches:
            if b.last_offset < sp._start:
                continue
            for o in range(max(b.first_offset, sp._start), b.last_offset + 1):
                sp._records[o] = InFlightRecord(
                    b.delivery_state, b.delivery_count, persisted=(b.delivery_state, b.delivery_count)
                )
            sp._last = max(sp._last, b.last_offset)
        for o in range(sp._start, sp._last + 1):
            sp._records.setdefault(o, InFlightRecord(RecordState.AVAILABLE, 0))
        sp._advance_start()
        sp._outbox.clear()
        sp._persisted_complete_count = state.delivery_complete_count
        return sp

    # ---- views --------------------------------------------------------------------------------

    @property
    def start_offset(self) -> int:
        """SPSO."""
        return self._start

    @property
    def end_offset(self) -> int:
        """SPEO as Kafka reports it: the last in-flight offset, the SPSO when none is in flight."""
        return max(self._last, self._start)

    @property
    def in_flight_count(self) -> int:
        return len(self._records)

    @property
    def delivery_complete_count(self) -> int:
        """In-flight records already ACKNOWLEDGED or ARCHIVED (share lag = SPEO - SPSO + 1 minus these)."""
        with self._lock:
            return sum(1 for r in self._records.values() if r.state.is_terminal)

    def next_fetch_offset(self) -> int:
        """Where the next log read for this share-partition starts: the first AVAILABLE record."""
        with self._lock:
            for o in range(self._start, self._last + 1):
                if self._records[o].state == RecordState.AVAILABLE:
                    return o
            return self._last + 1

    def can_acquire_records(self) -> bool:
        with self._lock:
            if len(self._records) < self.max_in_flight_records:
                return True
            return any(r.state == RecordState.AVAILABLE for r in self._records.values())

    def record(self, offset: int) -> InFlightRecord | None:
        with self._lock:
            r = self._records.get(offset)
            return None if r is None else InFlightRecord(r.state, r.delivery_count, r.member_id)

    def records(self) -> dict[int, InFlightRecord]:
        """A copy of the in-flight records (offset -> state, count, owner)."""
        with self._lock:
            return {o: InFlightRecord(r.state, r.delivery_count, r.member_id) for o, r in self._records.items()}

    def acquired_by(self, member_id: str) -> list[int]:
        with self._lock:
            return sorted(
                o for o, r in self._records.items() if r.state == RecordState.ACQUIRED and r.member_id == member_id
            )

    # ---- acquire ------------------------------------------------------------------------------

    def acquire(
        self,
        member_id: str,
        first_offset: int,
        last_offset: int,
        max_records: int,
        aborted_ranges: Sequence[tuple[int, int]] = (),
    ) -> list[AcquiredRecords]:
        """Acquire records of a fetched log range ``[first_offset, last_offset]`` for a member.

        ``aborted_ranges`` (read_committed): inclusive offset ranges of aborted transactions in
        the fetched data; such records are archived and never handed out.
        """
        if first_offset > last_offset or max_records < 1:
            raise SharePartitionError(
                ShareErrorCode.INVALID_REQUEST, f"bad fetch range [{first_offset}, {last_offset}] / {max_records}"
            )
        with self._lock:
            op_start = self._start
            if not self._records and first_offset > self._start:
                # Nothing in flight and the log has nothing before first_offset (retention,
                # compaction): the share-partition starts there.
                self._start = first_offset
                self._last = first_offset - 1
            if first_offset > self._last + 1:
                raise SharePartitionError(
                    ShareErrorCode.INVALID_REQUEST,
                    f"fetched range starts at {first_offset}, past the next new offset {self._last + 1}",
                )
            # Kafka's budget: what is left under the in-flight limit; at the limit, only records
            # inside the in-flight window (released or timed out ones) can be acquired again.
            budget = min(max_records, self.max_in_flight_records - len(self._records))
            if budget <= 0:
                if first_offset > self._last:
                    return []
                budget = min(max_records, self._last - first_offset + 1)
                last_offset = min(last_offset, self._last)
            limit = self.delivery_count_limit
            throttle_from = max(2, -(-limit // 2))  # ceil(limit / 2), at least 2
            throttled_budget: int | None = None
            acquired: list[int] = []
            changed: list[int] = []
            taken = 0  # acquired records, aborted ones included (Kafka filters them afterwards)
            o = max(first_offset, self._start)
            while o <= last_offset and taken < budget:
                r = self._records.get(o)
                if r is None:  # a new record past the in-flight window
                    r = self._records[o] = InFlightRecord(RecordState.AVAILABLE, 0)
                    self._last = o
                    changed.append(o)
                if r.state == RecordState.AVAILABLE:
                    # A record on its last delivery attempt goes out alone (a poison record must not
                    # drag a batch of good ones to the limit with it).
                    if limit > 2 and r.delivery_count == limit - 1 and taken > 0:
                        break
                    # From ceil(limit / 2) deliveries on, each further attempt halves the batch.
                    if throttled_budget is None and r.delivery_count >= throttle_from:
                        throttled_budget = max(1, budget >> (r.delivery_count - throttle_from + 1))
                    r.state = RecordState.ACQUIRED
                    r.delivery_count += 1
                    r.member_id = member_id
                    taken += 1
                    if not changed or changed[-1] != o:
                        changed.append(o)
                    if any(lo <= o <= hi for lo, hi in aborted_ranges):
                        # read_committed: acquired, then archived at once; never handed out.
                        r.state = RecordState.ARCHIVED
                        r.member_id = None
                    else:
                        acquired.append(o)
                    if limit > 2 and r.delivery_count == limit:
                        break
                    if throttled_budget is not None and taken >= throttled_budget:
                        break
                o += 1
            lock: AcquisitionLock | None = None
            if acquired:
                lock = AcquisitionLock(self, member_id, acquired, self.record_lock_duration_ms)
                for a in acquired:
                    self._records[a].lock = lock
            self._emit(changed if self.persist_acquisitions else [], op_start)
            result = [
                AcquiredRecords(lo, hi, k) for lo, hi, k in _ranges(acquired, lambda x: self._records[x].delivery_count)
            ]
        if lock is not None:
            self.timer.add(lock)  # outside our lock: an already-due task runs inline
        return result

    # ---- acknowledge --------------------------------------------------------------------------

    def acknowledge(self, member_id: str, batches: Sequence[AcknowledgementBatch]) -> None:
        """Apply a member's acknowledgements; all or nothing.

        Raises ``SharePartitionError`` with INVALID_REQUEST for malformed batches (reversed, a
        batch starting before the previous one ended, a types list of the wrong length, an unknown
        type) or offsets past the fetched records, and INVALID_RECORD_STATE for offsets not ACQUIRED
        by this member (an offset acknowledged twice in the request included) or RENEW while the group
        disables it. Offsets below the SPSO are delivery-complete and skipped (a batch wholly below it
        is answered NONE, as Kafka does).
        """
        with self._lock:
            plan = self._validate(member_id, batches)
            changed: list[int] = []
            renewed: list[int] = []
            for o, t in plan:
                r = self._records[o]
                if t == AcknowledgeType.RENEW:
                    renewed.append(o)
                    continue
                self._drop_lock(o, r)
                if t == AcknowledgeType.ACCEPT:
                    r.state = RecordState.ACKNOWLEDGED
                elif t in (AcknowledgeType.REJECT, AcknowledgeType.GAP):
                    r.state = RecordState.ARCHIVED
                else:
                    self._release(r)
                r.member_id = None
                changed.append(o)
            lock: AcquisitionLock | None = None
            if renewed:
                for o in renewed:
                    self._drop_lock(o, self._records[o])
                lock = AcquisitionLock(self, member_id, renewed, self.record_lock_duration_ms)
                for o in renewed:
                    self._records[o].lock = lock
            self._emit(changed)
        if lock is not None:
            self.timer.add(lock)

    def _validate(self, member_id: str, batches: Sequence[AcknowledgementBatch]) -> list[tuple[int, AcknowledgeType]]:
        # Kafka's order: the request's batches are checked as a whole first (KafkaApis: reversed, a
        # batch starting before the previous one ended, the types), then the share-partition walks
        # them against its records. A batch starting at the previous one's last offset passes the
        # first check; its first offset is then acknowledged twice: INVALID_RECORD_STATE (as
        # Apache Kafka 4.3.1 answers on the wire).
        prev_last: int | None = None
        known = {int(t) for t in AcknowledgeType}
        for b in batches:
            if b.first_offset > b.last_offset:
                raise SharePartitionError(
                    ShareErrorCode.INVALID_REQUEST, f"first offset {b.first_offset} > last offset {b.last_offset}"
                )
            if prev_last is not None and b.first_offset < prev_last:
                raise SharePartitionError(ShareErrorCode.INVALID_REQUEST, "acknowledgement batches overlap or unsorted")
            prev_last = b.last_offset
            n = b.last_offset - b.first_offset + 1
            types = b.acknowledge_types
            if len(types) not in (1, n):
                raise SharePartitionError(
                    ShareErrorCode.INVALID_REQUEST, f"{len(types)} acknowledge types for {n} offsets"
                )
            if any(t not in known for t in types):
                raise SharePartitionError(ShareErrorCode.INVALID_REQUEST, f"invalid acknowledge type in {list(types)}")
        plan: list[tuple[int, AcknowledgeType]] = []
        planned: set[int] = set()
        for b in batches:
            types = b.acknowledge_types
            if b.last_offset < self._start:
                # Wholly below the SPSO: delivery-complete already (accepted, archived, or an
                # acknowledgement re-sent after a retry). Kafka's SharePartition.acknowledge skips such
                # a batch before looking at its cache or the records' owner, so the answer is NONE
                # whether or not the fetched batch that held them is still cached (Apache Kafka 4.3.1
                # answers the same on the wire).
                continue
            if not self._records:
                raise SharePartitionError(
                    ShareErrorCode.INVALID_RECORD_STATE,
                    "Batch record not found. The request batch offsets are not found in the cache.",
                )
            if b.last_offset > self._last:
                # Kafka answers INVALID_REQUEST for offsets past the fetched records.
                raise SharePartitionError(
                    ShareErrorCode.INVALID_REQUEST,
                    f"Batch record not found. Offsets up to {b.last_offset} are past acquired records ({self._last}).",
                )
            # Offsets below the SPSO are delivery-complete already (e.g. archived after a lock
            # timeout moved the SPSO): skipped, as Kafka does.
            for o in range(max(b.first_offset, self._start), b.last_offset + 1):
                raw = types[0] if len(types) == 1 else types[o - b.first_offset]
                r = self._records[o]
                if r.state != RecordState.ACQUIRED or o in planned:
                    raise SharePartitionError(
                        ShareErrorCode.INVALID_RECORD_STATE,
                        f"The offset {o} cannot be acknowledged. The offset is not acquired.",
                    )
                if r.member_id != member_id:
                    raise SharePartitionError(
                        ShareErrorCode.INVALID_RECORD_STATE, f"Member is not the owner of offset {o}"
                    )
                if raw == AcknowledgeType.RENEW and not self.renew_acknowledge_enable:
                    raise SharePartitionError(
                        ShareErrorCode.INVALID_RECORD_STATE, "Renewing acquisition locks is not enabled for the group."
                    )
                plan.append((o, AcknowledgeType(raw)))
                planned.add(o)
        return plan

    # ---- releases -----------------------------------------------------------------------------

    def release_acquired_records(self, member_id: str) -> list[int]:
        """A member left (or its share session closed): its acquired records go back."""
        with self._lock:
            changed = [
                o for o, r in self._records.items() if r.state == RecordState.ACQUIRED and r.member_id == member_id
            ]
            changed.sort()
            for o in changed:
                r = self._records[o]
                self._drop_lock(o, r)
                self._release(r)
                r.member_id = None
            self._emit(changed)
            return changed

    def update_log_start_offset(self, log_start_offset: int) -> None:
        """Retention/DeleteRecords moved the log start past the SPSO: those records are gone."""
        with self._lock:
            if log_start_offset <= self._start:
                return
            for o in range(self._start, min(log_start_offset, self._last + 1)):
                r = self._records.pop(o)
                self._drop_lock(o, r)
            self._start = log_start_offset
            self._last = max(self._last, log_start_offset - 1)
            self._advance_start()
            self._persisted_complete_count = self.delivery_complete_count
            self._outbox.append(
                ShareUpdateValue(
                    self.snapshot_epoch, self.leader_epoch, self._start, (), self._persisted_complete_count
                )
            )

    def _on_lock_expired(self, lock: AcquisitionLock) -> None:
        with self._lock:
            changed = []
            for o in lock.offsets:
                r = self._records.get(o)
                if r is not None and r.lock is lock and r.state == RecordState.ACQUIRED:
                    r.lock = None
                    self._release(r)
                    r.member_id = None
                    changed.append(o)
            self._emit(changed)
        if changed and self.on_available is not None:
            self.on_available()

    def _release(self, r: InFlightRecord) -> None:
        # KIP-1240: the limit is checked when a delivery attempt completes.
        r.state = RecordState.ARCHIVED if r.delivery_count >= self.delivery_count_limit else RecordState.AVAILABLE

    @staticmethod
    def _drop_lock(offset: int, r: InFlightRecord) -> None:
        lock = r.lock
        if lock is None:
            return
        r.lock = None
        # Cancel the timer task once none of its records is still held under it.
        lock.offsets = [o for o in lock.offsets if o != offset]
        if not lock.offsets:
            lock.cancel()

    def close(self) -> None:
        """The share-partition is dropped (its offsets were reset or deleted): cancel its locks."""
        with self._lock:
            for o, r in self._records.items():
                self._drop_lock(o, r)

    # ---- SPSO and persistence -----------------------------------------------------------------

    def _advance_start(self) -> None:
        while self._start <= self._last and self._records[self._start].state.is_terminal:
            del self._records[self._start]
            self._start += 1
        if not self._records:
            self._last = self._start - 1

    def _batch_of(self, o: int) -> tuple[RecordState, int]:
        r = self._records[o]
        state = RecordState.AVAILABLE if r.state == RecordState.ACQUIRED else r.state
        return state, r.delivery_count

    def _emit(self, changed: list[int], op_start: int | None = None) -> None:
        """Record the ShareUpdate for ``changed`` offsets (captured before the SPSO moves).

        ``op_start``: the SPSO when the operation began, if it may already have moved.
        """
        old_start = self._start if op_start is None else op_start
        if not changed and self._start == old_start:
            return
        for o in changed:
            self._records[o].persisted = self._batch_of(o)
        batches = tuple(
            PersisterStateBatch(lo, hi, k[0], k[1]) for lo, hi, k in _ranges(sorted(changed), self._batch_of)
        )
        self._advance_start()
        start = self._start if self._start != old_start else -1
        self._persisted_complete_count = self.delivery_complete_count
        self._outbox.append(
            ShareUpdateValue(self.snapshot_epoch, self.leader_epoch, start, batches, self._persisted_complete_count)
        )

    def drain_updates(self) -> list[ShareUpdateValue]:
        """The ShareUpdate records produced since the last call (for WriteShareGroupState)."""
        with self._lock:
            out, self._outbox = self._outbox, []
            return out

    def persisted_batches(self) -> tuple[PersisterStateBatch, ...]:
        """The state batches as written so far (what the coordinator holds once the outbox is written)."""
        with self._lock:
            written = {o: r.persisted for o, r in self._records.items() if r.persisted is not None}
            return coalesce(
                PersisterStateBatch(lo, hi, k[0], k[1]) for lo, hi, k in _ranges(sorted(written), written.__getitem__)
            )

    @property
    def persisted_delivery_complete_count(self) -> int:
        return self._persisted_complete_count

    def snapshot(self, create_timestamp: int = -1, write_timestamp: int = -1) -> ShareSnapshotValue:
        """A ShareSnapshot of the whole current state (acquired records as AVAILABLE); afterwards
        every in-flight record counts as written."""
        with self._lock:
            for o, r in self._records.items():
                r.persisted = self._batch_of(o)
            self._persisted_complete_count = self.delivery_complete_count
            return ShareSnapshotValue(
                snapshot_epoch=self.snapshot_epoch,
                state_epoch=self.state_epoch,
                leader_epoch=self.leader_epoch,
                start_offset=self._start,
                create_timestamp=create_timestamp,
                write_timestamp=write_timestamp,
                state_batches=self.persisted_batches(),
                delivery_complete_count=self._persisted_complete_count,
            )
