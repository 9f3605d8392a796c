"""Transactional vs idempotent produce throughput, on our broker and on Apache Kafka.

Usage (from the repository root)::

    .venv/bin/python -m bench.txn_produce                          # print the table
    .venv/bin/python -m bench.txn_produce --out bench/RESULTS.md   # and rewrite our section there

Both brokers run as child processes on 127.0.0.1 in the same run: ours (`python -m
broker_embedded`) and Apache Kafka (the JVM peer, one KRaft node). One confluent-kafka producer
(acks=all, idempotent) writes the same records to a fresh topic in two modes: plain idempotent
(one flush at the end) and transactional (begin, `--txn-records` records, commit, repeated). Runs
alternate between the modes; the table gives the median records/s of each, and the cost of
transactions as the ratio transactional/idempotent. A read_committed consumer then checks that
every committed record is visible (count only).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from bench import report
from bench.targets import BrokerProcess

SECTION_BEGIN = "<!-- BEGIN txn_produce (generated; edits inside are overwritten) -->"
SECTION_END = "<!-- END txn_produce -->"
PRODUCER_CONFIG: dict[str, Any] = {"acks": "all", "enable.idempotence": True, "linger.ms": 5}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.txn_produce", description=__doc__.split("\n")[0])
    p.add_argument("--records", type=int, default=50_000, help="records per run (default 50000)")
    p.add_argument("--size", type=int, default=256, help="record value bytes (default 256)")
    p.add_argument("--txn-records", type=int, default=1000, help="records per transaction (default 1000)")
    p.add_argument("--partitions", type=int, default=4, help="partitions of each topic (default 4)")
    p.add_argument("--runs", type=int, default=3, help="runs per mode and broker (median)")
    p.add_argument("--no-apache", action="store_true", help="skip Apache Kafka")
    p.add_argument("--out", type=Path, help="rewrite our section of this RESULTS.md")
    return p.parse_args(argv)


def _topic(bootstrap: str, partitions: int) -> str:
    name = f"txn-bench-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.create_topics([NewTopic(name, partitions, 1)]).values():
        f.result(30)
    return name


def produce(bootstrap: str, topic: str, args: argparse.Namespace, transactional: bool) -> float:
    """Records/s of one run (timed from the first produce to the last acknowledgement/commit)."""
    conf = {"bootstrap.servers": bootstrap, **PRODUCER_CONFIG}
    if transactional:
        conf["transactional.id"] = f"bench-{uuid.uuid4().hex[:8]}"
    p = Producer(conf)
    value = b"x" * args.size
    # warm-up outside the timing: producer id (and coordinator), connections, topic metadata
    if transactional:
        p.init_transactions(30)
        p.begin_transaction()
    for i in range(args.partitions):
        p.produce(topic, value=value, partition=i)
    if transactional:
        p.commit_transaction(30)
    p.flush(30)
    t0 = time.perf_counter()
    sent = 0
    while sent < args.records:
        n = min(args.txn_records, args.records - sent) if transactional else args.records
        if transactional:
            p.begin_transaction()
        for i in range(n):
            while True:
                try:
                    p.produce(topic, value=value, key=str(sent + i).encode())
                    break
                except BufferError:
                    p.poll(0.01)
        sent += n
        if transactional:
            p.commit_transaction(60)
    remaining = p.flush(60)
    elapsed = time.perf_counter() - t0
    if remaining:
        raise RuntimeError(f"{remaining} records not acknowledged")
    return args.records / elapsed


def committed_count(bootstrap: str, topic: str, partitions: int) -> int:
    """Records a read_committed consumer sees (offsets below the LSO minus markers)."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"bench-{uuid.uuid4().hex[:6]}",
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
        }
    )
    try:
        total = 0
        for i in range(partitions):
            total_before = total
            c.assign([TopicPartition(topic, i, 0)])
            _, high = c.get_watermark_offsets(TopicPartition(topic, i), timeout=10)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                msgs = c.consume(10_000, 0.5)
                total += sum(1 for m in msgs if m.error() is None)
                pos = c.position([TopicPartition(topic, i)])[0].offset
                if pos >= high:
                    break
            if total == total_before and high > 0:
                raise RuntimeError(f"{topic}-{i}: nothing visible to read_committed")
        return total
    finally:
        c.close()


