"""Fetch (API 1): whole batches from the fetch offset up to the high watermark (consumers) or the
log end offset (followers: replica id >= 0 up to v14, ReplicaState from v15); long polls wait in
the fetch purgatory (DelayedFetch) until min bytes are available or max wait passes. A follower's
fetch offset is its log end offset: the leader records it once per request (ISR, high watermark)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from broker_embedded.delayed_fetch import (
    DelayedFetch,
    FetchPartitionStatus,
    FetchResult,
    fetch_replica_id,
    read_partitions,
)
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import fetch_request as rq
from kafka_wire.protocol.messages import fetch_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 1


def handle(broker: Broker, ctx: RequestContext, request: rq.FetchRequest) -> Any:
    if request.session_id != 0 or request.session_epoch > 0:
        # We never create fetch sessions (KIP-227: answering session id 0 means "none was
        # created"), so an incremental fetch names a session we do not have.
        return rs.FetchResponse(error_code=ErrorCode.FETCH_SESSION_ID_NOT_FOUND, session_id=0, responses=[])
    use_ids = ctx.api_version >= 13
    statuses: list[FetchPartitionStatus] = []
    unknown: list[rs.FetchableTopicResponse] = []
    for ft in request.topics:
        if use_ids:
            meta = broker.topics.by_id.get(ft.topic_id)
            if meta is None:
                unknown.append(
                    rs.FetchableTopicResponse(
                        topic_id=ft.topic_id,
                        partitions=[
                            rs.PartitionData(partition_index=fp.partition, error_code=ErrorCode.UNKNOWN_TOPIC_ID)
                            for fp in ft.partitions
                        ],
                    )
                )
                continue
            name = meta.name
        else:
            name = ft.topic
        for fp in ft.partitions:
            statuses.append(FetchPartitionStatus(name, ft.topic_id, fp))
    replica_id = fetch_replica_id(request)
    read = read_partitions(broker, statuses, request, replica_id)
    if read.follower_reads:
        now_ms = int(time.time() * 1000)
        for f in read.follower_reads:
            f.partition.update_follower_fetch_state(
                replica_id, f.fetch_offset, f.log_start_offset, f.leader_log_end_offset, now_ms
            )
    if read.remote_fetches and broker.remote_log_manager is not None:
        # tiered storage: answer once the remote reads are done or remote.fetch.max.wait.ms passed
        return asyncio.ensure_future(_with_remote_reads(broker, read, use_ids, unknown))
    if request.max_wait_ms <= 0 or read.total_bytes >= max(request.min_bytes, 1) or read.has_error or not statuses:
        return read.to_response(use_ids, unknown, broker)
    loop = asyncio.get_running_loop()
    future: asyncio.Future[rs.FetchResponse] = loop.create_future()
    op = DelayedFetch(broker, request, statuses, use_ids, unknown, future, replica_id)
    keys = [("fetch", s.topic, s.request.partition) for s in statuses]
    broker.fetch_purgatory.try_complete_else_watch(op, keys)
    return future


async def _with_remote_reads(
    broker: Broker, read: FetchResult, use_ids: bool, unknown: list[rs.FetchableTopicResponse]
) -> rs.FetchResponse:
    assert broker.remote_log_manager is not None
    await broker.remote_log_manager.read_remote_fetches(read.remote_fetches)
    return read.to_response(use_ids, unknown, broker)
