"""Issue 13, broker side: the Java clients (Kafka's own ProducerPerformance / ConsumerPerformance
with a client properties file) against `EmbeddedBroker(secure=True)` over SASL_SSL with
SCRAM-SHA-512 and over mTLS (JKS keystore and truststore written by pyjks)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from broker_embedded import EmbeddedBroker
from peers import jvm
from tests.peers.fixtures import JavaClient, java_client  # noqa: F401  (fixture)

pytestmark = pytest.mark.slow

RECORDS = 200


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(secure=True, num_partitions=2) as b:
        yield b


@pytest.mark.parametrize("listener,mechanism,mtls", [("SASL_SSL", "SCRAM-SHA-512", False), ("SSL", None, True)],
                         ids=["sasl_ssl-scram-sha-512", "mtls"])  # fmt: skip
def test_java_producer_and_consumer(
    broker: EmbeddedBroker,
    java_client: JavaClient,  # noqa: F811
    tmp_path: Path,
    listener: str,
    mechanism: str | None,
    mtls: bool,
) -> None:
    s = broker.secure
    assert s is not None
    props = s.write_properties(tmp_path / "client.properties", s.client_properties(listener, mechanism, mtls=mtls))
    bootstrap = broker.bootstrap(listener)
    topic = f"java-{uuid.uuid4().hex[:8]}"
    java_client.run(
        jvm.PRODUCER_PERF,
        "--topic", topic,
        "--num-records", str(RECORDS),
        "--record-size", "100",
        "--throughput", "-1",
        "--producer-props", f"bootstrap.servers={bootstrap}", "acks=all",
        "--producer.config", str(props),
        timeout=90,
    )  # fmt: skip
    out = java_client.run(
        jvm.CONSUMER_PERF,
        "--bootstrap-server", bootstrap,
        "--topic", topic,
        "--messages", str(RECORDS),
        "--group", f"g-{topic}",
        "--consumer.config", str(props),
        "--timeout", "30000",
        timeout=90,
    ).stdout  # fmt: skip
    # ConsumerPerformance prints a CSV row: start, end, MB, MB/s, records, records/s, ...
    rows = [line for line in out.splitlines() if re.match(r"^\d{4}-\d\d-\d\d", line)]
    assert rows, out
    assert int(rows[-1].split(",")[4].strip()) == RECORDS, out
