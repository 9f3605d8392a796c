"""The harness of the group-mode proof (tests/spark/test_group_mode_procs.py), shared with its
benchmark (bench/group_mode.py): streaming queries in SEPARATE Spark driver processes that share one
topic through the consumer group protocol and write one Delta table, a producer that remembers what
was acknowledged, and snapshots of the group.

Each driver is this file run as a script (`python testsupport/group_mode_procs.py <config.json>`): a
local[1] SparkSession with the UI off, in its own process group (killed as a group at the end).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

if __name__ != "__main__":
    from connector.group_lag import GroupLag, group_lag
    from kafka_wire.types import TopicPartition

PARTITIONS = 12
SESSION_TIMEOUT_MS = 6000
GROUP_SETTINGS = {
    "kafka.session.timeout.ms": str(SESSION_TIMEOUT_MS),
    "kafka.heartbeat.interval.ms": "1000",
    "kafka.max.poll.interval.ms": "15000",
    "kafka.default.api.timeout.ms": "60000",
    "kafka.partition.assignment.strategy": "cooperative-sticky",
}
# the consumer protocol (KIP-848): session and heartbeat are the broker's (CONSUMER_GROUP_BROKER), the
# assignment the coordinator's; a revocation waits up to half of max.poll.interval.ms for its batch
CONSUMER_SETTINGS = {
    "kafka.group.protocol": "consumer",
    "kafka.max.poll.interval.ms": "15000",
    "kafka.default.api.timeout.ms": "60000",
}
CONSUMER_GROUP_BROKER = {
    "group.consumer.session.timeout.ms": SESSION_TIMEOUT_MS,
    "group.consumer.min.session.timeout.ms": 1000,
    "group.consumer.heartbeat.interval.ms": 1000,
    "group.consumer.min.heartbeat.interval.ms": 1000,
}


# --------------------------------------------------------------------------------------------
# the driver process
# --------------------------------------------------------------------------------------------


def driver_main(cfg: dict[str, Any]) -> None:
    """One streaming query: pykafka (group mode) -> pykafka-delta, until SIGTERM or its lifetime ends."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    from pyspark.sql import SparkSession

    import connector

    spark = (
        SparkSession.builder.master("local[1]")
        .appName(cfg["name"])
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.driver.memory", "768m")
        .config("spark.sql.streaming.stopTimeout", "20s")
        # three drivers share two cores here: pyspark's 15 s default for its local socket
        # handshake (JVM <-> this process) ran out once in CI ("Authentication failed")
        .config("spark.python.authenticate.socketTimeout", "60s")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("WARN")
    connector.register(spark)
    _warm_up(spark)
    if cfg.get("go"):
        # started early so the JVM start overlaps the scenario; joins the group when told to
        Path(cfg["warm"]).write_text("")
        while not Path(cfg["go"]).exists():
            if stop.wait(0.1):
                spark.stop()
                return
    q = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", cfg["bootstrap"])
        .option("subscribe", cfg["topic"])
        .option("kafka.group.id", cfg["group"])
        .option("groupMode", "true")
        .option("kafka.client.id", cfg["name"])
        .option("offsetsTable", cfg["table"])
        .option("groupPlanLog", cfg["plan_log"])
        .option("startingOffsets", "earliest")
        .options(**(CONSUMER_SETTINGS if cfg.get("group_protocol") == "consumer" else GROUP_SETTINGS))
        .load()
        .selectExpr("topic", "partition", "offset", "value")
        .writeStream.format("pykafka-delta")
        .option("checkpointLocation", cfg["checkpoint"])
        .option("offsetsOwner", cfg["group"])
        .trigger(processingTime=cfg.get("trigger", "1 second"))
        .start(cfg["table"])
    )
    Path(cfg["ready"]).write_text(q.id)
    deadline = time.monotonic() + cfg["lifetime_s"]
    while not stop.wait(0.2) and time.monotonic() < deadline:
        if not q.isActive:
            break
    err = q.exception()
    if err is not None:
        print(f"query failed: {err}", file=sys.stderr, flush=True)
    q.stop()
    spark.stop()


def _warm_up(spark: Any) -> None:
    """Start the executor's (reused) Python worker with the source's and the sink's modules loaded,
    so the query's first micro-batch does not pay for it."""

    def load(x: int) -> int:
        import connector.delta.datasource  # noqa: F401
        import connector.source.reader  # noqa: F401

        return x

    spark.sparkContext.parallelize([0], 1).map(load).collect()


if __name__ == "__main__":
    driver_main(json.loads(Path(sys.argv[1]).read_text()))
    sys.exit(0)


