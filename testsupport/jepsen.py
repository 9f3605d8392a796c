"""A small Jepsen-style workload and checker for a Kafka-compatible cluster (issue 32).

- `Writers`: acks=all idempotent confluent-kafka producers, each writing unique values (`w<i>-<seq>`) to one
  topic, recording every acknowledged (partition, offset, value) and every error;
- `TxnWriter`: a transactional producer writing transactions of unique values over several partitions,
  aborting some on purpose, recording each transaction's values and outcome (committed, aborted, or unknown
  when the producer failed before knowing it);
- `Reader`: a consumer assigned to every partition from offset 0 for the whole run, recording what it saw
  (`read_committed` for the transactional topic);
- `check(...)`: after the run, against the replicas' logs read from their directories (brokers stopped):
  lost acknowledged writes, duplicates, acknowledged offsets that changed, replicas that differ, reads of
  data the final log no longer holds, and a reader that went backwards. `Report.ok` is all of them empty.
- `check_transactions(...)`: what a read_committed reader saw of the transactions: aborted reads, partial
  transactions (some values of one transaction visible, not all), committed transactions lost, values seen
  twice, values no transaction wrote. `TxnReport.ok` is all of them empty.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition

from broker_embedded.log.log import Log
from kafka_wire.records import decode_batches, iter_batches

Record = tuple[int, int | None, bytes]  # partition, offset (None: acked without one), value


class Writers:
    """`n` producer threads, each its own idempotent acks=all producer with unique values."""

    def __init__(self, bootstrap: str, topic: str, n: int = 2, extra: dict[str, Any] | None = None) -> None:
        self.topic = topic
        self.acked: list[Record] = []
        self.errors: list[str] = []
        self.sent = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        conf = {
            "bootstrap.servers": bootstrap,
            "acks": "all",
            "enable.idempotence": True,
            "linger.ms": 5,
            "message.timeout.ms": 60000,
            "reconnect.backoff.ms": 20,
            "reconnect.backoff.max.ms": 200,
            "retry.backoff.ms": 20,
            "retry.backoff.max.ms": 200,
            "topic.metadata.refresh.interval.ms": 1000,
            **(extra or {}),
        }
        self.producers = [Producer(conf) for _ in range(n)]
        self.threads = [
            threading.Thread(target=self._run, args=(i,), name=f"jepsen-writer-{i}", daemon=True) for i in range(n)
        ]

    def _on_delivery(self, err: Any, msg: Any) -> None:
        with self._lock:
            if err is None:
                self.acked.append((msg.partition(), msg.offset(), msg.value()))
            else:
                self.errors.append(str(err))

    def _run(self, i: int) -> None:
        p, seq = self.producers[i], 0
        while not self._stop.is_set():
            try:
                p.produce(self.topic, value=b"w%d-%09d" % (i, seq), on_delivery=self._on_delivery)
            except BufferError:
                p.poll(0.05)
                continue
            seq += 1
            with self._lock:
                self.sent += 1
            p.poll(0)
            if seq % 20 == 0:
                time.sleep(0.01)  # a bounded, steady stream on a shared 2-core machine

    def start(self) -> Writers:
        for t in self.threads:
            t.start()
        return self

    def count(self) -> int:
        with self._lock:
            return len(self.acked)

    def wait_for_acks(self, n: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.count() < n:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"only {self.count()} of {n} writes acknowledged in {timeout}s: {self.errors[-3:]}"
                )
            time.sleep(0.02)

    def stop(self, flush_timeout: float = 30.0) -> None:
        self._stop.set()
        for t in self.threads:
            t.join(10)
        for p in self.producers:
            p.flush(flush_timeout)


class Reader:
    """A consumer of every partition from offset 0 for the whole run (no group: it only observes)."""

    def __init__(self, bootstrap: str, topic: str, partitions: int, isolation: str = "read_uncommitted") -> None:
        self.seen: list[Record] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self.tps = [TopicPartition(topic, p) for p in range(partitions)]
        self.positions: dict[int, int] = {}  # partition -> the consumer's position, as the reader thread saw it
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": "jepsen-reader",
                "isolation.level": isolation,
                "enable.auto.commit": False,
                "auto.offset.reset": "error",  # an offset that disappears must not be papered over
                "topic.metadata.refresh.interval.ms": 1000,
                "reconnect.backoff.ms": 20,
                "reconnect.backoff.max.ms": 200,
            }
        )
        self.consumer.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
        self.thread = threading.Thread(target=self._run, name="jepsen-reader", daemon=True)

    def _run(self) -> None:
        last = 0.0
        while not self._stop.is_set():
            m = self.consumer.poll(0.2)
            if time.monotonic() - last > 0.1:  # the consumer is used from this thread only
                self.positions = {tp.partition: tp.offset for tp in self.consumer.position(self.tps)}
                last = time.monotonic()
            if m is None:
                continue
            err = m.error()
            if err is not None:
                if err.code() != KafkaError._PARTITION_EOF:
                    self.errors.append(str(err))
                continue
            # a delivered message (no error) has its partition, offset and value (the scenario writes no nulls)
            self.seen.append((m.partition(), m.offset(), m.value()))  # type: ignore[arg-type]

    def start(self) -> Reader:
        self.thread.start()
        return self

    def drain_until(self, end_offsets: dict[int, int], timeout: float) -> None:
        """Wait until the reader has reached each partition's end offset (its position: a transaction's
        commit or abort marker ends a partition without a record to read)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            top: dict[int, int] = {}
            for p, o, _ in list(self.seen):
                top[p] = max(top.get(p, -1), -1 if o is None else o)
            positions = self.positions
            if all(max(top.get(p, -1) + 1, positions.get(p, -1)) >= end for p, end in end_offsets.items() if end > 0):
                return
            time.sleep(0.05)
        raise AssertionError(f"the reader did not reach {end_offsets} in {timeout}s")

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(10)
        self.consumer.close()


