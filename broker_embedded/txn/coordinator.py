"""The transaction coordinator (Kafka's TransactionCoordinator + TransactionStateManager).

Runs on the broker's loop thread. A transactional id lives in partition
``abs(hashCode(id)) % transaction.state.log.num.partitions`` of ``__transaction_state``; the leader
of that partition coordinates it. Every transition is appended to that partition before it is
applied in memory or acknowledged, and the state is replayed from it when the broker starts (or,
in cluster mode, when it becomes the partition's leader).

Ending a transaction: PrepareCommit/PrepareAbort is written, the COMMIT/ABORT markers go to every
partition of the transaction (``markers.py``; retried until each partition took its marker), then
CompleteCommit/CompleteAbort is written. A restart finds Prepare* in the log and sends the
markers again (a marker is idempotent for a partition: its producer has no open transaction any
more and the LSO does not move back).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from broker_embedded.group.offsets_topic import partition_for_group
from broker_embedded.log.errors import KafkaStorageError
from broker_embedded.replication.coordinator_wait import wait_until_replicated
from broker_embedded.txn.log_records import (
    TRANSACTION_STATE_TOPIC,
    decode_key,
    decode_value,
    encode_key,
    encode_value,
)
from broker_embedded.txn.markers import MarkerWriter
from broker_embedded.txn.offsets import PendingTxnOffsets
from broker_embedded.txn.state import (
    COMPLETE,
    MAX_PRODUCER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    PREPARING,
    IllegalTransitionError,
    TransactionMetadata,
    TransactionState,
)
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.records import build_batch, decode_batches

if TYPE_CHECKING:
    from broker_embedded.txn.host import TxnHost

log = logging.getLogger(__name__)

S = TransactionState
TP = tuple[str, int]
R = TypeVar("R")


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


# Kafka's defaults of the coordinator's configs (also declared in broker_embedded/config.py)
TXN_CONFIG_DEFAULTS = {
    "transaction.state.log.num.partitions": 50,
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": 10000,
    "transactional.id.expiration.ms": 604800000,
    "transaction.remove.expired.transaction.cleanup.interval.ms": 3600000,
    "transaction.max.timeout.ms": 900000,
}


def txn_config(broker: TxnHost, name: str) -> int:
    return int(broker.config.get(name, TXN_CONFIG_DEFAULTS[name]))


class TransactionCoordinator:
    def __init__(self, broker: TxnHost) -> None:
        self.broker = broker
        self.txns: dict[str, TransactionMetadata] = {}
        # cluster mode: __transaction_state partitions this broker leads and has loaded, with the
        # leader epoch they were loaded at (also the coordinator epoch stamped on markers)
        self.loaded_partitions: dict[int, int] = {}
        self.markers = MarkerWriter(broker, self._on_markers_done)
        # TxnOffsetCommit offsets waiting for their marker (on the group coordinator's broker)
        self.offsets = PendingTxnOffsets(broker)
        self.markers.offsets_hook = self.offsets.on_marker
        self._task: asyncio.Task[None] | None = None

    # --- __transaction_state -----------------------------------------------------------------
    @property
    def num_partitions(self) -> int:
        topic = self.broker.topics.get(TRANSACTION_STATE_TOPIC)
        return topic.num_partitions if topic else txn_config(self.broker, "transaction.state.log.num.partitions")

    def partition_for(self, transactional_id: str) -> int:
        """Kafka's placement: abs(String.hashCode(id)) % partitions, as for groups."""
        return partition_for_group(transactional_id, self.num_partitions)

    def ensure_topic(self) -> None:
        if self.broker.topics.get(TRANSACTION_STATE_TOPIC) is None:
            self.broker.create_topic(
                TRANSACTION_STATE_TOPIC,
                txn_config(self.broker, "transaction.state.log.num.partitions"),
                1,
                {"cleanup.policy": "compact", "segment.bytes": str(100 * 1024 * 1024)},
            )

    def coordinator_error(self, transactional_id: str) -> ErrorCode:
        """NONE if this broker coordinates the id; else what FindCoordinator's clients retry on."""
        client = self.broker.controller_client
        if client is None:
            return ErrorCode.NONE
        image = client.image
        topic = image.topics.get(TRANSACTION_STATE_TOPIC) if image is not None else None
        if topic is None:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        index = partition_for_group(transactional_id, len(topic.partitions))
        state = topic.partitions[index]
        if state.leader != self.broker.node_id:
            return ErrorCode.NOT_COORDINATOR
        if self.loaded_partitions.get(index) != state.leader_epoch:
            return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
        return ErrorCode.NONE

    def coordinator_epoch(self, transactional_id: str) -> int:
        p = self.broker.partition(TRANSACTION_STATE_TOPIC, self.partition_for(transactional_id))
        return p.leader_epoch if p is not None else 0

    def _persist(self, transactional_id: str, meta: TransactionMetadata | None) -> None:
        """Append the id's new state (None: a tombstone) to its __transaction_state partition."""
        try:
            self.ensure_topic()
        except KafkaError as e:
            if e.code != ErrorCode.LEADER_NOT_AVAILABLE:
                raise
            # the state log is being created (cluster mode): what Kafka's coordinator answers then
            raise KafkaError(str(e), ErrorCode.COORDINATOR_NOT_AVAILABLE) from None
        p = self.broker.partition(TRANSACTION_STATE_TOPIC, self.partition_for(transactional_id))
        if p is None:
            raise KafkaError("transaction state partition missing", ErrorCode.COORDINATOR_NOT_AVAILABLE)
        if (code := self.coordinator_error(transactional_id)) != ErrorCode.NONE:
            raise KafkaError(f"this broker is not the coordinator of {transactional_id}", code)
        value = encode_value(meta) if meta is not None else None
        batch = bytearray(build_batch([(_now_ms(), encode_key(transactional_id), value, [])]))
        try:
            p.append_as_coordinator(batch)
        except KafkaStorageError as e:
            # as Kafka: a storage error of the state log sends the client to look the
            # coordinator up again
            raise KafkaError(str(e), ErrorCode.NOT_COORDINATOR) from None

    STATE_WRITE_TIMEOUT_MS = 5000  # how long a state write waits for the ISR (cluster mode)

    def replication_wait(self, transactional_id: str) -> asyncio.Future[ErrorCode] | None:
        """Cluster mode: a future resolving when the id's state partition's high watermark covers
        everything appended so far (Kafka writes transaction state with acks=-1), or None when
        nothing needs waiting for. Resolves to NONE, NOT_COORDINATOR if leadership moved, or
        COORDINATOR_NOT_AVAILABLE after the timeout."""
        if self.broker.controller_client is None:
            return None
        p = self.broker.partition(TRANSACTION_STATE_TOPIC, self.partition_for(transactional_id))
        if p is None:
            return None
        return wait_until_replicated(p, self.broker.replica_manager.produce_purgatory, self.STATE_WRITE_TIMEOUT_MS)

    def reply(self, transactional_id: str, code: ErrorCode, build: Callable[[ErrorCode], R]) -> R | asyncio.Future[R]:
        """The response once the state this request wrote is replicated (at once on a single node)."""
        wait = self.replication_wait(transactional_id) if code == ErrorCode.NONE else None
        if wait is None:
            return build(code)
        out: asyncio.Future[R] = asyncio.get_running_loop().create_future()

        def finish(f: asyncio.Future[ErrorCode]) -> None:
            if not out.done():
                out.set_result(build(f.result()))

        wait.add_done_callback(finish)
        return out

    def _apply(self, meta: TransactionMetadata) -> TransactionMetadata:
        """Persist then adopt `meta` as the id's state."""
        self._persist(meta.transactional_id, meta)
        self.txns[meta.transactional_id] = meta
        return meta

    def load(self, partitions: Iterable[int] | None = None) -> None:
        """Replay __transaction_state (last record per id wins; tombstones delete), then finish what
        a crash interrupted: transactions in Prepare* get their markers again."""
        topic = self.broker.topics.get(TRANSACTION_STATE_TOPIC)
        if topic is None:
            return
        if partitions is None and self.broker.controller_client is not None:
            return  # cluster mode: loaded per partition on leadership (on_cluster_image)
        loaded: dict[str, TransactionMetadata | None] = {}
        for index in range(topic.num_partitions) if partitions is None else partitions:
            p = self.broker.partition(TRANSACTION_STATE_TOPIC, index)
            if p is None:
                continue
            position, end = p.log.log_start_offset, p.log.log_end_offset
            while position < end:
                data = p.log.read(position, 1 << 20, max_offset=end, min_one_batch=True)
                if not data.records:
                    break
                last = position
                for rec in decode_batches(bytes(data.records)):
                    last = rec.offset
                    if rec.offset < position or rec.key is None:
                        continue
                    tid = decode_key(rec.key)
                    if tid is None:
                        continue
                    loaded[tid] = decode_value(tid, rec.value) if rec.value is not None else None
                position = max(position + 1, last + 1)
        for tid, meta in loaded.items():
            if meta is None or meta.state is S.DEAD:
                self.txns.pop(tid, None)
            else:
                self.txns[tid] = meta
        for meta in list(self.txns.values()):
            if meta.state in (S.PREPARE_COMMIT, S.PREPARE_ABORT) and tid_in(meta, partitions, self):
                self.markers.send(meta, meta.state is S.PREPARE_COMMIT, self.coordinator_epoch(meta.transactional_id))
        if loaded:
            log.info("loaded %d transactional ids from %s", len(loaded), TRANSACTION_STATE_TOPIC)

    def on_cluster_image(self, previous: object, image: object) -> None:
        """Cluster mode: load the ids of the state partitions this broker now leads, drop the
        others (Kafka's onElection / onResignation)."""
        # the controller's ClusterImage, typed object to keep the txn room free of controller imports
        topic = image.topics.get(TRANSACTION_STATE_TOPIC)  # type: ignore[attr-defined]
        led: dict[int, int] = {}
        if topic is not None:
            led = {p.partition: p.leader_epoch for p in topic.partitions if p.leader == self.broker.node_id}
        for index in list(self.loaded_partitions):
            if led.get(index) != self.loaded_partitions[index]:
                self._unload_partition(index)
        for index, epoch in led.items():
            if index not in self.loaded_partitions:
                self._unload_partition(index)
                self.loaded_partitions[index] = epoch
                self.load([index])

    def _unload_partition(self, index: int) -> None:
        self.loaded_partitions.pop(index, None)
        n = self.num_partitions
        for tid in [t for t in self.txns if partition_for_group(t, n) == index]:
            meta = self.txns.pop(tid)
            self.markers.forget(meta.producer_id)

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._task is None:
            self._task = loop.create_task(self._periodic())

    def shutdown(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.markers.shutdown()

    async def _periodic(self) -> None:
        interval = txn_config(self.broker, "transaction.abort.timed.out.transaction.cleanup.interval.ms") / 1000
        expire_every = txn_config(self.broker, "transaction.remove.expired.transaction.cleanup.interval.ms")
        last_expire = _now_ms()
        while True:
            await asyncio.sleep(interval)
            try:
                self.abort_timed_out_transactions()
                if _now_ms() - last_expire >= expire_every:
                    last_expire = _now_ms()
                    self.expire_transactional_ids()
            except Exception:
                log.exception("transaction coordinator maintenance failed")

    # --- InitProducerId ----------------------------------------------------------------------
    def init_producer_id(
        self, transactional_id: str, txn_timeout_ms: int, producer_id: int, producer_epoch: int
    ) -> tuple[ErrorCode, int, int]:
        """(error, producer id, epoch) for a transactional producer (Kafka's handleInitProducerId)."""
        if not transactional_id:
            return ErrorCode.INVALID_REQUEST, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
        if txn_timeout_ms <= 0 or txn_timeout_ms > txn_config(self.broker, "transaction.max.timeout.ms"):
            return ErrorCode.INVALID_TRANSACTION_TIMEOUT, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
        if (code := self.coordinator_error(transactional_id)) != ErrorCode.NONE:
            return code, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
        now = _now_ms()
        try:
            meta = self.txns.get(transactional_id)
            if meta is None:
                new = TransactionMetadata(
                    transactional_id,
                    self.broker.producer_ids.generate(),
                    0,
                    txn_timeout_ms,
                    S.EMPTY,
                    txn_last_update_timestamp=now,
                )
                self._apply(new)
                return ErrorCode.NONE, new.producer_id, new.producer_epoch
            if meta.state in PREPARING or self.markers.pending(meta.producer_id):
                return ErrorCode.CONCURRENT_TRANSACTIONS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
            if producer_id != NO_PRODUCER_ID:
                # KIP-360: the producer says which id/epoch it has
                if (producer_id, producer_epoch) == (meta.last_producer_id, meta.last_producer_epoch) and (
                    meta.state in COMPLETE
                ):
                    # a retry of a bump whose response was lost: the bump already happened
                    return ErrorCode.NONE, meta.producer_id, meta.producer_epoch
                if (producer_id, producer_epoch) != (meta.producer_id, meta.producer_epoch):
                    return ErrorCode.PRODUCER_FENCED, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
            if meta.state is S.ONGOING:
                # fence the old producer: abort its transaction with a bumped epoch first
                self._abort_with_fence(meta, now)
                meta = self.txns[transactional_id]
                if meta.state is not S.COMPLETE_ABORT:
                    return ErrorCode.CONCURRENT_TRANSACTIONS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
            nxt = meta.transition(S.EMPTY, now)
            nxt.txn_timeout_ms = txn_timeout_ms
            nxt.txn_start_timestamp = -1
            nxt.last_producer_id, nxt.last_producer_epoch = meta.producer_id, meta.producer_epoch
            if meta.producer_epoch >= MAX_PRODUCER_EPOCH - 1:
                # epochs exhausted: a fresh producer id starts at epoch 0
                nxt.producer_id, nxt.producer_epoch = self.broker.producer_ids.generate(), 0
            else:
                nxt.producer_epoch = meta.producer_epoch + 1
            self._apply(nxt)
            return ErrorCode.NONE, nxt.producer_id, nxt.producer_epoch
        except KafkaError as e:
            return e.code, NO_PRODUCER_ID, NO_PRODUCER_EPOCH

    def _abort_with_fence(self, meta: TransactionMetadata, now: int) -> None:
        """Abort an open transaction with the epoch bumped (Kafka's PrepareEpochFence then
        PrepareAbort): the markers carry the new epoch, so the old producer is fenced on every
        partition of its transaction."""
        nxt = meta.transition(S.PREPARE_ABORT, now)
        if meta.producer_epoch < MAX_PRODUCER_EPOCH - 1:
            nxt.producer_epoch = meta.producer_epoch + 1
        self._apply(nxt)
        self._send_markers_when_replicated(nxt, False)

    def _send_markers_when_replicated(self, nxt: TransactionMetadata, commit: bool) -> None:
        """Markers for a decision just written. Cluster mode: only once the decision is
        replicated, so a new coordinator never reloads a state older than markers already sent
        (e.g. an Ongoing transaction whose ABORT markers some partitions have)."""
        transactional_id = nxt.transactional_id
        epoch = self.coordinator_epoch(transactional_id)
        wait = self.replication_wait(transactional_id)
        if wait is None:
            self.markers.send(nxt, commit, epoch)
            return

        def send_when_replicated(f: asyncio.Future[ErrorCode]) -> None:
            # unless leadership moved (the next coordinator reloads the decision)
            if f.result() != ErrorCode.NOT_COORDINATOR and self.txns.get(transactional_id) is nxt:
                self.markers.send(nxt, commit, epoch)

        wait.add_done_callback(send_when_replicated)

    # --- AddPartitionsToTxn / AddOffsetsToTxn --------------------------------------------------
    def _check_producer(self, meta: TransactionMetadata | None, producer_id: int, producer_epoch: int) -> ErrorCode:
        if meta is None or meta.producer_id != producer_id:
            return ErrorCode.INVALID_PRODUCER_ID_MAPPING
        if meta.producer_epoch != producer_epoch:
            return ErrorCode.PRODUCER_FENCED
        return ErrorCode.NONE

    def add_partitions(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        partitions: list[TP],
        verify_only: bool = False,
    ) -> dict[TP, ErrorCode]:
        if (code := self.coordinator_error(transactional_id)) != ErrorCode.NONE:
            return dict.fromkeys(partitions, code)
        meta = self.txns.get(transactional_id)
        code = self._check_producer(meta, producer_id, producer_epoch)
        if code != ErrorCode.NONE:
            return dict.fromkeys(partitions, code)
        assert meta is not None
        if verify_only:
            # KIP-890 part 1: a partition leader asks whether its producer's transaction holds it
            return {
                tp: ErrorCode.NONE if meta.state is S.ONGOING and tp in meta.partitions else ErrorCode.INVALID_TXN_STATE
                for tp in partitions
            }
        if meta.state in PREPARING or self.markers.pending(meta.producer_id):
            return dict.fromkeys(partitions, ErrorCode.CONCURRENT_TRANSACTIONS)
        unknown = [tp for tp in partitions if self.broker.topics.get(tp[0]) is None or not self._exists(tp)]
        if unknown:
            out = dict.fromkeys(partitions, ErrorCode.OPERATION_NOT_ATTEMPTED)
            out.update(dict.fromkeys(unknown, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION))
            return out
        if meta.state is S.ONGOING and set(partitions) <= meta.partitions:
            return dict.fromkeys(partitions, ErrorCode.NONE)
        now = _now_ms()
        try:
            nxt = meta.transition(S.ONGOING, now)
        except IllegalTransitionError:
            return dict.fromkeys(partitions, ErrorCode.INVALID_TXN_STATE)
        if meta.state is not S.ONGOING:
            nxt.txn_start_timestamp = now
        nxt.partitions |= set(partitions)
        try:
            self._apply(nxt)
        except KafkaError as e:
            return dict.fromkeys(partitions, e.code)
        return dict.fromkeys(partitions, ErrorCode.NONE)

    def verify_partition(
        self, transactional_id: str, producer_id: int, producer_epoch: int, topic: str, partition: int
    ) -> ErrorCode:
        """KIP-890 part 1 for a leader on this broker: is the partition in the producer's open
        transaction? NONE too when another broker coordinates the id (not asked over the wire)."""
        if self.coordinator_error(transactional_id) != ErrorCode.NONE:
            return ErrorCode.NONE
        tp = (topic, partition)
        return self.add_partitions(transactional_id, producer_id, producer_epoch, [tp], verify_only=True)[tp]

    def _exists(self, tp: TP) -> bool:
        topic = self.broker.topics.get(tp[0])
        if topic is not None:
            return 0 <= tp[1] < topic.num_partitions
        return False

    def add_offsets(self, transactional_id: str, producer_id: int, producer_epoch: int, group_id: str) -> ErrorCode:
        """The group's __consumer_offsets partition joins the transaction (its TxnOffsetCommit
        records then get the transaction's marker)."""
        if not group_id:
            return ErrorCode.INVALID_GROUP_ID
        try:
            self.broker.group_coordinator.ensure_offsets_topic()
        except KafkaError as e:
            # cluster mode: __consumer_offsets is being created (LEADER_NOT_AVAILABLE from the
            # topic admin). Kafka's coordinator never answers that here, and librdkafka fails the
            # transaction on it; a retriable coordinator code makes the client try again
            return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS if e.code == ErrorCode.LEADER_NOT_AVAILABLE else e.code
        tp = ("__consumer_offsets", self.broker.group_coordinator.partition_for(group_id))
        return self.add_partitions(transactional_id, producer_id, producer_epoch, [tp])[tp]

    # --- EndTxn --------------------------------------------------------------------------------
    def end_txn(
        self, transactional_id: str, producer_id: int, producer_epoch: int, commit: bool
    ) -> tuple[ErrorCode, int, int]:
        if (code := self.coordinator_error(transactional_id)) != ErrorCode.NONE:
            return code, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
        meta = self.txns.get(transactional_id)
        code = self._check_producer(meta, producer_id, producer_epoch)
        if code != ErrorCode.NONE:
            return code, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
        assert meta is not None
        ok = (ErrorCode.NONE, meta.producer_id, meta.producer_epoch)
        state = meta.state
        if state is S.ONGOING:
            nxt = meta.transition(S.PREPARE_COMMIT if commit else S.PREPARE_ABORT, _now_ms())
            try:
                self._apply(nxt)
            except KafkaError as e:
                return e.code, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
            # the client is answered once the decision is durable; the markers follow (and are
            # retried) whatever happens to this request
            self._send_markers_when_replicated(nxt, commit)
            return ok
        if (state is S.COMPLETE_COMMIT and commit) or (state is S.COMPLETE_ABORT and not commit):
            return ok  # a retry of an EndTxn that already completed
        if (state is S.PREPARE_COMMIT and commit) or (state is S.PREPARE_ABORT and not commit):
            return ErrorCode.CONCURRENT_TRANSACTIONS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH
        return ErrorCode.INVALID_TXN_STATE, NO_PRODUCER_ID, NO_PRODUCER_EPOCH

    def _on_markers_done(self, producer_id: int, commit: bool) -> None:
        """Every partition took its marker: Prepare* -> Complete*."""
        for meta in self.txns.values():
            if meta.producer_id == producer_id and meta.state in (S.PREPARE_COMMIT, S.PREPARE_ABORT):
                try:
                    self._apply(meta.transition(S.COMPLETE_COMMIT if commit else S.COMPLETE_ABORT, _now_ms()))
                except KafkaError as e:
                    # the state stays Prepare*: a reload (restart, new leader) sends the markers again
                    log.warning("completing transaction %s failed: %s", meta.transactional_id, e)
                return

    # --- timeouts and expiration ---------------------------------------------------------------
    def abort_timed_out_transactions(self, now_ms: int | None = None) -> list[str]:
        """Abort (with an epoch bump that fences the producer) every transaction open longer than
        its transaction.timeout.ms."""
        now = _now_ms() if now_ms is None else now_ms
        aborted = []
        for meta in list(self.txns.values()):
            if not meta.is_expired_transaction(now) or self.markers.pending(meta.producer_id):
                continue
            if self.coordinator_error(meta.transactional_id) != ErrorCode.NONE:
                continue
            try:
                self._abort_with_fence(meta, now)
            except KafkaError as e:
                log.warning("aborting timed out transaction %s failed: %s", meta.transactional_id, e)
                continue
            log.info("aborted transaction %s after its timeout", meta.transactional_id)
            aborted.append(meta.transactional_id)
        return aborted

    def expire_transactional_ids(self, now_ms: int | None = None) -> list[str]:
        """transactional.id.expiration.ms: ids with no open transaction, idle that long, are
        removed (a tombstone in the state log)."""
        now = _now_ms() if now_ms is None else now_ms
        expiration = txn_config(self.broker, "transactional.id.expiration.ms")
        expired = []
        for tid, meta in list(self.txns.items()):
            if meta.state not in COMPLETE or meta.txn_last_update_timestamp + expiration > now:
                continue
            if self.coordinator_error(tid) != ErrorCode.NONE:
                continue
            try:
                self._persist(tid, None)
            except KafkaError:
                continue
            del self.txns[tid]
            expired.append(tid)
        return expired

    # --- describe -------------------------------------------------------------------------------
    def describe(self, transactional_id: str) -> tuple[ErrorCode, TransactionMetadata | None]:
        if (code := self.coordinator_error(transactional_id)) != ErrorCode.NONE:
            return code, None
        meta = self.txns.get(transactional_id)
        if meta is None:
            return ErrorCode.TRANSACTIONAL_ID_NOT_FOUND, None
        return ErrorCode.NONE, meta


def tid_in(meta: TransactionMetadata, partitions: Iterable[int] | None, coordinator: TransactionCoordinator) -> bool:
    if partitions is None:
        return True
    return coordinator.partition_for(meta.transactional_id) in set(partitions)


def coordinator_of(broker: TxnHost) -> TransactionCoordinator:
    """The broker's transaction coordinator (created on first use and loaded then)."""
    coordinator: TransactionCoordinator | None = getattr(broker, "txn_coordinator", None)
    if coordinator is None:
        coordinator = TransactionCoordinator(broker)
        # the coordinator is attached to the host lazily, on first use
        broker.txn_coordinator = coordinator  # type: ignore[attr-defined]
        coordinator.load()
        try:
            coordinator.start(asyncio.get_running_loop())
        except RuntimeError:
            pass  # no running loop (unit tests drive it by hand)
    return coordinator
