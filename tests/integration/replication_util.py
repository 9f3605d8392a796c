"""Several EmbeddedBrokers in this process with a fake controller that applies partition states by
hand (`ReplicaManager.apply_partition_states`) and commits AlterPartition like a controller would:
enough to drive the replica data path (fetchers, ISR, HW, truncation) without R2's controller.

Each broker runs on its own loop thread; the fake controller's state is shared under a lock and
pushed to a broker with `call_soon_threadsafe`, never blocking the loop that asked.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from broker_embedded import EmbeddedBroker
from broker_embedded.broker import Broker
from broker_embedded.replication import BrokerEndpoint, PartitionState
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import fetch_request, produce_request
from kafka_wire.records import build_batch, decode_batches, iter_batches

FAST = {
    "replica.fetch.wait.max.ms": 100,
    "replica.fetch.backoff.ms": 50,
    "replica.lag.time.max.ms": 1000,
    "replica.socket.timeout.ms": 5000,
}


class InProcessCluster:
    def __init__(self, base_dir: Path, n: int = 3, **configs: Any) -> None:
        self.base_dir = base_dir
        self.configs = {**FAST, **configs}
        self.brokers: dict[int, EmbeddedBroker | None] = {}
        self.lock = threading.Lock()
        self.states: dict[tuple[str, int], PartitionState] = {}
        self.topic_configs: dict[str, dict[str, Any]] = {}
        self.endpoints: dict[int, BrokerEndpoint] = {}
        self.alter_calls: list[tuple[int, str, int, tuple[int, ...]]] = []
        self.alter_enabled = True
        self.ineligible: set[int] = set()  # "fenced" brokers the controller refuses in an ISR
        for i in range(n):
            self.start(i)

    # --- brokers --------------------------------------------------------------------------
    def log_dir(self, node_id: int) -> Path:
        return self.base_dir / f"broker-{node_id}"

    def start(self, node_id: int, before_states: Callable[[Broker], Any] | None = None) -> EmbeddedBroker:
        """Start (or restart, on the same log dir and a new port) a broker and push it the states;
        `before_states` runs on the broker first (e.g. to emulate data lost in a power failure)."""
        b = EmbeddedBroker(log_dir=self.log_dir(node_id), broker_id=node_id, **self.configs)
        b.start()
        if before_states is not None:
            b.call(before_states)
        self.brokers[node_id] = b
        with self.lock:
            self.endpoints[node_id] = BrokerEndpoint(node_id, "127.0.0.1", b.port or 0)
        b.call(self._install_alter, node_id)
        self.push_all()
        return b

    def stop(self, node_id: int) -> None:
        b = self.brokers.get(node_id)
        if b is not None:
            b.stop()
        self.brokers[node_id] = None
        with self.lock:
            self.endpoints.pop(node_id, None)

    def close(self) -> None:
        for i in list(self.brokers):
            self.stop(i)

    def __enter__(self) -> InProcessCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def broker(self, node_id: int) -> EmbeddedBroker:
        b = self.brokers[node_id]
        assert b is not None, f"broker {node_id} is stopped"
        return b

    def conn(self, node_id: int) -> BrokerConnection:
        return BrokerConnection.from_bootstrap(self.broker(node_id).bootstrap_servers, timeout=15)

    def running(self) -> list[int]:
        return [i for i, b in self.brokers.items() if b is not None]

    # --- fake controller ------------------------------------------------------------------------
    def create_topic(
        self, name: str, replicas: list[list[int]], configs: dict[str, Any] | None = None
    ) -> list[PartitionState]:
        topic_id = uuid.uuid4().bytes
        with self.lock:
            self.topic_configs[name] = dict(configs or {})
            out = []
            for index, reps in enumerate(replicas):
                st = PartitionState(name, index, topic_id, reps[0], 0, tuple(reps), tuple(reps), 0)
                self.states[(name, index)] = st
                out.append(st)
        self.push_all()
        return out

    def state(self, topic: str, partition: int = 0) -> PartitionState:
        with self.lock:
            return self.states[(topic, partition)]

    def elect(self, topic: str, partition: int, leader: int, isr: Iterable[int] | None = None) -> PartitionState:
        """A leader election: new leader epoch (and partition epoch), ISR as given (default: kept)."""
        with self.lock:
            old = self.states[(topic, partition)]
            new_isr = tuple(isr) if isr is not None else old.isr
            st = PartitionState(
                topic,
                partition,
                old.topic_id,
                leader,
                old.leader_epoch + 1,
                new_isr,
                old.replicas,
                old.partition_epoch + 1,
            )
            self.states[(topic, partition)] = st
        self.push_all()
        return st

    def set_isr(self, topic: str, partition: int, isr: Iterable[int]) -> PartitionState:
        with self.lock:
            old = self.states[(topic, partition)]
            st = PartitionState(
                topic,
                partition,
                old.topic_id,
                old.leader,
                old.leader_epoch,
                tuple(isr),
                old.replicas,
                old.partition_epoch + 1,
            )
            self.states[(topic, partition)] = st
        self.push_all()
        return st

    def _install_alter(self, broker: Broker, node_id: int) -> None:
        async def alter_partition(
            topic: str, partition: int, leader_epoch: int, new_isr: tuple[int, ...], partition_epoch: int
        ) -> PartitionState:
            with self.lock:
                self.alter_calls.append((node_id, topic, partition, tuple(new_isr)))
                if not self.alter_enabled:
                    raise KafkaError("controller unavailable", ErrorCode.REQUEST_TIMED_OUT)
                old = self.states[(topic, partition)]
                if leader_epoch != old.leader_epoch or old.leader != node_id:
                    raise KafkaError("stale leader epoch", ErrorCode.FENCED_LEADER_EPOCH)
                if partition_epoch != old.partition_epoch:
                    raise KafkaError("stale partition epoch", ErrorCode.INVALID_UPDATE_VERSION)
                if any(r in self.ineligible for r in new_isr if r not in old.isr):
                    raise KafkaError("broker is fenced", ErrorCode.INELIGIBLE_REPLICA)
                st = PartitionState(
                    topic,
                    partition,
                    old.topic_id,
                    old.leader,
                    old.leader_epoch,
                    tuple(new_isr),
                    old.replicas,
                    old.partition_epoch + 1,
                )
                self.states[(topic, partition)] = st
            self.push_all(wait=False)
            await asyncio.sleep(0)
            return st

        broker.replica_manager.alter_partition = alter_partition

    def push_all(self, wait: bool = True) -> None:
        """Send the whole image to every running broker (like the controller's metadata push)."""
        with self.lock:
            states = list(self.states.values())
            endpoints = dict(self.endpoints)
            configs = {k: dict(v) for k, v in self.topic_configs.items()}
        for b in list(self.brokers.values()):
            if b is None or b._loop is None:
                continue
            if wait and threading.current_thread().name != "pykafka-broker":
                b.call(lambda br: br.replica_manager.apply_partition_states(states, endpoints, configs))
            else:
                b._loop.call_soon_threadsafe(
                    lambda br=b: br.broker.replica_manager.apply_partition_states(states, endpoints, configs)
                )

    # --- observation ----------------------------------------------------------------------------
    def on(self, node_id: int, fn: Callable[[Broker], Any]) -> Any:
        return self.broker(node_id).call(fn)

    def offsets(self, node_id: int, topic: str, partition: int = 0) -> tuple[int, int]:
        """(LEO, HW) of a replica."""

        def get(br: Broker) -> tuple[int, int]:
            p = br.partition(topic, partition)
            assert p is not None
            return p.log.log_end_offset, p.high_watermark

        return self.on(node_id, get)

    def isr(self, node_id: int, topic: str, partition: int = 0) -> tuple[int, ...]:
        return self.on(node_id, lambda br: br.partition(topic, partition).isr)  # type: ignore[union-attr]

    def log_batches(self, node_id: int, topic: str, partition: int = 0) -> list[tuple[int, int, bytes]]:
        """Every batch of a replica's log as (base offset, partition leader epoch, bytes)."""

        def read(br: Broker) -> bytes:
            p = br.partition(topic, partition)
            assert p is not None
            out = bytearray()
            offset = p.log.log_start_offset
            while offset < p.log.log_end_offset:
                data = bytes(p.log.read(offset, 1 << 20).records)
                if not data:
                    break
                out += data
                last = None
                for _, h in iter_batches(data):
                    last = h
                assert last is not None
                offset = last.next_offset
            return bytes(out)

        data = self.on(node_id, read)
        return [(h.base_offset, h.partition_leader_epoch, data[pos : pos + h.size]) for pos, h in iter_batches(data)]

    def values(self, node_id: int, topic: str, partition: int = 0) -> list[tuple[int, bytes | None]]:
        out = []
        for _, _, data in self.log_batches(node_id, topic, partition):
            out.extend((r.offset, r.value) for r in decode_batches(data))
        return out


def wait_for(cond: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def batch(n: int, prefix: str = "v", start: int = 0, **kw: Any) -> bytes:
    now = int(time.time() * 1000)
    return build_batch([(now, f"k{start + i}".encode(), f"{prefix}{start + i}".encode(), []) for i in range(n)], **kw)


def produce_request_for(
    topic: str, partition: int, records: bytes, acks: int = -1, timeout_ms: int = 5000
) -> produce_request.ProduceRequest:
    return produce_request.ProduceRequest(
        acks=acks,
        timeout_ms=timeout_ms,
        topic_data=[
            produce_request.TopicProduceData(
                name=topic, partition_data=[produce_request.PartitionProduceData(index=partition, records=records)]
            )
        ],
    )


def produce(
    conn: BrokerConnection,
    topic: str,
    partition: int,
    records: bytes,
    acks: int = -1,
    timeout_ms: int = 5000,
    version: int = 12,
) -> Any:
    resp = conn.request(0, produce_request_for(topic, partition, records, acks, timeout_ms), version=version)
    return resp.responses[0].partition_responses[0]


def consumer_fetch(
    conn: BrokerConnection,
    topic: str,
    partition: int,
    offset: int,
    current_leader_epoch: int = -1,
    replica_id: int = -1,
    version: int = 12,
    topic_id: bytes = b"\x00" * 16,
) -> Any:
    req = fetch_request.FetchRequest(
        replica_id=replica_id,
        max_wait_ms=0,
        min_bytes=0,
        max_bytes=8 << 20,
        topics=[
            fetch_request.FetchTopic(
                topic=topic,
                topic_id=topic_id,
                partitions=[
                    fetch_request.FetchPartition(
                        partition=partition,
                        fetch_offset=offset,
                        current_leader_epoch=current_leader_epoch,
                        partition_max_bytes=4 << 20,
                    )
                ],
            )
        ],
    )
    resp = conn.request(1, req, version=version)
    return resp, resp.responses[0].partitions[0]
