"""ShareFetch (API 78): share sessions, piggybacked acknowledgements and record acquisition (KIP-932).

Order as Kafka's KafkaApis.handleShareFetchRequest: the share session step (open, continue or
close; ``broker_embedded.share.session``), then the acknowledgements the request carries, then the
fetch: every partition of the session is read and what may be acquired for the member is
returned with its AcquiredRecords. Nothing acquired and ``MaxWaitMs`` > 0: the fetch parks in the
fetch purgatory until a produce, an acknowledgement or a lock expiry makes records available, or
until the wait ends (``MinBytes`` as Kafka: acquired bytes to wait for). The final epoch (-1)
acknowledges, then releases the member's records and ends its session.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from broker_embedded.features import share_groups_enabled
from broker_embedded.purgatory.callback import DelayedCallback
from broker_embedded.purgatory.keys import fetch_key
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.share.manager import PartitionFetch, share_key
from broker_embedded.share.partition import AcknowledgementBatch, SharePartitionError
from broker_embedded.share.remote_persister import RemotePersister
from broker_embedded.share.session import ContextKind
from broker_embedded.share.state import ShareGroupStateKey
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import share_fetch_request as rq
from kafka_wire.protocol.messages import share_fetch_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 78
DEFAULT_MAX_RECORDS = 500  # v0 had no MaxRecords (the Java client's max.poll.records default)

log = logging.getLogger(__name__)


class AckResults(dict[tuple[bytes, int], tuple[ErrorCode, str | None]]):
    """(topic id, partition) -> (ack error code, message); ``written`` (RemotePersister): the
    share-state key and the range of write sequence numbers each applied acknowledgement queued."""

    def __init__(self) -> None:
        super().__init__()
        self.written: dict[tuple[bytes, int], tuple[ShareGroupStateKey, int, int]] = {}


def acknowledgement_batches(wire: Iterable[Any]) -> list[AcknowledgementBatch]:
    return [AcknowledgementBatch(b.first_offset, b.last_offset, tuple(b.acknowledge_types)) for b in wire]


def apply_acknowledgements(
    broker: Broker, ctx: RequestContext, group_id: str, member_id: str, topics: Iterable[Any]
) -> AckResults:
    """Each partition's acknowledgements, all or nothing per partition, as Kafka answers them."""
    out = AckResults()
    share = broker.share_coordinator
    remote = share.partitions.persister if isinstance(share.partitions.persister, RemotePersister) else None
    for t in topics:
        meta = broker.topics.by_id.get(t.topic_id)
        for p in t.partitions:
            if not p.acknowledgement_batches:
                continue
            key = (bytes(t.topic_id), p.partition_index)
            if meta is None:
                out[key] = (ErrorCode.UNKNOWN_TOPIC_ID, None)
            elif authorize(ctx, AclOperation.READ, ResourceType.TOPIC, meta.name):
                out[key] = (ErrorCode.TOPIC_AUTHORIZATION_FAILED, None)
            else:
                state_key = ShareGroupStateKey(group_id, str(uuid.UUID(bytes=bytes(t.topic_id))), p.partition_index)
                before = remote.write_seq(state_key) if remote is not None else 0
                out[key] = share.partitions.acknowledge(
                    group_id,
                    member_id,
                    meta.name,
                    p.partition_index,
                    acknowledgement_batches(p.acknowledgement_batches),
                )
                if remote is not None and out[key][0] == ErrorCode.NONE:
                    out.written[key] = (state_key, before, remote.write_seq(state_key))
    return out


def after_state_written(broker: Broker, acks: AckResults, result: Any) -> Any:
    """The answer once the acknowledgements' share state was written to the share coordinator
    (RemotePersister in a cluster; Kafka answers after WriteShareGroupState), else as it is. A
    partition whose write failed (the coordinator unreachable until the persister's retry timeout)
    is answered the persister's error instead, as Kafka answers it (COORDINATOR_NOT_AVAILABLE)."""
    persister = broker.share_coordinator.partitions.persister
    if not acks or not isinstance(persister, RemotePersister):
        return result
    # this request's own writes only: another key's unreachable coordinator does not hold it up
    written = asyncio.wrap_future(persister.barrier({key for key, _, _ in acks.written.values()}))

    async def later() -> Any:
        await written
        response = await result if isinstance(result, asyncio.Future) else result
        failed: dict[tuple[bytes, int], ErrorCode] = {}
        for key, (state_key, after, upto) in acks.written.items():
            code = persister.write_error(state_key, after, upto)
            if code is not None:
                failed[key] = code
        if failed:
            _answer_write_errors(response, failed)
        return response

    return asyncio.ensure_future(later())


