"""The source's Kafka client over `kafka_wire`: metadata, ListOffsets and Fetch to partition leaders.

Blocking and single-threaded: the driver-side stream reader owns one, and each executor Python
worker keeps one per configuration in a module-level cache (`shared_client`) because Spark reuses
Python workers across tasks, so connections survive from one micro-batch to the next.

Only what the Spark source needs: no consumer group, no fetch sessions (every Fetch is a full
one, session id 0), whole batches decoded by the caller.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from connector.client_config import READ_COMMITTED, READ_UNCOMMITTED, ClientConfig, parse_bootstrap
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode, KafkaError, ProtocolDecodeError
from kafka_wire.protocol.messages import fetch_request, list_offsets_request, metadata_request
from offsets.spec import TopicPartition, tp_str

log = logging.getLogger(__name__)

API_FETCH = 1
API_LIST_OFFSETS = 2
API_METADATA = 3

EARLIEST_TIMESTAMP = -2
LATEST_TIMESTAMP = -1


# Errors after which a metadata refresh and a retry may succeed (leader moved, topic being created).
RETRIABLE = frozenset(
    {
        ErrorCode.LEADER_NOT_AVAILABLE,
        ErrorCode.NOT_LEADER_OR_FOLLOWER,
        ErrorCode.REQUEST_TIMED_OUT,
        ErrorCode.BROKER_NOT_AVAILABLE,
        ErrorCode.REPLICA_NOT_AVAILABLE,
        ErrorCode.NETWORK_EXCEPTION,
        ErrorCode.KAFKA_STORAGE_ERROR,
        ErrorCode.FENCED_LEADER_EPOCH,
        ErrorCode.UNKNOWN_LEADER_EPOCH,
        ErrorCode.UNKNOWN_TOPIC_ID,
        ErrorCode.OFFSET_NOT_AVAILABLE,
        ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    }
)


class KafkaClientError(KafkaError):
    """A request failed for good (after retries), or the broker answered with a fatal error."""


class UnknownTopicOrPartitionError(KafkaClientError):
    code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


@dataclass
class TopicInfo:
    name: str
    topic_id: bytes
    internal: bool
    partitions: dict[int, int] = field(default_factory=dict)  # partition -> leader node id (-1: none)


@dataclass
class ClusterMetadata:
    brokers: dict[int, tuple[str, int]]
    topics: dict[str, TopicInfo]


@dataclass
class PartitionFetch:
    """One partition of a Fetch response."""

    error: ErrorCode
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    records: memoryview | bytes | None
    aborted: list[tuple[int, int]] | None


@dataclass(frozen=True)
class PendingFetch:
    """A Fetch sent and not yet answered."""

    tp: TopicPartition
    addr: tuple[str, int]
    correlation_id: int
    version: int


class KafkaClient:
    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self._bootstrap = parse_bootstrap(config.bootstrap_servers)
        self._conns: dict[tuple[str, int], BrokerConnection] = {}
        self._metadata: ClusterMetadata | None = None
        self.closed = False

    # --- connections -------------------------------------------------------------------------
    def _connect(self, addr: tuple[str, int]) -> BrokerConnection:
        conn = self._conns.get(addr)
        if conn is not None:
            return conn
        conn = BrokerConnection(
            addr[0], addr[1], client_id=self.config.client_id, timeout=self.config.connect_timeout_ms / 1000
        )
        conn.sock.settimeout(self.config.request_timeout_ms / 1000)
        self._conns[addr] = conn
        return conn

    def _drop(self, addr: tuple[str, int]) -> None:
        conn = self._conns.pop(addr, None)
        if conn is not None:
            conn.close()

    def _request(self, addr: tuple[str, int], api_key: int, body_for_version: Any, cap: int | None = None) -> Any:
        """Send one request to `addr`; transport failures close the connection and raise."""
        try:
            conn = self._connect(addr)
            version = conn.best_version(api_key)
            if cap is not None:
                version = min(version, cap)
            body = body_for_version(version)
            return conn.request(api_key, body, version), version
        except (TimeoutError, OSError, ProtocolDecodeError) as e:
            self._drop(addr)
            raise KafkaClientError(f"request to {addr[0]}:{addr[1]} failed: {e}", ErrorCode.NETWORK_EXCEPTION) from e
        except KafkaError:
            self._drop(addr)
            raise

    def close(self) -> None:
        for addr in list(self._conns):
            self._drop(addr)
        self.closed = True

    # --- metadata ------------------------------------------------------------------------------
    def metadata(self, topics: Iterable[str] | None = None) -> ClusterMetadata:
        """Fresh metadata for `topics` (None: every topic). Tries each known broker in turn."""
        names = None if topics is None else sorted(set(topics))
        known = list(self._metadata.brokers.values()) if self._metadata else []
        candidates = list(dict.fromkeys([*self._conns.keys(), *self._bootstrap, *known]))
        last: Exception | None = None
        for addr in candidates:
            try:
                resp, version = self._request(
                    addr,
                    API_METADATA,
                    lambda v: metadata_request.MetadataRequest(
                        topics=None
                        if names is None
                        else [metadata_request.MetadataRequestTopic(name=n) for n in names],
                        allow_auto_topic_creation=False,
                    ),
                    cap=12,  # v10-12 carry topic ids and still accept names
                )
            except KafkaError as e:
                last = e
                continue
            brokers = {b.node_id: (b.host, b.port) for b in resp.brokers}
            out: dict[str, TopicInfo] = {}
            for t in resp.topics or []:
                if t.error_code != ErrorCode.NONE:
                    continue  # unknown topic: simply absent, callers decide what that means
                info = TopicInfo(t.name, getattr(t, "topic_id", b"") or b"", bool(t.is_internal))
                for p in t.partitions or []:
                    info.partitions[p.partition_index] = p.leader_id
                out[t.name] = info
            md = ClusterMetadata(brokers, out)
            if names is None or self._metadata is None:
                self._metadata = md
            else:
                self._metadata.brokers = brokers
                for n in names:
                    if n in out:
                        self._metadata.topics[n] = out[n]
                    else:
                        self._metadata.topics.pop(n, None)
            return md
        raise KafkaClientError(
            f"cannot fetch metadata from any of {self.config.bootstrap_servers}: {last}", ErrorCode.NETWORK_EXCEPTION
        )

    def _leader_addr(self, tp: TopicPartition, refresh: bool = False) -> tuple[str, int]:
        md = self._metadata
        if refresh or md is None or tp[0] not in md.topics:
            self.metadata([tp[0]])
            md = self._metadata
        assert md is not None
        info = md.topics.get(tp[0])
        if info is None or tp[1] not in info.partitions:
            raise UnknownTopicOrPartitionError(f"{tp_str(tp)} does not exist")
        leader = info.partitions[tp[1]]
        if leader < 0 or leader not in md.brokers:
            raise KafkaClientError(f"{tp_str(tp)} has no leader", ErrorCode.LEADER_NOT_AVAILABLE)
        return md.brokers[leader]

    def topic_id(self, topic: str) -> bytes:
        if self._metadata is None or topic not in self._metadata.topics:
            self.metadata([topic])
        assert self._metadata is not None
        info = self._metadata.topics.get(topic)
        return info.topic_id if info is not None else b""

    # --- list offsets --------------------------------------------------------------------------
    def list_offsets(
        self,
        requests: Mapping[TopicPartition, int],
        *,
        isolation_level: int | None = None,
        retries: int = 3,
        retry_interval_ms: int = 1000,
    ) -> dict[TopicPartition, tuple[int, int]]:
        """(offset, timestamp) per partition for ListOffsets timestamps (-2 earliest, -1 latest, or ms).

        An offset of -1 means no record has a timestamp >= the one asked for. Retriable errors
        refresh metadata and retry up to `retries` times, `retry_interval_ms` apart
        (`fetchOffset.numRetries` / `fetchOffset.retryIntervalMs`).
        """
        iso = self.config.isolation_level if isolation_level is None else isolation_level
        pending = dict(requests)
        out: dict[TopicPartition, tuple[int, int]] = {}
        attempt = 0
        refresh = False
        while pending:
            failed: dict[TopicPartition, Exception] = {}
            by_leader: dict[tuple[str, int], list[TopicPartition]] = {}
            for tp in pending:
                try:
                    by_leader.setdefault(self._leader_addr(tp, refresh), []).append(tp)
                except KafkaError as e:
                    failed[tp] = e
            for addr, tps in by_leader.items():
                topics: dict[str, list[Any]] = {}
                for tp in tps:
                    topics.setdefault(tp[0], []).append(
                        list_offsets_request.ListOffsetsPartition(partition_index=tp[1], timestamp=pending[tp])
                    )
                try:
                    resp, _ = self._request(
                        addr,
                        API_LIST_OFFSETS,
                        lambda v, topics=topics: list_offsets_request.ListOffsetsRequest(
                            replica_id=-1,
                            isolation_level=iso,
                            topics=[
                                list_offsets_request.ListOffsetsTopic(name=n, partitions=ps) for n, ps in topics.items()
                            ],
                            timeout_ms=self.config.request_timeout_ms,
                        ),
                    )
                except KafkaError as e:
                    for tp in tps:
                        failed[tp] = e
                    continue
                for t in resp.topics:
                    for p in t.partitions:
                        tp = (t.name, p.partition_index)
                        if tp not in pending:
                            continue
                        code = ErrorCode(p.error_code)
                        if code == ErrorCode.NONE:
                            out[tp] = (p.offset, p.timestamp)
                        else:
                            failed[tp] = KafkaClientError(f"ListOffsets for {tp_str(tp)} failed: {code.name}", code)
            pending = {tp: pending[tp] for tp in failed}
            if not pending:
                break
            fatal = [e for e in failed.values() if getattr(e, "code", None) not in RETRIABLE]
            if fatal or attempt >= retries:
                err = (fatal or list(failed.values()))[0]
                raise KafkaClientError(
                    f"cannot fetch offsets for {', '.join(tp_str(tp) for tp in sorted(failed))} after "
                    f"{attempt + 1} attempt(s) (fetchOffset.numRetries={retries}): {err}",
                    getattr(err, "code", ErrorCode.UNKNOWN_SERVER_ERROR),
                )
            attempt += 1
            refresh = True
            log.warning("retrying offset fetch for %s in %d ms: %s", sorted(failed), retry_interval_ms, failed)
            time.sleep(retry_interval_ms / 1000)
        return out

    # --- fetch ----------------------------------------------------------------------------------
    def fetch(self, tp: TopicPartition, offset: int, max_wait_ms: int | None = None) -> PartitionFetch:
        """One Fetch of one partition from its leader (whole batches from `offset`)."""
        sent = self.fetch_send(tp, offset, max_wait_ms)
        return sent if isinstance(sent, PartitionFetch) else self.fetch_receive(sent)

    def fetch_send(
        self, tp: TopicPartition, offset: int, max_wait_ms: int | None = None
    ) -> PendingFetch | PartitionFetch:
        """Send a Fetch without waiting for its answer (a PartitionFetch if it could not be sent).

        Lets a reader decode one response while the broker prepares the next; every pending
        fetch must be completed with `fetch_receive` or `fetch_discard` before the next request
        on the same connection.
        """
        cfg = self.config
        wait = cfg.fetch_max_wait_ms if max_wait_ms is None else max_wait_ms
        try:
            addr = self._leader_addr(tp)
            topic_id = self.topic_id(tp[0])
        except KafkaError as e:
            return PartitionFetch(getattr(e, "code", ErrorCode.UNKNOWN_SERVER_ERROR), -1, -1, -1, None, None)
        part = fetch_request.FetchPartition(
            partition=tp[1], fetch_offset=offset, partition_max_bytes=cfg.max_partition_fetch_bytes
        )
        body = fetch_request.FetchRequest(
            replica_id=-1,
            max_wait_ms=wait,
            min_bytes=cfg.fetch_min_bytes,
            max_bytes=cfg.fetch_max_bytes,
            isolation_level=cfg.isolation_level,
            topics=[fetch_request.FetchTopic(topic=tp[0], topic_id=topic_id, partitions=[part])],
        )
        try:
            conn = self._connect(addr)
            version = conn.best_version(API_FETCH)
            if not topic_id or topic_id == bytes(16):
                version = min(version, 12)  # Fetch v13+ names topics by id only
            # the socket must outlive the broker's long poll
            conn.sock.settimeout((cfg.request_timeout_ms + wait) / 1000)
            cid, version = conn.send(API_FETCH, body, version)
        except (OSError, KafkaError, ProtocolDecodeError) as e:
            self._drop(addr)
            self._metadata = None  # the leader may have moved
            return PartitionFetch(getattr(e, "code", ErrorCode.NETWORK_EXCEPTION), -1, -1, -1, None, None)
        return PendingFetch(tp, addr, cid, version)

    def fetch_receive(self, pending: PendingFetch) -> PartitionFetch:
        tp = pending.tp
        conn = self._conns.get(pending.addr)
        if conn is None:
            return PartitionFetch(ErrorCode.NETWORK_EXCEPTION, -1, -1, -1, None, None)
        try:
            resp = conn.receive(API_FETCH, pending.version, pending.correlation_id)
        except (OSError, KafkaError, ProtocolDecodeError) as e:
            self._drop(pending.addr)
            self._metadata = None
            return PartitionFetch(getattr(e, "code", ErrorCode.NETWORK_EXCEPTION), -1, -1, -1, None, None)
        if resp.error_code:
            return PartitionFetch(ErrorCode(resp.error_code), -1, -1, -1, None, None)
        for t in resp.responses:
            for p in t.partitions:
                if p.partition_index != tp[1]:
                    continue
                code = ErrorCode(p.error_code)
                if code in RETRIABLE:
                    self._metadata = None
                aborted = None
                if p.aborted_transactions:
                    aborted = [(a.producer_id, a.first_offset) for a in p.aborted_transactions]
                return PartitionFetch(
                    code, p.high_watermark, p.last_stable_offset, p.log_start_offset, p.records, aborted
                )
        return PartitionFetch(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1, -1, -1, None, None)

    def fetch_discard(self, pending: PendingFetch) -> None:
        """Read and drop the answer of a fetch that is no longer wanted (keeps the connection in sync)."""
        self.fetch_receive(pending)


# One client per configuration per Python process: executor workers are reused across tasks and
# micro-batches. Every query has its own configuration (its client id), so the cache is bounded:
# the least recently used client is closed when a new one would exceed the bound.
_MAX_SHARED_CLIENTS = 8
_clients: OrderedDict[ClientConfig, KafkaClient] = OrderedDict()
_clients_lock = threading.Lock()


def shared_client(config: ClientConfig) -> KafkaClient:
    evicted: list[KafkaClient] = []
    with _clients_lock:
        client = _clients.get(config)
        if client is None or client.closed:
            client = KafkaClient(config)
            _clients[config] = client
            while len(_clients) > _MAX_SHARED_CLIENTS:
                evicted.append(_clients.popitem(last=False)[1])
        _clients.move_to_end(config)
    for old in evicted:
        old.close()
    return client


def drop_shared_client(config: ClientConfig) -> None:
    with _clients_lock:
        client = _clients.pop(config, None)
    if client is not None:
        client.close()


__all__ = [
    "EARLIEST_TIMESTAMP",
    "LATEST_TIMESTAMP",
    "READ_COMMITTED",
    "READ_UNCOMMITTED",
    "ClientConfig",
    "ClusterMetadata",
    "KafkaClient",
    "KafkaClientError",
    "PartitionFetch",
    "PendingFetch",
    "TopicInfo",
    "UnknownTopicOrPartitionError",
    "drop_shared_client",
    "parse_bootstrap",
    "shared_client",
]
