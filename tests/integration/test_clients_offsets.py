"""ListOffsets through the clients: earliest / latest, lookups by timestamp exact to the record
(between records, equal to one, before all, after all), the max-timestamp spec, and all of them
again after retention or DeleteRecords moved the log start."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from tests.integration.clients_util import (
    LOOKUPS,
    CkAdminLookup,
    Spec,
    ck_wait_for_leader,
    create_topic,
    hw,
    log_start,
    now_ms,
    stored_batches,
    wait_until,
)
from tests.peers.fixtures import ours_only

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BATCHES = 5
PER_BATCH = 20
STEP = 10  # ms between consecutive records' timestamps


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    """Differential: every test of this module runs against our broker, then real Apache Kafka."""
    return either_broker


def produce_batches(bootstrap: str, topic: str, partition: int, batches: Sequence[Sequence[Spec]]) -> None:
    """One record batch per group: nothing leaves the producer before its flush."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 60_000, "batch.num.messages": 100_000})
    ck_wait_for_leader(p, topic, partition)
    errors: list[Any] = []
    for group in batches:
        for s in group:
            p.produce(
                topic,
                key=s.key,
                value=s.value,
                partition=partition,
                timestamp=s.timestamp,
                on_delivery=lambda err, _m: err and errors.append(err),
            )
        assert p.flush(30) == 0
    assert not errors, errors


def expected_lookup(timestamps: list[int], target: int, start: int = 0) -> tuple[int, int] | None:
    """Kafka's answer: the first offset >= start whose timestamp is >= target."""
    for off in range(start, len(timestamps)):
        if timestamps[off] >= target:
            return off, timestamps[off]
    return None


@pytest.fixture(params=list(LOOKUPS))
def lookup(request, broker) -> Iterator[Any]:
    lk = LOOKUPS[request.param](broker.bootstrap_servers)
    try:
        yield lk
    finally:
        lk.close()


def check_lookup(lk: Any, topic: str, p: int, timestamps: list[int], target: int, start: int = 0) -> None:
    got = lk.for_time(topic, p, target)
    want = expected_lookup(timestamps, target, start)
    if want is None or got is None:
        assert got == want, f"lookup of {target}: got {got}, expected {want}"
        return
    assert got[0] == want[0], f"lookup of {target}: offset {got[0]}, expected {want[0]}"
    if lk.exposes_timestamp:
        assert got[1] == want[1], f"lookup of {target}: timestamp {got[1]}, expected {want[1]}"


# --------------------------------------------------------------------------------------------
# lookups on an intact log
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def timed_topic(broker) -> tuple[str, list[int]]:
    """Partition 0: BATCHES batches of PER_BATCH records, timestamps increasing by STEP ms.
    Partition 1: empty."""
    topic = f"timed-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 2)
    base = now_ms() - 600_000
    n = BATCHES * PER_BATCH
    timestamps = [base + STEP * i for i in range(n)]
    specs = [Spec(0, b"k%d" % i, b"v%d" % i, (), timestamps[i]) for i in range(n)]
    produce_batches(broker.bootstrap_servers, topic, 0, [specs[i : i + PER_BATCH] for i in range(0, n, PER_BATCH)])
    assert len(stored_batches(broker, topic, 0)) == BATCHES
    return topic, timestamps


@pytest.mark.timeout(120)
def test_earliest_latest(lookup, timed_topic):
    topic, timestamps = timed_topic
    assert lookup.earliest(topic, 0) == 0
    assert lookup.latest(topic, 0) == len(timestamps)
    assert lookup.earliest(topic, 1) == 0
    assert lookup.latest(topic, 1) == 0


