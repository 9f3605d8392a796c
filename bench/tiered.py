"""Consume throughput from the remote tier vs the local tier of the embedded broker (KIP-405).

Usage (from the repository root)::

    .venv/bin/python -m bench.tiered                          # print the table
    .venv/bin/python -m bench.tiered --out bench/RESULTS.md   # and rewrite our section there

One broker process (`python -m broker_embedded`, tiering on, the local-directory remote store in
a temp dir) holds two topics with the same records: `local` (not tiered) and `tiered`
(`remote.storage.enable=true`, `local.retention.bytes=0`: once copied, rolled segments exist
only in the remote tier). The same offset range (everything the tiered topic keeps only
remotely) is consumed from both with one confluent-kafka consumer setup, in alternating runs;
the table gives the median of each and the ratio remote/local.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from bench import report
from bench.report import cpu_seconds
from bench.targets import BrokerProcess

SECTION_BEGIN = "<!-- BEGIN tiered (generated; edits inside are overwritten) -->"
SECTION_END = "<!-- END tiered -->"
EARLIEST_LOCAL = -4
LATEST_TIERED = -5
CONSUMER_CONFIG = {
    "group.id": "bench-tiered",
    "enable.auto.commit": False,
    "enable.auto.offset.store": False,
    "auto.offset.reset": "earliest",
    "fetch.wait.max.ms": 100,
    "fetch.queue.backoff.ms": 10,
}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.tiered", description=__doc__.split("\n")[0])
    p.add_argument("--records", type=int, default=100_000, help="records per topic (default 100000)")
    p.add_argument("--size", type=int, default=1024, help="record value bytes (default 1024)")
    p.add_argument("--segment-bytes", type=int, default=8 << 20, help="segment.bytes of both topics (8 MiB)")
    p.add_argument("--runs", type=int, default=3, help="consume runs per tier (median)")
    p.add_argument("--out", type=Path, help="rewrite our section of this RESULTS.md")
    return p.parse_args(argv)


def produce(bootstrap: str, topic: str, n: int, size: int) -> None:
    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "linger.ms": 5,
            "batch.size": 1_000_000,
            "queue.buffering.max.messages": 1_000_000,
            "delivery.report.only.error": True,
        }
    )
    value = b"v" * size
    for i in range(n):
        while True:
            try:
                p.produce(topic, key=str(i).encode(), value=value, partition=0)
                break
            except BufferError:
                p.poll(0.05)
    if p.flush(120) != 0:
        raise RuntimeError(f"producing to {topic} did not finish")


def list_offset(bootstrap: str, topic: str, spec: int) -> int:
    """ListOffsets through our own wire client (-4 / -5 are not in confluent-kafka's API)."""
    from kafka_wire.client import BrokerConnection
    from kafka_wire.protocol.messages import list_offsets_request as rq

    host, port = bootstrap.rsplit(":", 1)
    conn = BrokerConnection(host, int(port))
    try:
        req = rq.ListOffsetsRequest(
            replica_id=-1,
            topics=[
                rq.ListOffsetsTopic(name=topic, partitions=[rq.ListOffsetsPartition(partition_index=0, timestamp=spec)])
            ],
        )
        return int(conn.request(2, req).topics[0].partitions[0].offset)
    finally:
        conn.close()


def wait_tiered(bootstrap: str, timeout: float = 300) -> int:
    """Until every rolled segment of `tiered` is copied and gone locally; returns the local start."""
    deadline = time.monotonic() + timeout
    last = (-1, -1)
    stable_since = time.monotonic()
    while time.monotonic() < deadline:
        now = (list_offset(bootstrap, "tiered", EARLIEST_LOCAL), list_offset(bootstrap, "tiered", LATEST_TIERED))
        if now != last:
            last, stable_since = now, time.monotonic()
        elif now[0] > 0 and now[0] == now[1] + 1 and time.monotonic() - stable_since > 1.5:
            return now[0]
        time.sleep(0.2)
    raise RuntimeError(f"tiering did not settle within {timeout}s (local start, latest tiered = {last})")


def consume_range(bootstrap: str, topic: str, end: int, size: int, broker_pid: int = -1) -> dict[str, float]:
    c = Consumer({"bootstrap.servers": bootstrap, **CONSUMER_CONFIG})
    try:
        c.assign([TopicPartition(topic, 0, 0)])
        got = 0
        nbytes = 0
        cpu0 = cpu_seconds(broker_pid) if broker_pid > 0 else float("nan")  # the warm-up has none
        t0 = time.perf_counter()
        deadline = time.monotonic() + 300
        while got < end and time.monotonic() < deadline:
            for m in c.consume(10_000, 1.0):
                if m.error() is not None:
                    raise RuntimeError(f"{topic}: {m.error()}")
                if m.offset() < end:
                    got += 1
                    nbytes += len(m.value())
        elapsed = time.perf_counter() - t0
        broker_cpu = cpu_seconds(broker_pid) - cpu0 if broker_pid > 0 else float("nan")
        if got < end:
            raise RuntimeError(f"{topic}: only {got} of {end} records within 300 s")
        return {
            "seconds": elapsed,
            "records_per_s": got / elapsed,
            "mb_per_s": nbytes / elapsed / 1e6,
            "broker_cpu_s": broker_cpu,
        }
    finally:
        c.close()


def run(args: argparse.Namespace) -> dict[str, Any]:
    info = report.machine_info()
    with tempfile.TemporaryDirectory(prefix="bench-tiered-") as tmp:
        work = Path(tmp)
        overrides = [
            "remote.log.storage.system.enable=true",
            f"rsm.config.dir={work / 'remote'}",
            "remote.log.manager.task.interval.ms=200",
            "log.retention.check.interval.ms=200",
            "log.initial.task.delay.ms=0",  # local retention from the start, not 30 s in
        ]
        broker = BrokerProcess("pykafka", work, pykafka_overrides=overrides)
        bootstrap = broker.start(60)
        try:
            admin = AdminClient({"bootstrap.servers": bootstrap})
            common = {"segment.bytes": str(args.segment_bytes)}
            topics = [
                NewTopic("local", 1, 1, config=common),
                NewTopic(
                    "tiered", 1, 1, config={**common, "remote.storage.enable": "true", "local.retention.bytes": "0"}
                ),
            ]
            for f in admin.create_topics(topics).values():
                f.result(30)
            for topic in ("local", "tiered"):
                produce(bootstrap, topic, args.records, args.size)
            end = wait_tiered(bootstrap)
            remote_files = len(list((work / "remote").glob("tiered-0-*/*.log")))
            # (the broker's own process: its CPU seconds per run are the cost of each path)
            broker_pid = broker._proc.pid if broker._proc is not None else -1  # noqa: SLF001
            consume_range(bootstrap, "local", 1, args.size)  # warm-up: librdkafka's first-consumer start
            runs: dict[str, list[dict[str, float]]] = {"remote": [], "local": []}
            for i in range(args.runs):
                # pairs back to back, the order swapped every run (neither tier always goes first)
                order = (("remote", "tiered"), ("local", "local"))
                for tier, topic in order if i % 2 == 0 else order[::-1]:
                    r = consume_range(bootstrap, topic, end, args.size, broker_pid)
                    runs[tier].append(r)
                    print(
                        f"run {i + 1} {tier}: {r['mb_per_s']:.1f} MB/s in {r['seconds']:.2f} s,"
                        f" broker CPU {r['broker_cpu_s']:.2f} s",
                        file=sys.stderr,
                    )
        finally:
            broker.stop()
    info["load_avg_end"] = report.load_average()
    medians = {
        tier: {k: statistics.median(r[k] for r in rs) for k in ("seconds", "records_per_s", "mb_per_s", "broker_cpu_s")}
        for tier, rs in runs.items()
    }
    return {
        "info": info,
        "args": vars(args),
        "end": end,
        "remote_segments": remote_files,
        "median": medians,
        "runs": runs,
    }


def render(result: dict[str, Any], argv: Sequence[str]) -> str:
    info, args, med = result["info"], result["args"], result["median"]
    r, loc = med["remote"], med["local"]
    mb = result["end"] * args["size"] / 1e6
    cmd = " ".join(["python -m bench.tiered", *argv])
    lines = [
        SECTION_BEGIN,
        "## Tiered storage: consume from the remote tier vs the local tier (`python -m bench.tiered`)",
        "",
        f"Run {info['date_utc']} with `{cmd}`; pykafka at commit {info['repo_commit']}.",
        "",
        f"- **CPU:** {info['cpu_model']}; cores: {info['logical_cores']} logical ({info['usable_cores']} usable);"
        f" memory: {info['memory']}",
        f"- **OS / Python:** {info['os']}; Python {info['python']}",
        f"- **Load average (1/5/15 min):** {info['load_avg_start']} at start, {info['load_avg_end']} at end",
        f"- **Client:** confluent-kafka {info['confluent_kafka']}, librdkafka {info['librdkafka']};"
        " consumer settings: " + ", ".join(f"`{k}={v}`" for k, v in CONSUMER_CONFIG.items()),
        f"- **Workload:** {args['records']:,} records of {args['size']} B per topic,"
        f" segment.bytes={args['segment_bytes']:,};"
        f" the first {result['end']:,} records ({mb:.1f} MB, {result['remote_segments']} segments) are remote-only in"
        " `tiered` (local.retention.bytes=0) and local in `local`; both consumed from offset 0 to there with"
        f" assign() (timed from assign to the last record, after a warm-up consumer); median of {args['runs']}"
        " alternating runs. Remote store: `LocalTieredStorage` on the same disk,"
        " default reader settings (`remote.log.reader.threads=10`, `remote.fetch.max.wait.ms=500`).",
        "",
        "| metric | remote tier | local tier | remote/local |",
        "|---|---:|---:|---:|",
        f"| consume MB/s | {r['mb_per_s']:.1f} | {loc['mb_per_s']:.1f} | {r['mb_per_s'] / loc['mb_per_s']:.2f} |",
        f"| consume records/s | {r['records_per_s']:,.0f} | {loc['records_per_s']:,.0f} |"
        f" {r['records_per_s'] / loc['records_per_s']:.2f} |",
        f"| seconds | {r['seconds']:.2f} | {loc['seconds']:.2f} | {r['seconds'] / loc['seconds']:.2f} |",
        f"| broker CPU seconds | {r['broker_cpu_s']:.2f} | {loc['broker_cpu_s']:.2f} |"
        f" {r['broker_cpu_s'] / max(loc['broker_cpu_s'], 1e-9):.2f} |",
        "",
        "MB/s counts record values only (1 MB = 10^6 bytes); broker CPU seconds are the broker process's user + "
        "system time during the run (/proc). Remote fetches are served by `broker_embedded/tiered/reader.py`: a "
        "consumer's first remote fetch waits for a reader thread (one ranged read of the segment, position from "
        "the cached offset index); from then on a read-ahead per consumer position (partition, max bytes, offset)"
        " keeps the next fetches' answers in memory (one ranged read of 4 MiB per run, split into exactly the "
        "answers single reads would give, the aborted transactions of read_committed computed with them from "
        "cached transaction indexes), started once the consumer is into the last run read, so a fetch is "
        "answered on the event loop with no thread hand-off. Bounded: at most 2 runs per stream and 16 streams "
        "(about 132 MiB). Local fetches are a pread on the event loop.",
        "",
        "Before/after in the same session (2026-11-25, `--runs 5`, invocations alternating between commit c849528"
        " and this code): at load average 19-20, before 0.44 / 0.75 / 0.65, after 1.04 / 0.95 / 1.00 (commit "
        "aa08ce0); at load average 23-25, before 0.71 / 0.60 / 0.76, after 0.89 / 0.80 / 0.85. Broker CPU per "
        "remote run: before 0.44-0.57 s vs 0.05-0.09 s local (every fetch: a reader-thread hand-off, a 1 MiB "
        "ranged read, then a second hand-off for the read_committed transaction-index walk, which re-read every "
        "later segment's index file), after 0.07-0.13 s vs 0.05-0.07 s. What is left: on this shared 2-core "
        "machine (six engineers' jobs, see the load average) throughput is set by who gets a core, and the remote"
        " path still costs 1.2-1.9x the local path's broker CPU (the reader thread's 4 MiB reads into fresh "
        "buffers, the transaction-index walk per run) plus one reader-thread wait at each consumer's first fetch "
        "(1-37 ms at this load); the absolute MB/s moves with the other jobs, the ratio of alternating runs is "
        "the result.",
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