Txn = tuple[tuple[bytes, ...], str]  # the values, and "committed" / "aborted" / "unknown"


class TxnWriter:
    """One thread with a transactional producer: transactions of `size` unique values (`t<i>-<txn>-<k>`)
    spread over the partitions, every `abort_every`-th aborted on purpose. A commit or abort that fails
    with a retriable error is retried; one that needs an abort is aborted; anything else (a fatal error, a
    timeout that does not resolve) leaves the outcome unknown and a new producer with the same
    transactional.id takes over (its InitProducerId completes or aborts the old transaction)."""

    def __init__(
        self,
        bootstrap: str,
        topic: str,
        partitions: int,
        index: int = 0,
        size: int = 4,
        abort_every: int = 4,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.topic, self.partitions, self.index, self.size, self.abort_every = (
            topic,
            partitions,
            index,
            size,
            abort_every,
        )
        self.txns: list[Txn] = []
        self.errors: list[str] = []  # every error seen, outcome included (not a failure by itself)
        self.producers_made = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.conf = {
            "bootstrap.servers": bootstrap,
            "transactional.id": f"jepsen-txn-{index}",
            "transaction.timeout.ms": 10000,
            "linger.ms": 2,
            "message.timeout.ms": 10000,
            "reconnect.backoff.ms": 20,
            "reconnect.backoff.max.ms": 200,
            "retry.backoff.ms": 20,
            "retry.backoff.max.ms": 200,
            "topic.metadata.refresh.interval.ms": 1000,
            **(extra or {}),
        }
        self.thread = threading.Thread(target=self._run, name=f"jepsen-txn-{index}", daemon=True)

    def _producer(self) -> Producer | None:
        """A new producer, initialized (it fences the one before); at least one try even when stopping, so
        that a transaction left open by a failed producer is completed or aborted now."""
        for attempt in range(1_000_000):
            if attempt and self._stop.is_set():
                break
            p = Producer(self.conf)
            self.producers_made += 1
            try:
                p.init_transactions(20)
                return p
            except KafkaException as e:
                self.errors.append(f"init: {e}")
        return None

    def _finish(self, p: Producer, commit: bool) -> str:
        """Commit or abort the open transaction: its outcome (retrying what may be retried for 20 s)."""
        deadline = time.monotonic() + 20
        while True:
            try:
                (p.commit_transaction if commit else p.abort_transaction)(10)
                return "committed" if commit else "aborted"
            except KafkaException as e:
                err = e.args[0]
                self.errors.append(f"{'commit' if commit else 'abort'}: {err}")
                if err.txn_requires_abort() and commit:
                    commit = False  # the transaction cannot commit: abort it, and it is known aborted
                    continue
                if not err.retriable() or time.monotonic() > deadline:
                    return "unknown"

    def _run(self) -> None:
        p, txn = self._producer(), 0
        while p is not None and not self._stop.is_set():
            values = tuple(b"t%d-%06d-%d" % (self.index, txn, k) for k in range(self.size))
            commit = txn % self.abort_every != self.abort_every - 1
            try:
                p.begin_transaction()
                for k, v in enumerate(values):
                    p.produce(self.topic, value=v, partition=k % self.partitions)
                if not commit:
                    # in the log before the abort (an abort purges what is still queued): a read_committed
                    # reader must skip them, which is what an aborted read would break
                    p.flush(10)
                outcome = self._finish(p, commit)
            except (KafkaException, BufferError) as e:
                self.errors.append(f"produce: {e}")
                err = e.args[0] if isinstance(e, KafkaException) else None
                outcome = self._finish(p, False) if err is not None and err.txn_requires_abort() else "unknown"
            with self._lock:
                self.txns.append((values, outcome))
            txn += 1
            if outcome == "unknown":
                p = self._producer()  # fences the failed one; the open transaction completes or aborts
            time.sleep(0.005)

    def start(self) -> TxnWriter:
        self.thread.start()
        return self

    def count(self, outcome: str = "committed") -> int:
        with self._lock:
            return sum(1 for _, o in self.txns if o == outcome)

    def wait_for_commits(self, n: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.count() < n:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"only {self.count()} of {n} transactions committed in {timeout}s: {self.errors[-3:]}"
                )
            time.sleep(0.02)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(60)


@dataclass
class TxnReport:
    committed: int
    aborted: int
    unknown: int
    aborted_reads: list[bytes] = field(default_factory=list)  # a value of an aborted transaction was read
    partial: list[tuple[bytes, ...]] = field(default_factory=list)  # some of a transaction's values read
    lost: list[tuple[bytes, ...]] = field(default_factory=list)  # a committed transaction, nothing read
    duplicates: list[bytes] = field(default_factory=list)  # a value read more than once
    unexpected: list[bytes] = field(default_factory=list)  # a value no transaction wrote

    @property
    def ok(self) -> bool:
        return not (self.aborted_reads or self.partial or self.lost or self.duplicates or self.unexpected)

    def summary(self) -> str:
        return (
            f"{self.committed} committed, {self.aborted} aborted, {self.unknown} unknown transactions: "
            f"{len(self.aborted_reads)} aborted reads, {len(self.partial)} partial, {len(self.lost)} lost, "
            f"{len(self.duplicates)} read twice, {len(self.unexpected)} unexpected"
        )


def check_transactions(txns: Sequence[Txn], seen: Sequence[Record]) -> TxnReport:
    """`seen`: everything a read_committed reader read from offset 0 to the end of every partition."""
    counts = Counter(v for _, _, v in seen)
    outcomes = Counter(o for _, o in txns)
    report = TxnReport(outcomes["committed"], outcomes["aborted"], outcomes["unknown"])
    written: set[bytes] = set()
    for values, outcome in txns:
        written.update(values)
        read = [v for v in values if counts[v]]
        if outcome == "aborted":
            report.aborted_reads += read
        elif read and len(read) < len(values):  # committed or unknown: all or nothing
            report.partial.append(values)
        elif not read and outcome == "committed":
            report.lost.append(values)
    report.duplicates = sorted(v for v, n in counts.items() if n > 1)
    report.unexpected = sorted(v for v in counts if v not in written)
    return report


def read_replica(partition_dir: Path) -> list[bytes]:
    """Every record batch of one replica's log, as bytes (the broker is stopped)."""
    log = Log(partition_dir)
    try:
        out: list[bytes] = []
        offset = log.log_start_offset
        while offset < log.log_end_offset:
            raw = bytes(log.read(offset, 1 << 20, max_offset=None, min_one_batch=True).records or b"")
            if not raw:
                break
            for pos, header in iter_batches(raw, allow_partial_tail=True):
                out.append(raw[pos : pos + header.size])
                offset = header.next_offset
        return out
    finally:
        log.close()


@dataclass
class Report:
    acked: int
    records: int
    lost: list[Record] = field(default_factory=list)  # acknowledged, not in the final log
    duplicates: list[bytes] = field(default_factory=list)  # a value in the final log more than once
    moved: list[tuple[Record, int]] = field(default_factory=list)  # acked at one offset, found at another
    divergent: list[str] = field(default_factory=list)  # replicas whose logs differ from the reference
    lost_reads: list[Record] = field(default_factory=list)  # read, then not at that offset in the final log
    backwards: list[tuple[int, int, int]] = field(default_factory=list)  # partition, offset, the one before

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicates or self.moved or self.divergent or self.lost_reads or self.backwards)

    def summary(self) -> str:
        return (
            f"{self.acked} acked, {self.records} in the log: {len(self.lost)} lost, {len(self.duplicates)} "
            f"duplicated, {len(self.moved)} moved, {len(self.divergent)} divergent replicas, "
            f"{len(self.lost_reads)} lost reads, {len(self.backwards)} backward reads"
        )


