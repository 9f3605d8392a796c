"""A confluent-kafka consumer-group member in a child process, on either group protocol, that can be
SIGKILLed: the KIP-848 differential tests (tests/integration/test_kip848_churn.py) and
`python -m bench.group_rebalance --members` run it against our broker and Apache Kafka.

Child (``python -m testsupport.group_member_proc --bootstrap ... --topic ... --group ...``): consumes
one topic and writes JSON lines to stdout, each with ``t`` = time.time():

- ``started``; ``closed`` after a clean close on SIGTERM (commit, leave);
- ``assign`` / ``revoke`` / ``lost`` with ``p`` = the partitions of the rebalance callback (incremental
  on the consumer protocol, the whole assignment on the classic eager one);
- ``assignment`` with ``p`` = the whole assignment, whenever it changes;
- ``records`` with ``r`` = [[partition, offset], ...] of each non-empty batch (``--records``);
- ``commit`` with ``ok`` and ``error`` when a commit is refused;
- ``error`` with the client's error name.

Commits are synchronous, after every batch, for the partitions the member owns at that moment only,
and in the revoke callback for the partitions it gives up (commit before revoke, as Kafka's consumer):
a member never commits a partition it no longer owns, so the group's committed offsets can only grow
unless the coordinator accepts a stale commit.

Parent: `MemberProcess` spawns it and collects the events; `ownership_intervals` and `double_owners`
turn assign/revoke events (of these members, or of Java VerifiableConsumers) into who owned what when.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------------------------------
# the child process
# --------------------------------------------------------------------------------------------------


def _emit(ev: str, **fields: Any) -> None:
    sys.stdout.write(json.dumps({"ev": ev, "t": time.time(), **fields}) + "\n")
    sys.stdout.flush()


def _child(argv: list[str]) -> None:
    from confluent_kafka import Consumer, KafkaException, TopicPartition

    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("--group", required=True)
    ap.add_argument("--name", default="member")
    ap.add_argument("--protocol", choices=["classic", "consumer"], default="consumer")
    # classic only: the consumer protocol takes these from the broker (librdkafka refuses them)
    ap.add_argument("--session-ms", type=int, default=3000)
    ap.add_argument("--heartbeat-ms", type=int, default=500)
    ap.add_argument("--strategy", default="range")
    ap.add_argument("--records", action="store_true", help="report every record's partition and offset")
    a = ap.parse_args(argv)
    conf: dict[str, Any] = {
        "bootstrap.servers": a.bootstrap,
        "group.id": a.group,
        "client.id": a.name,
        "group.protocol": a.protocol,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "enable.partition.eof": False,
    }
    if a.protocol == "classic":
        conf.update(
            {
                "session.timeout.ms": a.session_ms,
                "heartbeat.interval.ms": a.heartbeat_ms,
                "partition.assignment.strategy": a.strategy,
                "max.poll.interval.ms": 20000,
            }
        )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    c = Consumer(conf)
    positions: dict[int, int] = {}  # next offset of each partition read in its current ownership

    def commit(parts: Iterable[int]) -> None:
        offsets = [TopicPartition(a.topic, p, positions[p]) for p in sorted(parts) if p in positions]
        if not offsets:
            return
        try:
            c.commit(offsets=offsets, asynchronous=False)
        except KafkaException as e:
            _emit("commit", ok=False, error=e.args[0].name(), p=[[o.partition, o.offset] for o in offsets])

    def on_assign(consumer: Any, parts: list[Any]) -> None:
        for tp in parts:
            positions.pop(tp.partition, None)  # resumes at the group's offset, not where it once was
        _emit("assign", p=sorted(tp.partition for tp in parts))

    def on_revoke(consumer: Any, parts: list[Any]) -> None:
        _emit("revoke", p=sorted(tp.partition for tp in parts))
        commit(tp.partition for tp in parts)
        for tp in parts:
            positions.pop(tp.partition, None)

    def on_lost(consumer: Any, parts: list[Any]) -> None:
        _emit("lost", p=sorted(tp.partition for tp in parts))
        for tp in parts:
            positions.pop(tp.partition, None)

    c.subscribe([a.topic], on_assign=on_assign, on_revoke=on_revoke, on_lost=on_lost)
    _emit("started")
    last: list[int] | None = None
    while not stop.is_set():
        records = []
        for m in c.consume(num_messages=500, timeout=0.1):
            err = m.error()
            if err is not None:
                _emit("error", error=err.name(), fatal=err.fatal())
                continue
            p, o = m.partition(), m.offset()
            assert p is not None and o is not None  # a delivered record has both
            records.append([p, o])
            positions[p] = o + 1
        owned = sorted(tp.partition for tp in c.assignment())
        if owned != last:
            _emit("assignment", p=owned)
            last = owned
        if records:
            if a.records:
                _emit("records", r=records)
            commit(set(owned) & {p for p, _ in records})
    c.close()
    _emit("closed")


# --------------------------------------------------------------------------------------------------
# the parent side
# --------------------------------------------------------------------------------------------------


class MemberProcess:
    """The child above; its events are collected by a reader thread. `ended` is when it stopped owning
    anything for sure: its SIGKILL, or the end of its output."""

    def __init__(self, name: str, bootstrap: str, topic: str, group: str, *args: str) -> None:
        self.name = name
        self.events: list[dict[str, Any]] = []
        self.ended: float | None = None
        self._lock = threading.Lock()
        env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), PYTHONUNBUFFERED="1")
        argv = [sys.executable, "-m", "testsupport.group_member_proc", "--bootstrap", bootstrap, "--topic", topic]
        self.proc = subprocess.Popen(
            [*argv, "--group", group, "--name", name, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            cwd=REPO_ROOT,
            env=env,
        )
        self._reader = threading.Thread(target=self._read, name=f"member-{name}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            with self._lock:
                self.events.append(ev)
        with self._lock:
            if self.ended is None:
                self.ended = time.time()

    def of(self, *kinds: str) -> list[dict[str, Any]]:
        with self._lock:
            return [e for e in self.events if e["ev"] in kinds]

    def owned(self) -> set[int]:
        """What the member owns now, by its last `assignment` report (empty once it ended)."""
        if self.ended is not None:
            return set()
        last = self.of("assignment")
        return set(last[-1]["p"]) if last else set()

    def records(self) -> list[tuple[int, int]]:
        return [(p, o) for e in self.of("records") for p, o in e["r"]]

    def callbacks(self) -> list[tuple[float, str, list[int]]]:
        """(time, "assign" | "revoke", partitions), a lost partition counted as revoked."""
        return [
            (e["t"], "assign" if e["ev"] == "assign" else "revoke", e["p"]) for e in self.of("assign", "revoke", "lost")
        ]

    def kill9(self) -> float:
        t = time.time()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._reader.join(10)
        with self._lock:
            self.ended = t
        return t

    def terminate(self, timeout: float = 30.0) -> None:
        """SIGTERM: the member commits, leaves the group and exits."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self._reader.join(10)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._reader.join(10)