def _answer_write_errors(response: Any, failed: dict[tuple[bytes, int], ErrorCode]) -> None:
    """Put each failed write's error on its partition's acknowledgement answer (ShareFetch:
    AcknowledgeErrorCode, ShareAcknowledge: ErrorCode)."""
    for topic in response.responses:
        for p in topic.partitions:
            code = failed.get((bytes(topic.topic_id), p.partition_index))
            if code is None:
                continue
            message = "Unable to write the share-partition state to the share coordinator."
            if hasattr(p, "acknowledge_error_code"):
                p.acknowledge_error_code, p.acknowledge_error_message = code, message
            else:
                p.error_code, p.error_message = code, message


def handle(broker: Broker, ctx: RequestContext, request: rq.ShareFetchRequest) -> Any:
    def error(code: ErrorCode, message: str | None = None) -> rs.ShareFetchResponse:
        return rs.ShareFetchResponse(error_code=code, error_message=message, responses=[], node_endpoints=[])

    if not share_groups_enabled(broker):  # share.version 0, before any other check (Kafka's KafkaApis)
        return error(ErrorCode.UNSUPPORTED_VERSION)
    group_id, member_id = request.group_id, request.member_id
    if not group_id or not member_id:
        return error(ErrorCode.INVALID_REQUEST, "GroupId and MemberId are required.")
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, group_id):
        return error(denied)
    share = broker.share_coordinator
    fetch = [(bytes(t.topic_id).hex(), p.partition_index) for t in request.topics for p in t.partitions]
    forgotten = [(bytes(t.topic_id).hex(), p) for t in request.forgotten_topics_data for p in t.partitions]
    has_acks = any(p.acknowledgement_batches for t in request.topics for p in t.partitions)
    try:
        context = share.sessions.new_context(
            group_id, member_id, request.share_session_epoch, fetch, forgotten, has_acks, str(ctx.connection_id)
        )
    except SharePartitionError as e:
        return error(ErrorCode(e.code), str(e))
    acks = apply_acknowledgements(broker, ctx, group_id, member_id, request.topics)
    return after_state_written(broker, acks, _fetch(broker, ctx, request, context, acks))


def _fetch(broker: Broker, ctx: RequestContext, request: rq.ShareFetchRequest, context: Any, acks: AckResults) -> Any:
    share = broker.share_coordinator
    group_id, member_id = request.group_id, request.member_id
    if context.kind is ContextKind.FINAL:
        session = share.sessions.get(group_id, member_id)
        owned = list(session.partitions) if session is not None else []
        share.sessions.release_session(group_id, member_id)
        names = _names(broker, owned)
        share.partitions.release_member(group_id, member_id, [n for n in names.values() if n is not None])
        return _response(broker, group_id, acks, {})
    if request.is_renew_ack:
        return _response(broker, group_id, acks, {})  # KIP-1222: a renew-only request fetches nothing
    partitions = _names(broker, list(context.partitions))
    max_records = request.max_records if ctx.api_version >= 1 and request.max_records > 0 else DEFAULT_MAX_RECORDS
    max_bytes = request.max_bytes if request.max_bytes > 0 else 0x7FFFFFFF

    def attempt() -> dict[tuple[bytes, int], PartitionFetch]:
        results: dict[tuple[bytes, int], PartitionFetch] = {}
        remaining, budget = max_bytes, max_records
        for key, name in partitions.items():
            if name is None:
                results[key] = PartitionFetch(ErrorCode.UNKNOWN_TOPIC_ID)
                continue
            if authorize(ctx, AclOperation.READ, ResourceType.TOPIC, name[0]):
                results[key] = PartitionFetch(ErrorCode.TOPIC_AUTHORIZATION_FAILED)
                continue
            if budget <= 0 or remaining <= 0:
                continue
            got = share.partitions.fetch(group_id, member_id, name[0], name[1], budget, remaining)
            remaining -= len(got.records)
            budget -= sum(a.last_offset - a.first_offset + 1 for a in got.acquired)
            results[key] = got
        return results

    first = attempt()
    acquired_bytes = sum(len(r.records) for r in first.values())
    if acquired_bytes >= max(request.min_bytes, 1) or request.max_wait_ms <= 0 or not partitions:
        return _response(broker, group_id, acks, first)
    if any(r.error != ErrorCode.NONE for r in first.values()):
        return _response(broker, group_id, acks, first)
    return _park(broker, request, partitions, attempt, acks, first)


