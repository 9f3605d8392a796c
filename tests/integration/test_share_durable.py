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


def _described(conn: Any, group: str) -> Any:
    from kafka_wire.protocol.messages import share_group_describe_request as describe_rq

    g = conn.request(77, describe_rq.ShareGroupDescribeRequest(group_ids=[group]), 1).groups[0]
    members = sorted(
        (m.member_id, m.member_epoch, m.client_id, m.client_host, tuple(m.subscribed_topic_names), repr(m.assignment))
        for m in g.members
    )
    return g.error_code, g.group_state, g.group_epoch, g.assignment_epoch, g.assignor_name, members


def test_share_group_membership_survives_a_broker_restart(tmp_path: Path) -> None:
    """Kafka's share group records in __consumer_offsets: DescribeShareGroups answers the same after
    a restart, and a member carries on with the epoch it had (no UNKNOWN_MEMBER_ID, no rejoin)."""
    from kafka_wire.client import BrokerConnection
    from kafka_wire.errors import ErrorCode
    from tests.integration.test_share_bad_input import _heartbeat, _member

    topic, group = _name("m"), _name("gm")
    a, b, c = _member(), _member(), _member()
    with EmbeddedBroker(log_dir=tmp_path, num_partitions=1) as broker:
        create_topic(broker.bootstrap_servers, topic, 2)
        with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=30) as conn:
            for m in (a, b, c):
                assert _heartbeat(conn, group, m, 0, [topic]).error_code == ErrorCode.NONE
            assert _heartbeat(conn, group, c, -1, None).error_code == ErrorCode.NONE  # c leaves
            a_epoch = _heartbeat(conn, group, a, 1, None).member_epoch  # a catches up with the group
            before = _described(conn, group)
    assert before[0] == ErrorCode.NONE and [m[0] for m in before[5]] == sorted([a, b])
    with EmbeddedBroker(log_dir=tmp_path, num_partitions=1) as broker:
        with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=30) as conn:
            assert _described(conn, group) == before
            back = _heartbeat(conn, group, a, a_epoch, None)
            assert back.error_code == ErrorCode.NONE and back.member_epoch == a_epoch
