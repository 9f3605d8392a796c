"""BrokerRegistration (62, KIP-631) on the Raft controller listener, served by the active controller
(`QuorumControllerServer`, raft mode; lock mode keeps the JSON controller protocol). The registration is a
RegisterBrokerRecord in `__cluster_metadata`, answered once committed. As in Kafka, a broker registers
fenced: a BrokerHeartbeat unfences it once its metadata offset reached its registration record. A new
incarnation under a live broker id fences the old one first (it died without a controlled shutdown)."""

from __future__ import annotations

import uuid
from typing import Any, Protocol

from broker_embedded.raft.codecs import broker_registration_request as rq
from broker_embedded.raft.codecs import broker_registration_response as rs
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 62


class ActiveController(Protocol):
    """What QuorumControllerServer offers the broker RPCs (structural: it imports these modules)."""

    active: bool
    last_heartbeat: dict[int, float]
    registration_offsets: dict[int, int]

    @property
    def state(self) -> Any: ...

    def push(self) -> None: ...

    async def commit_appended(self) -> int | None:
        """Waits until this request's records are committed: their last offset (None: not committed)."""
        ...


def incarnation_str(raw: Any) -> str:
    return str(uuid.UUID(bytes=raw)) if isinstance(raw, bytes) and len(raw) == 16 else str(raw)


async def serve(
    controller: ActiveController, body: rq.BrokerRegistrationRequest, now: float
) -> rs.BrokerRegistrationResponse:
    if not controller.active:
        return rs.BrokerRegistrationResponse(error_code=int(ErrorCode.NOT_CONTROLLER), broker_epoch=-1)
    s = controller.state
    if body.cluster_id and s.cluster_id and body.cluster_id != s.cluster_id:
        return rs.BrokerRegistrationResponse(error_code=int(ErrorCode.INCONSISTENT_CLUSTER_ID), broker_epoch=-1)
    if not body.listeners:
        return rs.BrokerRegistrationResponse(error_code=int(ErrorCode.INVALID_REQUEST), broker_epoch=-1)
    first = body.listeners[0]
    listeners = {lst.name: (lst.host, int(lst.port)) for lst in body.listeners}
    incarnation = incarnation_str(body.incarnation_id)
    epoch = s.register_broker(body.broker_id, first.host, int(first.port), body.rack, incarnation, listeners)
    s.fence_broker(body.broker_id)  # registered fenced, as KRaft: unfenced by a caught-up heartbeat
    controller.last_heartbeat[body.broker_id] = now
    offset = await controller.commit_appended()
    if offset is None:
        return rs.BrokerRegistrationResponse(error_code=int(ErrorCode.REQUEST_TIMED_OUT), broker_epoch=-1)
    controller.registration_offsets[body.broker_id] = offset
    controller.push()
    return rs.BrokerRegistrationResponse(error_code=0, broker_epoch=epoch)
