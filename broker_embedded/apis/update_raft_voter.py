"""UpdateRaftVoter (82, KIP-853) on the controller listener: a voter tells the leader its current listeners.
Checks as Kafka's UpdateVoterHandler: NOT_LEADER_OR_FOLLOWER off the leader, FENCED_LEADER_EPOCH for another
epoch, VOTER_NOT_FOUND for a key that is no voter, INVALID_REQUEST without a listener. The answer names the
leader (CurrentLeader). Limitation: our VotersRecord holds ids only, so the new endpoint is taken into the
leader's own table (it reaches the voter there) and is not replicated to the other voters."""

from __future__ import annotations

from typing import Protocol

from broker_embedded.apis.add_raft_voter import known_directory
from broker_embedded.raft.codecs import update_raft_voter_request as rq
from broker_embedded.raft.codecs import update_raft_voter_response as rs
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 82


class LeaderView(Protocol):
    endpoints: dict[int, tuple[str, int]]

    def leader_and_epoch(self) -> tuple[int | None, int, bool, frozenset[int]]:
        """(leader id, epoch, whether this node is the leader, the voter ids)"""
        ...


def serve(driver: LeaderView, body: rq.UpdateRaftVoterRequest) -> rs.UpdateRaftVoterResponse:
    leader, epoch, is_leader, voters = driver.leader_and_epoch()
    host, port = driver.endpoints.get(leader, ("", -1)) if leader is not None else ("", -1)
    current = rs.CurrentLeader(leader_id=-1 if leader is None else leader, leader_epoch=epoch, host=host, port=port)

    def answer(code: ErrorCode) -> rs.UpdateRaftVoterResponse:
        return rs.UpdateRaftVoterResponse(error_code=int(code), current_leader=current)

    if not is_leader:
        return answer(ErrorCode.NOT_LEADER_OR_FOLLOWER)
    if body.current_leader_epoch != epoch:
        return answer(ErrorCode.FENCED_LEADER_EPOCH)
    if body.voter_id not in voters or not known_directory(body.voter_directory_id):
        return answer(ErrorCode.VOTER_NOT_FOUND)
    if not body.listeners:
        return answer(ErrorCode.INVALID_REQUEST)
    first = body.listeners[0]
    driver.endpoints[body.voter_id] = (first.host, first.port)
    return answer(ErrorCode.NONE)
