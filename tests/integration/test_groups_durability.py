"""Consumer groups, scenario 5: committed offsets (with metadata) are durable.

- a commit's offset and metadata string round-trip through OffsetFetch, for confluent-kafka
  (`committed()` returns the metadata), kafka-python (`OffsetAndMetadata`) and the raw protocol;
- they survive an EmbeddedBroker stop/start on the same log dir, and a consumer of the group
  resumes exactly at the committed offsets;
- they survive `kill -9` of a CLI broker; restarted on the same port, the broker reloads the
  group and the consumer that was in it carries on (consumes new records, commits again).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from tests.integration.group_util import (
    FAST_GROUP_CONFIG,
    RawMember,
    fetch_offsets,
    group_broker,
    list_groups,
    make_topic,
    produce_keyed,
    unique,
    wait_until,
)
from tests.integration.wire_util import BrokerProcess, create_topic

pytestmark = pytest.mark.timeout(90)

PARTITIONS = 3
PER_PARTITION = 10


def _confluent(bootstrap: str, group: str, **extra: Any) -> Any:
    from confluent_kafka import Consumer

    return Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 500,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "reconnect.backoff.ms": 50,
            "reconnect.backoff.max.ms": 500,
            **extra,
        }
    )


def _consume(c: Any, n: int, timeout: float = 20) -> list[Any]:
    out: list[Any] = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        out.extend(m for m in c.consume(num_messages=500, timeout=0.2) if m.error() is None)
    assert len(out) >= n, f"consumed {len(out)} of {n}"
    return out


def _confluent_commit_with_metadata(bootstrap: str, topic: str, group: str, offset: int) -> dict[int, tuple[int, str]]:
    from confluent_kafka import TopicPartition

    c = _confluent(bootstrap, group)
    try:
        c.subscribe([topic])
        _consume(c, PARTITIONS * PER_PARTITION)
        tps = [TopicPartition(topic, p, offset, metadata=f"cf meta {p} ✓") for p in range(PARTITIONS)]
        c.commit(offsets=tps, asynchronous=False)
        got = c.committed([TopicPartition(topic, p) for p in range(PARTITIONS)], timeout=10)
        assert [(tp.offset, tp.metadata) for tp in got] == [(offset, f"cf meta {p} ✓") for p in range(PARTITIONS)]
    finally:
        c.close()
    # confluent-kafka-python sends the metadata string with its C terminator (librdkafka takes
    # the metadata as bytes with strlen + 1): the broker stores and returns what it was given
    return {p: (offset, f"cf meta {p} ✓\x00") for p in range(PARTITIONS)}


def _kafka_python_commit_with_metadata(
    bootstrap: str, topic: str, group: str, offset: int
) -> dict[int, tuple[int, str]]:
    from kafka import KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata

    c = KafkaConsumer(
        bootstrap_servers=bootstrap,
        group_id=group,
        session_timeout_ms=3000,
        heartbeat_interval_ms=300,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
    )
    try:
        wait_until(lambda: c.partitions_for_topic(topic), 10, what="topic metadata")
        c.subscribe([topic])
        wait_until(lambda: c.poll(timeout_ms=500) is not None and len(c.assignment()) == PARTITIONS, 20)
        c.commit({TopicPartition(topic, p): OffsetAndMetadata(offset, f"kp-{p}", -1) for p in range(PARTITIONS)})
        for p in range(PARTITIONS):
            om = c.committed(TopicPartition(topic, p), metadata=True)
            assert (om.offset, om.metadata) == (offset, f"kp-{p}")
    finally:
        c.close()
    return {p: (offset, f"kp-{p}") for p in range(PARTITIONS)}


def _simple_commit(bootstrap: str, topic: str, group: str, offset: int) -> dict[int, tuple[int, str]]:
    """A commit from outside the group protocol (generation -1, no member id)."""
    m = RawMember(bootstrap, group, [topic])
    try:
        codes = m.commit(
            {(topic, p): (offset, "x" * 100 + str(p)) for p in range(PARTITIONS)}, generation=-1, member_id=""
        )
        assert set(codes.values()) == {ErrorCode.NONE}
    finally:
        m.close()
    return {p: (offset, "x" * 100 + str(p)) for p in range(PARTITIONS)}


def test_commit_metadata_roundtrip(tmp_path: Path) -> None:
    with group_broker() as b:
        bs = b.bootstrap_servers
        topic = make_topic(bs, PARTITIONS)
        produce_keyed(bs, topic, PARTITIONS, PER_PARTITION)
        g1, g2, g3 = unique("cf"), unique("kp"), unique("simple")
        for group, commit, offset in (
            (g1, _confluent_commit_with_metadata, 7),
            (g2, _kafka_python_commit_with_metadata, 4),
            (g3, _simple_commit, 2),
        ):
            expected = commit(bs, topic, group, offset)
            assert fetch_offsets(bs, group, topic, range(PARTITIONS)) == expected
        # too much metadata is refused, and the previous commit stays
        m = RawMember(bs, g3, [topic])
        try:
            codes = m.commit({(topic, 0): (9, "y" * 5000)}, generation=-1, member_id="")
            assert codes == {(topic, 0): ErrorCode.OFFSET_METADATA_TOO_LARGE}
        finally:
            m.close()
        assert fetch_offsets(bs, g3, topic, [0])[0][0] == 2


def test_commits_survive_embedded_restart(tmp_path: Path) -> None:
    log_dir = tmp_path / "broker"
    groups: dict[str, dict[int, tuple[int, str]]] = {}
    with group_broker(log_dir=log_dir) as b:
        bs = b.bootstrap_servers
        topic = make_topic(bs, PARTITIONS)
        produce_keyed(bs, topic, PARTITIONS, PER_PARTITION)
        g1, g2, g3 = unique("cf"), unique("kp"), unique("simple")
        groups[g1] = _confluent_commit_with_metadata(bs, topic, g1, 7)
        groups[g2] = _kafka_python_commit_with_metadata(bs, topic, g2, 4)
        groups[g3] = _simple_commit(bs, topic, g3, 2)
        # a later commit replaces an earlier one (the last record per key wins on reload)
        groups[g3] = _simple_commit(bs, topic, g3, 3)
        before = {g: fetch_offsets(bs, g, topic, range(PARTITIONS)) for g in groups}
        assert before == groups
    with group_broker(log_dir=log_dir) as b:
        bs = b.bootstrap_servers
        after = {g: fetch_offsets(bs, g, topic, range(PARTITIONS)) for g in groups}
        assert after == groups
        listed = list_groups(bs)
        for g in groups:
            assert listed.get(g) == "Empty", listed
        # a consumer of the group resumes exactly at the committed offsets
        c = _confluent(bs, g1)
        try:
            c.subscribe([topic])
            got = _consume(c, PARTITIONS * (PER_PARTITION - 7))
            assert sorted((m.partition(), m.offset()) for m in got) == [
                (p, o) for p in range(PARTITIONS) for o in range(7, PER_PARTITION)
            ]
        finally:
            c.close()


@pytest.mark.slow
def test_commits_survive_kill9_of_cli_broker(tmp_path: Path) -> None:
    from confluent_kafka import TopicPartition

    log_dir = tmp_path / "cli"
    overrides = [a for k, v in FAST_GROUP_CONFIG.items() for a in ("--override", f"{k}={v}")]
    group, simple_group = unique("crash"), unique("crash-simple")
    with BrokerProcess(*overrides, log_dir=log_dir) as bp:
        bs = bp.bootstrap
        assert bs is not None
        port = bs.rsplit(":", 1)[1]
        topic = unique("t")
        with BrokerConnection.from_bootstrap(bs, timeout=10) as conn:
            create_topic(conn, topic, PARTITIONS)
        produce_keyed(bs, topic, PARTITIONS, PER_PARTITION)
        c = _confluent(bs, group)
        try:
            c.subscribe([topic])
            _consume(c, PARTITIONS * PER_PARTITION)
            c.commit(
                offsets=[TopicPartition(topic, p, PER_PARTITION, metadata="before crash") for p in range(PARTITIONS)],
                asynchronous=False,
            )
            expected = {p: (PER_PARTITION, "before crash\x00") for p in range(PARTITIONS)}
            simple = _simple_commit(bs, topic, simple_group, 6)
            assert fetch_offsets(bs, group, topic, range(PARTITIONS)) == expected

            bp.kill9()  # no clean shutdown: whatever was acknowledged must be on disk
            with BrokerProcess(*overrides, "--port", port, log_dir=log_dir) as bp2:
                assert bp2.bootstrap == bs
                assert fetch_offsets(bs, group, topic, range(PARTITIONS)) == expected
                assert fetch_offsets(bs, simple_group, topic, range(PARTITIONS)) == simple
                # the consumer that was in the group when the broker died carries on
                produce_keyed(bs, topic, PARTITIONS, 5, start=PER_PARTITION)
                got = _consume(c, PARTITIONS * 5, timeout=30)
                assert sorted((m.partition(), m.offset()) for m in got) == [
                    (p, o) for p in range(PARTITIONS) for o in range(PER_PARTITION, PER_PARTITION + 5)
                ]
                c.commit(
                    offsets=[TopicPartition(topic, p, PER_PARTITION + 5, metadata="after") for p in range(PARTITIONS)],
                    asynchronous=False,
                )
                assert fetch_offsets(bs, group, topic, range(PARTITIONS)) == {
                    p: (PER_PARTITION + 5, "after\x00") for p in range(PARTITIONS)
                }
                c.close()
                c = None
                bp2.kill9()
            # and once more, a restart after a crash that followed the second commit
            with BrokerProcess(*overrides, log_dir=log_dir) as bp3:
                assert bp3.bootstrap is not None
                assert fetch_offsets(bp3.bootstrap, group, topic, range(PARTITIONS)) == {
                    p: (PER_PARTITION + 5, "after\x00") for p in range(PARTITIONS)
                }
        finally:
            if c is not None:
                c.close()
