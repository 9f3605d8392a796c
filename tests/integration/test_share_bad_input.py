"""Share-group bad input on the wire, differential (ours and Apache Kafka 4.3.1): raw
ShareGroupHeartbeat / ShareGroupDescribe / ShareFetch / ShareAcknowledge requests with wrong member
epochs, unknown groups and members, acknowledgements of records another member holds or nobody
acquired, bad share-session epochs. Both brokers must answer the same error codes, and a refused
acknowledgement must leave the records as they were (their owner can still accept them).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import find_coordinator_request, metadata_request
from kafka_wire.protocol.messages import share_acknowledge_request as ack_rq
from kafka_wire.protocol.messages import share_fetch_request as fetch_rq
from kafka_wire.protocol.messages import share_group_describe_request as describe_rq
from kafka_wire.protocol.messages import share_group_heartbeat_request as hb_rq
from tests.integration.test_kip848_consumer_group import create_topic
from tests.integration.test_share_groups import _name, _produce, _share_group

HEARTBEAT, DESCRIBE, FETCH, ACK = 76, 77, 78, 79
ACCEPT, RELEASE, REJECT, RENEW = 1, 2, 3, 4


@pytest.fixture(scope="module", params=["ours", "apache"])
def broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "ours":
        from broker_embedded import EmbeddedBroker

        with EmbeddedBroker(num_partitions=1) as b:
            yield b
        return
    yield request.getfixturevalue("apache_kafka")


@pytest.fixture()
def conn(broker: Any) -> Iterator[BrokerConnection]:
    with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=30) as c:
        yield c


def _member() -> str:
    return uuid.uuid4().hex


def _coordinator_ready(conn: BrokerConnection, group: str) -> None:
    """As a client does first: FindCoordinator until the group's coordinator is loaded."""
    deadline = time.monotonic() + 30
    while True:
        body = find_coordinator_request.FindCoordinatorRequest(key_type=0, coordinator_keys=[group])
        if conn.request(10, body, 4).coordinators[0].error_code == ErrorCode.NONE:
            return
        assert time.monotonic() < deadline, "no coordinator"
        time.sleep(0.1)


def _heartbeat(conn: BrokerConnection, group: str, member: str, epoch: int, topics: list[str] | None) -> Any:
    """One heartbeat; retried, as a client does, while the coordinator is still loading."""
    _coordinator_ready(conn, group)
    body = hb_rq.ShareGroupHeartbeatRequest(
        group_id=group, member_id=member, member_epoch=epoch, subscribed_topic_names=topics
    )
    deadline = time.monotonic() + 30
    while True:
        response = conn.request(HEARTBEAT, body, 1)
        retriable = (ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS)
        if response.error_code not in retriable or time.monotonic() > deadline:
            return response
        time.sleep(0.1)


def _topic_id(conn: BrokerConnection, topic: str) -> bytes:
    md = conn.request(
        3, metadata_request.MetadataRequest(topics=[metadata_request.MetadataRequestTopic(name=topic)]), 12
    )
    return bytes(md.topics[0].topic_id)


def _fetch(
    conn: BrokerConnection, group: str, member: str, epoch: int, tid: bytes, acks: list[tuple[int, int, int]] = ()
) -> Any:
    body = fetch_rq.ShareFetchRequest(
        group_id=group,
        member_id=member,
        share_session_epoch=epoch,
        max_wait_ms=500,
        min_bytes=1,
        max_bytes=1 << 20,
        max_records=100,
        batch_size=100,
        topics=[
            fetch_rq.FetchTopic(
                topic_id=tid,
                partitions=[
                    fetch_rq.FetchPartition(
                        partition_index=0,
                        acknowledgement_batches=[
                            fetch_rq.AcknowledgementBatch(first_offset=f, last_offset=last, acknowledge_types=[t])
                            for f, last, t in acks
                        ],
                    )
                ],
            )
        ],
        forgotten_topics_data=[],
    )
    return conn.request(FETCH, body, 1)


