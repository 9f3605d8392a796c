"""A small blocking Kafka client connection on top of the codecs.

`BrokerConnection` sends one request at a time and reads its response; it negotiates versions
with ApiVersions on connect. It is the building block for the connector's metadata/offset calls
and for protocol-level tests (it can also send raw frames).

With a `SecurityConfig` it speaks TLS (`SSL`, `SASL_SSL`: the handshake runs on connect, within
the connect timeout) and authenticates with SASL after ApiVersions (`SASL_PLAINTEXT`,
`SASL_SSL`); when the broker granted a session lifetime (KIP-368) it re-authenticates on the
same socket before the lifetime ends, between two requests, as Kafka's clients do.
"""

from __future__ import annotations

import random
import socket
import ssl
import struct
import time
from typing import Any

from kafka_wire.client.security import PLAINTEXT, SecurityConfig, SslAuthenticationError
from kafka_wire.errors import ErrorCode, KafkaError, PykafkaError
from kafka_wire.protocol import decode_response, encode_request
from kafka_wire.protocol.messages import api_versions_request
from kafka_wire.protocol.negotiation import API_VERSIONS_KEY, API_VERSIONS_VERSION, best_version, supported_versions

_i32 = struct.Struct(">i")


class ConnectionClosedError(PykafkaError, ConnectionError):
    pass


class BrokerConnection:
    def __init__(
        self,
        host: str,
        port: int,
        client_id: str = "pykafka",
        timeout: float = 30.0,
        negotiate: bool = True,
        security: SecurityConfig = PLAINTEXT,
    ) -> None:
        self.host = host
        self.port = port
        self.client_id = client_id
        self.security = security
        self._timeout = timeout
        self._correlation_id = 0
        self.api_versions: dict[int, tuple[int, int]] = {}
        self.reauthenticate_at: float | None = None  # monotonic time of the next KIP-368 re-authentication
        self._authenticating = False
        self.sock: socket.socket = socket.create_connection((host, port), timeout=timeout)
        try:
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if security.uses_ssl:
                self.sock = self._tls(self.sock)
            if negotiate or security.uses_sasl:
                self.negotiate()
            if security.uses_sasl:
                self.authenticate()
        except ssl.SSLError as e:
            self.close()
            if isinstance(e, (ssl.SSLEOFError, ssl.SSLZeroReturnError)):
                raise ConnectionClosedError(f"connection to {host}:{port} closed during TLS: {e}") from None
            # a refused client certificate shows up at the first read under TLS 1.3
            raise SslAuthenticationError(f"SSL handshake with {host}:{port} failed: {_ssl_reason(e)}") from None
        except ConnectionClosedError as e:
            self.close()
            if not security.uses_ssl:
                raise
            # without a TLS alert this stays a disconnect (retried, as Java's clients do), but say
            # what it usually means
            raise ConnectionClosedError(
                f"{e} right after the TLS handshake with {host}:{port} (a listener requiring a client "
                "certificate the broker did not accept, or a listener that does not speak TLS?)"
            ) from None
        except BaseException:
            self.close()
            raise

    def _tls(self, sock: socket.socket) -> socket.socket:
        ctx = self.security.ssl_context()
        # SNI and the name checked against the certificate are the address dialled, as in Java
        return ctx.wrap_socket(sock, server_hostname=self.host)

    def authenticate(self) -> None:
        """SASL authentication (again, for KIP-368 re-authentication) on this connection."""
        from kafka_wire.client.sasl import authenticate

        self._authenticating = True
        try:
            lifetime_ms = authenticate(self, self.security, self._timeout)
        finally:
            self._authenticating = False
        if lifetime_ms > 0:
            # as Kafka's clients: re-authenticate at 85-95 % of the session lifetime
            self.reauthenticate_at = time.monotonic() + lifetime_ms / 1000 * random.uniform(0.85, 0.95)
        else:
            self.reauthenticate_at = None

    @classmethod
    def from_bootstrap(cls, bootstrap: str, **kw: Any) -> BrokerConnection:
        host, port = bootstrap.split(",")[0].rsplit(":", 1)
        return cls(host, int(port), **kw)

    def negotiate(self) -> None:
        resp = self.request(
            API_VERSIONS_KEY,
            api_versions_request.ApiVersionsRequest(client_software_name="pykafka", client_software_version="0.1.0"),
            version=API_VERSIONS_VERSION,
        )
        self.api_versions = supported_versions(resp)

    def best_version(self, api_key: int) -> int:
        return best_version(self.api_versions, api_key)

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
        if (
            self.reauthenticate_at is not None
            and not self._authenticating
            and time.monotonic() >= self.reauthenticate_at
        ):
            # nothing is in flight here (one request at a time, a pending fetch is read before
            # the next send), which re-authentication needs
            self.authenticate()
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


def _ssl_reason(e: ssl.SSLError) -> str:
    reason = getattr(e, "verify_message", None) or getattr(e, "reason", None) or str(e)
    if isinstance(e, ssl.SSLCertVerificationError):
        return f"certificate verify failed: {reason}"
    return str(reason)


__all__ = ["BrokerConnection", "ConnectionClosedError"]
