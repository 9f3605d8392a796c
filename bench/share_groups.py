"""Share groups (KIP-932): share-consume throughput and time from produce to delivery, our broker
next to Apache Kafka 4.3.1, with 1 and 4 confluent-kafka ``ShareConsumer``s.

    .venv/bin/python -m bench.share_groups [--targets ours,apache] [--consumers 1,4] [--records 20000]
        [--size 100] [--runs 3] [--latency-count 200] [--json PATH]

Per (consumers, run), the targets take turns (ours, apache, ours, apache, ...), so outside load
lands on both alike. One run, on a fresh 4-partition topic and a fresh share group
(``share.auto.offset.reset=earliest``):

* throughput: ``--records`` records of ``--size`` bytes are produced first; then the consumers
  (implicit acknowledgement, one thread each) start, and the run lasts until every record was
  delivered. Reported: records/s from the consumers' start (join included) and from the first
  delivery to the last, the seconds from the start to the first delivery (joining the group and
  the share-partition's first fetch), and duplicate deliveries (there should be none).
* latency: with the consumers joined and idle, ``--latency-count`` records are produced one every
  10 ms, each carrying its send time; reported the p50 and p99 of delivery time - send time.

``ours`` is ``python -m broker_embedded`` as a child process (as Apache runs in a JVM). Servers
listen on 127.0.0.1 and are stopped at the end; the printout is a markdown table (median, min-max
of the runs) and the load average before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import struct
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from confluent_kafka import Producer, ShareConsumer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic, ResourceType

from bench.report import load_average
from bench.targets import BrokerProcess

PARTITIONS = 4
_ts = struct.Struct(">d")


@contextmanager
def start_target(name: str, workdir: Path) -> Iterator[str]:
    if name == "ours":
        proc = BrokerProcess("pykafka", workdir)
        try:
            yield proc.start(60)
        finally:
            proc.stop()
    elif name == "apache":
        from peers.jvm import ApacheKafka

        with ApacheKafka(1, num_partitions=PARTITIONS) as kafka:
            yield kafka.bootstrap_servers
    else:
        raise SystemExit(f"unknown target {name!r}: choose from ours, apache")


def _fresh(bootstrap: str) -> tuple[str, str]:
    tag = uuid.uuid4().hex[:8]
    topic, group = f"share-bench-{tag}", f"share-bench-{tag}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(30)
    entry = ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
    resource = ConfigResource(ResourceType.GROUP, group, incremental_configs=[entry])
    admin.incremental_alter_configs([resource])[resource].result(30)
    deadline = time.monotonic() + 30
    while len(admin.list_topics(topic, timeout=10).topics[topic].partitions) < PARTITIONS:
        if time.monotonic() > deadline:
            raise RuntimeError(f"topic {topic} not ready")
        time.sleep(0.1)
    return topic, group


class _Consumers:
    """`n` ShareConsumers, one thread each; `on_record(value, now)` for every delivery."""

    def __init__(self, bootstrap: str, group: str, topic: str, n: int, on_record: Any) -> None:
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.threads = [
            threading.Thread(target=self._run, args=(bootstrap, group, topic, on_record), daemon=True) for _ in range(n)
        ]
        for t in self.threads:
            t.start()

    def _run(self, bootstrap: str, group: str, topic: str, on_record: Any) -> None:
        c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group})
        c.subscribe([topic])
        try:
            while not self.stop.is_set():
                for m in c.poll(0.2):
                    if m.error() is not None:
                        self.errors.append(str(m.error()))
                        continue
                    on_record(m.value(), time.perf_counter())
        finally:
            c.close()

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(30)


def throughput(bootstrap: str, consumers: int, records: int, size: int) -> dict[str, Any]:
    topic, group = _fresh(bootstrap)
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 262144})
    for i in range(records):
        p.produce(topic, str(i).encode().ljust(size, b"."), partition=i % PARTITIONS)
        if i % 10000 == 0:
            p.poll(0)
    if p.flush(60):
        raise RuntimeError("produce did not finish")
    seen: Counter[bytes] = Counter()
    first: list[float] = []
    last = [0.0]
    lock = threading.Lock()
    done = threading.Event()

    def on_record(value: bytes, now: float) -> None:
        with lock:
            seen[value] += 1
            if not first:
                first.append(now)
            last[0] = now
            if len(seen) >= records:
                done.set()

    start = time.perf_counter()
    group_of = _Consumers(bootstrap, group, topic, consumers, on_record)
    try:
        finished = done.wait(300)
    finally:
        group_of.close()
    if not finished:
        raise RuntimeError(f"only {len(seen)}/{records} delivered in 300 s")
    return {
        "records_per_s": records / (last[0] - start),
        "first_record_s": first[0] - start,
        "steady_records_per_s": records / max(last[0] - first[0], 1e-9),
        "duplicates": sum(seen.values()) - len(seen),
        "errors": len(group_of.errors),
    }


def latency(bootstrap: str, consumers: int, count: int) -> dict[str, Any]:
    topic, group = _fresh(bootstrap)
    delays: list[float] = []
    lock = threading.Lock()
    warm = threading.Event()

    def on_record(value: bytes, now: float) -> None:
        if value == b"warm":
            warm.set()
            return
        with lock:
            delays.append((now - _ts.unpack(value)[0]) * 1000)

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    group_of = _Consumers(bootstrap, group, topic, consumers, on_record)
    try:
        # joined and fetching: one record per partition comes through first
        deadline = time.monotonic() + 60
        while not warm.is_set():
            for part in range(PARTITIONS):
                p.produce(topic, b"warm", partition=part)
            p.flush(10)
            if warm.wait(2) or time.monotonic() > deadline:
                break
        time.sleep(1)  # every consumer's first fetch is out
        for i in range(count):
            p.produce(topic, _ts.pack(time.perf_counter()), partition=i % PARTITIONS)
            p.poll(0)
            time.sleep(0.01)
        p.flush(10)
        deadline = time.monotonic() + 30
        while len(delays) < count and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        group_of.close()
    ordered = sorted(delays)
    if not ordered:
        raise RuntimeError("no record delivered")
    return {
        "p50_ms": ordered[len(ordered) // 2],
        "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "delivered": len(ordered),
    }


def _spread(values: list[float], digits: int = 0) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}-{max(values):,.{digits}f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", default="ours,apache")
    ap.add_argument("--consumers", default="1,4")
    ap.add_argument("--records", type=int, default=20000)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--latency-count", type=int, default=200)
    ap.add_argument("--json", default=None, help="write every run's numbers here")
    args = ap.parse_args()
    targets = args.targets.split(",")
    counts = [int(n) for n in args.consumers.split(",")]
    results: dict[str, dict[int, list[dict[str, Any]]]] = {t: {n: [] for n in counts} for t in targets}
    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="share-bench-") as tmp, contextlib.ExitStack() as stack:
        bootstraps = {t: stack.enter_context(start_target(t, Path(tmp) / t)) for t in targets}
        for n in counts:
            for _run in range(args.runs):
                for t in targets:
                    row = throughput(bootstraps[t], n, args.records, args.size)
                    row.update(latency(bootstraps[t], n, args.latency_count))
                    results[t][n].append(row)
                    print(f"# {t} consumers={n}: {row}", flush=True)
    load_after = load_average()
    print(f"\nLoad average before {load_before}, after {load_after}; {args.records} records of {args.size} B, "
          f"{PARTITIONS} partitions, median (min-max) of {args.runs} runs\n")  # fmt: skip
    print("| target | consumers | records/s (join incl.) | records/s (first to last) | s to first record "
          "| p50 ms | p99 ms | dup |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for n in counts:
        for t in targets:
            rows = results[t][n]
            print(
                f"| {t} | {n} | {_spread([r['records_per_s'] for r in rows])} "
                f"| {_spread([r['steady_records_per_s'] for r in rows])} "
                f"| {_spread([r['first_record_s'] for r in rows], 1)} "
                f"| {_spread([r['p50_ms'] for r in rows], 1)} | {_spread([r['p99_ms'] for r in rows], 1)} "
                f"| {sum(r['duplicates'] for r in rows)} |"
            )
    if args.json:
        Path(args.json).write_text(json.dumps({"load": [load_before, load_after], "results": results}, indent=1))


if __name__ == "__main__":
    main()