def _ack(conn: BrokerConnection, group: str, member: str, epoch: int, tid: bytes, first: int, last: int) -> Any:
    return _ack_batches(conn, group, member, epoch, tid, [(first, last, [ACCEPT])])


def _ack_batches(
    conn: BrokerConnection,
    group: str,
    member: str,
    epoch: int,
    tid: bytes,
    batches: list[tuple[int, int, list[int]]],
    renew: bool = False,
) -> Any:
    body = ack_rq.ShareAcknowledgeRequest(
        group_id=group,
        member_id=member,
        share_session_epoch=epoch,
        is_renew_ack=renew,
        topics=[
            ack_rq.AcknowledgeTopic(
                topic_id=tid,
                partitions=[
                    ack_rq.AcknowledgePartition(
                        partition_index=0,
                        acknowledgement_batches=[
                            ack_rq.AcknowledgementBatch(first_offset=f, last_offset=last, acknowledge_types=types)
                            for f, last, types in batches
                        ],
                    )
                ],
            )
        ],
    )
    return conn.request(ACK, body, 2 if renew else 1)


def _partition(response: Any) -> Any:
    return response.responses[0].partitions[0]


def _acquire(conn: BrokerConnection, group: str, member: str, tid: Any) -> tuple[int, list[Any]]:
    """Open `member`'s share session and fetch until it acquires records (Apache may need a few fetches to
    load the share-partition); returns the session's next epoch and the acquired records."""
    epoch = 0
    acquired: list[Any] = []
    deadline = time.monotonic() + 30
    while not acquired and time.monotonic() < deadline:
        response = _fetch(conn, group, member, epoch, tid)
        assert response.error_code == ErrorCode.NONE
        epoch += 1
        if response.responses:
            acquired = _partition(response).acquired_records
    return epoch, acquired


def test_heartbeat_bad_epochs_unknown_group_and_member(broker: Any, conn: BrokerConnection) -> None:
    topic, group = _name("hb"), _name("ghb")
    create_topic(broker.bootstrap_servers, topic, 1)
    assert _heartbeat(conn, _name("nogroup"), _member(), 3, None).error_code == ErrorCode.GROUP_ID_NOT_FOUND
    assert _heartbeat(conn, group, "", 0, [topic]).error_code == ErrorCode.INVALID_REQUEST
    assert _heartbeat(conn, group, _member(), 0, None).error_code == ErrorCode.INVALID_REQUEST
    member = _member()
    joined = _heartbeat(conn, group, member, 0, [topic])
    assert joined.error_code == ErrorCode.NONE and joined.member_epoch > 0
    assert _heartbeat(conn, group, member, joined.member_epoch + 7, None).error_code == ErrorCode.FENCED_MEMBER_EPOCH
    assert _heartbeat(conn, group, _member(), 1, None).error_code == ErrorCode.UNKNOWN_MEMBER_ID
    assert _heartbeat(conn, group, member, joined.member_epoch, None).error_code == ErrorCode.NONE
    described = conn.request(DESCRIBE, describe_rq.ShareGroupDescribeRequest(group_ids=[group, _name("nogroup")]), 1)
    by_id = {g.group_id: g for g in described.groups}  # Apache Kafka may answer in another order
    found, missing = by_id[group], by_id[next(g for g in by_id if g != group)]
    assert found.error_code == ErrorCode.NONE and [m.member_id for m in found.members] == [member]
    assert found.group_state == "Stable"
    assert missing.error_code == ErrorCode.GROUP_ID_NOT_FOUND and missing.group_state == ""
    assert _heartbeat(conn, group, member, -1, None).member_epoch == -1


