"""Helpers for the client conformance suite (``test_clients_*.py``): real clients (confluent-kafka,
kafka-python, aiokafka) against the embedded broker.

Records are generated deterministically (`make_specs`), produced with one client, consumed with
the same or another one into a client-neutral `Rec`, and checked by `check_roundtrip` against the
specs and the delivery reports. Consumers always use ``assign()`` and explicit offsets (no group
coordination, no commits). Every loop here is bounded by a deadline.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kafka_wire.records import BatchHeader, iter_batches

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
CODEC_ID = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
CREATE_TIME = 0
LOG_APPEND_TIME = 1

Headers = tuple[tuple[str, bytes | None], ...]


def now_ms() -> int:
    return int(time.time() * 1000)


def wait_until(
    pred: Callable[[], Any], timeout: float = 10.0, interval: float = 0.05, what: str | Callable[[], str] = ""
) -> Any:
    """pred()'s first truthy value within `timeout`; `what` names what was awaited in the error (a
    callable is asked at the timeout, e.g. to show the last state seen)."""
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"timed out after {timeout}s waiting for {said or pred}")
        time.sleep(interval)


# --------------------------------------------------------------------------------------------
# record specs
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spec:
    """One record to produce."""

    partition: int
    key: bytes | None
    value: bytes | None
    headers: Headers
    timestamp: int


@dataclass(frozen=True, slots=True)
class Delivery:
    """A delivery report / RecordMetadata, client-neutral. timestamp_type None: not exposed."""

    partition: int
    offset: int
    timestamp: int | None = None
    timestamp_type: int | None = None


@dataclass(frozen=True, slots=True)
class Rec:
    """A consumed record, client-neutral (headers () when the record has none)."""

    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: Headers
    timestamp_type: int
    timestamp: int


_RNG = random.Random(20240607)
_RANDOM_BLOB = _RNG.randbytes(1 << 17)
_TEXT_BLOB = (b"Kafka conformance: the quick brown fox jumps over the lazy dog 0123456789. " * 2000)[: 1 << 17]

# header shapes, cycled: none, duplicate keys, null value, a plain one, empty/binary values
_H_DUP: Headers = (("dup", b"1"), ("dup", b"2"), ("other", b"x"))
_H_NULL: Headers = (("nul", None), ("dup", b"after-null"))
_H_NULL_FALLBACK: Headers = (("nul", b""), ("dup", b"after-null"))
_H_BIN: Headers = (("dup", b""), ("bin-\u00fc", b"\xff\x00\x01"), ("dup", b"z"))


def listed_groups(admin: Any) -> set[str]:
    """The group ids a confluent-kafka AdminClient's ListGroups answers."""
    return {g.group_id for g in admin.list_consumer_groups().result(10).valid}


def value_for(i: int) -> bytes | None:
    if i % 211 == 0:
        return None  # a null value (tombstone shape)
    if i % 101 == 0:
        return b""
    if i % 4999 == 0:
        size = 60_000 + i % 1000  # a few large values
    else:
        size = (i * 37) % 700 + 1
    blob = _RANDOM_BLOB if i % 2 else _TEXT_BLOB
    start = (i * 131) % (len(blob) - size)
    return blob[start : start + size]


def key_for(i: int) -> bytes | None:
    if i % 97 == 0:
        return None
    if i % 89 == 0:
        return b""
    return b"key-%d" % i


def headers_for(i: int, null_header_values: bool = True) -> Headers:
    kind = i % 5
    if kind == 0:
        return ()
    if kind == 1:
        return _H_DUP
    if kind == 2:
        return _H_NULL if null_header_values else _H_NULL_FALLBACK
    if kind == 3:
        return (("seq", b"%d" % i),)
    return _H_BIN


def make_specs(
    n: int,
    *,
    partitions: int = 4,
    base_ts: int | None = None,
    producer: str = "confluent",
    start: int = 0,
) -> list[Spec]:
    """`n` records spread round-robin over `partitions`, with CreateTime `base_ts + i` (recent by
    default: time retention must not delete them). `producer` drops what that client cannot send
    (kafka-python: None header values; both pure-Python clients: records with neither key nor
    value)."""
    if base_ts is None:
        base_ts = now_ms() - 600_000
    null_headers = producer != "kafka-python"
    null_records = producer == "confluent"
    out = []
    for i in range(start, start + n):
        key, value = key_for(i), value_for(i)
        if not null_records and key is None and value is None:
            value = b""
        out.append(Spec(i % partitions, key, value, headers_for(i, null_headers), base_ts + i))
    return out


