"""DelayedFetch: a long poll parked in the purgatory.

A consumer's fetch completes when min bytes are available below the high watermark, when a partition
hits an error, or when max wait passes (then it answers with whatever is there). Every append calls
``check_and_complete(fetch_key(topic, partition))``, so a long poll answers as soon as data arrives
instead of polling. The reading itself is `fetch_read.read_partitions`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from broker_embedded.purgatory.delayed_operation import DelayedOperation
from broker_embedded.replication.fetch_read import FetchPartitionStatus, FetchResult, ReplicaView, read_partitions
from kafka_wire.protocol.messages import fetch_request as rq
from kafka_wire.protocol.messages import fetch_response as rs


class DelayedFetch(DelayedOperation):
    def __init__(
        self,
        replicas: ReplicaView,
        request: rq.FetchRequest,
        statuses: list[FetchPartitionStatus],
        use_ids: bool,
        unknown: list[rs.FetchableTopicResponse],
        future: asyncio.Future[Any],
        replica_id: int = -1,
    ) -> None:
        super().__init__(request.max_wait_ms)
        self.replica_id = replica_id
        # a follower's long poll also answers when the leader's HW moves, so followers learn it
        # without waiting out max wait (a new leader then starts from an up-to-date HW)
        self._follower_hws: list[tuple[str, int, int]] = []
        if replica_id >= 0:
            for st in statuses:
                p = replicas.partition(st.topic, st.request.partition)
                if p is not None:
                    self._follower_hws.append((st.topic, st.request.partition, p.high_watermark))
        self.replicas = replicas
        self.request = request
        self.statuses = statuses
        self.use_ids = use_ids
        self.unknown = unknown
        self.future = future
        self._result: FetchResult | None = None

    def try_complete(self) -> bool:
        for topic, index, hw in self._follower_hws:
            p = self.replicas.partition(topic, index)
            if p is not None and p.high_watermark > hw:
                return self.force_complete()
        result = read_partitions(self.replicas, self.statuses, self.request, self.replica_id)
        # (a partition that turned remote while parked is answered empty: the client's next
        # fetch takes the remote path)
        if result.has_error or result.remote_fetches or result.total_bytes >= max(self.request.min_bytes, 1):
            self._result = result
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        result = self._result
        if result is None:
            result = read_partitions(self.replicas, self.statuses, self.request, self.replica_id)
        response = result.to_response(self.use_ids, self.unknown, self.replicas.endpoints)
        loop = self.future.get_loop()
        # completion may happen on the reaper or another thread: resolve on the loop thread
        loop.call_soon_threadsafe(_set_result, self.future, response)

    def on_expiration(self) -> None:
        pass


def _set_result(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)
