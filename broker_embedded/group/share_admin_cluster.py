"""Share-group admin in a cluster (KIP-932): the group coordinator's side of DescribeShareGroupOffsets,
DeleteShareGroupOffsets and DeleteGroups reaches the state where Kafka keeps it.

A share-partition's state lives with the share coordinator of its key (the leader of its
``__share_group_state`` partition), whichever broker leads the partition or coordinates the group.
As Kafka's GroupCoordinatorService does through its persister:

* describe reads ReadShareGroupStateSummary (87) from each key's share coordinator, and the lag's
  end offset is the partition leader's high watermark (ListOffsets, latest);
* delete sends DeleteShareGroupState (86) to each key's share coordinator;
* requests are grouped by share coordinator, and a key whose coordinator moves (NOT_COORDINATOR,
  COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS, a dropped connection) is looked up in the
  cluster image again until ``timeout_s``, then answered with that error.

Kafka knows a group's initialized share-partitions from its ShareGroupStatePartitionMetadata record;
we initialize state on the first fetch and keep no such record, so "every share-partition of the
group" is found by asking the share coordinators for every partition of the cluster's topics
(internal topics left out) and keeping those with state.

Blocking (its own connections): the handlers run it in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from broker_embedded.group.share_admin import NO_TOPIC_ID, PartitionOffsets, TopicOffsets
from broker_embedded.group.share_state_host import CoordinatorChannel
from broker_embedded.share.persister import SHARE_STATE_TOPIC, partition_for
from broker_embedded.share.remote_persister import RemotePersister
from broker_embedded.share.state import ShareGroupStateKey
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import delete_share_group_state_request as dl
from kafka_wire.protocol.messages import list_offsets_request as lo
from kafka_wire.protocol.messages import read_share_group_state_summary_request as rsum

if TYPE_CHECKING:
    from broker_embedded.controller.controller_client import ClusterImage, ControllerClient
    from broker_embedded.security.client import InterBrokerSecurity

INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", SHARE_STATE_TOPIC})
RETRIABLE = frozenset(
    {ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS}
)
DEFAULT_TIMEOUT_S = 10.0
LATEST = -1  # ListOffsets timestamp: the high watermark (read_uncommitted)

Address = tuple[str, int]
PartitionKey = tuple[bytes, int]  # (topic id, partition)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Summary:
    """One share-partition's state as its share coordinator summarizes it (start offset -1: none)."""

    error: ErrorCode
    start_offset: int = -1
    leader_epoch: int = 0
    delivery_complete_count: int = -1


