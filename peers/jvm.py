"""The JVM peers: real Apache Kafka brokers, the Java clients and tools, Spark's own jars.

Everything here runs from the jars ``scripts/setup.sh`` resolved with Maven
(``peers/pom.xml``) into ``peers/target/{kafka,spark-kafka,delta}-lib``; nothing
is downloaded at run time. Used by the tests (``tests/peers/fixtures.py``) and by ``bench/``.

* :class:`ApacheKafka` -- one or more Apache Kafka nodes in KRaft combined mode
  (``process.roles=broker,controller``), storage formatted with Kafka's own ``StorageTool``,
  free ports on 127.0.0.1, log dirs in a temporary folder; ``kill(i)`` / ``start(i)`` for faults.
* :func:`java_tool` / :func:`java_popen` -- run a Java main class (``kafka-tools`` CLIs, the
  verifiable producer/consumer, ``pykafka.peers.WordCount``) against any bootstrap.
* :func:`spark_jars` -- the local jar paths of Spark's Kafka connector and delta-spark for
  ``spark.jars`` (only the jars the pyspark wheel does not already ship).
"""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
PEERS_DIR = REPO_ROOT / "peers"
KAFKA_LIB = PEERS_DIR / "target" / "kafka-lib"
SPARK_KAFKA_LIB = PEERS_DIR / "target" / "spark-kafka-lib"
DELTA_LIB = PEERS_DIR / "target" / "delta-lib"
SPARK_LIB = SPARK_KAFKA_LIB  # where the Spark connector's version is read
LOG4J_CONFIG = PEERS_DIR / "log4j2.properties"
LOOPBACK = "127.0.0.1"

# Small heaps: the peers share 2 cores and the memory with Spark and the other tests.
DEFAULT_HEAP = "-Xmx512m"
TOOL_JVM_OPTS: tuple[str, ...] = ("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto")

# Main classes of the tools the tests use (kafka-*.sh scripts call the same ones).
VERIFIABLE_PRODUCER = "org.apache.kafka.tools.VerifiableProducer"
VERIFIABLE_CONSUMER = "org.apache.kafka.tools.VerifiableConsumer"
CONSUMER_GROUPS = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"
TOPICS = "org.apache.kafka.tools.TopicCommand"
CONFIGS = "kafka.admin.ConfigCommand"
PRODUCER_PERF = "org.apache.kafka.tools.ProducerPerformance"
CONSUMER_PERF = "org.apache.kafka.tools.ConsumerPerformance"
WORD_COUNT = "pykafka.peers.WordCount"


class PeersMissing(RuntimeError):
    """The JVM peers are not installed (run ./scripts/setup.sh)."""


def java_executable() -> str:
    java_home = os.environ.get("JAVA_HOME")
    if java_home and (Path(java_home) / "bin" / "java").exists():
        return str(Path(java_home) / "bin" / "java")
    found = shutil.which("java")
    if not found:
        raise PeersMissing("no `java` on PATH and no JAVA_HOME")
    return found


def kafka_peers_available() -> bool:
    return (KAFKA_LIB / "peers-kafka.jar").exists() and shutil.which("java") is not None


def spark_peers_available() -> bool:
    return SPARK_KAFKA_LIB.is_dir() and any(SPARK_KAFKA_LIB.glob("spark-sql-kafka-0-10_*.jar"))


def _require_kafka_lib() -> None:
    if not kafka_peers_available():
        raise PeersMissing(f"{KAFKA_LIB} is missing: run ./scripts/setup.sh (needs java and mvn)")


def classpath() -> str:
    _require_kafka_lib()
    return str(KAFKA_LIB / "*")


def java_argv(main_class: str, args: Sequence[str], jvm_opts: Sequence[str] = TOOL_JVM_OPTS) -> list[str]:
    from peers.cds import kafka_jvm_opts  # (peers.cds imports this module)

    return [
        java_executable(),
        *jvm_opts,
        *kafka_jvm_opts(),  # the class-data-sharing archive of this classpath, when built (setup.sh)
        f"-Dlog4j2.configurationFile={LOG4J_CONFIG}",
        "-cp",
        classpath(),
        main_class,
        *args,
    ]


