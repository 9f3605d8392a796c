"""BrokerRegistration (62, KIP-631) on the Raft controller listener, served by the active controller
(`QuorumControllerServer`, raft mode; lock mode keeps the JSON controller protocol). The registration is a
RegisterBrokerRecord in `__cluster_metadata`, answered once committed. As in Kafka (ClusterControlManager):
- the broker epoch is the offset of that record, and a new incarnation registers fenced in that same record
  (a BrokerHeartbeat unfences it once its metadata offset reached the record);
- the same incarnation again (a retry, or a new leader) amends the registration: epoch and fencing kept;
- a new incarnation while the old one's session is alive is DUPLICATE_BROKER_REGISTRATION (another process
  holds the id); once that session expired the old one was fenced, and the new one takes the id;
- a new incarnation's log dirs are online again (KIP-858): replicas it reported offline count again, and a
  partition they left without a leader gets it back (controller/log_dir_failures.py), in the same commit."""

from __future__ import annotations

import uuid
from typing import Any, Protocol

from broker_embedded.controller.log_dir_failures import directories_online_again
from broker_embedded.raft.codecs import broker_registration_request as rq
from broker_embedded.raft.codecs import broker_registration_response as rs
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 62


class ActiveController(Protocol):
    """What QuorumControllerServer offers the broker RPCs (structural: it imports these modules)."""

    last_heartbeat: dict[int, float]
    session_timeout_s: float

    @property
    def active(self) -> bool: ...

    @property
    def state(self) -> Any: ...

    def push(self) -> None: ...

    def next_metadata_offset(self) -> int:
        """The offset the next record appended to `__cluster_metadata` gets."""
        ...

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
    listeners = {lst.name: [lst.host, int(lst.port)] for lst in body.listeners}
    incarnation = incarnation_str(body.incarnation_id)
    existing = s.brokers.get(body.broker_id)
    if existing is not None and existing.incarnation == incarnation:
        epoch, fenced = existing.broker_epoch, existing.fenced  # Kafka amends: same epoch, same fencing
    else:
        alive = existing is not None and not existing.fenced
        if alive and now - controller.last_heartbeat.get(body.broker_id, now) <= controller.session_timeout_s:
            return rs.BrokerRegistrationResponse(
                error_code=int(ErrorCode.DUPLICATE_BROKER_REGISTRATION), broker_epoch=-1
            )
        epoch, fenced = controller.next_metadata_offset(), True
    s.register_broker(body.broker_id, first.host, int(first.port), body.rack, incarnation, listeners,
                      fenced=fenced, epoch=epoch)  # fmt: skip
    if existing is None or existing.incarnation != incarnation:
        directories_online_again(s, body.broker_id)  # a restart: its log dirs are online again (KIP-858)
    controller.last_heartbeat[body.broker_id] = now
    if await controller.commit_appended() is None:
        return rs.BrokerRegistrationResponse(error_code=int(ErrorCode.REQUEST_TIMED_OUT), broker_epoch=-1)
    controller.push()
    return rs.BrokerRegistrationResponse(error_code=0, broker_epoch=epoch)
