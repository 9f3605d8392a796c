"""Share groups (KIP-932) with confluent-kafka's ShareConsumer, differential: ours and Apache Kafka
4.3.1 run the same scenarios and must give the same outcome.

* two consumers on one partition share 200 records; with implicit acknowledgement each record is
  delivered once, and a later consumer of the group sees only what was produced after;
* explicit acknowledgement: a released record comes back with delivery count 2, a rejected one
  never again.

Each group reads from the earliest offset: ``share.auto.offset.reset=earliest`` set as a group
config (IncrementalAlterConfigs on resource type 32) before its consumers start.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import AcknowledgeType, Producer, ShareConsumer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from tests.integration.test_kip848_consumer_group import create_topic


@pytest.fixture(scope="module", params=["ours", "apache"])
def broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "ours":
        from broker_embedded import EmbeddedBroker

        with EmbeddedBroker(num_partitions=1) as b:
            yield b
        return
    yield request.getfixturevalue("apache_kafka")


def _name(prefix: str) -> str:
    return f"share-{prefix}-{uuid.uuid4().hex[:8]}"


def _share_group(broker: Any, group: str) -> str:
    """A new group that reads from the earliest offset: its group config, as a user sets it."""
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    entry = ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
    resource = ConfigResource(ResourceType.GROUP, group, incremental_configs=[entry])
    admin.incremental_alter_configs([resource])[resource].result(30)
    return group


def _produce(bootstrap: str, topic: str, values: range) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for i in values:
        p.produce(topic, str(i).encode(), partition=0)
    assert p.flush(30) == 0


def _consumer(bootstrap: str, group: str, topic: str, **extra: str) -> ShareConsumer:
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, **extra})
    c.subscribe([topic])
    return c


def _poll(c: ShareConsumer, timeout: float = 0.5) -> list[Any]:
    out = []
    for m in c.poll(timeout):
        assert m.error() is None, m.error()
        out.append(m)
    return out


def test_two_consumers_share_one_partition_each_record_once(broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group = _name("t"), _share_group(broker, _name("g"))
    create_topic(bs, topic, 1)
    a, b = _consumer(bs, group, topic), _consumer(bs, group, topic)
    try:
        _produce(bs, topic, range(200))
        seen: dict[str, list[int]] = {"a": [], "b": []}
        deadline = time.monotonic() + 45
        while len(seen["a"]) + len(seen["b"]) < 200 and time.monotonic() < deadline:
            for name, c in (("a", a), ("b", b)):
                seen[name] += [int(m.value()) for m in _poll(c, 0.2)]
        everything = seen["a"] + seen["b"]
        assert sorted(everything) == list(range(200)), f"a {len(seen['a'])}, b {len(seen['b'])}"
        # implicit acknowledgement: the next poll accepts the last batch; then leave
        _poll(a, 0.1)
        _poll(b, 0.1)
    finally:
        a.close()
        b.close()
    # every record was acknowledged: a new member of the group gets only what comes next
    _produce(bs, topic, range(200, 201))
    c = _consumer(bs, group, topic)
    try:
        got: list[int] = []
        deadline = time.monotonic() + 30
        while not got and time.monotonic() < deadline:
            got += [int(m.value()) for m in _poll(c)]
        assert got == [200]
    finally:
        c.close()


def _transaction(bootstrap: str, topic: str, values: range, commit: bool) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": _name("txn")})
    p.init_transactions(30)
    p.begin_transaction()
    for i in values:
        p.produce(topic, str(i).encode(), partition=0)
    assert p.flush(30) == 0  # in the log before the abort (an abort drops what is still queued)
    (p.commit_transaction if commit else p.abort_transaction)(30)


def test_explicit_release_redelivers_reject_archives_read_committed_skips_aborted(broker: Any) -> None:
    """share.isolation.level=read_committed: an aborted transaction's records are never delivered
    (Kafka acquires and archives them), a committed one's are."""
    bs = broker.bootstrap_servers
    topic, group = _name("x"), _share_group(broker, _name("gx"))
    _set_group_config(bs, group, "share.isolation.level", "read_committed")
    create_topic(bs, topic, 1)
    _transaction(bs, topic, range(100, 103), commit=False)
    _produce(bs, topic, range(9))
    c = _consumer(bs, group, topic, **{"share.acknowledgement.mode": "explicit"})
    try:
        first: dict[int, int] = {}
        deadline = time.monotonic() + 30
        while len(first) < 9 and time.monotonic() < deadline:
            for m in _poll(c):
                v = int(m.value())
                first[v] = m.delivery_count()
                kind = (AcknowledgeType.RELEASE, AcknowledgeType.REJECT, AcknowledgeType.ACCEPT)[v % 3]
                c.acknowledge(m, kind)
            c.commit_sync(30)
        assert first == dict.fromkeys(range(9), 1)
        # released (0, 3, 6) come back with their second delivery; rejected (1, 4, 7) never again
        again: dict[int, int] = {}
        _transaction(bs, topic, range(9, 10), commit=True)
        deadline = time.monotonic() + 30
        while len(again) < 4 and time.monotonic() < deadline:
            for m in _poll(c):
                again[int(m.value())] = m.delivery_count()
                c.acknowledge(m, AcknowledgeType.ACCEPT)
            c.commit_sync(30)
        assert again == {0: 2, 3: 2, 6: 2, 9: 1}
    finally:
        c.close()


def _set_group_config(bootstrap: str, group: str, name: str, value: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    entry = ConfigEntry(name, value, incremental_operation=AlterConfigOpType.SET)
    resource = ConfigResource(ResourceType.GROUP, group, incremental_configs=[entry])
    admin.incremental_alter_configs([resource])[resource].result(30)


@pytest.mark.parametrize("when", ["before", "live"])
def test_delivery_count_limit_archives_a_poison_record(broker: Any, when: str) -> None:
    """share.delivery.count.limit=2 set before the first delivery, or while the record is in flight
    (the group config applies to the live share-partition)."""
    bs = broker.bootstrap_servers
    topic, group = _name("p"), _share_group(broker, _name("gp"))
    if when == "before":
        _set_group_config(bs, group, "share.delivery.count.limit", "2")
    create_topic(bs, topic, 1)
    _produce(bs, topic, range(1))
    c = _consumer(bs, group, topic, **{"share.acknowledgement.mode": "explicit"})
    try:
        deliveries: list[tuple[int, int]] = []
        deadline = time.monotonic() + 30
        while len(deliveries) < 2 and time.monotonic() < deadline:
            if when == "live" and len(deliveries) == 1:
                _set_group_config(bs, group, "share.delivery.count.limit", "2")
                when = "done"
            for m in _poll(c):
                deliveries.append((int(m.value()), m.delivery_count()))
                c.acknowledge(m, AcknowledgeType.RELEASE)
            c.commit_sync(30)
        assert deliveries == [(0, 1), (0, 2)]
        # the limit is reached: the record is archived, the next one is delivered instead
        _produce(bs, topic, range(1, 2))
        later: list[tuple[int, int]] = []
        deadline = time.monotonic() + 30
        while not later and time.monotonic() < deadline:
            for m in _poll(c):
                later.append((int(m.value()), m.delivery_count()))
                c.acknowledge(m, AcknowledgeType.ACCEPT)
            c.commit_sync(30)
        assert later == [(1, 1)]
    finally:
        c.close()
