"""Kafka transactions end to end with real clients (issue 14, broker side).

confluent-kafka's transactional producer against our broker and Apache Kafka (``either_broker``):
commit and abort seen through read_committed / read_uncommitted consumers, fencing by a second
producer with the same transactional.id, consume-transform-produce with
``send_offsets_to_transaction``. Ours only: transaction timeout expiry (a short abort interval),
kafka-python 3's KafkaProducer(transactional_id=...), the Java producer through Kafka's
TransactionalMessageCopier, and the admin view (DescribeTransactions/ListTransactions/
DescribeProducers) over the wire.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from broker_embedded import EmbeddedBroker
from tests.integration.clients_util import create_topic
from tests.peers.fixtures import is_apache

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    return either_broker


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _producer(bootstrap: str, tid: str, **extra: Any) -> Producer:
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": tid, "linger.ms": 5, **extra})
    p.init_transactions(30)
    return p


def _wait_aborted_by_timeout(bootstrap: str, tid: str, epoch_above: int, timeout: float = 30.0) -> None:
    """Poll DescribeTransactions until the coordinator has aborted ``tid``'s transaction on its
    timeout: CompleteAbort at a producer epoch above ``epoch_above`` (the abort bumps it)."""
    from kafka_wire.protocol.messages import describe_transactions_request as dtq
    from tests.integration import wire_util as w

    deadline = time.monotonic() + timeout
    with w.connect(bootstrap) as conn:
        while True:
            (state,) = conn.request(65, dtq.DescribeTransactionsRequest(transactional_ids=[tid]), 0).transaction_states
            if state.transaction_state == "CompleteAbort" and state.producer_epoch > epoch_above:
                return
            assert time.monotonic() < deadline, f"{tid} not aborted by its timeout: {state}"
            time.sleep(0.05)


def read_all(
    bootstrap: str, topic: str, isolation: str, partitions: int, settle: float = 1.5, timeout: float = 30
) -> list[bytes]:
    """Every value of `topic` a consumer of that isolation level delivers, up to the end offsets
    (read_committed: the LSO) of each partition."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": _name("reader"),
            "isolation.level": isolation,
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
        }
    )
    try:
        tps = [TopicPartition(topic, i, 0) for i in range(partitions)]
        c.assign(tps)
        out: list[bytes] = []
        deadline = time.monotonic() + timeout
        quiet_since = time.monotonic()
        while time.monotonic() < deadline:
            msgs = c.consume(1000, 0.2)
            got = [m for m in msgs if m.error() is None]
            out.extend(m.value() for m in got)
            if got:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > settle:
                break
        return out
    finally:
        c.close()


def test_commit_and_abort_are_seen_by_read_committed(broker: Any) -> None:
    topic = _name("txn")
    create_topic(broker, topic, 2)
    p = _producer(broker.bootstrap_servers, _name("tid"))
    p.begin_transaction()
    for i in range(10):
        p.produce(topic, key=b"k", value=b"c1-%d" % i, partition=i % 2)
    p.commit_transaction(30)
    p.begin_transaction()
    for i in range(7):
        p.produce(topic, key=b"k", value=b"ab-%d" % i, partition=i % 2)
    p.flush(30)  # the aborted records are in the log before the ABORT marker
    p.abort_transaction(30)
    p.begin_transaction()
    for i in range(5):
        p.produce(topic, key=b"k", value=b"c2-%d" % i, partition=i % 2)
    p.commit_transaction(30)
    committed = read_all(broker.bootstrap_servers, topic, "read_committed", 2)
    assert sorted(committed) == sorted([b"c1-%d" % i for i in range(10)] + [b"c2-%d" % i for i in range(5)])
    uncommitted = read_all(broker.bootstrap_servers, topic, "read_uncommitted", 2)
    assert len(uncommitted) == 22 and sum(v.startswith(b"ab-") for v in uncommitted) == 7


