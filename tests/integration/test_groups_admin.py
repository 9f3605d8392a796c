"""Consumer groups, scenario 7: independent groups, ListGroups, DeleteGroups, OffsetDelete.

Two groups consume the same topic independently (each reads everything, each has its own
committed offsets). ListGroups shows both with their states. DeleteGroups refuses a group with
members (NON_EMPTY_GROUP) and deletes it once they left; OffsetDelete refuses partitions of a
topic the group's members subscribe to (GROUP_SUBSCRIBED_TO_TOPIC) and works on an Empty group.
Deletions are durable: they are still in effect after a broker restart.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from kafka_wire.errors import ErrorCode
from tests.integration.group_util import (
    RawMember,
    delete_offsets,
    fetch_offsets,
    group_broker,
    list_groups,
    make_topic,
    produce_keyed,
    unique,
    wait_until,
)

pytestmark = pytest.mark.timeout(90)

PARTITIONS = 4
PER_PARTITION = 5


def _consumer(bootstrap: str, group: str) -> Any:
    from confluent_kafka import Consumer

    return Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "session.timeout.ms": 3000,
            "heartbeat.interval.ms": 300,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )


def _consume_group(consumers: list[Any], expected: int, timeout: float = 30) -> set[tuple[int, int]]:
    """Poll every consumer until the group has read `expected` distinct records and is split."""
    seen: set[tuple[int, int]] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for c in consumers:
            for m in c.consume(num_messages=500, timeout=0.02):
                if m.error() is None:
                    seen.add((m.partition(), m.offset()))
        owned = [tp.partition for c in consumers for tp in c.assignment()]
        if (
            len(seen) >= expected
            and sorted(owned) == list(range(PARTITIONS))
            and all(c.assignment() for c in consumers)
        ):
            return seen
    raise AssertionError(f"group read {len(seen)} of {expected} records")


def _delete_groups_kafka_python(bootstrap: str, groups: list[str]) -> dict[str, Any]:
    from kafka import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10000)
    try:
        return dict(admin.delete_groups(groups))
    finally:
        admin.close()


def test_two_groups_list_delete_offset_delete(tmp_path: Path) -> None:
    from confluent_kafka import ConsumerGroupState, KafkaError, KafkaException, TopicPartition
    from confluent_kafka.admin import AdminClient

    log_dir = tmp_path / "broker"
    with group_broker(log_dir=log_dir) as b:
        bs = b.bootstrap_servers
        topic = make_topic(bs, PARTITIONS)
        other_topic = make_topic(bs, 1, prefix="other")
        produce_keyed(bs, topic, PARTITIONS, PER_PARTITION)
        g1, g2 = unique("g1"), unique("g2")

        # g2 has an offset for a topic its members will not subscribe to (a simple commit while Empty)
        raw = RawMember(bs, g2, [other_topic])
        try:
            assert raw.commit({(other_topic, 0): (1, "old")}, generation=-1, member_id="") == {
                (other_topic, 0): ErrorCode.NONE
            }
        finally:
            raw.close()

        c1 = [_consumer(bs, g1) for _ in range(2)]
        c2 = [_consumer(bs, g2) for _ in range(2)]
        admin = AdminClient({"bootstrap.servers": bs})
        try:
            for c in [*c1, *c2]:
                c.subscribe([topic])
            everything = {(p, o) for p in range(PARTITIONS) for o in range(PER_PARTITION)}
            assert _consume_group(c1, len(everything)) == everything
            assert _consume_group(c2, len(everything)) == everything

            # separate commits: g1 at the end, g2 at 2
            for group_consumers, offset in ((c1, PER_PARTITION), (c2, 2)):
                for c in group_consumers:
                    mine = [TopicPartition(topic, tp.partition, offset) for tp in c.assignment()]
                    c.commit(offsets=mine, asynchronous=False)
            assert fetch_offsets(bs, g1, topic, range(PARTITIONS)) == {
                p: (PER_PARTITION, "") for p in range(PARTITIONS)
            }
            assert fetch_offsets(bs, g2, topic, range(PARTITIONS)) == {p: (2, "") for p in range(PARTITIONS)}

            # ListGroups: both, Stable (raw, confluent admin with a state filter)
            listed = list_groups(bs)
            assert listed[g1] == listed[g2] == "Stable", listed
            stable = admin.list_consumer_groups(states={ConsumerGroupState.STABLE}, request_timeout=10).result()
            assert {g1, g2} <= {x.group_id for x in stable.valid}
            empty = admin.list_consumer_groups(states={ConsumerGroupState.EMPTY}, request_timeout=10).result()
            assert not {g1, g2} & {x.group_id for x in empty.valid}

            # DeleteGroups of a group with members: NON_EMPTY_GROUP (68)
            with pytest.raises(KafkaException) as exc:
                admin.delete_consumer_groups([g1], request_timeout=10)[g1].result()
            assert exc.value.args[0].code() == KafkaError.NON_EMPTY_GROUP
            assert _delete_groups_kafka_python(bs, [g1])[g1] is not None  # kafka-python reports the error too
            assert list_groups(bs)[g1] == "Stable"

            # OffsetDelete on a subscribed topic: GROUP_SUBSCRIBED_TO_TOPIC (86); other topics: fine
            code, codes = delete_offsets(bs, g2, topic, [0])
            assert code == ErrorCode.NONE and codes == {0: ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC}
            assert fetch_offsets(bs, g2, topic, [0]) == {0: (2, "")}
            code, codes = delete_offsets(bs, g2, other_topic, [0])
            assert code == ErrorCode.NONE and codes == {0: ErrorCode.NONE}
            assert fetch_offsets(bs, g2, other_topic, [0]) == {}

            # g1's members leave: g1 is Empty and can be deleted; g2 does not notice
            for c in c1:
                c.close()
            c1 = []
            wait_until(lambda: list_groups(bs).get(g1) == "Empty", 10, what="g1 Empty")
            admin.delete_consumer_groups([g1], request_timeout=10)[g1].result()
            assert g1 not in list_groups(bs)
            assert fetch_offsets(bs, g1, topic, range(PARTITIONS)) == {}
            assert list_groups(bs)[g2] == "Stable"
            assert fetch_offsets(bs, g2, topic, range(PARTITIONS)) == {p: (2, "") for p in range(PARTITIONS)}
            # deleting it again, or a group that never existed: GROUP_ID_NOT_FOUND (69)
            assert _delete_groups_kafka_python(bs, [g1, "never-was"]) != {}
            with pytest.raises(KafkaException) as exc:
                admin.delete_consumer_groups(["never-was"], request_timeout=10)["never-was"].result()
            assert exc.value.args[0].code() == KafkaError.GROUP_ID_NOT_FOUND

            # g2's members leave: OffsetDelete on the now Empty group works
            for c in c2:
                c.close()
            c2 = []
            wait_until(lambda: list_groups(bs).get(g2) == "Empty", 10, what="g2 Empty")
            code, codes = delete_offsets(bs, g2, topic, [0, 1])
            assert code == ErrorCode.NONE and codes == {0: ErrorCode.NONE, 1: ErrorCode.NONE}
            assert fetch_offsets(bs, g2, topic, range(PARTITIONS)) == {2: (2, ""), 3: (2, "")}
        finally:
            for c in [*c1, *c2]:
                c.close()

    # the deletions are durable
    with group_broker(log_dir=log_dir) as b:
        bs = b.bootstrap_servers
        groups = list_groups(bs)
        assert g1 not in groups
        assert groups.get(g2) == "Empty"
        assert fetch_offsets(bs, g1, topic, range(PARTITIONS)) == {}
        assert fetch_offsets(bs, g2, topic, range(PARTITIONS)) == {2: (2, ""), 3: (2, "")}
        assert fetch_offsets(bs, g2, other_topic, [0]) == {}


def test_delete_groups_error_codes_raw() -> None:
    """DeleteGroups per group: NON_EMPTY_GROUP for a group with a member, NONE once it left,
    GROUP_ID_NOT_FOUND for unknown groups; INVALID_GROUP_ID for an empty id."""
    from kafka_wire.client import BrokerConnection
    from kafka_wire.protocol.messages import delete_groups_request

    with group_broker() as b:
        bs = b.bootstrap_servers
        topic = make_topic(bs, 1)
        group = unique("del")
        m = RawMember(bs, group, [topic])
        try:
            assert m.join().error_code == ErrorCode.NONE
            assert m.sync(m.range_assignment(1)).error_code == ErrorCode.NONE

            def delete(*groups: str) -> dict[str, int]:
                with BrokerConnection.from_bootstrap(bs, timeout=10) as conn:
                    resp = conn.request(42, delete_groups_request.DeleteGroupsRequest(groups_names=list(groups)))
                return {r.group_id: r.error_code for r in resp.results}

            assert delete(group, "nope", "") == {
                group: ErrorCode.NON_EMPTY_GROUP,
                "nope": ErrorCode.GROUP_ID_NOT_FOUND,
                "": ErrorCode.INVALID_GROUP_ID,
            }
            assert [x.error_code for x in m.leave().members] == [ErrorCode.NONE]
            assert delete(group) == {group: ErrorCode.NONE}
            assert delete(group) == {group: ErrorCode.GROUP_ID_NOT_FOUND}
        finally:
            m.close()
