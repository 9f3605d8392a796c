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
from confluent_kafka.admin import AdminClient

from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import offset_commit_request as oc
from kafka_wire.protocol.messages import offset_delete_request as od
from kafka_wire.protocol.messages import offset_fetch_request as rq
from tests.integration.clients_util import create_topic

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    return either_broker


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


class OpenTransaction:
    """A transaction that has sent `offset` for (topic, 0) of `group` (or the `offsets` given) and
    is not yet decided."""

    def __init__(
        self, bootstrap: str, topic: str, group: str, offset: int, offsets: dict[tuple[str, int], int] | None = None
    ) -> None:
        self.bootstrap = bootstrap
        self.producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": _name("tid"), "linger.ms": 0})
        self.producer.init_transactions(30)
        self.producer.begin_transaction()
        self.producer.produce(topic, value=b"inside", partition=1)
        sent = offsets if offsets is not None else {(topic, 0): offset}
        self._send_offsets([TopicPartition(t, p, o) for (t, p), o in sent.items()], group)

    def _send_offsets(self, partitions: list[TopicPartition], group: str) -> None:
        meta = Consumer({"bootstrap.servers": self.bootstrap, "group.id": group})
        try:
            self.producer.send_offsets_to_transaction(partitions, meta.consumer_group_metadata(), 30)
        finally:
            meta.close()

    def commit_and_wait_for_markers(self, topic: str) -> None:
        """Commit, then open and abort one more transaction: its AddOffsetsToTxn is answered only
        once the first one's markers are all written (CONCURRENT_TRANSACTIONS until then, which
        librdkafka retries), on Apache Kafka as on ours."""
        self.producer.commit_transaction(30)
        self.producer.begin_transaction()
        self._send_offsets([TopicPartition(topic, 0, 1)], _name("other"))
        self.producer.abort_transaction(30)


@pytest.fixture
def open_txn(broker: Any) -> Iterator[tuple[str, str, OpenTransaction]]:
    topic, group = _name("stable"), _name("g")
    create_topic(broker, topic, 2)
    txn = OpenTransaction(broker.bootstrap_servers, topic, group, 42)
    try:
        yield topic, group, txn
    finally:
        _abort_if_open(txn)


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


# ---- plain offset records written after an open transaction's offsets ---------------------------
# Kafka's group coordinator keeps the offset of the later record when a transaction commits
# (replayEndTransactionMarker compares record offsets), and an offset tombstone -- OffsetDelete,
# DeleteGroups, a deleted topic -- removes the open transactions' offsets of that partition. So an
# operator's reset or deletion made while a transaction is open is not undone by its commit.


def _simple_commit(conn: BrokerConnection, group: str, topic: str, partition: int, offset: int) -> int:
    """OffsetCommit from outside the group protocol (what an admin's offset reset sends)."""
    req = oc.OffsetCommitRequest(
        group_id=group,
        generation_id_or_member_epoch=-1,
        member_id="",
        topics=[
            oc.OffsetCommitRequestTopic(
                name=topic,
                partitions=[oc.OffsetCommitRequestPartition(partition_index=partition, committed_offset=offset)],
            )
        ],
    )
    resp = conn.request(8, req, 8)
    return resp.topics[0].partitions[0].error_code


def _offset_delete(conn: BrokerConnection, group: str, topic: str, partition: int) -> tuple[int, list[int]]:
    req = od.OffsetDeleteRequest(
        group_id=group,
        topics=[od.OffsetDeleteRequestTopic(name=topic, partitions=[od.OffsetDeleteRequestPartition(partition)])],
    )
    resp = conn.request(47, req, 0)
    return resp.error_code, [p.error_code for t in resp.topics for p in t.partitions]


def test_a_plain_commit_after_the_transactions_offset_stays(broker: Any, open_txn: Any) -> None:
    topic, group, txn = open_txn
    with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=10) as conn:
        assert _simple_commit(conn, group, topic, 0, 7) == ErrorCode.NONE
        # the transaction's offset is still undecided: stable reads wait, others see the commit
        assert _offset_fetch(conn, 8, group, topic, stable=True)[0] == (topic, 0, -1, ErrorCode.UNSTABLE_OFFSET_COMMIT)
        assert _offset_fetch(conn, 8, group, topic, stable=False)[0] == (topic, 0, 7, ErrorCode.NONE)
        txn.producer.commit_transaction(30)
        # the commit was written after the transaction's offset (42): it stays
        assert _until_stable(conn, 8, group, topic) == [(topic, 0, 7, ErrorCode.NONE), (topic, 1, -1, ErrorCode.NONE)]