def test_second_producer_fences_the_first(broker: Any) -> None:
    topic = _name("fence")
    create_topic(broker, topic, 1)
    tid = _name("tid")
    p1 = _producer(broker.bootstrap_servers, tid)
    p1.begin_transaction()
    for i in range(5):
        p1.produce(topic, value=b"zombie-%d" % i)
    p1.flush(30)
    p2 = _producer(broker.bootstrap_servers, tid)  # aborts p1's open transaction
    p2.begin_transaction()
    p2.produce(topic, value=b"live")
    p2.commit_transaction(30)
    with pytest.raises(KafkaException) as info:
        p1.commit_transaction(30)
    err = info.value.args[0]
    assert err.fatal() or "fenc" in err.str().lower(), err
    assert read_all(broker.bootstrap_servers, topic, "read_committed", 1) == [b"live"]


def test_consume_transform_produce_with_send_offsets(broker: Any) -> None:
    src, dst = _name("src"), _name("dst")
    create_topic(broker, src, 1)
    create_topic(broker, dst, 1)
    consume_transform_produce(broker, src, dst)


def consume_transform_produce(broker: Any, src: str, dst: str) -> None:
    """20 records of `src` copied to `dst` in two transactions with send_offsets_to_transaction:
    the first committed, the second aborted; the group's offset and `dst` show only the first."""
    group = _name("ctp")
    plain = Producer({"bootstrap.servers": broker.bootstrap_servers})
    for i in range(20):
        plain.produce(src, value=b"%d" % i)
    plain.flush(30)
    consumer = Consumer(
        {
            "bootstrap.servers": broker.bootstrap_servers,
            "group.id": group,
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
        }
    )
    producer = _producer(broker.bootstrap_servers, _name("tid"))
    try:
        consumer.subscribe([src])
        batches: list[list[Any]] = []
        pending: list[Any] = []
        deadline = time.monotonic() + 60
        while len(pending) < 20 and time.monotonic() < deadline:
            pending.extend(m for m in consumer.consume(20, 0.5) if m.error() is None)
        assert len(pending) == 20
        batches = [pending[:10], pending[10:]]
        for n, batch in enumerate(batches):
            producer.begin_transaction()
            for m in batch:
                producer.produce(dst, value=b"out-" + m.value())
            offsets = [TopicPartition(src, 0, batch[-1].offset() + 1)]
            producer.send_offsets_to_transaction(offsets, consumer.consumer_group_metadata(), 30)
            if n == 0:
                producer.commit_transaction(30)
            else:
                producer.abort_transaction(30)
        committed = consumer.committed([TopicPartition(src, 0)], timeout=10)
        assert committed[0].offset == 10  # the aborted transaction's offsets never became visible
    finally:
        consumer.close()
    out = read_all(broker.bootstrap_servers, dst, "read_committed", 1)
    assert out == [b"out-%d" % i for i in range(10)]


@pytest.fixture(scope="module")
def fast_abort_broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(
        num_partitions=1,
        **{
            "transaction.abort.timed.out.transaction.cleanup.interval.ms": 200,
            "transaction.state.log.num.partitions": 4,
        },
    ) as b:
        yield b


def test_transaction_timeout_aborts_and_fences(fast_abort_broker: EmbeddedBroker) -> None:
    b = fast_abort_broker
    topic = _name("timeout")
    create_topic(b, topic, 1)
    tid = _name("tid")
    p = _producer(b.bootstrap_servers, tid, **{"transaction.timeout.ms": 1000})
    p.begin_transaction()
    for i in range(5):
        p.produce(topic, value=b"late-%d" % i)
    p.flush(30)
    _wait_aborted_by_timeout(b.bootstrap_servers, tid, epoch_above=0)  # after 1 s, with an epoch bump
    with pytest.raises(KafkaException):
        p.commit_transaction(30)
    # the LSO moved past the aborted records: a read_committed reader reaches the end with nothing
    assert read_all(b.bootstrap_servers, topic, "read_committed", 1) == []
    assert len(read_all(b.bootstrap_servers, topic, "read_uncommitted", 1)) == 5


