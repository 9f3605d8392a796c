"""log.cleaner.io.max.bytes.per.second on our broker (issue 30): set with IncrementalAlterConfigs on
the BROKER resource, it throttles the cleaning of a compacted topic; deleted again, the throttled
cleaning wakes and finishes at once. (Kafka's Throttler on a fake clock: tests/unit/test_cleaner_throttle.py;
Apache Kafka shows no cleaner throttle on the wire, so there is nothing to compare with it here.)"""

from __future__ import annotations

import time
import uuid

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded import EmbeddedBroker
from broker_embedded.log.throttler import UNLIMITED
from tests.integration.clients_util import wait_until
from tests.integration.test_dynamic_broker_config import _incremental

RATE = "10.0"  # bytes/s: the cleaner sleeps 40+ s after its first batch read (one record: ~450 B)


def _set_broker_config(bootstrap: str, node: str, key: str, value: str | None) -> None:
    """IncrementalAlterConfigs SET (DELETE with None) of one config of this broker, accepted."""
    assert _incremental(bootstrap, node, key, value) == (0, None)


def test_cleaner_io_rate_throttles_and_lifts_live() -> None:
    with EmbeddedBroker(num_partitions=1) as b:
        bootstrap, node = b.bootstrap_servers, str(b.broker.node_id)
        throttler = b.broker.cleaner_pool.throttler
        _set_broker_config(bootstrap, node, "log.cleaner.io.max.bytes.per.second", RATE)
        wait_until(lambda: throttler.desired_rate_per_sec == float(RATE), timeout=10, what="the rate applied")
        topic = f"compacted-{uuid.uuid4().hex[:8]}"
        config = {"cleanup.policy": "compact", "segment.bytes": "4096", "min.cleanable.dirty.ratio": "0.01"}
        admin = AdminClient({"bootstrap.servers": bootstrap})
        admin.create_topics([NewTopic(topic, 1, 1, config=config)])[topic].result(30)
        producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 4000, "acks": 1})
        for i in range(250):  # ~100 kB over ~25 segments, 125 keys
            producer.produce(topic, b"v" * 400, key=b"k%d" % (i % 125))
        assert producer.flush(30) == 0
        # the first maintenance pass (1 s) hands the log to the cleaner: its first batch read
        # finds the check period (since the broker started, a few seconds) above 10 B/s, and sleeps
        wait_until(lambda: throttler.throttle_count > 0, timeout=30, what="a cleaner sleep")
        log = b.broker.log_manager.get_log(topic, 0)
        assert log is not None
        assert b.broker.cleaner_pool.in_progress() == {id(log)}  # asleep for more than 30 s
        started = time.monotonic()
        _set_broker_config(bootstrap, node, "log.cleaner.io.max.bytes.per.second", None)
        wait_until(lambda: throttler.desired_rate_per_sec == UNLIMITED, timeout=10, what="the default back")
        # woken at once: every cleanable segment cleaned within seconds, not after the sleep
        wait_until(
            lambda: log.cleaner_checkpoint >= log.active_segment.base_offset,
            timeout=10,
            what="the cleaning finished",
        )
        print(f"cleaning finished {time.monotonic() - started:.1f} s after the limit was lifted")
