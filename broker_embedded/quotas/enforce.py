"""The broker's quota hook (Kafka's KafkaApis produce/fetch throttling, KIP-219).

A Produce records the request's size against producer_byte_rate when its response is ready (acks=0
too: it has no response, but its connection is still muted); a consumer Fetch records the bytes of
its response against consumer_byte_rate. Over the quota, the response carries throttle_time_ms and
the connection is muted for that long (`RequestContext.throttle`), so a client that ignores the
field is held as well. A throttled fetch answers its partitions without records, as Kafka does,
and takes its bytes back out of the rate; a consumer's fetch max_bytes is capped at what one quota
window may hold. Follower fetches are never throttled here (replication quotas are another thing).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from broker_embedded.quotas.manager import ClientQuotaManager
from broker_embedded.quotas.store import (
    CONSUMER_BYTE_RATE,
    PRODUCER_BYTE_RATE,
    REQUEST_PERCENTAGE,
    ClientQuotaStore,
)
from broker_embedded.security.access import with_response

if TYPE_CHECKING:
    from broker_embedded.network.server import RequestContext


def monotonic_ms() -> int:
    return int(time.monotonic() * 1000)


class ClientQuotas:
    """The broker's quota managers over one store (Kafka's QuotaManagers)."""

    def __init__(
        self,
        store: ClientQuotaStore,
        samples: int = 11,
        window_seconds: int = 1,
        clock: Callable[[], int] = monotonic_ms,
    ) -> None:
        self.store = store
        window_ms = window_seconds * 1000
        self.produce = ClientQuotaManager(PRODUCER_BYTE_RATE, store, clock, samples, window_ms)
        self.fetch = ClientQuotaManager(CONSUMER_BYTE_RATE, store, clock, samples, window_ms)
        # request_percentage: the handlers' thread time (throttle_request, from Broker.dispatch)
        self.request = ClientQuotaManager(REQUEST_PERCENTAGE, store, clock, samples, window_ms)


def client_of(ctx: RequestContext) -> tuple[str, str]:
    """(user, client-id) of a request: the principal's name (ANONYMOUS without authentication)."""
    principal = ctx.session.principal if ctx.session is not None else "User:ANONYMOUS"
    user = principal.split(":", 1)[1] if ":" in principal else principal
    return user, ctx.header.client_id or ""


def _when_ready(result: Any, apply: Callable[[Any], None]) -> Any:
    """Call apply(response) once the handler's result is ready: the response, None (acks=0: no
    response, but the connection is throttled all the same), or a future of either."""
    if result is None:
        apply(None)
        return None
    return with_response(result, apply)


def _throttle(ctx: RequestContext, response: Any, throttle_ms: int) -> None:
    if throttle_ms <= 0:
        return
    if response is not None:
        response.throttle_time_ms = max(int(response.throttle_time_ms or 0), throttle_ms)
    if ctx.throttle is not None:
        ctx.throttle(throttle_ms)


def throttle_produce(quotas: ClientQuotas | None, ctx: RequestContext, result: Any) -> Any:
    manager = quotas.produce if quotas is not None else None
    if manager is None or not manager.quotas_enabled:
        return result
    user, client_id = client_of(ctx)
    size = ctx.size

    def apply(response: Any) -> None:
        _throttle(ctx, response, manager.record_and_get_throttle_time_ms(user, client_id, size))

    return _when_ready(result, apply)


def cap_fetch_max_bytes(quotas: ClientQuotas | None, ctx: RequestContext, request: Any) -> None:
    """A consumer fetches at most what one quota window may hold (KafkaApis' maxQuotaWindowBytes)."""
    if quotas is None or not quotas.fetch.quotas_enabled:
        return
    cap = quotas.fetch.max_value_in_quota_window(*client_of(ctx))
    if cap is not None:
        cap_bytes = max(1, min(int(cap), 0x7FFFFFFF))
        request.max_bytes = min(request.max_bytes, cap_bytes) if request.max_bytes > 0 else cap_bytes


def throttle_fetch(quotas: ClientQuotas | None, ctx: RequestContext, result: Any) -> Any:
    manager = quotas.fetch if quotas is not None else None
    if manager is None or not manager.quotas_enabled:
        return result
    user, client_id = client_of(ctx)

    def apply(response: Any) -> None:
        if response is None:
            return
        size = sum(len(p.records) for t in response.responses for p in t.partitions if p.records is not None)
        throttle_ms = manager.record_and_get_throttle_time_ms(user, client_id, size)
        if throttle_ms > 0:
            # a throttled fetch returns no records; its bytes are not counted (unrecordQuotaSensor)
            manager.unrecord(user, client_id, size)
            for t in response.responses:
                for p in t.partitions:
                    if p.records:
                        p.records = b""
                        if p.aborted_transactions:
                            p.aborted_transactions = []
        _throttle(ctx, response, throttle_ms)

    return _when_ready(result, apply)


# never throttled by request_percentage (Kafka's sendResponseExemptThrottle: SASL and the
# inter-broker APIs; ApiVersions is counted)
REQUEST_QUOTA_EXEMPT = frozenset({17, 36, 27, 4, 5, 6, 7, 52, 53, 54, 55, 56, 57, 58, 62, 63, 64, 67})
NANOS_TO_PERCENTAGE = 100.0 / 1e9  # a second of a thread's time = 100 %


def throttle_request(
    quotas: ClientQuotas | None, ctx: RequestContext, request: Any, result: Any, thread_time_ns: int
) -> Any:
    """request_percentage (Kafka's ClientRequestQuotaManager): the handler's thread time, as a
    percentage of one thread, recorded when the answer is ready; over the quota the answer carries
    the throttle time (bounded by one quota window) and the connection is muted. Requests without
    an answer (acks=0) are not counted, as in Kafka."""
    manager = quotas.request if quotas is not None else None
    if manager is None or not manager.quotas_enabled or ctx.api_key in REQUEST_QUOTA_EXEMPT:
        return result
    if ctx.api_key == 1 and max(getattr(request, "replica_id", -1), _follower_id(request)) >= 0:
        return result  # a follower's fetch
    user, client_id = client_of(ctx)

    def apply(response: Any) -> None:
        if response is None or not hasattr(response, "throttle_time_ms"):
            return
        throttle_ms = manager.record_and_get_throttle_time_ms(user, client_id, thread_time_ns * NANOS_TO_PERCENTAGE)
        _throttle(ctx, response, min(throttle_ms, manager.window_ms))

    return _when_ready(result, apply)


def _follower_id(request: Any) -> int:
    state = getattr(request, "replica_state", None)  # Fetch v15+: the follower's id moved here
    return int(getattr(state, "replica_id", -1)) if state is not None else -1
