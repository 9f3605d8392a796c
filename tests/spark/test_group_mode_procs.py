"""The proof of group mode: streaming queries in SEPARATE Spark driver processes share one
12-partition topic through the consumer group protocol and write one Delta table exactly once.

Scenario 1: queries A and B start, C joins, A is killed with SIGKILL (its partitions move to the
survivors after the 6 s session timeout), C is stopped cleanly (it leaves the group at once),
while a producer keeps writing. At the end the table holds every acknowledged record exactly
once (compared by (partition, offset)), and the plan log every driver writes (generation,
member, offset ranges of each micro-batch) shows no partition planned by two members in the
same generation.

Scenario 2: the same group with a confluent-kafka (librdkafka) consumer as an extra member,
cooperative-sticky on both sides: it is assigned partitions by our leader and consumes them
(counted separately); snapshots of the group (DescribeGroups) never show a partition owned twice.

Each driver is this file run as a script (`python test_group_mode_procs.py <config.json>`): a
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
import uuid
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if __name__ != "__main__":
    import pytest

    from broker_embedded import EmbeddedBroker
    from connector.group_lag import GroupLag, group_lag
    from tests.spark.source_helpers import create_topic

PARTITIONS = 12
SESSION_TIMEOUT_MS = 6000
GROUP_SETTINGS = {
    "kafka.session.timeout.ms": str(SESSION_TIMEOUT_MS),
    "kafka.heartbeat.interval.ms": "1000",
    "kafka.max.poll.interval.ms": "15000",
    "kafka.default.api.timeout.ms": "60000",
    "kafka.partition.assignment.strategy": "cooperative-sticky",
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
        .options(**GROUP_SETTINGS)
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
        import connector.source  # noqa: F401

        return x

    spark.sparkContext.parallelize([0], 1).map(load).collect()


if __name__ == "__main__":
    driver_main(json.loads(Path(sys.argv[1]).read_text()))
    sys.exit(0)


# --------------------------------------------------------------------------------------------
# the test side
# --------------------------------------------------------------------------------------------

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


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
            cwd=str(Path(__file__).resolve().parents[2]),
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
    """Snapshots of the group (DescribeGroups) while the scenario runs."""

    def __init__(self, bootstrap: str, group: str) -> None:
        self.bootstrap, self.group = bootstrap, group
        self.snapshots: list[GroupLag] = []
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self) -> None:
        while not self._stop.wait(0.3):
            try:
                self.snapshots.append(group_lag(self.bootstrap, self.group, timeout=5))
            except Exception:
                pass

    def now(self) -> GroupLag:
        return group_lag(self.bootstrap, self.group, timeout=5)

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


def planned_by(plan_log: Path, client_id: str) -> set[tuple[int, int]]:
    """(partition, from offset) of the non-empty ranges a driver planned (member ids start with the
    member's client id)."""
    if not plan_log.exists():
        return set()
    out = set()
    for line in plan_log.read_text().splitlines():
        rec = json.loads(line)
        if rec["member"].startswith(client_id + "-"):
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
        and not rec["member"].startswith(old_owner + "-")
        and any((t, p) in parts and hi > lo for t, p, lo, hi in rec["ranges"])
    ]
    assert times, f"nobody read {sorted(parts)} after {old_owner} went away"
    return min(times)


def table_rows(table: Path) -> list[tuple[int, int]]:
    from deltalake import DeltaTable
    from deltalake.exceptions import TableNotFoundError

    try:
        t = DeltaTable(str(table)).to_pyarrow_table(columns=["partition", "offset"])
    except TableNotFoundError:
        return []
    return list(zip(t.column("partition").to_pylist(), t.column("offset").to_pylist(), strict=True))


def check_plan_log(path: Path) -> dict[str, set[tuple[int, int]]]:
    """No partition planned by two members in one generation; returns the ranges each member read."""
    by_generation: dict[int, dict[tuple[str, int], set[str]]] = defaultdict(lambda: defaultdict(set))
    per_member: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for topic, p, lo, _hi in rec["ranges"]:
            by_generation[rec["generation"]][(topic, p)].add(rec["member"])
            per_member[rec["member"]].add((p, lo))
    for gen, owners in by_generation.items():
        double = {tp: m for tp, m in owners.items() if len(m) > 1}
        assert not double, f"generation {gen}: partitions planned by two members: {double}"
    return per_member


