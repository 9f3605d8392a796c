"""BrokerHeartbeat (63, KIP-631) on the Raft controller listener, served by the active controller. It keeps
the broker's session alive (the controller's session timeout fences a silent broker with a
BrokerRegistrationChangeRecord), unfences a registered broker once its metadata offset reached its
registration record (its broker epoch) and it does not ask to stay fenced (`WantFence` fences an unfenced one),
and a `WantShutDown` is the controlled shutdown: the broker is fenced (leaderships move, it leaves the ISRs)
and told it may shut down. Changes are records in
`__cluster_metadata`, answered once committed."""

from __future__ import annotations

from broker_embedded.apis.broker_registration import ActiveController
from broker_embedded.raft.codecs import broker_heartbeat_request as rq
from broker_embedded.raft.codecs import broker_heartbeat_response as rs
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 63


def _error(code: ErrorCode) -> rs.BrokerHeartbeatResponse:
    return rs.BrokerHeartbeatResponse(error_code=int(code), is_caught_up=False, is_fenced=True)


async def serve(
    controller: ActiveController, body: rq.BrokerHeartbeatRequest, now: float
) -> rs.BrokerHeartbeatResponse:
    if not controller.active:
        return _error(ErrorCode.NOT_CONTROLLER)
    s = controller.state
    b = s.brokers.get(body.broker_id)
    if b is None or b.broker_epoch != body.broker_epoch:
        return _error(ErrorCode.STALE_BROKER_EPOCH)  # Kafka's checkBrokerEpoch: unknown broker or older epoch
    controller.last_heartbeat[body.broker_id] = now
    # the broker epoch is the offset of its RegisterBrokerRecord (Kafka's registerBrokerRecordOffset): every
    # controller knows it from the replicated image, so a new leader unfences by the same rule
    caught_up = body.current_metadata_offset >= b.broker_epoch
    changed = False
    if body.want_shut_down or body.want_fence:
        # Kafka's calculateNextBrokerState: an unfenced broker asking to be fenced, or to shut down, is fenced
        # (its leaderships move and it leaves the ISRs in the same record: the controlled shutdown)
        changed = s.fence_broker(body.broker_id)
    elif caught_up:
        changed = s.unfence(body.broker_id)
    if changed and await controller.commit_appended() is None:
        return _error(ErrorCode.REQUEST_TIMED_OUT)
    if changed:
        controller.push()
    return rs.BrokerHeartbeatResponse(
        error_code=0,
        is_caught_up=caught_up,
        is_fenced=s.brokers[body.broker_id].fenced,
        should_shut_down=bool(body.want_shut_down),
    )
