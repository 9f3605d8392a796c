"""Share-partition state survives a restart of a single broker (ours only: Apache Kafka's restart is
its own business): acknowledged records are not delivered again, released ones come back with
their delivery count, read back from ``__share_group_state``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from confluent_kafka import AcknowledgeType, ShareConsumer

from broker_embedded import EmbeddedBroker
from tests.integration.test_kip848_consumer_group import create_topic
from tests.integration.test_share_groups import _name, _poll, _produce, _share_group


def _explicit(bootstrap: str, group: str, topic: str) -> ShareConsumer:
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, "share.acknowledgement.mode": "explicit"})
    c.subscribe([topic])
    return c


def _consume(c: ShareConsumer, want: int, ack: Any) -> dict[int, int]:
    """value -> delivery count of the first `want` records; each acknowledged as ack(value)."""
    got: dict[int, int] = {}
    deadline = time.monotonic() + 30
    while len(got) < want and time.monotonic() < deadline:
        for m in _poll(c):
            got[int(m.value())] = m.delivery_count()
            c.acknowledge(m, ack(int(m.value())))
        c.commit_sync(30)
    return got


def test_share_state_survives_a_broker_restart(tmp_path: Path) -> None:
    topic, group = _name("d"), _name("gd")
    with EmbeddedBroker(log_dir=tmp_path, num_partitions=1) as b:
        bs = b.bootstrap_servers
        create_topic(bs, topic, 1)
        _share_group(b, group)
        _produce(bs, topic, range(10))
        c = _explicit(bs, group, topic)
        try:
            first = _consume(c, 10, lambda v: AcknowledgeType.ACCEPT if v < 5 else AcknowledgeType.RELEASE)
        finally:
            c.close()
        assert first == dict.fromkeys(range(10), 1)
    with EmbeddedBroker(log_dir=tmp_path, num_partitions=1) as b:
        bs = b.bootstrap_servers
        _produce(bs, topic, range(10, 11))
        c = _explicit(bs, group, topic)
        try:
            again = _consume(c, 6, lambda v: AcknowledgeType.ACCEPT)
        finally:
            c.close()
        # 0-4 were accepted before the restart; 5-9 released once: their second delivery
        assert again == {5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 1}
