"""Client quotas (issue 30): Kafka 4.3.1's kafka-configs for users and clients, DescribeClientQuotas /
AlterClientQuotas on the wire, and producer_byte_rate enforcement, on ours and on Apache Kafka;
the quotas of a cluster reach every broker.

Apache's broker is the session's: every quota set here is removed before the test ends.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import alter_client_quotas_request as aq
from kafka_wire.protocol.messages import describe_client_quotas_request as dq
from kafka_wire.protocol.messages import fetch_request as fq
from kafka_wire.protocol.messages import produce_request as pq
from kafka_wire.records import build_batch, decode_batches
from peers import jvm
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until
from tests.integration.cluster_util import cluster

EXACT, DEFAULT, SPECIFIED = 0, 1, 2


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _configs(java_client: Any, bootstrap: str, *args: str) -> tuple[int, str]:
    out = java_client.run(jvm.CONFIGS, "--bootstrap-server", bootstrap, *args, check=False)
    return out.returncode, (out.stdout + out.stderr)


def _alter(conn: Any, entity: list[tuple[str, str | None]], validate_only: bool = False, **ops: float | None) -> Any:
    entry = aq.EntryData(
        entity=[aq.EntityData(entity_type=t, entity_name=n) for t, n in entity],
        ops=[aq.OpData(key=k, value=0.0 if v is None else v, remove=v is None) for k, v in ops.items()],
    )
    r = conn.request(49, aq.AlterClientQuotasRequest(entries=[entry], validate_only=validate_only), 1)
    assert len(r.entries) == 1
    return r.entries[0]


def _describe(conn: Any, components: list[tuple[str, int, str | None]], strict: bool = False) -> Any:
    req = dq.DescribeClientQuotasRequest(
        components=[dq.ComponentData(entity_type=t, match_type=m, match=n) for t, m, n in components], strict=strict
    )
    return conn.request(48, req, 1)


def _found(response: Any) -> dict[frozenset[tuple[str, str | None]], dict[str, float]]:
    assert response.error_code == ErrorCode.NONE, response.error_message
    return {
        frozenset((e.entity_type, e.entity_name) for e in entry.entity): {v.key: v.value for v in entry.values}
        for entry in response.entries
    }


# ---------------------------------------------------------------------------------------------
# kafka-configs.sh --entity-type users|clients
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow  # Kafka's own tool, a JVM per command
def test_kafka_configs_users_and_clients(either_broker: Any, java_client: Any) -> None:
    bootstrap = either_broker.bootstrap_servers
    user, client = _name("qu"), _name("qc")
    try:
        # a user + client-id pair in one command: the clients entity type and the combination
        assert _configs(
            java_client,
            bootstrap,
            *("--alter", "--entity-type", "users", "--entity-name", user),
            *("--entity-type", "clients", "--entity-name", client, "--add-config", "request_percentage=50"),
        ) == (0, f"Completed updating config for user {user}.\n")  # Kafka 4.3.1's text names the user only
        assert _configs(
            java_client,
            bootstrap,
            *("--describe", "--entity-type", "users", "--entity-name", user),
            *("--entity-type", "clients", "--entity-name", client),
        ) == (0, f"Quota configs for user-principal '{user}', client-id '{client}' are request_percentage=50.0\n")
        assert _configs(
            java_client,
            bootstrap,
            *("--alter", "--entity-type", "users", "--entity-name", user),
            *("--add-config", "producer_byte_rate=1024,consumer_byte_rate=2048"),
        ) == (0, f"Completed updating config for user {user}.\n")
        assert _configs(java_client, bootstrap, "--describe", "--entity-type", "users", "--entity-name", user) == (
            0,
            f"Quota configs for user-principal '{user}' are consumer_byte_rate=2048.0, producer_byte_rate=1024.0\n",
        )
    finally:
        conn = w.connect(bootstrap)
        try:
            _alter(conn, [("user", user)], producer_byte_rate=None, consumer_byte_rate=None)
            _alter(conn, [("user", user), ("client-id", client)], request_percentage=None)
            # Apache answers DescribeClientQuotas from its broker's metadata image, which follows
            # the controller's commit a moment later: poll
            wait_until(lambda: _found(_describe(conn, [("user", EXACT, user)])) == {}, timeout=10, what="removed")
        finally:
            conn.close()


# ---------------------------------------------------------------------------------------------
# the APIs on the wire: filters, defaults, validate_only, errors
# ---------------------------------------------------------------------------------------------


def test_client_quotas_wire(either_broker: Any) -> None:
    conn = w.connect(either_broker.bootstrap_servers)
    user, client = _name("wu"), _name("wc")
    entities: list[list[tuple[str, str | None]]] = [
        [("user", user)],
        [("user", user), ("client-id", client)],
        [("user", user), ("client-id", None)],
        [("client-id", client)],
    ]
    try:
        # validate_only: answered, nothing stored
        assert _alter(conn, entities[0], validate_only=True, producer_byte_rate=100.0).error_code == ErrorCode.NONE
        assert _found(_describe(conn, [("user", EXACT, user)])) == {}
        for i, entity in enumerate(entities):
            assert _alter(conn, entity, consumer_byte_rate=1000.0 * (i + 1)).error_code == ErrorCode.NONE
        mine = {frozenset(e) for e in entities}

        def described(components: list[tuple[str, int, str | None]], strict: bool = False) -> set[Any]:
            return set(_found(_describe(conn, components, strict))) & mine

        # Apache's broker image follows the controller's commit a moment later: all four first
        wait_until(
            lambda: described([("user", EXACT, user)]) | described([("client-id", EXACT, client)]) == mine,
            timeout=10,
            what="the four quotas described",
        )

        assert described([("user", EXACT, user)]) == {frozenset(e) for e in entities[:3]}
        assert described([("user", EXACT, user)], strict=True) == {frozenset(entities[0])}
        assert described([("user", EXACT, user), ("client-id", DEFAULT, None)]) == {frozenset(entities[2])}
        assert described([("user", EXACT, user), ("client-id", SPECIFIED, None)]) == {
            frozenset(e) for e in entities[1:3]
        }
        assert described([("client-id", EXACT, client)], strict=True) == {frozenset(entities[3])}
        values = _found(_describe(conn, [("user", EXACT, user), ("client-id", EXACT, client)], strict=True))
        assert values == {frozenset(entities[1]): {"consumer_byte_rate": 2000.0}}
        # Kafka's errors
        bad = _alter(conn, entities[0], producer_byte_rate=0.0)
        assert (bad.error_code, bad.error_message) == (
            ErrorCode.INVALID_REQUEST,
            "Quota producer_byte_rate must be greater than 0",
        )
        bad = _alter(conn, entities[0], no_such_rate=5.0)
        assert (bad.error_code, bad.error_message) == (
            ErrorCode.INVALID_REQUEST,
            "Invalid configuration key no_such_rate",
        )
        bad = _alter(conn, entities[1], request_percentage=12.5, producer_byte_rate=1.5)
        assert (bad.error_code, bad.error_message) == (
            ErrorCode.INVALID_REQUEST,
            "producer_byte_rate cannot be a fractional value.",
        )
        bad = _alter(conn, [("user", "")], producer_byte_rate=5.0)
        assert (bad.error_code, bad.error_message) == (ErrorCode.INVALID_REQUEST, "Empty user not supported")
        r = _describe(conn, [("topic", EXACT, "t")])
        assert (r.error_code, r.error_message) == (ErrorCode.UNSUPPORTED_VERSION, "Unsupported entity type topic")
        r = _describe(conn, [("user", DEFAULT, "x")])
        assert r.error_code == ErrorCode.INVALID_REQUEST
        assert r.error_message == "Request specified MATCH_TYPE_DEFAULT, but also specified a match string."
    finally:
        for entity in entities:
            _alter(conn, entity, consumer_byte_rate=None)
        conn.close()


def test_client_quotas_reach_every_broker_of_a_cluster() -> None:
    """Altered through one broker, decided by the controller, described by every broker."""
    with cluster(3) as c:
        user = _name("cu")
        conn = w.connect(c.bootstrap(1))
        try:
            assert _alter(conn, [("user", user)], producer_byte_rate=4096.0).error_code == ErrorCode.NONE
            bad = _alter(conn, [("user", user)], producer_byte_rate=-1.0)
            assert bad.error_code == ErrorCode.INVALID_REQUEST
        finally:
            conn.close()
        want = {frozenset([("user", user)]): {"producer_byte_rate": 4096.0}}

        def seen_by(broker_id: int) -> bool:
            other = w.connect(c.bootstrap(broker_id))
            try:
                return _found(_describe(other, [("user", EXACT, user)])) == want
            finally:
                other.close()

        for broker_id in (1, 2, 3):
            wait_until(lambda b=broker_id: seen_by(b), timeout=20, what=f"broker {broker_id} describes the quota")


# ---------------------------------------------------------------------------------------------
# enforcement: producer_byte_rate
# ---------------------------------------------------------------------------------------------

QUOTA = 100_000  # bytes/s
RUN_S = 10.5  # Kafka measures a new client over (quota.window.num - 1) windows: 10 s by default


FILLED = 3_000_000  # bytes a throttled consumer could read at once: 3x what its quota lets through


@pytest.fixture()
def throttled_client(either_broker: Any) -> Iterator[tuple[str, str, str, str, str]]:
    """(bootstrap, producer client id, its topic, consumer client id, a topic filled for it): both
    client ids held to QUOTA bytes/s (producer_byte_rate, consumer_byte_rate)."""
    bootstrap = either_broker.bootstrap_servers
    client, topic, reader, filled = _name("noisy"), _name("quota"), _name("reader"), _name("filled")
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.create_topics([NewTopic(topic, 1, 1), NewTopic(filled, 1, 1)]).values():
        f.result(30)
    # one record per batch: a fetch capped at the quota window ends in a partial batch, whose bytes Kafka counts
    # against the quota too; with 1 MB batches Apache read 3 records in 10 s when the first batch happened to be
    # small (its next fetch was throttled 10 s), so the fill's batching must not depend on timing
    fill = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 16384, "acks": 1})
    for _ in range(FILLED // 10_000):
        fill.produce(filled, b"r" * 10_000)
    assert fill.flush(30) == 0
    conn = w.connect(bootstrap)
    try:
        assert _alter(conn, [("client-id", client)], producer_byte_rate=float(QUOTA)).error_code == ErrorCode.NONE
        assert _alter(conn, [("client-id", reader)], consumer_byte_rate=float(QUOTA)).error_code == ErrorCode.NONE
        wait_until(
            lambda: (
                len(
                    _found(_describe(conn, [("client-id", SPECIFIED, None)])).keys()
                    & {frozenset([("client-id", client)]), frozenset([("client-id", reader)])}
                )
                == 2
            ),
            timeout=10,
            what="the quotas are in place",
        )
        yield bootstrap, client, topic, reader, filled
    finally:
        _alter(conn, [("client-id", client)], producer_byte_rate=None)
        _alter(conn, [("client-id", reader)], consumer_byte_rate=None)
        conn.close()


def test_producer_and_consumer_held_at_their_byte_rate_quotas(
    throttled_client: tuple[str, str, str, str, str],
) -> None:
    """A producer offering 10x its quota gets ~the quota through over Kafka's window, is told so
    (librdkafka's throttle_cb and its stats), and a bystander on the same broker is not slowed. At the
    same time a consumer that could read 3x its consumer_byte_rate at once reads ~its quota and is told
    so too (throttle_cb)."""
    bootstrap, client, topic, reader, filled = throttled_client
    throttles: list[int] = []
    delivered: list[tuple[float, int]] = []
    errors: list[str] = []

    def on_delivery(err: Any, msg: Any) -> None:
        if err is not None:
            errors.append(str(err))
        else:
            delivered.append((time.monotonic(), len(msg.value())))

    stats_throttle: list[int] = []

    def on_stats(doc: str) -> None:
        import json

        for b in json.loads(doc).get("brokers", {}).values():
            if b.get("nodeid", -1) >= 0:
                stats_throttle.append(int(b.get("throttle", {}).get("max", 0)))

    noisy = Producer(
        {
            "bootstrap.servers": bootstrap,
            "client.id": client,
            "acks": 1,
            "linger.ms": 5,
            "batch.size": 16384,  # the in-flight requests past the quota (5 x 16 KB) stay small
            "queue.buffering.max.kbytes": 32768,
            "throttle_cb": lambda e: throttles.append(int(e.throttle_time * 1000)),
            "stats_cb": on_stats,
            "statistics.interval.ms": 1000,
        }
    )
    bystander_latency: list[float] = []
    stop = threading.Event()

    def bystander() -> None:
        p = Producer({"bootstrap.servers": bootstrap, "client.id": _name("bystander"), "acks": 1, "linger.ms": 0})
        while not stop.is_set():
            sent = time.monotonic()
            p.produce(
                topic, b"b" * 100, on_delivery=lambda err, msg, s=sent: bystander_latency.append(time.monotonic() - s)
            )
            p.flush(10)
            time.sleep(0.05)

    consumed: list[tuple[float, int]] = []
    reader_throttles: list[int] = []

    def consume() -> None:
        c = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": _name("quota-g"),
                "client.id": reader,
                "enable.auto.commit": False,
                "throttle_cb": lambda e: reader_throttles.append(int(e.throttle_time * 1000)),
            }
        )
        c.assign([TopicPartition(filled, 0, 0)])  # no group join: reading starts with the producer
        try:
            while not stop.is_set():
                m = c.poll(0.05)
                if m is not None and m.error() is None:
                    consumed.append((time.monotonic(), len(m.value() or b"")))
        finally:
            c.close()

    helper = threading.Thread(target=bystander, daemon=True)
    helper.start()
    reading = threading.Thread(target=consume, daemon=True)
    reading.start()
    payload = b"x" * 10_000
    start = time.monotonic()
    offered = 0
    while (now := time.monotonic()) - start < RUN_S:
        # offer 10x the quota, paced
        while offered < (now - start) * 10 * QUOTA:
            try:
                noisy.produce(topic, payload, on_delivery=on_delivery)
            except BufferError:
                break
            offered += len(payload)
        noisy.poll(0.02)
    end = time.monotonic()
    stop.set()
    helper.join(15)
    reading.join(15)
    noisy.purge()
    noisy.flush(5)
    assert not errors[:1] or all("purge" in e.lower() for e in errors), errors[:3]
    got = sum(n for t, n in delivered if t <= end)
    rate = got / (end - start)
    # Kafka admits ~quota x max(10 s, elapsed) from a new client; the records' bytes are a little
    # under the request bytes it counts
    print(f"held at {rate:.0f} B/s, offered {offered / (end - start):.0f} B/s, throttle max {max(throttles or [0])} ms")
    assert 0.8 * QUOTA <= rate <= 1.2 * QUOTA, (rate, got, offered)
    assert offered >= 8 * got
    assert throttles and max(throttles) > 0, "librdkafka's throttle_cb"
    assert stats_throttle and max(stats_throttle) > 0, "librdkafka's stats: brokers[].throttle.max"
    latencies = sorted(bystander_latency)
    assert len(latencies) >= 20
    p99 = latencies[int(0.99 * (len(latencies) - 1))]
    print(f"bystander produce p99 {p99 * 1000:.1f} ms over {len(latencies)}")
    assert p99 < 0.25, latencies[-5:]
    # the consumer: ~its quota over the same window (Kafka caps a fetch at one window's worth), told so
    read = sum(n for t, n in consumed if t <= end)
    read_rate = read / (end - start)
    print(f"consumer held at {read_rate:.0f} B/s, throttle max {max(reader_throttles or [0])} ms")
    assert 0.8 * QUOTA <= read_rate <= 1.2 * QUOTA, (read_rate, read)
    assert reader_throttles and max(reader_throttles) > 0, "the consumer's throttle_cb"


def test_throttled_connection_is_muted_and_fetch_is_throttled(either_broker: Any) -> None:
    """A client that ignores throttle_time_ms is held anyway: its next request waits for the
    throttle time. A fetch over the consumer's quota answers no records with its throttle time
    (Kafka's throttled fetch response)."""
    bootstrap = either_broker.bootstrap_servers
    client, topic = _name("mute"), _name("quota")
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    conn = w.connect(bootstrap)
    bound = 50_000.0
    _alter(conn, [("client-id", client)], producer_byte_rate=bound, consumer_byte_rate=bound)
    wait_until(lambda: _found(_describe(conn, [("client-id", EXACT, client)])) != {}, timeout=10, what="quota set")
    quoted = BrokerConnection.from_bootstrap(bootstrap, client_id=client)
    try:
        now = int(time.time() * 1000)
        version = min(quoted.best_version(0), 12)

        sizes: list[int] = []

        def produce(value: bytes) -> Any:
            batch = build_batch([(now, None, value, [])])
            sizes.append(len(batch))
            req = pq.ProduceRequest(
                acks=1,
                timeout_ms=5000,
                topic_data=[pq.TopicProduceData(name=topic, partition_data=[pq.PartitionProduceData(0, batch)])],
            )
            r = quoted.request(0, req, version=version)
            assert r.responses[0].partition_responses[0].error_code == ErrorCode.NONE
            return r

        # 10 x 45 KB: within the quota over the new client's 10 s window; 100 KB more: 1.1 x
        for i in range(10):
            assert produce(bytes([65 + i]) * 45_000).throttle_time_ms == 0
        produced = produce(b"Z" * 100_000)
        received = time.monotonic()
        throttle = produced.throttle_time_ms
        assert 700 <= throttle <= 1500, throttle  # (55.0 - 50) / 50 x 10 s
        # the client ignores it and asks again at once: held by the muted connection
        w.metadata(quoted, [topic])
        assert time.monotonic() - received >= 0.8 * throttle / 1000

        def fetch(offset: int, partition_max_bytes: int) -> tuple[bytes, int]:
            req = fq.FetchRequest(
                replica_id=-1,
                max_wait_ms=0,
                min_bytes=0,
                max_bytes=50 << 20,
                isolation_level=0,
                topics=[
                    fq.FetchTopic(
                        topic=topic,
                        partitions=[
                            fq.FetchPartition(partition=0, fetch_offset=offset, partition_max_bytes=partition_max_bytes)
                        ],
                    )
                ],
            )
            r = quoted.request(1, req, version=min(quoted.best_version(1), 12))
            data = b"".join(bytes(p.records or b"") for t in r.responses for p in t.partitions)
            return data, r.throttle_time_ms

        # the 10 batches of 45 KB (exactly: Kafka would cut a batch at the byte limit), 0.9 x
        data, throttle = fetch(0, sum(sizes[:10]))
        assert len(data) == sum(sizes[:10]) and throttle == 0, (len(data), throttle)
        assert list(decode_batches(data))[-1].offset == 9
        # the 100 KB batch would make 1.1 x the quota: no records, the throttle time instead
        data, throttle = fetch(10, 10 << 20)
        assert data == b"" and 700 <= throttle <= 1500, (len(data), throttle)
    finally:
        quoted.close()
        _alter(conn, [("client-id", client)], producer_byte_rate=None, consumer_byte_rate=None)
        conn.close()


@pytest.mark.slow  # a JVM
def test_java_producer_reports_the_throttle(either_broker: Any, java_client: Any) -> None:
    """Kafka's ProducerPerformance at 1.1x the quota over the new client's window: its producer's
    produce-throttle-time-max metric shows the broker's throttle (~1 s), on both."""
    bootstrap = either_broker.bootstrap_servers
    client, topic = _name("javaq"), _name("quota")
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    conn = w.connect(bootstrap)
    try:
        assert _alter(conn, [("client-id", client)], producer_byte_rate=20_000.0).error_code == ErrorCode.NONE
        wait_until(lambda: _found(_describe(conn, [("client-id", EXACT, client)])) != {}, timeout=10, what="quota")
        out = java_client.run(
            jvm.PRODUCER_PERF,
            *("--topic", topic, "--num-records", "220", "--record-size", "1000", "--throughput", "-1"),
            *("--producer-props", f"bootstrap.servers={bootstrap}", f"client.id={client}", "batch.size=10000"),
            "--print-metrics",
        ).stdout
        (line,) = [x for x in out.splitlines() if x.startswith("producer-metrics:produce-throttle-time-max:")]
        # a throttle reported, at most about two quota windows (Apache: 460-1000 ms seen, by load)
        assert 0 < float(line.rsplit(":", 1)[1]) <= 2000, line
    finally:
        _alter(conn, [("client-id", client)], producer_byte_rate=None)
        conn.close()


def test_request_percentage_throttles_any_request(either_broker: Any) -> None:
    """request_percentage counts the broker's thread time per request: a tiny quota throttles
    plain Metadata requests, by at most one quota window (1 s)."""
    bootstrap = either_broker.bootstrap_servers
    client = _name("reqq")
    conn = w.connect(bootstrap)
    assert _alter(conn, [("client-id", client)], request_percentage=0.001).error_code == ErrorCode.NONE
    wait_until(lambda: _found(_describe(conn, [("client-id", EXACT, client)])) != {}, timeout=10, what="quota set")
    quoted = BrokerConnection.from_bootstrap(bootstrap, client_id=client)
    try:
        throttles: list[int] = []
        while len(throttles) < 50 and not any(throttles):
            throttles.append(w.metadata(quoted, []).throttle_time_ms)
        assert any(throttles) and all(0 <= t <= 1000 for t in throttles), throttles
    finally:
        quoted.close()
        _alter(conn, [("client-id", client)], request_percentage=None)
        conn.close()


@pytest.mark.slow  # a JVM
def test_java_consumer_reports_the_throttle(either_broker: Any, java_client: Any, tmp_path: Any) -> None:
    """Kafka's ConsumerPerformance offered ~1.2x what its consumer_byte_rate lets through over the new
    client's 10 s window: both brokers cap a fetch at one quota window's bytes, answer the fetches past
    the quota empty with their throttle time, and the Java consumer's fetch-throttle-time-max metric
    shows it. The tool stops after 8 s without records."""
    bootstrap = either_broker.bootstrap_servers
    client, topic = _name("javacq"), _name("quota")
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    records, rate = 230, 20_000.0  # 230 x ~1.07 kB: ~1.2x the 10 s window's 200 kB
    # one record per batch: a fetch capped at the window ends in at most a small partial batch (see throttled_client)
    fill = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 1000, "acks": 1})
    for _ in range(records):
        fill.produce(topic, b"c" * 1000)
    assert fill.flush(30) == 0
    conn = w.connect(bootstrap)
    try:
        assert _alter(conn, [("client-id", client)], consumer_byte_rate=rate).error_code == ErrorCode.NONE
        wait_until(lambda: _found(_describe(conn, [("client-id", EXACT, client)])) != {}, timeout=10, what="quota")
        props = tmp_path / "consumer.properties"
        props.write_text(f"client.id={client}\n")
        out = java_client.run(
            jvm.CONSUMER_PERF,
            *("--bootstrap-server", bootstrap, "--topic", topic, "--messages", str(records)),
            # the timeout also covers the join and first fetch, which a loaded CI machine can stretch
            # past 3 s; all 230 records arrive within ~12 s, so a longer one costs nothing more
            *("--group", f"g-{topic}", "--consumer.config", str(props), "--timeout", "8000"),
            "--print-metrics",
            timeout=90,
        ).stdout
        lines = [x for x in out.splitlines() if x.startswith("consumer-fetch-manager-metrics:fetch-throttle-time-max:")]
        assert lines, out
        # a throttle reported (Kafka's bound on one throttle is the quota's whole window, 11 s)
        throttle_max = max(float(x.rsplit(":", 1)[1]) for x in lines)
        assert 0 < throttle_max <= 11_000, lines
    finally:
        _alter(conn, [("client-id", client)], consumer_byte_rate=None)
        conn.close()
