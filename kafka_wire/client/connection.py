"""A small blocking Kafka client connection on top of the codecs.

`BrokerConnection` sends one request at a time and reads its response; it negotiates versions
with ApiVersions on connect. It is the building block for the connector's metadata/offset calls
and for protocol-level tests (it can also send raw frames).
"""

from __future__ import annotations

import socket
import struct
from typing import Any

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol import decode_response, encode_request
from kafka_wire.protocol.messages import REQUESTS, api_versions_request

_i32 = struct.Struct(">i")


class ConnectionClosedError(ConnectionError):
    pass


class BrokerConnection:
    def __init__(
        self,
        host: str,
        port: int,
        client_id: str = "pykafka",
        timeout: float = 30.0,
        negotiate: bool = True,
    ) -> None:
        self.host = host
        self.port = port
        self.client_id = client_id
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._correlation_id = 0
        self.api_versions: dict[int, tuple[int, int]] = {}
        if negotiate:
            self.negotiate()

    @classmethod
    def from_bootstrap(cls, bootstrap: str, **kw: Any) -> BrokerConnection:
        host, port = bootstrap.split(",")[0].rsplit(":", 1)
        return cls(host, int(port), **kw)

    def negotiate(self) -> None:
        resp = self.request(
            18,
            api_versions_request.ApiVersionsRequest(client_software_name="pykafka", client_software_version="0.1.0"),
            version=3,
        )
        if resp.error_code != ErrorCode.NONE:
            raise KafkaError("ApiVersions failed", ErrorCode(resp.error_code))
        self.api_versions = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}

    def best_version(self, api_key: int) -> int:
        ours = REQUESTS[api_key].VALID_VERSIONS
        theirs = self.api_versions.get(api_key)
        if theirs is None:
            raise KafkaError(f"broker does not support API {api_key}", ErrorCode.UNSUPPORTED_VERSION)
        v = min(ours[1], theirs[1])
        if v < max(ours[0], theirs[0]):
            raise KafkaError(f"no common version for API {api_key}", ErrorCode.UNSUPPORTED_VERSION)
        return v

    def recv_frame(self) -> bytes:
        size_bytes = self._recv_exact(4)
        (size,) = _i32.unpack(size_bytes)
        return self._recv_exact(size)

    def _recv_exact(self, n: int) -> bytes:
        chunks = []
        while n:
            chunk = self.sock.recv(min(n, 1 << 20))
            if not chunk:
                raise ConnectionClosedError("connection closed by the broker")
            chunks.append(chunk)
            n -= len(chunk)
        return b"".join(chunks)

    def send(self, api_key: int, body: Any, version: int | None = None) -> tuple[int, int]:
        """Send a request without waiting; returns (correlation id, version)."""
        if version is None:
            version = self.best_version(api_key)
        self._correlation_id += 1
        cid = self._correlation_id
        self.sock.sendall(encode_request(api_key, version, cid, self.client_id, body))
        return cid, version

    def receive(self, api_key: int, version: int, correlation_id: int) -> Any:
        frame = self.recv_frame()
        cid, body = decode_response(api_key, version, frame)
        if cid != correlation_id:
            raise KafkaError(f"correlation id mismatch: sent {correlation_id}, got {cid}", ErrorCode.INVALID_REQUEST)
        return body

    def request(self, api_key: int, body: Any, version: int | None = None) -> Any:
        cid, v = self.send(api_key, body, version)
        if api_key == 18:
            # ApiVersions answers with a v0 header whatever version was asked (KIP-511)
            frame = self.recv_frame()
            cid2, resp = decode_response(18, v, frame)
            return resp
        return self.receive(api_key, v, cid)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self) -> BrokerConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["BrokerConnection", "ConnectionClosedError"]