def check(acked: list[Record], seen: list[Record], replicas: dict[int, dict[int, list[bytes]]]) -> Report:
    """`replicas`: partition -> broker id -> that replica's batches. The first broker listed is the reference."""
    final: dict[int, dict[int, bytes]] = {}  # partition -> offset -> value, from the reference replica
    report = Report(acked=len(acked), records=0)
    for partition, by_broker in sorted(replicas.items()):
        ref_broker, reference = next(iter(by_broker.items()))
        for broker, batches in by_broker.items():
            if batches != reference:
                report.divergent.append(
                    f"{partition}: broker {broker} ({len(batches)} batches) differs from broker {ref_broker} "
                    f"({len(reference)})"
                )
        # the scenario writes no null values
        final[partition] = {r.offset: r.value for b in reference for r in decode_batches(b)}  # type: ignore[misc]
        report.records += len(final[partition])
    counts = Counter(v for offsets in final.values() for v in offsets.values())
    report.duplicates = sorted(v for v, n in counts.items() if n > 1)
    where = {(p, v): o for p, offsets in final.items() for o, v in offsets.items()}
    for rec in acked:
        p, offset, value = rec
        found = where.get((p, value))
        if found is None:
            report.lost.append(rec)
        elif offset is not None and found != offset:
            report.moved.append((rec, found))
    last: dict[int, int] = {}
    for rec in seen:
        p, offset, value = rec
        if offset is None:
            continue
        if final.get(p, {}).get(offset) != value:
            report.lost_reads.append(rec)
        if p in last and offset <= last[p]:
            report.backwards.append((p, offset, last[p]))
        last[p] = offset
    return report


__all__ = [
    "Reader",
    "Report",
    "Txn",
    "TxnReport",
    "TxnWriter",
    "Writers",
    "check",
    "check_transactions",
    "read_replica",
]
