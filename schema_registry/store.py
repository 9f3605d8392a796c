"""The ``_schemas`` topic: one compacted partition holding every registry change, read back in order.

Uses confluent-kafka (librdkafka) rather than ``kafka_wire``'s client because that client has no
Produce or CreateTopics path yet; the registry must also run against any Kafka, which librdkafka
covers. A background thread consumes the partition from the start and applies each record to the
sans-IO ``Registry`` under ``lock``; ``write`` produces records (acks=all) and returns only once
they have been read back and applied, so an answer never precedes its own write (read-your-writes,
like Confluent's KafkaStore).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from . import errors as E
from .core import Record, Registry


class KafkaStore:
    def __init__(
        self,
        registry: Registry,
        bootstrap_servers: str,
        topic: str = "_schemas",
        replication_factor: int = 1,
        timeout_s: float = 30.0,
    ) -> None:
        self.registry = registry
        self.topic = topic
        self.timeout_s = timeout_s
        self.lock = threading.RLock()
        self.applied = threading.Condition(self.lock)
        self.next_offset = 0
        self._stop = threading.Event()
        self.error: BaseException | None = None
        common: dict[str, str | int | float | bool] = {"bootstrap.servers": bootstrap_servers}
        self._create_topic(AdminClient(common), replication_factor)
        self.producer = Producer({**common, "acks": "all", "linger.ms": 0, "enable.idempotence": False})
        self.consumer = Consumer(
            {
                **common,
                "group.id": "schema-registry-reader",
                "enable.auto.commit": False,
                "isolation.level": "read_committed",
            }
        )
        self.consumer.assign([TopicPartition(topic, 0, 0)])
        # watermarks come from a second handle: a Consumer blocked in consume() on the reader thread
        # does not answer get_watermark_offsets() from another thread
        self.watermarks = Consumer({**common, "group.id": "schema-registry-watermarks", "enable.auto.commit": False})
        self.thread = threading.Thread(target=self._run, name="schemas-reader", daemon=True)
        self.thread.start()
        self.catch_up()

    def _create_topic(self, admin: AdminClient, replication_factor: int) -> None:
        new = NewTopic(self.topic, 1, replication_factor, config={"cleanup.policy": "compact"})
        for fut in admin.create_topics([new], operation_timeout=self.timeout_s).values():
            try:
                fut.result(timeout=self.timeout_s)
            except KafkaException as e:
                if e.args[0].name() != "TOPIC_ALREADY_EXISTS":
                    raise

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                msgs = self.consumer.consume(500, timeout=0.1)
            except Exception as e:  # noqa: BLE001 - surfaced to callers as a store error
                self.error = e
                time.sleep(0.2)
                continue
            good = [m for m in msgs if m.error() is None]
            if not good:
                continue
            with self.lock:
                for m in good:
                    raw_key, raw_value = m.key(), m.value()
                    key = json.loads(raw_key) if raw_key else None
                    value = json.loads(raw_value) if raw_value else None
                    if isinstance(key, dict):
                        self.registry.apply(key, value)
                    self.next_offset = m.offset() + 1  # type: ignore[operator]  # a consumed message has an offset
                self.applied.notify_all()

    def _wait_applied(self, offset: int) -> None:
        deadline = time.monotonic() + self.timeout_s
        with self.lock:
            while self.next_offset < offset:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise E.RegistryError(
                        500, E.OPERATION_TIMEOUT, f"Timed out reading {self.topic} up to offset {offset}"
                    )
                self.applied.wait(min(left, 0.5))

    def catch_up(self) -> None:
        """Block until every record now in the topic has been applied."""
        try:
            _, high = self.watermarks.get_watermark_offsets(TopicPartition(self.topic, 0), timeout=self.timeout_s)
        except KafkaException as e:
            raise E.RegistryError(500, E.STORE_ERROR, f"Error while reading {self.topic}: {e}") from None
        self._wait_applied(high)

    def write(self, records: list[Record]) -> None:
        if not records:
            return
        offsets: list[int] = []
        failures: list[str] = []

        def done(err: Any, msg: Any) -> None:
            if err is not None:
                failures.append(str(err))
            else:
                offsets.append(msg.offset())

        for key, value in records:
            self.producer.produce(
                self.topic,
                key=json.dumps(key, separators=(",", ":")).encode(),
                value=None if value is None else json.dumps(value, separators=(",", ":")).encode(),
                partition=0,
                on_delivery=done,
            )
        left = self.producer.flush(self.timeout_s)
        if failures or left or len(offsets) != len(records):
            raise E.RegistryError(500, E.STORE_ERROR, f"Error while writing to {self.topic}: {failures or 'timed out'}")
        self._wait_applied(max(offsets) + 1)

    def close(self) -> None:
        self._stop.set()
        self.thread.join(5)
        self.consumer.close()
        self.watermarks.close()
        self.producer.flush(5)
