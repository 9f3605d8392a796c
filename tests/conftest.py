"""Shared fixtures: an embedded broker per test module, unique topic names, client helpers,
the JVM peers (tests/peers/fixtures.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

# pytest-pykafka's fixtures (kafka_broker, kafka_topic, ...): also an installed pytest11 entry point
# of the same name, so this is a no-op once the package is (re)installed.
pytest_plugins = ["pytest_pykafka.plugin"]

import connector.worker_gc  # noqa: E402
from broker_embedded import EmbeddedBroker  # noqa: E402

# The executor's read and write paths freeze the GC once per Python worker (connector.worker_gc). A
# test calling them in pytest's own process (read_partition without Spark) would freeze everything
# alive at that moment (113,915 objects after test_client_stack) for the rest of the run, so cyclic
# garbage of earlier tests never dies and every later test runs with another GC. Spark's workers and the
# subprocess tests still freeze.
connector.worker_gc._gc_frozen = True
from tests.peers.fixtures import (  # noqa: E402, F401
    apache_kafka,
    apache_kafka_cluster,
    either_broker,
    java_client,
    kafka_tools,
)
from tests.s3_fixtures import s3_prefix, s3_server  # noqa: E402, F401


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(num_partitions=4) as b:
        yield b


@pytest.fixture
def topic_name(request: pytest.FixtureRequest) -> str:
    from pytest_pykafka.plugin import unique_topic_name  # imported late: pytest rewrites the plugin's asserts

    return unique_topic_name(request)
