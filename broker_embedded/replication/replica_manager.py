"""ReplicaManager: the partitions hosted on this broker, their appends and fetches, and the
controller's partition states applied to them (Kafka's ReplicaManager).

`append_records` (Produce) validates and appends each partition's batch on its leader and parks
acks=all in the produce purgatory (`DelayedProduce`); `fetch_messages` (Fetch) reads each partition
and parks long polls in the fetch purgatory (`DelayedFetch`). Both purgatories are this class's,
on the broker's timer, keyed by `purgatory.keys`.

Everything runs on the broker's asyncio loop thread, except the checks of a produced batch that
is costly to check (large, or compressed beyond a small inline budget: decompression, CRC, record
walk): those run on a small bounded thread pool (`VALIDATION_THREADS`, where cramjam and the C walk
release the GIL), as Kafka runs them on a request handler thread, so one client's batch never
stalls another's request. Appends to one partition stay in request order: while a partition has
an append waiting for its checks, later appends to it queue behind that one.

Per partition the broker is leader (it serves produce and fetch, tracks its followers, moves the
high watermark and asks the controller to shrink or expand the ISR), follower (a `ReplicaFetcher`
per source broker truncates by leader epoch, then fetches), or neither (no leader elected: every
request answers NOT_LEADER_OR_FOLLOWER).

Without any state applied (single node) every partition is led by this broker with ISR = [self]
and nothing here runs except the (empty) ISR check.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from broker_embedded.config import ConfigError
from broker_embedded.log.validator import OffloadRequired, validate_records_for_append
from broker_embedded.network.server import RequestRejected
from broker_embedded.partition import Partition
from broker_embedded.purgatory import DelayedOperationPurgatory, Timer, fetch_key, produce_key
from broker_embedded.replication.delayed_fetch import DelayedFetch
from broker_embedded.replication.delayed_produce import DelayedProduce, ProducePartitionStatus
from broker_embedded.replication.fetch_read import FetchPartitionStatus, FetchResult, fetch_replica_id, read_partitions
from broker_embedded.replication.fetcher import ReplicaFetcher
from broker_embedded.replication.state import BrokerEndpoint, PartitionState
from broker_embedded.replication.throttle import FOLLOWER, LEADER, ReplicationQuota
from broker_embedded.topic_registry import TopicMetadata, TopicRegistry
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import fetch_request as frq
from kafka_wire.protocol.messages import fetch_response as frs
from kafka_wire.protocol.messages import produce_request as prq
from kafka_wire.protocol.messages import produce_response as prs
from kafka_wire.records import parse_batch_header

if TYPE_CHECKING:
    from broker_embedded.log.config import LogConfig
    from broker_embedded.log.log_dirs import LogDirs
    from broker_embedded.log.manager import LogManager
    from broker_embedded.security.client import InterBrokerSecurity
    from broker_embedded.tiered import RemoteLogManager

log = logging.getLogger(__name__)

# Threads checking costly produced batches (kafka_wire.compression lets one of them at a time inflate
# into a map of up to MAX_DECOMPRESSED_BATCH_BYTES: the memory of one bomb, as on the loop before).
VALIDATION_THREADS = 2
# one partition's append checked off the loop: its answer and the offset after its batch (-1: none)
_AppendTask = asyncio.Task[tuple[prs.PartitionProduceResponse, int]]

AlterPartition = Callable[[str, int, int, tuple[int, ...], int], Awaitable[PartitionState]]


class TopicConfigResolver(Protocol):
    """A topic's effective configs and the log layer's view of them, from its overrides."""

    def resolve(self, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], LogConfig]: ...


def _now_ms() -> int:
    return int(time.time() * 1000)


def _check_configs(config: Any) -> None:
    """Kafka's cross-checks: a follower's long poll must end before it would count as lagging, and
    before its request times out."""
    wait = int(config["replica.fetch.wait.max.ms"])
    for other in ("replica.lag.time.max.ms", "replica.socket.timeout.ms"):
        if wait > int(config[other]):
            raise ConfigError(f"replica.fetch.wait.max.ms={wait} must be at most {other}={config[other]}")


class ReplicaManager:
    def __init__(
        self,
        config: Any,
        topics: TopicRegistry,
        log_manager: LogManager | LogDirs,
        topic_configs: TopicConfigResolver,
        timer: Timer,
    ) -> None:
        self.config = config
        self.node_id: int = config["broker.id"]
        self.cluster_mode = bool(config["controller.quorum.bootstrap.servers"])
        self.topics = topics
        self.log_manager = log_manager
        self.topic_configs = topic_configs
        _check_configs(config)
        # every partition replica hosted on this broker (Kafka's allPartitions)
        self.partitions: dict[tuple[str, int], Partition] = {}
        # tiered storage (KIP-405), set once by the broker when remote storage is enabled
        self.remote_log_manager: RemoteLogManager | None = None
        # KIP-890 part 1, set by the broker: (transactional id, producer id, epoch, topic,
        # partition) -> NONE when the partition is in that producer's open transaction, an error
        # when the coordinator (on this broker) says it is not; NONE when it cannot tell
        self.txn_verifier: Callable[[str, int, int, str, int], ErrorCode] | None = None
        # Set by the controller client. The leader calls it to shrink/expand the ISR
        # (AlterPartition): args topic, partition, leader_epoch, new_isr, partition_epoch; returns
        # the controller's committed PartitionState or raises KafkaError (FENCED_LEADER_EPOCH,
        # INVALID_UPDATE_VERSION, ...). While it is None (single node) the ISR never changes.
        self.alter_partition: AlterPartition | None = None
        # acks=all produces waiting for the high watermark, long polls waiting for data; on the
        # broker's timer
        self.produce_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory("Produce", timer)
        self.fetch_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory("Fetch", timer)
        # The latest state of every partition the controller told us about (hosted here or not)
        self.states: dict[tuple[str, int], PartitionState] = {}
        self.endpoints: dict[int, BrokerEndpoint] = {}
        # TLS/SASL of the inter-broker listener (security.client.InterBrokerSecurity); None: PLAINTEXT
        self.inter_broker_security: InterBrokerSecurity | None = None
        self.fetchers: dict[int, ReplicaFetcher] = {}
        self._fetcher_of: dict[tuple[str, int], int] = {}
        self._led: set[tuple[str, int]] = set()  # partitions led here with replication state
        # partitions of a failed log dir (take_offline): not served until a restart
        self.offline_partitions: set[tuple[str, int]] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._isr_task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._shutdown = False
        # costly batch checks (created on first use); per partition, the last append still
        # waiting for them: later appends to it wait for it (appends in request order)
        self._validation_pool: ThreadPoolExecutor | None = None
        self._append_tails: dict[tuple[str, int], _AppendTask] = {}
        # replication throttles (kafka-reassign-partitions --throttle): replication/throttle.py
        self.leader_quota = ReplicationQuota(LEADER, config, self.node_id, _now_ms)
        self.follower_quota = ReplicationQuota(FOLLOWER, config, self.node_id, _now_ms)

    # --- configs --------------------------------------------------------------------------
    @property
    def lag_time_max_ms(self) -> int:
        return int(self.config["replica.lag.time.max.ms"])

    @property
    def isr_retry_backoff_ms(self) -> int:
        """Pause after a failed AlterPartition (Kafka's AlterPartitionManager retries after a back-off)."""
        return max(int(self.config["replica.fetch.backoff.ms"]), 50)

    # --- lifecycle ------------------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop thread: start the ISR expiration check (every replica.lag.time.max.ms / 2)."""
        self._loop = loop
        self._isr_task = loop.create_task(self._isr_expiration())

    async def stop_fetchers(self) -> None:
        """Stop every fetcher (and pending ISR change) and wait for their tasks, before `shutdown`
        closes the logs."""
        for fetcher in list(self.fetchers.values()):
            self._retire(fetcher)
        self.fetchers.clear()
        self._fetcher_of.clear()
        tasks = [t for t in self._tasks if not t.done()]
        for t in tasks:
            t.cancel()  # fetchers, and ISR changes still waiting for the controller
        if tasks:
            await asyncio.wait(tasks, timeout=5)

    def shutdown(self) -> None:
        self._shutdown = True
        if self._isr_task is not None:
            self._isr_task.cancel()
        for fetcher in list(self.fetchers.values()):
            self._retire(fetcher)
        self.fetchers.clear()
        self._fetcher_of.clear()
        for task in list(self._tasks):
            task.cancel()
        self.produce_purgatory.shutdown()
        self.fetch_purgatory.shutdown()
        if self._validation_pool is not None:
            self._validation_pool.shutdown(wait=False, cancel_futures=True)
            self._validation_pool = None

    # --- queries (handlers, metadata) -------------------------------------------------------
    def partition(self, topic: str, index: int) -> Partition | None:
        return self.partitions.get((topic, index))

    def new_partition(self, topic: str, index: int, topic_id: bytes, log_: Any, effective: dict[str, Any]) -> Partition:
        """Host a partition replica of `log_` here (its topic configs already resolved)."""
        p = Partition(topic, index, topic_id, log_, self)
        p.update_topic_configs(effective)
        self.partitions[(topic, index)] = p
        return p

    def current_leader(self, topic: str, partition: int) -> tuple[int, int] | None:
        """(leader id, leader epoch) of a partition the controller told us about, else None."""
        p = self.partitions.get((topic, partition))
        if p is not None and p.replicated:
            return p.leader_id, p.leader_epoch
        st = self.states.get((topic, partition))
        if st is None:
            return None
        return st.leader, st.leader_epoch

    # --- controller -> broker ---------------------------------------------------------------
    def apply_partition_states(
        self,
        states: Iterable[PartitionState],
        endpoints: Mapping[int, BrokerEndpoint],
        topic_configs: Mapping[str, dict[str, Any]],
    ) -> None:
        """On the broker loop thread. Idempotent. A state with an older leader epoch than the partition's
        current one is ignored; same epoch + newer partition_epoch = ISR change. Creates missing
        partitions/logs (topic_configs = the topic's config overrides), makes this broker leader
        (leader == node_id: HW from ISR, DelayedProduce) or follower (truncate by leader epoch, then
        fetch from the leader), or stops replicating a partition it is no longer a replica of."""
        self.endpoints = dict(endpoints)
        now_ms = _now_ms()
        states = list(states)
        self.precreate_logs(states, topic_configs)
        for st in states:
            key = (st.topic, st.partition)
            old = self.states.get(key)
            if old is None or (st.leader_epoch, st.partition_epoch) >= (old.leader_epoch, old.partition_epoch):
                self.states[key] = st
            p = self.partitions.get(key)
            if self.node_id not in st.replicas:
                if p is not None and p.replicated and p.is_newer_state(st):
                    # reassigned away: stop serving it and delete its log, as Kafka's broker does
                    # for a replica removed from the partition (stopPartitions with delete)
                    self._stop_partition(p)
                    self.partitions.pop(key, None)
                    p.on_deleted()
                    self.log_manager.delete_log(st.topic, st.partition)
                continue
            if p is not None and key in self.offline_partitions:
                continue  # its log dir failed: served no more until a restart (Kafka's offline partition)
            if p is None:
                p = self._create_partition(st, topic_configs.get(st.topic, {}))
            # a new image: replicas the controller refused (fenced) may be eligible again
            p.ineligible_replicas.clear()
            if not p.is_newer_state(st):
                continue
            if st.leader == self.node_id:
                self._remove_fetcher(key)
                if p.replicated and p.is_leader and p.leader_epoch == st.leader_epoch:
                    p.apply_isr_state(st)
                else:
                    p.make_leader(st, now_ms)
                    log.info(
                        "%s-%d: leader at epoch %d, ISR %s, LEO %d, HW %d",
                        st.topic, st.partition, st.leader_epoch, list(st.isr), p.log.log_end_offset, p.high_watermark,
                    )  # fmt: skip
                self._led.add(key)
            else:
                self._led.discard(key)
                same_leadership = p.replicated and p.leader_id == st.leader and p.leader_epoch == st.leader_epoch
                if same_leadership:
                    p.apply_isr_state(st)
                else:
                    p.make_follower(st)
                    self._remove_fetcher(key)
                    if st.leader >= 0:
                        self._add_fetcher(p)
                    log.info(
                        "%s-%d: follower of %d at epoch %d, LEO %d, HW %d",
                        st.topic, st.partition, st.leader, st.leader_epoch, p.log.log_end_offset, p.high_watermark,
                    )  # fmt: skip
                # waiting acks=all produces and consumer fetches answer NOT_LEADER_OR_FOLLOWER now
                self.produce_purgatory.check_and_complete(p.produce_key)
                self.fetch_purgatory.check_and_complete(p.fetch_key)

    def remove_partitions(self, topic: str, partitions: Iterable[int], delete: bool) -> None:
        """Stop leading/following these partitions (fetchers removed, waiting produces and fetches
        answered); with `delete` also delete their logs."""
        for index in partitions:
            key = (topic, index)
            self.states.pop(key, None)
            p = self.partitions.pop(key, None)
            if p is not None:
                self._stop_partition(p)
                p.on_deleted()
            if delete:
                self.log_manager.delete_log(topic, index)

    def take_offline(self, partitions: Iterable[tuple[str, int]]) -> None:
        """A log dir failed (KIP-858; on the loop): its partitions stop leading and following here (fetchers
        removed, waiting produces and fetches answered) and ignore later images, as Kafka's
        ReplicaManager.handleLogDirFailure marks them offline until a restart."""
        for key in partitions:
            self.offline_partitions.add(key)
            p = self.partitions.get(key)
            if p is not None:
                self._stop_partition(p)

    def _stop_partition(self, p: Partition) -> None:
        key = (p.topic, p.index)
        self._remove_fetcher(key)
        self._led.discard(key)
        p.leader_id = -1
        p.pending_isr = None
        p.remote_replicas = {}
        self.produce_purgatory.check_and_complete(p.produce_key)
        self.fetch_purgatory.check_and_complete(p.fetch_key)

    def precreate_logs(self, states: list[PartitionState], topic_configs: Mapping[str, dict[str, Any]]) -> None:
        """Logs of partitions new to this broker, created per topic with one directory fsync (a
        10,000-partition topic would otherwise cost 10,000 fsyncs on the loop). Safe on a worker
        thread: it only reads the partition map and creates logs."""
        missing: dict[str, list[int]] = {}
        for st in states:
            if self.node_id in st.replicas and (st.topic, st.partition) not in self.partitions:
                if self.log_manager.get_log(st.topic, st.partition) is None:
                    missing.setdefault(st.topic, []).append(st.partition)
        for topic, indexes in missing.items():
            meta = self.topics.by_name.get(topic)
            overrides = meta.configs if meta is not None else topic_configs.get(topic, {})
            try:
                _, log_config = self.topic_configs.resolve(overrides)
                self.log_manager.create_logs(topic, indexes, log_config)
            except KafkaError as e:
                # each partition is tried again (and fails alone) by _create_partition
                log.warning("could not create the logs of %d partitions of %s: %s", len(indexes), topic, e)

    def _create_partition(self, st: PartitionState, overrides: dict[str, Any]) -> Partition:
        registry = self.topics
        meta = registry.by_name.get(st.topic)
        if meta is None:
            # without a controller client (tests driving states by hand) nobody else registers it;
            # the registry maps topic ids for Fetch/Produce v13+
            meta = TopicMetadata(st.topic, st.topic_id, st.partition + 1, len(st.replicas), dict(overrides))
            registry.by_name[st.topic] = meta
            registry.by_id[st.topic_id] = meta
            registry.save()
        elif meta.num_partitions <= st.partition:
            meta.num_partitions = st.partition + 1
            registry.save()
        effective, log_config = self.topic_configs.resolve(meta.configs)
        log_ = self.log_manager.get_or_create_log(st.topic, st.partition, log_config)
        return self.new_partition(st.topic, st.partition, meta.topic_id, log_, effective)

    # --- fetchers -------------------------------------------------------------------------
    def _add_fetcher(self, p: Partition) -> None:
        key = (p.topic, p.index)
        fetcher = self.fetchers.get(p.leader_id)
        if fetcher is None:
            fetcher = self.fetchers[p.leader_id] = ReplicaFetcher(self, p.leader_id)
            fetcher.start()
        fetcher.add_partition(p)
        self._fetcher_of[key] = p.leader_id

    def _remove_fetcher(self, key: tuple[str, int]) -> None:
        source = self._fetcher_of.pop(key, None)
        if source is None:
            return
        fetcher = self.fetchers.get(source)
        if fetcher is None:
            return
        fetcher.remove_partition(key)
        if fetcher.is_idle:
            # a fetcher left without partitions closes its connection
            self._retire(fetcher)
            del self.fetchers[source]

    def _retire(self, fetcher: ReplicaFetcher) -> None:
        task = fetcher.stop()
        if task is not None and not task.done():
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def fetcher_for(self, topic: str, partition: int) -> ReplicaFetcher | None:
        source = self._fetcher_of.get((topic, partition))
        return None if source is None else self.fetchers.get(source)

    # --- ISR changes (leader) ---------------------------------------------------------------
    def request_isr_change(self, p: Partition, new_isr: tuple[int, ...]) -> None:
        """Ask the controller for `new_isr` (at most one change in flight per partition). The ISR
        changes only when the committed state comes back (here or in a metadata push)."""
        if self.alter_partition is None or p.pending_isr is not None or self._shutdown:
            return
        p.pending_isr = new_isr
        task = asyncio.get_running_loop().create_task(self._alter(p, new_isr))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _alter(self, p: Partition, new_isr: tuple[int, ...]) -> None:
        alter = self.alter_partition
        assert alter is not None
        epoch, partition_epoch = p.leader_epoch, p.partition_epoch
        log.info("%s-%d: asking for ISR %s (was %s)", p.topic, p.index, list(new_isr), list(p.isr))
        try:
            state = await alter(p.topic, p.index, epoch, new_isr, partition_epoch)
        except KafkaError as e:
            log.info("%s-%d: ISR change to %s refused: %s", p.topic, p.index, list(new_isr), e)
            state = None
            if e.code == ErrorCode.INELIGIBLE_REPLICA:
                # KIP-841: not again until the controller's next image says otherwise
                p.ineligible_replicas.update(r for r in new_isr if r not in p.isr)
            else:
                p.isr_change_retry_ms = _now_ms() + self.isr_retry_backoff_ms
        except (TimeoutError, OSError, ConnectionError) as e:
            log.warning("%s-%d: ISR change to %s failed: %r", p.topic, p.index, list(new_isr), e)
            state = None
            p.isr_change_retry_ms = _now_ms() + self.isr_retry_backoff_ms
        finally:
            if p.pending_isr is new_isr:
                p.pending_isr = None
        if state is None or p.deleted or self.partitions.get((p.topic, p.index)) is not p:
            if p.is_leader:
                p.maybe_increment_high_watermark()
            return
        key = (p.topic, p.index)
        old = self.states.get(key)
        if old is None or (state.leader_epoch, state.partition_epoch) > (old.leader_epoch, old.partition_epoch):
            self.states[key] = state
        if p.is_leader and p.leader_epoch == state.leader_epoch and p.is_newer_state(state):
            log.info("%s-%d: ISR now %s (partition epoch %d)", p.topic, p.index, list(state.isr), state.partition_epoch)
            p.apply_isr_state(state)

    async def _isr_expiration(self) -> None:
        """Kafka's isr-expiration task: every replica.lag.time.max.ms / 2, shrink the ISR of every
        led partition by the followers that have not caught up within replica.lag.time.max.ms."""
        while True:
            await asyncio.sleep(max(self.lag_time_max_ms / 2, 10) / 1000)
            try:
                self.maybe_shrink_isr(_now_ms())
            except Exception:
                log.exception("ISR expiration check failed")

    def maybe_shrink_isr(self, now_ms: int) -> None:
        if self.alter_partition is None:
            return
        lag = self.lag_time_max_ms
        for key in list(self._led):
            p = self.partitions.get(key)
            if p is None or not p.is_leader or p.pending_isr is not None or len(p.isr) <= 1:
                continue
            if now_ms < p.isr_change_retry_ms:
                continue
            out = p.out_of_sync_replicas(now_ms, lag)
            if out:
                log.info(
                    "%s-%d: shrinking ISR %s, out of sync %s (leader LEO %d, HW %d)",
                    p.topic, p.index, list(p.isr), out, p.log.log_end_offset, p.high_watermark,
                )  # fmt: skip
                self.request_isr_change(p, tuple(r for r in p.isr if r not in out))

    # --- produce (Kafka's appendRecords) ------------------------------------------------------
    def append_records(self, request: prq.ProduceRequest, api_version: int) -> Any:
        """Append each partition's batch on its leader. acks=0/1 answer after the local append;
        acks=all (-1) waits in a DelayedProduce until the high watermark passes the appended batch
        (immediately when the ISR is this broker alone). Returns the response, a future of it,
        or None (acks=0: no response). A batch too costly to check on the loop is checked on the
        validation pool and appended when that is done (the answer is then a future)."""
        acks = request.acks
        responses: list[prs.TopicProduceResponse] = []
        appended: list[tuple[str, prs.PartitionProduceResponse, int]] = []
        offloaded: list[tuple[prs.TopicProduceResponse, int, str, _AppendTask]] = []
        tails = self._append_tails
        for topic_data in request.topic_data:
            name = topic_data.name
            if api_version >= 13:
                meta = self.topics.by_id.get(topic_data.topic_id)
                name = meta.name if meta else ""
            out = prs.TopicProduceResponse(name=topic_data.name, topic_id=topic_data.topic_id)
            for pdata in topic_data.partition_data:
                key = (name, pdata.index)
                if key not in tails:
                    try:
                        response, required_offset = self._append_partition(
                            name, pdata, acks, api_version, request.transactional_id, inline=True
                        )
                        out.partition_responses.append(response)
                        appended.append((name, response, required_offset))
                        continue
                    except OffloadRequired:
                        pass
                # checked off the loop, appended after the partition's earlier appends
                task = self._offload_append(key, pdata, acks, api_version, request.transactional_id)
                offloaded.append((out, len(out.partition_responses), name, task))
                out.partition_responses.append(_produce_error(pdata.index, ErrorCode.UNKNOWN_SERVER_ERROR))
            responses.append(out)
        if offloaded:
            return asyncio.ensure_future(self._finish_offloaded(request, responses, appended, offloaded))
        return self._finish_append(request, responses, appended)

    def _finish_append(
        self,
        request: prq.ProduceRequest,
        responses: list[prs.TopicProduceResponse],
        appended: list[tuple[str, prs.PartitionProduceResponse, int]],
    ) -> Any:
        """The answer once every partition's append is done: None (acks=0), the response, or (acks=all
        with replicas to wait for) a future of it."""
        acks = request.acks
        if acks == 0:
            # No response to carry an error: like Kafka, close the connection so the client learns
            # that something failed (and refreshes its metadata).
            if any(p.error_code != ErrorCode.NONE for t in responses for p in t.partition_responses):
                raise RequestRejected("acks=0 produce failed for some partition: closing the connection")
            return None
        pending: list[ProducePartitionStatus] = []
        if acks == -1:
            for name, response, required_offset in appended:
                if required_offset < 0:
                    continue
                p = self.partitions.get((name, response.index))
                if p is None:  # removed while the batch was being checked
                    response.error_code = ErrorCode.NOT_LEADER_OR_FOLLOWER
                    continue
                status = ProducePartitionStatus(name, response.index, required_offset, p.leader_epoch, response)
                error = p.check_enough_replicas_reach_offset(status.required_offset, status.leader_epoch)
                if error is None:
                    pending.append(status)
                elif error != ErrorCode.NONE:
                    response.error_code = error
        if pending:
            # acks=all: wait until the ISR has the records (a single node's ISR already has them)
            loop = asyncio.get_running_loop()
            future: asyncio.Future[prs.ProduceResponse] = loop.create_future()

            def respond() -> prs.ProduceResponse:
                return self._produce_response(responses)

            op = DelayedProduce(self, request.timeout_ms, pending, respond, future)
            keys = [produce_key(s.topic, s.partition) for s in pending]
            self.produce_purgatory.try_complete_else_watch(op, keys)
            return future
        return self._produce_response(responses)

    async def _finish_offloaded(
        self,
        request: prq.ProduceRequest,
        responses: list[prs.TopicProduceResponse],
        appended: list[tuple[str, prs.PartitionProduceResponse, int]],
        offloaded: list[tuple[prs.TopicProduceResponse, int, str, _AppendTask]],
    ) -> Any:
        for out, i, name, task in offloaded:
            response, required_offset = await task
            out.partition_responses[i] = response
            appended.append((name, response, required_offset))
        result = self._finish_append(request, responses, appended)
        if isinstance(result, asyncio.Future):
            return await result
        return result

    def _append_partition(
        self,
        name: str,
        pdata: prq.PartitionProduceData,
        acks: int,
        api_version: int,
        transactional_id: str | None = None,
        *,
        inline: bool = False,
        validated: bool = False,
        validation_error: KafkaError | None = None,
    ) -> tuple[prs.PartitionProduceResponse, int]:
        """One partition's append: its answer and the offset after the appended batch (-1: none).
        `inline`: raises `OffloadRequired` (before any change) for a batch too costly to check on
        the loop; `validated`: checked off the loop already, with `validation_error` the outcome."""
        if acks not in (-1, 0, 1):
            return _produce_error(pdata.index, ErrorCode.INVALID_REQUIRED_ACKS), -1
        partition = self.partitions.get((name, pdata.index))
        if partition is None:
            if self.current_leader(name, pdata.index) is not None:
                # a partition of the cluster that this broker does not host
                return self._not_leader(name, pdata.index), -1
            code = ErrorCode.UNKNOWN_TOPIC_ID if api_version >= 13 else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            return _produce_error(pdata.index, code), -1
        if pdata.records is None or len(pdata.records) == 0:
            return _produce_error(pdata.index, ErrorCode.INVALID_RECORD, "Produce request has no records"), -1
        if transactional_id is not None and self.txn_verifier is not None:
            code = self._verify_transaction(partition, pdata.records, transactional_id)
            if code != ErrorCode.NONE:
                return _produce_error(pdata.index, code, "the partition is not in the producer's transaction"), -1
        try:
            result = partition.append_records_as_leader(
                pdata.records, acks, inline=inline, validated=validated, validation_error=validation_error
            )
        except KafkaError as e:
            if e.code == ErrorCode.NOT_LEADER_OR_FOLLOWER:
                return self._not_leader(name, pdata.index, str(e)), -1
            answer = _produce_error(pdata.index, e.code, str(e))
            # KIP-467: which records made the batch invalid
            answer.record_errors = [
                prs.BatchIndexAndErrorMessage(batch_index=r.batch_index, batch_index_error_message=r.message)
                for r in getattr(e, "record_errors", ())
            ]
            return answer, -1
        response = prs.PartitionProduceResponse(
            index=pdata.index,
            error_code=ErrorCode.NONE,
            base_offset=result.base_offset,
            log_append_time_ms=result.log_append_time_ms,
            log_start_offset=result.log_start_offset,
        )
        return response, result.last_offset + 1

    def _offload_append(
        self, key: tuple[str, int], pdata: prq.PartitionProduceData, acks: int, api_version: int, txn_id: str | None
    ) -> _AppendTask:
        """Check the batch on the validation pool, then append it after the partition's earlier
        appends that are still being checked; registered at once as the partition's last append."""
        previous = self._append_tails.get(key)
        task = asyncio.ensure_future(self._append_offloaded(key, pdata, acks, api_version, txn_id, previous))
        self._append_tails[key] = task

        def forget(t: asyncio.Task[Any]) -> None:
            if self._append_tails.get(key) is t:
                del self._append_tails[key]

        task.add_done_callback(forget)
        return task

    async def _append_offloaded(
        self,
        key: tuple[str, int],
        pdata: prq.PartitionProduceData,
        acks: int,
        api_version: int,
        txn_id: str | None,
        previous: _AppendTask | None,
    ) -> tuple[prs.PartitionProduceResponse, int]:
        error: KafkaError | None = None
        partition = self.partitions.get(key)
        if partition is not None and pdata.records is not None:
            if self._validation_pool is None:
                self._validation_pool = ThreadPoolExecutor(
                    VALIDATION_THREADS,
                    thread_name_prefix=f"produce-validation-{self.node_id}",
                )
            now_ms = time.time_ns() // 1_000_000
            loop = asyncio.get_running_loop()
            try:
                # checks may run alongside an earlier append's; the appends themselves are ordered
                await loop.run_in_executor(
                    self._validation_pool, validate_records_for_append, pdata.records, partition.append_policy(), now_ms
                )
            except KafkaError as e:
                error = e
        if previous is not None:
            await asyncio.wait([previous])
        return self._append_partition(
            key[0], pdata, acks, api_version, txn_id, validated=partition is not None, validation_error=error
        )

    def _verify_transaction(self, partition: Partition, records: Any, transactional_id: str) -> ErrorCode:
        """KIP-890 part 1: a transactional batch that would open a transaction on this partition is
        checked with the coordinator first, so a zombie (fenced, timed out) cannot leave a
        transaction no marker will ever close. Later batches of an open transaction pass."""
        assert self.txn_verifier is not None
        try:
            h = parse_batch_header(records, 0)
        except KafkaError:
            return ErrorCode.NONE  # the validator answers malformed batches
        if not h.is_transactional or h.producer_id < 0:
            return ErrorCode.NONE
        entry = partition.log.producer_state.last_entry(h.producer_id)
        if (
            entry is not None
            and entry.current_txn_first_offset is not None
            and entry.producer_epoch == h.producer_epoch
        ):
            return ErrorCode.NONE
        code = self.txn_verifier(transactional_id, h.producer_id, h.producer_epoch, partition.topic, partition.index)
        if code in (ErrorCode.PRODUCER_FENCED, ErrorCode.INVALID_PRODUCER_ID_MAPPING):
            return ErrorCode.INVALID_PRODUCER_EPOCH
        return code

    def _not_leader(self, topic: str, index: int, message: str | None = None) -> prs.PartitionProduceResponse:
        """NOT_LEADER_OR_FOLLOWER with the current leader (v10+ tagged field) when it is known."""
        r = _produce_error(index, ErrorCode.NOT_LEADER_OR_FOLLOWER, message)
        leader = self.current_leader(topic, index)
        if leader is not None:
            r.current_leader = prs.LeaderIdAndEpoch(leader_id=leader[0], leader_epoch=leader[1])
        return r

    def _produce_response(self, responses: list[prs.TopicProduceResponse]) -> prs.ProduceResponse:
        """The response, with the endpoints of leaders named in NOT_LEADER_OR_FOLLOWER answers (v10+)."""
        leaders = {
            p.current_leader.leader_id
            for t in responses
            for p in t.partition_responses
            if p.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER and p.current_leader.leader_id >= 0
        }
        endpoints = []
        for node_id in sorted(leaders):
            ep = self.endpoints.get(node_id)
            if ep is not None:
                endpoints.append(prs.NodeEndpoint(node_id=ep.node_id, host=ep.host, port=ep.port, rack=ep.rack))
        return prs.ProduceResponse(responses=responses, throttle_time_ms=0, node_endpoints=endpoints)

    # --- replication throttles (replication/throttle.py) -------------------------------------
    def leader_throttle(self, p: Partition, replica_id: int) -> tuple[bool, bool]:
        meta = self.topics.by_name.get(p.topic)
        if meta is None or not self.leader_quota.is_throttled(meta.configs, p.index):
            return False, False
        return True, replica_id not in p.isr and self.leader_quota.is_quota_exceeded()

    def record_leader_throttled(self, size: int) -> None:
        self.leader_quota.record(size)

    # --- fetch (Kafka's fetchMessages) ------------------------------------------------------
    def fetch_messages(self, request: frq.FetchRequest, api_version: int) -> Any:
        """Whole batches from the fetch offset up to the high watermark (consumers) or the log end
        offset (followers: replica id >= 0 up to v14, ReplicaState from v15); long polls wait in
        the fetch purgatory (DelayedFetch) until min bytes are available or max wait passes. A
        follower's fetch offset is its log end offset: the leader records it once per request (ISR,
        high watermark). Returns the response or a future of it."""
        if request.session_id != 0 or request.session_epoch > 0:
            # We never create fetch sessions (KIP-227: answering session id 0 means "none was
            # created"), so an incremental fetch names a session we do not have.
            return frs.FetchResponse(error_code=ErrorCode.FETCH_SESSION_ID_NOT_FOUND, session_id=0, responses=[])
        use_ids = api_version >= 13
        statuses: list[FetchPartitionStatus] = []
        unknown: list[frs.FetchableTopicResponse] = []
        for ft in request.topics:
            if use_ids:
                meta = self.topics.by_id.get(ft.topic_id)
                if meta is None:
                    unknown.append(
                        frs.FetchableTopicResponse(
                            topic_id=ft.topic_id,
                            partitions=[
                                frs.PartitionData(partition_index=fp.partition, error_code=ErrorCode.UNKNOWN_TOPIC_ID)
                                for fp in ft.partitions
                            ],
                        )
                    )
                    continue
                name = meta.name
            else:
                name = ft.topic
            for fp in ft.partitions:
                statuses.append(FetchPartitionStatus(name, ft.topic_id, fp))
        replica_id = fetch_replica_id(request)
        read = read_partitions(self, statuses, request, replica_id)
        if read.follower_reads:
            now_ms = int(time.time() * 1000)
            for f in read.follower_reads:
                f.partition.update_follower_fetch_state(
                    replica_id, f.fetch_offset, f.log_start_offset, f.leader_log_end_offset, now_ms
                )
        if read.remote_fetches and self.remote_log_manager is not None:
            # tiered storage: answer once the remote reads are done or remote.fetch.max.wait.ms passed
            return asyncio.ensure_future(self._with_remote_reads(read, use_ids, unknown))
        if request.max_wait_ms <= 0 or read.total_bytes >= max(request.min_bytes, 1) or read.has_error or not statuses:
            return read.to_response(use_ids, unknown, self.endpoints)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[frs.FetchResponse] = loop.create_future()
        op = DelayedFetch(self, request, statuses, use_ids, unknown, future, replica_id)
        keys = [fetch_key(s.topic, s.request.partition) for s in statuses]
        self.fetch_purgatory.try_complete_else_watch(op, keys)
        return future

    async def _with_remote_reads(
        self, read: FetchResult, use_ids: bool, unknown: list[frs.FetchableTopicResponse]
    ) -> frs.FetchResponse:
        assert self.remote_log_manager is not None
        await self.remote_log_manager.read_remote_fetches(read.remote_fetches)
        return read.to_response(use_ids, unknown, self.endpoints)


def _produce_error(index: int, code: ErrorCode, message: str | None = None) -> prs.PartitionProduceResponse:
    return prs.PartitionProduceResponse(
        index=index,
        error_code=code,
        base_offset=-1,
        log_append_time_ms=-1,
        log_start_offset=-1,
        error_message=message,
    )
