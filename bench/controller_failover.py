"""Controller failover, ours (`EmbeddedCluster(controllers=3, quorum="raft")`) vs a 3-node Apache Kafka 4.3.1
KRaft cluster (combined broker+controller nodes, peers/jvm.py), measured in the same run (issue 32).

    .venv/bin/python -m bench.controller_failover [--targets ours,ours-log,apache] [--runs 3] [--fault kill,pause]
        [--timeouts kafka|fast] [--create-runs 5] [--json PATH]

`ours` = brokers get images pushed by the active controller (and also observe the log); `ours-log` = the push is
off (controller.metadata.push.enable=false): brokers get metadata only by fetching `__cluster_metadata`;
`ours-hosts` = as `ours-log`, each controller on its own test host (a network namespace, testsupport/netns.py:
needs root), which adds the fault `isolate` (the active controller's link down: a real network partition).
Apache's nodes all run on 127.0.0.1, so `isolate` is measured on `ours-hosts` only.

Per run and fault, on each target in turn (targets interleaved run by run, so outside load lands on both):
1. the active controller is found with DescribeQuorum (API 55) on the voters' controller listeners;
2. the fault: `kill` = SIGKILL of its process (on Apache that is a whole combined node, so one broker
   goes too), `pause` = SIGSTOP (as cut off: it keeps its sockets, says nothing), `isolate` (`ours-hosts`
   only) = its host's link down, the process runs on;
3. **leader**: time until a surviving voter answers DescribeQuorum as leader of a higher epoch
   (polled every 10 ms on every surviving voter: the same instrument on both targets);
4. **create**: time until a CreateTopics (rf 2, through a live broker) succeeds after the fault: the new
   controller serves metadata writes;
5. recovery: SIGCONT / restart, then wait until every voter is back within 50 records of the leader.

Then **create-to-visible** (`--create-runs`, no fault): time from CreateTopics (rf 3) to the topic with a
leader in Metadata on every broker, asked of each broker directly.

`--timeouts kafka` (default) gives both targets Kafka's defaults (controller.quorum.election.timeout.ms
1000, fetch 2000, request 2000); `fast` gives both 200/400/400 (the suite's). Ours runs brokers with
broker.session.timeout.ms 9000 (Kafka's default) either way. Everything listens on 127.0.0.1; the
clusters are stopped at the end, also on Ctrl-C. Prints a markdown table (median, min-max per cell).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from confluent_kafka.admin import AdminClient, NewTopic

from bench.report import load_average, machine_info
from kafka_wire.client import BrokerConnection
from kafka_wire.protocol.messages import describe_quorum_request as dq
from kafka_wire.protocol.messages import metadata_request

TIMEOUTS = {
    "kafka": {
        "controller.quorum.election.timeout.ms": 1000,
        "controller.quorum.fetch.timeout.ms": 2000,
        "controller.quorum.request.timeout.ms": 2000,
    },
    "fast": {
        "controller.quorum.election.timeout.ms": 200,
        "controller.quorum.fetch.timeout.ms": 400,
        "controller.quorum.request.timeout.ms": 400,
    },
}


def describe_quorum(host: str, port: int, timeout: float = 0.5) -> tuple[int, int, dict[int, int]] | None:
    """(leader id, epoch, voter -> log end offset) from a voter that answers as the leader, else None."""
    try:
        with BrokerConnection(host, port, timeout=timeout) as conn:
            body = dq.DescribeQuorumRequest(
                topics=[dq.TopicData(topic_name="__cluster_metadata", partitions=[dq.PartitionData()])]
            )
            resp = conn.request(55, body)
    except (OSError, ConnectionError, ValueError):
        return None
    if resp.error_code or not resp.topics or not resp.topics[0].partitions:
        return None
    p = resp.topics[0].partitions[0]
    if p.error_code or p.leader_id < 0:
        return None
    return p.leader_id, p.leader_epoch, {v.replica_id: v.log_end_offset for v in p.current_voters}


class Target:
    name: str
    voters: dict[int, tuple[str, int]]
    faults = ("kill", "pause")

    def brokers(self) -> list[str]:
        raise NotImplementedError

    def fault(self, voter: int, kind: str) -> None:
        raise NotImplementedError

    def recover(self, voter: int, kind: str) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def leader(self, skip: int | None = None) -> tuple[int, int, dict[int, int]] | None:
        for i, (host, port) in self.voters.items():
            if i == skip:
                continue
            got = describe_quorum(host, port)
            if got is not None and got[0] == i:
                return got
        return None

    def live_brokers(self, down: int | None) -> list[str]:
        return self.brokers()


class Ours(Target):
    name = "ours"
    extra: dict[str, str] = {"controller.metadata.push.enable": "true"}

    def __init__(self, timeouts: dict[str, int]) -> None:
        from broker_embedded import EmbeddedCluster

        self.cluster = EmbeddedCluster(
            brokers=3,
            controllers=3,
            quorum="raft",
            **{"broker.session.timeout.ms": 9000, "broker.heartbeat.interval.ms": 2000, **timeouts, **self.extra},
        ).start()
        self.voters = {i: ("127.0.0.1", p) for i, p in self.cluster.raft_ports.items()}

    def brokers(self) -> list[str]:
        return [self.cluster.bootstrap(b) for b in self.cluster.broker_ids]

    def fault(self, voter: int, kind: str) -> None:
        if kind == "kill":
            self.cluster.kill_controller(voter)
        else:
            os.kill(self.cluster.controller_pid(voter), signal.SIGSTOP)

    def recover(self, voter: int, kind: str) -> None:
        if kind == "kill":
            self.cluster.start_controller(voter)
        else:
            os.kill(self.cluster.controller_pid(voter), signal.SIGCONT)

    def close(self) -> None:
        for i in self.cluster.controller_ids:  # never leave one stopped
            if self.cluster.controller_running(i):
                os.kill(self.cluster.controller_pid(i), signal.SIGCONT)
        self.cluster.close()


class OursFromLog(Ours):
    """Brokers take metadata only from __cluster_metadata (observers), as KRaft brokers do: no JSON push."""

    name = "ours-log"
    extra = {"controller.metadata.push.enable": "false"}


class OursOnHosts(OursFromLog):
    """`ours-log` with each controller in its own network namespace: `isolate` cuts the active one off."""

    name = "ours-hosts"
    faults = ("kill", "pause", "isolate")

    def __init__(self, timeouts: dict[str, int]) -> None:
        from broker_embedded import EmbeddedCluster
        from broker_embedded.cluster import ControllerHost
        from testsupport import netns

        reason = netns.available()
        if reason is not None:
            raise SystemExit(f"ours-hosts: {reason}")
        self.hosts = netns.TestHosts([f"c{i}" for i in range(3)])
        placed = {i: ControllerHost(self.hosts.address(f"c{i}"), tuple(self.hosts.wrap(f"c{i}", []))) for i in range(3)}
        try:
            self.cluster = EmbeddedCluster(
                brokers=3,
                controllers=3,
                quorum="raft",
                controller_hosts=placed,
                **{"broker.session.timeout.ms": 9000, "broker.heartbeat.interval.ms": 2000, **timeouts, **self.extra},
            ).start()
        except BaseException:
            self.hosts.close()
            raise
        self.voters = {i: (self.cluster.controller_host(i), p) for i, p in self.cluster.raft_ports.items()}

    def fault(self, voter: int, kind: str) -> None:
        if kind == "isolate":
            self.hosts.isolate(f"c{voter}")
        else:
            super().fault(voter, kind)

    def recover(self, voter: int, kind: str) -> None:
        if kind == "isolate":
            self.hosts.heal(f"c{voter}")
        else:
            super().recover(voter, kind)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.hosts.close()


class Apache(Target):
    name = "apache"

    def __init__(self, timeouts: dict[str, int]) -> None:
        from peers.jvm import ApacheKafka

        self.kafka = ApacheKafka(3, overrides=dict(timeouts)).start()
        self.voters = {i: ("127.0.0.1", p) for i, p in enumerate(self.kafka.controller_ports)}

    def brokers(self) -> list[str]:
        return [self.kafka.bootstrap(i) for i in range(3)]

    def live_brokers(self, down: int | None) -> list[str]:
        return [self.kafka.bootstrap(i) for i in range(3) if i != down]

    def fault(self, voter: int, kind: str) -> None:
        if kind == "kill":
            self.kafka.kill(voter)
        else:
            os.killpg(self.kafka.pid(voter), signal.SIGSTOP)

    def recover(self, voter: int, kind: str) -> None:
        if kind == "kill":
            self.kafka.start(voter)
        else:
            os.killpg(self.kafka.pid(voter), signal.SIGCONT)

    def close(self) -> None:
        for i in range(3):
            if self.kafka.is_running(i):
                os.killpg(self.kafka.pid(i), signal.SIGCONT)
        self.kafka.close()


@dataclass
class Samples:
    leader_s: dict[str, list[float]] = field(default_factory=dict)
    create_s: dict[str, list[float]] = field(default_factory=dict)
    epochs_up: dict[str, list[int]] = field(default_factory=dict)
    visible_s: list[float] = field(default_factory=list)


def _poll(cond: Callable[[], Any], timeout: float, what: str, interval: float = 0.01) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(interval)
    raise TimeoutError(f"{what}: not within {timeout} s")


def _try_create(bootstraps: list[str], rf: int) -> bool:
    admin = AdminClient({"bootstrap.servers": ",".join(bootstraps), "log_level": 0})
    name = f"fo-{uuid.uuid4().hex[:8]}"
    try:
        admin.create_topics([NewTopic(name, 1, rf)], operation_timeout=2, request_timeout=3)[name].result(4)
        return True
    except Exception:  # noqa: BLE001 - not yet: retried
        return False


def one_failover(t: Target, kind: str, s: Samples) -> None:
    before = _poll(t.leader, 60, f"{t.name}: a leader")
    old, epoch = before[0], before[1]
    t.fault(old, kind)
    t0 = time.monotonic()
    try:
        after = _poll(lambda: (lambda g: g if g and g[1] > epoch else None)(t.leader(skip=old)), 60, "a new leader")
        s.leader_s.setdefault(kind, []).append(time.monotonic() - t0)
        s.epochs_up.setdefault(kind, []).append(after[1] - epoch)
        _poll(lambda: _try_create(t.live_brokers(old if kind == "kill" else None), 2), 60, "CreateTopics", 0.05)
        s.create_s.setdefault(kind, []).append(time.monotonic() - t0)
    finally:
        t.recover(old, kind)

    def caught_up() -> bool:
        g = t.leader()
        return bool(g) and len(g[2]) == 3 and max(g[2].values()) - min(g[2].values()) <= 50

    _poll(caught_up, 120, f"{t.name}: every voter caught up", 0.2)
    time.sleep(1.0)


def create_to_visible(t: Target, s: Samples) -> None:
    name = f"vis-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": ",".join(t.brokers()), "log_level": 0})
    t0 = time.monotonic()
    admin.create_topics([NewTopic(name, 1, 3)])[name].result(30)
    conns = [BrokerConnection.from_bootstrap(b, timeout=5) for b in t.brokers()]
    try:

        def everywhere() -> bool:
            req = metadata_request.MetadataRequest(topics=[metadata_request.MetadataRequestTopic(name=name)])
            for c in conns:
                md = c.request(3, req)
                tps = [tp for tp in md.topics if tp.name == name]
                if not tps or tps[0].error_code or not tps[0].partitions or tps[0].partitions[0].leader_id < 0:
                    return False
            return True

        _poll(everywhere, 30, "topic visible on every broker", 0.005)
        s.visible_s.append(time.monotonic() - t0)
    finally:
        for c in conns:
            c.close()


def _cell(xs: list[float], unit: float = 1.0) -> str:
    if not xs:
        return "–"
    v = [x * unit for x in xs]
    return f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f}, n={len(v)})"


def render(results: dict[str, Samples], args: argparse.Namespace) -> str:
    names = list(results)
    lines = [
        f"timeouts `{args.timeouts}` ({TIMEOUTS[args.timeouts]}), {args.runs} runs per fault, load {load_average()}",
        "",
        "| metric | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for kind in args.fault:
        lines.append(
            f"| {kind}: new leader, s | " + " | ".join(_cell(results[n].leader_s.get(kind, [])) for n in names) + " |"
        )
        lines.append(
            f"| {kind}: CreateTopics again, s | "
            + " | ".join(_cell(results[n].create_s.get(kind, [])) for n in names)
            + " |"
        )
        lines.append(
            f"| {kind}: epochs per failover | "
            + " | ".join(str(results[n].epochs_up.get(kind, [])) for n in names)
            + " |"
        )
    lines.append(
        "| CreateTopics → visible on every broker, ms | "
        + " | ".join(_cell(results[n].visible_s, 1000) for n in names)
        + " |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--targets", default="ours,ours-log,apache")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--fault", default="kill,pause")
    p.add_argument("--timeouts", choices=sorted(TIMEOUTS), default="kafka")
    p.add_argument("--create-runs", type=int, default=5)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    args.fault = [f for f in args.fault.split(",") if f]
    if set(args.fault) - {"kill", "pause", "isolate"}:
        p.error("--fault takes kill, pause and/or isolate (isolate: ours-hosts only)")
    makers: dict[str, Callable[[dict[str, int]], Target]] = {
        "ours": Ours,
        "ours-log": OursFromLog,
        "ours-hosts": OursOnHosts,
        "apache": Apache,
    }
    targets: dict[str, Target] = {}
    results: dict[str, Samples] = {}
    try:
        for name in args.targets.split(","):
            targets[name] = makers[name](TIMEOUTS[args.timeouts])
            results[name] = Samples()
        for run in range(args.runs):
            for kind in args.fault:
                for name, t in targets.items():
                    if kind not in t.faults:
                        continue
                    one_failover(t, kind, results[name])
                    print(
                        f"run {run + 1} {kind} {name}: leader {results[name].leader_s[kind][-1]:.2f} s, "
                        f"create {results[name].create_s[kind][-1]:.2f} s",
                        file=sys.stderr,
                    )
        for _ in range(args.create_runs):
            for name, t in targets.items():
                create_to_visible(t, results[name])
    finally:
        for t in targets.values():
            t.close()
    table = render(results, args)
    print(table)
    if args.json:
        out = {"machine": machine_info(), "args": vars(args), "results": {n: vars(s) for n, s in results.items()}}
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