class ClusterShareAdmin:
    def __init__(
        self,
        image: Callable[[], ClusterImage | None],
        channel: CoordinatorChannel,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.image = image
        self.channel = channel
        self.timeout_s = timeout_s
        self.clock = clock
        self.sleep = sleep

    def close(self) -> None:
        for address in list(self.channel._connections):
            dropped = self.channel._connections.pop(address, None)
            if dropped is not None:
                dropped.close()

    # ---- the cluster image --------------------------------------------------------------------

    def topic(self, name: str) -> tuple[bytes, int] | None:
        """(topic id, partition count) from the cluster image."""
        image = self.image()
        t = image.topics.get(name) if image is not None else None
        return None if t is None else (t.topic_id, len(t.partitions))

    def all_partitions(self) -> list[tuple[str, bytes, int]]:
        """(name, topic id, partition) of every partition of the cluster's non-internal topics."""
        image = self.image()
        if image is None:
            return []
        return [
            (t.name, t.topic_id, p.partition)
            for t in sorted(image.topics.values(), key=lambda t: t.name)
            if t.name not in INTERNAL_TOPICS
            for p in t.partitions
        ]

    def _coordinator(self, group_id: str, key: PartitionKey) -> Address | None:
        """The share coordinator of a key now: the leader of its ``__share_group_state`` partition."""
        image = self.image()
        state = image.topics.get(SHARE_STATE_TOPIC) if image is not None else None
        if image is None or state is None or not state.partitions:
            return None
        index = partition_for(ShareGroupStateKey(group_id, str(uuid.UUID(bytes=key[0])), key[1]), len(state.partitions))
        leader = image.brokers.get(state.partitions[index].leader)
        if leader is None or leader.fenced:
            return None
        return leader.address(None)

    def _has_state_topic(self) -> bool:
        image = self.image()
        return image is not None and SHARE_STATE_TOPIC in image.topics

    # ---- the persister's RPCs -----------------------------------------------------------------

    def _each_coordinator(
        self,
        group_id: str,
        keys: Iterable[PartitionKey],
        send: Callable[[Address, list[PartitionKey]], dict[PartitionKey, tuple[ErrorCode, Any]]],
    ) -> dict[PartitionKey, tuple[ErrorCode, Any]]:
        """send(coordinator, its keys) for the keys grouped by share coordinator; keys whose
        coordinator moved are looked up and sent again until the timeout."""
        pending = list(dict.fromkeys(keys))
        done: dict[PartitionKey, tuple[ErrorCode, Any]] = {}
        deadline = self.clock() + self.timeout_s
        while pending:
            by_address: dict[Address, list[PartitionKey]] = {}
            retry: list[PartitionKey] = []
            last: dict[PartitionKey, tuple[ErrorCode, Any]] = {}
            for key in pending:
                address = self._coordinator(group_id, key)
                if address is None:
                    retry.append(key)
                    last[key] = (ErrorCode.COORDINATOR_NOT_AVAILABLE, None)
                else:
                    by_address.setdefault(address, []).append(key)
            for address, batch in by_address.items():
                try:
                    answered = send(address, batch)
                except OSError:
                    answered = {}
                for key in batch:
                    code, value = answered.get(key, (ErrorCode.COORDINATOR_NOT_AVAILABLE, None))
                    if code in RETRIABLE:
                        retry.append(key)
                        last[key] = (code, value)
                    else:
                        done[key] = (code, value)
            if not retry:
                break
            if self.clock() >= deadline:
                done.update({k: last[k] for k in retry})
                break
            pending = retry
            self.sleep(0.1)
        return done

    def summaries(self, group_id: str, keys: Sequence[PartitionKey]) -> dict[PartitionKey, Summary]:
        """ReadShareGroupStateSummary of each key from its share coordinator (Kafka's readSummary)."""
        if not keys:
            return {}
        if not self._has_state_topic():
            return {k: Summary(ErrorCode.NONE) for k in keys}  # no share state anywhere yet
        image = self.image()

        def leader_epoch(key: PartitionKey) -> int:
            # the partition's current leader epoch: never older than the one its state was written with
            for t in image.topics.values() if image is not None else ():
                if t.topic_id == key[0] and 0 <= key[1] < len(t.partitions):
                    return max(t.partitions[key[1]].leader_epoch, 0)
            return 0

        def send(address: Address, batch: list[PartitionKey]) -> dict[PartitionKey, tuple[ErrorCode, Any]]:
            by_topic: dict[bytes, list[rsum.PartitionData]] = {}
            for tid, index in batch:
                by_topic.setdefault(tid, []).append(
                    rsum.PartitionData(partition=index, leader_epoch=leader_epoch((tid, index)))
                )
            body = rsum.ReadShareGroupStateSummaryRequest(
                group_id=group_id,
                topics=[rsum.ReadStateSummaryData(topic_id=t, partitions=ps) for t, ps in by_topic.items()],
            )
            response = self.channel.send(address, 87, body, 1)
            return {
                (bytes(r.topic_id), p.partition): (ErrorCode(p.error_code), p)
                for r in response.results
                for p in r.partitions
            }

        out = {}
        for key, (code, p) in self._each_coordinator(group_id, keys, send).items():
            if code != ErrorCode.NONE or p is None:
                out[key] = Summary(code)
            else:
                out[key] = Summary(code, p.start_offset, max(p.leader_epoch, 0), p.delivery_complete_count)
        return out

    def delete(self, group_id: str, keys: Sequence[PartitionKey]) -> dict[PartitionKey, ErrorCode]:
        """DeleteShareGroupState of each key at its share coordinator (Kafka's deleteState)."""
        if not keys or not self._has_state_topic():
            return {k: ErrorCode.NONE for k in keys}

        def send(address: Address, batch: list[PartitionKey]) -> dict[PartitionKey, tuple[ErrorCode, Any]]:
            by_topic: dict[bytes, list[dl.PartitionData]] = {}
            for tid, index in batch:
                by_topic.setdefault(tid, []).append(dl.PartitionData(partition=index))
            body = dl.DeleteShareGroupStateRequest(
                group_id=group_id, topics=[dl.DeleteStateData(topic_id=t, partitions=ps) for t, ps in by_topic.items()]
            )
            response = self.channel.send(address, 86, body, 0)
            return {
                (bytes(r.topic_id), p.partition): (ErrorCode(p.error_code), None)
                for r in response.results
                for p in r.partitions
            }

        return {k: code for k, (code, _) in self._each_coordinator(group_id, keys, send).items()}

    def high_watermarks(self, partitions: Sequence[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """Each partition's high watermark from its leader (ListOffsets, latest); missing when unknown."""
        image = self.image()
        if image is None:
            return {}
        by_leader: dict[int, list[tuple[str, int]]] = {}
        for name, index in partitions:
            state = image.partition(name, index)
            if state is not None and state.leader >= 0:
                by_leader.setdefault(state.leader, []).append((name, index))
        out: dict[tuple[str, int], int] = {}
        for node, wanted in by_leader.items():
            leader = image.brokers.get(node)
            if leader is None or leader.fenced:
                continue
            topics: dict[str, list[lo.ListOffsetsPartition]] = {}
            for name, index in wanted:
                topics.setdefault(name, []).append(lo.ListOffsetsPartition(partition_index=index, timestamp=LATEST))
            body = lo.ListOffsetsRequest(
                replica_id=-1, topics=[lo.ListOffsetsTopic(name=n, partitions=ps) for n, ps in topics.items()]
            )
            try:
                response = self.channel.send(leader.address(None), 2, body, 6)
            except OSError:
                continue
            for t in response.topics:
                for p in t.partitions:
                    if p.error_code == ErrorCode.NONE and p.offset >= 0:
                        out[(t.name, p.partition_index)] = p.offset
        return out

    # ---- the admin operations -----------------------------------------------------------------

    def describe_offsets(self, group_id: str, topics: Sequence[tuple[str, Sequence[int]]] | None) -> list[TopicOffsets]:
        """DescribeShareGroupOffsets of one group; `topics` None: every share-partition with state."""
        asked: list[tuple[str, bytes, int]] = []  # (name, topic id, partition) to read
        if topics is None:
            asked = self.all_partitions()
        else:
            for name, indexes in topics:
                found = self.topic(name)
                if found is not None:
                    asked += [(name, found[0], i) for i in indexes if 0 <= i < found[1]]
        summaries = self.summaries(group_id, [(tid, i) for _, tid, i in asked])
        with_state = [(n, tid, i) for n, tid, i in asked if summaries[(tid, i)].start_offset >= 0]
        hws = self.high_watermarks([(n, i) for n, _, i in with_state])

        def offsets(name: str, tid: bytes, index: int) -> PartitionOffsets:
            s = summaries.get((tid, index))
            if s is None:
                return PartitionOffsets(index, -1, 0, -1)
            if s.error != ErrorCode.NONE:
                return PartitionOffsets(index, -1, 0, -1, s.error)
            if s.start_offset < 0:
                return PartitionOffsets(index, -1, 0, -1)
            hw = hws.get((name, index))
            lag = -1 if hw is None else hw - s.start_offset - max(s.delivery_complete_count, 0)
            return PartitionOffsets(index, s.start_offset, s.leader_epoch, lag)

        if topics is None:
            by_topic: dict[tuple[str, bytes], list[int]] = {}
            for name, tid, index in asked:
                s = summaries[(tid, index)]
                if s.start_offset >= 0 or s.error != ErrorCode.NONE:
                    by_topic.setdefault((name, tid), []).append(index)
            return [
                TopicOffsets(name, tid, [offsets(name, tid, i) for i in sorted(indexes)])
                for (name, tid), indexes in sorted(by_topic.items())
            ]
        out = []
        for name, indexes in topics:
            found = self.topic(name)
            tid = found[0] if found is not None else NO_TOPIC_ID
            out.append(TopicOffsets(name, tid, [offsets(name, tid, i) for i in indexes]))
        return out

    def delete_topics(self, group_id: str, topics: Sequence[tuple[str, bytes]]) -> dict[str, ErrorCode]:
        """DeleteShareGroupOffsets of whole topics: each partition's state at its share coordinator;
        per topic the first error (NONE: all deleted)."""
        keys: dict[PartitionKey, str] = {}
        for name, tid in topics:
            found = self.topic(name)
            for index in range(found[1] if found is not None else 0):
                keys[(tid, index)] = name
        results = self.delete(group_id, list(keys))
        out = {name: ErrorCode.NONE for name, _ in topics}
        for key, code in results.items():
            if code != ErrorCode.NONE and out[keys[key]] == ErrorCode.NONE:
                out[keys[key]] = code
        return out

    def delete_group(self, group_id: str) -> ErrorCode:
        """DeleteGroups of a share group: the state of every share-partition it has (first error)."""
        asked = self.all_partitions()
        summaries = self.summaries(group_id, [(tid, i) for _, tid, i in asked])
        for s in summaries.values():
            if s.error != ErrorCode.NONE:
                return s.error
        with_state = [k for k, s in summaries.items() if s.start_offset >= 0]
        for code in self.delete(group_id, with_state).values():
            if code != ErrorCode.NONE:
                return code
        return ErrorCode.NONE


def cluster_admin(
    controller_client: ControllerClient | None,
    persister: object,
    own_address: Callable[[], tuple[str, int]],
    security: Callable[[], InterBrokerSecurity | None],
) -> ClusterShareAdmin | None:
    """In a cluster whose share-partition state goes to the share coordinators: the admin that reads
    and deletes it there, over the inter-broker listener with its TLS/SASL (None: a single broker,
    or state kept in the leaders' memory)."""
    if controller_client is None or not isinstance(persister, RemotePersister):
        return None
    client = controller_client
    return ClusterShareAdmin(lambda: client.image, CoordinatorChannel(own_address, security=security))


def in_worker(admin: ClusterShareAdmin, work: Callable[[ClusterShareAdmin], T]) -> asyncio.Future[T]:
    """Blocking admin work off the event loop (its connections closed after); call on the loop."""

    def run() -> T:
        try:
            return work(admin)
        finally:
            admin.close()

    return asyncio.get_running_loop().run_in_executor(None, run)


def local_writes_done(persister: object) -> asyncio.Future[None] | None:
    """Once what this broker's share-partitions queued for the share coordinators was answered
    (None: nothing to wait for), so an admin operation sees, or deletes, what they wrote."""
    if not isinstance(persister, RemotePersister):
        return None
    return asyncio.wrap_future(persister.barrier())
