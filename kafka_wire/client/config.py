"""Client settings under Kafka's own config names, and the one translation from a property map.

Kept free of the protocol codecs (importing it does not load them): the connector validates its
`kafka.*` options in a fresh Spark driver worker at every `load()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kafka_wire.client.security import (
    PLAINTEXT,
    SECURITY_OPTIONS,
    SECURITY_PROTOCOLS,
    SecurityConfig,
    SecurityConfigError,
)

READ_UNCOMMITTED = 0
READ_COMMITTED = 1

# security.protocol values this client speaks
SUPPORTED_SECURITY = SECURITY_PROTOCOLS


@dataclass(frozen=True)
class ClientConfig:
    """Settings of `kafka_wire.client.KafkaClient`, named after Kafka's consumer configs."""

    bootstrap_servers: str
    client_id: str = "pykafka-spark-source"
    request_timeout_ms: int = 30_000
    connect_timeout_ms: int = 10_000
    # how long one client call (metadata, ListOffsets, a coordinator call) keeps retrying
    # retriable failures (dead broker, moved leader/coordinator) before failing: Kafka's
    # default.api.timeout.ms
    default_api_timeout_ms: int = 60_000
    retry_backoff_ms: int = 100
    retry_backoff_max_ms: int = 1_000
    reconnect_backoff_ms: int = 50
    reconnect_backoff_max_ms: int = 1_000
    fetch_max_wait_ms: int = 500
    fetch_min_bytes: int = 1
    fetch_max_bytes: int = 52_428_800
    # Kafka's consumer default is 1 MiB; a Spark task reads a single partition, and bigger fetches
    # amortize the fixed cost of the vectorized decoder (connector.source.arrow), so 8 MiB here
    max_partition_fetch_bytes: int = 8_388_608
    isolation_level: int = READ_UNCOMMITTED
    check_crcs: bool = True
    # security.protocol, SASL and TLS settings; its repr hides passwords, keys and tokens
    security: SecurityConfig = PLAINTEXT

    @classmethod
    def from_kafka_params(cls, params: Mapping[str, str], client_id: str, prefix: str = "kafka.") -> ClientConfig:
        """`params` are Kafka config names (keys lower-case, without `prefix`); errors name `prefix + key`."""

        def num(name: str, default: int, minimum: int = 0) -> int:
            raw = params.get(name)
            if raw is None:
                return default
            try:
                v = int(raw.strip())
            except ValueError:
                v = minimum - 1
            if v < minimum:
                raise ValueError(f"Invalid value {raw!r} for option '{prefix}{name}': expected an integer >= {minimum}")
            return v

        try:
            security = SecurityConfig.from_params(params, prefix)
        except SecurityConfigError as e:
            raise ValueError(str(e)) from None
        isolation = params.get("isolation.level", "read_uncommitted").strip().lower()
        if isolation not in ("read_uncommitted", "read_committed"):
            raise ValueError(
                f"Invalid value {params['isolation.level']!r} for option '{prefix}isolation.level': expected "
                "'read_uncommitted' or 'read_committed'"
            )
        crcs = params.get("check.crcs", "true").strip().lower()
        if crcs not in ("true", "false"):
            raise ValueError(
                f"Invalid value {params['check.crcs']!r} for option '{prefix}check.crcs': expected true/false"
            )
        backoff = num("retry.backoff.ms", cls.retry_backoff_ms)
        reconnect = num("reconnect.backoff.ms", cls.reconnect_backoff_ms)
        return cls(
            bootstrap_servers=params["bootstrap.servers"],
            client_id=params.get("client.id", client_id),
            request_timeout_ms=num("request.timeout.ms", cls.request_timeout_ms, 1),
            connect_timeout_ms=num("socket.connection.setup.timeout.ms", cls.connect_timeout_ms, 1),
            default_api_timeout_ms=num("default.api.timeout.ms", cls.default_api_timeout_ms, 1),
            retry_backoff_ms=backoff,
            retry_backoff_max_ms=max(backoff, num("retry.backoff.max.ms", cls.retry_backoff_max_ms)),
            reconnect_backoff_ms=reconnect,
            reconnect_backoff_max_ms=max(reconnect, num("reconnect.backoff.max.ms", cls.reconnect_backoff_max_ms)),
            fetch_max_wait_ms=num("fetch.max.wait.ms", cls.fetch_max_wait_ms),
            fetch_min_bytes=num("fetch.min.bytes", cls.fetch_min_bytes),
            fetch_max_bytes=num("fetch.max.bytes", cls.fetch_max_bytes, 1),
            max_partition_fetch_bytes=num("max.partition.fetch.bytes", cls.max_partition_fetch_bytes, 1),
            isolation_level=READ_COMMITTED if isolation == "read_committed" else READ_UNCOMMITTED,
            check_crcs=crcs == "true",
            security=security,
        )


__all__ = ["READ_COMMITTED", "READ_UNCOMMITTED", "SECURITY_OPTIONS", "SUPPORTED_SECURITY", "ClientConfig"]
