"""A seeded Jepsen-style run against a Raft-mode cluster whose controllers run on their own test hosts
(issue 32), shared by `tests/integration/test_raft_jepsen.py` (a few seeds, CI) and `python -m bench.raft_jepsen`
(many seeds, longer faults).

One cluster: 3 controllers (`quorum="raft"`) and 3 brokers, each in its own network namespace (a test host:
testsupport/netns.py; the test's clients stay in the root namespace, which reaches every host);
an idempotent acks=all topic with two writers and a reader, and a transactional topic with a transactional
writer (some transactions aborted on purpose) and a read_committed reader. For each seed a `random.Random(seed)`
draws `faults_per_seed` faults from `FAULTS`; each one is applied for `fault_s` seconds, then undone, then the run
waits until writes and commits go on again (each fault's recovery is bounded: a run that does not recover
fails). At the end every process runs again, the replicas catch up, the readers drain, the brokers are killed
and the checker reads their logs (testsupport/jepsen.py). A fault that touches controllers only (`CONTROLLER_ONLY`)
must fence no broker: every broker still reaches a majority of the controllers (issue 32's first complaint).

The faults (Jepsen's nemeses; the active controller is looked up when the fault starts):
- `isolate-leader` / `isolate-follower`: a controller's link down (no packet to or from anyone);
- `leader-alone`: the active controller cut from the other two controllers only (it still reaches the brokers,
  which still reach it: check-quorum must make it step down, and the brokers must follow the new leader);
- `bridge`: the active controller cut from one follower only; the other follower reaches both (the leader keeps
  a majority; the cut-off follower's pre-votes must not depose it);
- `pause-controller` / `kill-controller`: SIGSTOP / SIGKILL of the active controller (SIGCONT / restart after);
- `pause-broker` / `kill-broker`: SIGSTOP / SIGKILL of a broker drawn from the seed (SIGCONT / restart after);
- `isolate-broker`: a broker's link down (the clients lose it too);
- `minority`: the active controller and one broker cut from the other two controllers and two brokers (a
  majority/minority partition across both kinds of node; the clients still reach every node);
- `brokers-bridge`: two brokers cut from each other only (replication between them stops; both still reach
  the third broker, the controllers and the clients).
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded.cluster import ControllerHost, EmbeddedCluster
from testsupport import netns
from testsupport.jepsen import Reader, Report, TxnReport, TxnWriter, Writers, check, check_transactions, read_replica

FAULTS = (
    "isolate-leader",
    "isolate-follower",
    "leader-alone",
    "bridge",
    "pause-controller",
    "kill-controller",
    "pause-broker",
    "kill-broker",
    "isolate-broker",
    "minority",
    "brokers-bridge",
)
# faults that touch controllers only: every broker still reaches a majority of them, so none may be fenced
CONTROLLER_ONLY = {
    "isolate-leader",
    "isolate-follower",
    "leader-alone",
    "bridge",
    "pause-controller",
    "kill-controller",
}
TOPIC, TXN_TOPIC, PARTITIONS = "jepsen", "jepsen-txn", 2
# short liveness timeouts (cluster_util.FAST's) and Kafka's controller.quorum.* defaults / 5
CONFIGS: dict[str, Any] = {
    "broker.session.timeout.ms": 1500,
    "broker.heartbeat.interval.ms": 150,
    "replica.lag.time.max.ms": 3000,
    "replica.fetch.backoff.ms": 100,
    "offsets.topic.num.partitions": 4,
    "transaction.state.log.num.partitions": 4,
    "min.insync.replicas": 2,
    "default.replication.factor": 3,
    "controller.quorum.election.timeout.ms": 200,
    "controller.quorum.fetch.timeout.ms": 400,
    "controller.quorum.request.timeout.ms": 400,
}


@dataclass
class Result:
    history: list[str] = field(default_factory=list)  # "seed 3: kill-broker 2, 1.5 s, recovered in 2.1 s"
    report: Report | None = None  # the idempotent topic
    txn_log: Report | None = None  # the transactional topic's replicas (divergence, lost reads)
    txns: TxnReport | None = None
    fenced: list[str] = field(default_factory=list)  # a broker fenced during a controller-only fault
    writer_errors: list[str] = field(default_factory=list)
    reader_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return bool(
            self.report and self.report.ok and self.txn_log and self.txn_log.ok and self.txns and self.txns.ok
        ) and not (self.writer_errors or self.reader_errors or self.fenced)

    def summary(self) -> str:
        parts = [self.report.summary() if self.report else "no report"]
        parts.append(self.txns.summary() if self.txns else "no transaction report")
        if self.txn_log is not None and not self.txn_log.ok:
            parts.append("transactional topic: " + self.txn_log.summary())
        parts += [f"brokers fenced by controller-only faults: {self.fenced}"] * bool(self.fenced)
        parts += [f"writer errors: {self.writer_errors[:3]}"] * bool(self.writer_errors)
        parts += [f"reader errors: {self.reader_errors[:3]}"] * bool(self.reader_errors)
        return "; ".join(parts)


class Nemesis:
    """Applies and undoes one fault at a time on the cluster and its test hosts."""

    def __init__(self, c: EmbeddedCluster, hosts: netns.TestHosts) -> None:
        self.c, self.hosts = c, hosts
        self._undo: list[Callable[[], object]] = []

    def _active(self) -> int:
        found = self.c.wait_for(
            lambda: (
                (self.c.active_controller(timeout=1.0),) if self.c.active_controller(timeout=1.0) is not None else None
            ),
            timeout=30,
            what="an active controller before the next fault",
        )
        return int(found[0])

    def apply(self, fault: str, rng: random.Random) -> str:
        """Start `fault`; returns what it hit."""
        c, hosts = self.c, self.hosts
        if fault.endswith("-broker"):
            b = rng.choice(c.broker_ids)
            if fault == "kill-broker":
                c.kill(b)
                self._undo.append(lambda: c.start(b))
            elif fault == "isolate-broker":
                hosts.isolate(f"b{b}")
                self._undo.append(lambda: hosts.heal(f"b{b}"))
            else:
                os.kill(c.pid(b), signal.SIGSTOP)
                self._undo.append(lambda: os.kill(c.pid(b), signal.SIGCONT))
            return f"broker {b}"
        if fault == "brokers-bridge":
            x, y = rng.sample(c.broker_ids, 2)
            hosts.cut(f"b{x}", f"b{y}")
            self._undo.append(hosts.heal)
            return f"broker {x} x {y}"
        leader = self._active()
        followers = [i for i in c.controller_ids if i != leader]
        rng.shuffle(followers)
        if fault == "isolate-leader" or fault == "isolate-follower":
            i = leader if fault == "isolate-leader" else followers[0]
            hosts.isolate(f"c{i}")
            self._undo.append(lambda: hosts.heal(f"c{i}"))
            return f"controller {i}"
        if fault == "leader-alone":
            hosts.partition([f"c{leader}"], [f"c{f}" for f in followers])
            self._undo.append(hosts.heal)
            return f"controller {leader} | {followers}"
        if fault == "minority":
            b = rng.choice(c.broker_ids)
            others = [f"c{f}" for f in followers] + [f"b{x}" for x in c.broker_ids if x != b]
            hosts.partition([f"c{leader}", f"b{b}"], others)
            self._undo.append(hosts.heal)
            return f"controller {leader} + broker {b} | the rest"
        if fault == "bridge":
            hosts.cut(f"c{leader}", f"c{followers[0]}")
            self._undo.append(hosts.heal)
            return f"controller {leader} x {followers[0]}, bridge {followers[1]}"
        pid = c.controller_pid(leader)
        if fault == "pause-controller":
            os.kill(pid, signal.SIGSTOP)
            self._undo.append(lambda: os.kill(pid, signal.SIGCONT))
        elif fault == "kill-controller":
            c.kill_controller(leader)
            self._undo.append(lambda: c.start_controller(leader))
        else:
            raise ValueError(f"unknown fault {fault!r}; the faults are {FAULTS}")
        return f"controller {leader}"

    def undo(self) -> None:
        while self._undo:
            self._undo.pop()()


def _create_topics(bootstrap: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    fs = admin.create_topics([NewTopic(t, PARTITIONS, 3) for t in (TOPIC, TXN_TOPIC)])
    for f in fs.values():
        f.result(20)


def _full_isr(c: EmbeddedCluster) -> bool:
    return all(len(c.isr(t, p)) == 3 and c.leader(t, p) >= 0 for t in (TOPIC, TXN_TOPIC) for p in range(PARTITIONS))


def _fencings(c: EmbeddedCluster) -> dict[str, int]:
    """Per controller log: how many times that controller fenced a broker for a missed session."""
    out = {}
    for i in c.controller_ids:
        path = c.log_dir / ("controller.log" if i == 0 else f"controller-{i}.log")
        text = path.read_text(errors="replace") if path.exists() else ""
        out[path.name] = text.count("missed its session timeout: fencing")
    return out


def _high_watermarks(c: EmbeddedCluster, topic: str) -> dict[int, int]:
    """Each partition's high watermark (no writer is left: every replica in the ISR, the HW at the log end)."""
    consumer = Consumer({"bootstrap.servers": c.bootstrap_servers, "group.id": "jepsen-ends"})
    try:
        return {
            p: int(consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1]) for p in range(PARTITIONS)
        }
    finally:
        consumer.close()


