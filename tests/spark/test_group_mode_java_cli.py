"""Kafka's own `kafka-consumer-groups --describe` (the Java tool, JVM peer) shows the group of a
pykafka group-mode query on our broker: its partitions, committed offsets, log end offsets and lag,
the same numbers Kafka's AdminClient (librdkafka) reads."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import ConsumerGroupTopicPartitions, TopicPartition
from confluent_kafka.admin import AdminClient

from broker_embedded import EmbeddedBroker
from tests.peers.fixtures import JavaClient
from tests.peers.test_java_clients import _describe_rows
from tests.spark.source_helpers import create_topic, produce, source_options

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


def test_consumer_groups_cli_describes_a_group_mode_query(
    spark: Any, broker: EmbeddedBroker, java_client: JavaClient, topic_name: str, tmp_path: Path
) -> None:
    group = f"gm-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic_name, 3)
    produce(broker, topic_name, [(i % 3, None, b"v%d" % i, None) for i in range(300)])
    opts = source_options(broker, subscribe=topic_name, startingOffsets="earliest", maxOffsetsPerTrigger="60")
    opts["kafka.group.id"] = group
    opts["groupMode"] = "true"
    q = (
        spark.readStream.format("pykafka")
        .options(**opts)
        .load()
        .writeStream.format("noop")
        .option("checkpointLocation", str(tmp_path / "ck"))
        .trigger(availableNow=True)
        .start()
    )
    assert q.awaitTermination(240)
    assert q.exception() is None
    assert sum(int(p["numInputRows"]) for p in q.recentProgress) == 300
    # 30 more records per partition that nobody has read yet
    produce(broker, topic_name, [(i % 3, None, b"w%d" % i, None) for i in range(90)])
    out = java_client.consumer_groups(broker.bootstrap_servers, "--describe", "--group", group).stdout
    rows = _describe_rows(out, group)
    assert set(rows) == {0, 1, 2}, out
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    request = [ConsumerGroupTopicPartitions(group, [TopicPartition(topic_name, p) for p in range(3)])]
    committed = {
        tp.partition: tp.offset for tp in admin.list_consumer_group_offsets(request)[group].result(30).topic_partitions
    }
    for p, row in rows.items():
        assert row["TOPIC"] == topic_name
        assert int(row["LOG-END-OFFSET"]) == 130
        assert int(row["CURRENT-OFFSET"]) == committed[p]
        # the query committed what it finished: at least the batches before the last one
        assert 60 <= committed[p] <= 100
        assert int(row["LAG"]) == 130 - committed[p]