@pytest.mark.timeout(120)
def test_offsets_for_times_exact_to_the_record(lookup, timed_topic):
    topic, timestamps = timed_topic
    first, last = timestamps[0], timestamps[-1]
    targets = [first - 86_400_000, first - 1, 0]  # before all (0: the epoch)
    for off in range(len(timestamps)):  # equal to every record, and between it and the next
        targets += [timestamps[off], timestamps[off] + STEP // 2]
    targets += [last + 1, last + 86_400_000]  # after all
    for target in targets:
        check_lookup(lookup, topic, 0, timestamps, target)
    # an empty partition has no record at or after any timestamp
    assert lookup.for_time(topic, 1, first) is None


@pytest.mark.timeout(60)
def test_max_timestamp_spec(broker, timed_topic):
    """OffsetSpec.max_timestamp (ListOffsets -3): the record carrying the largest timestamp."""
    topic, timestamps = timed_topic
    lk = CkAdminLookup(broker.bootstrap_servers)
    assert lk.max_timestamp(topic, 0) == (len(timestamps) - 1, timestamps[-1])


@pytest.mark.timeout(60)
def test_unordered_timestamps_inside_a_batch(broker, topic_name):
    """Lookups are by record, not by batch: the first offset whose timestamp reaches the target,
    even when a batch's timestamps go back and forth."""
    create_topic(broker, topic_name, 1)
    base = now_ms() - 600_000
    pattern = [0, 300, 100, 200, 500, 400, 400, 900, 600, 800]
    timestamps = [base + t + 1000 * (i // len(pattern)) for i, t in enumerate(pattern * 3)]
    specs = [Spec(0, None, b"v%d" % i, (), ts) for i, ts in enumerate(timestamps)]
    produce_batches(broker.bootstrap_servers, topic_name, 0, [specs[:10], specs[10:20], specs[20:]])
    for name, cls in LOOKUPS.items():
        lk = cls(broker.bootstrap_servers)
        try:
            for target in sorted(set(timestamps) | {t + 50 for t in timestamps} | {base - 1}):
                try:
                    check_lookup(lk, topic_name, 0, timestamps, target)
                except AssertionError as e:
                    raise AssertionError(f"{name}: {e}") from None
        finally:
            lk.close()


# --------------------------------------------------------------------------------------------
# after the log start moved
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def retained_topic(broker) -> tuple[str, list[int], int]:
    """Small segments, old records then recent ones, retention.ms of a minute: the broker's own
    retention pass deletes the old segments and moves the log start. The module's broker keeps
    Kafka's schedule (first check 30 s after start, then every 5 min), so the passes are run here."""
    ours_only(broker, "segment.bytes below Apache Kafka's 1 MiB minimum")
    topic = f"retained-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 1, {"segment.bytes": 2000, "retention.ms": 60_000})
    old = now_ms() - 7_200_000
    n_old, n_new = 200, 20
    timestamps = [old + STEP * i for i in range(n_old)]
    recent = now_ms()
    timestamps += [recent + i for i in range(n_new)]
    specs = [Spec(0, b"k%d" % i, b"x" * 100, (), ts) for i, ts in enumerate(timestamps)]
    groups = [specs[i : i + 10] for i in range(0, len(specs), 10)]  # 10 records: < segment.bytes
    produce_batches(broker.bootstrap_servers, topic, 0, groups)
    # each 10-record batch (~1.3 kB) fills a segment of its own, so exactly the old ones expire

    def retention_pass() -> int:
        broker.call(lambda b: b.run_maintenance(retention=True))
        return log_start(broker, topic, 0)

    wait_until(lambda: retention_pass() == n_old, timeout=15, what="retention to delete old segments")
    retention_pass()
    retention_pass()  # more passes: the recent segments stay
    start = log_start(broker, topic, 0)
    assert start == n_old
    assert hw(broker, topic, 0) == len(timestamps)
    return topic, timestamps, start


@pytest.mark.timeout(120)
def test_lookups_after_retention(lookup, retained_topic):
    topic, timestamps, start = retained_topic
    assert lookup.earliest(topic, 0) == start
    assert lookup.latest(topic, 0) == len(timestamps)
    # below the log start (deleted records' timestamps, and before all): the log start
    for target in (0, timestamps[0], timestamps[start - 1], timestamps[start - 1] + 1):
        got = lookup.for_time(topic, 0, target)
        assert got is not None and got[0] == start, f"lookup of {target}: {got}, log start {start}"
        if lookup.exposes_timestamp:
            assert got[1] == timestamps[start]
    for target in (timestamps[start], timestamps[-1], timestamps[-1] + 1, timestamps[len(timestamps) // 2] + 3):
        check_lookup(lookup, topic, 0, timestamps, target, start)


@pytest.fixture(scope="module")
def truncated_topic(broker) -> tuple[str, list[int], int]:
    """DeleteRecords (through the admin API) moves the log start into the middle of a batch."""
    from confluent_kafka import TopicPartition
    from confluent_kafka.admin import AdminClient

    topic = f"truncated-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 1)
    base = now_ms() - 600_000
    n = BATCHES * PER_BATCH
    timestamps = [base + STEP * i for i in range(n)]
    specs = [Spec(0, None, b"v%d" % i, (), timestamps[i]) for i in range(n)]
    produce_batches(broker.bootstrap_servers, topic, 0, [specs[i : i + PER_BATCH] for i in range(0, n, PER_BATCH)])
    start = 2 * PER_BATCH + 7
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    tp = TopicPartition(topic, 0, start)
    (fut,) = admin.delete_records([tp], request_timeout=10).values()
    assert fut.result(timeout=10).low_watermark == start
    return topic, timestamps, start


@pytest.mark.timeout(120)
def test_lookups_after_delete_records(lookup, truncated_topic):
    topic, timestamps, start = truncated_topic
    assert lookup.earliest(topic, 0) == start
    assert lookup.latest(topic, 0) == len(timestamps)
    for target in (0, timestamps[0], timestamps[start - 1], timestamps[start - 1] + 1, timestamps[start]):
        got = lookup.for_time(topic, 0, target)
        assert got is not None and got[0] == start, f"lookup of {target}: {got}, log start {start}"
        if lookup.exposes_timestamp:
            assert got[1] == timestamps[start]
    for target in (timestamps[start] + 1, timestamps[-1], timestamps[-1] + 1):
        check_lookup(lookup, topic, 0, timestamps, target, start)