# --------------------------------------------------------------------------------------------
# checking
# --------------------------------------------------------------------------------------------


def _short(v: Any, limit: int = 80) -> str:
    r = repr(v)
    return r if len(r) <= limit else r[:limit] + f"...({len(r)} chars)"


def check_roundtrip(
    specs: Sequence[Spec],
    deliveries: Sequence[Delivery] | None,
    consumed: dict[int, list[Rec]],
    *,
    timestamp_type: int = CREATE_TIME,
    timestamps: dict[tuple[int, int], int] | None = None,
    first_offset: int = 0,
) -> None:
    """Every spec consumed exactly once, in send order per partition, at the offset its delivery
    report gave, with identical key, value, headers and timestamp.

    `deliveries` None (acks=0): offsets are taken to be the send order. `timestamps` overrides
    the expected timestamp per (partition, offset) (LogAppendTime).
    """
    counts = Counter(s.partition for s in specs)
    index: dict[tuple[int, int], int] = {}
    next_offset: dict[int, int] = {p: first_offset for p in counts}
    for i, s in enumerate(specs):
        off = next_offset[s.partition]
        if deliveries is not None:
            d = deliveries[i]
            assert d.partition == s.partition, f"record {i}: delivered to {d.partition}, sent to {s.partition}"
            assert d.offset == off, (
                f"record {i}: delivery offset {d.offset}, expected {off} (offsets contiguous in send order)"
            )
        index[(s.partition, off)] = i
        next_offset[s.partition] = off + 1
    extra = set(consumed) - set(counts)
    assert not any(consumed[p] for p in extra), f"records consumed from unexpected partitions {extra}"
    for p, n in sorted(counts.items()):
        recs = consumed.get(p, [])
        offsets = [r.offset for r in recs]
        want = list(range(first_offset, first_offset + n))
        if offsets != want:
            bad = next((j for j, (a, b) in enumerate(zip(offsets, want, strict=False)) if a != b), None)
            raise AssertionError(
                f"partition {p}: consumed {len(offsets)} records, expected {n}; "
                f"first divergence at position {bad}: got {offsets[bad] if bad is not None else None}, "
                f"offsets head {offsets[:5]} tail {offsets[-5:]}"
            )
        for r in recs:
            i = index[(p, r.offset)]
            s = specs[i]
            ts = s.timestamp if timestamps is None else timestamps[(p, r.offset)]
            want_t = (s.key, s.value, s.headers, timestamp_type, ts)
            got_t = (r.key, r.value, r.headers, r.timestamp_type, r.timestamp)
            if got_t != want_t:
                names = ("key", "value", "headers", "timestamp_type", "timestamp")
                diffs = [
                    f"{name}: got {_short(g)} expected {_short(w)}"
                    for name, g, w in zip(names, got_t, want_t, strict=True)
                    if g != w
                ]
                raise AssertionError(f"record {i} (partition {p} offset {r.offset}): " + "; ".join(diffs))


# --------------------------------------------------------------------------------------------
# broker-side inspection
# --------------------------------------------------------------------------------------------


def _remote(b: Any) -> bool:
    """A broker we cannot look inside (the real Apache Kafka peer): inspect it over the wire."""
    return not hasattr(b, "call")


def stored_log(b: Any, topic: str, partition: int) -> bytes:
    """The raw batches of a partition's log (log start to high watermark), read on the broker's
    loop thread (ours) or fetched over the wire, batches as stored (a remote broker)."""
    if _remote(b):
        return _fetched_log(b.bootstrap_servers, topic, partition)

    def read(broker: Any) -> bytes:
        p = broker.partition(topic, partition)
        out = bytearray()
        offset = p.log_start_offset
        while offset < p.high_watermark:
            data = bytes(p.read(offset, 1 << 20, True, False).records or b"")
            if not data:
                break
            for pos, h in iter_batches(data, allow_partial_tail=True):
                out += data[pos : pos + h.size]
                offset = h.next_offset
        return bytes(out)

    return b.call(read)


