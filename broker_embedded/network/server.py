"""The broker's network layer: asyncio connections, framing, and in-order responses.

Protocol logic stays out of here: a frame is decoded by `kafka_wire.protocol` and handed to the
broker's request handler, which returns a response (or a future of one, for requests parked in the
purgatory). Responses on one connection leave in request order, as Kafka guarantees; acks=0
produce requests get none. A malformed or oversized request closes only its own connection.
"""

from __future__ import annotations

import asyncio
import logging
import struct
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kafka_wire.errors import ProtocolDecodeError
from kafka_wire.protocol import (
    RequestHeader,
    UnsupportedVersionError,
    decode_request_body,
    decode_request_header,
)

if TYPE_CHECKING:
    import ssl

    from broker_embedded.network.tls import TlsConnection
    from broker_embedded.quotas.connections import ConnectionQuotas
    from broker_embedded.security.manager import SecurityManager
    from broker_embedded.security.sasl import SaslAuthenticator

log = logging.getLogger(__name__)

_i32 = struct.Struct(">i")
NO_RESPONSE = None


@dataclass(slots=True)
class ConnectionSession:
    """What the broker knows of one connection across its requests: who is on the other end.

    Lives as long as the connection. The listener it arrived on, the authenticated principal (the
    mapped certificate DN on SSL, the SASL identity on SASL listeners, else ANONYMOUS) and the SASL
    state (Kafka's `Session`/`KafkaPrincipal`); handlers and the authorizer read it from `ctx.session`.
    """

    peer: str
    listener_name: str = "PLAINTEXT"
    security_protocol: str = "PLAINTEXT"
    principal: str = "User:ANONYMOUS"
    authenticator: SaslAuthenticator | None = None
    security: SecurityManager | None = None

    @property
    def host(self) -> str:
        """The client's address without the port (ACL host)."""
        return self.peer.rsplit(":", 1)[0]


@dataclass(slots=True)
class RequestContext:
    header: RequestHeader
    peer: str
    connection_id: int
    session: ConnectionSession | None = None
    size: int = 0  # the request's frame size (a produce quota counts it)
    # mute the connection for that many ms (a quota's throttle time, KIP-219); None off a socket
    throttle: Callable[[int], None] | None = None

    @property
    def api_key(self) -> int:
        return self.header.api_key

    @property
    def api_version(self) -> int:
        return self.header.api_version


class RequestRejected(Exception):
    """A request that Kafka answers by closing the connection (unknown API, bad version, ...)."""


# handler(ctx, header, buf, body_pos) -> list of response chunks | Future of them | None
Dispatcher = Callable[[RequestContext, bytearray, int], Any]


class RequestMemoryPool:
    """Broker-wide bytes of requests being received (Kafka's queued.max.request.bytes memory pool).

    A connection reserves a frame's declared size when its size prefix arrives and gives it back
    when the frame is complete (or the connection closes). When the pool is exhausted the
    connection stops being read until memory is released, so 20 clients that each send half of a
    90 MB frame hold at most the pool, not 1.8 GB. Frames up to SMALL_FRAME bytes never wait (a
    metadata request or a heartbeat must not queue behind a bulk upload); they are bounded by
    the connection count instead.
    """

    SMALL_FRAME = 64 * 1024

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity  # <= 0: unlimited
        self.used = 0
        self.waiters: deque[KafkaConnection] = deque()

    def try_reserve(self, size: int) -> bool:
        if self.capacity <= 0 or size <= self.SMALL_FRAME:
            return True
        # an idle pool always admits one frame, even one larger than the pool
        if self.used and self.used + size > self.capacity:
            return False
        self.used += size
        return True

    def release(self, size: int) -> None:
        if self.capacity <= 0 or size <= self.SMALL_FRAME:
            return
        self.used -= size
        # admit waiters in arrival order until the head one does not fit (it stays first)
        while self.waiters and self.used < self.capacity:
            conn = self.waiters.popleft()
            if not conn._closed and not conn._retry_reservation():
                self.waiters.appendleft(conn)
                break


@dataclass(frozen=True, slots=True)
class Listener:
    """One server socket: the listener's name and security protocol (Kafka's EndPoint)."""

    name: str = "PLAINTEXT"
    security_protocol: str = "PLAINTEXT"