def test_offset_delete_drops_the_transactions_offset(broker: Any) -> None:
    topic, group = _name("stable"), _name("g")
    create_topic(broker, topic, 2)
    txn = OpenTransaction(broker.bootstrap_servers, topic, group, 0, offsets={(topic, 0): 42, (topic, 1): 43})
    try:
        with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=10) as conn:
            # the transaction's commit made the group known (an Empty group without members)
            assert _offset_delete(conn, group, topic, 0) == (ErrorCode.NONE, [ErrorCode.NONE])
            # partition 0's pending offset is gone: nothing left to wait for there
            assert _offset_fetch(conn, 8, group, topic, stable=True) == [
                (topic, 0, -1, ErrorCode.NONE),
                (topic, 1, -1, ErrorCode.UNSTABLE_OFFSET_COMMIT),
            ]
            txn.producer.commit_transaction(30)
            deadline = time.monotonic() + 15
            while (got := _offset_fetch(conn, 8, group, topic, stable=True))[1][3] != ErrorCode.NONE:
                assert got == [(topic, 0, -1, ErrorCode.NONE), (topic, 1, -1, ErrorCode.UNSTABLE_OFFSET_COMMIT)]
                assert time.monotonic() < deadline, got
                time.sleep(0.02)
            # the commit marker found only partition 1's offset left
            assert got == [(topic, 0, -1, ErrorCode.NONE), (topic, 1, 43, ErrorCode.NONE)]
    finally:
        _abort_if_open(txn)


def test_delete_groups_drops_the_transactions_offsets(broker: Any) -> None:
    topic, group = _name("stable"), _name("g")
    create_topic(broker, topic, 2)
    txn = OpenTransaction(broker.bootstrap_servers, topic, group, 42)
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    try:
        admin.delete_consumer_groups([group], request_timeout=30)[group].result(30)
        with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=10) as conn:
            assert _offset_fetch(conn, 8, group, topic, stable=True) == [
                (topic, 0, -1, ErrorCode.NONE),
                (topic, 1, -1, ErrorCode.NONE),
            ]
            txn.commit_and_wait_for_markers(topic)
            # the marker found nothing left to commit
            assert _offset_fetch(conn, 8, group, None, stable=True) == []
    finally:
        _abort_if_open(txn)


def test_deleting_the_topic_drops_the_transactions_offsets(broker: Any) -> None:
    deleted, kept, group = _name("gone"), _name("kept"), _name("g")
    create_topic(broker, deleted, 2)
    create_topic(broker, kept, 2)
    txn = OpenTransaction(broker.bootstrap_servers, kept, group, 0, offsets={(deleted, 0): 42, (kept, 0): 43})
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    try:
        admin.delete_topics([deleted], request_timeout=30)[deleted].result(30)
        with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=10) as conn:
            deadline = time.monotonic() + 30
            # the group coordinator learns of the deletion from the metadata (Kafka: asynchronously)
            while (got := _offset_fetch(conn, 8, group, deleted, stable=True))[0][3] != ErrorCode.NONE:
                assert time.monotonic() < deadline, f"the deleted topic's pending offset stayed: {got}"
                time.sleep(0.05)
            assert got == [(deleted, 0, -1, ErrorCode.NONE), (deleted, 1, -1, ErrorCode.NONE)]
            txn.producer.commit_transaction(30)
            assert _until_stable(conn, 8, group, kept) == [(kept, 0, 43, ErrorCode.NONE), (kept, 1, -1, ErrorCode.NONE)]
            # created again under the same name, the topic has no offset of the old one
            create_topic(broker, deleted, 2)
            assert _offset_fetch(conn, 8, group, None, stable=True) == [(kept, 0, 43, ErrorCode.NONE)]
    finally:
        _abort_if_open(txn)


