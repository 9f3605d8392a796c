"""`KafkaClient`: connections to a cluster, the metadata and leader cache, retries and backoff.

The one client stack of the suite (the Spark source's planning and fetches, `group_lag`, the Delta
sink's offset mirror, standalone offset commits). Blocking and single-threaded: one request at a
time per connection; the caller owns the client.

Failures are handled the way Kafka's Java clients do:

* transport failures (refused, reset, timed out after `request.timeout.ms`) close the connection;
  the broker's address is not dialled again before `reconnect.backoff.ms` (doubling up to
  `reconnect.backoff.max.ms`);
* a moved leader (NOT_LEADER_OR_FOLLOWER, FENCED_/UNKNOWN_LEADER_EPOCH, LEADER_NOT_AVAILABLE,
  OFFSET_NOT_AVAILABLE while a new leader's high watermark catches up, ...) or a moved coordinator
  (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE/LOAD_IN_PROGRESS) invalidates the cached leader or
  coordinator; metadata is refreshed from any live known broker or bootstrap server;
* a response's `throttle_time_ms` delays the next request to that broker;
* every call retries, `retry.backoff.ms` apart (doubling up to `retry.backoff.max.ms`), until
  `default.api.timeout.ms` has passed, and only then fails with a `KafkaClientError` naming the
  partitions (or group), the brokers tried and the timeout.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka_wire.client import coordinator as coord
from kafka_wire.client.bootstrap import format_addrs, parse_bootstrap
from kafka_wire.client.config import ClientConfig
from kafka_wire.client.connection import BrokerConnection
from kafka_wire.client.security import AuthenticationError
from kafka_wire.errors import ErrorCode, KafkaError, ProtocolDecodeError
from kafka_wire.protocol.messages import (
    describe_groups_request,
    fetch_request,
    list_offsets_request,
    metadata_request,
)
from kafka_wire.types import TopicPartition, tp_str

log = logging.getLogger(__name__)

API_FETCH = 1
API_LIST_OFFSETS = 2
API_METADATA = 3
API_DESCRIBE_GROUPS = 15

EARLIEST_TIMESTAMP = -2
LATEST_TIMESTAMP = -1

Addr = tuple[str, int]

# Errors after which a metadata refresh and a retry may succeed (leader moved, broker restarting).
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
        ErrorCode.NOT_ENOUGH_REPLICAS,
        ErrorCode.NOT_CONTROLLER,
        ErrorCode.THROTTLING_QUOTA_EXCEEDED,
    }
    | coord.COORDINATOR_ERRORS
)


class KafkaClientError(KafkaError):
    """A request failed for good (after retries), or the broker answered with a fatal error."""


class UnknownTopicOrPartitionError(KafkaClientError):
    code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


class ClientAuthenticationError(KafkaClientError):
    """SASL or TLS authentication with a broker failed: never retried (as Kafka's clients)."""

    code = ErrorCode.SASL_AUTHENTICATION_FAILED


# Failures no retry can mend: authentication, and a missing ACL (the call fails at once, naming
# the topic or group, instead of retrying until default.api.timeout.ms)
FATAL = frozenset(
    {
        ErrorCode.SASL_AUTHENTICATION_FAILED,
        ErrorCode.UNSUPPORTED_SASL_MECHANISM,
        ErrorCode.ILLEGAL_SASL_STATE,
        ErrorCode.TOPIC_AUTHORIZATION_FAILED,
        ErrorCode.GROUP_AUTHORIZATION_FAILED,
        ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
    }
)


def _fatal(e: BaseException) -> bool:
    return isinstance(e, (ClientAuthenticationError, AuthenticationError)) or _error_code(e) in FATAL


@dataclass
class TopicInfo:
    name: str
    topic_id: bytes
    internal: bool
    partitions: dict[int, int] = field(default_factory=dict)  # partition -> leader node id (-1: none)


@dataclass
class ClusterMetadata:
    brokers: dict[int, Addr]
    topics: dict[str, TopicInfo]
    controller_id: int = -1


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
    addr: Addr
    correlation_id: int
    version: int


class Backoff:
    """Exponential backoff with +-20 % jitter, as Kafka's ExponentialBackoff."""

    def __init__(self, initial_ms: int, max_ms: int) -> None:
        self.initial_ms = max(0, initial_ms)
        self.max_ms = max(self.initial_ms, max_ms)
        self.attempts = 0

    def next_ms(self) -> float:
        base = min(self.max_ms, self.initial_ms * (2**self.attempts))
        self.attempts += 1
        return base * random.uniform(0.8, 1.2) if base else 0.0


def _error_code(e: BaseException) -> ErrorCode:
    code = getattr(e, "code", None)
    return code if isinstance(code, ErrorCode) else ErrorCode.UNKNOWN_SERVER_ERROR


class KafkaClient:
    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self._bootstrap = parse_bootstrap(config.bootstrap_servers)
        self._conns: dict[Addr, BrokerConnection] = {}
        self._metadata: ClusterMetadata | None = None
        self._brokers: dict[int, Addr] = {}  # every broker seen, kept across leader invalidation
        self._reconnect: dict[Addr, tuple[float, Backoff]] = {}  # addr -> (not before, backoff)
        self._throttled_until: dict[Addr, float] = {}
        self._coordinators: dict[str, Addr] = {}
        self.tried: set[Addr] = set()  # brokers the current call reached for (for error messages)
        self.closed = False

    # --- connections -------------------------------------------------------------------------
    def _connect(self, addr: Addr) -> BrokerConnection:
        conn = self._conns.get(addr)
        if conn is not None:
            return conn
        self.tried.add(addr)
        not_before, backoff = self._reconnect.get(addr, (0.0, None))
        wait = not_before - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        try:
            conn = BrokerConnection(
                addr[0],
                addr[1],
                client_id=self.config.client_id,
                timeout=self.config.connect_timeout_ms / 1000,
                security=self.config.security,
            )
        except (OSError, KafkaError, ProtocolDecodeError) as e:
            if backoff is None:
                backoff = Backoff(self.config.reconnect_backoff_ms, self.config.reconnect_backoff_max_ms)
            self._reconnect[addr] = (time.monotonic() + backoff.next_ms() / 1000, backoff)
            if isinstance(e, AuthenticationError):
                raise ClientAuthenticationError(str(e), e.code) from None
            raise
        self._reconnect.pop(addr, None)
        conn.sock.settimeout(self.config.request_timeout_ms / 1000)
        self._conns[addr] = conn
        return conn

    def _drop(self, addr: Addr) -> None:
        conn = self._conns.pop(addr, None)
        if conn is not None:
            conn.close()

    def _request(self, addr: Addr, api_key: int, body_for_version: Callable[[int], Any], cap: int | None = None) -> Any:
        """Send one request to `addr`; transport failures close the connection and raise."""
        self.tried.add(addr)
        try:
            conn = self._connect(addr)
            version = conn.best_version(api_key)
            if cap is not None:
                version = min(version, cap)
            throttled = self._throttled_until.get(addr, 0.0) - time.monotonic()
            if throttled > 0:
                time.sleep(throttled)
            resp = conn.request(api_key, body_for_version(version), version)
        except (TimeoutError, OSError, ProtocolDecodeError) as e:
            self._drop(addr)
            raise KafkaClientError(f"request to {addr[0]}:{addr[1]} failed: {e}", ErrorCode.NETWORK_EXCEPTION) from e
        except KafkaError:
            self._drop(addr)
            raise
        throttle = getattr(resp, "throttle_time_ms", 0) or 0
        if throttle > 0:
            self._throttled_until[addr] = time.monotonic() + throttle / 1000
        return resp, version

    def close(self) -> None:
        for addr in list(self._conns):
            self._drop(addr)
        self.closed = True

    def _retry_sleep(self, backoff: Backoff, deadline: float) -> bool:
        """Sleep the next backoff; False when the deadline leaves no time for another attempt."""
        now = time.monotonic()
        if now >= deadline:
            return False
        time.sleep(min(backoff.next_ms() / 1000, max(0.0, deadline - now)))
        return True

    def _timeout_text(self) -> str:
        return f"kafka.default.api.timeout.ms={self.config.default_api_timeout_ms}"

    # --- metadata ------------------------------------------------------------------------------
    def _candidates(self) -> list[Addr]:
        """Live connections first, then every broker seen, then the bootstrap servers; addresses
        in reconnect backoff go last."""
        addrs = list(dict.fromkeys([*self._conns.keys(), *self._brokers.values(), *self._bootstrap]))
        now = time.monotonic()
        return sorted(addrs, key=lambda a: self._reconnect.get(a, (0.0, None))[0] > now)

    def _metadata_once(self, names: list[str] | None) -> ClusterMetadata:
        last: Exception | None = None
        for addr in self._candidates():
            try:
                resp, _ = self._request(
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
                if _fatal(e):
                    raise
                last = e
                continue
            denied = sorted(
                t.name for t in resp.topics or [] if t.error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED and t.name
            )
            if denied:
                raise KafkaClientError(
                    f"not authorized to access topics: [{', '.join(denied)}] (TOPIC_AUTHORIZATION_FAILED from "
                    f"{addr[0]}:{addr[1]}): the principal needs a DESCRIBE (and READ/WRITE) ACL on them",
                    ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                )
            brokers = {b.node_id: (b.host, b.port) for b in resp.brokers}
            self._brokers.update(brokers)
            out: dict[str, TopicInfo] = {}
            for t in resp.topics or []:
                if t.error_code != ErrorCode.NONE:
                    continue  # unknown topic: simply absent, callers decide what that means
                info = TopicInfo(t.name, getattr(t, "topic_id", b"") or b"", bool(t.is_internal))
                for p in t.partitions or []:
                    info.partitions[p.partition_index] = p.leader_id
                out[t.name] = info
            md = ClusterMetadata(brokers, out, getattr(resp, "controller_id", -1))
            if names is None or self._metadata is None:
                self._metadata = ClusterMetadata(dict(brokers), dict(out), md.controller_id)
            else:
                self._metadata.brokers = brokers
                for n in names:
                    if n in out:
                        self._metadata.topics[n] = out[n]
                    else:
                        self._metadata.topics.pop(n, None)
            return md
        raise KafkaClientError(
            f"no broker answered Metadata: {last}", _error_code(last) if last else ErrorCode.NETWORK_EXCEPTION
        )

    def metadata(self, topics: Iterable[str] | None = None) -> ClusterMetadata:
        """Fresh metadata for `topics` (None: every topic), from any live known broker or bootstrap
        server, retrying within `default.api.timeout.ms`."""
        names = None if topics is None else sorted(set(topics))
        self.tried = set()
        deadline = time.monotonic() + self.config.default_api_timeout_ms / 1000
        backoff = Backoff(self.config.retry_backoff_ms, self.config.retry_backoff_max_ms)
        while True:
            try:
                return self._metadata_once(names)
            except KafkaClientError as e:
                if _fatal(e):
                    raise
                if not self._retry_sleep(backoff, deadline):
                    raise KafkaClientError(
                        f"cannot fetch metadata within {self._timeout_text()}; brokers tried: "
                        f"{format_addrs(sorted(self.tried))} (bootstrap.servers={self.config.bootstrap_servers}): {e}",
                        e.code,
                    ) from e

    def invalidate(self, topic: str | None = None) -> None:
        """Forget cached leaders (of `topic`, or all); known broker addresses are kept."""
        if self._metadata is None:
            return
        if topic is None:
            self._metadata.topics.clear()
        else:
            self._metadata.topics.pop(topic, None)

    def _leader_addr(self, tp: TopicPartition, refresh: bool = False) -> Addr:
        md = self._metadata
        if refresh or md is None or tp[0] not in md.topics:
            self._metadata_once([tp[0]])
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
            self._metadata_once([topic])
        assert self._metadata is not None
        info = self._metadata.topics.get(topic)
        return info.topic_id if info is not None else b""

    # --- list offsets --------------------------------------------------------------------------
    def _list_offsets_round(
        self, pending: Mapping[TopicPartition, int], iso: int, refresh: bool
    ) -> tuple[dict[TopicPartition, tuple[int, int]], dict[TopicPartition, KafkaError]]:
        out: dict[TopicPartition, tuple[int, int]] = {}
        failed: dict[TopicPartition, KafkaError] = {}
        by_leader: dict[Addr, list[TopicPartition]] = {}
        if refresh:
            for topic in {tp[0] for tp in pending}:
                self.invalidate(topic)  # refetched once per topic below
        for tp in pending:
            try:
                by_leader.setdefault(self._leader_addr(tp), []).append(tp)
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
                    # the default binds this round's topics; mypy cannot infer a lambda with a defaulted parameter
                    lambda v, topics=topics: list_offsets_request.ListOffsetsRequest(  # type: ignore[misc]
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
                    tp = TopicPartition(t.name, p.partition_index)
                    if tp not in pending:
                        continue
                    code = ErrorCode(p.error_code)
                    if code == ErrorCode.NONE:
                        out[tp] = (p.offset, p.timestamp)
                    else:
                        failed[tp] = KafkaClientError(f"ListOffsets for {tp_str(tp)} failed: {code.name}", code)
        return out, failed

    def list_offsets(
        self,
        requests: Mapping[TopicPartition, int],
        *,
        isolation_level: int | None = None,
        retries: int = 3,
        retry_interval_ms: int = 1000,
    ) -> dict[TopicPartition, tuple[int, int]]:
        """(offset, timestamp) per partition for ListOffsets timestamps (-2 earliest, -1 latest, or ms).

        An offset of -1 means no record has a timestamp >= the one asked for. Each attempt retries a
        moved leader, a dead broker or a timed-out request (metadata refresh, `retry.backoff.ms`)
        within `default.api.timeout.ms`, as KafkaConsumer.offsetsForTimes does; a partition missing
        from fresh metadata ends the attempt at once. Spark's `fetchOffset.numRetries` /
        `fetchOffset.retryIntervalMs` (`retries`, `retry_interval_ms`) repeat failed attempts.
        """
        iso = self.config.isolation_level if isolation_level is None else isolation_level
        pending = dict(requests)
        out: dict[TopicPartition, tuple[int, int]] = {}
        self.tried = set()
        attempt = 0
        refresh = False
        while True:
            deadline = time.monotonic() + self.config.default_api_timeout_ms / 1000
            backoff = Backoff(self.config.retry_backoff_ms, self.config.retry_backoff_max_ms)
            while True:
                got, failed = self._list_offsets_round(pending, iso, refresh)
                out.update(got)
                pending = {tp: pending[tp] for tp in failed}
                if not pending:
                    return out
                refresh = True
                fatal = [e for e in failed.values() if _error_code(e) not in RETRIABLE]
                missing = all(isinstance(e, UnknownTopicOrPartitionError) for e in failed.values())
                if fatal or missing or not self._retry_sleep(backoff, deadline):
                    break
                log.info("retrying ListOffsets for %s: %s", sorted(failed), next(iter(failed.values())))
            if fatal or attempt >= retries:
                err = (fatal or list(failed.values()))[0]
                within = "" if fatal or missing else f", each retrying for up to {self._timeout_text()}"
                raise KafkaClientError(
                    f"cannot fetch offsets for {', '.join(tp_str(tp) for tp in sorted(failed))} after "
                    f"{attempt + 1} attempt(s) (fetchOffset.numRetries={retries}{within}); brokers tried: "
                    f"{format_addrs(sorted(self.tried))}: {err}",
                    _error_code(err),
                )
            attempt += 1
            log.warning("retrying offset fetch for %s in %d ms: %s", sorted(failed), retry_interval_ms, failed)
            time.sleep(retry_interval_ms / 1000)

    # --- fetch ----------------------------------------------------------------------------------
    def fetch(self, tp: TopicPartition, offset: int, max_wait_ms: int | None = None) -> PartitionFetch:
        """One Fetch of one partition from its leader (whole batches from `offset`).

        Errors come back in `PartitionFetch.error` (never raised): the caller decides how long to
        retry (the source: `kafkaConsumer.pollTimeoutMs`). A retriable error has already
        invalidated the cached leader, so the next call goes to the new one.
        """
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
            if _fatal(e):
                raise  # with its message (which certificate, which user), not just a code
            return PartitionFetch(_error_code(e), -1, -1, -1, None, None)
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
            if _fatal(e):
                self._drop(addr)
                raise
            self._drop(addr)
            self.invalidate(tp[0])  # the leader may have moved
            code = (
                e.code if isinstance(e, KafkaError) and isinstance(e.code, ErrorCode) else ErrorCode.NETWORK_EXCEPTION
            )
            return PartitionFetch(code, -1, -1, -1, None, None)
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
            self.invalidate(tp[0])
            code = (
                e.code if isinstance(e, KafkaError) and isinstance(e.code, ErrorCode) else ErrorCode.NETWORK_EXCEPTION
            )
            return PartitionFetch(code, -1, -1, -1, None, None)
        if resp.throttle_time_ms:
            self._throttled_until[pending.addr] = time.monotonic() + resp.throttle_time_ms / 1000
        if resp.error_code:
            return PartitionFetch(ErrorCode(resp.error_code), -1, -1, -1, None, None)
        for t in resp.responses:
            for p in t.partitions:
                if p.partition_index != tp[1]:
                    continue
                code = ErrorCode(p.error_code)
                if code in RETRIABLE:
                    self.invalidate(tp[0])
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

    # --- group coordinator -----------------------------------------------------------------------
    def _find_coordinator_once(self, group_id: str) -> Addr:
        last: KafkaError | None = None
        for addr in self._candidates():
            try:
                resp, v = self._request(
                    addr, coord.API_FIND_COORDINATOR, lambda v: coord.find_coordinator_body(v, group_id)
                )
            except KafkaError as e:
                if _fatal(e):
                    raise
                last = e
                continue
            code, _node, host, port = coord.find_coordinator_result(v, resp)
            if code != ErrorCode.NONE:
                raise KafkaClientError(f"FindCoordinator for group {group_id!r}: {code.name}", code)
            return (host, port)
        raise last or KafkaClientError("no broker to ask for the coordinator", ErrorCode.NETWORK_EXCEPTION)

    def _coordinator_call(self, group_id: str, what: str, call: Callable[[Addr], Any]) -> Any:
        """Run `call(coordinator address)`, finding the coordinator first and again whenever it moved,
        retrying retriable failures within `default.api.timeout.ms`."""
        self.tried = set()
        deadline = time.monotonic() + self.config.default_api_timeout_ms / 1000
        backoff = Backoff(self.config.retry_backoff_ms, self.config.retry_backoff_max_ms)
        while True:
            try:
                addr = self._coordinators.get(group_id)
                if addr is None:
                    addr = self._find_coordinator_once(group_id)
                    self._coordinators[group_id] = addr
                return call(addr)
            except KafkaError as e:
                code = _error_code(e)
                if code in coord.COORDINATOR_ERRORS or code == ErrorCode.NETWORK_EXCEPTION:
                    self._coordinators.pop(group_id, None)
                if code not in RETRIABLE:
                    raise
                if not self._retry_sleep(backoff, deadline):
                    raise KafkaClientError(
                        f"{what} for group {group_id!r} failed within {self._timeout_text()}; brokers tried: "
                        f"{format_addrs(sorted(self.tried))}: {e}",
                        code,
                    ) from e
                log.info("retrying %s for group %s: %s", what, group_id, e)

    def find_coordinator(self, group_id: str) -> Addr:
        """(host, port) of `group_id`'s coordinator, retrying within `default.api.timeout.ms`."""
        return self._coordinator_call(group_id, "FindCoordinator", lambda addr: addr)

    def commit_offsets(
        self,
        group_id: str,
        offsets: Mapping[TopicPartition, int],
        *,
        generation_id: int = -1,
        member_id: str = "",
        metadata: str = "",
        group_instance_id: str | None = None,
        leader_epochs: Mapping[TopicPartition, int] | None = None,
    ) -> None:
        """OffsetCommit `offsets` (partition -> next offset to read) for `group_id`.

        Without group membership by default (generation -1, member id ""): the coordinator takes
        such a commit while the group has no active members, as for Kafka's admin
        alterConsumerGroupOffsets and a consumer's commitSync without subscribe(). `metadata` is
        stored with every partition. Retries a moved coordinator and transport failures within
        `default.api.timeout.ms`; any other per-partition error raises `KafkaClientError` naming
        the partitions and the error (e.g. UNKNOWN_MEMBER_ID while the group has live members).
        """
        if not offsets:
            return
        epochs = leader_epochs or {}
        entries = {tp: (off, metadata, epochs.get(tp, -1)) for tp, off in offsets.items()}

        def call(addr: Addr) -> None:
            resp, _ = self._request(
                addr,
                coord.API_OFFSET_COMMIT,
                lambda v: coord.offset_commit_body(v, group_id, entries, generation_id, member_id, group_instance_id),
                cap=9,  # v10 names topics by id
            )
            errors = {tp: c for tp, c in coord.offset_commit_errors(resp).items() if c != ErrorCode.NONE}
            if errors:
                code = next(iter(errors.values()))
                raise KafkaClientError(
                    f"OffsetCommit for group {group_id!r} failed for "
                    f"{', '.join(f'{tp_str(tp)}: {c.name}' for tp, c in sorted(errors.items()))}",
                    code,
                )

        self._coordinator_call(group_id, "OffsetCommit", call)

    def fetch_offsets(
        self, group_id: str, partitions: Iterable[TopicPartition] | None = None
    ) -> dict[TopicPartition, tuple[int, str]]:
        """The committed (next offset, metadata) of `group_id` for `partitions` (None: every partition
        the group has committed). Partitions without a committed offset are left out."""
        tps = None if partitions is None else sorted(set(partitions))

        def call(addr: Addr) -> dict[TopicPartition, tuple[int, str]]:
            resp, _ = self._request(
                addr, coord.API_OFFSET_FETCH, lambda v: coord.offset_fetch_body(v, group_id, tps), cap=9
            )
            code, parts = coord.offset_fetch_result(resp)
            if code != ErrorCode.NONE:
                raise KafkaClientError(f"OffsetFetch for group {group_id!r}: {code.name}", code)
            out: dict[TopicPartition, tuple[int, str]] = {}
            for tp, (pcode, offset, meta, _epoch) in parts.items():
                if pcode != ErrorCode.NONE:
                    raise KafkaClientError(f"OffsetFetch for group {group_id!r}, {tp_str(tp)}: {pcode.name}", pcode)
                if offset >= 0:
                    out[TopicPartition(*tp)] = (offset, meta)
            return out

        result: dict[TopicPartition, tuple[int, str]] = self._coordinator_call(group_id, "OffsetFetch", call)
        return result

    def describe_group(self, group_id: str) -> Any:
        """The DescribeGroups entry of `group_id` (state, protocol, members with their assignments)."""

        def call(addr: Addr) -> Any:
            resp, _ = self._request(
                addr, API_DESCRIBE_GROUPS, lambda v: describe_groups_request.DescribeGroupsRequest(groups=[group_id])
            )
            g = resp.groups[0]
            if g.error_code != ErrorCode.NONE:
                code = coord._code(g.error_code)
                raise KafkaClientError(f"DescribeGroups {group_id!r}: {code.name}", code)
            return g

        return self._coordinator_call(group_id, "DescribeGroups", call)


__all__ = [
    "EARLIEST_TIMESTAMP",
    "LATEST_TIMESTAMP",
    "FATAL",
    "RETRIABLE",
    "Backoff",
    "ClientAuthenticationError",
    "ClusterMetadata",
    "KafkaClient",
    "KafkaClientError",
    "PartitionFetch",
    "PendingFetch",
    "TopicInfo",
    "UnknownTopicOrPartitionError",
]