def _a_holds_three_records(broker: Any, conn: BrokerConnection, prefix: str) -> tuple[str, str, bytes, str, str, int]:
    """A one-partition topic of three records and a share group of members a and b, where a's session
    acquired all three: (topic, group, topic id, a, b, a's next session epoch)."""
    topic, group = _name(prefix), _share_group(broker, _name(f"g{prefix}"))
    create_topic(broker.bootstrap_servers, topic, 1)
    _produce(broker.bootstrap_servers, topic, range(3))
    tid = _topic_id(conn, topic)
    a, b = _member(), _member()
    for m in (a, b):
        assert _heartbeat(conn, group, m, 0, [topic]).error_code == ErrorCode.NONE
    # a opens its session and acquires the three records (Apache may need a few fetches to load)
    epoch, acquired = _acquire(conn, group, a, tid)
    assert [(r.first_offset, r.last_offset, r.delivery_count) for r in acquired] == [(0, 2, 1)]
    return topic, group, tid, a, b, epoch


def test_acknowledgements_of_records_not_acquired(broker: Any, conn: BrokerConnection) -> None:
    _, group, tid, a, b, epoch = _a_holds_three_records(broker, conn, "ack")
    # acknowledgements in the opening fetch of a session: refused as a whole
    assert _fetch(conn, group, b, 0, tid, [(0, 0, ACCEPT)]).error_code == ErrorCode.INVALID_REQUEST
    # b's session opens; b acknowledges a record a holds: INVALID_RECORD_STATE, nothing changes
    assert _fetch(conn, group, b, 0, tid).error_code == ErrorCode.NONE
    refused = _fetch(conn, group, b, 1, tid, [(1, 1, ACCEPT)])
    assert refused.error_code == ErrorCode.NONE
    assert _partition(refused).acknowledge_error_code == ErrorCode.INVALID_RECORD_STATE
    # ShareAcknowledge cannot open a session; b's wrong epoch; a member without a session
    assert _ack(conn, group, b, 0, tid, 0, 0).error_code == ErrorCode.INVALID_SHARE_SESSION_EPOCH
    assert _ack(conn, group, b, 9, tid, 0, 0).error_code == ErrorCode.INVALID_SHARE_SESSION_EPOCH
    assert _ack(conn, group, _member(), 1, tid, 0, 0).error_code == ErrorCode.SHARE_SESSION_NOT_FOUND
    # the owner's own malformed acknowledgements: overlapping, unsorted or reversed ranges, offsets
    # past what it fetched, a type per offset that does not fit the range, an unknown type -- each
    # refused for the partition, nothing applied. A batch that starts at the previous batch's last
    # offset passes Kafka's request check and acknowledges that offset twice: INVALID_RECORD_STATE.
    malformed = [
        ([(0, 1, [ACCEPT]), (1, 2, [ACCEPT])], ErrorCode.INVALID_RECORD_STATE),
        ([(0, 0, [ACCEPT]), (0, 0, [ACCEPT])], ErrorCode.INVALID_RECORD_STATE),
        ([(0, 2, [ACCEPT]), (1, 2, [ACCEPT])], ErrorCode.INVALID_REQUEST),
        ([(2, 2, [ACCEPT]), (0, 0, [ACCEPT])], ErrorCode.INVALID_REQUEST),
        ([(0, 0, [ACCEPT]), (1, 1, [RELEASE]), (2, 2, [REJECT]), (1, 1, [ACCEPT])], ErrorCode.INVALID_REQUEST),
        ([(2, 0, [ACCEPT])], ErrorCode.INVALID_REQUEST),
        ([(0, 0, [ACCEPT]), (5, 5, [ACCEPT])], ErrorCode.INVALID_REQUEST),
        ([(0, 5, [ACCEPT])], ErrorCode.INVALID_REQUEST),
        ([(0, 2, [ACCEPT, ACCEPT])], ErrorCode.INVALID_REQUEST),
        ([(0, 0, [9])], ErrorCode.INVALID_REQUEST),
    ]
    for batches, code in malformed:
        response = _ack_batches(conn, group, a, epoch, tid, batches)
        epoch += 1
        got = response.error_code or _partition(response).error_code
        assert got == code, (batches, ErrorCode(got).name)
    # RENEW (KIP-1222, ShareAcknowledge v2 with IsRenewAck): a keeps its records, with a new lock,
    # and it is no new delivery
    renewed = _ack_batches(conn, group, a, epoch, tid, [(0, 2, [RENEW])], renew=True)
    epoch += 1
    assert renewed.error_code == ErrorCode.NONE
    assert _partition(renewed).error_code == ErrorCode.NONE
    # the owner's records were left alone: a releases all three (one of them accepted by a refused
    # request would make this fail), and b gets all three back on their second delivery
    released = _ack_batches(conn, group, a, epoch, tid, [(0, 2, [RELEASE])])
    assert released.error_code == ErrorCode.NONE
    assert _partition(released).error_code == ErrorCode.NONE
    again: list[tuple[int, int, int]] = []
    b_epoch, deadline = 2, time.monotonic() + 15
    while not again and time.monotonic() < deadline:
        response = _fetch(conn, group, b, b_epoch, tid)
        b_epoch += 1
        if response.responses:
            again = [(r.first_offset, r.last_offset, r.delivery_count) for r in _partition(response).acquired_records]
    assert again == [(0, 2, 2)]


