"""Helpers for the cluster tests: short liveness timeouts, a streaming idempotent producer, and
bounded waits on the controller's view."""

from __future__ import annotations

import threading
import time
from typing import Any

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded import EmbeddedCluster
from kafka_wire.client import BrokerConnection
from kafka_wire.protocol.messages import metadata_request

# short liveness timeouts so failover tests take seconds; heartbeats well inside the session
FAST = {
    "broker.session.timeout.ms": 1500,
    "broker.heartbeat.interval.ms": 150,
    "replica.lag.time.max.ms": 3000,
    "replica.fetch.backoff.ms": 100,
    # fewer __consumer_offsets partitions to replicate on a 2-core test machine
    "offsets.topic.num.partitions": 4,
}


def cluster(brokers: int = 3, **configs: Any) -> EmbeddedCluster:
    return EmbeddedCluster(brokers=brokers, **{**FAST, **configs})


def create_topic(bootstrap: str, name: str, partitions: int = 1, rf: int = 3, **configs: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    fs = admin.create_topics(
        [NewTopic(name, partitions, rf, config={k.replace("_", "."): str(v) for k, v in configs.items()})]
    )
    fs[name].result(20)


def wait_full_isr(c: EmbeddedCluster, topic: str, partitions: int = 1, size: int = 3, timeout: float = 30.0) -> None:
    c.wait_for(
        lambda: all(len(c.isr(topic, p)) == size and c.leader(topic, p) >= 0 for p in range(partitions)),
        timeout=timeout,
        what=f"{topic}: every partition led with an ISR of {size}",
    )


def wait_metadata_everywhere(c: EmbeddedCluster, topic: str, partitions: int, timeout: float = 30.0) -> None:
    """Wait until every running broker answers Metadata for `topic` with its `partitions` partitions and the
    controller's leaders and ISRs. The controller's view (wait_full_isr) comes first; each broker learns it
    from the metadata log a moment later, as a Kafka broker does, and under load a client asking another
    broker right after saw UNKNOWN_TOPIC_OR_PARTITION (session 19's CI-equivalent run 1)."""
    request = metadata_request.MetadataRequest(
        topics=[metadata_request.MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False
    )

    def broker_view(broker_id: int) -> dict[int, tuple[int, list[int]]] | None:
        with BrokerConnection.from_bootstrap(c.bootstrap(broker_id), timeout=5) as conn:
            (t,) = conn.request(3, request).topics
        if t.error_code != 0:
            return None
        return {p.partition_index: (p.leader_id, sorted(p.isr_nodes)) for p in t.partitions}

    def everywhere() -> bool:
        expected = {p: (c.leader(topic, p), sorted(c.isr(topic, p))) for p in range(partitions)}
        running = [b for b in c.live_brokers() if c.is_running(b)]
        return all(broker_view(b) == expected for b in running)

    c.wait_for(everywhere, timeout=timeout, what=f"{topic}: every running broker's metadata as the controller's")


class StreamingProducer:
    """An idempotent acks=all confluent-kafka producer in a thread, writing unique sequence payloads
    and recording every acknowledged (partition, offset, payload)."""

    def __init__(self, bootstrap: str, topic: str, extra: dict[str, Any] | None = None) -> None:
        self.topic = topic
        self.acked: list[tuple[int, int, bytes]] = []
        self.errors: list[str] = []
        self.sent = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.producer = Producer(
            {
                "bootstrap.servers": bootstrap,
                "acks": "all",
                "enable.idempotence": True,
                "linger.ms": 5,
                "message.timeout.ms": 60000,
                "reconnect.backoff.ms": 20,
                "reconnect.backoff.max.ms": 200,
                "retry.backoff.ms": 20,
                "retry.backoff.max.ms": 200,
                "topic.metadata.refresh.interval.ms": 1000,
                **(extra or {}),
            }
        )
        self.thread = threading.Thread(target=self._run, name="cluster-producer", daemon=True)

    def _on_delivery(self, err: Any, msg: Any) -> None:
        with self._lock:
            if err is None:
                self.acked.append((msg.partition(), msg.offset(), msg.value()))
            else:
                self.errors.append(str(err))

    def _run(self) -> None:
        seq = 0
        while not self._stop.is_set():
            try:
                self.producer.produce(self.topic, value=b"seq-%09d" % seq, on_delivery=self._on_delivery)
                self.sent += 1
                seq += 1
            except BufferError:
                self.producer.poll(0.05)
                continue
            self.producer.poll(0)
            if seq % 50 == 0:
                time.sleep(0.005)  # a steady stream, not a GIL hog
        self.producer.poll(0)

    def start(self) -> StreamingProducer:
        self.thread.start()
        return self

    def stop(self, flush_timeout: float = 30.0) -> None:
        self._stop.set()
        self.thread.join(timeout=10)
        self.producer.flush(flush_timeout)

    def count(self) -> int:
        with self._lock:
            return len(self.acked)

    def acked_in_log_order(self) -> list[bytes]:
        """The acknowledged values of a one-partition topic in the order its log must hold them.

        An idempotent producer keeps a partition's order, so that is the order sent (the values
        are sequence numbers), and the offsets librdkafka reported must agree with it. A record
        reported without an offset (None: its batch's answer was lost, e.g. a leader killed, and a
        later batch of the partition proved it written -- librdkafka's implicit ack) is placed by
        its sequence alone."""
        with self._lock:
            by_seq = sorted(self.acked, key=lambda a: a[2])
        offsets = [o for _, o, _ in by_seq if o is not None]
        assert offsets == sorted(offsets), "librdkafka reported offsets out of the order sent"
        return [v for _, _, v in by_seq]

    def wait_for_acks(self, n: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.count() >= n:
                return
            time.sleep(0.01)
        raise AssertionError(
            f"only {self.count()} of {n} records acknowledged within {timeout}s; errors {self.errors[-3:]}"
        )