def assert_snapshots_disjoint(watch: GroupWatch) -> None:
    assert watch.snapshots, "no group snapshot was taken"
    for g in watch.snapshots:
        owned = [tp for tps in g.members.values() for tp in tps]
        assert len(set(owned)) == len(owned), f"a partition owned twice in one group snapshot: {g.members}"


@pytest.fixture
def scenario(tmp_path: Path) -> Iterator[dict[str, Any]]:
    pytest.importorskip("deltalake")
    pytest.importorskip("pyspark_pykafka_delta", reason="the pykafka-delta sink is not available")
    with EmbeddedBroker(tmp_path / "broker") as b:
        topic, group = f"gm-{uuid.uuid4().hex[:6]}", f"billing-{uuid.uuid4().hex[:6]}"
        create_topic(b, topic, PARTITIONS)
        common = {
            "bootstrap": b.bootstrap_servers,
            "topic": topic,
            "group": group,
            "table": str(tmp_path / "table"),
            "plan_log": str(tmp_path / "plan.jsonl"),
            "lifetime_s": 200,
        }
        drivers: list[Driver] = []
        state = {"broker": b, "common": common, "dir": tmp_path, "drivers": drivers, "topic": topic, "group": group}
        try:
            yield state
        finally:
            for d in drivers:
                d.close()


def start(state: dict[str, Any], name: str, gated: bool = False) -> Driver:
    d = Driver(name, state["dir"], state["common"], gated)
    state["drivers"].append(d)
    return d


