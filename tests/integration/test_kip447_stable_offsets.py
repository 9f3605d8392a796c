"""KIP-447 stable offsets: OffsetFetch with ``require_stable`` answers UNSTABLE_OFFSET_COMMIT for a
partition whose offsets a still-open transaction has committed, on our broker and on Apache Kafka
4.3.1 (``either_broker``), on the wire and through librdkafka (which asks for stable offsets when
``isolation.level=read_committed``, its default, and retries until the transaction is decided).

Without it a member taking a partition over reads the previous offset as final and processes the
transaction's input again: duplicates in a consume-transform-produce loop.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition

from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import offset_fetch_request as rq
from tests.integration.clients_util import create_topic

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    return either_broker


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


class OpenTransaction:
    """A transaction that has sent `offset` for (topic, 0) of `group` and is not yet decided."""

    def __init__(self, bootstrap: str, topic: str, group: str, offset: int) -> None:
        self.producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": _name("tid"), "linger.ms": 0})
        self.producer.init_transactions(30)
        self.producer.begin_transaction()
        self.producer.produce(topic, value=b"inside", partition=1)
        meta = Consumer({"bootstrap.servers": bootstrap, "group.id": group})
        try:
            self.producer.send_offsets_to_transaction(
                [TopicPartition(topic, 0, offset)], meta.consumer_group_metadata(), 30
            )
        finally:
            meta.close()


@pytest.fixture
def open_txn(broker: Any) -> Iterator[tuple[str, str, OpenTransaction]]:
    topic, group = _name("stable"), _name("g")
    create_topic(broker, topic, 2)
    txn = OpenTransaction(broker.bootstrap_servers, topic, group, 42)
    try:
        yield topic, group, txn
    finally:
        try:  # each test decides the transaction; one that failed first leaves it open
            txn.producer.abort_transaction(10)
        except KafkaException:
            pass


def _offset_fetch(conn: BrokerConnection, version: int, group: str, topic: str | None, stable: bool) -> list[Any]:
    """The partitions of the (single) group's answer to OffsetFetch at `version`."""
    if version >= 8:
        topics = None if topic is None else [rq.OffsetFetchRequestTopics(name=topic, partition_indexes=[0, 1])]
        req = rq.OffsetFetchRequest(groups=[rq.OffsetFetchRequestGroup(group_id=group, topics=topics)])
    else:
        topics = None if topic is None else [rq.OffsetFetchRequestTopic(name=topic, partition_indexes=[0, 1])]
        req = rq.OffsetFetchRequest(group_id=group, topics=topics)
    req.require_stable = stable
    resp = conn.request(9, req, version)
    if version >= 8:
        assert resp.groups[0].error_code == ErrorCode.NONE
        topics_out = resp.groups[0].topics
    else:
        assert resp.error_code == ErrorCode.NONE
        topics_out = resp.topics
    return sorted(
        ((t.name, p.partition_index, p.committed_offset, p.error_code) for t in topics_out for p in t.partitions),
    )


def _until_stable(conn: BrokerConnection, version: int, group: str, topic: str | None) -> list[Any]:
    """The stable answer once the transaction's markers have landed. EndTxn returns before the
    markers are written (on Apache Kafka as on ours): until then every answer must be
    UNSTABLE_OFFSET_COMMIT, never the old offset as if it were final."""
    deadline = time.monotonic() + 15
    while True:
        got = _offset_fetch(conn, version, group, topic, stable=True)
        if all(code == ErrorCode.NONE for *_, code in got):
            return got
        assert all(code == ErrorCode.UNSTABLE_OFFSET_COMMIT and off == -1 for _, p, off, code in got if p == 0), got
        assert time.monotonic() < deadline, got
        time.sleep(0.02)


@pytest.mark.parametrize("version", [7, 8, 9])
def test_offset_fetch_require_stable_on_the_wire(broker: Any, open_txn: Any, version: int) -> None:
    topic, group, txn = open_txn
    with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=10) as conn:
        # named partitions: the pending one is unstable, the other has no offset and is stable
        assert _offset_fetch(conn, version, group, topic, stable=True) == [
            (topic, 0, -1, ErrorCode.UNSTABLE_OFFSET_COMMIT),
            (topic, 1, -1, ErrorCode.NONE),
        ]
        # without require_stable the last decided offset (none) is answered at once
        assert _offset_fetch(conn, version, group, topic, stable=False) == [
            (topic, 0, -1, ErrorCode.NONE),
            (topic, 1, -1, ErrorCode.NONE),
        ]
        txn.producer.commit_transaction(30)
        assert _until_stable(conn, version, group, topic) == [
            (topic, 0, 42, ErrorCode.NONE),
            (topic, 1, -1, ErrorCode.NONE),
        ]
        # a second transaction over a decided offset: all-topics fetch shows the partition unstable
        OpenTransaction(broker.bootstrap_servers, topic, group, 50).producer.abort_transaction(30)
        assert _until_stable(conn, version, group, None) == [(topic, 0, 42, ErrorCode.NONE)]
        again = OpenTransaction(broker.bootstrap_servers, topic, group, 60)
        assert _offset_fetch(conn, version, group, None, stable=True) == [
            (topic, 0, -1, ErrorCode.UNSTABLE_OFFSET_COMMIT)
        ]
        assert _offset_fetch(conn, version, group, None, stable=False) == [(topic, 0, 42, ErrorCode.NONE)]
        again.producer.abort_transaction(30)
        assert _until_stable(conn, version, group, None) == [(topic, 0, 42, ErrorCode.NONE)]


def test_read_committed_consumer_waits_for_the_transaction(broker: Any, open_txn: Any) -> None:
    """The issue's probe: `committed()` of a read_committed consumer retries while the offsets
    are pending (librdkafka times out), and returns them once the transaction commits; a
    read_uncommitted consumer does not ask for stable offsets and sees none at once."""
    topic, group, txn = open_txn
    conf = {"bootstrap.servers": broker.bootstrap_servers, "group.id": group, "enable.auto.commit": False}
    stable = Consumer({**conf, "isolation.level": "read_committed"})
    unstable = Consumer({**conf, "isolation.level": "read_uncommitted"})
    try:
        with pytest.raises(KafkaException) as info:
            stable.committed([TopicPartition(topic, 0)], timeout=3)
        assert info.value.args[0].code() == KafkaError._TIMED_OUT
        assert unstable.committed([TopicPartition(topic, 0)], timeout=10)[0].offset == -1001
        txn.producer.commit_transaction(30)
        assert stable.committed([TopicPartition(topic, 0)], timeout=10)[0].offset == 42
    finally:
        stable.close()
        unstable.close()
