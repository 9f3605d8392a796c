"""Shared fixtures: an embedded broker per test module, unique topic names, client helpers,
the JVM peers (tests/peers/fixtures.py)."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator

import pytest

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

from broker_embedded import EmbeddedBroker  # noqa: E402
from tests.peers.fixtures import apache_kafka, apache_kafka_cluster, either_broker, java_client  # noqa: E402, F401


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(num_partitions=4) as b:
        yield b


@pytest.fixture
def topic_name(request: pytest.FixtureRequest) -> str:
    base = "".join(c if c.isalnum() else "-" for c in request.node.name)[:60]
    return f"{base}-{uuid.uuid4().hex[:8]}"
