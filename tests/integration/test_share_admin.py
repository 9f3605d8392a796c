"""Share-group administration (KIP-932), differential: ours and Apache Kafka 4.3.1.

* Kafka's own ``kafka-share-groups`` tool (ShareGroupCommand): ``--list --state``,
  ``--describe --members``, ``--reset-offsets --to-earliest --execute`` (refused while the group
  has a member, then applied), ``--describe --offsets`` (start offsets and lag), ``--delete``.
* The wire: DescribeShareGroupOffsets (90), AlterShareGroupOffsets (91), DeleteShareGroupOffsets
  (92), ListGroups / DescribeGroups / DeleteGroups of a share group, and their error codes.

Not compared: the start offset right after records were acknowledged (Apache Kafka's share
coordinator holds the start offset written with the acknowledgement, before it moves, so it depends
on how the records were batched) and the group/member epochs (Apache Kafka bumps the group epoch
when it initializes share-partitions).
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Producer, ShareConsumer

from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import alter_share_group_offsets_request as alter_rq
from kafka_wire.protocol.messages import delete_groups_request, describe_groups_request, list_groups_request
from kafka_wire.protocol.messages import delete_share_group_offsets_request as delete_rq
from kafka_wire.protocol.messages import describe_share_group_offsets_request as describe_rq
from tests.integration.test_kip848_consumer_group import create_topic
from tests.integration.test_share_bad_input import _coordinator_ready
from tests.integration.test_share_groups import _share_group

SHARE_GROUPS = "org.apache.kafka.tools.consumer.group.ShareGroupCommand"
DESCRIBE, ALTER, DELETE = 90, 91, 92
NO_TOPIC_ID = bytes(16)


@pytest.fixture(scope="module", params=["ours", "apache"])
def broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "ours":
        from broker_embedded import EmbeddedBroker

        with EmbeddedBroker(num_partitions=1) as b:
            yield b
        return
    yield request.getfixturevalue("apache_kafka")


def _name(prefix: str) -> str:
    return f"sadm-{prefix}-{uuid.uuid4().hex[:8]}"


def _produce(bootstrap: str, topic: str, count: int) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for i in range(count):
        p.produce(topic, str(i).encode(), partition=i % 2)
    assert p.flush(30) == 0


def _rows(text: str) -> list[list[str]]:
    """The rows of the tool's table, sorted (the tool prints partitions in no fixed order); the
    header and blank lines left out."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    return sorted(row for row in lines if row and row[0] != "GROUP")


def test_kafka_share_groups_tool(broker: Any, java_client: Any) -> None:
    bs = broker.bootstrap_servers

    def tool(*args: str, check: bool = True) -> Any:
        return java_client.run(SHARE_GROUPS, "--bootstrap-server", bs, *args, check=check)

    topic, group = _name("t"), _share_group(broker, _name("g"))
    create_topic(bs, topic, 2)
    _produce(bs, topic, 10)
    c = ShareConsumer({"bootstrap.servers": bs, "group.id": group, "client.id": "sadm"})
    c.subscribe([topic])
    try:
        got = 0
        deadline = time.monotonic() + 45
        while got < 10 and time.monotonic() < deadline:
            got += sum(1 for m in c.poll(0.5) if m.error() is None)
        assert got == 10
        c.poll(0.2)  # implicit acknowledgement of the last batch

        listed = tool("--list", "--state", "stable").stdout
        assert [group, "Stable"] in _rows(listed), listed
        members = _rows(tool("--describe", "--group", group, "--members").stdout)
        assert len(members) == 1, members
        # GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS ASSIGNMENT
        assert members[0][0] == group and members[0][2:] == ["/127.0.0.1", "sadm", "2", f"{topic}:0,1"]
        refused = tool("--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute", check=False)
        assert refused.returncode == 1 and f"Share group '{group}' is not empty." in refused.stderr, refused
    finally:
        c.close()

    reset = tool("--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute").stdout
    assert _rows(reset) == [[group, topic, "0", "0"], [group, topic, "1", "0"]], reset
    # every record is available again: start offset 0, lag 5 on each partition
    offsets = tool("--describe", "--group", group, "--offsets").stdout
    assert _rows(offsets) == [[group, topic, "0", "0", "5"], [group, topic, "1", "0", "5"]], offsets
    deleted = tool("--delete", "--group", group).stdout
    assert re.search(rf"Deletion of requested share groups \('{group}'\) was successful", deleted), deleted
    with BrokerConnection.from_bootstrap(bs, timeout=30) as conn:
        listed_after = conn.request(16, list_groups_request.ListGroupsRequest(types_filter=["share"]), 5)
        assert group not in [g.group_id for g in listed_after.groups]