def ownership_intervals(
    callbacks: Iterable[tuple[float, str, Iterable[int]]], ended: float | None
) -> list[tuple[int, float, float]]:
    """(partition, from, to) of each stretch a member owned a partition, from its assign/revoke
    callbacks; what it still owned when it ended (killed, exited) ends then, or never."""
    start: dict[int, float] = {}
    out: list[tuple[int, float, float]] = []
    for t, kind, parts in sorted(callbacks, key=lambda c: c[0]):
        for p in parts:
            if kind == "assign":
                start.setdefault(p, t)
            elif p in start:
                out.append((p, start.pop(p), t))
    end = float("inf") if ended is None else ended
    out.extend((p, t0, end) for p, t0 in start.items())
    return out


def double_owners(
    intervals: dict[str, list[tuple[int, float, float]]], slack_s: float = 0.005
) -> list[tuple[int, str, str, float]]:
    """(partition, member, member, overlap seconds) for every two members that owned a partition at the
    same time (longer than `slack_s`: the clocks of two processes on one host, Java's in ms)."""
    clashes = []
    names = sorted(intervals)
    for i, m1 in enumerate(names):
        for m2 in names[i + 1 :]:
            for p1, a1, b1 in intervals[m1]:
                for p2, a2, b2 in intervals[m2]:
                    overlap = min(b1, b2) - max(a1, a2)
                    if p1 == p2 and overlap > slack_s:
                        clashes.append((p1, m1, m2, overlap))
    return clashes


if __name__ == "__main__":
    _child(sys.argv[1:])