class KafkaConnection(asyncio.BufferedProtocol):
    """One client connection: frames in, responses out in request order.

    The transport reads straight into buffers we hand it (a BufferedProtocol). With nothing pending
    that is the server's one read buffer (reads on an event loop never overlap): complete frames are
    copied out of it once each, and an idle connection holds no buffer of its own. Bytes of a frame
    not complete at the end of a read move to the connection: a frame over DIRECT_FRAME gets its own
    bytearray of the frame's size once its size is known and admitted by the request pool, and the
    transport reads the rest of it straight in (a produce request's bytes are copied once on their
    way in); a smaller one, or a size prefix, waits in a small buffer of the connection's.
    """

    # Bound how much unanswered work one client can queue before we stop reading from it.
    MAX_IN_FLIGHT_REQUESTS = 100
    DIRECT_FRAME = 64 * 1024

    def __init__(
        self, server: KafkaServer, connection_id: int, listener: Listener = Listener(), admitted: bool = False
    ) -> None:
        self.server = server
        self.connection_id = connection_id
        self.listener = listener
        # passed the IP connection rate quota already (a TLS connection is checked at its TCP accept)
        self.admitted = admitted
        self._refused = False  # over its IP's connection rate: never served, closed after the throttle
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self.session = ConnectionSession(self.peer)
        # bytes received and not handed on (the start of a frame, or frames held while muted), or None
        self._stage: bytearray | None = None
        self._staged = 0  # how much of _stage holds them
        self._frame: bytearray | None = None  # a large frame being received in place
        self._frame_filled = 0
        self._pending: deque[Any] = deque()  # response chunks, or futures of them, in request order
        self._paused = False  # too many requests in flight
        self._write_paused = False  # the transport's send buffer is over its high-water mark (muted)
        self._reading_paused = False
        self._closed = False
        self.last_active = time.monotonic()
        # the frame being received: its pool reservation, and when its first bytes arrived
        # (socket.request.read.timeout.ms counts from then, or from when the pool admitted it)
        self._reserved = 0
        self._pool_wait = False
        self._frame_started: float | None = None
        self._response_paused = False  # broker-wide unsent response bytes over the cap
        self._throttled_until = 0.0  # muted by a quota until then (monotonic s)
        self._throttle_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's transports are not asyncio subclasses
        peer = transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        if not self.admitted and not self.server.admit(transport):
            self._refused = self._closed = True
            return
        self.session = self._new_session(transport)
        self.server.connections.add(self)

    def _new_session(self, transport: asyncio.BaseTransport) -> ConnectionSession:
        security = self.server.security
        listener = self.listener
        session = ConnectionSession(self.peer, listener.name, listener.security_protocol, security=security)
        if security is None:
            return session
        if listener.security_protocol == "SSL":
            # the TLS handshake is complete here: the verified client certificate names the principal
            try:
                session.principal = security.ssl_principal(listener.name, transport.get_extra_info("ssl_object"))
            except ValueError as e:  # no ssl.principal.mapping.rules rule matches the DN
                log.warning("closing %s: %s", self.peer, e)
                transport.close()
        session.authenticator = security.new_authenticator(listener.name)
        return session

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        if self._refused:
            return
        self.server.connections.discard(self)
        self.server.writers.discard(self)
        self._release_request_memory()
        for listener in self.server.disconnect_listeners:
            try:
                listener(self.connection_id)
            except Exception:
                log.exception("disconnect listener failed")

    def _release_request_memory(self) -> None:
        self._stage = None
        self._staged = 0
        self._frame = None
        if self._reserved:
            reserved, self._reserved = self._reserved, 0
            self.server.request_pool.release(reserved)
        for item in self._pending:
            if isinstance(item, asyncio.Future) and not item.done():
                item.cancel()
        self._pending.clear()

    def pause_writing(self) -> None:
        # the client is not reading its responses: stop reading its requests until it catches up
        self._write_paused = True
        self._update_reading()

    def resume_writing(self) -> None:
        self._write_paused = False
        self._update_reading()

    def _update_reading(self) -> None:
        want_paused = (
            self._paused
            or self._write_paused
            or self._pool_wait
            or self._response_paused
            or self._throttle_timer is not None
        )
        if self.transport is None or self._closed or want_paused == self._reading_paused:
            return
        self._reading_paused = want_paused
        if want_paused:
            self.transport.pause_reading()
        else:
            self.transport.resume_reading()
            if self._frame_started is not None:
                self._frame_started = time.monotonic()
            if self._staged:
                asyncio.get_running_loop().call_soon(self._process_buffer)

    def throttle(self, throttle_ms: int) -> None:
        """Mute the connection for `throttle_ms` (a quota violation: Kafka's ThrottledChannel): its
        requests wait unread, so a client that ignores throttle_time_ms is held too."""
        if self._closed or throttle_ms <= 0:
            return
        until = time.monotonic() + throttle_ms / 1000
        if until <= self._throttled_until:
            return
        self._throttled_until = until
        if self._throttle_timer is not None:
            self._throttle_timer.cancel()
        self._throttle_timer = asyncio.get_running_loop().call_later(throttle_ms / 1000, self._end_throttling)
        self._update_reading()

    def _end_throttling(self) -> None:
        self._throttle_timer = None
        self._update_reading()

    def is_idle(self, now: float, max_idle: float) -> bool:
        return not self._pending and now - self.last_active > max_idle

    def read_timed_out(self, now: float, timeout: float) -> bool:
        # while we are not reading (muted, pool wait, too many in flight) the clock is ours, not
        # the sender's: it restarts when reading resumes
        started = self._frame_started
        return started is not None and not self._reading_paused and now - started > timeout

    def _retry_reservation(self) -> bool:
        """The pool released memory: admit the frame this connection waits to receive (True if
        admitted, or nothing to wait for any more)."""
        if self._closed or self._staged < 4:
            self._pool_wait = False
            self._update_reading()
            return True
        assert self._stage is not None
        (size,) = _i32.unpack_from(self._stage, 0)
        if not self.server.request_pool.try_reserve(size):
            return False
        self._reserved = size
        self._pool_wait = False
        self._frame_started = time.monotonic()
        self._update_reading()
        return True

    def buffered_bytes(self) -> int:
        """Bytes of requests received and not yet handed to the broker."""
        return self._staged + (self._frame_filled if self._frame is not None else 0)

    def get_buffer(self, sizehint: int) -> memoryview:
        if self._frame is not None:
            return memoryview(self._frame)[self._frame_filled :]
        stage = self._stage
        if stage is None or self._closed:  # (a read racing close(): its bytes are dropped)
            return self.server.read_view
        if self._staged == len(stage):
            # frames held while muted (or a frame waiting for the request pool), and a read before
            # they were handed on: make room (a new buffer: the transport may hold a view of this one)
            grown = bytearray(2 * len(stage))
            grown[: self._staged] = stage
            self._stage = stage = grown
        return memoryview(stage)[self._staged :]

    def buffer_updated(self, nbytes: int) -> None:
        if self._closed:
            return
        now = time.monotonic()
        self.last_active = now
        if self._frame_started is None:
            self._frame_started = now
        frame = self._frame
        if frame is not None:
            self._frame_filled += nbytes
            if self._frame_filled == len(frame):
                self._frame = None
                self._frame_started = None
                self._frame_received(frame)
            return
        if self._stage is None:
            self._process(self.server.read_buffer, nbytes, own=False)
        else:
            self._staged += nbytes
            self._process_buffer()

    def _process_buffer(self) -> None:
        """Hand on what the connection holds (after a read into its buffer, or when reading resumes)."""
        if self._frame is not None or self._stage is None:
            return
        self._process(self._stage, self._staged, own=True)

    def _process(self, buf: bytearray, end: int, own: bool) -> None:
        """Hand on the complete frames of buf[:end] (the server's read buffer, or the connection's
        own when `own`); what is left becomes the connection's own."""
        pos = 0
        in_place = 0  # size of an admitted large frame to receive into its own bytearray
        max_size = self.server.max_request_size
        # frames already buffered wait while the connection is muted, like unread socket data
        while not self._closed and not self._reading_paused:
            if end - pos < 4:
                break
            (size,) = _i32.unpack_from(buf, pos)
            if size < 0 or size > max_size:
                log.warning("closing %s: request of %d bytes exceeds socket.request.max.bytes", self.peer, size)
                self.close()
                return
            if end - pos - 4 < size:
                if not self._reserved and size > 0:
                    # an incomplete frame: its declared size must fit the broker-wide pool
                    pool = self.server.request_pool
                    if pool.try_reserve(size):
                        self._reserved = size
                    else:
                        self._pool_wait = True
                        pool.waiters.append(self)
                        self._update_reading()
                        break
                if size > self.DIRECT_FRAME:
                    in_place = size
                break
            # the frame is copied into its own bytearray: produce stamps offsets into it in place
            frame = buf[pos + 4 : pos + 4 + size]
            pos += 4 + size
            self._frame_received(frame)
            if self._closed:
                return
        rest = end - pos
        if in_place:
            # the rest of a large frame is received straight into its own bytearray
            frame = bytearray(in_place)
            frame[: rest - 4] = buf[pos + 4 : end]
            self._frame, self._frame_filled = frame, rest - 4
            self._stage, self._staged = None, 0
        elif rest == 0:
            self._stage, self._staged = None, 0
            self._frame_started = None
            return
        else:
            # keep what is left (a size prefix, the start of a frame, frames held while muted); for
            # a small frame whose size is known, with room for the rest of it. A new buffer rather
            # than a resized one: the transport may still hold a view of the old one.
            want = rest
            if rest >= 4 and (size := _i32.unpack_from(buf, pos)[0]) <= self.DIRECT_FRAME:
                want = max(rest, 4 + size)
            if not own or pos or len(buf) < want:
                stage = bytearray(max(want, 64))
                stage[:rest] = buf[pos:end]
                self._stage, self._staged = stage, rest
        if pos:
            self._frame_started = time.monotonic()  # the next frame's bytes are already here

    def _frame_received(self, frame: bytearray) -> None:
        if self._reserved:
            reserved, self._reserved = self._reserved, 0
            self.server.request_pool.release(reserved)
        self._handle_frame(frame)

    def _handle_frame(self, frame: bytearray) -> None:
        auth = self.session.authenticator
        if auth is not None and auth.raw_tokens:
            self._handle_raw_token(auth, bytes(frame))
            return
        try:
            header, body_pos = decode_request_header(frame)
        except ProtocolDecodeError as e:
            log.warning("closing %s: %s", self.peer, e)
            self.close()
            return
        if auth is not None and not self._sasl_admits(auth, header.api_key):
            return
        ctx = RequestContext(header, self.peer, self.connection_id, self.session, len(frame), self.throttle)
        try:
            result = self.server.dispatch(ctx, frame, body_pos)
        except (ProtocolDecodeError, UnsupportedVersionError, RequestRejected) as e:
            log.warning("closing %s: %s", self.peer, e)
            self.close()
            return
        except Exception:
            log.exception("closing %s: handler for API %d failed", self.peer, header.api_key)
            self.close()
            return
        if auth is not None and auth.state == auth.FAILED:
            # SASL_AUTHENTICATION_FAILED is answered, then the connection closes (as Kafka does)
            self._pending.append(result)
            self._flush()
            self.close()
            return
        if result is NO_RESPONSE:
            if not self._pending:
                return
            # acks=0 still takes its place in line so later answers are not reordered around it
            result = []
        self._pending.append(result)
        if isinstance(result, asyncio.Future):
            result.add_done_callback(self._on_ready)
        self._flush()
        if len(self._pending) >= self.MAX_IN_FLIGHT_REQUESTS and not self._paused:
            self._paused = True
            self._update_reading()

    def _sasl_admits(self, auth: SaslAuthenticator, api_key: int) -> bool:
        """Before authentication only ApiVersions/SaslHandshake/SaslAuthenticate; after a session's
        lifetime (KIP-368) only a re-authentication. Otherwise close, as Kafka does."""
        if not auth.allows(api_key):
            log.warning("closing %s: API %d before SASL authentication (ILLEGAL_SASL_STATE)", self.peer, api_key)
            self.close()
            return False
        if auth.authenticated and not auth.reauthenticating and api_key != 17 and auth.session_expired():
            log.info("closing %s: SASL session expired, not re-authenticated (connections.max.reauth.ms)", self.peer)
            self.close()
            return False
        return True

    def _handle_raw_token(self, auth: SaslAuthenticator, token: bytes) -> None:
        """SaslHandshake v0: a SASL token framed by its length only; the answer is framed the same."""
        from broker_embedded.security.sasl import AuthenticationFailed, IllegalSaslState

        try:
            challenge, _lifetime = auth.authenticate(token)
        except (AuthenticationFailed, IllegalSaslState) as e:
            log.info("closing %s: %s", self.peer, e)
            self.close()
            return
        if auth.principal is not None:
            self.session.principal = auth.principal
        self._pending.append([_i32.pack(len(challenge)), challenge])
        self._flush()

    def _on_ready(self, _fut: asyncio.Future[Any]) -> None:
        self._flush()

    def _flush(self) -> None:
        pending = self._pending
        transport = self.transport
        while pending and not self._closed:
            head = pending[0]
            if isinstance(head, asyncio.Future):
                if not head.done():
                    break
                pending.popleft()
                if head.cancelled():
                    continue
                exc = head.exception()
                if isinstance(exc, RequestRejected):  # e.g. a failed acks=0 produce checked off the loop
                    log.warning("closing %s: %s", self.peer, exc)
                    self.close()
                    return
                if exc is not None:
                    log.error("closing %s: delayed response failed: %r", self.peer, exc)
                    self.close()
                    return
                chunks = head.result()
            else:
                chunks = pending.popleft()
            if chunks and transport is not None:
                transport.writelines(chunks)
                self.last_active = time.monotonic()
                if transport.get_write_buffer_size():
                    self.server.note_unsent(self)
        if self._paused and len(pending) < self.MAX_IN_FLIGHT_REQUESTS // 2:
            self._paused = False
            self._update_reading()

    def close(self, abort: bool = False) -> None:
        self._closed = True
        # the partial request's memory goes back now: a peer that reads nothing could keep a
        # gracefully closing transport (and so connection_lost) waiting indefinitely
        self._release_request_memory()
        if self.transport is not None:
            if abort:
                self.transport.abort()
            else:
                self.transport.close()


