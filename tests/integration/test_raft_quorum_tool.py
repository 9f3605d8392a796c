"""`kafka-metadata-quorum --bootstrap-controller ... describe --status / --replication` (Kafka 4.3.1's
MetadataQuorumCommand) against our Raft controllers (EmbeddedCluster quorum="raft", issue 32) and against
Apache Kafka's 3-node quorum: the same fields and columns, three voters with one leader among them, a
high watermark, and every voter caught up (Lag 0 once the quorum is idle)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.clients_util import wait_until
from tests.integration.cluster_util import cluster

METADATA_QUORUM = "org.apache.kafka.tools.MetadataQuorumCommand"

pytestmark = [pytest.mark.timeout(180)]


@pytest.fixture(scope="module", params=["ours", "apache"])
def controller(request: pytest.FixtureRequest) -> Iterator[str]:
    """One controller's HOST:PORT (the CONTROLLER listener)."""
    if request.param == "ours":
        with cluster(1, controllers=3, quorum="raft") as c:
            yield f"127.0.0.1:{c.raft_ports[0]}"
        return
    kafka = request.getfixturevalue("apache_kafka_cluster")
    yield f"127.0.0.1:{kafka.controller_ports[0]}"


def _status(java_client: Any, controller: str) -> dict[str, str]:
    out = java_client.run(METADATA_QUORUM, "--bootstrap-controller", controller, "describe", "--status").stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines() if ":" in line)}


def _replication(java_client: Any, controller: str) -> tuple[list[str], list[dict[str, str]]]:
    out = java_client.run(METADATA_QUORUM, "--bootstrap-controller", controller, "describe", "--replication").stdout
    lines = [re.split(r"\s*\t\s*", line.strip()) for line in out.splitlines() if line.strip()]
    header, rows = lines[0], lines[1:]
    return header, [dict(zip(header, row, strict=False)) for row in rows]


def test_describe_status_and_replication(controller: str, java_client: Any) -> None:
    status = _status(java_client, controller)
    assert list(status) == [
        "ClusterId", "LeaderId", "LeaderEpoch", "HighWatermark", "MaxFollowerLag", "MaxFollowerLagTimeMs",
        "CurrentVoters", "CurrentObservers",
    ]  # fmt: skip
    voters = json.loads(status["CurrentVoters"])
    assert len(voters) == 3 and all(v["endpoints"][0].startswith("CONTROLLER://") for v in voters)
    assert int(status["LeaderId"]) in {v["id"] for v in voters}
    assert int(status["LeaderEpoch"]) >= 1 and int(status["HighWatermark"]) > 0
    assert status["ClusterId"]

    def caught_up() -> tuple[list[str], list[dict[str, str]]] | None:
        header, rows = _replication(java_client, controller)
        voters_rows = [r for r in rows if r["Status"] in ("Leader", "Follower")]
        return (header, rows) if len(voters_rows) == 3 and all(r["Lag"] == "0" for r in voters_rows) else None

    header, rows = wait_until(caught_up, 60, 0.5, "every voter caught up")
    assert header == [
        "NodeId", "DirectoryId", "LogEndOffset", "Lag", "LastFetchTimestamp", "LastCaughtUpTimestamp", "Status",
    ]  # fmt: skip
    assert [r["Status"] for r in rows].count("Leader") == 1
    leader = next(r for r in rows if r["Status"] == "Leader")
    assert leader["NodeId"] == status["LeaderId"]