def _fetched_log(bootstrap: str, topic: str, partition: int) -> bytes:
    from kafka_wire.protocol.messages import fetch_request
    from tests.integration import wire_util as w

    out = bytearray()
    with w.connect(bootstrap) as conn:
        offset = w.list_offset(conn, topic, partition, -2)
        end = w.list_offset(conn, topic, partition)
        version = min(conn.best_version(1), 12)
        while offset < end:
            req = fetch_request.FetchRequest(
                replica_id=-1,
                max_wait_ms=0,
                min_bytes=0,
                max_bytes=8 << 20,
                isolation_level=0,
                topics=[
                    fetch_request.FetchTopic(
                        topic=topic,
                        partitions=[
                            fetch_request.FetchPartition(
                                partition=partition, fetch_offset=offset, partition_max_bytes=4 << 20
                            )
                        ],
                    )
                ],
            )
            data = bytes(conn.request(1, req, version=version).responses[0].partitions[0].records or b"")
            before = offset
            for pos, h in iter_batches(data, allow_partial_tail=True):
                if h.next_offset <= offset:
                    continue
                out += data[pos : pos + h.size]
                offset = h.next_offset
            if offset == before:
                break
    return bytes(out)


def stored_batches(b: Any, topic: str, partition: int) -> list[BatchHeader]:
    """Headers of every batch of a partition's log."""
    return [h for _, h in iter_batches(stored_log(b, topic, partition))]


def create_topic(b: Any, name: str, partitions: int = 4, configs: dict[str, Any] | None = None) -> None:
    if _remote(b):
        _admin_create_topic(b.bootstrap_servers, name, partitions, configs or {})
        return
    b.call(lambda broker: broker.create_topic(name, partitions, 1, dict(configs or {})))


def _admin_create_topic(bootstrap: str, name: str, partitions: int, configs: dict[str, Any]) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1, config={k: str(v) for k, v in configs.items()})])[name].result(
        30
    )
    # creation is asynchronous in a real cluster: wait until every partition has a leader
    wait_until(
        lambda: (
            (md := admin.list_topics(name, timeout=5).topics.get(name)) is not None
            and md.error is None
            and len(md.partitions) == partitions
            and all(p.leader >= 0 for p in md.partitions.values())
        ),
        timeout=30,
        what=f"{name}: a leader for every partition",
    )
    # and every leader already answers for its partition (a first produce would otherwise be
    # retried after NOT_LEADER, out of send order)
    from tests.integration import wire_util as w

    def leads_all() -> bool:
        try:
            with w.connect(bootstrap) as conn:
                return all(w.list_offset(conn, name, p) == 0 for p in range(partitions))
        except Exception:  # noqa: BLE001 - not yet
            return False

    wait_until(leads_all, timeout=30, what=f"{name}: every leader answers ListOffsets")


def delete_topic(b: Any, name: str) -> None:
    """Free the disk a big test used (ignores a topic that is already gone)."""
    if _remote(b):
        from confluent_kafka.admin import AdminClient

        try:
            AdminClient({"bootstrap.servers": b.bootstrap_servers}).delete_topics([name])[name].result(30)
        except Exception:  # noqa: BLE001 - already gone
            pass
        return

    def run(broker: Any) -> None:
        if broker.topics.get(name) is not None:
            broker.delete_topic(name)

    b.call(run)


def log_start(b: Any, topic: str, partition: int) -> int:
    if _remote(b):
        from tests.integration import wire_util as w

        with w.connect(b.bootstrap_servers) as conn:
            return w.list_offset(conn, topic, partition, -2)
    return b.call(lambda broker: broker.partition(topic, partition).log_start_offset)


def hw(b: Any, topic: str, partition: int) -> int:
    if _remote(b):
        from tests.integration import wire_util as w

        with w.connect(b.bootstrap_servers) as conn:
            return w.list_offset(conn, topic, partition)
    return b.call(lambda broker: broker.partition(topic, partition).high_watermark)


# --------------------------------------------------------------------------------------------
# confluent-kafka
# --------------------------------------------------------------------------------------------