def run(
    seeds: list[int],
    faults_per_seed: int = 2,
    fault_s: float = 1.5,
    log_dir: Path | None = None,
    faults: tuple[str, ...] = FAULTS,
    recover_s: float = 45.0,
    say: Callable[[str], None] = lambda _: None,
) -> Result:
    """The whole run (see the module docstring). Needs root and `ip netns` (`netns.available()`)."""
    result, t_start = Result(), time.monotonic()
    with netns.TestHosts([f"c{i}" for i in range(3)] + [f"b{b}" for b in (1, 2, 3)]) as hosts:

        def on(name: str) -> ControllerHost:
            return ControllerHost(hosts.address(name), tuple(hosts.wrap(name, [])))

        with EmbeddedCluster(
            3,
            log_dir=log_dir,
            controllers=3,
            quorum="raft",
            controller_hosts={i: on(f"c{i}") for i in range(3)},
            broker_hosts={b: on(f"b{b}") for b in (1, 2, 3)},
            **CONFIGS,
        ) as c:
            _create_topics(c.bootstrap_servers)
            c.wait_for(lambda: _full_isr(c), timeout=30, what="every partition led with an ISR of 3")
            writers = Writers(c.bootstrap_servers, TOPIC).start()
            txw = TxnWriter(c.bootstrap_servers, TXN_TOPIC, PARTITIONS).start()
            reader = Reader(c.bootstrap_servers, TOPIC, PARTITIONS).start()
            txr = Reader(c.bootstrap_servers, TXN_TOPIC, PARTITIONS, isolation="read_committed").start()
            nemesis = Nemesis(c, hosts)
            try:
                try:
                    writers.wait_for_acks(100, 30)
                    txw.wait_for_commits(3, 30)
                    for seed in seeds:
                        rng = random.Random(seed)
                        for _ in range(faults_per_seed):
                            fault = rng.choice(faults)
                            fencings = _fencings(c)
                            what = nemesis.apply(fault, rng)
                            say(f"seed {seed}: {fault} {what}")
                            time.sleep(fault_s)
                            nemesis.undo()
                            healed = time.monotonic()
                            # liveness: writes and commits go on again once the fault is gone
                            writers.wait_for_acks(writers.count() + 50, recover_s)
                            txw.wait_for_commits(txw.count() + 2, recover_s)
                            fenced = sum(max(0, n - fencings.get(f, 0)) for f, n in _fencings(c).items())
                            if fault in CONTROLLER_ONLY and fenced:
                                result.fenced.append(f"seed {seed}: {fault} {what}: {fenced} fencing(s)")
                            entry = f"seed {seed}: {fault} {what} for {fault_s} s, writes and commits again after "
                            result.history.append(entry + f"{time.monotonic() - healed:.1f} s")
                            say(result.history[-1])
                finally:
                    nemesis.undo()
                    writers.stop()
                    txw.stop()
                say(f"writers stopped: {writers.count()} acked, {txw.count()} transactions committed")
                c.wait_for(lambda: _full_isr(c), timeout=recover_s, what="every ISR back to 3 at the end")
                for topic, r in ((TOPIC, reader), (TXN_TOPIC, txr)):
                    ends = _high_watermarks(c, topic)
                    say(f"{topic}: draining the reader to {ends}")
                    r.drain_until(ends, 30)
            finally:
                reader.stop()
                txr.stop()
            leaders = {(t, p): c.leader(t, p) for t in (TOPIC, TXN_TOPIC) for p in range(PARTITIONS)}
            for b in c.broker_ids:  # nothing is in flight: a kill leaves the logs as they are
                c.kill(b)
            replicas = {
                t: {
                    p: {b: read_replica(c.broker_log_dir(b) / f"{t}-{p}") for b in [leaders[(t, p)], *c.broker_ids]}
                    for p in range(PARTITIONS)
                }
                for t in (TOPIC, TXN_TOPIC)
            }
    result.report = check(writers.acked, reader.seen, replicas[TOPIC])
    result.txn_log = check([], txr.seen, replicas[TXN_TOPIC])
    result.txns = check_transactions(txw.txns, txr.seen)
    result.writer_errors = writers.errors
    result.reader_errors = reader.errors + txr.errors
    result.seconds = time.monotonic() - t_start
    return result


__all__ = ["FAULTS", "Nemesis", "Result", "run"]