def final_check(
    state: dict[str, Any], producer: Producer, extra: set[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """Every acknowledged record is in the table (or, in `extra`, consumed by another member), and
    nothing is in the table twice."""
    extra = extra or set()
    table = Path(state["common"]["table"])
    producer.stop()
    acked = producer.acked
    assert len(acked) > 500
    wait_for(lambda: acked <= set(table_rows(table)) | extra, 90, "every acknowledged record in the table")
    rows = table_rows(table)
    dupes = len(rows) - len(set(rows))
    assert dupes == 0, f"{dupes} records written twice"
    assert set(rows) <= acked | extra
    return rows


def test_queries_in_separate_drivers_share_a_topic_exactly_once(scenario: dict[str, Any]) -> None:
    b, group, common = scenario["broker"], scenario["group"], scenario["common"]
    watch = GroupWatch(b.bootstrap_servers, group)
    t0 = time.monotonic()
    a, bq, c = start(scenario, "A"), start(scenario, "B"), start(scenario, "C", gated=True)
    a.wait_ready(120)
    producer = Producer(b.bootstrap_servers, scenario["topic"])  # from when the first query runs
    bq.wait_ready(120)
    wait_for(lambda: split_is(watch, [6, 6]), 60, "A and B splitting 6/6")
    c.wait_ready(120, c.warm)
    c.go()  # a third query joins
    c.wait_ready(60)
    wait_for(lambda: split_is(watch, [4, 4, 4]), 60, "A, B and C splitting 4/4/4")
    plan_log = Path(common["plan_log"])
    # every query reads its share (a driver's first micro-batch starts its Python workers: slow)
    wait_for(lambda: planned_by(plan_log, "C"), 90, "C reading its partitions")

    a_parts = owned_by(watch, "A")
    a.kill9()
    killed, killed_wall = time.monotonic(), time.time()
    wait_for(lambda: split_is(watch, [6, 6]), 60, "B and C taking over A's partitions")
    handover_kill = time.monotonic() - killed
    seen_c = planned_by(plan_log, "C")
    wait_for(lambda: planned_by(plan_log, "C") - seen_c, 30, "C reading after the rebalance")

    c_parts = owned_by(watch, "C")
    stopped, stopped_wall = time.monotonic(), time.time()
    c.stop()
    wait_for(lambda: split_is(watch, [12]), 60, "B owning every partition")
    handover_leave = time.monotonic() - stopped
    assert c.wait_exit(60) == 0, c.tail()

    final_check(scenario, producer)
    watch.stop()
    per_member = check_plan_log(Path(common["plan_log"]))
    assert len(per_member) >= 3, f"expected A, B and C in the plan log, got {list(per_member)}"
    assert_snapshots_disjoint(watch)
    # A's partitions moved after its session expired; C left the group, so its partitions moved at once
    assert handover_leave < SESSION_TIMEOUT_MS / 1000, f"clean stop took {handover_leave:.1f}s to hand over"
    read_after_kill = first_read_of(plan_log, a_parts, killed_wall, "A") - killed_wall
    read_after_stop = first_read_of(plan_log, c_parts, stopped_wall, "C") - stopped_wall
    print(
        f"\ngroup mode: kill -9 -> reassigned {handover_kill:.1f}s, -> a survivor reads them {read_after_kill:.1f}s "
        f"(session timeout {SESSION_TIMEOUT_MS / 1000:.0f}s); clean stop -> reassigned {handover_leave:.1f}s, "
        f"-> read {read_after_stop:.1f}s; scenario {time.monotonic() - t0:.0f}s"
    )


def test_a_confluent_consumer_is_a_member_of_the_same_group(scenario: dict[str, Any]) -> None:
    from confluent_kafka import Consumer

    b, group, common = scenario["broker"], scenario["group"], scenario["common"]
    watch = GroupWatch(b.bootstrap_servers, group)
    a, bq = start(scenario, "A"), start(scenario, "B", gated=True)
    a.wait_ready(120)
    producer = Producer(b.bootstrap_servers, scenario["topic"])
    wait_for(lambda: split_is(watch, [12]), 60, "A owning every partition")

    consumed: set[tuple[int, int]] = set()
    assignments: list[list[int]] = []
    stop = threading.Event()

    def on_assign(consumer: Any, parts: list[Any]) -> None:
        assignments.append(sorted(p.partition for p in parts))

    def run() -> None:
        c = Consumer(
            {
                "bootstrap.servers": b.bootstrap_servers,
                "group.id": group,
                "client.id": "librdkafka-member",
                "partition.assignment.strategy": "cooperative-sticky",
                "session.timeout.ms": SESSION_TIMEOUT_MS,
                "heartbeat.interval.ms": 1000,
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
            }
        )
        c.subscribe([scenario["topic"]], on_assign=on_assign)
        try:
            while not stop.is_set():
                msgs = c.consume(100, timeout=0.2)
                for m in msgs:
                    if m.error() is None:
                        consumed.add((m.partition(), m.offset()))
                if msgs:
                    c.commit(asynchronous=False)
        finally:
            c.close()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    try:
        # our query is the leader: librdkafka decodes the assignment our assignor wrote
        wait_for(lambda: split_is(watch, [6, 6]), 60, "A and the confluent consumer splitting 6/6")
        wait_for(lambda: len({p for p, _ in consumed}) == 6, 30, "the confluent consumer reading its 6 partitions")
        bq.wait_ready(120, bq.warm)
        bq.go()
        bq.wait_ready(60)
        wait_for(lambda: split_is(watch, [4, 4, 4]), 60, "A, B and the confluent consumer splitting 4/4/4")
        plan_log = Path(common["plan_log"])
        wait_for(lambda: planned_by(plan_log, "B"), 90, "B reading its partitions")
        a.kill9()
        wait_for(lambda: split_is(watch, [6, 6]), 60, "B and the confluent consumer taking over A's partitions")
        seen_b = planned_by(plan_log, "B")
        wait_for(lambda: planned_by(plan_log, "B") - seen_b, 30, "B reading after the rebalance")
        producer_acked = final_check(scenario, producer, extra=consumed)
        assert producer_acked
    finally:
        stop.set()
        t.join(15)
    watch.stop()
    check_plan_log(Path(common["plan_log"]))
    assert_snapshots_disjoint(watch)
    assert assignments and any(assignments), "the confluent consumer never got partitions"
    confluent_members = [g for g in watch.snapshots if any(len(tps) for tps in g.members.values())]
    assert confluent_members