def _describe(conn: BrokerConnection, group: str, topics: list[tuple[str, list[int]]] | None) -> Any:
    wanted = (
        None
        if topics is None
        else [describe_rq.DescribeShareGroupOffsetsRequestTopic(topic_name=t, partitions=ps) for t, ps in topics]
    )
    body = describe_rq.DescribeShareGroupOffsetsRequest(
        groups=[describe_rq.DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=wanted)]
    )
    g = conn.request(DESCRIBE, body, 1).groups[0]
    assert g.error_code == ErrorCode.NONE, g
    return {
        (t.topic_name, p.partition_index): (p.start_offset, p.lag, p.error_code) for t in g.topics for p in t.partitions
    }


def _alter(conn: BrokerConnection, group: str, offsets: dict[str, list[tuple[int, int]]]) -> Any:
    topics = [
        alter_rq.AlterShareGroupOffsetsRequestTopic(
            topic_name=t,
            partitions=[
                alter_rq.AlterShareGroupOffsetsRequestPartition(partition_index=i, start_offset=o) for i, o in ps
            ],
        )
        for t, ps in offsets.items()
    ]
    return conn.request(ALTER, alter_rq.AlterShareGroupOffsetsRequest(group_id=group, topics=topics), 0)


def test_share_group_offsets_wire(broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group = _name("w"), _name("gw")
    create_topic(bs, topic, 2)
    _produce(bs, topic, 10)
    with BrokerConnection.from_bootstrap(bs, timeout=30) as conn:
        _coordinator_ready(conn, group)
        # nothing known yet: every asked partition is -1, a missing topic has no id
        assert _describe(conn, group, [(topic, [0])]) == {(topic, 0): (-1, -1, 0)}
        # altering an unknown group creates it (empty); an unknown topic fails per partition
        r = _alter(conn, group, {topic: [(0, 2)], "sadm-missing": [(0, 1)]})
        assert r.error_code == ErrorCode.NONE
        by_topic = {
            t.topic_name: (t.topic_id, [(p.partition_index, p.error_code) for p in t.partitions]) for t in r.responses
        }
        assert by_topic["sadm-missing"] == (NO_TOPIC_ID, [(0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)])
        assert by_topic[topic][1] == [(0, ErrorCode.NONE)] and by_topic[topic][0] != NO_TOPIC_ID
        assert _describe(conn, group, None) == {(topic, 0): (2, 3, 0)}
        assert _describe(conn, group, [(topic, [0, 1])]) == {(topic, 0): (2, 3, 0), (topic, 1): (-1, -1, 0)}
        # Kafka takes any offset: past the end gives a negative lag
        assert _alter(conn, group, {topic: [(0, 99), (1, 4)]}).error_code == ErrorCode.NONE
        assert _describe(conn, group, None) == {(topic, 0): (99, -94, 0), (topic, 1): (4, 1, 0)}

        listed = conn.request(16, list_groups_request.ListGroupsRequest(types_filter=["share"]), 5).groups
        assert [(g.protocol_type, g.group_state, g.group_type) for g in listed if g.group_id == group] == [
            ("share", "Empty", "share")
        ]
        assert not [
            g
            for g in conn.request(16, list_groups_request.ListGroupsRequest(types_filter=["consumer"]), 5).groups
            if g.group_id == group
        ]
        described = conn.request(15, describe_groups_request.DescribeGroupsRequest(groups=[group]), 6).groups[0]
        assert (described.error_code, described.error_message, described.group_state) == (
            ErrorCode.GROUP_ID_NOT_FOUND,
            f"Group {group} is not a classic group.",
            "Dead",
        )

        body = delete_rq.DeleteShareGroupOffsetsRequest(
            group_id=group,
            topics=[
                delete_rq.DeleteShareGroupOffsetsRequestTopic(topic_name=n) for n in (topic, topic, "sadm-missing")
            ],
        )
        r = conn.request(DELETE, body, 0)
        assert r.error_code == ErrorCode.NONE
        assert sorted((t.topic_name, t.error_code) for t in r.responses) == sorted(
            [(topic, ErrorCode.NONE), ("sadm-missing", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]
        )
        assert _describe(conn, group, None) == {}
        nobody = delete_rq.DeleteShareGroupOffsetsRequest(
            group_id=_name("none"), topics=[delete_rq.DeleteShareGroupOffsetsRequestTopic(topic_name=topic)]
        )
        _coordinator_ready(conn, nobody.group_id)
        assert conn.request(DELETE, nobody, 0).error_code == ErrorCode.GROUP_ID_NOT_FOUND

        # a member makes the group non-empty: alter, delete offsets and DeleteGroups are refused
        c = ShareConsumer({"bootstrap.servers": bs, "group.id": group})
        c.subscribe([topic])
        try:
            deadline = time.monotonic() + 30
            while True:
                c.poll(0.2)
                listed = conn.request(16, list_groups_request.ListGroupsRequest(states_filter=["stable"]), 5).groups
                if any(g.group_id == group for g in listed):
                    break
                assert time.monotonic() < deadline, "the consumer never joined"
            refused = _alter(conn, group, {topic: [(0, 1)]})
            assert (refused.error_code, refused.error_message) == (ErrorCode.NON_EMPTY_GROUP, "The group is not empty.")
            assert conn.request(DELETE, body, 0).error_code == ErrorCode.NON_EMPTY_GROUP
            deleting = delete_groups_request.DeleteGroupsRequest(groups_names=[group])
            assert conn.request(42, deleting, 2).results[0].error_code == ErrorCode.NON_EMPTY_GROUP
        finally:
            c.close()
        # empty again (the member left on close): the group can be deleted, then it is gone
        deadline = time.monotonic() + 30
        while (code := conn.request(42, deleting, 2).results[0].error_code) == ErrorCode.NON_EMPTY_GROUP:
            assert time.monotonic() < deadline, "the group never became empty"
            time.sleep(0.2)
        assert code == ErrorCode.NONE
        assert conn.request(42, deleting, 2).results[0].error_code == ErrorCode.GROUP_ID_NOT_FOUND


def test_share_coordinator_rpcs(broker: Any) -> None:
    """FindCoordinator key type 2 and the share coordinator's RPCs (83-87), as a share-partition leader
    sends them: uninitialized keys, state and leader epoch fencing, start offset moves, delete."""
    import base64

    from kafka_wire.protocol.messages import delete_share_group_state_request as dl
    from kafka_wire.protocol.messages import find_coordinator_request as fc
    from kafka_wire.protocol.messages import initialize_share_group_state_request as ini
    from kafka_wire.protocol.messages import metadata_request
    from kafka_wire.protocol.messages import read_share_group_state_request as rd
    from kafka_wire.protocol.messages import read_share_group_state_summary_request as rsum
    from kafka_wire.protocol.messages import write_share_group_state_request as wr

    bs = broker.bootstrap_servers
    topic, group = _name("s"), _name("gs")
    create_topic(bs, topic, 1)
    with BrokerConnection.from_bootstrap(bs, timeout=30) as c:
        md = c.request(
            3, metadata_request.MetadataRequest(topics=[metadata_request.MetadataRequestTopic(name=topic)]), 12
        )
        tid = md.topics[0].topic_id
        key = f"{group}:{base64.urlsafe_b64encode(tid).decode().rstrip('=')}:0"

        def find(k: str, version: int = 6) -> Any:
            return c.request(10, fc.FindCoordinatorRequest(key_type=2, coordinator_keys=[k]), version).coordinators[0]

        def read(leader_epoch: int = 0) -> tuple[Any, ...]:
            body = rd.ReadShareGroupStateRequest(
                group_id=group,
                topics=[
                    rd.ReadStateData(
                        topic_id=tid, partitions=[rd.PartitionData(partition=0, leader_epoch=leader_epoch)]
                    )
                ],
            )
            p = c.request(84, body, 0).results[0].partitions[0]
            batches = [(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count) for b in p.state_batches]
            return p.error_code, p.state_epoch, p.start_offset, batches

        def summary(leader_epoch: int = 0) -> tuple[int, ...]:
            body = rsum.ReadShareGroupStateSummaryRequest(
                group_id=group,
                topics=[
                    rsum.ReadStateSummaryData(
                        topic_id=tid, partitions=[rsum.PartitionData(partition=0, leader_epoch=leader_epoch)]
                    )
                ],
            )
            p = c.request(87, body, 1).results[0].partitions[0]
            return p.error_code, p.state_epoch, p.leader_epoch, p.start_offset, p.delivery_complete_count

        def init(state_epoch: int, start: int) -> int:
            body = ini.InitializeShareGroupStateRequest(
                group_id=group,
                topics=[
                    ini.InitializeStateData(
                        topic_id=tid,
                        partitions=[ini.PartitionData(partition=0, state_epoch=state_epoch, start_offset=start)],
                    )
                ],
            )
            return c.request(83, body, 0).results[0].partitions[0].error_code

        def write(
            state_epoch: int, leader_epoch: int, start: int, batches: list[tuple[int, int, int, int]], dcc: int = -1
        ) -> int:
            part = wr.PartitionData(
                partition=0,
                state_epoch=state_epoch,
                leader_epoch=leader_epoch,
                start_offset=start,
                delivery_complete_count=dcc,
                state_batches=[
                    wr.StateBatch(first_offset=a, last_offset=b, delivery_state=s, delivery_count=n)
                    for a, b, s, n in batches
                ],
            )
            body = wr.WriteShareGroupStateRequest(
                group_id=group, topics=[wr.WriteStateData(topic_id=tid, partitions=[part])]
            )
            return c.request(85, body, 1).results[0].partitions[0].error_code

        def delete() -> int:
            body = dl.DeleteShareGroupStateRequest(
                group_id=group, topics=[dl.DeleteStateData(topic_id=tid, partitions=[dl.PartitionData(partition=0)])]
            )
            return c.request(86, body, 0).results[0].partitions[0].error_code

        deadline = time.monotonic() + 30
        while find(key).error_code != ErrorCode.NONE:
            assert time.monotonic() < deadline, "no share coordinator"
            time.sleep(0.2)
        assert find("no-colons").error_code == ErrorCode.INVALID_REQUEST
        assert find(key, 5).error_code == ErrorCode.INVALID_REQUEST  # key type 2 needs v6
        # Apache Kafka loads the state partition after the lookup: NOT_COORDINATOR until then
        deadline = time.monotonic() + 30
        while read()[0] == ErrorCode.NOT_COORDINATOR:
            assert time.monotonic() < deadline, "the share coordinator never loaded"
            time.sleep(0.2)
        # and its shard checks the topic in the metadata image it last saw (ShareCoordinatorShard):
        # UNKNOWN_TOPIC_OR_PARTITION for a topic just created, until the image has it (seen under CI load)
        while summary()[0] == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
            assert time.monotonic() < deadline, "the share coordinator never saw the topic"
            time.sleep(0.2)
        assert read() == (ErrorCode.INVALID_REQUEST, 0, 0, [])  # never initialized
        assert summary() == (ErrorCode.NONE, 0, 0, -1, -1)
        assert write(0, 0, 0, []) == ErrorCode.INVALID_REQUEST
        assert init(0, 5) == ErrorCode.NONE
        assert read() == (ErrorCode.NONE, 0, 5, [])
        assert init(1, 3) == ErrorCode.NONE
        assert write(0, 0, 3, []) == ErrorCode.FENCED_STATE_EPOCH
        acknowledged, available, archived = 2, 0, 4
        assert write(1, 2, 3, [(3, 4, acknowledged, 1), (5, 5, available, 2)], 2) == ErrorCode.NONE
        assert read(2) == (ErrorCode.NONE, 1, 3, [(3, 4, acknowledged, 1), (5, 5, available, 2)])
        assert summary(2) == (ErrorCode.NONE, 1, 2, 3, 2)
        assert read(1)[0] == ErrorCode.FENCED_LEADER_EPOCH
        assert write(1, 1, 3, []) == ErrorCode.FENCED_LEADER_EPOCH
        assert write(1, 2, -1, [(6, 6, archived, 1)]) == ErrorCode.NONE  # -1: the start offset stays
        assert read(2)[2:] == (3, [(3, 4, acknowledged, 1), (5, 5, available, 2), (6, 6, archived, 1)])
        assert write(1, 3, 5, [], 1) == ErrorCode.NONE  # the start offset moves: batches below it go
        assert read(3) == (ErrorCode.NONE, 1, 5, [(5, 5, available, 2), (6, 6, archived, 1)])
        assert delete() == ErrorCode.NONE
        assert read(3)[0] == ErrorCode.INVALID_REQUEST
        assert delete() == ErrorCode.NONE
        assert init(0, 9) == ErrorCode.NONE
        assert read() == (ErrorCode.NONE, 0, 9, [])