def ck_wait_for_leader(producer: Any, topic: str, partition: int, timeout: float = 30.0) -> None:
    """Block until `producer`'s own metadata names a leader for the partition. Records produced
    before that wait in librdkafka's unassigned queue and, under load, may move to the partition
    one by one while a flush runs (linger 0 then), each its own batch: a test that needs its
    records in one batch must wait first (Apache Kafka stored 24 batches for 5 once in CI)."""
    deadline = time.monotonic() + timeout
    while (md := producer.list_topics(topic, timeout=10).topics[topic]).error or (
        partition not in md.partitions or md.partitions[partition].leader < 0
    ):
        assert time.monotonic() < deadline, f"no leader for {topic}/{partition} in the producer's metadata: {md.error}"
        time.sleep(0.1)


_CK_TS_TYPES = {1: CREATE_TIME, 2: LOG_APPEND_TIME}  # confluent_kafka.TIMESTAMP_* -> Kafka's


def ck_produce(bootstrap: str, topic: str, specs: Sequence[Spec], timeout: float = 60.0, **conf: Any) -> list[Delivery]:
    from confluent_kafka import KafkaException, Producer

    config = {
        "bootstrap.servers": bootstrap,
        "linger.ms": 5,
        "queue.buffering.max.messages": 1_000_000,
        "queue.buffering.max.kbytes": 1_048_576,
        "message.timeout.ms": int(timeout * 1000),
    }
    config.update(conf)
    p = Producer(config)
    reports: list[Delivery | None] = [None] * len(specs)
    errors: list[tuple[int, Any]] = []

    def callback(i: int) -> Callable[[Any, Any], None]:
        def cb(err: Any, msg: Any) -> None:
            if err is not None:
                errors.append((i, err))
                return
            tstype, ts = msg.timestamp()
            reports[i] = Delivery(msg.partition(), msg.offset(), ts, _CK_TS_TYPES.get(tstype))

        return cb

    deadline = time.monotonic() + timeout
    for i, s in enumerate(specs):
        kwargs: dict[str, Any] = {"partition": s.partition, "timestamp": s.timestamp, "on_delivery": callback(i)}
        if s.key is not None:
            kwargs["key"] = s.key
        if s.value is not None:
            kwargs["value"] = s.value
        if s.headers:
            kwargs["headers"] = list(s.headers)
        while True:
            try:
                p.produce(topic, **kwargs)
                break
            except BufferError:
                p.poll(0.05)
                assert time.monotonic() < deadline, "producer queue stayed full"
            except KafkaException as e:  # pragma: no cover - reported with context
                raise AssertionError(f"produce of record {i} failed: {e}") from e
        if i % 5000 == 0:
            p.poll(0)
    remaining = p.flush(max(1.0, deadline - time.monotonic()))
    assert remaining == 0, f"{remaining} records still queued after flush"
    assert not errors, f"{len(errors)} delivery errors, first: {errors[:3]}"
    missing = [i for i, r in enumerate(reports) if r is None]
    assert not missing, f"no delivery report for {len(missing)} records (first {missing[:5]})"
    return reports  # type: ignore[return-value]


def ck_rec(m: Any) -> Rec:
    tstype, ts = m.timestamp()
    return Rec(
        m.partition(),
        m.offset(),
        m.key(),
        m.value(),
        tuple(m.headers() or ()),
        _CK_TS_TYPES.get(tstype, -1),
        ts,
    )


def ck_consumer(bootstrap: str, **conf: Any) -> Any:
    from confluent_kafka import Consumer

    config = {
        "bootstrap.servers": bootstrap,
        "group.id": "conformance-no-commit",
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,
        "auto.offset.reset": "earliest",
        "fetch.wait.max.ms": 100,
    }
    config.update(conf)
    return Consumer(config)


def ck_consume(
    bootstrap: str,
    topic: str,
    partitions: Iterable[int],
    expected: int,
    *,
    start: int = 0,
    timeout: float = 60.0,
    **conf: Any,
) -> dict[int, list[Rec]]:
    """Assign `partitions` from offset `start` and read until `expected` records arrived."""
    from confluent_kafka import TopicPartition

    c = ck_consumer(bootstrap, **conf)
    out: dict[int, list[Rec]] = {}
    n = 0
    try:
        c.assign([TopicPartition(topic, p, start) for p in partitions])
        deadline = time.monotonic() + timeout
        while n < expected:
            assert time.monotonic() < deadline, f"consumed {n} of {expected} records in {timeout}s"
            for m in c.consume(num_messages=10_000, timeout=0.5):
                err = m.error()
                assert err is None, f"consumer error: {err}"
                out.setdefault(m.partition(), []).append(ck_rec(m))
                n += 1
    finally:
        c.close()
    return out