def java_tool(
    main_class: str,
    *args: str,
    timeout: float = 120.0,
    check: bool = True,
    jvm_opts: Sequence[str] = TOOL_JVM_OPTS,
) -> subprocess.CompletedProcess[str]:
    """Run a Java main class to completion; stdout/stderr as text. ``check`` raises with both."""
    proc = subprocess.run(
        java_argv(main_class, args, jvm_opts),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    if check and proc.returncode != 0:
        raise RuntimeError(
            f"{main_class} {' '.join(args)} exited {proc.returncode}\n"
            f"--- stdout ---\n{proc.stdout[-4000:]}\n--- stderr ---\n{proc.stderr[-4000:]}"
        )
    return proc


def java_popen(
    main_class: str, *args: str, jvm_opts: Sequence[str] = TOOL_JVM_OPTS, stderr: int | None = None
) -> subprocess.Popen[str]:
    """Start a Java main class in the background, stdout piped as text lines."""
    return subprocess.Popen(
        java_argv(main_class, args, jvm_opts),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if stderr is None else stderr,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )


def stop_process(proc: subprocess.Popen[str], timeout: float = 15.0) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def _free_ports(n: int) -> list[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind((LOOPBACK, 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _random_cluster_id() -> str:
    # Like Kafka's Uuid.randomUuid: never one starting with '-', which kafka-storage's argument
    # parser would read as an option ("argument --cluster-id/-t: expected one argument")
    while True:
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not cluster_id.startswith("-"):
            return cluster_id


def spark_jars(kafka: bool = True, delta: bool = True) -> list[str]:
    """Jars to put on ``spark.jars`` for Spark's Kafka connector and/or delta-spark.

    Only jars whose artifact pyspark does not already ship: two versions of Scala, Jackson,
    Hadoop or Parquet on one classpath break Spark.
    """
    if not spark_peers_available():
        raise PeersMissing(f"{SPARK_KAFKA_LIB} is missing: run ./scripts/setup.sh (needs mvn)")
    import pyspark

    shipped = {_artifact(p.name) for p in (Path(pyspark.__file__).parent / "jars").glob("*.jar")}
    folders = ([SPARK_KAFKA_LIB] if kafka else []) + ([DELTA_LIB] if delta else [])
    jars = {p.name: p for folder in folders for p in folder.glob("*.jar") if _artifact(p.name) not in shipped}
    return sorted(str(p) for p in jars.values())


def _artifact(jar_name: str) -> str:
    """``jackson-core-2.13.5.jar`` -> ``jackson-core`` (the name before the first -<digit>)."""
    stem = jar_name.removesuffix(".jar")
    parts = stem.split("-")
    for i, part in enumerate(parts):
        if i > 0 and part[:1].isdigit():
            return "-".join(parts[:i])
    return stem


class ApacheKafka:
    """Apache Kafka in KRaft combined mode: ``nodes`` JVMs, each broker and voter.

    ``with ApacheKafka() as kafka: kafka.bootstrap_servers``. Ready means every node answers a
    Metadata request that lists all brokers. ``kill(i)`` sends SIGKILL, ``start(i)`` restarts
    node ``i`` on the same ports and log dir.
    """

    def __init__(
        self,
        nodes: int = 1,
        *,
        num_partitions: int = 1,
        heap: str = DEFAULT_HEAP,
        jvm_opts: Sequence[str] = ("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
        overrides: dict[str, object] | None = None,
        start_timeout: float = 60.0,
        extra_listeners: dict[str, str] | None = None,
        scram_users: Sequence[tuple[str, str, str]] = (),
    ) -> None:
        """``extra_listeners``: listener name -> security protocol (e.g. ``{"SASL_SSL": "SASL_SSL",
        "SSL": "SSL"}``), each on its own free port beside PLAINTEXT (which stays the inter-broker
        and readiness listener); their ``listener.name.*`` settings go in ``overrides``.
        ``scram_users``: (mechanism, user, password) stored at format time (``--add-scram``)."""
        _require_kafka_lib()
        self.nodes = nodes
        self.num_partitions = num_partitions
        self.heap = heap
        self.jvm_opts = tuple(jvm_opts)
        self.overrides = dict(overrides or {})
        self.start_timeout = start_timeout
        self._tmp = Path(tempfile.mkdtemp(prefix="apache-kafka-"))
        self.extra_listeners = dict(extra_listeners or {})
        self.scram_users = tuple(scram_users)
        ports = _free_ports((2 + len(self.extra_listeners)) * nodes)
        self.ports = ports[:nodes]
        self.controller_ports = ports[nodes : 2 * nodes]
        self.listener_ports = {
            name: ports[(2 + k) * nodes : (3 + k) * nodes] for k, name in enumerate(self.extra_listeners)
        }
        self.cluster_id = _random_cluster_id()
        self._procs: dict[int, subprocess.Popen[bytes]] = {}
        self.start_seconds: float | None = None

    # -- layout -----------------------------------------------------------------------------
    def node_dir(self, i: int) -> Path:
        return self._tmp / f"node-{i}"

    def log_dir(self, i: int) -> Path:
        return self.node_dir(i) / "data"

    def _properties(self, i: int) -> str:
        rf = min(3, self.nodes)
        voters = ",".join(f"{j}@{LOOPBACK}:{self.controller_ports[j]}" for j in range(self.nodes))
        extra = "".join(f",{name}://{LOOPBACK}:{self.listener_ports[name][i]}" for name in self.extra_listeners)
        extra_map = "".join(f",{name}:{proto}" for name, proto in self.extra_listeners.items())
        props: dict[str, object] = {
            "process.roles": "broker,controller",
            "node.id": i,  # 0-based like EmbeddedBroker (node 0)
            "controller.quorum.voters": voters,
            "listeners": f"PLAINTEXT://{LOOPBACK}:{self.ports[i]},CONTROLLER://{LOOPBACK}:{self.controller_ports[i]}"
            + extra,
            "advertised.listeners": f"PLAINTEXT://{LOOPBACK}:{self.ports[i]}" + extra,
            "controller.listener.names": "CONTROLLER",
            "inter.broker.listener.name": "PLAINTEXT",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT" + extra_map,
            "log.dirs": self.log_dir(i),
            "num.partitions": self.num_partitions,
            "default.replication.factor": rf,
            "offsets.topic.replication.factor": rf,
            "offsets.topic.num.partitions": 4,
            "transaction.state.log.replication.factor": rf,
            "transaction.state.log.min.isr": min(2, rf),
            "transaction.state.log.num.partitions": 4,
            "share.coordinator.state.topic.replication.factor": rf,
            "share.coordinator.state.topic.min.isr": min(2, rf),
            "group.initial.rebalance.delay.ms": 0,
            "auto.create.topics.enable": "true",
            "num.network.threads": 2,
            "num.io.threads": 2,
            "background.threads": 2,
        }
        props.update(self.overrides)
        return "".join(f"{k}={v}\n" for k, v in props.items())

    def _format(self, i: int) -> None:
        node = self.node_dir(i)
        node.mkdir(parents=True, exist_ok=True)
        config = node / "server.properties"
        config.write_text(self._properties(i))
        scram = [
            a for mech, user, pw in self.scram_users for a in ("--add-scram", f"{mech}=[name={user},password={pw}]")
        ]
        java_tool(
            "kafka.tools.StorageTool", "format", "-t", self.cluster_id, "-c", str(config), "--ignore-formatted", *scram
        )

    # -- lifecycle --------------------------------------------------------------------------
    def _spawn(self, i: int) -> None:
        node = self.node_dir(i)
        log = open(node / "kafka.log", "ab")  # noqa: SIM115 - owned by the child
        argv = java_argv(
            "kafka.Kafka",
            [str(node / "server.properties")],
            jvm_opts=(self.heap, f"-Xms{self.heap.removeprefix('-Xmx')}", *self.jvm_opts, "-Djava.awt.headless=true"),
        )
        self._procs[i] = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
        )
        log.close()

    def start(self, i: int | None = None) -> ApacheKafka:
        """Start every node (formatting storage first), or restart node ``i``; wait until ready."""
        t0 = time.monotonic()
        which = range(self.nodes) if i is None else [i]
        for j in which:
            if not (self.node_dir(j) / "server.properties").exists():
                self._format(j)
        t_spawn = time.monotonic()
        for j in which:
            if not self.is_running(j):
                self._spawn(j)
        try:
            self.wait_ready(list(which))
        except Exception:
            if i is None:
                self.close()
            raise
        self.start_seconds = time.monotonic() - t_spawn
        self.format_and_start_seconds = time.monotonic() - t0
        return self

    def wait_ready(self, nodes: Sequence[int] | None = None, timeout: float | None = None) -> None:
        from confluent_kafka.admin import AdminClient

        deadline = time.monotonic() + (timeout or self.start_timeout)
        want = self.nodes if nodes is None or len(nodes) == self.nodes else None
        for j in nodes if nodes is not None else range(self.nodes):
            admin = AdminClient({"bootstrap.servers": self.bootstrap(j), "log_level": 0, "logger": _quiet_logger()})
            while True:
                proc = self._procs.get(j)
                if proc is not None and proc.poll() is not None:
                    raise RuntimeError(f"Apache Kafka node {j} exited {proc.returncode}:\n{self.log_tail(j)}")
                try:
                    md = admin.list_topics(timeout=1.0)
                    if want is None or len(md.brokers) >= want:
                        break
                except Exception:  # noqa: BLE001 - not up yet
                    pass
                if time.monotonic() > deadline:
                    raise TimeoutError(f"Apache Kafka node {j} not ready:\n{self.log_tail(j)}")
                time.sleep(0.1)

    def log_tail(self, i: int, chars: int = 4000) -> str:
        path = self.node_dir(i) / "kafka.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""

    def is_running(self, i: int) -> bool:
        proc = self._procs.get(i)
        return proc is not None and proc.poll() is None

    def pid(self, i: int = 0) -> int:
        return self._procs[i].pid

    def kill(self, i: int) -> None:
        """SIGKILL node ``i`` (no clean shutdown)."""
        proc = self._procs.get(i)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)

    def stop(self, i: int, timeout: float = 30.0) -> None:
        proc = self._procs.get(i)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill(i)

    def close(self) -> None:
        # SIGTERM all at once (a controlled shutdown of one node waits for the others), then kill.
        for proc in self._procs.values():
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for j, proc in self._procs.items():
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.kill(j)
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> ApacheKafka:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- addresses --------------------------------------------------------------------------
    def bootstrap(self, i: int) -> str:
        return f"{LOOPBACK}:{self.ports[i]}"

    @property
    def bootstrap_servers(self) -> str:
        return ",".join(self.bootstrap(j) for j in range(self.nodes))

    def listener_bootstrap(self, name: str, host: str = LOOPBACK) -> str:
        """Bootstrap servers of an ``extra_listeners`` listener (``host``: the name dialled)."""
        return ",".join(f"{host}:{p}" for p in self.listener_ports[name])


def _quiet_logger() -> object:
    import logging

    logger = logging.getLogger("peers.jvm.admin")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False
    return logger


@contextlib.contextmanager
def apache_kafka(nodes: int = 1, **kwargs: object) -> Iterator[ApacheKafka]:
    with ApacheKafka(nodes, **kwargs) as kafka:  # type: ignore[arg-type]
        yield kafka


def _jar_version(folder: Path, prefix: str) -> str | None:
    for jar in folder.glob(f"{prefix}*.jar"):
        return jar.name.removeprefix(prefix).removesuffix(".jar")
    return None


def spark_peer_versions() -> dict[str, str | None]:
    """The Spark (of Spark's Kafka connector) and Delta versions peers/pom.xml resolved."""
    return {
        "spark": _jar_version(SPARK_KAFKA_LIB, "spark-sql-kafka-0-10_2.13-"),
        "delta": _jar_version(DELTA_LIB, "delta-spark_2.13-"),
    }


def spark_avro_version() -> str | None:
    """The version of spark-avro (Spark's own ``from_avro``/``to_avro``) among Spark's Kafka
    connector jars (it rides on ``spark_jars(kafka=True)``), or None if it was not resolved."""
    return _jar_version(SPARK_KAFKA_LIB, "spark-avro_2.13-")


def delta_spark_usable() -> str | None:
    """None when delta-spark can run in this pyspark, else the reason it cannot.

    delta-spark is compiled against one Spark minor version and calls Spark internals: a
    different minor fails at run time (NoSuchMethodError), so it is only loaded on a match.
    """
    import pyspark

    versions = spark_peer_versions()
    if versions["delta"] is None or versions["spark"] is None:
        return f"delta-spark is not in {DELTA_LIB} (run ./scripts/setup.sh)"
    built_for = ".".join(versions["spark"].split(".")[:2])
    running = ".".join(pyspark.__version__.split(".")[:2])
    if built_for != running:
        return (
            f"delta-spark {versions['delta']} is built for Spark {built_for}, this pyspark is {pyspark.__version__} "
            f"(Maven Central serves no Spark {running} jars yet)"
        )
    return None


def spark_conf(kafka: bool = True, delta: bool = True) -> dict[str, str]:
    """SparkSession settings that put Spark's Kafka connector and/or delta-spark on the classpath
    from the local jars (never ``spark.jars.packages``). Raises :class:`PeersMissing` if asked
    for a peer that is not installed or (delta) cannot run in this pyspark."""
    if delta:
        reason = delta_spark_usable()
        if reason:
            raise PeersMissing(reason)
    conf = {"spark.jars": ",".join(spark_jars(kafka=kafka, delta=delta))}
    if delta:
        conf["spark.sql.extensions"] = "io.delta.sql.DeltaSparkSessionExtension"
        conf["spark.sql.catalog.spark_catalog"] = "org.apache.spark.sql.delta.catalog.DeltaCatalog"
    return conf


def spark_with(kafka: bool = True, delta: bool = True, master: str = "local[2]", **conf: str) -> Any:
    """A new SparkSession with the requested JVM peers (for bench/ and scripts; the tests share
    the one session of tests/spark/conftest.py instead)."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(master).config("spark.ui.enabled", "false")
    for key, value in {**spark_conf(kafka=kafka, delta=delta), **conf}.items():
        builder = builder.config(key.replace("__", "."), value)
    return builder.getOrCreate()
