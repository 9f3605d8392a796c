"""AddRaftVoter (80, KIP-853): served on the controller listener by the Raft driver (ControllerApis, not the
broker's handler table). The leader appends a VotersRecord with the new voter once it is a caught-up observer
(the core's single-server rule: one uncommitted change at a time, and only after the leader committed in its
epoch) and answers once that record is committed (`AckWhenCommitted`, v1; v0 always waits).

Errors as Kafka's AddVoterHandler: NOT_LEADER_OR_FOLLOWER on a follower, DUPLICATE_VOTER, REQUEST_TIMED_OUT
while another change is uncommitted or the replica is behind, INVALID_REQUEST without a listener to reach it."""

from __future__ import annotations

from typing import Any, Protocol

from broker_embedded.raft.codecs import add_raft_voter_request as rq
from broker_embedded.raft.codecs import add_raft_voter_response as rs
from broker_embedded.raft.node import NotLeaderError, VoterChangeError
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.primitives import ZERO_UUID

RAFT_API_KEY = 80


class VoterChanges(Protocol):
    """What the driver offers these handlers (kept structural: the driver imports this module)."""

    endpoints: dict[int, tuple[str, int]]

    def change_voters(self, replica_id: int, adding: bool, endpoint: tuple[str, int] | None = None) -> int: ...

    async def wait_committed(self, offset: int, timeout: float) -> None: ...


def error_of(exc: Exception) -> tuple[ErrorCode, str]:
    """The core's refusals as wire errors (VoterChangeError names a Kafka error)."""
    if isinstance(exc, NotLeaderError):
        return ErrorCode.NOT_LEADER_OR_FOLLOWER, str(exc)
    if isinstance(exc, VoterChangeError):
        return ErrorCode[exc.error], str(exc)
    if isinstance(exc, TimeoutError):
        return ErrorCode.REQUEST_TIMED_OUT, "the voter change was not committed in time"
    raise exc


def known_directory(directory_id: Any) -> bool:
    """Our replicas have no directory ids yet (DescribeQuorum reports the zero Uuid), so a voter key names ours
    only with the zero Uuid; Kafka answers a key with another directory id as not found."""
    return directory_id in (None, ZERO_UUID, b"")


async def serve(
    driver: VoterChanges, body: rq.AddRaftVoterRequest, default_timeout_s: float
) -> rs.AddRaftVoterResponse:
    if not body.listeners:
        return rs.AddRaftVoterResponse(error_code=int(ErrorCode.INVALID_REQUEST), error_message="no listeners")
    if not known_directory(body.voter_directory_id):
        msg = "replica directory ids are not supported here: use the zero Uuid (AAAAAAAAAAAAAAAAAAAAAA)"
        return rs.AddRaftVoterResponse(error_code=int(ErrorCode.INVALID_VOTER_KEY), error_message=msg)
    timeout = body.timeout_ms / 1000 if body.timeout_ms > 0 else default_timeout_s
    first = body.listeners[0]
    try:
        # the leader must reach the new voter (BeginQuorumEpoch; Votes once it stands), and the VotersRecord
        # carries its listener to every replica
        offset = driver.change_voters(body.voter_id, adding=True, endpoint=(first.host, int(first.port)))
    except (NotLeaderError, VoterChangeError) as e:
        code, msg = error_of(e)
        return rs.AddRaftVoterResponse(error_code=int(code), error_message=msg)
    if body.ack_when_committed:
        try:
            await driver.wait_committed(offset, timeout)
        except (NotLeaderError, TimeoutError) as e:
            code, msg = error_of(e)
            return rs.AddRaftVoterResponse(error_code=int(code), error_message=msg)
    return rs.AddRaftVoterResponse(error_code=0)
