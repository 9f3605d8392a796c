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


def _remove_controller(java_client: Any, controller: str, node_id: int, directory_id: str) -> Any:
    return java_client.run(
        METADATA_QUORUM, "--bootstrap-controller", controller, "remove-controller",
        "--controller-id", str(node_id), "--controller-directory-id", directory_id, check=False,
    )  # fmt: skip


def test_remove_controller(controller: str, java_client: Any, request: pytest.FixtureRequest) -> None:
    """`remove-controller` (RemoveRaftVoter, KIP-853) through Kafka's tool. The shared Apache fixture is a static
    quorum (`controller.quorum.voters`, kraft.version 0), which refuses any voter change as UNSUPPORTED_VERSION;
    ours behaves as a dynamic quorum (kraft.version 1) and answers VOTER_NOT_FOUND for a key that is no voter.
    On ours only (the shared Apache quorum must stay whole) a follower is then removed: the leader keeps its
    epoch with the other voter, and the removed controller fetches on as an observer. Ours has no replica
    directory ids (DescribeQuorum shows the zero Uuid), so its voters are removed by the zero Uuid."""
    missing = _remove_controller(java_client, controller, 99, "MQ3ZUlWoSeaPKKVVC1xNBg")
    assert missing.returncode != 0
    if request.node.callspec.params["controller"] == "apache":
        assert "kraft.version feature is 0" in missing.stderr, missing.stderr
        return
    assert "VoterNotFoundException" in missing.stderr, missing.stderr
    status = _status(java_client, controller)
    leader, epoch = int(status["LeaderId"]), int(status["LeaderEpoch"])
    voters = [v["id"] for v in json.loads(status["CurrentVoters"])]
    follower = next(v for v in voters if v != leader)
    removed = _remove_controller(java_client, controller, follower, "AAAAAAAAAAAAAAAAAAAAAA")
    assert removed.returncode == 0, removed.stderr
    assert f"Removed  KRaft controller {follower}" in removed.stdout  # sic: two spaces, Kafka's format string

    def observed() -> dict[str, str] | None:
        after = _status(java_client, controller)
        observers = [o["id"] for o in json.loads(after["CurrentObservers"])]
        return after if follower in observers else None

    after = wait_until(observed, 30, 0.5, "the removed controller fetching as an observer")
    assert sorted(v["id"] for v in json.loads(after["CurrentVoters"])) == sorted(v for v in voters if v != follower)
    assert (int(after["LeaderId"]), int(after["LeaderEpoch"])) == (leader, epoch)