def test_the_later_transactions_offset_stays_whatever_the_commit_order(broker: Any) -> None:
    """Two transactions send offsets of the same partition; the one whose record came later
    commits first. The earlier one's commit does not replace it: Kafka materializes a
    transaction's offset only if its record is later than the committed offset's."""
    topic, group = _name("stable"), _name("g")
    create_topic(broker, topic, 2)
    early = OpenTransaction(broker.bootstrap_servers, topic, group, 42)
    late = OpenTransaction(broker.bootstrap_servers, topic, group, 50)
    try:
        late.commit_and_wait_for_markers(topic)
        with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=10) as conn:
            # "early" is still open: stable reads wait for it, plain reads see "late"'s offset
            unstable = (topic, 0, -1, ErrorCode.UNSTABLE_OFFSET_COMMIT)
            assert _offset_fetch(conn, 8, group, topic, stable=True)[0] == unstable
            assert _offset_fetch(conn, 8, group, topic, stable=False)[0] == (topic, 0, 50, ErrorCode.NONE)
            early.producer.commit_transaction(30)
            after = [(topic, 0, 50, ErrorCode.NONE), (topic, 1, -1, ErrorCode.NONE)]
            assert _until_stable(conn, 8, group, topic) == after
    finally:
        _abort_if_open(early)
        _abort_if_open(late)


def _abort_if_open(txn: OpenTransaction) -> None:
    try:  # a test that failed before deciding the transaction leaves it open
        txn.producer.abort_transaction(10)
    except KafkaException:
        pass


def test_txn_offset_commit_of_a_missing_topic_or_partition(broker: Any) -> None:
    """TxnOffsetCommit answers UNKNOWN_TOPIC_OR_PARTITION for a topic or partition that does not
    exist, as OffsetCommit does, and commits the others (raw wire: librdkafka would retry)."""
    from kafka_wire.protocol.messages import add_offsets_to_txn_request as aoq
    from kafka_wire.protocol.messages import end_txn_request as etq
    from kafka_wire.protocol.messages import init_producer_id_request as ipq
    from kafka_wire.protocol.messages import txn_offset_commit_request as toq
    from tests.integration.group_util import COORDINATOR_NOT_READY, find_coordinator

    topic, missing, group, tid = _name("stable"), _name("missing"), _name("g"), _name("tid")
    create_topic(broker, topic, 2)
    deadline = time.monotonic() + 30
    with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=10) as conn:
        find_coordinator(conn, tid, deadline, key_type=1)
        find_coordinator(conn, group, deadline)
        init_req = ipq.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000)
        while (init := conn.request(22, init_req)).error_code in COORDINATOR_NOT_READY:
            assert time.monotonic() < deadline, ErrorCode(init.error_code)
            time.sleep(0.1)
        assert init.error_code == ErrorCode.NONE
        pid, epoch = init.producer_id, init.producer_epoch
        added = conn.request(25, aoq.AddOffsetsToTxnRequest(tid, pid, epoch, group))
        assert added.error_code == ErrorCode.NONE

        def part(index: int) -> Any:
            return toq.TxnOffsetCommitRequestPartition(partition_index=index, committed_offset=5, committed_metadata="")

        req = toq.TxnOffsetCommitRequest(
            transactional_id=tid,
            group_id=group,
            producer_id=pid,
            producer_epoch=epoch,
            generation_id=-1,
            member_id="",
            topics=[
                toq.TxnOffsetCommitRequestTopic(name=topic, partitions=[part(0), part(7)]),
                toq.TxnOffsetCommitRequestTopic(name=missing, partitions=[part(0)]),
            ],
        )
        resp = conn.request(28, req)
        assert {(t.name, p.partition_index): p.error_code for t in resp.topics for p in t.partitions} == {
            (topic, 0): ErrorCode.NONE,
            (topic, 7): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            (missing, 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        }
        ended = conn.request(26, etq.EndTxnRequest(tid, pid, epoch, True), 4)
        assert ended.error_code == ErrorCode.NONE
        assert _until_stable(conn, 8, group, topic) == [(topic, 0, 5, ErrorCode.NONE), (topic, 1, -1, ErrorCode.NONE)]
        assert _offset_fetch(conn, 8, group, None, stable=True) == [(topic, 0, 5, ErrorCode.NONE)]
