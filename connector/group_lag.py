"""Lag of a consumer group per partition, with each partition's owner: what `kafka-consumer-groups
--describe` shows, plus the offsets a group-mode Spark query keeps in its Delta table.

`group_lag(bootstrap_servers, group_id, offsets_table=...)` asks the group coordinator
(DescribeGroups: members and their assignments; OffsetFetch: the group's committed offsets) and
the partition leaders (ListOffsets: log end offsets), and, given the table the group writes to,
the table's committed next offsets (app transactions with owner = group id, see
`offsets.delta_store`). A group-mode query commits each finished micro-batch to the broker too,
so Kafka tooling shows the same partitions; the broker's offset trails the table by at most one
micro-batch, and the table is the truth (`lag` uses it when present).

Blocking, over the client stack (`kafka_wire.client.KafkaClient`: coordinator lookup, metadata,
retries within `timeout`); the assignment bytes are decoded with `consumer_group.protocol`
(Kafka's ConsumerProtocol).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from consumer_group.protocol import CONSUMER_PROTOCOL_TYPE, decode_assignment
from kafka_wire.client.config import ClientConfig
from kafka_wire.client.kafka_client import LATEST_TIMESTAMP, KafkaClient
from kafka_wire.client.security import SecurityConfig
from kafka_wire.errors import ErrorCode, KafkaError, ProtocolDecodeError
from kafka_wire.types import TopicPartition


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


def _describe(
    client: KafkaClient, group_id: str
) -> tuple[str, str, dict[TopicPartition, tuple[str, str, str]], dict[str, tuple[TopicPartition, ...]]]:
    g = client.describe_group(group_id)
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
            members[m.member_id] = tuple(sorted(TopicPartition(tp.topic, tp.partition) for tp in assignment.partitions))
            for tp in assignment.partitions:
                owners[TopicPartition(tp.topic, tp.partition)] = (m.member_id, m.client_id, m.client_host)
    return g.group_state, g.protocol_data or "", owners, members


def group_lag(
    bootstrap_servers: str,
    group_id: str,
    *,
    offsets_table: str | None = None,
    topics: Iterable[str] | None = None,
    storage_options: dict[str, str] | None = None,
    timeout: float = 10.0,
    kafka_options: Mapping[str, str] | None = None,
) -> GroupLag:
    """Per-partition committed offsets, log end offsets, lag and owner of `group_id`.

    Partitions covered: every partition of `topics` if given, else of every topic the group has
    committed offsets for or is assigned. With `offsets_table`, the Delta table's committed next
    offsets (owner = `group_id`) are read too and `lag` is measured from them. `kafka_options`:
    Kafka client security settings under their own names (`security.protocol`, `sasl.mechanism`,
    `sasl.jaas.config`, `ssl.truststore.location`, ...), with or without the `kafka.` prefix.
    """
    ms = max(1, int(timeout * 1000))
    security = SecurityConfig.from_params(
        {k.lower().removeprefix("kafka."): v for k, v in (kafka_options or {}).items()}, prefix=""
    )
    client = KafkaClient(
        ClientConfig(
            bootstrap_servers,
            client_id="pykafka-group-lag",
            request_timeout_ms=ms,
            connect_timeout_ms=ms,
            default_api_timeout_ms=ms,
            security=security,
        )
    )
    try:
        state, protocol, owners, members = _describe(client, group_id)
        committed = {tp: off for tp, (off, _meta) in client.fetch_offsets(group_id).items()}
        names = set(topics) if topics is not None else {t for t, _ in committed} | {t for t, _ in owners}
        if not names:
            return GroupLag(group_id, state, protocol, [], members)
        md = client.metadata(names)
        tps = [TopicPartition(t, p) for t, info in md.topics.items() for p in info.partitions]
        latest = {
            tp: off for tp, (off, _ts) in client.list_offsets(dict.fromkeys(tps, LATEST_TIMESTAMP), retries=0).items()
        }
    except KafkaError as e:
        raise GroupLagError(
            f"cannot describe group {group_id!r}: {e}", getattr(e, "code", ErrorCode.NETWORK_EXCEPTION)
        ) from e
    finally:
        client.close()
    table: dict[tuple[str, int], int] = {}  # DeltaOffsetStore's keys are plain tuples
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