def test_kafka_python_transactions(fast_abort_broker: EmbeddedBroker) -> None:
    from kafka import KafkaProducer

    b = fast_abort_broker
    topic = _name("kp")
    create_topic(b, topic, 1)
    p = KafkaProducer(bootstrap_servers=b.bootstrap_servers, transactional_id=_name("kp-tid"))
    try:
        p.init_transactions()
        p.begin_transaction()
        for i in range(4):
            p.send(topic, value=b"kp-c-%d" % i)
        p.commit_transaction()
        p.begin_transaction()
        for i in range(3):
            p.send(topic, value=b"kp-a-%d" % i)
        p.flush()
        p.abort_transaction()
    finally:
        p.close(timeout=10)
    assert read_all(b.bootstrap_servers, topic, "read_committed", 1) == [b"kp-c-%d" % i for i in range(4)]


def test_java_transactional_message_copier(fast_abort_broker: EmbeddedBroker, java_client: Any) -> None:
    """Kafka's own TransactionalMessageCopier (Java producer + read_committed consumer +
    sendOffsetsToTransaction), with random aborts, copies every record exactly once."""
    b = fast_abort_broker
    src, dst = _name("jsrc"), _name("jdst")
    create_topic(b, src, 1)
    create_topic(b, dst, 1)
    plain = Producer({"bootstrap.servers": b.bootstrap_servers})
    for i in range(200):
        plain.produce(src, value=b"j-%d" % i)
    plain.flush(30)
    r = java_client.run(
        "org.apache.kafka.tools.TransactionalMessageCopier",
        "--broker-list", b.bootstrap_servers,
        "--input-topic", src, "--input-partition", "0",
        "--output-topic", dst,
        "--max-messages", "200",
        "--transactional-id", _name("jtid"),
        "--consumer-group", _name("jgroup"),
        "--transaction-size", "25",
        "--enable-random-aborts",
        "--use-group-metadata",
        timeout=90,
    )  # fmt: skip
    events = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    assert events and events[-1].get("remaining") == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = read_all(b.bootstrap_servers, dst, "read_committed", 1)
    assert sorted(out, key=lambda v: int(v.split(b"-")[1])) == [b"j-%d" % i for i in range(200)]


def test_admin_view_of_transactions(broker: Any) -> None:
    from kafka_wire.protocol.messages import describe_producers_request as dpq
    from kafka_wire.protocol.messages import describe_transactions_request as dtq
    from kafka_wire.protocol.messages import list_transactions_request as ltq
    from tests.integration import wire_util as w

    if is_apache(broker):
        pytest.skip("ours only: raw requests to our broker")
    topic, tid = _name("adm"), _name("tid")
    create_topic(broker, topic, 1)
    p = _producer(broker.bootstrap_servers, tid)
    p.begin_transaction()
    p.produce(topic, value=b"x")
    p.flush(30)
    conn = w.connect(broker.bootstrap_servers)
    try:
        d = conn.request(65, dtq.DescribeTransactionsRequest(transactional_ids=[tid, "nope"]), 0)
        ongoing, missing = d.transaction_states
        assert ongoing.transaction_state == "Ongoing" and ongoing.topics[0].topic == topic
        assert missing.error_code == 105  # TRANSACTIONAL_ID_NOT_FOUND
        lst = conn.request(66, ltq.ListTransactionsRequest(state_filters=["Ongoing", "Bogus"]), 0)
        assert tid in {s.transactional_id for s in lst.transaction_states}
        assert lst.unknown_state_filters == ["Bogus"]
        dp = conn.request(
            61, dpq.DescribeProducersRequest(topics=[dpq.TopicRequest(name=topic, partition_indexes=[0])]), 0
        )
        (state,) = dp.topics[0].partitions[0].active_producers
        assert state.producer_id == ongoing.producer_id and state.current_txn_start_offset == 0
    finally:
        conn.close()
        p.abort_transaction(30)


