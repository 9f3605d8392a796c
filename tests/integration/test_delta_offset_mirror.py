"""The `pykafka-delta` sink's optional offset mirror (`connector.delta.commit.mirror_offsets`): the
offsets a Delta commit carried reach the group on the broker over the client stack, a group with
live members refuses them without failing the commit, and a sink without an owner mirrors nothing."""

from __future__ import annotations

import pytest

pytest.importorskip("deltalake")
pa = pytest.importorskip("pyarrow")

from confluent_kafka import Consumer  # noqa: E402

from connector.delta.commit import CommitPlan, mirror_offsets  # noqa: E402
from kafka_wire.client import ClientConfig, KafkaClient  # noqa: E402
from tests.integration import wire_util as w  # noqa: E402

pytestmark = pytest.mark.timeout(60)


def _plan(bootstrap: str, owner: str | None) -> CommitPlan:
    return CommitPlan(
        table_path="/nonexistent",
        arrow_schema=pa.schema([]),
        partition_columns=(),
        owner=owner,
        query_id=None,
        kafka_offsets=True,
        compression="snappy",
        mirror_config=(("bootstrap.servers", bootstrap), ("default.api.timeout.ms", "5000")),
    )


def test_mirror_commits_the_table_offsets_to_the_owner_group(broker, topic_name: str) -> None:  # type: ignore[no-untyped-def]
    with w.connect(broker.bootstrap_servers) as conn:
        w.create_topic(conn, topic_name, 2)
    group = f"mirror-{topic_name}"
    assert mirror_offsets(_plan(broker.bootstrap_servers, group), {(topic_name, 0): 7, (topic_name, 1): 4})
    client = KafkaClient(ClientConfig(broker.bootstrap_servers, client_id="t-mirror-check"))
    try:
        assert client.fetch_offsets(group) == {(topic_name, 0): (7, ""), (topic_name, 1): (4, "")}
    finally:
        client.close()
    # without an owner there is no group to mirror to
    assert not mirror_offsets(_plan(broker.bootstrap_servers, None), {(topic_name, 0): 9})


def test_mirror_to_a_group_with_live_members_is_refused_not_raised(broker, topic_name: str) -> None:  # type: ignore[no-untyped-def]
    with w.connect(broker.bootstrap_servers) as conn:
        w.create_topic(conn, topic_name, 1)
    group = f"busy-{topic_name}"
    member = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": group, "session.timeout.ms": 6000})
    try:
        member.subscribe([topic_name])
        for _ in range(50):  # until the member has joined and owns the partition
            member.poll(0.2)
            if member.assignment():
                break
        assert member.assignment()
        assert not mirror_offsets(_plan(broker.bootstrap_servers, group), {(topic_name, 0): 1})
    finally:
        member.close()
