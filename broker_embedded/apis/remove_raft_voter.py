"""RemoveRaftVoter (81, KIP-853) on the controller listener: the leader appends a VotersRecord without the
voter and answers once it is committed. A leader that removes itself resigns once the change commits (the
core). Errors: NOT_LEADER_OR_FOLLOWER, VOTER_NOT_FOUND (also for a voter key with another directory id),
REQUEST_TIMED_OUT while another change is uncommitted, INVALID_REQUEST for the last voter."""

from __future__ import annotations

from broker_embedded.apis.add_raft_voter import VoterChanges, error_of, known_directory
from broker_embedded.raft.codecs import remove_raft_voter_request as rq
from broker_embedded.raft.codecs import remove_raft_voter_response as rs
from broker_embedded.raft.node import NotLeaderError, VoterChangeError
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 81


async def serve(driver: VoterChanges, body: rq.RemoveRaftVoterRequest, timeout_s: float) -> rs.RemoveRaftVoterResponse:
    if not known_directory(body.voter_directory_id):
        msg = f"no voter {body.voter_id} with that directory id"
        return rs.RemoveRaftVoterResponse(error_code=int(ErrorCode.VOTER_NOT_FOUND), error_message=msg)
    try:
        offset = driver.change_voters(body.voter_id, adding=False)
        await driver.wait_committed(offset, timeout_s)
    except (NotLeaderError, VoterChangeError, TimeoutError) as e:
        code, msg = error_of(e)
        return rs.RemoveRaftVoterResponse(error_code=int(code), error_message=msg)
    return rs.RemoveRaftVoterResponse(error_code=0)