def test_aborted_transaction_in_tiered_data(tmp_path: Any) -> None:
    """An aborted transaction inside data that was then tiered (local copies deleted): a
    read_committed consumer from offset 0 skips its records (the transaction index went to the
    remote tier with the segment), read_uncommitted sees them."""
    from tests.integration.test_tiered_fetch import TOPIC_CONFIGS, broker_configs, wait_tiered

    with EmbeddedBroker(tmp_path / "logs", **broker_configs(tmp_path)) as b:
        topic = "tiered-txn"
        create_topic(b, topic, 1, TOPIC_CONFIGS)
        p = _producer(b.bootstrap_servers, _name("tid"), **{"batch.size": 4096})
        expected: list[bytes] = []
        for n in range(12):  # ~12 x 40 x 100 B: many 16 KiB segments
            p.begin_transaction()
            values = [b"%02d-%03d-" % (n, i) + b"x" * 90 for i in range(40)]
            for v in values:
                p.produce(topic, value=v, partition=0)
            if n % 3 == 1:
                p.flush(30)
                p.abort_transaction(30)
            else:
                p.commit_transaction(30)
                expected.extend(values)
        wait_tiered(b, topic, 200)  # the first aborted transaction (offsets ~41-80) is remote only
        committed = read_all(b.bootstrap_servers, topic, "read_committed", 1)
        assert committed == expected
        assert len(read_all(b.bootstrap_servers, topic, "read_uncommitted", 1)) == 12 * 40


def test_kip467_record_errors_name_the_keyless_records(broker: Any) -> None:
    """A batch with keyless records for a compacted topic is refused as INVALID_RECORD, and the
    response names exactly those records (KIP-467's record_errors) with an error message."""
    from kafka_wire.records import build_batch
    from tests.integration import wire_util as w

    topic = _name("compacted")
    create_topic(broker, topic, 1, {"cleanup.policy": "compact"})
    batch = build_batch(
        [(None, b"k0", b"a", []), (None, None, b"b", []), (None, b"k2", b"c", []), (None, None, b"d", [])]
    )
    with w.connect(broker.bootstrap_servers) as conn:
        r = w.produce(conn, topic, 0, batch)
        assert r.error_code == 87  # INVALID_RECORD
        assert sorted(e.batch_index for e in r.record_errors) == [1, 3]
        assert r.error_message
        ok = w.produce(conn, topic, 0, build_batch([(None, b"k", b"v", [])]))
        assert ok.error_code == 0 and ok.base_offset == 0  # nothing of the refused batch was written


