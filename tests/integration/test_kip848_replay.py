"""KIP-848 groups survive a broker restart: the records in __consumer_offsets are replayed on load
(ours only: it restarts our broker on its log directory)."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

from broker_embedded import EmbeddedBroker
from kafka_wire.protocol.messages import consumer_group_describe_request as cgd
from kafka_wire.protocol.messages import consumer_group_heartbeat_request as cgh
from tests.integration.test_kip848_consumer_group import create_topic
from tests.integration.wire_util import connect

PROTOCOLS = {"group.coordinator.rebalance.protocols": "classic,consumer"}


def _heartbeat(bs: str, **fields: object) -> cgh.ConsumerGroupHeartbeatResponse:
    with connect(bs) as conn:
        deadline = time.monotonic() + 30
        while True:
            r = conn.request(68, cgh.ConsumerGroupHeartbeatRequest(**fields), version=1)
            if r.error_code not in (14, 15):  # coordinator loading / not available yet
                return r
            assert time.monotonic() < deadline, r
            time.sleep(0.1)


def _describe(bs: str, group: str) -> object:
    with connect(bs) as conn:
        (g,) = conn.request(69, cgd.ConsumerGroupDescribeRequest(group_ids=[group])).groups
    return g


def _owned(r: cgh.ConsumerGroupHeartbeatResponse) -> list[cgh.TopicPartitions]:
    assert r.assignment is not None
    return [
        cgh.TopicPartitions(topic_id=t.topic_id, partitions=list(t.partitions)) for t in r.assignment.topic_partitions
    ]


def test_consumer_group_survives_a_restart(tmp_path: Path) -> None:
    group, a, b = "kip848-replay", uuid.uuid4().hex, uuid.uuid4().hex
    join = {"group_id": group, "member_epoch": 0, "rebalance_timeout_ms": 30000, "topic_partitions": []}
    with EmbeddedBroker(log_dir=tmp_path, num_partitions=4, **PROTOCOLS) as broker:
        bs = broker.bootstrap_servers
        create_topic(bs, "replayed", 4)
        ra = _heartbeat(bs, member_id=a, subscribed_topic_names=["replayed"], **join)
        rb = _heartbeat(bs, member_id=b, subscribed_topic_regex="repl.*", **join)
        # a revokes what b is to get, then both reconcile to the last epoch
        ra = _heartbeat(bs, group_id=group, member_id=a, member_epoch=ra.member_epoch, topic_partitions=_owned(ra))
        ra = _heartbeat(bs, group_id=group, member_id=a, member_epoch=ra.member_epoch, topic_partitions=_owned(ra))
        rb = _heartbeat(bs, group_id=group, member_id=b, member_epoch=rb.member_epoch, topic_partitions=[])
        before = _describe(bs, group)
        assert before.group_state == "Stable" and sorted(m.member_epoch for m in before.members) == [3, 3]
    with EmbeddedBroker(log_dir=tmp_path, num_partitions=4, **PROTOCOLS) as broker:
        after = _describe(broker.bootstrap_servers, group)
        assert after == before
        # the members go on with their epochs, as if nothing happened
        r = _heartbeat(broker.bootstrap_servers, group_id=group, member_id=a, member_epoch=3)
        assert (r.error_code, r.member_epoch) == (0, 3)
