"""ReplicaManager: applies the controller's partition states to this broker (Kafka's ReplicaManager).

Everything runs on the broker's asyncio loop thread. Per partition the broker is leader (it serves
produce and fetch, tracks its followers, moves the high watermark and asks the controller to shrink
or expand the ISR), follower (a `ReplicaFetcher` per source broker truncates by leader epoch, then
fetches), or neither (no leader elected: every request answers NOT_LEADER_OR_FOLLOWER).

Without any state applied (single node) every partition is led by this broker with ISR = [self]
and nothing here runs except the (empty) ISR check.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from broker_embedded.config import ConfigError
from broker_embedded.metadata import TopicMetadata
from broker_embedded.partition import Partition
from broker_embedded.purgatory import DelayedOperationPurgatory
from broker_embedded.replication.fetcher import ReplicaFetcher
from broker_embedded.replication.state import BrokerEndpoint, PartitionState
from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker_embedded.broker import Broker

log = logging.getLogger(__name__)

AlterPartition = Callable[[str, int, int, tuple[int, ...], int], Awaitable[PartitionState]]


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
    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.node_id: int = broker.node_id
        _check_configs(broker.config)
        # Set by the controller client. The leader calls it to shrink/expand the ISR
        # (AlterPartition): args topic, partition, leader_epoch, new_isr, partition_epoch; returns
        # the controller's committed PartitionState or raises KafkaError (FENCED_LEADER_EPOCH,
        # INVALID_UPDATE_VERSION, ...). While it is None (single node) the ISR never changes.
        self.alter_partition: AlterPartition | None = None
        # acks=all produces waiting for the high watermark, on the broker's timer
        self.produce_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory(
            "Produce", broker.fetch_purgatory.timer
        )
        # The latest state of every partition the controller told us about (hosted here or not)
        self.states: dict[tuple[str, int], PartitionState] = {}
        self.endpoints: dict[int, BrokerEndpoint] = {}
        self.fetchers: dict[int, ReplicaFetcher] = {}
        self._fetcher_of: dict[tuple[str, int], int] = {}
        self._led: set[tuple[str, int]] = set()  # partitions led here with replication state
        self._tasks: set[asyncio.Task[Any]] = set()
        self._isr_task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._shutdown = False

    # --- configs --------------------------------------------------------------------------
    @property
    def lag_time_max_ms(self) -> int:
        return int(self.broker.config["replica.lag.time.max.ms"])

    @property
    def isr_retry_backoff_ms(self) -> int:
        """Pause after a failed AlterPartition (Kafka's AlterPartitionManager retries after a back-off)."""
        return max(int(self.broker.config["replica.fetch.backoff.ms"]), 50)

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

    # --- queries (handlers, metadata) -------------------------------------------------------
    def current_leader(self, topic: str, partition: int) -> tuple[int, int] | None:
        """(leader id, leader epoch) of a partition the controller told us about, else None."""
        p = self.broker.partitions.get((topic, partition))
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
        broker = self.broker
        states = list(states)
        self._precreate_logs(states, topic_configs)
        for st in states:
            key = (st.topic, st.partition)
            old = self.states.get(key)
            if old is None or (st.leader_epoch, st.partition_epoch) >= (old.leader_epoch, old.partition_epoch):
                self.states[key] = st
            p = broker.partitions.get(key)
            if self.node_id not in st.replicas:
                if p is not None and p.replicated and p.is_newer_state(st):
                    # reassigned away: stop serving it (the log stays on disk)
                    self._stop_partition(p)
                    broker.partitions.pop(key, None)
                continue
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
                broker.fetch_purgatory.check_and_complete(p.fetch_key)

    def remove_partitions(self, topic: str, partitions: Iterable[int], delete: bool) -> None:
        """Stop leading/following these partitions (fetchers removed, waiting produces and fetches
        answered); with `delete` also delete their logs."""
        broker = self.broker
        for index in partitions:
            key = (topic, index)
            self.states.pop(key, None)
            p = broker.partitions.pop(key, None)
            if p is not None:
                self._stop_partition(p)
                p.on_deleted()
            if delete:
                broker.log_manager.delete_log(topic, index)

    def _stop_partition(self, p: Partition) -> None:
        key = (p.topic, p.index)
        self._remove_fetcher(key)
        self._led.discard(key)
        p.leader_id = -1
        p.pending_isr = None
        p.remote_replicas = {}
        self.produce_purgatory.check_and_complete(p.produce_key)
        self.broker.fetch_purgatory.check_and_complete(p.fetch_key)

    def _precreate_logs(self, states: list[PartitionState], topic_configs: Mapping[str, dict[str, Any]]) -> None:
        """Logs of partitions new to this broker, created per topic with one directory fsync (a
        10,000-partition topic would otherwise cost 10,000 fsyncs on the loop)."""
        broker = self.broker
        missing: dict[str, list[int]] = {}
        for st in states:
            if self.node_id in st.replicas and (st.topic, st.partition) not in broker.partitions:
                if broker.log_manager.get_log(st.topic, st.partition) is None:
                    missing.setdefault(st.topic, []).append(st.partition)
        for topic, indexes in missing.items():
            meta = broker.topics.by_name.get(topic)
            overrides = meta.configs if meta is not None else topic_configs.get(topic, {})
            try:
                _, log_config = broker._resolve_topic_configs(overrides)
                broker.log_manager.create_logs(topic, indexes, log_config)
            except KafkaError as e:
                # each partition is tried again (and fails alone) by _create_partition
                log.warning("could not create the logs of %d partitions of %s: %s", len(indexes), topic, e)

    def _create_partition(self, st: PartitionState, overrides: dict[str, Any]) -> Partition:
        broker = self.broker
        registry = broker.topics
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
        effective, log_config = broker._resolve_topic_configs(meta.configs)
        log_ = broker.log_manager.get_or_create_log(st.topic, st.partition, log_config)
        p = Partition(st.topic, st.partition, meta.topic_id, log_, broker)
        p.update_topic_configs(effective)
        broker.partitions[(st.topic, st.partition)] = p
        return p

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
        if state is None or p.deleted or self.broker.partitions.get((p.topic, p.index)) is not p:
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
            p = self.broker.partitions.get(key)
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
