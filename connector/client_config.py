"""The source's client settings: `kafka_wire.client.config` (Kafka config names, one translation of
the `kafka.*` options) and the one bootstrap parser, named as the connector's options spell them.

Importing this does not load the protocol codecs (Spark validates options in a fresh driver worker
at every `load()`).
"""

from __future__ import annotations

from kafka_wire.client import bootstrap as _bootstrap
from kafka_wire.client.config import READ_COMMITTED, READ_UNCOMMITTED, ClientConfig


def parse_bootstrap(servers: str) -> list[tuple[str, int]]:
    return _bootstrap.parse_bootstrap(servers, "option 'kafka.bootstrap.servers'")


__all__ = ["READ_COMMITTED", "READ_UNCOMMITTED", "ClientConfig", "parse_bootstrap"]
