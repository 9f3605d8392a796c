"""The pytest plugin (entry point ``pytest11``: ``pytest_pykafka.plugin``).

Fixtures (scope in brackets):

* ``kafka_broker`` [function] -- a fresh :class:`~broker_embedded.EmbeddedBroker` per test; broker
  configs from ``@pytest.mark.kafka_broker(num_partitions=4, ...)``.
* ``kafka_broker_shared`` [session] -- one embedded broker for the whole run (per xdist worker).
* ``kafka_cluster`` [function] -- an :class:`~broker_embedded.EmbeddedCluster`; brokers,
  controllers and configs from ``@pytest.mark.kafka_cluster(brokers=3, controllers=1, ...)``.
* ``kafka_bootstrap`` [function] -- ``bootstrap.servers`` of ``kafka_broker``.
* ``kafka_admin`` [function] -- a confluent-kafka ``AdminClient`` on ``kafka_broker``.
* ``kafka_topic`` [function] -- a fresh, created topic name (partitions from
  ``@pytest.mark.kafka_topic(partitions=3, config={...})``); ``kafka_topic_factory`` makes several.
* ``kafka_producer`` / ``kafka_consumer`` [function] -- configured confluent-kafka clients (the
  consumer in its own group, ``auto.offset.reset=earliest``); closed after the test.
* ``spark`` [session] -- a local SparkSession with the ``pykafka``/``pykafka-delta`` formats
  registered (a project conftest that defines ``spark`` overrides it, as usual in pytest).

External Kafka: ``--kafka-bootstrap=HOST:PORT`` (or ini ``kafka_bootstrap``, or env
``PYKAFKA_TEST_BOOTSTRAP``) runs the same tests against that cluster: ``kafka_broker`` and
``kafka_broker_shared`` then yield an :class:`ExternalKafka` (``bootstrap_servers`` only), topics are
still fresh per test and are deleted afterwards. Tests that reach into the embedded broker's internals
mark themselves ``@pytest.mark.kafka_embedded_only`` and are skipped in that mode.

pytest-xdist: every fixture lives in the worker process that uses it, so each worker gets its own
brokers (session scope = one per worker); topic names are unique across workers.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker, EmbeddedCluster

ENV_BOOTSTRAP = "PYKAFKA_TEST_BOOTSTRAP"


@dataclass
class ExternalKafka:
    """A Kafka cluster the tests did not start (``--kafka-bootstrap``): only its address is known."""

    bootstrap_servers: str
    external: bool = field(default=True, init=False)


def unique_topic_name(request: pytest.FixtureRequest | None = None, prefix: str = "") -> str:
    """A legal topic name derived from the test's name, unique across runs and xdist workers."""
    base = prefix or ("".join(c if c.isalnum() else "-" for c in request.node.name)[:60] if request else "topic")
    return f"{base}-{uuid.uuid4().hex[:8]}"


# --- options and markers ------------------------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pykafka", "Kafka fixtures (pytest-pykafka)")
    group.addoption(
        "--kafka-bootstrap",
        default=None,
        metavar="HOST:PORT",
        help="run the Kafka fixtures against this external cluster instead of an embedded broker",
    )
    parser.addini("kafka_bootstrap", "external bootstrap.servers for the Kafka fixtures (as --kafka-bootstrap)")


def pytest_configure(config: pytest.Config) -> None:
    for line in (
        "kafka_broker(**configs): broker configs (Kafka names, '.' or '_') for the kafka_broker fixture",
        "kafka_cluster(brokers=3, controllers=2, **configs): shape of the kafka_cluster fixture",
        "kafka_topic(partitions=1, config=None): the kafka_topic fixture's topic",
        "kafka_embedded_only: the test needs the embedded broker (skipped with --kafka-bootstrap)",
    ):
        config.addinivalue_line("markers", line)


def external_bootstrap(config: pytest.Config) -> str | None:
    """The external bootstrap the fixtures use, or None for embedded brokers."""
    value = config.getoption("--kafka-bootstrap") or config.getini("kafka_bootstrap") or os.environ.get(ENV_BOOTSTRAP)
    return str(value) if value else None


def pytest_report_header(config: pytest.Config) -> str:
    ext = external_bootstrap(config)
    return f"pykafka: Kafka fixtures against {ext}" if ext else "pykafka: Kafka fixtures on embedded brokers"


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("kafka_embedded_only") and external_bootstrap(item.config):
        pytest.skip("needs the embedded broker (running with --kafka-bootstrap)")


def _marker_kwargs(request: pytest.FixtureRequest, name: str) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    # closest marker wins, but a class/module marker's keys still apply under a test's own marker
    for marker in reversed(list(request.node.iter_markers(name))):
        if marker.args:
            raise pytest.UsageError(f"@pytest.mark.{name} takes keyword arguments only, got {marker.args!r}")
        kwargs.update(marker.kwargs)
    return kwargs


