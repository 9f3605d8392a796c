"""An asyncio Kafka connection from a follower to its leader (one request in flight at a time).

The blocking `kafka_wire.client.BrokerConnection` would stall the broker's loop; this one speaks the
same codecs over asyncio streams. Versions are negotiated with ApiVersions on connect.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from typing import TYPE_CHECKING, Any

from kafka_wire.protocol import decode_response, encode_request
from kafka_wire.protocol.messages import api_versions_request
from kafka_wire.protocol.negotiation import API_VERSIONS_KEY, API_VERSIONS_VERSION, best_version, supported_versions

if TYPE_CHECKING:
    from broker_embedded.security.client import InterBrokerSecurity

_i32 = struct.Struct(">i")
MAX_RESPONSE_BYTES = 1 << 30


class LeaderConnection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, client_id: str) -> None:
        self.reader = reader
        self.writer = writer
        self.client_id = client_id
        self._correlation_id = 0
        self.api_versions: dict[int, tuple[int, int]] = {}
        self.closed = False

    @classmethod
    async def open(
        cls, host: str, port: int, client_id: str, timeout_s: float, security: InterBrokerSecurity | None = None
    ) -> LeaderConnection:
        """Connect, negotiate versions, and (secured inter-broker listener) TLS + SASL login."""
        tls = security.ssl_context if security is not None else None
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, ssl=tls, server_hostname=host if tls is not None else None), timeout_s
        )
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = cls(reader, writer, client_id)
        try:
            resp = await conn.request(
                API_VERSIONS_KEY,
                api_versions_request.ApiVersionsRequest(
                    client_software_name="pykafka-replica-fetcher", client_software_version="0.1.0"
                ),
                API_VERSIONS_VERSION,
                timeout_s,
            )
            conn.api_versions = supported_versions(resp)
            if security is not None:
                await security.authenticate(lambda key, body, version: conn.request(key, body, version, timeout_s))
        except BaseException:
            conn.close()
            raise
        return conn

    def best_version(self, api_key: int) -> int:
        return best_version(self.api_versions, api_key, "the leader")

    async def request(self, api_key: int, body: Any, version: int, timeout_s: float) -> Any:
        if self.closed:
            raise ConnectionError("connection closed")
        self._correlation_id += 1
        cid = self._correlation_id
        try:
            return await asyncio.wait_for(self._round_trip(api_key, body, version, cid), timeout_s)
        except BaseException:
            # a request cut off midway leaves the stream unusable
            self.close()
            raise

    async def _round_trip(self, api_key: int, body: Any, version: int, cid: int) -> Any:
        self.writer.write(encode_request(api_key, version, cid, self.client_id, body))
        await self.writer.drain()
        (size,) = _i32.unpack(await self.reader.readexactly(4))
        if size < 0 or size > MAX_RESPONSE_BYTES:
            raise ConnectionError(f"bad response size {size}")
        frame = await self.reader.readexactly(size)
        got, response = decode_response(api_key, version, frame)
        if got != cid:
            raise ConnectionError(f"correlation id mismatch: sent {cid}, got {got}")
        return response

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.writer.close()
        except (OSError, RuntimeError):
            pass
