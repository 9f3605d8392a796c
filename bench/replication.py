"""Replication: acks=all vs acks=1 produce throughput on 3 brokers with RF 3, and failover time.

    python -m bench.replication [--repeat 3] [--trials 7] [--session-timeouts-ms 1500,3000] [--out bench/RESULTS.md]

- Throughput: a confluent-kafka producer writes N records (100 B and 1 KiB values) to a fresh
  1-partition topic with replication.factor=3 and min.insync.replicas=2, once with acks=all and once
  with acks=1; records/s and MB/s from the first produce() to the end of flush(); median of --repeat.
- Failover: an acks=all idempotent producer sends a probe record every 5 ms; the partition's leader
  is killed with SIGKILL; the time from the kill to the first acknowledgement of a probe sent after
  the kill (necessarily written by the new leader); the old leader is restarted and the ISR refilled
  before the next trial. The goal is below 2 x broker.session.timeout.ms (the controller fences a
  silent broker after one session timeout, then elects from the ISR). Median of --trials.

Rewrites only its section of RESULTS.md (between the BEGIN/END replication markers).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from bench import report
from bench.report import load_average, machine_info
from broker_embedded import EmbeddedCluster

SECTION_BEGIN = "<!-- BEGIN replication -->"
SECTION_END = "<!-- END replication -->"
SIZES = {100: 100_000, 1024: 50_000}
PRODUCER = {
    "linger.ms": 5,
    "batch.size": 1_000_000,
    "compression.type": "none",
    "enable.idempotence": False,
    "queue.buffering.max.messages": 1_000_000,
    "delivery.report.only.error": True,
}


def _create(bootstrap: str, name: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, 1, 3, config={"min.insync.replicas": "2"})])[name].result(30)


def _wait_full_isr(c: EmbeddedCluster, topic: str, timeout: float = 60.0) -> None:
    c.wait_for(lambda: c.leader(topic, 0) >= 0 and len(c.isr(topic, 0)) == 3, timeout=timeout, what=f"{topic} full ISR")


def produce_throughput(c: EmbeddedCluster, acks: str, size: int, count: int, run: int) -> dict[str, float]:
    topic = f"tp-{acks}-{size}-{run}"
    _create(c.bootstrap_servers, topic)
    _wait_full_isr(c, topic)
    errors: list[str] = []
    p = Producer({"bootstrap.servers": c.bootstrap_servers, "acks": acks, **PRODUCER})
    value = b"x" * size
    # warm the connection and metadata before timing
    p.produce(topic, value=value)
    p.flush(30)

    def on_error(err: Any, _msg: Any) -> None:
        if err is not None:
            errors.append(str(err))

    t0 = time.perf_counter()
    for _ in range(count):
        while True:
            try:
                p.produce(topic, value=value, on_delivery=on_error)
                break
            except BufferError:
                p.poll(0.01)
    left = p.flush(120)
    elapsed = time.perf_counter() - t0
    if left or errors:
        raise RuntimeError(f"{left} records unflushed, errors: {errors[:3]}")
    return {"records_per_s": count / elapsed, "mb_per_s": count * size / elapsed / 1e6, "seconds": elapsed}


def failover_trial(c: EmbeddedCluster, topic: str) -> tuple[float, int]:
    """Seconds from SIGKILL of the leader to the first ack of a record sent after it, and the old leader."""
    _wait_full_isr(c, topic)
    acked_after_kill = threading.Event()
    killed_at: list[float] = []
    first_ack: list[float] = []
    p = Producer(
        {
            "bootstrap.servers": c.bootstrap_servers,
            "acks": "all",
            "enable.idempotence": True,
            "linger.ms": 0,
            "message.timeout.ms": 60000,
            "reconnect.backoff.ms": 20,
            "reconnect.backoff.max.ms": 100,
            "retry.backoff.ms": 20,
            "retry.backoff.max.ms": 100,
        }
    )

    def on_delivery(err: Any, msg: Any) -> None:
        sent_at = float(msg.value())
        if err is None and killed_at and sent_at > killed_at[0] and not first_ack:
            first_ack.append(time.monotonic())
            acked_after_kill.set()

    for _ in range(20):  # steady state: a few acks before the kill
        p.produce(topic, value=repr(time.monotonic()).encode(), on_delivery=on_delivery)
        p.flush(10)
    leader = c.leader(topic, 0)
    stop = threading.Event()

    def probe() -> None:
        while not stop.is_set():
            p.produce(topic, value=repr(time.monotonic()).encode(), on_delivery=on_delivery)
            p.poll(0.005)

    t = threading.Thread(target=probe, daemon=True)
    t.start()
    time.sleep(0.1)
    killed_at.append(time.monotonic())
    c.kill(leader)
    ok = acked_after_kill.wait(60)
    stop.set()
    t.join(10)
    p.flush(30)
    if not ok:
        raise RuntimeError("no acknowledgement within 60 s of the leader's death")
    c.start(leader)
    return first_ack[0] - killed_at[0], leader


def _configs(session_timeout_ms: int) -> dict[str, Any]:
    return {
        "broker.session.timeout.ms": session_timeout_ms,
        "broker.heartbeat.interval.ms": max(50, session_timeout_ms // 10),
        "replica.fetch.backoff.ms": 100,
        "offsets.topic.num.partitions": 4,
    }


def measure(repeat: int, trials: int, session_timeouts_ms: list[int]) -> dict[str, Any]:
    configs = _configs(session_timeouts_ms[0])
    out: dict[str, Any] = {"throughput": {}, "failover": {}, "configs": configs}
    with EmbeddedCluster(brokers=3, **configs) as c:
        for size, count in SIZES.items():
            for acks in ("all", "1"):
                runs = [produce_throughput(c, acks, size, count, r) for r in range(repeat)]
                out["throughput"][(size, acks)] = {
                    "records_per_s": statistics.median(r["records_per_s"] for r in runs),
                    "mb_per_s": statistics.median(r["mb_per_s"] for r in runs),
                    "runs": [r["records_per_s"] for r in runs],
                    "count": count,
                }
                print(f"{size} B acks={acks}: {out['throughput'][(size, acks)]}", file=sys.stderr)
    for timeout_ms in session_timeouts_ms:
        with EmbeddedCluster(brokers=3, **_configs(timeout_ms)) as c:
            topic = "failover"
            _create(c.bootstrap_servers, topic)
            times = []
            for _ in range(trials):
                seconds, _leader = failover_trial(c, topic)
                times.append(seconds)
                print(f"failover (session timeout {timeout_ms} ms): {seconds:.3f}s", file=sys.stderr)
            out["failover"][timeout_ms] = {"median": statistics.median(times), "runs": times}
    return out


def render(results: dict[str, Any], argv: list[str], load_start: str) -> str:
    m = machine_info()
    lines = [
        SECTION_BEGIN,
        "## Replication (`python -m bench.replication`)",
        "",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with `python -m bench.replication "
        f"{' '.join(argv)}`.",
        "",
        f"- **Machine:** {m['cpu_model']}, {m['usable_cores']} usable cores, {m['memory']}; {m['os']}; "
        f"Python {m['python']}; confluent-kafka {m['confluent_kafka']} / librdkafka {m['librdkafka']}; "
        f"pykafka at commit {m['repo_commit']}",
        f"- **Load average (1/5/15 min):** {load_start} at start, {load_average()} at end (other helpers were "
        "running tests on the same 2 cores: numbers are noisy)",
        "- **Cluster:** `EmbeddedCluster(brokers=3)`: a controller and 3 brokers, each its own process on "
        "127.0.0.1; topics with 1 partition, replication.factor=3, min.insync.replicas=2; "
        + ", ".join(f"`{k}={v}`" for k, v in results["configs"].items()),
        "- **Producer (throughput):** "
        + ", ".join(f"`{k}={v}`" for k, v in PRODUCER.items())
        + "; time from the first produce() to the end of flush(); median of the runs",
        "",
        "| value size | records | acks=all records/s | acks=all MB/s | acks=1 records/s | acks=1 MB/s | all/1 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for size in SIZES:
        a = results["throughput"][(size, "all")]
        o = results["throughput"][(size, "1")]
        label = f"{size // 1024} KiB" if size >= 1024 else f"{size} B"
        lines.append(
            f"| {label} | {a['count']:,} | {a['records_per_s']:,.0f} | {a['mb_per_s']:.1f} | "
            f"{o['records_per_s']:,.0f} | {o['mb_per_s']:.1f} | {a['records_per_s'] / o['records_per_s']:.2f} |"
        )
    lines += [
        "",
        "**Failover:** leader SIGKILL → first acks=all acknowledgement of a record sent after the kill "
        "(a fresh 3-broker cluster per session timeout; `broker.heartbeat.interval.ms` = timeout / 10):",
        "",
        "| broker.session.timeout.ms | median s | runs s | goal (< 2 × timeout) |",
        "|---:|---:|---|---|",
    ]
    for st, f in results["failover"].items():
        goal = 2 * st / 1000
        lines.append(
            f"| {st} | {f['median']:.2f} | {', '.join(f'{r:.2f}' for r in f['runs'])} | "
            f"< {goal:.1f} s: **{'met' if f['median'] < goal else 'NOT met'}** |"
        )
    lines += [
        "",
        "Where the time goes (measured with librdkafka's metadata debug log): the controller fences the silent "
        "broker one session timeout after its last heartbeat and elects from the ISR at once; the producer then "
        "learns the new leader on its next refresh of unavailable topics, which librdkafka runs once per second, "
        "drains its requests to the dead broker and, after another refresh, sends to the new leader. So failover "
        "≈ session timeout + 1-2 s of client-side refreshes, whatever the broker does.",
        SECTION_END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3, help="throughput runs per (size, acks)")
    p.add_argument("--trials", type=int, default=7, help="failover trials")
    p.add_argument(
        "--session-timeouts-ms",
        default="1500,3000",
        help="broker.session.timeout.ms values for the failover trials (the first is used for throughput)",
    )
    p.add_argument("--out", type=Path, default=None, help="RESULTS.md to update")
    args = p.parse_args(argv)
    load_start = load_average()
    results = measure(args.repeat, args.trials, [int(x) for x in args.session_timeouts_ms.split(",")])
    section = render(results, argv, load_start)
    print(section)
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