def bench_target(name: str, bootstrap: str, args: argparse.Namespace) -> dict[str, Any]:
    runs: dict[str, list[float]] = {"idempotent": [], "transactional": []}
    check_topic = ""
    for _ in range(args.runs):
        for mode in ("idempotent", "transactional"):
            topic = _topic(bootstrap, args.partitions)
            runs[mode].append(produce(bootstrap, topic, args, mode == "transactional"))
            if mode == "transactional":
                check_topic = topic
    visible = committed_count(bootstrap, check_topic, args.partitions) - args.partitions  # less the warm-up
    if visible != args.records:
        raise RuntimeError(f"{name}: read_committed sees {visible} of {args.records} committed records")
    return {"runs": runs, "median": {m: statistics.median(v) for m, v in runs.items()}, "visible": visible}


def run(args: argparse.Namespace) -> dict[str, Any]:
    info = report.machine_info()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-txn-") as tmp:
        ours = BrokerProcess("pykafka", Path(tmp), pykafka_overrides=["transaction.state.log.num.partitions=4"])
        bootstrap = ours.start(60)
        try:
            results["pykafka"] = bench_target("pykafka", bootstrap, args)
        finally:
            ours.stop()
    if not args.no_apache:
        from peers import jvm

        with jvm.ApacheKafka(1, num_partitions=args.partitions) as kafka:
            results["apache"] = bench_target("apache", kafka.bootstrap_servers, args)
    info["load_avg_end"] = report.load_average()
    return {"info": info, "args": vars(args), "results": results}


def render(result: dict[str, Any], argv: Sequence[str]) -> str:
    info, args, res = result["info"], result["args"], result["results"]
    cmd = " ".join(["python -m bench.txn_produce", *argv])
    lines = [
        SECTION_BEGIN,
        "## Transactional vs idempotent produce (`python -m bench.txn_produce`)",
        "",
        f"Run {info['date_utc']} with `{cmd}`; pykafka at commit {info['repo_commit']}.",
        "",
        f"- **CPU:** {info['cpu_model']}; cores: {info['logical_cores']} logical ({info['usable_cores']} usable);"
        f" memory: {info['memory']}",
        f"- **Load average (1/5/15 min):** {info['load_avg_start']} at start, {info['load_avg_end']} at end",
        f"- **Client:** confluent-kafka {info['confluent_kafka']}, librdkafka {info['librdkafka']}; producer "
        + ", ".join(f"`{k}={v}`" for k, v in PRODUCER_CONFIG.items()),
        f"- **Workload:** {args['records']:,} records of {args['size']} B per run into a fresh topic of"
        f" {args['partitions']} partitions; transactional runs commit every {args['txn_records']:,} records;"
        f" median of {args['runs']} alternating runs per mode. Timed from the first record to the last"
        " acknowledgement/commit, after a warm-up (one record per partition; for transactions, one committed"
        " transaction) that gets the producer id, connections and metadata. Brokers: ours"
        " (`python -m broker_embedded`, one process) and Apache Kafka (one KRaft JVM, the peer in `peers/`),"
        " one after the other in the same run.",
        "",
        "| broker | idempotent records/s | transactional records/s | transactional / idempotent |",
        "|---|---:|---:|---:|",
    ]
    for name, label in (("pykafka", "pykafka (ours)"), ("apache", "Apache Kafka")):
        if name not in res:
            continue
        med = res[name]["median"]
        lines.append(
            f"| {label} | {med['idempotent']:,.0f} | {med['transactional']:,.0f} |"
            f" {med['transactional'] / med['idempotent']:.2f} |"
        )
    if "pykafka" in res and "apache" in res:
        o, a = res["pykafka"]["median"], res["apache"]["median"]
        lines += [
            "",
            f"Ours / Apache Kafka: idempotent {o['idempotent'] / a['idempotent']:.2f}×,"
            f" transactional {o['transactional'] / a['transactional']:.2f}×.",
        ]
    lines += [
        "",
        "A read_committed consumer saw every committed record of the last transactional topic on each broker"
        " (checked by count). A commit costs AddPartitionsToTxn, EndTxn, two __transaction_state appends and"
        " one marker per partition; with small transactions that fixed cost dominates. The machine is shared"
        " (2 cores, other jobs running: see the load average).",
        SECTION_END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    result = run(args)
    section = render(result, argv)
    print(section)
    if args.out is not None:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
