"""Connections for the group client: `kafka_wire.client.BrokerConnection` with per-call timeouts.

A JoinGroup can legitimately block for the whole rebalance timeout while a heartbeat must give up
after the request timeout, so the socket timeout is set per request. Any transport failure closes
the connection (a late response would desynchronize it) and surfaces as `BrokerUnavailableError`.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from typing import Any

from consumer_group.structs import GroupError
from kafka_wire.client.bootstrap import parse_bootstrap as _parse_bootstrap
from kafka_wire.client.connection import BrokerConnection
from kafka_wire.client.security import PLAINTEXT, AuthenticationError, SecurityConfig
from kafka_wire.errors import ErrorCode, KafkaError, ProtocolDecodeError


class BrokerUnavailableError(GroupError):
    """The broker could not be reached, or the connection broke mid-request."""

    code = ErrorCode.NETWORK_EXCEPTION


class GroupAuthenticationError(GroupError):
    """SASL or TLS authentication with a broker failed: not retried (the member stops with it)."""

    code = ErrorCode.SASL_AUTHENTICATION_FAILED


def parse_bootstrap(servers: str | Sequence[str]) -> list[tuple[str, int]]:
    """`"h1:9092,h2:9092"` (or a list of such) -> [(host, port)]: the client stack's one parser."""
    return _parse_bootstrap(servers, "bootstrap_servers")


class Connection:
    """One broker connection, used by one thread at a time (requests are not pipelined)."""

    def __init__(
        self, host: str, port: int, client_id: str, timeout: float, security: SecurityConfig = PLAINTEXT
    ) -> None:
        self.host = host
        self.port = port
        try:
            self._conn = BrokerConnection(host, port, client_id=client_id, timeout=timeout, security=security)
        except AuthenticationError as e:
            raise GroupAuthenticationError(str(e), e.code) from None
        except (OSError, KafkaError, ProtocolDecodeError) as e:
            raise BrokerUnavailableError(f"cannot connect to {host}:{port}: {e}") from e
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def version(self, api_key: int, cap: int | None = None) -> int:
        """Highest version both sides speak, optionally capped (e.g. to avoid topic-id versions)."""
        v = self._conn.best_version(api_key)
        if cap is not None and v > cap:
            lo = self._conn.api_versions.get(api_key, (0, 0))[0]
            if cap < lo:
                raise KafkaError(
                    f"broker needs API {api_key} >= v{lo}, we speak <= v{cap}", ErrorCode.UNSUPPORTED_VERSION
                )
            v = cap
        return v

    def request(self, api_key: int, body: Any, version: int, timeout: float) -> Any:
        if self._closed:
            raise BrokerUnavailableError(f"connection to {self.host}:{self.port} is closed")
        try:
            self._conn.sock.settimeout(timeout)
            return self._conn.request(api_key, body, version)
        except AuthenticationError as e:  # a failed KIP-368 re-authentication
            self.close()
            raise GroupAuthenticationError(str(e), e.code) from None
        except (OSError, KafkaError, ProtocolDecodeError) as e:
            self.close()
            raise BrokerUnavailableError(f"request {api_key} v{version} to {self.host}:{self.port} failed: {e}") from e

    def abort(self) -> None:
        """Unblock a thread waiting on this connection (called from another thread)."""
        try:
            self._conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def close(self) -> None:
        self._closed = True
        self._conn.close()


__all__ = ["BrokerUnavailableError", "Connection", "GroupAuthenticationError", "parse_bootstrap"]
