"""ClusterShareAdmin (share-group admin in a cluster) on a fake cluster image and fake connections:
requests grouped by share coordinator, a coordinator that moves looked up again, a dead one answered
with its error at the deadline (fake clock), lag from the partition leader's high watermark."""

from __future__ import annotations

import uuid
from typing import Any

from broker_embedded.controller.controller_client import BrokerInfo, ClusterImage, TopicImage
from broker_embedded.group.share_admin import PartitionOffsets
from broker_embedded.group.share_admin_cluster import ClusterShareAdmin
from broker_embedded.replication.state import PartitionState
from broker_embedded.share.persister import SHARE_STATE_TOPIC, partition_for
from broker_embedded.share.state import ShareGroupStateKey
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import delete_share_group_state_response as dl
from kafka_wire.protocol.messages import list_offsets_response as lo
from kafka_wire.protocol.messages import read_share_group_state_summary_response as rsum

TOPIC, TID = "t", uuid.uuid4().bytes
GROUP = "g"
STATE_PARTITIONS = 4


def _partition(topic: str, tid: bytes, index: int, leader: int) -> PartitionState:
    return PartitionState(
        topic=topic,
        partition=index,
        topic_id=tid,
        leader=leader,
        leader_epoch=3,
        isr=(1, 2, 3),
        replicas=(1, 2, 3),
        partition_epoch=1,
    )


def _image(state_leaders: dict[int, int]) -> ClusterImage:
    brokers = {n: BrokerInfo(n, "h", 9000 + n, None, False) for n in (1, 2, 3)}
    topics = {
        TOPIC: TopicImage(TOPIC, TID, {}, [_partition(TOPIC, TID, i, 1 + i) for i in range(3)]),
        SHARE_STATE_TOPIC: TopicImage(
            SHARE_STATE_TOPIC,
            uuid.uuid4().bytes,
            {},
            [_partition(SHARE_STATE_TOPIC, b"", i, state_leaders.get(i, 1)) for i in range(STATE_PARTITIONS)],
        ),
        "__consumer_offsets": TopicImage("__consumer_offsets", uuid.uuid4().bytes, {}, [_partition("x", b"", 0, 1)]),
    }
    return ClusterImage(1, "c", brokers, topics)


def _state_partition(index: int) -> int:
    return partition_for(ShareGroupStateKey(GROUP, str(uuid.UUID(bytes=TID)), index), STATE_PARTITIONS)


class FakeBrokers:
    """Share coordinators and partition leaders behind fake connections: `state` per (node, key)."""

    def __init__(self) -> None:
        self.state: dict[int, dict[tuple[bytes, int], tuple[int, int]]] = {}  # (start, delivery complete)
        self.hw = {(TOPIC, i): 10 for i in range(3)}
        self.down: set[int] = set()
        self.not_coordinator: set[int] = set()
        self.sent: list[tuple[int, int, list[tuple[bytes, int]]]] = []  # (node, api key, keys)

    def send(self, address: tuple[str, int], api_key: int, body: Any, version: int) -> Any:
        node = address[1] - 9000
        if node in self.down:
            raise OSError("connection refused")
        if api_key == 2:
            return lo.ListOffsetsResponse(
                topics=[
                    lo.ListOffsetsTopicResponse(
                        name=t.name,
                        partitions=[
                            lo.ListOffsetsPartitionResponse(
                                partition_index=p.partition_index, offset=self.hw[(t.name, p.partition_index)]
                            )
                            for p in t.partitions
                        ],
                    )
                    for t in body.topics
                ]
            )
        keys = [(bytes(t.topic_id), p.partition) for t in body.topics for p in t.partitions]
        self.sent.append((node, api_key, keys))
        held = self.state.setdefault(node, {})
        code = ErrorCode.NOT_COORDINATOR if node in self.not_coordinator else ErrorCode.NONE
        if api_key == 87:
            parts = []
            for tid, index in keys:
                start, complete = held.get((tid, index), (-1, -1))
                parts.append(
                    rsum.PartitionResult(
                        partition=index, error_code=code, start_offset=start, delivery_complete_count=complete
                    )
                )
            return rsum.ReadShareGroupStateSummaryResponse(results=[rsum.ReadStateSummaryResult(TID, parts)])
        assert api_key == 86
        for key in keys:
            if code == ErrorCode.NONE:
                held.pop(key, None)
        return dl.DeleteShareGroupStateResponse(
            results=[dl.DeleteStateResult(TID, [dl.PartitionResult(partition=i, error_code=code) for _, i in keys])]
        )


