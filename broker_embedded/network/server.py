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
from typing import Any

from kafka_wire.errors import ProtocolDecodeError
from kafka_wire.protocol import (
    RequestHeader,
    UnsupportedVersionError,
    decode_request_body,
    decode_request_header,
)

log = logging.getLogger(__name__)

_i32 = struct.Struct(">i")
NO_RESPONSE = None


@dataclass(slots=True)
class RequestContext:
    header: RequestHeader
    peer: str
    connection_id: int

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


class KafkaConnection(asyncio.Protocol):
    # Bound how much unanswered work one client can queue before we stop reading from it.
    MAX_IN_FLIGHT_REQUESTS = 100

    def __init__(self, server: KafkaServer, connection_id: int) -> None:
        self.server = server
        self.connection_id = connection_id
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self._buf = bytearray()
        self._need: int | None = None
        self._pending: deque[Any] = deque()  # response chunks, or futures of them, in request order
        self._paused = False  # too many requests in flight
        self._write_paused = False  # the transport's send buffer is over its high-water mark (muted)
        self._reading_paused = False
        self._closed = False
        self.last_active = time.monotonic()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's transports are not asyncio subclasses
        peer = transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self.server.connections.discard(self)
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
        want_paused = self._paused or self._write_paused
        if self.transport is None or self._closed or want_paused == self._reading_paused:
            return
        self._reading_paused = want_paused
        if want_paused:
            self.transport.pause_reading()
        else:
            self.transport.resume_reading()
            if self._buf:
                asyncio.get_running_loop().call_soon(self._process_buffer)

    def is_idle(self, now: float, max_idle: float) -> bool:
        return not self._pending and now - self.last_active > max_idle

    def data_received(self, data: bytes) -> None:
        self.last_active = time.monotonic()
        self._buf += data
        self._process_buffer()

    def _process_buffer(self) -> None:
        buf = self._buf
        pos = 0
        max_size = self.server.max_request_size
        # frames already buffered wait while the connection is muted, like unread socket data
        while not self._closed and not self._reading_paused:
            if len(buf) - pos < 4:
                break
            (size,) = _i32.unpack_from(buf, pos)
            if size < 0 or size > max_size:
                log.warning("closing %s: request of %d bytes exceeds socket.request.max.bytes", self.peer, size)
                self.close()
                return
            if len(buf) - pos - 4 < size:
                break
            # the frame is copied into its own bytearray: produce stamps offsets into it in place
            frame = buf[pos + 4 : pos + 4 + size]
            pos += 4 + size
            self._handle_frame(frame)
        if pos:
            del buf[:pos]

    def _handle_frame(self, frame: bytearray) -> None:
        try:
            header, body_pos = decode_request_header(frame)
        except ProtocolDecodeError as e:
            log.warning("closing %s: %s", self.peer, e)
            self.close()
            return
        ctx = RequestContext(header, self.peer, self.connection_id)
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
        if self._paused and len(pending) < self.MAX_IN_FLIGHT_REQUESTS // 2:
            self._paused = False
            self._update_reading()

    def close(self) -> None:
        self._closed = True
        if self.transport is not None:
            self.transport.close()


class KafkaServer:
    def __init__(
        self,
        dispatch: Callable[[RequestContext, bytearray, int], Any],
        max_request_size: int,
        connections_max_idle_ms: int = 600_000,
    ) -> None:
        self.dispatch = dispatch
        self.max_request_size = max_request_size
        self.connections_max_idle_ms = connections_max_idle_ms
        self._idle_timer: asyncio.TimerHandle | None = None
        self.connections: set[KafkaConnection] = set()
        self._server: asyncio.base_events.Server | None = None
        self._next_id = 0

    def _new_connection(self) -> KafkaConnection:
        self._next_id += 1
        return KafkaConnection(self, self._next_id)

    async def start(self, host: str, port: int) -> int:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._new_connection, host, port, reuse_address=True, backlog=512)
        sock = self._server.sockets[0]
        self._schedule_idle_check()
        return int(sock.getsockname()[1])

    def _schedule_idle_check(self) -> None:
        if self.connections_max_idle_ms <= 0:
            return
        # check a few times per idle period (Kafka's Selector checks on every poll)
        delay = min(max(self.connections_max_idle_ms / 4000, 0.05), 30.0)
        self._idle_timer = asyncio.get_running_loop().call_later(delay, self._close_idle)

    def _close_idle(self) -> None:
        now = time.monotonic()
        max_idle = self.connections_max_idle_ms / 1000
        for conn in list(self.connections):
            if conn.is_idle(now, max_idle):
                log.info(
                    "closing %s: idle for more than connections.max.idle.ms=%d", conn.peer, self.connections_max_idle_ms
                )
                conn.close()
        if self._server is not None:
            self._schedule_idle_check()

    async def stop(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        if self._server is not None:
            self._server.close()
        for conn in list(self.connections):
            conn.close()
        if self._server is not None:
            await self._server.wait_closed()


__all__ = ["KafkaServer", "KafkaConnection", "RequestContext", "RequestRejected", "decode_request_body"]