def test_acknowledgements_below_the_start_offset(broker: Any, conn: BrokerConnection) -> None:
    """A client re-sending acknowledgements (a retry) for records already delivery-complete, below the
    share-partition start offset (SPSO): both brokers skip them and answer NONE -- while the fetched
    batch that held them is still cached in flight (part of it still acquired) and after it left the
    cache (all of it acknowledged) -- whoever sends them and with whatever type; a batch straddling
    the SPSO acknowledges only what is still in flight. Nothing is delivered twice afterwards."""
    topic, group, tid, a, b, epoch = _a_holds_three_records(broker, conn, "spso")
    bs = broker.bootstrap_servers
    b_epoch = 1
    assert _fetch(conn, group, b, 0, tid).error_code == ErrorCode.NONE  # b's session (acquires nothing)

    def ack(member: str, batches: list[tuple[int, int, list[int]]]) -> int:
        nonlocal epoch, b_epoch
        if member == a:
            response, epoch = _ack_batches(conn, group, a, epoch, tid, batches), epoch + 1
        else:
            response, b_epoch = _ack_batches(conn, group, b, b_epoch, tid, batches), b_epoch + 1
        return int(response.error_code or _partition(response).error_code)

    # the fetched batch 0-2 stays cached while 1-2 are still acquired: 0 is below the SPSO (1)
    assert ack(a, [(0, 0, [ACCEPT])]) == ErrorCode.NONE
    assert ack(a, [(0, 0, [ACCEPT])]) == ErrorCode.NONE
    assert ack(b, [(0, 0, [RELEASE])]) == ErrorCode.NONE
    # ... and still checked where it is in flight: 1 is a's, b cannot acknowledge it
    assert ack(b, [(0, 1, [ACCEPT])]) == ErrorCode.INVALID_RECORD_STATE
    # all of it acknowledged (the batch leaves the cache, SPSO 3): re-sent acknowledgements are skipped
    assert ack(a, [(1, 2, [ACCEPT])]) == ErrorCode.NONE
    assert ack(a, [(0, 2, [ACCEPT])]) == ErrorCode.NONE
    assert ack(b, [(1, 1, [REJECT]), (2, 2, [RELEASE])]) == ErrorCode.NONE
    # a batch straddling the SPSO: only 3-4 (still acquired by a) are acknowledged
    _produce(bs, topic, range(3, 6))
    acquired = []
    deadline = time.monotonic() + 30
    while not acquired and time.monotonic() < deadline:
        response = _fetch(conn, group, a, epoch, tid)
        epoch += 1
        if response.responses:
            acquired = _partition(response).acquired_records
    assert [(r.first_offset, r.last_offset, r.delivery_count) for r in acquired] == [(3, 5, 1)]
    assert ack(a, [(1, 4, [ACCEPT])]) == ErrorCode.NONE
    assert ack(b, [(5, 5, [ACCEPT])]) == ErrorCode.INVALID_RECORD_STATE  # 5 is still a's
    assert ack(a, [(0, 5, [ACCEPT])]) == ErrorCode.NONE
    # nothing of 0-5 comes back: b's next acquisition is the next new record, on its first delivery
    _produce(bs, topic, range(6, 7))
    got: list[tuple[int, int, int]] = []
    deadline = time.monotonic() + 30
    while not got and time.monotonic() < deadline:
        response = _fetch(conn, group, b, b_epoch, tid)
        b_epoch += 1
        if response.responses:
            got = [(r.first_offset, r.last_offset, r.delivery_count) for r in _partition(response).acquired_records]
    assert got == [(6, 6, 1)]