def _names(broker: Broker, keys: list[tuple[str, int]]) -> dict[tuple[bytes, int], tuple[str, int] | None]:
    out: dict[tuple[bytes, int], tuple[str, int] | None] = {}
    for tid_hex, index in keys:
        tid = bytes.fromhex(tid_hex)
        meta = broker.topics.by_id.get(tid)
        out[(tid, index)] = (meta.name, index) if meta is not None else None
    return out


def _park(
    broker: Broker,
    request: rq.ShareFetchRequest,
    partitions: dict[tuple[bytes, int], tuple[str, int] | None],
    attempt: Any,
    acks: AckResults,
    first: dict[tuple[bytes, int], PartitionFetch],
) -> asyncio.Future[Any]:
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    # records acquired by the first attempt (below min bytes) stay acquired: answered with the rest
    found: dict[tuple[bytes, int], PartitionFetch] = {k: v for k, v in first.items() if v.acquired}
    min_bytes = max(request.min_bytes, 1)

    # expiry does not wait for a check running on another thread: the guard makes sure records
    # acquired by a last check are in the answer, and none are acquired after it was built
    guard = threading.Lock()
    answered = False

    def condition() -> bool:
        with guard:
            if answered:
                return False
            for key, got in attempt().items():
                if got.acquired:
                    prev = found.get(key)
                    if prev is not None:
                        got = PartitionFetch(
                            got.error,
                            got.error_message,
                            prev.records + got.records,
                            prev.acquired + got.acquired,
                            got.leader,
                        )
                    found[key] = got
            return sum(len(r.records) for r in found.values()) >= min_bytes

    def on_done(expired: bool) -> None:
        nonlocal answered
        with guard:
            answered = True
            response = _response(broker, request.group_id, acks, found)
        loop.call_soon_threadsafe(_set_result, future, response)

    keys: list[Hashable] = []
    for name in partitions.values():
        if name is not None:
            keys += [fetch_key(*name), share_key(*name)]
    op = DelayedCallback(request.max_wait_ms, condition, on_done)
    broker.replica_manager.fetch_purgatory.try_complete_else_watch(op, keys)
    return future


def _set_result(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


def _response(
    broker: Broker, group_id: str, acks: AckResults, fetched: dict[tuple[bytes, int], PartitionFetch]
) -> rs.ShareFetchResponse:
    topics: dict[bytes, list[rs.PartitionData]] = {}
    for key in list(dict.fromkeys([*fetched, *acks])):
        got = fetched.get(key)
        if got is not None and got.error == ErrorCode.NONE and not got.acquired and key not in acks:
            continue  # nothing to say about this partition
        ack_code, ack_message = acks.get(key, (ErrorCode.NONE, None))
        got = got or PartitionFetch()
        leader = got.leader
        if leader == (-1, -1):
            name = _name(broker, key)
            p = broker.partition(*name) if name is not None else None
            if p is not None:
                leader = (p.leader_id, p.leader_epoch)
        topics.setdefault(key[0], []).append(
            rs.PartitionData(
                partition_index=key[1],
                error_code=got.error,
                error_message=got.error_message,
                acknowledge_error_code=ack_code,
                acknowledge_error_message=ack_message,
                current_leader=rs.LeaderIdAndEpoch(leader_id=leader[0], leader_epoch=leader[1]),
                records=got.records,
                acquired_records=[
                    rs.AcquiredRecords(
                        first_offset=a.first_offset, last_offset=a.last_offset, delivery_count=a.delivery_count
                    )
                    for a in got.acquired
                ],
            )
        )
    return rs.ShareFetchResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        acquisition_lock_timeout_ms=broker.share_coordinator.settings(group_id).record_lock_duration_ms,
        responses=[rs.ShareFetchableTopicResponse(topic_id=t, partitions=ps) for t, ps in topics.items()],
        node_endpoints=[],
    )


def _name(broker: Broker, key: tuple[bytes, int]) -> tuple[str, int] | None:
    meta = broker.topics.by_id.get(key[0])
    return (meta.name, key[1]) if meta is not None else None
