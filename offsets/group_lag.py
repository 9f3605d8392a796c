"""Lag of a consumer group per partition, with each partition's owner: what `kafka-consumer-groups
--describe` shows, plus the offsets a group-mode Spark query keeps in its Delta table.

`group_lag(bootstrap_servers, group_id, offsets_table=...)` asks the group coordinator
(DescribeGroups: members and their assignments; OffsetFetch: the group's committed offsets) and
the partition leaders (ListOffsets: log end offsets), and, given the table the group writes to,
the table's committed next offsets (app transactions with owner = group id, see
`offsets.delta_store`). A group-mode query commits each finished micro-batch to the broker too,
so Kafka tooling shows the same partitions; the broker's offset trails the table by at most one
micro-batch, and the table is the truth (`lag` uses it when present).

Blocking, one short-lived connection per broker; the codecs come from `kafka_wire` and the
assignment bytes are decoded with `consumer_group.protocol` (Kafka's ConsumerProtocol).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from consumer_group.protocol import CONSUMER_PROTOCOL_TYPE, decode_assignment
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode, KafkaError, ProtocolDecodeError
from kafka_wire.protocol.messages import (
    describe_groups_request,
    find_coordinator_request,
    list_offsets_request,
    metadata_request,
    offset_fetch_request,
)
from offsets.spec import PartitionOffsets, TopicPartition

API_LIST_OFFSETS = 2
API_METADATA = 3
API_OFFSET_FETCH = 9
API_FIND_COORDINATOR = 10
API_DESCRIBE_GROUPS = 15


class GroupLagError(KafkaError):
    """The group or the cluster could not be described."""


@dataclass(frozen=True)
class PartitionLag:
    """One partition of the group's topics.

    `committed`: the group's offset on the broker (what Kafka tooling shows); `table_committed`:
    the next offset recorded in the Delta table (None without a table or without a row); `lag` =
    `latest` minus the table's offset when there is one, else minus the broker's (None when the
    group has neither); `owner`/`client_id`/`host`: the member that owns the partition now.
    """

    topic: str
    partition: int
    latest: int
    committed: int | None
    table_committed: int | None
    lag: int | None
    owner: str | None = None
    client_id: str | None = None
    host: str | None = None


@dataclass(frozen=True)
class GroupLag:
    group_id: str
    state: str  # Stable, PreparingRebalance, CompletingRebalance, Empty, Dead
    protocol: str  # the assignor the group uses
    partitions: list[PartitionLag] = field(default_factory=list)
    members: dict[str, tuple[TopicPartition, ...]] = field(default_factory=dict)  # member id -> its assignment

    @property
    def total_lag(self) -> int:
        return sum(p.lag or 0 for p in self.partitions)

    def by_owner(self) -> dict[str | None, list[PartitionLag]]:
        out: dict[str | None, list[PartitionLag]] = {}
        for p in self.partitions:
            out.setdefault(p.owner, []).append(p)
        return out


def _bootstrap(servers: str) -> list[tuple[str, int]]:
    out = []
    for item in servers.split(","):
        host, _, port = item.strip().rpartition(":")
        if host and port.isdigit():
            out.append((host.strip("[]"), int(port)))
    if not out:
        raise ValueError(f"bad bootstrap servers {servers!r}: expected host:port[,host:port...]")
    return out


class _Cluster:
    def __init__(self, bootstrap_servers: str, timeout: float) -> None:
        self.timeout = timeout
        self.bootstrap = _bootstrap(bootstrap_servers)
        self.conns: dict[tuple[str, int], BrokerConnection] = {}

    def conn(self, addr: tuple[str, int]) -> BrokerConnection:
        c = self.conns.get(addr)
        if c is None:
            c = BrokerConnection(addr[0], addr[1], client_id="pykafka-group-lag", timeout=self.timeout)
            self.conns[addr] = c
        return c

    def any_conn(self) -> BrokerConnection:
        last: Exception | None = None
        for addr in self.bootstrap:
            try:
                return self.conn(addr)
            except OSError as e:
                last = e
        raise GroupLagError(f"no bootstrap server reachable: {last}", ErrorCode.NETWORK_EXCEPTION)

    def close(self) -> None:
        for c in self.conns.values():
            c.close()


def _coordinator(cluster: _Cluster, group_id: str) -> BrokerConnection:
    conn = cluster.any_conn()
    v = conn.best_version(API_FIND_COORDINATOR)
    rq = find_coordinator_request
    if v >= 4:
        resp = conn.request(API_FIND_COORDINATOR, rq.FindCoordinatorRequest(key_type=0, coordinator_keys=[group_id]), v)
        c = resp.coordinators[0]
        code, host, port = c.error_code, c.host, c.port
    else:
        resp = conn.request(API_FIND_COORDINATOR, rq.FindCoordinatorRequest(key=group_id, key_type=0), v)
        code, host, port = resp.error_code, resp.host, resp.port
    if code != ErrorCode.NONE:
        raise GroupLagError(f"FindCoordinator for group {group_id!r}: {ErrorCode(code).name}", ErrorCode(code))
    return cluster.conn((host, port))


def _describe(
    conn: BrokerConnection, group_id: str
) -> tuple[str, str, dict[TopicPartition, tuple[str, str, str]], dict[str, tuple[TopicPartition, ...]]]:
    v = conn.best_version(API_DESCRIBE_GROUPS)
    resp = conn.request(API_DESCRIBE_GROUPS, describe_groups_request.DescribeGroupsRequest(groups=[group_id]), v)
    g = resp.groups[0]
    if g.error_code != ErrorCode.NONE:
        raise GroupLagError(f"DescribeGroups {group_id!r}: {ErrorCode(g.error_code).name}", ErrorCode(g.error_code))
    owners: dict[TopicPartition, tuple[str, str, str]] = {}
    members: dict[str, tuple[TopicPartition, ...]] = {}
    if g.protocol_type == CONSUMER_PROTOCOL_TYPE:
        for m in g.members:
            members[m.member_id] = ()
            if not m.member_assignment:
                continue
            try:
                assignment = decode_assignment(bytes(m.member_assignment))
            except ProtocolDecodeError:
                continue
            members[m.member_id] = tuple(sorted((tp.topic, tp.partition) for tp in assignment.partitions))
            for tp in assignment.partitions:
                owners[(tp.topic, tp.partition)] = (m.member_id, m.client_id, m.client_host)
    return g.group_state, g.protocol_data or "", owners, members


def _committed(conn: BrokerConnection, group_id: str) -> PartitionOffsets:
    """Every offset the group has committed (OffsetFetch with topics = null)."""
    v = min(conn.best_version(API_OFFSET_FETCH), 9)
    rq = offset_fetch_request
    if v >= 8:
        body = rq.OffsetFetchRequest(groups=[rq.OffsetFetchRequestGroup(group_id=group_id, topics=None)])
    else:
        body = rq.OffsetFetchRequest(group_id=group_id, topics=None)
    resp = conn.request(API_OFFSET_FETCH, body, v)
    if resp.groups:
        code, topics = resp.groups[0].error_code, resp.groups[0].topics
    else:
        code, topics = resp.error_code, resp.topics
    if code != ErrorCode.NONE:
        raise GroupLagError(f"OffsetFetch {group_id!r}: {ErrorCode(code).name}", ErrorCode(code))
    out: PartitionOffsets = {}
    for t in topics or ():
        for p in t.partitions or ():
            if p.error_code == ErrorCode.NONE and p.committed_offset >= 0:
                out[(t.name, p.partition_index)] = p.committed_offset
    return out


def _metadata(cluster: _Cluster, topics: Iterable[str]) -> tuple[dict[int, tuple[str, int]], dict[TopicPartition, int]]:
    conn = cluster.any_conn()
    v = min(conn.best_version(API_METADATA), 12)
    rq = metadata_request
    body = rq.MetadataRequest(
        topics=[rq.MetadataRequestTopic(name=t) for t in sorted(set(topics))], allow_auto_topic_creation=False
    )
    resp = conn.request(API_METADATA, body, v)
    brokers = {b.node_id: (b.host, b.port) for b in resp.brokers}
    leaders = {
        (t.name, p.partition_index): p.leader_id
        for t in resp.topics or ()
        if t.error_code == ErrorCode.NONE
        for p in t.partitions or ()
    }
    return brokers, leaders


def _latest(
    cluster: _Cluster, brokers: dict[int, tuple[str, int]], leaders: dict[TopicPartition, int]
) -> PartitionOffsets:
    by_leader: dict[int, list[TopicPartition]] = {}
    for tp, leader in leaders.items():
        by_leader.setdefault(leader, []).append(tp)
    out: PartitionOffsets = {}
    rq = list_offsets_request
    for leader, tps in by_leader.items():
        if leader not in brokers:
            continue
        conn = cluster.conn(brokers[leader])
        topics: dict[str, list[Any]] = {}
        for t, p in sorted(tps):
            topics.setdefault(t, []).append(rq.ListOffsetsPartition(partition_index=p, timestamp=-1))
        body = rq.ListOffsetsRequest(
            replica_id=-1,
            isolation_level=0,
            topics=[rq.ListOffsetsTopic(name=t, partitions=ps) for t, ps in topics.items()],
            timeout_ms=int(cluster.timeout * 1000),
        )
        resp = conn.request(API_LIST_OFFSETS, body, conn.best_version(API_LIST_OFFSETS))
        for t in resp.topics:
            for p in t.partitions:
                if p.error_code == ErrorCode.NONE:
                    out[(t.name, p.partition_index)] = p.offset
    return out


def group_lag(
    bootstrap_servers: str,
    group_id: str,
    *,
    offsets_table: str | None = None,
    topics: Iterable[str] | None = None,
    storage_options: dict[str, str] | None = None,
    timeout: float = 10.0,
) -> GroupLag:
    """Per-partition committed offsets, log end offsets, lag and owner of `group_id`.

    Partitions covered: every partition of `topics` if given, else of every topic the group has
    committed offsets for or is assigned. With `offsets_table`, the Delta table's committed next
    offsets (owner = `group_id`) are read too and `lag` is measured from them.
    """
    cluster = _Cluster(bootstrap_servers, timeout)
    try:
        coordinator = _coordinator(cluster, group_id)
        state, protocol, owners, members = _describe(coordinator, group_id)
        committed = _committed(coordinator, group_id)
        names = set(topics) if topics is not None else {t for t, _ in committed} | {t for t, _ in owners}
        if not names:
            return GroupLag(group_id, state, protocol, [], members)
        brokers, leaders = _metadata(cluster, names)
        latest = _latest(cluster, brokers, leaders)
    except (OSError, ProtocolDecodeError) as e:
        raise GroupLagError(f"cannot describe group {group_id!r}: {e}", ErrorCode.NETWORK_EXCEPTION) from e
    finally:
        cluster.close()
    table: PartitionOffsets = {}
    if offsets_table is not None:
        from offsets.delta_store import DeltaOffsetStore

        table = dict(DeltaOffsetStore(offsets_table, group_id, storage_options).committed(sorted(latest)))
    rows = []
    for tp in sorted(latest):
        base = table.get(tp, committed.get(tp))
        owner = owners.get(tp)
        rows.append(
            PartitionLag(
                topic=tp[0],
                partition=tp[1],
                latest=latest[tp],
                committed=committed.get(tp),
                table_committed=table.get(tp),
                lag=None if base is None else max(0, latest[tp] - base),
                owner=owner[0] if owner else None,
                client_id=owner[1] if owner else None,
                host=owner[2] if owner else None,
            )
        )
    return GroupLag(group_id, state, protocol, rows, members)


__all__ = ["GroupLag", "GroupLagError", "PartitionLag", "group_lag"]