# --------------------------------------------------------------------------------------------
# kafka-python
# --------------------------------------------------------------------------------------------


def kp_codec(codec: str) -> str | None:
    return None if codec == "none" else codec


def kp_produce(bootstrap: str, topic: str, specs: Sequence[Spec], timeout: float = 60.0, **conf: Any) -> list[Delivery]:
    from kafka import KafkaProducer

    config: dict[str, Any] = {"bootstrap_servers": bootstrap, "linger_ms": 5, "batch_size": 64 * 1024}
    config.update(conf)
    p = KafkaProducer(**config)
    try:
        futures = [
            p.send(
                topic,
                key=s.key,
                value=s.value,
                partition=s.partition,
                headers=list(s.headers),
                timestamp_ms=s.timestamp,
            )
            for s in specs
        ]
        p.flush(timeout)
        out = []
        for i, f in enumerate(futures):
            assert f.is_done, f"record {i} not sent after flush"
            md = f.get(0)
            out.append(Delivery(md.partition, md.offset, md.timestamp, None))
        return out
    finally:
        p.close(timeout=10)


def kp_rec(m: Any) -> Rec:
    return Rec(m.partition, m.offset, m.key, m.value, tuple(m.headers or ()), m.timestamp_type, m.timestamp)


def kp_consumer(bootstrap: str, **conf: Any) -> Any:
    from kafka import KafkaConsumer

    config: dict[str, Any] = {
        "bootstrap_servers": bootstrap,
        "group_id": None,
        "enable_auto_commit": False,
        "auto_offset_reset": "earliest",
        "max_poll_records": 100_000,
        "fetch_max_wait_ms": 100,
    }
    config.update(conf)
    return KafkaConsumer(**config)


def kp_consume(
    bootstrap: str,
    topic: str,
    partitions: Iterable[int],
    expected: int,
    *,
    start: int = 0,
    timeout: float = 60.0,
    **conf: Any,
) -> dict[int, list[Rec]]:
    from kafka import TopicPartition

    c = kp_consumer(bootstrap, **conf)
    out: dict[int, list[Rec]] = {}
    n = 0
    try:
        tps = [TopicPartition(topic, p) for p in partitions]
        c.assign(tps)
        for tp in tps:
            c.seek(tp, start)
        deadline = time.monotonic() + timeout
        while n < expected:
            assert time.monotonic() < deadline, f"consumed {n} of {expected} records in {timeout}s"
            for tp, msgs in c.poll(timeout_ms=500).items():
                out.setdefault(tp.partition, []).extend(kp_rec(m) for m in msgs)
                n += len(msgs)
    finally:
        c.close(autocommit=False)
    return out


# --------------------------------------------------------------------------------------------
# aiokafka (sync wrappers around asyncio.run)
# --------------------------------------------------------------------------------------------


async def aio_produce_async(
    bootstrap: str, topic: str, specs: Sequence[Spec], timeout: float = 60.0, **conf: Any
) -> list[Delivery]:
    from aiokafka import AIOKafkaProducer

    config: dict[str, Any] = {"bootstrap_servers": bootstrap, "linger_ms": 5, "max_batch_size": 64 * 1024}
    config.update(conf)
    p = AIOKafkaProducer(**config)
    await p.start()
    try:
        futures = []
        for s in specs:
            futures.append(
                await p.send(
                    topic,
                    key=s.key,
                    value=s.value,
                    partition=s.partition,
                    headers=list(s.headers),
                    timestamp_ms=s.timestamp,
                )
            )
        mds = await asyncio.wait_for(asyncio.gather(*futures), timeout)
        return [Delivery(md.partition, md.offset, md.timestamp, md.timestamp_type) for md in mds]
    finally:
        await p.stop()


