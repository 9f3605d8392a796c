"""Consumer-group latency side by side: time from ``subscribe`` to the first record for a new
group, and the time a 3-member group takes to rebalance to 4 members.

    .venv/bin/python -m bench.group_rebalance [--targets pykafka,tansu,mock] [--out bench/RESULTS.md]

Same client (confluent-kafka) and settings for every target; each measurement is repeated and
the median reported. Servers listen on 127.0.0.1 and are stopped at the end.

    .venv/bin/python -m bench.group_rebalance --members [--protocols classic,consumer] [--repeat 3]

measures instead, on our broker and Apache Kafka 4.3.1 (each its own process, the same group timeouts), for
both group protocols (KIP-848's `consumer` and `classic`): how long 10 confluent-kafka members, each in its
own process (testsupport/group_member_proc.py), take to settle over 100 partitions after the 10th joins and
after one of them is SIGKILLed (`bench.group_rebalance_members`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from bench import report
from bench.report import load_average, machine_info
from bench.targets import BrokerProcess

SECTION_BEGIN = "<!-- BEGIN bench.group_rebalance (generated; edits inside are overwritten) -->"
SECTION_END = "<!-- END bench.group_rebalance -->"
PARTITIONS = 12


def _prepare_topic(bootstrap: str, topic: str, can_create: bool) -> int:
    """Create and fill the topic; returns its partition count (the mock auto-creates its own)."""
    admin = AdminClient({"bootstrap.servers": bootstrap})
    if can_create:
        admin.create_topics([NewTopic(topic, num_partitions=PARTITIONS, replication_factor=1)])[topic].result(30)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    producer.produce(topic, value=b"x")  # auto-creates where CreateTopics is missing
    producer.flush(30)
    partitions = len(admin.list_topics(topic, timeout=30).topics[topic].partitions)
    for i in range(partitions * 10):
        producer.produce(topic, value=b"x" * 100, partition=i % partitions)
    if producer.flush(30):
        raise RuntimeError("records not delivered")
    return partitions


def _consumer(bootstrap: str, group: str, **extra: Any) -> Consumer:
    conf = {"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest"}
    conf.update(extra)
    return Consumer(conf)


def first_record_ms(bootstrap: str, topic: str, partitions: int, timeout: float) -> float:
    """A new group, one consumer with default settings: subscribe() → first record."""
    c = _consumer(bootstrap, f"bench-{uuid.uuid4().hex[:8]}")
    try:
        t0 = time.perf_counter()
        c.subscribe([topic])
        deadline = t0 + timeout
        while time.perf_counter() < deadline:
            msg = c.poll(0.01)
            if msg is not None and msg.error() is None:
                return (time.perf_counter() - t0) * 1000
        raise TimeoutError(f"no record within {timeout:.0f} s")
    finally:
        c.close()


def rebalance_3_to_4_ms(bootstrap: str, topic: str, partitions: int, timeout: float) -> float:
    """3 members stable over the topic's partitions; a 4th subscribes: time until all 4 own a
    disjoint, complete assignment."""
    group = f"bench-{uuid.uuid4().hex[:8]}"
    members = [_consumer(bootstrap, group, **{"session.timeout.ms": 10000}) for _ in range(4)]
    stop = threading.Event()
    assignments: dict[int, frozenset[int]] = {}
    lock = threading.Lock()

    def run(i: int) -> None:
        c = members[i]
        while not stop.is_set():
            c.poll(0.01)
            parts = frozenset(tp.partition for tp in c.assignment())
            with lock:
                assignments[i] = parts

    def balanced(n: int) -> bool:
        with lock:
            owned = [assignments.get(i, frozenset()) for i in range(n)]
        union = frozenset().union(*owned)
        return all(owned) and len(union) == partitions and sum(len(o) for o in owned) == partitions

    threads: list[threading.Thread] = []
    try:
        for i in range(3):
            members[i].subscribe([topic])
            threads.append(threading.Thread(target=run, args=(i,), daemon=True))
            threads[-1].start()
        deadline = time.perf_counter() + timeout
        while not balanced(3):
            if time.perf_counter() > deadline:
                raise TimeoutError("3 members never settled")
            time.sleep(0.005)
        time.sleep(0.5)  # let the group be Stable, not just assigned
        t0 = time.perf_counter()
        members[3].subscribe([topic])
        threads.append(threading.Thread(target=run, args=(3,), daemon=True))
        threads[-1].start()
        deadline = t0 + timeout
        while not balanced(4):
            if time.perf_counter() > deadline:
                raise TimeoutError("4 members never settled")
            time.sleep(0.002)
        return (time.perf_counter() - t0) * 1000
    finally:
        stop.set()
        for t in threads:
            t.join(5)
        for c in members:
            c.close()


def measure(target: str, repeat: int, timeout: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"bench-{target}-") as tmp:
        broker = BrokerProcess(target, Path(tmp))
        try:
            bootstrap = broker.start(30)
            topic = f"bench-groups-{uuid.uuid4().hex[:6]}"
            partitions = _prepare_topic(bootstrap, topic, broker.info.supports_create_topics)
            out: dict[str, Any] = {"partitions": partitions}
            for name, fn in (("first_record_ms", first_record_ms), ("rebalance_3_to_4_ms", rebalance_3_to_4_ms)):
                runs: list[float] = []
                try:
                    for _ in range(repeat):
                        runs.append(fn(bootstrap, topic, partitions, timeout))
                    out[name] = {"median": statistics.median(runs), "runs": runs}
                except Exception as e:  # a broken target fails its cell, not the run
                    out[name] = {"error": f"{type(e).__name__}: {e}", "runs": runs}
            return out
        finally:
            broker.stop()


def render(results: dict[str, dict[str, Any]], argv: list[str]) -> str:
    m = machine_info()
    targets = list(results)
    peers = [t for t in targets if t != "pykafka"]
    lines = [
        SECTION_BEGIN,
        "## Consumer groups (`python -m bench.group_rebalance`)",
        "",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with `python -m bench.group_rebalance "
        f"{' '.join(argv)}`.",
        "",
        f"- **Machine:** {m.get('cpu_model', '?')}, {m.get('usable_cores', '?')} usable cores; "
        f"Python {m.get('python', '?')}; librdkafka {m.get('librdkafka', '?')}; Tansu {m.get('tansu', '?')}; "
        f"load average {load_average()}",
        f"- **Client:** confluent-kafka {m.get('confluent_kafka', '?')}, default settings plus group.id, "
        "auto.offset.reset=earliest (session.timeout.ms=10000 for the rebalance); median of the runs",
        "- **Topic:** "
        + ", ".join(f"{t}: {results[t].get('partitions', '?')} partitions" for t in targets)
        + " (10 records each; the mock auto-creates its topic with its own partition count)",
        "",
        "| metric | " + " | ".join([*targets, *(f"pykafka/{t}" for t in peers)]) + " |",
        "|---|" + "---:|" * (len(targets) + len(peers)),
    ]
    for metric, label in (
        ("first_record_ms", "subscribe → first record, ms"),
        ("rebalance_3_to_4_ms", "rebalance 3 → 4 members, ms"),
    ):
        cells = []
        for t in targets:
            cell = results[t].get(metric) or {}
            cells.append(f"{cell['median']:.0f}" if "median" in cell else f"error: {cell.get('error', '?')}")
        ratios = []
        ours = results.get("pykafka", {}).get(metric, {}).get("median")
        for t in targets:
            if t == "pykafka":
                continue
            theirs = results[t].get(metric, {}).get("median")
            ratios.append(f"{ours / theirs:.3f}" if ours and theirs else "—")
        lines.append(f"| {label} | " + " | ".join([*cells, *ratios]) + " |")
    lines += [
        "",
        "Runs (ms): "
        + "; ".join(
            f"{t} {metric}: {', '.join(f'{r:.0f}' for r in results[t].get(metric, {}).get('runs', []))}"
            for t in targets
            for metric in ("first_record_ms", "rebalance_3_to_4_ms")
        ),
        "",
        "Below 1 is better in the ratio columns. librdkafka's own timers bound what any broker can show: "
        "the consumer's join starts after its first metadata and coordinator round trips, and a member "
        "learns of a rebalance from its next heartbeat (`heartbeat.interval.ms`, default 3000).",
        SECTION_END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--members" in argv:
        from bench import group_rebalance_members

        return group_rebalance_members.main([a for a in argv if a != "--members"])
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--targets", default="pykafka,tansu,mock")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per measurement")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    results = {t: measure(t, args.repeat, args.timeout) for t in args.targets.split(",")}
    section = render(results, argv)
    print(section)
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 1 if any(isinstance(c, dict) and "error" in c for r in results.values() for c in r.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