class Driver:
    """A Spark driver process in its own process group."""

    def __init__(self, name: str, base: Path, common: dict[str, Any], gated: bool = False) -> None:
        self.name = name
        self.ready = base / f"{name}.ready"
        self.warm = base / f"{name}.warm"
        self.go_file = base / f"{name}.go"
        cfg = {**common, "name": name, "checkpoint": str(base / f"ckpt-{name}"), "ready": str(self.ready)}
        if gated:
            cfg.update(go=str(self.go_file), warm=str(self.warm))
        cfg_path = base / f"{name}.json"
        cfg_path.write_text(json.dumps(cfg))
        self.out = open(base / f"{name}.log", "wb")  # noqa: SIM115 - closed in close()
        env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
        self.proc = subprocess.Popen(
            [sys.executable, __file__, str(cfg_path)],
            stdout=self.out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: JVM and Python workers die with it
            env=env,
            cwd=str(Path(__file__).resolve().parents[1]),
        )
        self.log_path = base / f"{name}.log"

    def go(self) -> None:
        self.go_file.write_text("")

    def wait_ready(self, timeout: float, what: Path | None = None) -> None:
        deadline = time.monotonic() + timeout
        while not (what or self.ready).exists():
            if self.proc.poll() is not None:
                raise AssertionError(f"driver {self.name} exited early:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"driver {self.name} not ready in {timeout}s:\n{self.tail()}")
            time.sleep(0.2)

    def tail(self, n: int = 4000) -> str:
        self.out.flush()
        return self.log_path.read_bytes()[-n:].decode(errors="replace")

    def kill9(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        """SIGTERM to the driver: it stops its query (Spark then SIGTERMs the reader, which leaves)."""
        self.proc.send_signal(signal.SIGTERM)

    def wait_exit(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        self.kill9()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        self.out.close()


class Producer:
    """Writes to every partition continuously; remembers what the broker acknowledged."""

    def __init__(self, bootstrap: str, topic: str, rate: float = 80.0) -> None:
        from confluent_kafka import Producer as CProducer

        self.acked: set[tuple[int, int]] = set()
        self.errors: list[Any] = []
        self._p = CProducer({"bootstrap.servers": bootstrap, "linger.ms": 5, "acks": "all"})
        self._topic, self._rate = topic, rate
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _cb(self, err: Any, msg: Any) -> None:
        if err is not None:
            self.errors.append(err)
        else:
            self.acked.add((msg.partition(), msg.offset()))

    def _run(self) -> None:
        i = 0
        t0 = time.monotonic()
        while not self._stop.is_set():
            self._p.produce(self._topic, value=b"v%d" % i, partition=i % PARTITIONS, on_delivery=self._cb)
            i += 1
            self._p.poll(0)
            ahead = i / self._rate - (time.monotonic() - t0)
            if ahead > 0:
                time.sleep(ahead)

    def stop(self) -> None:
        self._stop.set()
        self._t.join(10)
        assert self._p.flush(30) == 0
        assert not self.errors, self.errors[:5]


class GroupWatch:
    """Snapshots of the group (DescribeGroups; ConsumerGroupDescribe for a consumer-protocol group, its
    members keyed "<client id>-<member id>" as classic member ids are) while the scenario runs."""

    def __init__(self, bootstrap: str, group: str, protocol: str = "classic") -> None:
        self.bootstrap, self.group, self.protocol = bootstrap, group, protocol
        self.snapshots: list[GroupLag] = []
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self) -> None:
        while not self._stop.wait(0.3):
            try:
                self.snapshots.append(self.now())
            except Exception:
                pass

    def now(self) -> GroupLag:
        if self.protocol != "consumer":
            return group_lag(self.bootstrap, self.group, timeout=5)
        from confluent_kafka.admin import AdminClient

        admin = AdminClient({"bootstrap.servers": self.bootstrap})
        g = admin.describe_consumer_groups([self.group], request_timeout=5)[self.group].result(timeout=10)
        members = {
            f"{m.client_id}-{m.member_id}": tuple(
                TopicPartition(tp.topic, tp.partition) for tp in m.assignment.topic_partitions
            )
            for m in g.members
        }
        state = {"STABLE": "Stable", "RECONCILING": "Reconciling", "ASSIGNING": "Assigning"}.get(
            g.state.name, g.state.name
        )
        return GroupLag(self.group, state, "consumer", members=members)

    def stop(self) -> None:
        self._stop.set()
        self._t.join(10)


def wait_for(pred: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.25)


def split_is(watch: GroupWatch, sizes: list[int]) -> bool:
    """The group is Stable and its members own partitions in these counts (all 12, disjoint)."""
    try:
        g = watch.now()
    except Exception:
        return False
    counts = sorted(len(tps) for tps in g.members.values())
    owned = [tp for tps in g.members.values() for tp in tps]
    return g.state == "Stable" and counts == sorted(sizes) and len(set(owned)) == len(owned) == PARTITIONS


def by(rec: dict[str, Any], client_id: str) -> bool:
    """A plan-log record of the driver with this client id (classic member ids start with it)."""
    return rec.get("client") == client_id or rec["member"].startswith(client_id + "-")


def planned_by(plan_log: Path, client_id: str) -> set[tuple[int, int]]:
    """(partition, from offset) of the non-empty ranges a driver planned (member ids start with the
    member's client id)."""
    if not plan_log.exists():
        return set()
    out = set()
    for line in plan_log.read_text().splitlines():
        rec = json.loads(line)
        if by(rec, client_id):
            out |= {(p, lo) for _, p, lo, hi in rec["ranges"] if hi > lo}
    return out


def owned_by(watch: GroupWatch, client_id: str) -> set[tuple[str, int]]:
    return {tp for m, tps in watch.now().members.items() if m.startswith(client_id + "-") for tp in tps}


def first_read_of(plan_log: Path, parts: set[tuple[str, int]], after: float, old_owner: str) -> float:
    """When another member first planned a non-empty range of `parts` after `after` (wall clock)."""
    times = [
        rec["time"]
        for rec in map(json.loads, plan_log.read_text().splitlines())
        if rec["time"] > after
        and not by(rec, old_owner)
        and any((t, p) in parts and hi > lo for t, p, lo, hi in rec["ranges"])
    ]
    assert times, f"nobody read {sorted(parts)} after {old_owner} went away"
    return min(times)


if __name__ == "__main__":
    driver_main(json.loads(Path(sys.argv[1]).read_text()))
    sys.exit(0)
