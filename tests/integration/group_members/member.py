"""A consumer-group member as a child process, for the group integration tests.

Consumes one topic in a group and reports, as JSON lines on stdout (each with "t" = time.time()):
  {"ev": "started"}
  {"ev": "assign" | "revoke" | "lost", "partitions": [...]}   (rebalance callbacks)
  {"ev": "assignment", "partitions": [...]}                   (the full assignment, when it changes)
  {"ev": "consumed", "positions": {partition: next offset}, "n": total}   (at most every 0.2 s)
  {"ev": "processing", "ms": N} / {"ev": "processed"}         (simulated slow processing)
  {"ev": "error", "code": str, "fatal": bool}
  {"ev": "closed"}                                            (after a clean close on SIGTERM)

On SIGTERM it closes the consumer (commit + LeaveGroup) and exits 0; on SIGUSR1 it dumps the
stacks of all its threads to stderr.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from typing import Any

stop = False
KAFKA_PYTHON_POLL_MS = 500


def emit(ev: str, **fields: Any) -> None:
    sys.stdout.write(json.dumps({"ev": ev, "t": time.time(), **fields}) + "\n")
    sys.stdout.flush()


def on_term(signum: int, frame: Any) -> None:
    global stop
    stop = True


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser()
    p.add_argument("--bootstrap", required=True)
    p.add_argument("--topic", required=True)
    p.add_argument("--group", required=True)
    p.add_argument("--name", default="member")
    p.add_argument("--client", choices=["confluent", "kafka-python"], default="confluent")
    p.add_argument("--strategy", default="range")
    p.add_argument("--session-ms", type=int, default=3000)
    p.add_argument("--heartbeat-ms", type=int, default=300)
    p.add_argument("--max-poll-ms", type=int, default=30000)
    p.add_argument("--instance-id", default=None)
    p.add_argument("--auto-commit", action="store_true")
    # simulated processing: after each of the first N non-empty batches, sleep MS without polling
    p.add_argument("--process-ms", type=int, default=0)
    p.add_argument("--process-batches", type=int, default=0)
    # burn CPU in pure Python (holding the GIL but for the interpreter's switch interval) instead
    # of sleeping while "processing"
    p.add_argument("--busy", action="store_true")
    p.add_argument("--log-level", default="WARNING", help="the client library's logging level (stderr)")
    return p.parse_args()


def process(a: argparse.Namespace) -> None:
    emit("processing", ms=a.process_ms, busy=a.busy)
    if a.busy:
        end = time.monotonic() + a.process_ms / 1000
        x = 0
        while time.monotonic() < end:
            for i in range(10000):
                x = (x * 31 + i) % 1000003
    else:
        time.sleep(a.process_ms / 1000)
    emit("processed")


def run_confluent(a: argparse.Namespace) -> None:
    from confluent_kafka import Consumer, KafkaError

    conf: dict[str, Any] = {
        "bootstrap.servers": a.bootstrap,
        "group.id": a.group,
        "client.id": a.name,
        "partition.assignment.strategy": a.strategy,
        "session.timeout.ms": a.session_ms,
        "heartbeat.interval.ms": a.heartbeat_ms,
        "max.poll.interval.ms": a.max_poll_ms,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": a.auto_commit,
        "auto.commit.interval.ms": 200,
        "enable.partition.eof": False,
    }
    if a.instance_id:
        conf["group.instance.id"] = a.instance_id
    c = Consumer(conf)

    def cb(kind: str) -> Any:
        return lambda consumer, parts: emit(kind, partitions=sorted(tp.partition for tp in parts))

    c.subscribe([a.topic], on_assign=cb("assign"), on_revoke=cb("revoke"), on_lost=cb("lost"))
    emit("started")
    last: list[int] | None = None
    positions: dict[int, int] = {}
    n = 0
    last_report = 0.0
    reported_n = -1
    batches_processed = 0
    while not stop:
        msgs = c.consume(num_messages=500, timeout=0.1)
        for m in msgs:
            err = m.error()
            if err is not None:
                # a fatal error (e.g. FENCED_INSTANCE_ID) arrives as _FATAL, not always flagged fatal()
                fatal = err.fatal() or err.code() in (KafkaError._FATAL, KafkaError._FENCED)
                emit("error", code=err.name(), fatal=fatal, text=err.str())
                if fatal:
                    c.close()
                    emit("closed")
                    return
                continue
            positions[m.partition()] = m.offset() + 1
            n += 1
        current = sorted(tp.partition for tp in c.assignment())
        if current != last:
            emit("assignment", partitions=current)
            last = current
        now = time.time()
        if n != reported_n and now - last_report > 0.2:
            emit("consumed", positions=positions, n=n)
            last_report, reported_n = now, n
        if msgs and batches_processed < a.process_batches and not stop:
            batches_processed += 1
            process(a)
    emit("consumed", positions=positions, n=n)
    c.close()
    emit("closed")


class HangWatchdog(threading.Thread):
    """kafka-python 3.0.12 can wedge itself: the caller blocks forever inside NetworkSelector.run()
    (an Event.wait() with no timeout, dpkp/kafka-python#3121), or its IO thread blocks on a lock
    and stops heartbeating while poll() waits for it. When the main loop makes no progress, or the
    IO thread does not run a probe, for `limit` seconds (outside of simulated processing), report
    "client-hang" with the stacks and exit (code 3), so a test can tell a client hang from a
    broker problem."""

    def __init__(self, consumer: Any, limit: float = 8.0) -> None:
        super().__init__(daemon=True)
        self.net = consumer._net
        self.limit = limit
        self.main = threading.main_thread().ident
        self.last = time.monotonic()
        self.io_last = time.monotonic()
        self.paused = False

    def tick(self) -> None:
        self.last = time.monotonic()

    def _probe(self) -> None:
        self.io_last = time.monotonic()

    def run(self) -> None:
        while True:
            time.sleep(0.5)
            try:
                self.net.call_soon_threadsafe(self._probe)
            except Exception:
                return  # the consumer is closed
            now = time.monotonic()
            main_stuck = not self.paused and now - self.last > self.limit
            io_stuck = now - self.io_last > self.limit
            if main_stuck or io_stuck:
                frames = sys._current_frames()
                stacks = [
                    f"thread {ident}{' (main)' if ident == self.main else ''}:\n" + "".join(traceback.format_stack(f))
                    for ident, f in frames.items()
                    if ident != threading.get_ident()
                ]
                emit(
                    "client-hang",
                    seconds=round(now - min(self.last, self.io_last), 1),
                    what="main thread" if main_stuck else "IO thread",
                    stack="\n".join(stacks)[-6000:],
                )
                os._exit(3)


def run_kafka_python(a: argparse.Namespace) -> None:
    from kafka import KafkaConsumer
    from kafka.coordinator.assignors.cooperative_sticky import CooperativeStickyAssignor
    from kafka.coordinator.assignors.range import RangePartitionAssignor
    from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
    from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

    strategies = {
        "range": RangePartitionAssignor,
        "roundrobin": RoundRobinPartitionAssignor,
        "sticky": StickyPartitionAssignor,
        "cooperative-sticky": CooperativeStickyAssignor,
    }
    c = KafkaConsumer(
        bootstrap_servers=a.bootstrap,
        group_id=a.group,
        client_id=a.name,
        partition_assignment_strategy=[strategies[a.strategy]],
        session_timeout_ms=a.session_ms,
        heartbeat_interval_ms=a.heartbeat_ms,
        max_poll_interval_ms=a.max_poll_ms,
        auto_offset_reset="earliest",
        enable_auto_commit=a.auto_commit,
        auto_commit_interval_ms=200,
    )
    # know the topic's partitions before joining: a kafka-python 3.0.12 leader that assigns while
    # it has no metadata for the topic ("No partition metadata for topic") can hang in poll()
    deadline = time.monotonic() + 10
    while not c.partitions_for_topic(a.topic) and time.monotonic() < deadline:
        time.sleep(0.05)
    c.subscribe([a.topic])
    emit("started")
    watchdog = HangWatchdog(c)
    watchdog.start()
    last: list[int] | None = None
    positions: dict[int, int] = {}
    n = 0
    last_report = 0.0
    reported_n = -1
    batches_processed = 0
    while not stop:
        watchdog.tick()
        # not a short timeout: kafka-python 3.0.12 can drop a rebalance it has already received the
        # SyncGroup response for when poll() times out in the middle of it ("timeout in
        # ensure_active_group"); the member then keeps its old partitions and stops heartbeating
        got = c.poll(timeout_ms=KAFKA_PYTHON_POLL_MS)
        for tp, recs in got.items():
            for r in recs:
                positions[tp.partition] = r.offset + 1
                n += 1
        current = sorted(tp.partition for tp in c.assignment())
        if current != last:
            emit("assignment", partitions=current)
            last = current
        now = time.time()
        if n != reported_n and now - last_report > 0.2:
            emit("consumed", positions=positions, n=n)
            last_report, reported_n = now, n
        if got and batches_processed < a.process_batches and not stop:
            batches_processed += 1
            watchdog.paused = True
            process(a)
            watchdog.paused = False
            watchdog.tick()
    emit("consumed", positions=positions, n=n)
    watchdog.tick()
    c.close()
    emit("closed")


def main() -> None:
    signal.signal(signal.SIGTERM, on_term)
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # stack dump on demand (to stderr)
    a = parse()
    logging.basicConfig(level=a.log_level.upper(), stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    if a.client == "confluent":
        run_confluent(a)
    else:
        run_kafka_python(a)


if __name__ == "__main__":
    main()
