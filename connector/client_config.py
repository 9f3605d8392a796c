"""Client settings of the source, parsed from its `kafka.*` options (Kafka consumer config names).

Kept apart from `connector.kafka_client` so that validating options (which Spark does in a fresh
driver worker at every `load()`) does not import the protocol codecs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

READ_UNCOMMITTED = 0
READ_COMMITTED = 1

# Consumer configs (`kafka.` options) that this client understands; others are accepted and
# ignored with a debug log, as Kafka's clients do with unknown configs.
_SUPPORTED_SECURITY = ("PLAINTEXT",)


@dataclass(frozen=True)
class ClientConfig:
    """Client settings from the source's `kafka.*` options (Kafka consumer config names)."""

    bootstrap_servers: str
    client_id: str = "pykafka-spark-source"
    request_timeout_ms: int = 30_000
    connect_timeout_ms: int = 10_000
    fetch_max_wait_ms: int = 500
    fetch_min_bytes: int = 1
    fetch_max_bytes: int = 52_428_800
    # Kafka's consumer default is 1 MiB; a Spark task reads a single partition, and bigger fetches
    # amortize the fixed cost of the vectorized decoder (connector.arrow), so 8 MiB here
    max_partition_fetch_bytes: int = 8_388_608
    isolation_level: int = READ_UNCOMMITTED
    check_crcs: bool = True

    @classmethod
    def from_kafka_params(cls, params: Mapping[str, str], client_id: str) -> ClientConfig:
        """`params` are the `kafka.` options without the prefix (keys lower-case)."""

        def num(name: str, default: int, minimum: int = 0) -> int:
            raw = params.get(name)
            if raw is None:
                return default
            try:
                v = int(raw.strip())
            except ValueError:
                v = minimum - 1
            if v < minimum:
                raise ValueError(f"Invalid value {raw!r} for option 'kafka.{name}': expected an integer >= {minimum}")
            return v

        security = params.get("security.protocol", "PLAINTEXT").strip().upper()
        if security not in _SUPPORTED_SECURITY:
            raise ValueError(
                f"Invalid value {params['security.protocol']!r} for option 'kafka.security.protocol': the pykafka "
                f"source speaks {', '.join(_SUPPORTED_SECURITY)} only (SASL/TLS are not implemented yet)"
            )
        isolation = params.get("isolation.level", "read_uncommitted").strip().lower()
        if isolation not in ("read_uncommitted", "read_committed"):
            raise ValueError(
                f"Invalid value {params['isolation.level']!r} for option 'kafka.isolation.level': expected "
                "'read_uncommitted' or 'read_committed'"
            )
        crcs = params.get("check.crcs", "true").strip().lower()
        if crcs not in ("true", "false"):
            raise ValueError(
                f"Invalid value {params['check.crcs']!r} for option 'kafka.check.crcs': expected true/false"
            )
        return cls(
            bootstrap_servers=params["bootstrap.servers"],
            client_id=params.get("client.id", client_id),
            request_timeout_ms=num("request.timeout.ms", cls.request_timeout_ms, 1),
            connect_timeout_ms=num("socket.connection.setup.timeout.ms", cls.connect_timeout_ms, 1),
            fetch_max_wait_ms=num("fetch.max.wait.ms", cls.fetch_max_wait_ms),
            fetch_min_bytes=num("fetch.min.bytes", cls.fetch_min_bytes),
            fetch_max_bytes=num("fetch.max.bytes", cls.fetch_max_bytes, 1),
            max_partition_fetch_bytes=num("max.partition.fetch.bytes", cls.max_partition_fetch_bytes, 1),
            isolation_level=READ_COMMITTED if isolation == "read_committed" else READ_UNCOMMITTED,
            check_crcs=crcs == "true",
        )


def parse_bootstrap(servers: str) -> list[tuple[str, int]]:
    out = []
    for item in servers.split(","):
        item = item.strip()
        if not item:
            continue
        host, _, port = item.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(
                f"Invalid value {servers!r} for option 'kafka.bootstrap.servers': expected host:port[,host:port...]"
            )
        out.append((host.strip("[]"), int(port)))
    if not out:
        raise ValueError("Option 'kafka.bootstrap.servers' must be specified for configuring the Kafka consumer")
    return out


__all__ = ["READ_COMMITTED", "READ_UNCOMMITTED", "ClientConfig", "parse_bootstrap"]
