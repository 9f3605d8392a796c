"""Group mode of the pykafka stream reader: the query is a member of a Kafka consumer group.

With `groupMode` = `true` and `kafka.group.id` (the group; a group id alone keeps the meaning of
Spark's Kafka source and switches nothing on), the driver-side stream reader (one long-lived Python process per query,
`reference/research/spark_sources.md` §1.3) owns a `consumer_group.GroupMember`: it joins the
group, heartbeats from its own daemon thread, computes the assignment when it is the leader, and
each micro-batch plans only the partitions it owns. Several queries (or Spark applications)
with the same group id split the subscription; adding or removing one rebalances them; a dead
driver is evicted after `kafka.session.timeout.ms` and its partitions move to the survivors.

Where a partition starts when the member gains it (`GroupSession.resume_offsets`): the Delta
table's committed next offset (`offsetsTable`, app transactions with owner = group id, written
atomically with the data by the `pykafka-delta` sink), else the group's committed offset on the
broker (OffsetFetch), else `startingOffsets`. The start is recorded in the batch's end offsets
(`offsets.group_offsets`) so a replay after a driver crash reads the same ranges.

Exactly-once across rebalances rests on the table, not on timing: a member that lost a
partition mid-batch finishes that batch (the reader never blocks Spark waiting for a rebalance),
and the sink drops rows below the table's committed offset, so an old owner cannot write what
the new owner already wrote, and vice versa. A revoked partition is not planned again by its old
owner, and its broker commits are fenced by generation.

With `kafka.group.protocol` = `consumer` (KIP-848) the coordinator assigns and partitions move
one by one: a member keeps reading the partitions it keeps while others move. A revocation is
handled as Kafka's consumer does it (ConsumerMembershipManager: commit, then revoke, then
acknowledge): the partitions leave planning at once (under the planning lock, so no batch names
them after they are released), the revocation waits for the planned batch still reading them to
finish (Spark's next `latestOffset`/`commit`, up to half of `kafka.max.poll.interval.ms`, the
coordinator's rebalance timeout; the member heartbeats meanwhile), commits that batch's end
offsets at the member epoch it still holds, and only then releases them. The new owner resumes
exactly there. Commits carry the member's current epoch and id (OffsetCommit v9): a
STALE_MEMBER_EPOCH answer is retried with the new epoch for the partitions still owned only (a
retry never commits a partition the member gave up); UNKNOWN_MEMBER_ID / FENCED_MEMBER_EPOCH
means the member was fenced: nothing is committed (its partitions are lost and may be owned
elsewhere), logged as a warning and counted in `GroupSession.refused_commits`.

Nothing here relies on Spark calling `commit()` or `stop()`: the heartbeat thread is a daemon,
the process leaves the group on SIGTERM (what Spark sends the reader process when the query
stops), and a killed driver simply stops heartbeating.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from connector.options import SourceOptions
from consumer_group import (
    CommitFailedError,
    GroupError,
    GroupMember,
    MemberState,
    OffsetAndMetadata,
    RebalanceInProgressError,
)
from consumer_group import TopicPartition as GroupTopicPartition
from kafka_wire.errors import ErrorCode
from offsets.spec import PartitionOffsets, TopicPartition, tp_str

log = logging.getLogger("connector.source.group_mode")

# broker commits run on Spark's planning path: never hold a micro-batch for long
_COMMIT_TIMEOUT_S = 5.0
_LEAVE_TIMEOUT_S = 5.0
# consumer protocol: a STALE_MEMBER_EPOCH commit is retried with the new epoch at most this often
_STALE_EPOCH_RETRIES = 3

RESUME_TABLE = "table"
RESUME_BROKER = "broker"
RESUME_STARTING = "startingOffsets"


@dataclass(frozen=True)
class OwnedView:
    """What the member owns, as one consistent snapshot."""

    generation: int
    member_id: str
    owned: frozenset[TopicPartition]
    continuous: frozenset[TopicPartition]  # owned without a break since this reader last planned them
    assigned: bool  # at least one assignment was received


class GroupSession:
    """The stream reader's membership in its consumer group (driver-side reader process only).

    Started lazily by the first planning call, so the second reader instance Spark creates (and
    pickles into `read()`) never joins the group.
    """

    def __init__(self, opts: SourceOptions, topics: Iterable[str]) -> None:
        g = opts.group
        assert g is not None
        self.opts = opts
        self.group_id = g.group_id
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # notified when the owned partitions change
        self._assigned = threading.Event()
        self._generation = -1
        self._member_id = ""
        self._owned: frozenset[TopicPartition] = frozenset()
        self._continuous: set[TopicPartition] = set()
        self._broker_committed: PartitionOffsets = {}
        self._store: Any = None
        self._closed = False
        self.protocol = g.group_protocol
        # consumer protocol: planning and a revocation exclude each other (a released partition is
        # never planned); what the last planned batch reads and has not finished yet (its end
        # offsets), the last finished end of each partition, and what is being revoked
        self._plan_lock = threading.RLock()
        self._in_flight: PartitionOffsets = {}
        self._finished: PartitionOffsets = {}
        self._revoking: set[TopicPartition] = set()
        self._revoke_wait_s = g.rebalance_timeout_ms / 2000.0
        self.refused_commits = 0  # commits the coordinator refused for a fenced member (observability)
        self.member = GroupMember(
            opts.client.bootstrap_servers,
            g.group_id,
            topics,
            assignors=g.assignors,
            session_timeout_ms=g.session_timeout_ms,
            rebalance_timeout_ms=g.rebalance_timeout_ms,
            heartbeat_interval_ms=g.heartbeat_interval_ms,
            group_instance_id=g.group_instance_id,
            client_id=opts.client.client_id,
            metadata_max_age_ms=g.metadata_max_age_ms,
            request_timeout_ms=opts.client.request_timeout_ms,
            security=opts.client.security,
            on_partitions_assigned=self._on_assigned,
            on_partitions_revoked=self._on_revoked,
            on_partitions_lost=self._on_lost,
            group_protocol=g.group_protocol,
            group_remote_assignor=g.remote_assignor,
        )

    # --- lifecycle ------------------------------------------------------------------------------
    def start(self) -> GroupSession:
        self.member.start()
        _register_for_sigterm(self)
        g = self.opts.group
        assert g is not None  # a GroupSession exists only with group options
        how = g.remote_assignor or "the broker's assignor" if self.protocol == "consumer" else ", ".join(g.assignors)
        log.info("group mode: joining group %r (group.protocol=%s) with %s", self.group_id, self.protocol, how)
        return self

    def close(self, timeout: float = _LEAVE_TIMEOUT_S) -> None:
        """Revoke (commits the table's offsets to the broker), LeaveGroup, stop the threads."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._changed.notify_all()  # a revocation waiting for a batch stops waiting: the query stops
        try:
            self.member.close(timeout)
        except Exception:  # closing must never raise into Spark's shutdown path
            log.exception("group %s: error while leaving the group", self.group_id)

    @property
    def closed(self) -> bool:
        return self._closed

    def raise_if_failed(self) -> None:
        """A member that failed for good (e.g. no assignor in common with the group, a fenced static
        member) fails the query with the coordinator's reason instead of leaving it idle."""
        if self.member.state is MemberState.FAILED:
            self.member.committed([])  # raises GroupMemberClosedError naming the cause

    # --- membership callbacks (group thread) -----------------------------------------------------
    def _on_assigned(self, added: frozenset[GroupTopicPartition]) -> None:
        # called after every completed sync (even with nothing added): the member's generation and
        # assignment are those of that sync, and only the group thread changes them
        gen = self.member.generation()
        owned = frozenset(TopicPartition(tp.topic, tp.partition) for tp in self.member.assignment())
        if self.protocol == "consumer":
            # the consumer protocol's member owns `added` once this callback returns: add them here
            with self._lock:
                owned = self._owned | {TopicPartition(tp.topic, tp.partition) for tp in added}
        with self._lock:
            self._generation = gen.generation_id
            self._member_id = gen.member_id
            self._owned = owned
            self._continuous &= owned
            self._changed.notify_all()
        self._assigned.set()
        log.info(
            "group %s generation %d: member %s owns %s (added %s)",
            self.group_id,
            gen.generation_id,
            gen.member_id,
            sorted(tp_str(tp) for tp in owned),
            sorted(tp_str((tp.topic, tp.partition)) for tp in added),
        )

    def _drop(self, tps: frozenset[GroupTopicPartition]) -> set[TopicPartition]:
        gone = {TopicPartition(tp.topic, tp.partition) for tp in tps}
        with self._lock:
            self._owned = self._owned - gone
            self._continuous -= gone
            self._revoking -= gone
            for tp in gone:
                self._broker_committed.pop(tp, None)
                self._in_flight.pop(tp, None)
                self._finished.pop(tp, None)
        return gone

    def _on_revoked(self, revoked: frozenset[GroupTopicPartition]) -> None:
        if self.protocol == "consumer":
            self._revoke_after_batch(revoked)
            return
        gone = self._drop(revoked)
        # a GroupSession exists only with group options
        if not gone or self.opts.group.offsets_table is None:  # type: ignore[union-attr]
            return
        # Hand the partitions over with the table's offsets on the broker too, so members that do not
        # read the table (other Kafka consumers, lag tools) see where the data really ends. Still in a
        # valid generation here (cooperative: the new one; eager: before rejoining).
        try:
            table = self.table_committed(gone)
            if table:
                self.member.commit(
                    {GroupTopicPartition(*tp): OffsetAndMetadata(o) for tp, o in table.items()},
                    timeout=_COMMIT_TIMEOUT_S,
                )
                log.info("group %s: revoked partitions committed from the table: %s", self.group_id, table)
        except Exception as e:  # best effort: the table stays the truth for our members
            log.warning("group %s: could not commit revoked partitions' offsets: %s", self.group_id, e)

    def _revoke_after_batch(self, revoked: frozenset[GroupTopicPartition]) -> None:
        """Consumer protocol: commit before revoke. Stop planning the partitions, let the batch that
        reads them finish, commit its end offsets (the table's, with `offsetsTable`) at the epoch
        the member still holds, then release them (this callback returning acknowledges them)."""
        g = self.opts.group
        assert g is not None  # a GroupSession exists only with group options
        gone = {TopicPartition(tp.topic, tp.partition) for tp in revoked}
        deadline = time.monotonic() + self._revoke_wait_s
        # the planning lock: a batch being planned now ends before the partitions leave planning
        # (not waited for when the query stops: SIGTERM may have interrupted that very planning)
        planning_ended = False
        while not planning_ended and not self._closed and time.monotonic() < deadline:
            planning_ended = self._plan_lock.acquire(timeout=0.2)
        try:
            with self._lock:
                self._owned = self._owned - gone
                self._continuous -= gone
                self._revoking |= gone
        finally:
            if planning_ended:
                self._plan_lock.release()
        try:
            with self._lock:
                while not self._closed and gone & self._in_flight.keys() and time.monotonic() < deadline:
                    self._changed.wait(min(1.0, max(0.0, deadline - time.monotonic())))
                unfinished = sorted(gone & self._in_flight.keys())
                finished = {tp: self._finished[tp] for tp in gone if tp in self._finished}
            if unfinished:
                log.warning(
                    "group %s: releasing %s while the batch reading them has not finished (%s): their new owner "
                    "resumes at the last finished batch's end%s",
                    self.group_id,
                    [tp_str(tp) for tp in unfinished],
                    "the query stops" if self._closed else f"waited {self._revoke_wait_s:.0f} s",
                    "" if g.offsets_table else " and reads that batch's records again",
                )
            table = self.table_committed(gone) if g.offsets_table else {}
            self._commit_owned({**finished, **table}, revoking=True)
        except Exception as e:  # best effort: the partitions are released whatever happens
            log.warning("group %s: could not commit revoked partitions' offsets: %s", self.group_id, e)
        finally:
            self._drop(revoked)
            log.info("group %s: released %s", self.group_id, sorted(tp_str(tp) for tp in gone))

    def _on_lost(self, lost: frozenset[GroupTopicPartition]) -> None:
        # fenced or evicted: another member may own them already; never commit for them
        gone = self._drop(lost)
        log.warning("group %s: lost partitions %s", self.group_id, sorted(tp_str(tp) for tp in gone))

    # --- planning side (the reader's thread) -----------------------------------------------------
    def view(self, wait_s: float = 0.0, settle_s: float = 0.0) -> OwnedView:
        """The current ownership; waits up to `wait_s` for the first assignment, then up to `settle_s`
        more while it is empty: under the cooperative protocol a joining member's first assignment is
        empty, its partitions come one rebalance later (KIP-429)."""
        deadline = time.monotonic() + wait_s + settle_s
        first_deadline = time.monotonic() + wait_s
        while not self._assigned.is_set() and time.monotonic() < first_deadline:
            if self.member.state is MemberState.FAILED:
                break
            if self.protocol == "consumer" and self.member.is_stable():
                self._assigned.set()  # reconciled to an assignment without partitions (no callback)
                break
            self._assigned.wait(min(0.2, max(0.0, first_deadline - time.monotonic())))
        if self.protocol == "consumer":
            # the member epoch moves without an assign callback too (a revocation, a new group epoch)
            gen = self.member.generation()
            with self._lock:
                if gen.is_valid:
                    self._generation, self._member_id = gen.generation_id, gen.member_id
        with self._lock:
            while self._assigned.is_set() and not self._owned and time.monotonic() < deadline:
                self._changed.wait(deadline - time.monotonic())
            return OwnedView(
                self._generation,
                self._member_id,
                self._owned,
                frozenset(self._continuous),
                self._assigned.is_set(),
            )

    @contextlib.contextmanager
    def planning(self) -> Iterator[None]:
        """Held while the reader plans a batch (view → end offsets → `planned`): a consumer-protocol
        revocation takes the partitions out of planning only between two plannings."""
        with self._plan_lock:
            yield

    def planned(self, end: Mapping[TopicPartition, int]) -> None:
        """The reader returned these end offsets: the next batch continues them from there, unless
        they are revoked or lost before it is planned; until Spark finishes the batch (the next
        `commit_finished` reaching them), a revocation of its partitions waits for it."""
        with self._lock:
            mine = set(end) & self._owned
            self._continuous |= mine
            if self.protocol == "consumer":
                for tp in mine:
                    self._in_flight[tp] = end[tp]

    def update_subscription(self, topics: Iterable[str]) -> None:
        self.member.subscribe(topics)

    def table_committed(self, tps: Iterable[TopicPartition]) -> PartitionOffsets:
        # a GroupSession exists only with group options
        table = self.opts.group.offsets_table  # type: ignore[union-attr]
        if table is None:
            return {}
        if self._store is None:
            from offsets.delta_store import DeltaOffsetStore

            self._store = DeltaOffsetStore(table, owner=self.group_id)
        return dict(self._store.committed(sorted(tps)))

    def resume_offsets(
        self, tps: Iterable[TopicPartition], starting: Callable[[list[TopicPartition]], PartitionOffsets]
    ) -> dict[TopicPartition, tuple[int, str]]:
        """(offset, source) where each newly owned partition resumes: the Delta table, else the group's
        broker offset, else `startingOffsets` (`starting` resolves those)."""
        remaining = sorted(set(tps))
        out: dict[TopicPartition, tuple[int, str]] = {}
        if not remaining:
            return out
        for tp, off in self.table_committed(remaining).items():
            out[tp] = (off, RESUME_TABLE)
        remaining = [tp for tp in remaining if tp not in out]
        if remaining:
            committed = self.member.committed([GroupTopicPartition(*tp) for tp in remaining], timeout=_COMMIT_TIMEOUT_S)
            for gtp, om in committed.items():
                if om is not None and om.offset >= 0:
                    out[TopicPartition(gtp.topic, gtp.partition)] = (om.offset, RESUME_BROKER)
            remaining = [tp for tp in remaining if tp not in out]
        if remaining:
            for tp, off in starting(remaining).items():
                out[tp] = (off, RESUME_STARTING)
        return out

    def commit_finished(self, offsets: Mapping[TopicPartition, int]) -> None:
        """Commit a finished batch's end offsets to the broker (so Kafka tooling shows the group's lag)
        for the partitions this member still owns without a break since it planned them.

        Spark plans batch N+1 (and calls `commit(end N)`) only after batch N is committed to the sink,
        so these offsets never run ahead of the data. The member's current generation fences the
        commit: after a rebalance that moved a partition, the coordinator refuses it.
        """
        if self.protocol == "consumer":
            with self._lock:
                for tp, o in offsets.items():
                    self._finished[tp] = o
                    if tp in self._in_flight and o >= self._in_flight[tp]:
                        del self._in_flight[tp]
                self._changed.notify_all()  # a revocation waiting for this batch goes on
            self._commit_owned(offsets)
            return
        with self._lock:
            mine = {
                tp: o for tp, o in offsets.items() if tp in self._continuous and self._broker_committed.get(tp) != o
            }
        if not mine:
            return
        try:
            self.member.commit(
                {GroupTopicPartition(*tp): OffsetAndMetadata(o) for tp, o in mine.items()}, timeout=_COMMIT_TIMEOUT_S
            )
        except (CommitFailedError, RebalanceInProgressError) as e:
            log.info("group %s: offset commit refused (%s); the next batch commits again", self.group_id, e)
            return
        except (GroupError, OSError, TimeoutError) as e:
            log.warning("group %s: offset commit failed: %s", self.group_id, e)
            return
        with self._lock:
            for tp, o in mine.items():
                if tp in self._owned:
                    self._broker_committed[tp] = o

    def _commit_owned(self, offsets: Mapping[TopicPartition, int], *, revoking: bool = False) -> None:
        """Consumer protocol: commit `offsets` of the partitions the member owns (being revoked, with
        `revoking`) with its current member epoch and id. The filter and the epoch are read
        together; a STALE_MEMBER_EPOCH refusal (the epoch moved on) re-reads both, so a retry never
        commits a partition given up meanwhile. A fenced member (UNKNOWN_MEMBER_ID,
        FENCED_MEMBER_EPOCH) commits nothing: its partitions may be another member's already."""
        for _ in range(_STALE_EPOCH_RETRIES):
            with self._lock:
                allowed = self._revoking if revoking else self._continuous | self._revoking
                mine = {tp: o for tp, o in offsets.items() if tp in allowed and self._broker_committed.get(tp) != o}
            gen = self.member.generation()
            if not mine:
                return
            if not gen.is_valid:
                log.info("group %s: not in a member epoch now (rejoining); %s committed later", self.group_id, mine)
                return
            try:
                self.member.commit(
                    {GroupTopicPartition(*tp): OffsetAndMetadata(o) for tp, o in mine.items()},
                    generation=gen,
                    timeout=_COMMIT_TIMEOUT_S,
                )
            except CommitFailedError as e:
                if e.code == ErrorCode.STALE_MEMBER_EPOCH:
                    log.info(
                        "group %s: commit at member epoch %d was stale; retrying", self.group_id, gen.generation_id
                    )
                    continue
                self._refused(mine, gen.generation_id, e)
                return
            except GroupError as e:
                if e.code == ErrorCode.FENCED_MEMBER_EPOCH:
                    self._refused(mine, gen.generation_id, e)
                else:
                    log.warning("group %s: offset commit failed: %s", self.group_id, e)
                return
            except (OSError, TimeoutError) as e:
                log.warning("group %s: offset commit failed: %s", self.group_id, e)
                return
            with self._lock:
                for tp, o in mine.items():
                    if tp in self._owned or tp in self._revoking:
                        self._broker_committed[tp] = o
            return
        log.warning("group %s: the member epoch kept moving; %s committed with a later batch", self.group_id, offsets)

    def _refused(self, offsets: Mapping[TopicPartition, int], epoch: int, e: Exception) -> None:
        with self._lock:
            self.refused_commits += 1
        log.warning(
            "group %s: the coordinator fenced member epoch %d; offsets %s not committed (the partitions are "
            "lost and may be another member's): %s",
            self.group_id,
            epoch,
            {tp_str(tp): o for tp, o in offsets.items()},
            e,
        )


def write_plan_log(path: str, record: dict[str, Any]) -> None:
    """Append one JSON line (an audit trail of what each member planned, in which generation)."""
    line = json.dumps(record, sort_keys=True) + "\n"
    # one write() of a small line in append mode: lines of concurrent drivers do not interleave
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


# --- leaving the group when Spark stops the query ----------------------------------------------
# Spark stops a query's reader process with SIGTERM (it never calls `stop()`, §1.3): leave the
# group then, so the survivors get the partitions at once instead of after the session timeout.

_sessions: weakref.WeakSet[GroupSession] = weakref.WeakSet()
_handler_installed = False
_previous_handler: Any = None
_terminating = False


def _on_sigterm(signum: int, frame: Any) -> None:
    global _terminating
    if _terminating:
        # Spark signals the reader process twice (the worker, then its factory): a second SIGTERM
        # must not cut the first one's LeaveGroup short
        return
    _terminating = True
    deadline = time.monotonic() + _LEAVE_TIMEOUT_S
    for session in list(_sessions):
        session.close(max(0.5, deadline - time.monotonic()))
    prev = _previous_handler
    if callable(prev):
        prev(signum, frame)
        return
    if prev == signal.SIG_IGN:
        return
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _register_for_sigterm(session: GroupSession) -> None:
    global _handler_installed, _previous_handler
    _sessions.add(session)
    if _handler_installed or threading.current_thread() is not threading.main_thread():
        return  # signal handlers can only be set from the main thread (Spark calls us there)
    try:
        _previous_handler = signal.getsignal(signal.SIGTERM)
        signal.signal(signal.SIGTERM, _on_sigterm)
        _handler_installed = True
    except (ValueError, OSError) as e:
        log.info("group mode: cannot handle SIGTERM (%s): a stopped query is evicted by its session timeout", e)


__all__ = [
    "RESUME_BROKER",
    "RESUME_STARTING",
    "RESUME_TABLE",
    "GroupSession",
    "OwnedView",
    "write_plan_log",
]
