"""The asyncio driver of a RaftNode (DESIGN.md §7: the core is sans-IO; this owns sockets, timers, disk).

- Storage: `FileRaftLog` + `FileQuorumStateStore` in `data_dir` (fsync, atomic renames; `file_log.py`).
- Listener (the controller listener, Kafka's ControllerApis for the quorum): Vote, BeginQuorumEpoch,
  EndQuorumEpoch, Fetch (of `__cluster_metadata`), FetchSnapshot, DescribeQuorum and ApiVersions, in
  Kafka 4.3.1's encodings (`raft/wire.py`, the per-API maps in `broker_embedded/apis/`). An inbound request
  gets a driver correlation id that the core echoes in its answer, so a response the core hands back
  later (a parked long-poll Fetch) goes to the connection and Kafka correlation id it came with.
  Responses are written when ready, so on one connection they may leave out of request order (our own
  peers match by correlation id; Kafka's tools send DescribeQuorum one at a time).
- Outbound: one connection per peer voter, opened on demand; a lost connection drops its in-flight
  requests and the core's own request timeouts resend.
- Timers: one task sleeps until the core's next deadline (or until an input changed it) and ticks.
- Application hooks: `on_apply(entries)` with committed entries (control records included: the caller
  filters), `on_load_snapshot(snapshot_id, data)`, `on_leader_change(epoch, leader_id)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import ssl
import struct
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from broker_embedded.apis import (
    add_raft_voter,
    begin_quorum_epoch,
    describe_quorum,
    end_quorum_epoch,
    fetch_snapshot,
    remove_raft_voter,
    update_raft_voter,
    vote,
)
from broker_embedded.raft import fetch_wire, wire
from broker_embedded.raft import messages as m
from broker_embedded.raft.file_log import FileQuorumStateStore, FileRaftLog
from broker_embedded.raft.node import NotLeaderError, RaftConfig, RaftNode
from broker_embedded.raft.quorum import Role
from broker_embedded.raft.voters import endpoints_of
from kafka_wire.errors import ErrorCode, ProtocolDecodeError
from kafka_wire.protocol.messages import api_versions_response, describe_cluster_response

log = logging.getLogger(__name__)

_LEN = struct.Struct(">i")
MAX_FRAME = 64 << 20
_SERVED: tuple[int, ...] = (wire.FETCH, wire.API_VERSIONS, wire.VOTE, wire.BEGIN_QUORUM_EPOCH, wire.END_QUORUM_EPOCH)
_SERVED += (wire.DESCRIBE_QUORUM, wire.FETCH_SNAPSHOT, wire.DESCRIBE_CLUSTER)
_SERVED += (wire.ADD_RAFT_VOTER, wire.REMOVE_RAFT_VOTER, wire.UPDATE_RAFT_VOTER)
VOTER_CHANGE_TIMEOUT_S = 30.0  # RemoveRaftVoter has no timeout field (AddRaftVoter's TimeoutMs wins there)
ENDPOINT_TYPE_CONTROLLER = 2  # KIP-919: DescribeCluster answered by a controller lists controllers


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


async def read_frame(reader: asyncio.StreamReader) -> bytes | None:
    try:
        head = await reader.readexactly(4)
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    (size,) = _LEN.unpack(head)
    if not 0 <= size <= MAX_FRAME:
        raise ProtocolDecodeError(f"frame of {size} bytes")
    return await reader.readexactly(size)


class _Peer:
    """The outbound connection to one voter."""

    def __init__(self) -> None:
        self.writer: asyncio.StreamWriter | None = None
        self.connecting: asyncio.Task[None] | None = None
        self.queue: list[bytes] = []
        # Kafka correlation id -> (api key, version, the core's correlation id, pre_vote)
        self.inflight: dict[int, tuple[int, int, int, bool]] = {}


class RaftDriver:
    def __init__(
        self,
        node_id: int,
        voters: dict[int, tuple[str, int]],
        data_dir: Path | str,
        *,
        config: RaftConfig | None = None,
        cluster_id: str | None = None,
        on_apply: Callable[[tuple[m.LogEntry, ...]], None] | None = None,
        on_load_snapshot: Callable[[m.OffsetAndEpoch, bytes], None] | None = None,
        on_leader_change: Callable[[int, int | None], None] | None = None,
        clock: Callable[[], int] = monotonic_ms,
        rng: random.Random | None = None,
        listeners: dict[int, tuple[str, int]] | None = None,
        server_tls: ssl.SSLContext | None = None,
        client_tls: ssl.SSLContext | None = None,
    ) -> None:
        self.node_id = node_id
        # the controller listener's TLS (controller.listener.names mapped to SSL): the listener serves TLS only,
        # and every connection to another voter or leader is TLS (as KRaft's CONTROLLER listener on SSL)
        self.server_tls, self.client_tls = server_tls, client_tls
        # voters' listeners, plus `listeners`: controllers that are no voter yet (KIP-853: an observer with a
        # listener, caught up, becomes a voter by AddRaftVoter), so every node can reach them once they vote
        self.endpoints = {**(listeners or {}), **voters}
        # an observer (a broker reading __cluster_metadata) is not among the voters: it listens nowhere and
        # only fetches (the core never has it vote, stand or send BeginQuorumEpoch)
        self.observer = node_id not in voters
        self.host, self.port = self.endpoints.get(node_id, ("", 0))
        self.config = config or RaftConfig()
        self.cluster_id = cluster_id
        self.clock = clock
        self.on_apply = on_apply
        self.on_load_snapshot = on_load_snapshot
        self.on_leader_change = on_leader_change
        self.log = FileRaftLog(Path(data_dir))
        self.quorum_store = FileQuorumStateStore(Path(data_dir))
        self.node = RaftNode(node_id, voters, self.log, self.quorum_store, clock, rng or random.Random(), self.config)
        self._peers: dict[int, _Peer] = {}
        self._inbound: dict[tuple[int, int], tuple[asyncio.StreamWriter, int, int, int]] = {}
        self._next_inbound = 1 << 40  # clear of the core's own correlation ids in logs
        self._next_kafka_corr = 0
        self._wake = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._timer: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._connections: set[asyncio.StreamWriter] = set()
        self._commit_waiters: list[tuple[int, asyncio.Future[None]]] = []
        self.leader_changed = asyncio.Event()
        self.running = False
        # the cluster id DescribeCluster reports (the controller sets it from its metadata image)
        self.cluster_id_source: Callable[[], str | None] = lambda: self.cluster_id
        # the application's own RPCs on this listener (the controller: BrokerRegistration, BrokerHeartbeat),
        # api key -> async handler(body) -> response body; they check the cluster id themselves
        self.app_handlers: dict[int, Callable[[Any], Awaitable[Any]]] = {}

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        if self.node_id in self.endpoints:
            self._server = await asyncio.start_server(
                self._serve, self.host, self.port, reuse_address=True, ssl=self.server_tls
            )
        self.running = True
        self._process(self.node.start())
        self._timer = asyncio.get_running_loop().create_task(self._run_timer())

    async def stop(self, graceful: bool = True) -> None:
        """graceful: a leader sends EndQuorumEpoch first (Kafka's controlled shutdown of a controller)."""
        if graceful and self.running and self.node_id in self.endpoints:
            with contextlib.suppress(Exception):
                self._process(self.node.resign())
                for peer in self._peers.values():
                    if peer.writer is not None:
                        with contextlib.suppress(Exception):
                            await asyncio.wait_for(peer.writer.drain(), 0.5)
        self.running = False
        if self._timer is not None:
            self._timer.cancel()
        if self._server is not None:
            self._server.close()
        for w in list(self._connections):
            w.close()
        for peer in self._peers.values():
            if peer.writer is not None:
                peer.writer.close()
            if peer.connecting is not None:
                peer.connecting.cancel()
        for t in list(self._tasks):
            t.cancel()
        for _, fut in self._commit_waiters:
            if not fut.done():
                fut.set_exception(NotLeaderError(None, self.node.epoch))
        self._commit_waiters.clear()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        self.log.close()

    # ------------------------------------------------------------------ the application's surface

    def append(self, values: Iterable[bytes]) -> int:
        """Append on the leader (NotLeaderError elsewhere); the offset of the last value."""
        offset, actions = self.node.append(list(values))
        self._process(actions)
        return offset

    async def wait_committed(self, offset: int, timeout: float) -> None:
        """Until `offset` is applied here (committed on a majority); TimeoutError otherwise."""
        if self.node.applied_offset > offset:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._commit_waiters.append((offset, fut))
        await asyncio.wait_for(fut, timeout)

    def create_snapshot(self, offset: int, data: bytes) -> m.OffsetAndEpoch:
        """The application's state after every entry below `offset` (<= the applied offset): the log before it
        goes, and a replica that needs it later gets it by FetchSnapshot."""
        return self.node.create_snapshot(offset, data)

    def describe_quorum(self) -> Any:
        return self.node.describe_quorum()

    def change_voters(self, replica_id: int, adding: bool, endpoint: tuple[str, int] | None = None) -> int:
        """AddRaftVoter / RemoveRaftVoter on the leader: the offset of the VotersRecord (NotLeaderError or
        VoterChangeError from the core when refused). The record carries the voters' endpoints (`endpoint`: the
        new voter's listener), so every replica can reach a voter it was not configured with."""
        endpoints = dict(self.endpoints)
        if endpoint is not None:
            endpoints.setdefault(replica_id, endpoint)
        if adding:
            offset, actions = self.node.add_voter(replica_id, endpoints)
        else:
            offset, actions = self.node.remove_voter(replica_id, endpoints)
        if endpoint is not None:
            self.endpoints.setdefault(replica_id, endpoint)  # the leader must reach it (BeginQuorumEpoch)
        self._process(actions)
        return offset

    def leader_and_epoch(self) -> tuple[int | None, int, bool, frozenset[int]]:
        return self.node.leader_id, self.node.epoch, self.node.role is Role.LEADER, self.node.voters

    # ------------------------------------------------------------------ actions

    def _process(self, actions: list[m.Action]) -> None:
        for a in actions:
            if isinstance(a, m.Send):
                self._send(a.destination, a.message)
            elif isinstance(a, m.Apply):
                for e in a.entries:
                    # a committed VotersRecord names the voters' listeners (KIP-853): learn the ones not configured
                    for voter, address in endpoints_of(e).items():
                        self.endpoints.setdefault(voter, address)
                if self.on_apply is not None:
                    self.on_apply(a.entries)
                self._resolve_waiters()
            elif isinstance(a, m.LoadSnapshot):
                if self.on_load_snapshot is not None:
                    self.on_load_snapshot(a.snapshot_id, a.data)
                self._resolve_waiters()
            elif isinstance(a, m.LeaderChange):
                if self.on_leader_change is not None:
                    self.on_leader_change(a.epoch, a.leader_id)
                self.leader_changed.set()
        self._wake.set()

    def _resolve_waiters(self) -> None:
        applied = self.node.applied_offset
        keep = []
        for offset, fut in self._commit_waiters:
            if fut.done():
                continue
            if applied > offset:
                fut.set_result(None)
            else:
                keep.append((offset, fut))
        self._commit_waiters = keep

    async def _run_timer(self) -> None:
        while self.running:
            delay = (self.node.next_deadline_ms() - self.clock()) / 1000
            if delay > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), min(delay, 1.0))
                continue
            try:
                self._process(self.node.tick())
            except Exception:  # a bug in the core must not silently stop the timers
                log.exception("raft node %d: tick failed", self.node_id)
                await asyncio.sleep(0.05)

    def _spawn(self, coro: Any) -> None:
        t = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ outbound

    def _send(self, dest: int, msg: m.Message) -> None:
        if not self.running:
            return
        inbound = self._inbound.pop((dest, getattr(msg, "correlation_id", -1)), None)
        if inbound is not None:
            writer, kafka_corr, api_key, version = inbound
            body = self._response_body(api_key, version, msg)
            if not writer.is_closing():
                writer.write(wire.encode_response(api_key, version, kafka_corr, body))
            return
        if isinstance(msg, m.VoteResponse | m.BeginQuorumEpochResponse | m.EndQuorumEpochResponse):
            return  # the asking connection is gone
        if isinstance(msg, m.FetchResponse | m.FetchSnapshotResponse):
            return
        if dest not in self.endpoints:
            return  # an observer we cannot call back (it fetches from us)
        api_key, body, pre_vote = self._request_body(dest, msg)
        version = wire.SEND_VERSIONS[api_key]
        self._next_kafka_corr += 1
        corr = self._next_kafka_corr
        frame = wire.encode_request(api_key, version, corr, f"raft-{self.node_id}", body)
        peer = self._peers.setdefault(dest, _Peer())
        peer.inflight[corr] = (api_key, version, msg.correlation_id, pre_vote)
        if peer.writer is not None and not peer.writer.is_closing():
            peer.writer.write(frame)
            return
        peer.queue.append(frame)
        if peer.connecting is None:
            peer.connecting = asyncio.get_running_loop().create_task(self._connect(dest, peer))

    def _request_body(self, dest: int, msg: m.Message) -> tuple[int, Any, bool]:
        if isinstance(msg, m.VoteRequest):
            return wire.VOTE, vote.to_wire_request(msg, dest, self.cluster_id), msg.pre_vote
        if isinstance(msg, m.BeginQuorumEpochRequest):
            body = begin_quorum_epoch.to_wire_request(msg, dest, self.cluster_id, (self.host, self.port))
            return wire.BEGIN_QUORUM_EPOCH, body, False
        if isinstance(msg, m.EndQuorumEpochRequest):
            return wire.END_QUORUM_EPOCH, end_quorum_epoch.to_wire_request(msg, self.cluster_id), False
        if isinstance(msg, m.FetchRequest):
            return wire.FETCH, fetch_wire.to_wire_request(msg, self.cluster_id, self.config.fetch_max_wait_ms), False
        if isinstance(msg, m.FetchSnapshotRequest):
            return wire.FETCH_SNAPSHOT, fetch_snapshot.to_wire_request(msg, self.cluster_id), False
        raise TypeError(f"not a request: {type(msg).__name__}")

    def _response_body(self, api_key: int, version: int, msg: m.Message) -> Any:
        if isinstance(msg, m.VoteResponse):
            return vote.to_wire_response(msg)
        if isinstance(msg, m.BeginQuorumEpochResponse):
            return begin_quorum_epoch.to_wire_response(msg)
        if isinstance(msg, m.EndQuorumEpochResponse):
            return end_quorum_epoch.to_wire_response(msg)
        if isinstance(msg, m.FetchResponse):
            return fetch_wire.to_wire_response(msg)
        if isinstance(msg, m.FetchSnapshotResponse):
            return fetch_snapshot.to_wire_response(msg)
        raise TypeError(f"not a response: {type(msg).__name__}")

    async def _connect(self, dest: int, peer: _Peer) -> None:
        host, port = self.endpoints[dest]
        try:
            tls = self.client_tls
            connect = asyncio.open_connection(host, port, ssl=tls, server_hostname=host if tls is not None else None)
            reader, writer = await asyncio.wait_for(connect, 1.0)
        except (OSError, TimeoutError):
            peer.queue.clear()
            peer.inflight.clear()
            peer.connecting = None
            return
        peer.writer = writer
        peer.connecting = None
        for queued in peer.queue:
            writer.write(queued)
        peer.queue.clear()
        try:
            while self.running:
                frame = await read_frame(reader)
                if frame is None:
                    break
                (corr,) = _LEN.unpack_from(frame, 0)
                meta = peer.inflight.pop(corr, None)
                if meta is None:
                    continue
                api_key, version, core_corr, pre_vote = meta
                _, body = wire.decode_response(api_key, version, frame)
                if getattr(body, "error_code", 0) == ErrorCode.INCONSISTENT_CLUSTER_ID:
                    # a failed request (Kafka logs it and backs off): the core's request timeout resends, and
                    # nothing from another cluster's quorum reaches our state
                    log.error("raft node %d: voter %d belongs to another cluster (not %s)", self.node_id, dest,
                              self.cluster_id)  # fmt: skip
                    continue
                self._process(self.node.handle(dest, self._core_response(api_key, body, core_corr, pre_vote)))
        except (OSError, ProtocolDecodeError, ValueError, asyncio.IncompleteReadError) as e:
            log.debug("raft node %d: connection to %d lost: %s", self.node_id, dest, e)
        finally:
            writer.close()
            if peer.writer is writer:
                peer.writer = None
                peer.inflight.clear()

    @staticmethod
    def _core_response(api_key: int, body: Any, corr: int, pre_vote: bool) -> m.Message:
        if api_key == wire.VOTE:
            return vote.from_wire_response(body, corr, pre_vote)
        if api_key == wire.BEGIN_QUORUM_EPOCH:
            return begin_quorum_epoch.from_wire_response(body, corr)
        if api_key == wire.END_QUORUM_EPOCH:
            return end_quorum_epoch.from_wire_response(body, corr)
        if api_key == wire.FETCH:
            return fetch_wire.from_wire_response(body, corr)
        return fetch_snapshot.from_wire_response(body, corr)

    # ------------------------------------------------------------------ inbound

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._connections.add(writer)
        try:
            while self.running:
                frame = await read_frame(reader)
                if frame is None:
                    break
                try:
                    api_key, version, corr, body = wire.decode_request(frame)
                except KeyError:
                    break  # an API or version this listener does not serve: Kafka closes the connection
                self._dispatch(writer, api_key, version, corr, body)
        except (OSError, ProtocolDecodeError, ValueError, asyncio.IncompleteReadError) as e:
            log.debug("raft node %d: inbound connection closed: %s", self.node_id, e)
        finally:
            self._connections.discard(writer)
            writer.close()

    def _dispatch(self, writer: asyncio.StreamWriter, api_key: int, version: int, corr: int, body: Any) -> None:
        if api_key == wire.API_VERSIONS:
            writer.write(wire.encode_response(api_key, version, corr, self._api_versions()))
            return
        if api_key == wire.DESCRIBE_QUORUM:
            writer.write(wire.encode_response(api_key, version, corr, self._describe_quorum(body, version)))
            return
        if api_key == wire.DESCRIBE_CLUSTER:
            writer.write(wire.encode_response(api_key, version, corr, self._describe_cluster(body)))
            return
        handler = self.app_handlers.get(api_key)
        if handler is not None:
            self._spawn(self._serve_app(writer, api_key, version, corr, handler(body)))
            return
        if api_key in (wire.BROKER_REGISTRATION, wire.BROKER_HEARTBEAT):
            raise ValueError(f"API {api_key} is served by an active controller only")  # closes the connection
        if not self._valid_cluster_id(body):
            # Kafka's hasValidClusterId: a request naming another cluster is refused before the core sees it
            # (a controller of another cluster must not vote here, nor fetch or be fetched from)
            error = self._inconsistent_cluster_id(api_key)
            writer.write(wire.encode_response(api_key, version, corr, error))
            return
        if api_key in (wire.ADD_RAFT_VOTER, wire.REMOVE_RAFT_VOTER):
            self._spawn(self._serve_voter_change(writer, api_key, version, corr, body))
            return
        if api_key == wire.UPDATE_RAFT_VOTER:
            writer.write(wire.encode_response(api_key, version, corr, update_raft_voter.serve(self, body)))
            return
        self._next_inbound += 1
        core_corr = self._next_inbound
        msg: m.Message
        if api_key == wire.VOTE:
            msg = vote.from_wire_request(body, core_corr)
            source = msg.candidate_id
        elif api_key == wire.BEGIN_QUORUM_EPOCH:
            msg = begin_quorum_epoch.from_wire_request(body, core_corr)
            source = msg.leader_id
        elif api_key == wire.END_QUORUM_EPOCH:
            msg = end_quorum_epoch.from_wire_request(body, core_corr, version)
            source = msg.leader_id
        elif api_key == wire.FETCH:
            msg = fetch_wire.from_wire_request(body, core_corr, self.config.fetch_max_records)
            source = msg.replica_id
        elif api_key == wire.FETCH_SNAPSHOT:
            msg = fetch_snapshot.from_wire_request(body, core_corr)
            source = msg.replica_id
        else:
            raise ValueError(f"API {api_key} is not served here")
        self._inbound[(source, core_corr)] = (writer, corr, api_key, version)
        self._process(self.node.handle(source, msg))

    async def _serve_app(
        self, writer: asyncio.StreamWriter, api_key: int, version: int, corr: int, answer: Awaitable[Any]
    ) -> None:
        body = await answer
        if not writer.is_closing():
            writer.write(wire.encode_response(api_key, version, corr, body))

    async def _serve_voter_change(
        self, writer: asyncio.StreamWriter, api_key: int, version: int, corr: int, body: Any
    ) -> None:
        """Answered once the VotersRecord commits: the request waits off the connection's read loop."""
        if api_key == wire.ADD_RAFT_VOTER:
            timeout = self.config.request_timeout_ms / 1000 * 10
            answer: Any = await add_raft_voter.serve(self, body, max(timeout, VOTER_CHANGE_TIMEOUT_S))
        else:
            answer = await remove_raft_voter.serve(self, body, VOTER_CHANGE_TIMEOUT_S)
        if not writer.is_closing():
            writer.write(wire.encode_response(api_key, version, corr, answer))

    def _valid_cluster_id(self, body: Any) -> bool:
        """A request without a cluster id is accepted (Kafka: older clients and a not yet formatted node);
        one with a cluster id must name ours when we have one."""
        theirs = getattr(body, "cluster_id", None)
        return theirs is None or self.cluster_id is None or theirs == self.cluster_id

    @staticmethod
    def _inconsistent_cluster_id(api_key: int) -> Any:
        """The response with only the top-level INCONSISTENT_CLUSTER_ID (104), as KafkaRaftClient answers."""
        code = int(ErrorCode.INCONSISTENT_CLUSTER_ID)
        if api_key == wire.VOTE:
            return vote.rs.VoteResponse(error_code=code, topics=[])
        if api_key == wire.BEGIN_QUORUM_EPOCH:
            return begin_quorum_epoch.rs.BeginQuorumEpochResponse(error_code=code, topics=[])
        if api_key == wire.END_QUORUM_EPOCH:
            return end_quorum_epoch.rs.EndQuorumEpochResponse(error_code=code, topics=[])
        if api_key == wire.FETCH:
            return fetch_wire.rs.FetchResponse(error_code=code, responses=[])
        if api_key == wire.ADD_RAFT_VOTER:
            return add_raft_voter.rs.AddRaftVoterResponse(error_code=code)
        if api_key == wire.REMOVE_RAFT_VOTER:
            return remove_raft_voter.rs.RemoveRaftVoterResponse(error_code=code)
        if api_key == wire.UPDATE_RAFT_VOTER:
            return update_raft_voter.rs.UpdateRaftVoterResponse(error_code=code)
        return fetch_snapshot.rs.FetchSnapshotResponse(error_code=code, topics=[])

    def _api_versions(self) -> Any:
        keys = []
        for key in (*_SERVED, *sorted(self.app_handlers)):
            rng = wire.served_range(key)
            if rng is not None:
                keys.append(api_versions_response.ApiVersion(api_key=key, min_version=rng[0], max_version=rng[1]))
        return api_versions_response.ApiVersionsResponse(error_code=0, api_keys=keys)

    def _describe_cluster(self, body: Any) -> Any:
        """KIP-919 (`--bootstrap-controller`): the voters' listeners and the leader as the active controller."""
        if body.endpoint_type != ENDPOINT_TYPE_CONTROLLER:
            return describe_cluster_response.DescribeClusterResponse(
                error_code=int(ErrorCode.MISMATCHED_ENDPOINT_TYPE),
                error_message="The request was sent to an endpoint of type CONTROLLER, "
                f"but we wanted an endpoint of type {'BROKER' if body.endpoint_type == 1 else body.endpoint_type}",
                endpoint_type=ENDPOINT_TYPE_CONTROLLER,
            )
        leader = self.node.leader_id
        nodes = [
            describe_cluster_response.DescribeClusterBroker(broker_id=i, host=host, port=port)
            for i, (host, port) in sorted(self.endpoints.items())
        ]
        return describe_cluster_response.DescribeClusterResponse(
            endpoint_type=ENDPOINT_TYPE_CONTROLLER,
            cluster_id=self.cluster_id_source() or "",
            controller_id=-1 if leader is None else leader,
            brokers=nodes,
        )

    def _describe_quorum(self, body: Any, version: int) -> Any:
        if not describe_quorum.is_metadata_partition(body):
            return describe_quorum.to_wire_response(None, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, version=version)
        try:
            desc = self.node.describe_quorum()
        except NotLeaderError:
            return describe_quorum.to_wire_response(None, ErrorCode.NOT_LEADER_OR_FOLLOWER, version=version)
        wall_offset = int(time.time() * 1000) - self.clock()
        return describe_quorum.to_wire_response(
            desc, wall_offset_ms=wall_offset, endpoints=self.endpoints, version=version
        )
