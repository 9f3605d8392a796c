"""Streams groups on the wire, differential (ours and Apache Kafka 4.3.1): static members and the
interactive-query endpoint metadata.

- Nor source topics by regex (SourceTopicRegex): refused right after the static check, and a live
  group refuses a member joining with another topology.

- Kafka 4.3.1 has no static streams members yet: a heartbeat with an InstanceId is refused with
  INVALID_REQUEST before any other check, at any member epoch (a -2 leave without one is refused too).
- Each member's UserEndpoint (Kafka Streams' application.server) comes back as
  PartitionsByUserEndpoint: every endpoint with the source partitions of its member's active tasks
  (an empty list for a member without tasks), sent when the member echoes an EndpointInformationEpoch
  that is not the group's current one.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic

from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import find_coordinator_request as fcq
from kafka_wire.protocol.messages import streams_group_describe_request as sgd
from kafka_wire.protocol.messages import streams_group_heartbeat_request as q
from tests.integration.group_util import differential_broker  # noqa: F401 - the `broker` fixture
from tests.integration.wire_util import connect
from tests.peers.fixtures import is_apache


def _topology(source: str) -> Any:
    sub = q.Subtopology(
        subtopology_id="0",
        source_topics=[source],
        source_topic_regex=[],
        state_changelog_topics=[],
        repartition_sink_topics=[],
        repartition_source_topics=[],
        copartition_groups=[],
    )
    return q.Topology(epoch=0, subtopologies=[sub])


def _with_regex(source: str) -> Any:
    sub = q.Subtopology(
        subtopology_id="1",
        source_topics=[],
        source_topic_regex=[f"{source}-.*"],
        state_changelog_topics=[],
        repartition_sink_topics=[],
        repartition_source_topics=[],
        copartition_groups=[],
    )
    return q.Topology(epoch=0, subtopologies=[*_topology(source).subtopologies, sub])


def _tasks(r: Any) -> list[int] | None:
    if r.active_tasks is None:
        return None
    return sorted(p for t in r.active_tasks for p in t.partitions)


def _wait(pred: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}: {last!r}")


class Member:
    def __init__(
        self, conn: Any, group: str, member_id: str, instance_id: str | None, port: int, topology: Any
    ) -> None:
        self.conn, self.group, self.member_id, self.instance_id = conn, group, member_id, instance_id
        self.port, self.topology = port, topology
        self.epoch = 0
        self.owned: list[int] = []
        self.endpoint_epoch = 0
        self.last: Any = None

    def heartbeat_with_endpoint_epoch(self, endpoint_epoch: int) -> Any:
        return self.heartbeat(None, endpoint_epoch)

    def heartbeat(self, epoch: int | None = None, override: int | None = None) -> Any:
        e = self.epoch if epoch is None else epoch
        fields: dict[str, Any] = dict(
            group_id=self.group,
            member_id=self.member_id,
            member_epoch=e,
            instance_id=self.instance_id,
            endpoint_information_epoch=self.endpoint_epoch,
        )
        if e == 0:
            fields.update(
                topology=self.topology,
                rebalance_timeout_ms=30000,
                process_id=f"proc-{self.instance_id}",
                user_endpoint=q.Endpoint(host="localhost", port=self.port),
                client_tags=[],
            )
        if e >= 0:
            tasks = [q.TaskIds(subtopology_id="0", partitions=self.owned)] if self.owned else []
            fields.update(active_tasks=tasks, standby_tasks=[], warmup_tasks=[])
        if override is not None:
            fields["endpoint_information_epoch"] = override
        r = self.conn.request(88, q.StreamsGroupHeartbeatRequest(**fields), 0)
        self.last = r
        if r.error_code == 0 and e >= 0:
            self.epoch = r.member_epoch
            if (t := _tasks(r)) is not None:
                self.owned = t
            self.endpoint_epoch = r.endpoint_information_epoch
        return r


def _describe(conn: Any, group: str) -> Any:
    return conn.request(89, sgd.StreamsGroupDescribeRequest(group_ids=[group]), 0).groups[0]


def _endpoint_map(r: Any) -> dict[int, list[tuple[str, list[int]]]]:
    """PartitionsByUserEndpoint as port -> active (topic, partitions); Apache lists it in hash order."""
    assert r.partitions_by_user_endpoint is not None, r
    out = {}
    for e in r.partitions_by_user_endpoint:
        assert e.user_endpoint.host == "localhost" and e.standby_partitions == []
        out[e.user_endpoint.port] = sorted((t.topic, sorted(t.partitions)) for t in e.active_partitions)
    return out


def test_static_members_refused_and_endpoint_information(broker: Any) -> None:
    bs = broker.bootstrap_servers
    suffix = uuid.uuid4().hex[:8]
    source, group = f"sgs-in-{suffix}", f"sgs-app-{suffix}"
    admin = AdminClient({"bootstrap.servers": bs})
    for f in admin.create_topics([NewTopic(source, 4, 1)]).values():
        f.result(30)
    configs = [ConfigEntry("streams.initial.rebalance.delay.ms", "0", incremental_operation=AlterConfigOpType.SET)]
    resource = ConfigResource(ConfigResource.Type.GROUP, group, incremental_configs=configs)
    for f in admin.incremental_alter_configs([resource]).values():
        f.result(30)
    topology = _topology(source)
    with connect(bs) as conn:
        find = fcq.FindCoordinatorRequest(key_type=0, coordinator_keys=[group])
        _wait(lambda: conn.request(10, find, 4).coordinators[0].error_code == 0, 60, "FindCoordinator")
        _wait(lambda: _describe(conn, group).error_code == 69, 60, "the coordinator loaded")  # GROUP_ID_NOT_FOUND
        # Kafka 4.3.1 has no static streams members yet: an InstanceId is refused first, at any epoch
        static = Member(conn, group, "member-s", "inst-s", 7009, topology)
        for epoch in (0, 3, -1, -2):
            r = static.heartbeat(epoch)
            assert (r.error_code, r.error_message) == (42, "Static membership is not yet supported."), epoch
        r = Member(conn, "", "", "inst-s", 7009, topology).heartbeat(0)
        assert (r.error_code, r.error_message) == (42, "Static membership is not yet supported.")
        r = Member(conn, group, "member-s", None, 7009, topology).heartbeat(-2)
        assert (r.error_code, r.error_message) == (42, "InstanceId can't be null.")

        # nor source topics by regex: refused right after the static check, at any epoch
        regex = _with_regex(source)
        for member in (Member(conn, group, "member-r", None, 7009, regex), Member(conn, "", "", None, 7009, regex)):
            r = member.heartbeat(0)
            assert (r.error_code, r.error_message) == (
                42,
                "Regular expressions for source topics are not supported yet.",
            )
        r = Member(conn, group, "member-r", "inst-r", 7009, regex).heartbeat(0)
        assert (r.error_code, r.error_message) == (42, "Static membership is not yet supported.")

        a = Member(conn, group, "member-a", None, 7001, topology)
        b = Member(conn, group, "member-b", None, 7002, topology)

        def settled() -> bool:
            for m in (a, b):
                r = m.heartbeat()
                if r.error_code == ErrorCode.UNKNOWN_SERVER_ERROR and is_apache(broker):
                    # Apache Kafka 4.3.1 answered one heartbeat so in session 16's CI-equivalent run 2,
                    # beside the Spark run: the member keeps its state and heartbeats again
                    return False
                assert r.error_code == 0, (r.error_code, r.error_message)
            g = _describe(conn, group)
            return g.group_state == "Stable" and len(a.owned) == 2 and len(b.owned) == 2 and a.owned != b.owned

        _wait(settled, 30, "two members with two tasks each")
        # a member echoing an older endpoint epoch gets the whole map: every endpoint with the
        # source partitions of its active tasks; echoing the current epoch gets none
        expected = {7001: [(source, a.owned)], 7002: [(source, b.owned)]}

        def current(m: Member) -> Any:
            r = m.heartbeat()
            if r.partitions_by_user_endpoint is not None:
                assert _endpoint_map(r) == expected
                return None
            return r

        _wait(lambda: current(a), 10, "a's endpoint epoch to be current")
        epoch_before = a.endpoint_epoch
        stale = a.heartbeat_with_endpoint_epoch(epoch_before - 1)
        assert stale.endpoint_information_epoch == epoch_before and _endpoint_map(stale) == expected
        # a new member with no tasks yet shows up with an empty list, under a new endpoint epoch
        c = Member(conn, group, "member-c", None, 7003, topology)
        joined = c.heartbeat()
        assert joined.error_code == 0, (joined.error_code, joined.error_message)
        assert _endpoint_map(joined)[7003] == [] and joined.endpoint_information_epoch > epoch_before
        r = a.heartbeat()
        assert r.endpoint_information_epoch == joined.endpoint_information_epoch
        assert set(_endpoint_map(r)) == {7001, 7002, 7003}
        again = a.heartbeat()
        assert again.error_code == 0 and (again.partitions_by_user_endpoint is None) == (
            again.endpoint_information_epoch == r.endpoint_information_epoch
        )
        # a live group keeps its topology: another one is refused, at the same or a later epoch
        for epoch in (0, 1):
            other = q.Topology(epoch=epoch, subtopologies=[_topology(f"{source}-x").subtopologies[0]])
            r = Member(conn, group, f"member-t{epoch}", None, 7010, other).heartbeat(0)
            assert (r.error_code, r.error_message) == (42, "Topology updates are not supported yet.")
        for m in (a, b, c):
            assert m.heartbeat(-1).error_code == 0
