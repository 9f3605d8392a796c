"""Helpers for the pykafka source tests: produce with confluent-kafka, read back rows, compare."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewPartitions

from broker_embedded import EmbeddedBroker
from testsupport.topics import create_topic  # noqa: F401 - re-exported: the tests' one way to create a topic

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")

Headers = tuple[tuple[str, bytes | None], ...]


@dataclass(frozen=True, order=True)
class Rec:
    """A record as Spark shows it: (topic, partition, offset) first so lists sort by position."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    timestamp_ms: int
    timestamp_type: int
    headers: Headers | None = None


def add_partitions(b: EmbeddedBroker, name: str, total: int) -> None:
    admin = AdminClient({"bootstrap.servers": b.bootstrap_servers})
    admin.create_partitions([NewPartitions(name, total)])[name].result(timeout=30)


def produce(
    b: EmbeddedBroker,
    topic: str,
    records: Iterable[tuple[int | None, bytes | None, bytes | None, Headers | None]],
    codec: str = "none",
    timestamps: Iterable[int] | None = None,
    **conf: Any,
) -> list[Rec]:
    """Produce (partition, key, value, headers) tuples; returns what the broker acknowledged."""
    p = Producer(
        {"bootstrap.servers": b.bootstrap_servers, "compression.type": codec, "linger.ms": 5, "acks": "all", **conf}
    )
    acked: list[Rec] = []
    errors: list[Any] = []
    stamps = iter(timestamps) if timestamps is not None else None

    def on_delivery(hdrs: Headers | None, err: Any, msg: Any) -> None:
        # delivery reports carry no headers: the ones we sent are bound to each callback
        if err is not None:
            errors.append(err)
            return
        ts_type, ts = msg.timestamp()
        acked.append(Rec(msg.topic(), msg.partition(), msg.offset(), msg.key(), msg.value(), ts, ts_type - 1, hdrs))

    for part, key, value, headers in records:
        kw: dict[str, Any] = {
            "key": key,
            "value": value,
            "on_delivery": functools.partial(on_delivery, headers or None),
        }
        if part is not None:
            kw["partition"] = part
        if headers:
            kw["headers"] = list(headers)
        if stamps is not None:
            kw["timestamp"] = next(stamps)
        p.produce(topic, **kw)
        p.poll(0)
    remaining = p.flush(30)
    assert remaining == 0 and not errors, (remaining, errors)
    return sorted(acked)


def mixed_records(
    n: int, partitions: int, seed: int = 0
) -> list[tuple[int, bytes | None, bytes | None, Headers | None]]:
    """Keys (some null), values (some null, empty, 1 KB), headers on some records (some null values)."""
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        key = None if i % 7 == 0 else b"key-%d" % i
        if i % 11 == 0:
            value = None
        elif i % 13 == 0:
            value = b""
        elif i % 5 == 0:
            value = rnd.randbytes(1024)
        else:
            value = b"value-%d" % i
        headers: Headers | None = None
        if i % 3 == 0:
            headers = (("h1", b"x%d" % i), ("h2", None), ("h1", b""))
        out.append((i % partitions, key, value, headers))
    return out


ROW_COLUMNS = (
    "topic",
    "partition",
    "offset",
    "key",
    "value",
    "unix_millis(timestamp) AS ts",
    "timestampType",
)


def rows_to_recs(rows: Iterable[Any], with_headers: bool) -> list[Rec]:
    out = []
    for r in rows:
        headers = None
        if with_headers and r["headers"] is not None:
            headers = tuple((h["key"], None if h["value"] is None else bytes(h["value"])) for h in r["headers"])
        out.append(
            Rec(
                r["topic"],
                r["partition"],
                r["offset"],
                None if r["key"] is None else bytes(r["key"]),
                None if r["value"] is None else bytes(r["value"]),
                r["ts"],
                r["timestampType"],
                headers,
            )
        )
    return sorted(out)


def collect(df: Any, with_headers: bool = False) -> list[Rec]:
    cols = list(ROW_COLUMNS) + (["headers"] if with_headers else [])
    return rows_to_recs(df.selectExpr(*cols).collect(), with_headers)


def without_headers(recs: Iterable[Rec]) -> list[Rec]:
    return sorted(Rec(r.topic, r.partition, r.offset, r.key, r.value, r.timestamp_ms, r.timestamp_type) for r in recs)


def wait_until(pred: Callable[[], Any], timeout: float = 30.0, interval: float = 0.1, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what or pred}")
        time.sleep(interval)


def source_options(b: EmbeddedBroker, **kw: str) -> dict[str, str]:
    return {"kafka.bootstrap.servers": b.bootstrap_servers, **kw}