# --- brokers ------------------------------------------------------------------------------------
@pytest.fixture
def kafka_broker(request: pytest.FixtureRequest) -> Iterator[EmbeddedBroker | ExternalKafka]:
    """A fresh embedded broker for this test (or the external cluster with --kafka-bootstrap)."""
    configs = _marker_kwargs(request, "kafka_broker")
    ext = external_bootstrap(request.config)
    if ext:
        yield ExternalKafka(ext)
        return
    with EmbeddedBroker(**configs) as broker:
        yield broker


@pytest.fixture(scope="session")
def kafka_broker_shared(request: pytest.FixtureRequest) -> Iterator[EmbeddedBroker | ExternalKafka]:
    """One embedded broker for the whole run (one per xdist worker)."""
    ext = external_bootstrap(request.config)
    if ext:
        yield ExternalKafka(ext)
        return
    with EmbeddedBroker() as broker:
        yield broker


@pytest.fixture
def kafka_cluster(request: pytest.FixtureRequest) -> Iterator[EmbeddedCluster | ExternalKafka]:
    """An embedded cluster of broker processes, shaped by ``@pytest.mark.kafka_cluster(...)``."""
    kwargs = _marker_kwargs(request, "kafka_cluster")
    ext = external_bootstrap(request.config)
    if ext:
        yield ExternalKafka(ext)
        return
    with EmbeddedCluster(**kwargs) as cluster:
        yield cluster


@pytest.fixture
def kafka_bootstrap(kafka_broker: EmbeddedBroker | ExternalKafka) -> str:
    return kafka_broker.bootstrap_servers


# --- clients ------------------------------------------------------------------------------------
def _confluent() -> Any:
    return pytest.importorskip("confluent_kafka", reason="confluent-kafka is needed for this fixture")


@pytest.fixture
def kafka_admin(kafka_bootstrap: str) -> Any:
    """A confluent-kafka AdminClient on ``kafka_broker``."""
    admin_mod = pytest.importorskip("confluent_kafka.admin")
    return admin_mod.AdminClient({"bootstrap.servers": kafka_bootstrap})


@pytest.fixture
def kafka_topic_factory(request: pytest.FixtureRequest, kafka_bootstrap: str) -> Iterator[Callable[..., str]]:
    """``make(partitions=1, config=None, name=None) -> topic``: creates fresh topics, deleted after
    the test on an external cluster (an embedded broker goes away with its log directory)."""
    admin_mod = pytest.importorskip("confluent_kafka.admin")
    admin = admin_mod.AdminClient({"bootstrap.servers": kafka_bootstrap})
    created: list[str] = []

    def make(partitions: int = 1, config: dict[str, Any] | None = None, name: str | None = None) -> str:
        topic = name or unique_topic_name(request)
        new = admin_mod.NewTopic(
            topic,
            num_partitions=partitions,
            replication_factor=-1,
            config={k: str(v) for k, v in (config or {}).items()},
        )
        admin.create_topics([new], operation_timeout=30)[topic].result(timeout=30)
        created.append(topic)
        return topic

    yield make
    if created and external_bootstrap(request.config):
        for fut in admin.delete_topics(created, operation_timeout=30).values():
            try:
                fut.result(timeout=30)
            except Exception:  # best effort: the cluster may already be gone
                pass


@pytest.fixture
def kafka_topic(request: pytest.FixtureRequest, kafka_topic_factory: Callable[..., str]) -> str:
    """A fresh topic for this test; ``@pytest.mark.kafka_topic(partitions=3, config={...})``."""
    return kafka_topic_factory(**_marker_kwargs(request, "kafka_topic"))


@pytest.fixture
def kafka_producer(kafka_bootstrap: str) -> Iterator[Any]:
    """A confluent-kafka Producer (idempotent, acks=all) on ``kafka_broker``; flushed after the test."""
    ck = _confluent()
    producer = ck.Producer({"bootstrap.servers": kafka_bootstrap, "enable.idempotence": True, "linger.ms": 5})
    yield producer
    producer.flush(10)


@pytest.fixture
def kafka_consumer(request: pytest.FixtureRequest, kafka_bootstrap: str) -> Iterator[Any]:
    """A confluent-kafka Consumer in a fresh group, reading from the earliest offset; closed after."""
    ck = _confluent()
    consumer = ck.Consumer(
        {
            "bootstrap.servers": kafka_bootstrap,
            "group.id": unique_topic_name(request, prefix="group"),
            "auto.offset.reset": "earliest",
            "enable.partition.eof": False,
        }
    )
    yield consumer
    consumer.close()


# --- spark --------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """A local SparkSession (one per run / xdist worker) with ``format("pykafka")`` and
    ``format("pykafka-delta")`` registered."""
    pytest.importorskip("pyspark", reason="pyspark is not installed (the `spark` extra)")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    import connector

    session = (
        SparkSession.builder.master("local[2]")
        .appName("pytest-pykafka")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.streaming.stopTimeout", "10s")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("WARN")
    connector.register(session)
    yield session
    session.stop()