@pytest.mark.slow
def test_kafka_streams_exactly_once_v2(fast_abort_broker: EmbeddedBroker, java_client: Any, tmp_path: Any) -> None:
    """Kafka Streams (the WordCount peer) with processing.guarantee=exactly_once_v2: transactional
    producer, TxnOffsetCommit with the group's generation (KIP-447), read_committed consumers of its
    repartition topic; a read_committed reader of the output sees the exact counts."""
    import collections
    import re

    from peers import jvm

    b = fast_abort_broker
    source, sink, app = _name("eos-in"), _name("eos-out"), _name("eos-app")
    create_topic(b, source, 2)
    create_topic(b, sink, 2)
    lines = ["the quick brown fox", "jumps over the lazy dog", "The dog barks", "fox and dog and THE end"]
    expected: collections.Counter[str] = collections.Counter()
    for line in lines:
        expected.update(w for w in re.split(r"\W+", line.lower()) if w)
    plain = Producer({"bootstrap.servers": b.bootstrap_servers})
    for i, line in enumerate(lines):
        plain.produce(source, key=str(i).encode(), value=line.encode())
    plain.flush(30)
    proc = jvm.java_popen(jvm.WORD_COUNT, b.bootstrap_servers, source, sink, app, str(tmp_path), "exactly_once_v2")
    try:
        counts: dict[str, int] = {}
        c = Consumer(
            {
                "bootstrap.servers": b.bootstrap_servers,
                "group.id": _name("eos-reader"),
                "isolation.level": "read_committed",
                "auto.offset.reset": "earliest",
            }
        )
        try:
            c.subscribe([sink])
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and counts != dict(expected):
                m = c.poll(0.5)
                if m is not None and m.error() is None:
                    counts[m.key().decode()] = int(m.value().decode())
        finally:
            c.close()
        assert proc.poll() is None, "the Streams application died"
        assert counts == dict(expected)
        # it really ran transactions: its transactional id (<app>-<process id>-<thread>) is listed
        from kafka_wire.protocol.messages import list_transactions_request as ltq
        from tests.integration import wire_util as w

        with w.connect(b.bootstrap_servers) as conn:
            listed = conn.request(66, ltq.ListTransactionsRequest(), 0).transaction_states
        assert any(s.transactional_id.startswith(app) for s in listed), [s.transactional_id for s in listed]
    finally:
        jvm.stop_process(proc)


def test_broker_side_apis_over_the_wire(fast_abort_broker: EmbeddedBroker) -> None:
    """The inter-broker forms: AddPartitionsToTxn v4 batched with verifyOnly (KIP-890) and
    WriteTxnMarkers (what a coordinator on another broker sends), with their per-partition errors."""
    from kafka_wire.protocol.messages import add_partitions_to_txn_request as apq
    from kafka_wire.protocol.messages import describe_producers_request as dpq
    from kafka_wire.protocol.messages import init_producer_id_request as ipq
    from kafka_wire.protocol.messages import write_txn_markers_request as wmq
    from kafka_wire.records import build_batch
    from tests.integration import wire_util as w

    b = fast_abort_broker
    topic, tid = _name("wire"), _name("tid")
    create_topic(b, topic, 2)
    with w.connect(b.bootstrap_servers) as conn:
        init = conn.request(22, ipq.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000))
        assert init.error_code == 0
        pid, epoch = init.producer_id, init.producer_epoch
        added = conn.request(
            24,
            apq.AddPartitionsToTxnRequest(
                v3_and_below_transactional_id=tid,
                v3_and_below_producer_id=pid,
                v3_and_below_producer_epoch=epoch,
                v3_and_below_topics=[apq.AddPartitionsToTxnTopic(name=topic, partitions=[0])],
            ),
            3,
        )
        assert added.results_by_topic_v3_and_below[0].results_by_partition[0].partition_error_code == 0
        verify = conn.request(
            24,
            apq.AddPartitionsToTxnRequest(
                transactions=[
                    apq.AddPartitionsToTxnTransaction(
                        transactional_id=tid,
                        producer_id=pid,
                        producer_epoch=epoch,
                        verify_only=True,
                        topics=[apq.AddPartitionsToTxnTopic(name=topic, partitions=[0, 1])],
                    ),
                    apq.AddPartitionsToTxnTransaction(
                        transactional_id="nobody",
                        producer_id=pid,
                        producer_epoch=epoch,
                        verify_only=True,
                        topics=[apq.AddPartitionsToTxnTopic(name=topic, partitions=[0])],
                    ),
                ]
            ),
            4,
        )
        ours, nobody = verify.results_by_transaction
        codes = {r.partition_index: r.partition_error_code for r in ours.topic_results[0].results_by_partition}
        assert codes == {0: 0, 1: 48}  # NONE, INVALID_TXN_STATE
        assert nobody.topic_results[0].results_by_partition[0].partition_error_code == 49  # INVALID_PRODUCER_ID_MAPPING
        batch = build_batch(w.records(3), producer_id=pid, producer_epoch=epoch, base_sequence=0, is_transactional=True)
        assert w.produce(conn, topic, 0, batch).error_code == 0
        markers = conn.request(
            27,
            wmq.WriteTxnMarkersRequest(
                markers=[
                    wmq.WritableTxnMarker(
                        producer_id=pid,
                        producer_epoch=epoch,
                        transaction_result=False,
                        topics=[
                            wmq.WritableTxnMarkerTopic(name=topic, partition_indexes=[0]),
                            wmq.WritableTxnMarkerTopic(name="no-such-topic", partition_indexes=[0]),
                        ],
                        coordinator_epoch=0,
                    )
                ]
            ),
            1,
        )
        got = {(t.name, p.partition_index): p.error_code for t in markers.markers[0].topics for p in t.partitions}
        assert got == {(topic, 0): 0, ("no-such-topic", 0): 3}
        dp = conn.request(
            61, dpq.DescribeProducersRequest(topics=[dpq.TopicRequest(name=topic, partition_indexes=[0])])
        )
        (state,) = dp.topics[0].partitions[0].active_producers
        assert state.current_txn_start_offset == -1  # the ABORT marker closed it
    assert read_all(b.bootstrap_servers, topic, "read_committed", 2) == []
    assert len(read_all(b.bootstrap_servers, topic, "read_uncommitted", 2)) == 3


