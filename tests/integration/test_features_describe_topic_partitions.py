"""DescribeTopicPartitions (API 75, KIP-966) on our broker and Apache Kafka 4.3.1 (issue 30): the same
pages, cursors and errors on the wire, and kafka-topics --describe (which prefers this API) printing
the same partition lines."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

from confluent_kafka.admin import AdminClient, NewTopic

from kafka_wire.protocol.messages import describe_topic_partitions_request as q
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until

# Kafka's supported operations on a topic, with no authorizer: READ..ALTER_CONFIGS except CLUSTER_ACTION
ALL_TOPIC_OPERATIONS = sum(1 << op for op in (3, 4, 5, 6, 7, 8, 10, 11))


def _shape(r: Any) -> tuple[list[tuple[str, int, list[int], bool]], tuple[str, int] | None]:
    """(topic, error, partition indexes, is_internal) per topic, and the next cursor."""
    topics = [(t.name, t.error_code, [p.partition_index for p in t.partitions], t.is_internal) for t in r.topics]
    cursor = None if r.next_cursor is None else (r.next_cursor.topic_name, r.next_cursor.partition_index)
    return topics, cursor


def test_describe_topic_partitions_pages_and_errors(either_broker: Any) -> None:
    bootstrap = either_broker.bootstrap_servers
    prefix = f"dtp-{uuid.uuid4().hex[:8]}"
    a, b, missing = f"{prefix}-a", f"{prefix}-b", f"{prefix}-z"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.create_topics([NewTopic(a, 3, 1), NewTopic(b, 2, 1)]).values():
        f.result(30)
    conn = w.connect(bootstrap)
    try:

        def ask(names: list[str], limit: int, cursor: tuple[str, int] | None = None) -> Any:
            req = q.DescribeTopicPartitionsRequest(
                topics=[q.TopicRequest(n) for n in names],
                response_partition_limit=limit,
                cursor=None if cursor is None else q.Cursor(*cursor),
            )
            return conn.request(75, req, 0)

        wait_until(lambda: _shape(ask([a, b], 10))[0][1][2] == [0, 1], 20, 0.1, "topics described")
        # named topics come back sorted; 4 partitions per page: a's 3, then b's first, cursor at b-1
        first = ask([b, missing, a], 4)
        assert _shape(first) == ([(a, 0, [0, 1, 2], False), (b, 0, [0], False)], (b, 1))
        assert all(t.topic_id != b"\x00" * 16 for t in first.topics)
        assert {t.topic_authorized_operations for t in first.topics} == {ALL_TOPIC_OPERATIONS}
        p0 = first.topics[0].partitions[0]
        assert p0.leader_id >= 0 and p0.replica_nodes == [p0.leader_id] == p0.isr_nodes
        assert p0.eligible_leader_replicas == [] and p0.last_known_elr == [] and p0.offline_replicas == []
        # the next page from the cursor: topics before it skipped, then the unknown one
        second = ask([b, missing, a], 4, (b, 1))
        assert _shape(second) == ([(b, 0, [1], False), (missing, 3, [], False)], None)
        # a page that ends exactly at a topic's end: the cursor names the next topic at 0
        assert _shape(ask([a, b], 3)) == ([(a, 0, [0, 1, 2], False)], (b, 0))
        # every topic (empty list) includes ours; a limit below 1 still answers 1 partition
        everything = ask([], 2000)
        assert {a, b} <= {t.name for t in everything.topics} and missing not in {t.name for t in everything.topics}
        assert sum(len(t.partitions) for t in ask([a], 0).topics) == 1
        # errors: an invalid name, a cursor outside the list, a negative cursor partition
        assert _shape(ask(["bad name!"], 10)) == ([("bad name!", 17, [], False)], None)
        assert _shape(ask([a], 10, (b, 0))) == ([(a, 42, [], False)], None)
        assert _shape(ask([a], 10, (a, -1))) == ([(a, 42, [], False)], None)
    finally:
        conn.close()


def _partition_lines(out: str, topic: str) -> list[tuple[str, ...]]:
    """(partition, leader, replicas, isr, elr, last known elr) of each partition line."""
    pattern = (
        rf"Topic: {re.escape(topic)}\tPartition: (\d+)\tLeader: (\d+)\tReplicas: (\S+)\tIsr: (\S+)"
        r"\tElr: ?(\S*)\tLastKnownElr: ?(\S*)"
    )
    return [m.groups() for line in out.splitlines() if (m := re.fullmatch(pattern, line.strip()))]


def test_kafka_topics_describe(either_broker: Any, java_client: Any) -> None:
    """Kafka 4's kafka-topics prints the ELR columns only from a DescribeTopicPartitions answer."""
    bootstrap = either_broker.bootstrap_servers
    topic = f"dtp-cli-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})  # kept alive until the result is in
    admin.create_topics([NewTopic(topic, 3, 1)])[topic].result(30)
    deadline = time.monotonic() + 20
    while True:
        out = java_client.topics(bootstrap, "--describe", "--topic", topic).stdout
        if len(_partition_lines(out, topic)) == 3 or time.monotonic() > deadline:
            break
    head = [line for line in out.splitlines() if line.startswith(f"Topic: {topic}\tTopicId:")]
    assert len(head) == 1 and "\tPartitionCount: 3\tReplicationFactor: 1\t" in head[0], out
    lines = _partition_lines(out, topic)
    assert [x[0] for x in lines] == ["0", "1", "2"], out
    for _, leader, replicas, isr, elr, last_known in lines:
        assert leader == replicas == isr and elr == last_known == "", out