class KafkaServer:
    def __init__(
        self,
        dispatch: Callable[[RequestContext, bytearray, int], Any],
        max_request_size: int,
        connections_max_idle_ms: int = 600_000,
        *,
        queued_max_request_bytes: int = -1,
        queued_max_response_bytes: int = -1,
        request_read_timeout_ms: int = 0,
        security: SecurityManager | None = None,
    ) -> None:
        self.dispatch = dispatch
        self.security = security
        # called with a closed connection's id (share sessions end with their connection, as Kafka's)
        self.disconnect_listeners: list[Callable[[int], None]] = []
        self.max_request_size = max_request_size
        self.connections_max_idle_ms = connections_max_idle_ms
        self.request_read_timeout_ms = request_read_timeout_ms
        self.request_pool = RequestMemoryPool(queued_max_request_bytes)
        self.queued_max_response_bytes = queued_max_response_bytes
        # connections whose transport holds unsent response bytes
        self.writers: set[KafkaConnection] = set()
        self._response_pressure = False
        self._idle_timer: asyncio.TimerHandle | None = None
        self.connections: set[KafkaConnection] = set()
        self.handshakes: set[TlsConnection] = set()  # TLS clients not yet through their handshake
        # what a connection with nothing pending reads into (the loop runs one read at a time; what
        # a read leaves incomplete moves to its connection before the next)
        self.read_buffer = bytearray(256 * 1024)
        # what get_buffer hands out: a view (a transport may fill it in slices, buf[n:], which of a
        # bytearray would be a copy), while frames are sliced out of the bytearray; TLS connections
        # read their ciphertext into it too (network/tls.py copies it out at once)
        self.read_view = memoryview(self.read_buffer)
        self._server: asyncio.base_events.Server | None = None
        self._servers: list[asyncio.base_events.Server] = []
        self._next_id = 0
        # IP connection creation rate quotas (Kafka's ConnectionQuotas); None: not enforced
        self.connection_quotas: ConnectionQuotas | None = None

    def _new_connection(self, listener: Listener = Listener(), admitted: bool = False) -> KafkaConnection:
        self._next_id += 1
        return KafkaConnection(self, self._next_id, listener, admitted)

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Kafka's acceptor: a connection that takes its IP over its connection_creation_rate quota
        is not read and is closed once its throttle time has passed (False); else True."""
        if self.connection_quotas is None:
            return True
        peer = transport.get_extra_info("peername")
        if not peer:
            return True
        throttle_ms = self.connection_quotas.record(str(peer[0]))
        if throttle_ms <= 0:
            return True
        log.debug("throttling a connection from %s: closed in %d ms", peer[0], throttle_ms)
        transport.pause_reading()  # type: ignore[attr-defined]  # a stream transport (uvloop: no asyncio subclass)
        asyncio.get_running_loop().call_later(throttle_ms / 1000, transport.close)
        return False

    async def start(
        self, host: str, port: int, listener: Listener = Listener(), ssl_context: ssl.SSLContext | None = None
    ) -> int:
        """Open one listener's server socket (call once per listener); returns its port."""
        loop = asyncio.get_running_loop()
        if ssl_context is not None:
            # TLS run by the broker (network/tls.py), not by asyncio: a failed handshake's alert
            # reaches the client
            from broker_embedded.network.tls import TlsConnection

        def factory() -> asyncio.BaseProtocol:
            if ssl_context is None:
                return self._new_connection(listener)
            # the listener's context in force now: a dynamic keystore/truststore update swaps it
            current = self.security.ssl_context(listener.name) if self.security is not None else None
            tls = TlsConnection(
                current or ssl_context,
                lambda: self._new_connection(listener, admitted=True),
                self.handshakes.discard,
                self.read_view,
                admit=self.admit,
            )
            self.handshakes.add(tls)
            return tls

        server = await loop.create_server(factory, host, port, reuse_address=True, backlog=512)
        self._servers.append(server)
        if self._server is None:
            self._server = server
            self._schedule_idle_check()
        return int(server.sockets[0].getsockname()[1])

    def note_unsent(self, conn: KafkaConnection) -> None:
        """`conn` left response bytes in its transport: enforce the broker-wide cap on them."""
        self.writers.add(conn)
        if self.queued_max_response_bytes > 0:
            self._check_response_bytes()

    def unsent_response_bytes(self) -> int:
        total = 0
        for conn in list(self.writers):
            size = conn.transport.get_write_buffer_size() if conn.transport is not None and not conn._closed else 0
            if size:
                total += size
            else:
                self.writers.discard(conn)
        return total

    def _check_response_bytes(self) -> None:
        """Over queued.max.response.bytes of unsent responses, every connection that has some
        stops being read (no new requests, so no new responses) until the total is below half."""
        cap = self.queued_max_response_bytes
        total = self.unsent_response_bytes()
        if not self._response_pressure and total > cap:
            self._response_pressure = True
            log.info("%d bytes of responses unsent (queued.max.response.bytes=%d): muting their readers", total, cap)
        elif self._response_pressure and total <= cap // 2:
            self._response_pressure = False
            for conn in list(self.connections):
                if conn._response_paused:
                    conn._response_paused = False
                    conn._update_reading()
            return
        if self._response_pressure:
            for conn in self.writers:
                if not conn._response_paused:
                    conn._response_paused = True
                    conn._update_reading()

    def _schedule_idle_check(self) -> None:
        periods = [x for x in (self.connections_max_idle_ms, self.request_read_timeout_ms) if x > 0]
        if not periods and self.queued_max_response_bytes <= 0:
            return
        # check a few times per period (Kafka's Selector checks on every poll), at least every second
        delay = min(max(min(periods, default=4000) / 4000, 0.05), 1.0)
        self._idle_timer = asyncio.get_running_loop().call_later(delay, self._close_idle)

    def _close_idle(self) -> None:
        now = time.monotonic()
        max_idle = self.connections_max_idle_ms / 1000
        read_timeout = self.request_read_timeout_ms / 1000
        for conn in list(self.connections):
            if self.connections_max_idle_ms > 0 and conn.is_idle(now, max_idle):
                log.info(
                    "closing %s: idle for more than connections.max.idle.ms=%d", conn.peer, self.connections_max_idle_ms
                )
                conn.close()
            elif read_timeout > 0 and conn.read_timed_out(now, read_timeout):
                # a frame header then a trickle (slowloris): the request never completes
                log.warning(
                    "closing %s: a request was not received within socket.request.read.timeout.ms=%d "
                    "(%d of its bytes buffered)",
                    conn.peer,
                    self.request_read_timeout_ms,
                    conn.buffered_bytes(),
                )
                conn.close(abort=True)
        if self.queued_max_response_bytes > 0 and (self.writers or self._response_pressure):
            self._check_response_bytes()
        if self._server is not None:
            self._schedule_idle_check()

    async def stop(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        for server in self._servers:
            server.close()
        for conn in list(self.connections):
            conn.close()
        for tls in list(self.handshakes):
            tls.raw.abort()
        for server in self._servers:
            await server.wait_closed()


__all__ = [
    "ConnectionSession",
    "KafkaConnection",
    "KafkaServer",
    "Listener",
    "RequestContext",
    "RequestRejected",
    "decode_request_body",
]
