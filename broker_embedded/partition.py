"""A partition replica on this broker: leader or follower role, the checks before an append (the
records themselves: `log/validator.py`), the high watermark, reads.

Single node (no replication state applied): this broker leads, the ISR is this broker alone, so the
high watermark is the log end offset after every append and acks=all is satisfied by the append.
With replication (`broker_embedded.replication`) the leader tracks its followers' log end offsets
(Kafka's Partition / Replica): high watermark = min LEO over the ISR, never moving back; ISR shrink
and expand go through the controller (AlterPartition) and take effect when committed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from broker_embedded.log.errors import UnexpectedAppendOffsetError
from broker_embedded.log.log import (
    EARLIEST_LOCAL_TIMESTAMP,
    EARLIEST_TIMESTAMP,
    LATEST_TIERED_TIMESTAMP,
    LATEST_TIMESTAMP,
    MAX_TIMESTAMP,
    AppendInfo,
    AppendOrigin,
    Log,
)
from broker_embedded.log.validator import AppendPolicy, validate_records_for_append
from broker_embedded.purgatory.keys import fetch_key, produce_key
from kafka_wire.errors import ErrorCode, KafkaError, OffsetOutOfRangeError
from kafka_wire.records import iter_batches
from kafka_wire.types import LONG_MAX

if TYPE_CHECKING:
    from broker_embedded.replication.state import PartitionState
    from broker_embedded.tiered import RemoteLogManager

log = logging.getLogger(__name__)


class Purgatory(Protocol):
    """What a partition needs of a purgatory: wake the operations watching one of its keys."""

    def check_and_complete(self, key: Hashable) -> int: ...


class PartitionHost(Protocol):
    """The collaborators a partition works with (the replica manager implements it): its broker's
    id and mode, the purgatories its appends and role changes wake, the remote tier, and the way
    to ask the controller for an ISR change."""

    @property
    def node_id(self) -> int: ...

    @property
    def cluster_mode(self) -> bool: ...

    @property
    def produce_purgatory(self) -> Purgatory: ...

    @property
    def fetch_purgatory(self) -> Purgatory: ...

    @property
    def remote_log_manager(self) -> RemoteLogManager | None: ...

    def request_isr_change(self, p: Partition, new_isr: tuple[int, ...]) -> None: ...


@dataclass(slots=True)
class AppendResult:
    base_offset: int
    log_append_time_ms: int
    log_start_offset: int
    last_offset: int = -1


@dataclass(slots=True)
class RemoteReplica:
    """The leader's view of one follower (Kafka's Replica state): updated by its fetches."""

    log_end_offset: int = -1  # -1 = unknown until the follower's first fetch to this leader
    log_start_offset: int = -1
    last_caught_up_time_ms: int = 0
    last_fetch_leader_log_end_offset: int = -1
    last_fetch_time_ms: int = 0


@dataclass(slots=True)
class ReadResult:
    records: bytes | memoryview | None
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    remote: Any = None  # a RemoteFetchInfo when the offset is below the local log start (tiered)


class Partition:
    def __init__(self, topic: str, index: int, topic_id: bytes, log: Log, host: PartitionHost) -> None:
        self.topic = topic
        self.index = index
        self.topic_id = topic_id
        self.log = log
        self.host = host
        self.node_id: int = host.node_id
        self.fetch_key = fetch_key(topic, index)
        self.produce_key = produce_key(topic, index)
        self.deleted = False
        self.timestamp_before_max_ms = LONG_MAX
        self.timestamp_after_max_ms = 3_600_000
        self.log_append_time = False
        self.min_insync_replicas = 1
        # Replication state (the controller's PartitionState once one was applied).
        self.replicated = False
        self.leader_epoch = 0
        self.partition_epoch = -1
        self.remote_replicas: dict[int, RemoteReplica] = {}
        # An AlterPartition in flight (at most one): the ISR asked for, not yet committed.
        self.pending_isr: tuple[int, ...] | None = None
        # after a refused/failed AlterPartition: no new one before this time; replicas the controller
        # called ineligible (fenced, shutting down) are not proposed again until its next image
        self.isr_change_retry_ms = 0
        self.ineligible_replicas: set[int] = set()
        self.leader_epoch_start_offset = 0
        self._checkpointed_high_watermark = self.log.high_watermark
        self._opened_log_end_offset = self.log.log_end_offset
        if host.cluster_mode:
            # cluster mode: no role until the controller's state arrives (a restarted replica
            # must not take writes, nor show records above its real HW, before it knows)
            self.leader_id = -1
            self.isr: tuple[int, ...] = ()
            self.replicas: tuple[int, ...] = ()
        else:
            self.leader_id = self.node_id
            self.isr = (self.node_id,)
            self.replicas = (self.node_id,)
            # The ISR is this broker alone, so a leader's HW is its LEO from the start (Kafka's
            # makeLeader → maybeIncrementLeaderHW). After a crash the checkpointed HW lags the
            # recovered log: without this, acknowledged records stay invisible until the next append.
            self.log.update_high_watermark(self.log.log_end_offset)

    def update_topic_configs(self, configs: dict[str, Any]) -> None:
        """Topic configs checked on the produce path (the log keeps its own LogConfig)."""
        self.timestamp_before_max_ms = int(configs["message.timestamp.before.max.ms"])
        self.timestamp_after_max_ms = int(configs["message.timestamp.after.max.ms"])
        self.log_append_time = configs["message.timestamp.type"] == "LogAppendTime"
        self.min_insync_replicas = int(configs.get("min.insync.replicas", 1))

    # --- offsets -----------------------------------------------------------------------
    @property
    def high_watermark(self) -> int:
        return self.log.high_watermark

    @property
    def last_stable_offset(self) -> int:
        return self.log.last_stable_offset

    @property
    def log_start_offset(self) -> int:
        rlm = self._remote_log_manager()
        return self.log.log_start_offset if rlm is None else rlm.log_start_offset(self)

    def _remote_log_manager(self) -> RemoteLogManager | None:
        """The broker's RemoteLogManager when this partition's topic is tiered (KIP-405): then the
        log's own start offset is the local log start offset and the RLM knows the overall one."""
        rlm = self.host.remote_log_manager
        return rlm if rlm is not None and self.log.config.remote_storage_enable else None

    # --- roles (replication) ------------------------------------------------------------
    @property
    def is_leader(self) -> bool:
        return self.leader_id == self.node_id

    @property
    def maximal_isr(self) -> tuple[int, ...]:
        """The ISR the high watermark waits for: while an expansion is in flight it already counts
        the joining replica, while a shrink is in flight it still counts the leaving one (Kafka's
        maximalIsr), so the HW never passes a record a committed ISR member lacks."""
        pending = self.pending_isr
        if pending is None:
            return self.isr
        return self.isr + tuple(r for r in pending if r not in self.isr)

    def is_newer_state(self, state: PartitionState) -> bool:
        """A state is applied only if it is newer: higher leader epoch, or same epoch and higher
        partition epoch (an ISR change). Before the first state anything is newer."""
        if not self.replicated:
            return True
        return (state.leader_epoch, state.partition_epoch) > (self.leader_epoch, self.partition_epoch)

    def _first_state(self) -> None:
        if self.replicated:
            return
        self.replicated = True
        if self.log.log_end_offset == self._opened_log_end_offset and self._checkpointed_high_watermark >= 0:
            # Single-node mode set HW = LEO when the log was opened; with replicas the HW is only
            # what the ISR had (the checkpoint), unless this broker wrote since.
            self.log.update_high_watermark(min(self.log.high_watermark, self._checkpointed_high_watermark))

    def make_leader(self, state: PartitionState, now_ms: int) -> bool:
        """Become (or stay) leader for `state` (Kafka's Partition.makeLeader). True if this is a new
        leadership (new leader epoch): the epoch starts at the LEO and the followers' states are
        reset (unknown LEO; ISR members count as caught up now). The HW is kept (it never moves
        back) and advanced from the ISR when it can."""
        is_new_leader = not self.replicated or not self.is_leader or state.leader_epoch != self.leader_epoch
        self._first_state()
        self.leader_id = state.leader
        self.leader_epoch = state.leader_epoch
        self.isr = tuple(state.isr)
        self.replicas = tuple(state.replicas)
        self.partition_epoch = state.partition_epoch
        self.pending_isr = None
        if is_new_leader:
            leo = self.log.log_end_offset
            with self.log.lock:
                self.log.leader_epoch_cache.assign(state.leader_epoch, leo)
            self.leader_epoch_start_offset = leo
            self.remote_replicas = {
                r: RemoteReplica(last_caught_up_time_ms=now_ms if r in self.isr else 0)
                for r in self.replicas
                if r != self.node_id
            }
        else:
            kept = {r: self.remote_replicas.get(r) or RemoteReplica() for r in self.replicas if r != self.node_id}
            self.remote_replicas = kept
        self.maybe_increment_high_watermark()
        return is_new_leader

    def make_follower(self, state: PartitionState) -> bool:
        """Follow `state.leader` (or nobody: leader -1). True if the leader or its epoch changed, so
        the fetcher must truncate and start over. Waiting produces/fetches are completed by the
        caller (they answer NOT_LEADER_OR_FOLLOWER)."""
        changed = not self.replicated or self.leader_id != state.leader or self.leader_epoch != state.leader_epoch
        self._first_state()
        self.leader_id = state.leader
        self.leader_epoch = state.leader_epoch
        self.isr = tuple(state.isr)
        self.replicas = tuple(state.replicas)
        self.partition_epoch = state.partition_epoch
        self.pending_isr = None
        self.remote_replicas = {}
        return changed

    def apply_isr_state(self, state: PartitionState) -> None:
        """Same leader epoch, newer partition epoch: a committed ISR change."""
        self.isr = tuple(state.isr)
        self.replicas = tuple(state.replicas)
        self.partition_epoch = state.partition_epoch
        self.pending_isr = None
        if self.is_leader:
            for r in self.replicas:
                if r != self.node_id and r not in self.remote_replicas:
                    self.remote_replicas[r] = RemoteReplica()
            for r in list(self.remote_replicas):
                if r not in self.replicas:
                    del self.remote_replicas[r]
            if not self.maybe_increment_high_watermark():
                # a shrink below min.insync.replicas changes the answer of waiting produces
                self.host.produce_purgatory.check_and_complete(self.produce_key)

    def maybe_increment_high_watermark(self) -> bool:
        """Leader: HW = min(LEO, LEO of every member of the maximal ISR); only forward. Completes
        waiting produces and consumer fetches when it moved."""
        new_hw = self.log.log_end_offset
        for r in self.maximal_isr:
            if r != self.node_id:
                st = self.remote_replicas.get(r)
                leo = st.log_end_offset if st is not None else -1
                if leo < new_hw:
                    new_hw = leo
        if new_hw <= self.log.high_watermark:
            return False
        self.log.update_high_watermark(new_hw)
        self.host.produce_purgatory.check_and_complete(self.produce_key)
        self.host.fetch_purgatory.check_and_complete(self.fetch_key)
        return True

    def update_follower_fetch_state(
        self,
        replica_id: int,
        fetch_offset: int,
        follower_log_start_offset: int,
        leader_log_end_offset: int,
        now_ms: int,
    ) -> bool:
        """A follower fetched from `fetch_offset` (its LEO) when our LEO was `leader_log_end_offset`
        (Kafka's Replica.updateFetchState): track when it was last caught up, maybe expand the ISR,
        maybe advance the HW. False if `replica_id` is not a replica of this partition."""
        st = self.remote_replicas.get(replica_id)
        if st is None:
            return False
        if fetch_offset >= leader_log_end_offset:
            st.last_caught_up_time_ms = max(st.last_caught_up_time_ms, now_ms)
        elif fetch_offset >= st.last_fetch_leader_log_end_offset:
            # it reached what our LEO was at its previous fetch: caught up as of that fetch
            st.last_caught_up_time_ms = max(st.last_caught_up_time_ms, st.last_fetch_time_ms)
        st.log_start_offset = follower_log_start_offset
        moved = st.log_end_offset != fetch_offset
        st.log_end_offset = fetch_offset
        st.last_fetch_leader_log_end_offset = leader_log_end_offset
        st.last_fetch_time_ms = now_ms
        # every fetch, not only moving ones: an expansion refused earlier (controller away) is
        # retried even on an idle partition
        self.maybe_expand_isr(replica_id, now_ms)
        if moved:
            self.maybe_increment_high_watermark()
        return True

    def maybe_expand_isr(self, replica_id: int, now_ms: int) -> None:
        """A replica outside the ISR that reached the HW (and the start of this leader's epoch)
        joins it, through the controller."""
        if self.pending_isr is not None or replica_id in self.isr or replica_id not in self.replicas:
            return
        if replica_id in self.ineligible_replicas or now_ms < self.isr_change_retry_ms:
            return
        st = self.remote_replicas.get(replica_id)
        if st is None:
            return
        if st.log_end_offset >= self.log.high_watermark and st.log_end_offset >= self.leader_epoch_start_offset:
            self.host.request_isr_change(self, self.isr + (replica_id,))

    def out_of_sync_replicas(self, now_ms: int, lag_time_max_ms: int) -> list[int]:
        """ISR followers not caught up to our LEO for more than `lag_time_max_ms` (Kafka's
        lastCaughtUpTime rule: a follower on an idle partition that keeps fetching stays in)."""
        leo = self.log.log_end_offset
        out = []
        for r in self.isr:
            if r == self.node_id:
                continue
            st = self.remote_replicas.get(r)
            if st is None:
                continue
            if st.log_end_offset != leo and now_ms - st.last_caught_up_time_ms > lag_time_max_ms:
                out.append(r)
        return out

    def check_enough_replicas_reach_offset(self, required_offset: int, leader_epoch: int) -> ErrorCode | None:
        """DelayedProduce: None while waiting, else the partition's answer."""
        if self.deleted or not self.is_leader or self.leader_epoch != leader_epoch:
            return ErrorCode.NOT_LEADER_OR_FOLLOWER
        if self.log.high_watermark >= required_offset:
            if len(self.isr) >= self.min_insync_replicas:
                return ErrorCode.NONE
            return ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND
        return None

    def check_log_dir_online(self, what: str) -> None:
        """KAFKA_STORAGE_ERROR (retriable) while this partition's log dir is offline: Kafka serves
        no fetch or offset lookup from an offline dir (its files may hold a torn tail or be gone),
        so clients back off and retry until the dir is back, rather than read what it holds."""
        self.log.dir_state.check_online(f"{what} {self.topic}-{self.index}")

    def check_leader(self) -> None:
        if self.deleted:
            raise KafkaError(code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        if not self.is_leader:
            raise KafkaError(
                f"broker {self.node_id} is not the leader of {self.topic}-{self.index} (leader {self.leader_id})",
                ErrorCode.NOT_LEADER_OR_FOLLOWER,
            )

    # --- follower ------------------------------------------------------------------------
    def append_records_as_follower(self, records: bytes | memoryview, fetch_offset: int) -> int:
        """Append fetched batches with the leader's offsets and epochs; returns the new LEO."""
        leo = self.log.log_end_offset
        if fetch_offset != leo:
            raise KafkaError(
                f"offset mismatch for {self.topic}-{self.index}: fetched offset {fetch_offset}, log end offset {leo}",
                ErrorCode.UNKNOWN_SERVER_ERROR,
            )
        try:
            self.log.append_as_follower(records)
        except UnexpectedAppendOffsetError:
            # An empty log restarted at the leader's log start offset, which DeleteRecords put in
            # the middle of a batch: the leader sends that whole batch. Restart at its base offset
            # (the log start offset follows the leader's right after, as Kafka's Partition does).
            first = next(iter_batches(records))[1]
            if not (leo == self.log.log_start_offset and first.base_offset < leo <= first.last_offset):
                raise
            self.log.truncate_fully_and_start_at(first.base_offset)
            self.log.append_as_follower(records)
        return self.log.log_end_offset

    def update_follower_high_watermark(self, leader_high_watermark: int) -> None:
        """Follower HW = min(leader's HW, own LEO) (clamped by the log)."""
        self.log.update_high_watermark(leader_high_watermark)

    def truncate_to(self, offset: int, reason: str) -> bool:
        """Truncate the log to `offset` (a follower); True if records were removed."""
        if offset >= self.log.log_end_offset:
            # Nothing to cut, but an epoch this broker started as leader without writing anything
            # (start offset = LEO) conflicts with the new leader's history: drop it, as Kafka's
            # truncateTo does, or the follower's last fetched epoch would diverge forever.
            with self.log.lock:
                self.log.leader_epoch_cache.truncate_from_end(self.log.log_end_offset)
            return False
        if offset < self.log.high_watermark:
            log.warning(
                "truncating %s-%d to %d below its high watermark %d (%s)",
                self.topic, self.index, offset, self.log.high_watermark, reason,
            )  # fmt: skip
        else:
            log.info("truncating %s-%d to %d (%s)", self.topic, self.index, offset, reason)
        return self.log.truncate_to(offset)

    def truncate_fully_and_start_at(self, offset: int) -> None:
        log.warning("truncating %s-%d fully, restarting at %d", self.topic, self.index, offset)
        self.log.truncate_fully_and_start_at(offset)

    def last_offset_for_leader_epoch(self, current_leader_epoch: int, leader_epoch: int) -> tuple[int, int]:
        """OffsetForLeaderEpoch on the leader: (epoch, end offset), (-1, -1) when unknown."""
        self.check_leader_epoch(current_leader_epoch)
        self.check_leader()
        return self.log.end_offset_for_epoch(leader_epoch)

    def check_leader_epoch(self, current_leader_epoch: int) -> None:
        if current_leader_epoch == -1:
            return
        if current_leader_epoch < self.leader_epoch:
            raise KafkaError(
                f"leader epoch {current_leader_epoch} is older than {self.leader_epoch}",
                ErrorCode.FENCED_LEADER_EPOCH,
            )
        if current_leader_epoch > self.leader_epoch:
            raise KafkaError(
                f"leader epoch {current_leader_epoch} is newer than {self.leader_epoch}",
                ErrorCode.UNKNOWN_LEADER_EPOCH,
            )

    # --- produce -------------------------------------------------------------------------
    def append_policy(self) -> AppendPolicy:
        """What the validator checks a produced batch against (this topic's configs)."""
        config = self.log.config
        return AppendPolicy(
            config.max_message_bytes,
            config.compact_enabled,
            self.log_append_time,
            self.timestamp_before_max_ms,
            self.timestamp_after_max_ms,
        )

    def append_records_as_leader(
        self,
        records: memoryview,
        required_acks: int = 1,
        *,
        inline: bool = False,
        validated: bool = False,
        validation_error: KafkaError | None = None,
    ) -> AppendResult:
        """Validate and append a producer's batch. `inline` (on the event loop): a batch too costly
        to check here raises `OffloadRequired` before anything changes. `validated`: the batch was
        checked off the loop already, with `validation_error` as the outcome (raised after the
        leader checks, the order Kafka answers in)."""
        self.check_leader()
        if required_acks == -1 and len(self.isr) < self.min_insync_replicas:
            raise KafkaError(
                f"The size of the current ISR {list(self.isr)} is insufficient to satisfy the min.isr requirement "
                f"of {self.min_insync_replicas} for partition {self.topic}-{self.index}",
                ErrorCode.NOT_ENOUGH_REPLICAS,
            )
        if validation_error is not None:
            raise validation_error
        header = None
        if not validated:
            now_ms = time.time_ns() // 1_000_000
            header = validate_records_for_append(records, self.append_policy(), now_ms, inline).header
        # Offsets, the leader epoch and LogAppendTime are stamped by the log; idempotent
        # duplicates come back with their original offsets and nothing written. The validator's
        # header goes along so the log does not parse it again.
        info = self.log.append_as_leader(records, self.leader_epoch, validated=header)
        if not info.duplicate:
            # HW from the ISR (alone: the LEO); followers' and consumers' long polls may complete
            if not self.maybe_increment_high_watermark():
                self.host.fetch_purgatory.check_and_complete(self.fetch_key)
        return AppendResult(info.first_offset, info.log_append_time_ms, info.log_start_offset, info.last_offset)

    def append_as_coordinator(self, batch: bytearray) -> AppendInfo:
        """The one door for coordinator writes (group metadata and offsets, transaction state,
        transactional offsets, markers): Kafka's appendRecordsToLeader with origin COORDINATOR.
        Appends `batch` (stamped in place) with this leader's epoch, then does what a leader append
        does next. The log's errors propagate unchanged (KafkaStorageError,
        InvalidProducerEpochError, ...): each coordinator maps them to the codes its API answers."""
        info = self.log.append_as_leader(batch, self.leader_epoch, origin=AppendOrigin.COORDINATOR)
        self.after_coordinator_append()
        return info

    def after_coordinator_append(self) -> None:
        """After a coordinator's append: HW from the ISR (alone: the LEO), wake followers' and
        consumers' long polls."""
        if not self.maybe_increment_high_watermark():
            self.host.fetch_purgatory.check_and_complete(self.fetch_key)

    # --- fetch -----------------------------------------------------------------------------
    def read(
        self, fetch_offset: int, max_bytes: int, min_one_batch: bool, read_committed: bool, from_follower: bool = False
    ) -> ReadResult:
        """Consumers read below the HW (LSO for read_committed), followers up to the LEO."""
        self.check_log_dir_online("read from")
        hw = self.high_watermark
        max_offset = None if from_follower else (self.last_stable_offset if read_committed else hw)
        rlm = self._remote_log_manager()
        if rlm is not None and not from_follower:
            remote = rlm.plan_read(self, fetch_offset, max_bytes, min_one_batch)
            if remote is not None:  # below the local log start offset: the remote tier serves it
                return ReadResult(None, hw, self.last_stable_offset, self.log_start_offset, remote)
        try:
            data = self.log.read(fetch_offset, max_bytes, max_offset=max_offset, min_one_batch=min_one_batch)
        except OffsetOutOfRangeError:
            # Local retention moved the local log start past fetch_offset after plan_read looked (the
            # segment was copied, then deleted locally): the remote tier serves it now, as Kafka's
            # ReplicaManager does on an OffsetOutOfRangeException below the local log start.
            if rlm is None or from_follower or fetch_offset >= self.log.log_start_offset:
                raise
            remote = rlm.plan_read(self, fetch_offset, max_bytes, min_one_batch)
            if remote is None:
                raise
            return ReadResult(None, hw, self.last_stable_offset, self.log_start_offset, remote)
        return ReadResult(data.records, hw, self.last_stable_offset, self.log_start_offset)

    def offset_for_timestamp(
        self, timestamp: int, read_committed: bool, from_replica: bool = False
    ) -> tuple[int, int, int] | None:
        """(offset, timestamp, leader epoch) for ListOffsets, or None when no record qualifies.

        `from_replica` (replica id >= 0): latest is the LEO, as a follower resetting its fetch
        offset needs it."""
        if timestamp == LATEST_TIMESTAMP:
            if from_replica:
                return self.log.log_end_offset, -1, self.leader_epoch
            if self.replicated and self.leader_epoch_start_offset > self.high_watermark:
                # KIP-207: a new leader whose HW has not reached its epoch start would answer an
                # offset that moves back; the client retries
                raise KafkaError(
                    f"the high watermark {self.high_watermark} of the new leader is below the start "
                    f"{self.leader_epoch_start_offset} of its epoch {self.leader_epoch}",
                    ErrorCode.OFFSET_NOT_AVAILABLE,
                )
            return (self.last_stable_offset if read_committed else self.high_watermark), -1, self.leader_epoch
        if timestamp == EARLIEST_TIMESTAMP:
            return self.log_start_offset, -1, self.leader_epoch
        if timestamp == EARLIEST_LOCAL_TIMESTAMP:
            return self.log.log_start_offset, -1, self.leader_epoch
        if timestamp == LATEST_TIERED_TIMESTAMP:
            # KIP-1005: the highest offset copied to the remote tier (-1: none, or not tiered)
            rlm = self._remote_log_manager()
            highest = -1 if rlm is None else rlm.highest_offset_in_remote_storage(self)
            epoch = self.log.leader_epoch_cache.epoch_for_offset(highest) if highest >= 0 else None
            return highest, -1, -1 if epoch is None else epoch
        if timestamp < 0 and timestamp != MAX_TIMESTAMP:
            raise KafkaError(f"invalid timestamp {timestamp}", ErrorCode.INVALID_REQUEST)
        found = self.log.offset_for_timestamp(timestamp)
        if found is None:
            return None
        if from_replica:
            bound = self.log.log_end_offset
        else:
            bound = self.last_stable_offset if read_committed else self.high_watermark
        if found.offset >= bound:
            return None
        epoch = found.leader_epoch if found.leader_epoch is not None else -1
        return found.offset, found.timestamp, epoch

    def delete_records_before(self, offset: int) -> int:
        self.check_leader()
        hw = self.high_watermark
        if offset == -1:
            offset = hw
        if offset < 0 or offset > hw:
            raise KafkaError(f"offset {offset} is beyond the high watermark {hw}", ErrorCode.OFFSET_OUT_OF_RANGE)
        rlm = self._remote_log_manager()
        if rlm is not None:  # tiered: the log start offset may move inside the remote range
            return rlm.delete_records(self, offset)
        return self.log.delete_records_before(offset, high_watermark=hw)

    def on_deleted(self) -> None:
        self.deleted = True
        # wake any long poll / acks=all produce waiting on this partition: it now answers an error
        self.host.fetch_purgatory.check_and_complete(self.fetch_key)
        self.host.produce_purgatory.check_and_complete(self.produce_key)
