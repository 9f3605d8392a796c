"""`bootstrap.servers` parsing: the one parser every client of the suite uses."""

from __future__ import annotations

from collections.abc import Sequence


def parse_bootstrap(servers: str | Sequence[str], what: str = "option 'bootstrap.servers'") -> list[tuple[str, int]]:
    """`"h1:9092,h2:9092"` (or a list of such) -> [(host, port)]; IPv6 hosts may be bracketed.

    `what` names the setting in errors (the connector passes "option 'kafka.bootstrap.servers'").
    """
    items = servers.split(",") if isinstance(servers, str) else [s for item in servers for s in item.split(",")]
    out = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        host, _, port = item.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"Invalid value {servers!r} for {what}: expected host:port[,host:port...]")
        out.append((host.strip("[]"), int(port)))
    if not out:
        raise ValueError(f"{what[0].upper()}{what[1:]} must be specified for configuring the Kafka consumer")
    return out


def format_addrs(addrs: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{h}:{p}" for h, p in addrs) or "none"


__all__ = ["format_addrs", "parse_bootstrap"]
