"""ShareAcknowledge (API 79): acknowledgements outside a fetch, in the member's share session.

The session epoch must be the session's current one (0 cannot open a session here); -1 ends the
session after the acknowledgements and releases the member's other acquired records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.apis.share_fetch import after_state_written, apply_acknowledgements
from broker_embedded.features import share_groups_enabled
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.share.partition import SharePartitionError
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import share_acknowledge_request as rq
from kafka_wire.protocol.messages import share_acknowledge_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 79


def handle(broker: Broker, ctx: RequestContext, request: rq.ShareAcknowledgeRequest) -> Any:
    def error(code: ErrorCode, message: str | None = None) -> rs.ShareAcknowledgeResponse:
        return rs.ShareAcknowledgeResponse(error_code=code, error_message=message, responses=[], node_endpoints=[])

    if not share_groups_enabled(broker):  # share.version 0, before any other check (Kafka's KafkaApis)
        return error(ErrorCode.UNSUPPORTED_VERSION)
    group_id, member_id = request.group_id, request.member_id
    if not group_id or not member_id:
        return error(ErrorCode.INVALID_REQUEST, "GroupId and MemberId are required.")
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, group_id):
        return error(denied)
    share = broker.share_coordinator
    try:
        final = share.sessions.acknowledge_session_update(group_id, member_id, request.share_session_epoch)
    except SharePartitionError as e:
        return error(ErrorCode(e.code), str(e))
    acks = apply_acknowledgements(broker, ctx, group_id, member_id, request.topics)
    if final:
        owned = share.sessions.release_session(group_id, member_id)
        names = []
        for tid_hex, index in owned:
            meta = broker.topics.by_id.get(bytes.fromhex(tid_hex))
            if meta is not None:
                names.append((meta.name, index))
        share.partitions.release_member(group_id, member_id, names)
    topics: dict[bytes, list[rs.PartitionData]] = {}
    for (tid, index), (code, message) in acks.items():
        meta = broker.topics.by_id.get(tid)
        p = broker.partition(meta.name, index) if meta is not None else None
        leader = (p.leader_id, p.leader_epoch) if p is not None else (-1, -1)
        topics.setdefault(tid, []).append(
            rs.PartitionData(
                partition_index=index,
                error_code=code,
                error_message=message,
                current_leader=rs.LeaderIdAndEpoch(leader_id=leader[0], leader_epoch=leader[1]),
            )
        )
    response = rs.ShareAcknowledgeResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        acquisition_lock_timeout_ms=share.settings(group_id).record_lock_duration_ms,
        responses=[rs.ShareAcknowledgeTopicResponse(topic_id=t, partitions=ps) for t, ps in topics.items()],
        node_endpoints=[],
    )
    return after_state_written(broker, acks, response)