def aio_produce(
    bootstrap: str, topic: str, specs: Sequence[Spec], timeout: float = 60.0, **conf: Any
) -> list[Delivery]:
    return asyncio.run(aio_produce_async(bootstrap, topic, specs, timeout, **conf))


def aio_rec(m: Any) -> Rec:
    return Rec(m.partition, m.offset, m.key, m.value, tuple(m.headers or ()), m.timestamp_type, m.timestamp)


def aio_consumer(bootstrap: str, **conf: Any) -> Any:
    from aiokafka import AIOKafkaConsumer

    config: dict[str, Any] = {
        "bootstrap_servers": bootstrap,
        "group_id": None,
        "enable_auto_commit": False,
        "auto_offset_reset": "earliest",
        "fetch_max_wait_ms": 100,
    }
    config.update(conf)
    return AIOKafkaConsumer(**config)


async def aio_consume_async(
    bootstrap: str,
    topic: str,
    partitions: Iterable[int],
    expected: int,
    *,
    start: int = 0,
    timeout: float = 60.0,
    **conf: Any,
) -> dict[int, list[Rec]]:
    from aiokafka import TopicPartition

    c = aio_consumer(bootstrap, **conf)
    await c.start()
    out: dict[int, list[Rec]] = {}
    n = 0
    try:
        tps = [TopicPartition(topic, p) for p in partitions]
        c.assign(tps)
        for tp in tps:
            c.seek(tp, start)
        deadline = time.monotonic() + timeout
        while n < expected:
            assert time.monotonic() < deadline, f"consumed {n} of {expected} records in {timeout}s"
            got = await c.getmany(timeout_ms=500, max_records=100_000)
            for tp, msgs in got.items():
                out.setdefault(tp.partition, []).extend(aio_rec(m) for m in msgs)
                n += len(msgs)
    finally:
        await c.stop()
    return out


def aio_consume(
    bootstrap: str, topic: str, partitions: Iterable[int], expected: int, **kw: Any
) -> dict[int, list[Rec]]:
    return asyncio.run(aio_consume_async(bootstrap, topic, partitions, expected, **kw))


# --------------------------------------------------------------------------------------------
# per-client dispatch
# --------------------------------------------------------------------------------------------

CLIENTS = ("confluent", "kafka-python", "aiokafka")


def produce_with(
    client: str, bootstrap: str, topic: str, specs: Sequence[Spec], codec: str = "none", **conf: Any
) -> list[Delivery]:
    if client == "confluent":
        return ck_produce(bootstrap, topic, specs, **{"compression.type": codec, **conf})
    if client == "kafka-python":
        return kp_produce(bootstrap, topic, specs, **{"compression_type": kp_codec(codec), **conf})
    if client == "aiokafka":
        return aio_produce(bootstrap, topic, specs, **{"compression_type": kp_codec(codec), **conf})
    raise ValueError(client)


def consume_with(
    client: str, bootstrap: str, topic: str, partitions: Iterable[int], expected: int, **kw: Any
) -> dict[int, list[Rec]]:
    if client == "confluent":
        return ck_consume(bootstrap, topic, partitions, expected, **kw)
    if client == "kafka-python":
        return kp_consume(bootstrap, topic, partitions, expected, **kw)
    if client == "aiokafka":
        return aio_consume(bootstrap, topic, partitions, expected, **kw)
    raise ValueError(client)


# --------------------------------------------------------------------------------------------
# offset lookups (ListOffsets), one interface per client
# --------------------------------------------------------------------------------------------


class CkLookup:
    """confluent-kafka Consumer: get_watermark_offsets and offsets_for_times (no timestamps)."""

    exposes_timestamp = False

    def __init__(self, bootstrap: str) -> None:
        from confluent_kafka import Consumer

        self.c = Consumer({"bootstrap.servers": bootstrap, "group.id": "lookups", "enable.auto.commit": False})

    def earliest(self, topic: str, p: int) -> int:
        from confluent_kafka import TopicPartition

        return self.c.get_watermark_offsets(TopicPartition(topic, p), timeout=10, cached=False)[0]

    def latest(self, topic: str, p: int) -> int:
        from confluent_kafka import TopicPartition

        return self.c.get_watermark_offsets(TopicPartition(topic, p), timeout=10, cached=False)[1]

    def for_time(self, topic: str, p: int, ts: int) -> tuple[int, int | None] | None:
        from confluent_kafka import TopicPartition

        (tp,) = self.c.offsets_for_times([TopicPartition(topic, p, ts)], timeout=10)
        assert tp.error is None, tp.error
        return None if tp.offset == -1 else (tp.offset, None)

    def close(self) -> None:
        self.c.close()


