"""The three measurements, each run in a fresh worker process with a hard timeout.

All clients are confluent-kafka (librdkafka) with the same settings for every target.
Every measurement returns a JSON-able dict: ``{"ok": True, ...numbers...}`` or
``{"ok": False, "error": "..."}``. A measurement has its own deadline (it returns a
descriptive error when it runs out) and, as a backstop, :func:`run_isolated` kills the
worker process a little after that deadline.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import math
import multiprocessing
import os
import threading
import time
import traceback
import uuid
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from confluent_kafka import Consumer as KafkaConsumer
from confluent_kafka import KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from bench.targets import die_with_parent

Result = dict[str, Any]

MB = 1_000_000  # Throughput is reported in MB/s of record values, 1 MB = 10^6 bytes.
PARTITION = 0

# Settings shared by every target. acks=1 (the leader's write; every target here has one
# replica, so acks=all would mean the same), no idempotence, no compression.
COMMON_CLIENT_CONFIG: dict[str, Any] = {
    "client.id": "pykafka-bench",
    "socket.nagle.disable": True,
    "log_level": 6,
}
THROUGHPUT_PRODUCER_CONFIG: dict[str, Any] = {
    "acks": 1,
    "linger.ms": 5,
    "batch.size": 1_000_000,
    "compression.type": "none",
    "enable.idempotence": False,
    "queue.buffering.max.messages": 1_000_000,
    "delivery.report.only.error": True,
}
LATENCY_PRODUCER_CONFIG: dict[str, Any] = {
    **THROUGHPUT_PRODUCER_CONFIG,
    "linger.ms": 0,
}
CONSUMER_CONFIG: dict[str, Any] = {
    # confluent-kafka insists on a group.id; we only assign() and never commit, so no
    # group membership or offset storage is needed (librdkafka may still look up the
    # coordinator in the background; a failure there does not affect fetching).
    "enable.auto.commit": False,
    "enable.auto.offset.store": False,
    "auto.offset.reset": "earliest",
    "fetch.wait.max.ms": 100,
    # librdkafka pauses fetching for fetch.queue.backoff.ms (default 1000) whenever its
    # prefetch queue is over queued.min.messages (100k); with a fast broker that showed up
    # as a ~1 s stall in the consume timing, so keep the pause short.
    "fetch.queue.backoff.ms": 10,
}
LATENCY_CONSUMER_CONFIG: dict[str, Any] = {
    **CONSUMER_CONFIG,
    "fetch.wait.max.ms": 10,
    "fetch.error.backoff.ms": 10,
}

CONSUME_BATCH = 10_000
_WARMUP_FLAG = 0
_TIMED_FLAG = 1
_LATENCY_HEADER = 9  # flag byte + 8-byte little-endian send time (CLOCK_MONOTONIC, ns)


class BenchError(RuntimeError):
    """A measurement failed; the message is what ends up in the results table."""


class ClientDiagnostics:
    """Collects librdkafka log lines and error callbacks, to explain failures."""

    def __init__(self, name: str) -> None:
        self.recent: deque[str] = deque(maxlen=6)
        self.logger = logging.getLogger(f"bench.client.{name}.{uuid.uuid4().hex[:6]}")
        self.logger.propagate = False
        self.logger.setLevel(logging.INFO)
        self.logger.addHandler(_DequeHandler(self.recent))

    def error_cb(self, err: KafkaError) -> None:
        self.recent.append(f"error_cb: {err.str()}")

    def config(self, bootstrap: str) -> dict[str, Any]:
        return {
            **COMMON_CLIENT_CONFIG,
            "bootstrap.servers": bootstrap,
            "logger": self.logger,
            "error_cb": self.error_cb,
        }

    def explain(self, message: str) -> str:
        if not self.recent:
            return message
        return f"{message} [client: {' | '.join(self.recent)}]"


class _DequeHandler(logging.Handler):
    def __init__(self, sink: deque[str]) -> None:
        super().__init__(level=logging.INFO)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record.getMessage()[:300])


# -- topic set-up ----------------------------------------------------------------------
def _prepare_topic(
    bootstrap: str, topic: str, create: bool, deadline: float, diag: ClientDiagnostics
) -> tuple[Producer, list[str]]:
    """Create ``topic`` (1 partition) if the target supports it, then wait for metadata.

    Returns a connected producer (whose Metadata request also auto-creates the topic on
    targets without CreateTopics) and notes for the report.
    """
    notes: list[str] = []
    if create:
        admin = AdminClient(diag.config(bootstrap))
        future = admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)], request_timeout=10.0)[
            topic
        ]
        wait = max(1.0, min(15.0, deadline - time.monotonic()))
        try:
            future.result(timeout=wait)
        except concurrent.futures.TimeoutError as exc:
            raise BenchError(diag.explain(f"CreateTopics got no answer within {wait:.0f}s")) from exc
        except KafkaException as exc:
            error = exc.args[0] if exc.args else exc
            if not (isinstance(error, KafkaError) and error.code() == KafkaError.TOPIC_ALREADY_EXISTS):
                notes.append(f"CreateTopics failed ({error}); relied on auto-create")
    else:
        notes.append("topic auto-created (no CreateTopics); only partition 0 used")

    producer = Producer(diag.config(bootstrap))
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise BenchError(diag.explain(f"topic {topic} partition {PARTITION} never appeared in metadata"))
        try:
            metadata = producer.list_topics(topic=topic, timeout=min(5.0, remaining))
            topic_md = metadata.topics.get(topic)
            if topic_md is not None and topic_md.error is None and PARTITION in topic_md.partitions:
                partition_md = topic_md.partitions[PARTITION]
                if partition_md.error is None and partition_md.leader >= 0:
                    return producer, notes
        except KafkaException:
            pass
        time.sleep(0.1)


def _new_producer(bootstrap: str, extra: dict[str, Any], diag: ClientDiagnostics) -> tuple[Producer, list[str]]:
    errors: list[str] = []

    def on_delivery(err: KafkaError | None, _msg: object) -> None:
        if err is not None:
            errors.append(err.str())

    producer = Producer({**diag.config(bootstrap), **extra, "on_delivery": on_delivery})
    return producer, errors


def _new_consumer(bootstrap: str, extra: dict[str, Any], diag: ClientDiagnostics) -> KafkaConsumer:
    return KafkaConsumer({**diag.config(bootstrap), **extra, "group.id": f"bench-{uuid.uuid4().hex}"})


def _throughput(records: int, size: int, seconds: float, notes: list[str]) -> Result:
    seconds = max(seconds, 1e-9)
    return {
        "ok": True,
        "records": records,
        "bytes": records * size,
        "seconds": round(seconds, 4),
        "mb_per_s": records * size / MB / seconds,
        "records_per_s": records / seconds,
        "notes": notes,
    }


# -- 1. produce throughput ---------------------------------------------------------------
def measure_produce(
    stack: contextlib.ExitStack,
    *,
    bootstrap: str,
    topic: str,
    size: int,
    records: int,
    create_topic: bool,
    timeout: float,
) -> Result:
    """Produce ``records`` values of ``size`` bytes to partition 0; time first produce()→flush()."""
    deadline = time.monotonic() + timeout
    diag = ClientDiagnostics("produce")
    setup_producer, notes = _prepare_topic(bootstrap, topic, create_topic, deadline, diag)
    stack.callback(setup_producer.flush, 1.0)

    producer, delivery_errors = _new_producer(bootstrap, THROUGHPUT_PRODUCER_CONFIG, diag)
    stack.callback(producer.flush, 1.0)
    producer.list_topics(topic=topic, timeout=max(0.1, min(5.0, deadline - time.monotonic())))

    payload = os.urandom(size)
    produce = producer.produce
    started = time.perf_counter()
    for sent in range(records):
        while True:
            try:
                produce(topic, payload, partition=PARTITION)
                break
            except BufferError:
                producer.poll(0.005)  # Local queue full: let librdkafka drain it.
        if sent % 20_000 == 0 and time.monotonic() > deadline:
            raise BenchError(diag.explain(f"deadline hit after producing {sent}/{records} records"))
    undelivered = producer.flush(max(0.0, deadline - time.monotonic()))
    elapsed = time.perf_counter() - started

    if undelivered:
        raise BenchError(diag.explain(f"flush timed out with {undelivered}/{records} records undelivered"))
    if delivery_errors:
        raise BenchError(f"{len(delivery_errors)}/{records} delivery errors, first: {delivery_errors[0]}")
    return _throughput(records, size, elapsed, notes)


# -- 2. consume throughput ---------------------------------------------------------------
def measure_consume(
    stack: contextlib.ExitStack,
    *,
    bootstrap: str,
    topic: str,
    size: int,
    records: int,
    timeout: float,
) -> Result:
    """Fresh consumer, ``assign`` partition 0 at its first offset, read to the last produced
    record; time assign()→last record.

    The log should start at offset 0. A target that already dropped the head of the log
    (the librdkafka mock keeps only ~5 MiB per partition) is read from its log start
    offset instead, and the result carries a note saying how much was left. (Re-reading
    that window with seek() to move the full volume was tried: every seek then waits out
    the fetch the mock is holding for fetch.wait.max.ms, which measures that wait instead.)
    """
    deadline = time.monotonic() + timeout
    diag = ClientDiagnostics("consume")
    consumer = _new_consumer(bootstrap, CONSUMER_CONFIG, diag)
    stack.callback(consumer.close)

    low, high = consumer.get_watermark_offsets(
        TopicPartition(topic, PARTITION), timeout=max(1.0, min(10.0, deadline - time.monotonic()))
    )
    notes: list[str] = []
    if high != records:
        # Not fatal for a throughput test, but worth surfacing (a conformance bug).
        notes.append(f"ListOffsets(latest) answered {high} for a log of {records} records")
    if not 0 <= low < records:
        raise BenchError(f"log start offset is {low}, outside the {records} produced records")
    expected = records - low
    if low > 0:
        notes.append(
            f"log start offset was {low:,}: only the last {expected:,} of {records:,} records "
            f"({expected * size / MB:.1f} MB) were retained; consume was measured on those"
        )

    received = 0
    errors: list[str] = []
    last = None
    started = time.perf_counter()
    consumer.assign([TopicPartition(topic, PARTITION, low)])
    while received < expected:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise BenchError(diag.explain(f"deadline hit after consuming {received}/{expected} records"))
        # consume() returns when it has num_messages or at the timeout, so never ask for
        # more than is left: the last batch must not sit out the timeout.
        wanted = min(CONSUME_BATCH, expected - received)
        batch = consumer.consume(num_messages=wanted, timeout=min(1.0, remaining))
        for message in batch:
            if message.error() is None:
                received += 1
                last = message
            elif len(errors) < 5:
                errors.append(str(message.error()))
        if len(errors) >= 5:
            raise BenchError(f"consume errors after {received} records: {'; '.join(errors)}")
    elapsed = time.perf_counter() - started

    if last is None or last.offset() != records - 1 or len(last.value() or b"") != size:
        offset = None if last is None else last.offset()
        raise BenchError(f"unexpected last record: offset {offset} (want {records - 1})")
    if errors:
        notes.append(f"{len(errors)} transient consume errors")
    return _throughput(expected, size, elapsed, notes)


# -- 3. produce→consume latency ----------------------------------------------------------
def _percentile(sorted_values: list[float], pct: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(pct / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def measure_latency(
    stack: contextlib.ExitStack,
    *,
    bootstrap: str,
    topic: str,
    size: int,
    count: int,
    interval_ms: float,
    create_topic: bool,
    timeout: float,
) -> Result:
    """Send ``count`` records one at a time every ``interval_ms`` with linger.ms=0 while a
    consumer thread (fetch.wait.max.ms=10) reads them; latency = receive − send time."""
    deadline = time.monotonic() + timeout
    diag = ClientDiagnostics("latency")
    setup_producer, notes = _prepare_topic(bootstrap, topic, create_topic, deadline, diag)
    stack.callback(setup_producer.flush, 1.0)

    consumer = _new_consumer(bootstrap, LATENCY_CONSUMER_CONFIG, diag)
    producer, delivery_errors = _new_producer(bootstrap, LATENCY_PRODUCER_CONFIG, diag)
    stack.callback(producer.flush, 1.0)

    latencies_ns: list[int] = []
    consumer_errors: list[str] = []
    warmed_up = threading.Event()
    all_received = threading.Event()
    stop = threading.Event()

    def consume_loop() -> None:
        consumer.assign([TopicPartition(topic, PARTITION, 0)])
        # poll(), not consume(n): consume() holds records back until it has n or times out.
        while not stop.is_set():
            message = consumer.poll(0.05)
            if message is None:
                continue
            now = time.monotonic_ns()
            if message.error() is not None:
                consumer_errors.append(str(message.error()))
                continue
            value = message.value() or b""
            if value[:1] == bytes([_TIMED_FLAG]):
                latencies_ns.append(now - int.from_bytes(value[1:_LATENCY_HEADER], "little"))
                if len(latencies_ns) >= count:
                    all_received.set()
                    return
            else:
                warmed_up.set()

    reader = threading.Thread(target=consume_loop, name="latency-consumer", daemon=True)
    reader.start()
    stack.callback(consumer.close)
    stack.callback(reader.join, 5.0)
    stack.callback(stop.set)

    padding = os.urandom(max(0, size - _LATENCY_HEADER))

    def send(flag: int) -> None:
        value = bytes([flag]) + time.monotonic_ns().to_bytes(8, "little") + padding
        producer.produce(topic, value, partition=PARTITION)
        producer.poll(0)

    # Warm-up: connections, metadata and the consumer's fetch loop must be live first.
    while not warmed_up.is_set():
        if time.monotonic() > deadline:
            raise BenchError(diag.explain("consumer never received a warm-up record"))
        send(_WARMUP_FLAG)
        warmed_up.wait(0.02)
    time.sleep(0.1)

    interval_s = interval_ms / 1000
    started = time.perf_counter()
    for i in range(count):
        delay = started + i * interval_s - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        send(_TIMED_FLAG)
        if i % 500 == 0 and time.monotonic() > deadline:
            raise BenchError(diag.explain(f"deadline hit after sending {i}/{count} records"))
    producer.flush(max(0.0, deadline - time.monotonic()))
    all_received.wait(max(0.0, deadline - time.monotonic()))
    stop.set()

    if delivery_errors:
        raise BenchError(f"{len(delivery_errors)} delivery errors, first: {delivery_errors[0]}")
    if len(latencies_ns) < count:
        detail = f"; consumer errors: {consumer_errors[:3]}" if consumer_errors else ""
        raise BenchError(diag.explain(f"received {len(latencies_ns)}/{count} timed records{detail}"))
    values_ms = sorted(ns / 1e6 for ns in latencies_ns[:count])
    return {
        "ok": True,
        "count": count,
        "interval_ms": interval_ms,
        "p50_ms": _percentile(values_ms, 50),
        "p99_ms": _percentile(values_ms, 99),
        "mean_ms": sum(values_ms) / len(values_ms),
        "min_ms": values_ms[0],
        "max_ms": values_ms[-1],
        "notes": notes,
    }


# -- process isolation -----------------------------------------------------------------
Measurement = Callable[..., Result]


def _worker_main(conn: Connection, func: Measurement, kwargs: dict[str, Any]) -> None:
    die_with_parent()  # Do not outlive a bench process that was SIGKILLed.
    with contextlib.ExitStack() as stack:
        try:
            result = func(stack, **kwargs)
        except BenchError as exc:
            result = {"ok": False, "error": str(exc)}
        except Exception as exc:  # noqa: BLE001 - any failure becomes a table cell
            ours = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == __file__]
            where = f" (in {ours[-1].name}, line {ours[-1].lineno})" if ours else ""
            result = {"ok": False, "error": f"{type(exc).__name__}: {exc}{where}"}
        # Report before the clients are closed: closing can block on a broken broker.
        conn.send(result)
        conn.close()


def run_isolated(func: Measurement, kwargs: dict[str, Any], timeout: float, grace: float = 15.0) -> Result:
    """Run ``func(stack, timeout=timeout, **kwargs)`` in a fresh process; kill it if it overruns."""
    ctx = multiprocessing.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    worker = ctx.Process(
        target=_worker_main,
        args=(sender, func, {**kwargs, "timeout": timeout}),
        name=f"bench-{func.__name__}",
        daemon=True,
    )
    worker.start()
    sender.close()
    try:
        if receiver.poll(timeout + grace):
            try:
                result: Result = receiver.recv()
            except EOFError:
                result = {"ok": False, "error": "worker died"}
            worker.join(5.0)  # Give it a moment to close its clients.
            if not result.get("ok") and result.get("error") == "worker died":
                result["error"] = f"worker died (exit code {worker.exitcode})"
        else:
            result = {"ok": False, "error": f"timeout: no result after {timeout + grace:.0f}s"}
    finally:
        if worker.is_alive():
            worker.kill()
            worker.join(5.0)
        receiver.close()
    return result