def test_closed_connection_releases_its_sessions_records(broker: Any, conn: BrokerConnection) -> None:
    topic, group = _name("dc"), _share_group(broker, _name("gdc"))
    create_topic(broker.bootstrap_servers, topic, 1)
    _produce(broker.bootstrap_servers, topic, range(2))
    tid = _topic_id(conn, topic)
    a, b = _member(), _member()
    for m in (a, b):
        assert _heartbeat(conn, group, m, 0, [topic]).error_code == ErrorCode.NONE

    def acquire(c: BrokerConnection, member: str) -> list[tuple[int, int, int]]:
        epoch, got = 0, []
        deadline = time.monotonic() + 15
        while not got and time.monotonic() < deadline:
            response = _fetch(c, group, member, epoch, tid)
            epoch += 1
            if response.responses:
                got = [(r.first_offset, r.last_offset, r.delivery_count) for r in _partition(response).acquired_records]
        return got

    with BrokerConnection.from_bootstrap(broker.bootstrap_servers, timeout=30) as other:
        assert acquire(other, a) == [(0, 1, 1)]
    # a's connection is gone: its share session ends and its records are available again at once
    # (long before the 30 s acquisition lock would expire)
    assert acquire(conn, b) == [(0, 1, 2)]


LOCK_MS = 15_000  # Apache's smallest (group.share.min.record.lock.duration.ms); the same group config on both


@pytest.mark.slow
def test_lock_expiry_redelivers_to_another_member(broker: Any, conn: BrokerConnection) -> None:
    """Member a acquires the records on a raw share session and keeps it (connection open, heartbeats)
    but never acknowledges; when the acquisition lock (share.record.lock.duration.ms) expires, member b,
    a confluent-kafka ShareConsumer, gets them on their second delivery."""
    from confluent_kafka import AcknowledgeType

    from tests.integration.test_share_groups import _consumer, _set_group_config

    bs = broker.bootstrap_servers
    topic, group = _name("lock"), _share_group(broker, _name("glock"))
    _set_group_config(bs, group, "share.record.lock.duration.ms", str(LOCK_MS))
    create_topic(bs, topic, 1)
    _produce(bs, topic, range(3))
    tid = _topic_id(conn, topic)
    a = _member()
    joined = _heartbeat(conn, group, a, 0, [topic])
    assert joined.error_code == ErrorCode.NONE
    a_member_epoch = joined.member_epoch
    epoch, acquired = _acquire(conn, group, a, tid)
    assert [(r.first_offset, r.last_offset, r.delivery_count) for r in acquired] == [(0, 2, 1)]

    b = _consumer(bs, group, topic, **{"share.acknowledgement.mode": "explicit"})
    try:
        got: dict[int, int] = {}
        next_heartbeat, deadline = 0.0, time.monotonic() + LOCK_MS / 1000 + 45
        while len(got) < 3:
            assert time.monotonic() < deadline, f"b got only {got}"
            if time.monotonic() >= next_heartbeat:  # a stays a member of the group all along
                beat = _heartbeat(conn, group, a, a_member_epoch, None)
                assert beat.error_code == ErrorCode.NONE, ErrorCode(beat.error_code).name
                a_member_epoch, next_heartbeat = beat.member_epoch, time.monotonic() + 3
            for m in b.poll(0.5):
                assert m.error() is None, m.error()
                value, count = m.value(), m.delivery_count()
                assert value is not None and count is not None
                got[int(value)] = count
                b.acknowledge(m, AcknowledgeType.ACCEPT)
            b.commit_sync(30)
        assert got == {0: 2, 1: 2, 2: 2}
    finally:
        b.close()