class CkAdminLookup:
    """confluent-kafka AdminClient.list_offsets (OffsetSpec): also returns the timestamp."""

    exposes_timestamp = True

    def __init__(self, bootstrap: str) -> None:
        from confluent_kafka.admin import AdminClient

        self.a = AdminClient({"bootstrap.servers": bootstrap})

    def _list(self, topic: str, p: int, spec: Any) -> Any:
        from confluent_kafka import TopicPartition

        tp = TopicPartition(topic, p)
        return self.a.list_offsets({tp: spec}, request_timeout=10)[tp].result(timeout=10)

    def earliest(self, topic: str, p: int) -> int:
        from confluent_kafka.admin import OffsetSpec

        return self._list(topic, p, OffsetSpec.earliest()).offset

    def latest(self, topic: str, p: int) -> int:
        from confluent_kafka.admin import OffsetSpec

        return self._list(topic, p, OffsetSpec.latest()).offset

    def for_time(self, topic: str, p: int, ts: int) -> tuple[int, int | None] | None:
        from confluent_kafka.admin import OffsetSpec

        r = self._list(topic, p, OffsetSpec.for_timestamp(ts))
        return None if r.offset == -1 else (r.offset, r.timestamp)

    def max_timestamp(self, topic: str, p: int) -> tuple[int, int] | None:
        from confluent_kafka.admin import OffsetSpec

        r = self._list(topic, p, OffsetSpec.max_timestamp())
        return None if r.offset == -1 else (r.offset, r.timestamp)

    def close(self) -> None:
        pass


class KpLookup:
    exposes_timestamp = True

    def __init__(self, bootstrap: str) -> None:
        from kafka import KafkaConsumer

        self.c = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False)

    def earliest(self, topic: str, p: int) -> int:
        from kafka import TopicPartition

        tp = TopicPartition(topic, p)
        return self.c.beginning_offsets([tp])[tp]

    def latest(self, topic: str, p: int) -> int:
        from kafka import TopicPartition

        tp = TopicPartition(topic, p)
        return self.c.end_offsets([tp])[tp]

    def for_time(self, topic: str, p: int, ts: int) -> tuple[int, int | None] | None:
        from kafka import TopicPartition

        tp = TopicPartition(topic, p)
        r = self.c.offsets_for_times({tp: ts})[tp]
        return None if r is None else (r.offset, r.timestamp)

    def close(self) -> None:
        self.c.close(autocommit=False)


class AioLookup:
    exposes_timestamp = True

    def __init__(self, bootstrap: str) -> None:
        from aiokafka import AIOKafkaConsumer

        self.loop = asyncio.new_event_loop()

        async def start() -> Any:
            c = AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False)
            await c.start()
            return c

        self.c = self.loop.run_until_complete(start())

    def _tp(self, topic: str, p: int) -> Any:
        from aiokafka import TopicPartition

        return TopicPartition(topic, p)

    def earliest(self, topic: str, p: int) -> int:
        tp = self._tp(topic, p)
        return self.loop.run_until_complete(self.c.beginning_offsets([tp]))[tp]

    def latest(self, topic: str, p: int) -> int:
        tp = self._tp(topic, p)
        return self.loop.run_until_complete(self.c.end_offsets([tp]))[tp]

    def for_time(self, topic: str, p: int, ts: int) -> tuple[int, int | None] | None:
        tp = self._tp(topic, p)
        r = self.loop.run_until_complete(self.c.offsets_for_times({tp: ts}))[tp]
        return None if r is None else (r.offset, r.timestamp)

    def close(self) -> None:
        self.loop.run_until_complete(self.c.stop())
        self.loop.close()


LOOKUPS = {"confluent": CkLookup, "confluent-admin": CkAdminLookup, "kafka-python": KpLookup, "aiokafka": AioLookup}
