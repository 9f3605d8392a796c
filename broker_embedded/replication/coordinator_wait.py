"""Waiting for a coordinator's own write to be replicated (Kafka writes coordinator state with acks=-1).

The group coordinator (`__consumer_offsets`) and the transaction coordinator
(`__transaction_state`) append to a partition they lead and answer the client only once its high
watermark covers the write; if leadership moves meanwhile the client must find the new
coordinator. One wait for both, parked in the produce purgatory (woken when the HW moves).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.purgatory import DelayedCallback, DelayedOperationPurgatory
from kafka_wire.errors import ErrorCode

if TYPE_CHECKING:
    from broker_embedded.partition import Partition


def wait_until_replicated(
    p: Partition, purgatory: DelayedOperationPurgatory[Any], timeout_ms: int
) -> asyncio.Future[ErrorCode] | None:
    """A future resolving when `p`'s high watermark covers its log end offset as of now, or None
    when it already does. Resolves to NONE, NOT_COORDINATOR if `p` lost its leadership (or was
    deleted), or COORDINATOR_NOT_AVAILABLE after `timeout_ms`."""
    required, epoch = p.log.log_end_offset, p.leader_epoch
    if p.high_watermark >= required:
        return None
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[ErrorCode] = loop.create_future()

    def still_leader() -> bool:
        return bool(p.is_leader) and p.leader_epoch == epoch and not p.deleted

    def done(expired: bool) -> None:
        if p.high_watermark >= required and still_leader():
            code = ErrorCode.NONE
        elif not still_leader():
            code = ErrorCode.NOT_COORDINATOR
        else:
            code = ErrorCode.COORDINATOR_NOT_AVAILABLE

        def resolve() -> None:
            if not fut.done():
                fut.set_result(code)

        loop.call_soon_threadsafe(resolve)  # expirations run on the timer's thread

    op = DelayedCallback(
        timeout_ms,
        condition=lambda: p.high_watermark >= required or not still_leader(),
        on_done=done,
    )
    purgatory.try_complete_else_watch(op, [p.produce_key])
    return fut