class FakeChannel:
    def __init__(self, brokers: FakeBrokers) -> None:
        self.brokers = brokers
        self._connections: dict[tuple[str, int], Any] = {}

    def send(self, address: tuple[str, int], api_key: int, body: Any, version: int) -> Any:
        return self.brokers.send(address, api_key, body, version)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.now += s


def _admin(image: list[ClusterImage], brokers: FakeBrokers, clock: FakeClock) -> ClusterShareAdmin:
    return ClusterShareAdmin(lambda: image[0], FakeChannel(brokers), timeout_s=5, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]


def test_describe_reads_each_key_at_its_coordinator_and_lag_from_the_leader() -> None:
    # state partition of each key led by a different node where possible
    leaders = {_state_partition(i): 1 + i for i in range(3)}
    image, brokers, clock = [_image(leaders)], FakeBrokers(), FakeClock()
    for i in range(3):
        brokers.state.setdefault(leaders[_state_partition(i)], {})[(TID, i)] = (2 + i, 1)
    brokers.state[leaders[_state_partition(1)]].pop((TID, 1))  # partition 1: no state
    admin = _admin(image, brokers, clock)

    every = admin.describe_offsets(GROUP, None)
    assert [(t.name, t.partitions) for t in every] == [
        (TOPIC, [PartitionOffsets(0, 2, 0, 10 - 2 - 1), PartitionOffsets(2, 4, 0, 10 - 4 - 1)])
    ]
    asked = admin.describe_offsets(GROUP, [(TOPIC, [1, 2, 7]), ("missing", [0])])
    assert [(t.name, t.partitions) for t in asked] == [
        (TOPIC, [PartitionOffsets(1, -1, 0, -1), PartitionOffsets(2, 4, 0, 5), PartitionOffsets(7, -1, 0, -1)]),
        ("missing", [PartitionOffsets(0, -1, 0, -1)]),
    ]
    # the first describe: one summary request per share coordinator, internal topics never asked
    first = [(node, keys) for node, api, keys in brokers.sent if api == 87][: len(set(leaders.values()))]
    assert sorted(node for node, _ in first) == sorted(set(leaders.values()))
    assert sorted(k for _, keys in first for k in keys) == [(TID, i) for i in range(3)]


def test_a_moving_coordinator_is_looked_up_again_and_a_dead_one_times_out() -> None:
    image, brokers, clock = [_image({})], FakeBrokers(), FakeClock()  # every state partition on node 1
    brokers.state[2] = {(TID, i): (5, 0) for i in range(3)}
    brokers.not_coordinator.add(1)
    admin = _admin(image, brokers, clock)

    def move() -> None:  # the state partitions move to node 2 after the first NOT_COORDINATOR
        clock.now += 0.1
        image[0] = _image(dict.fromkeys(range(STATE_PARTITIONS), 2))

    admin.sleep = lambda s: move()
    assert admin.delete_topics(GROUP, [(TOPIC, TID)]) == {TOPIC: ErrorCode.NONE}
    assert brokers.state[2] == {}

    brokers.down.add(2)
    admin.sleep = clock.sleep
    assert admin.delete_topics(GROUP, [(TOPIC, TID)]) == {TOPIC: ErrorCode.COORDINATOR_NOT_AVAILABLE}
    assert 5 <= clock.now < 6  # given up at the deadline
    offsets = admin.describe_offsets(GROUP, [(TOPIC, [0])])[0].partitions
    assert offsets == [PartitionOffsets(0, -1, 0, -1, ErrorCode.COORDINATOR_NOT_AVAILABLE)]


def test_delete_group_deletes_only_keys_with_state() -> None:
    image, brokers, clock = [_image({})], FakeBrokers(), FakeClock()
    brokers.state[1] = {(TID, 0): (3, 0), (TID, 2): (0, 0)}
    admin = _admin(image, brokers, clock)
    assert admin.delete_group(GROUP) == ErrorCode.NONE
    assert brokers.state[1] == {}
    deletes = [keys for _, api, keys in brokers.sent if api == 86]
    assert sorted(k for keys in deletes for k in keys) == [(TID, 0), (TID, 2)]