def test_partition_verification_stops_hanging_transactions(fast_abort_broker: EmbeddedBroker) -> None:
    """KIP-890 part 1: a transactional batch for a partition its transaction never added (or from a
    producer fenced by a timeout abort) is refused, so no transaction opens that no marker closes."""
    from kafka_wire.protocol.messages import add_partitions_to_txn_request as apq
    from kafka_wire.protocol.messages import init_producer_id_request as ipq
    from kafka_wire.protocol.messages import produce_request as prq
    from kafka_wire.records import build_batch
    from tests.integration import wire_util as w

    b = fast_abort_broker
    topic, tid = _name("verify"), _name("tid")
    create_topic(b, topic, 2)
    with w.connect(b.bootstrap_servers) as conn:
        init = conn.request(22, ipq.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=1000))
        pid, epoch = init.producer_id, init.producer_epoch

        def send(partition: int, seq: int, e: int = epoch) -> int:
            batch = build_batch(
                w.records(2), producer_id=pid, producer_epoch=e, base_sequence=seq, is_transactional=True
            )
            req = prq.ProduceRequest(
                transactional_id=tid,
                acks=-1,
                timeout_ms=5000,
                topic_data=[
                    prq.TopicProduceData(
                        name=topic, partition_data=[prq.PartitionProduceData(index=partition, records=batch)]
                    )
                ],
            )
            resp = conn.request(0, req, min(conn.best_version(0), 12))
            return int(resp.responses[0].partition_responses[0].error_code)

        assert send(1, 0) == 48  # INVALID_TXN_STATE: partition 1 was never added
        conn.request(
            24,
            apq.AddPartitionsToTxnRequest(
                v3_and_below_transactional_id=tid,
                v3_and_below_producer_id=pid,
                v3_and_below_producer_epoch=epoch,
                v3_and_below_topics=[apq.AddPartitionsToTxnTopic(name=topic, partitions=[0])],
            ),
            3,
        )
        assert send(0, 0) == 0
        _wait_aborted_by_timeout(b.bootstrap_servers, tid, epoch_above=epoch)  # after 1 s, epoch bumped
        assert send(1, 0) == 47  # INVALID_PRODUCER_EPOCH: the zombie cannot open partition 1
    # nothing hangs: both partitions' LSO reach their end
    assert read_all(b.bootstrap_servers, topic, "read_committed", 2) == []
    assert len(read_all(b.bootstrap_servers, topic, "read_uncommitted", 2)) == 2
