"""Shared fixtures: an embedded broker per test module, unique topic names, client helpers."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator

import pytest

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

from broker_embedded import EmbeddedBroker  # noqa: E402


_SPARK_DIR = os.path.join(os.path.dirname(__file__), "spark")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Under pytest-xdist (scripts/test.sh runs `-n 2 --dist loadgroup`) every Spark test goes to
    # one worker: one SparkSession per run, and the tests that start Spark drivers in child
    # processes never compete with each other for the two cores.
    for item in items:
        if str(item.path).startswith(_SPARK_DIR):
            item.add_marker(pytest.mark.xdist_group("spark"))


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(num_partitions=4) as b:
        yield b


@pytest.fixture
def topic_name(request: pytest.FixtureRequest) -> str:
    base = "".join(c if c.isalnum() else "-" for c in request.node.name)[:60]
    return f"{base}-{uuid.uuid4().hex[:8]}"
