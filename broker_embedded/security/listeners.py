"""Listeners as Kafka configures them: `listeners`, `advertised.listeners`,
`listener.security.protocol.map`, `inter.broker.listener.name`, and per-listener overrides
(`listener.name.<listener lowercase>.<config>` wins over `<config>`).

With no `listeners` the broker keeps its historical single PLAINTEXT listener on
`host.name:port`, so nothing existing changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from broker_embedded.config import BrokerConfig, ConfigError

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")


@dataclass(frozen=True)
class Endpoint:
    """One listener: its name, security protocol, and where it binds (port 0: a free port)."""

    name: str
    security_protocol: str
    host: str
    port: int

    @property
    def uses_tls(self) -> bool:
        return self.security_protocol in ("SSL", "SASL_SSL")

    @property
    def uses_sasl(self) -> bool:
        return self.security_protocol in ("SASL_PLAINTEXT", "SASL_SSL")


def parse_protocol_map(raw: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in (x.strip() for x in raw.split(",")):
        if not item:
            continue
        name, sep, proto = item.partition(":")
        if not sep or proto.strip().upper() not in SECURITY_PROTOCOLS:
            raise ConfigError(
                f"Invalid value {item!r} for configuration listener.security.protocol.map: "
                f"expected NAME:PROTOCOL with PROTOCOL one of {', '.join(SECURITY_PROTOCOLS)}"
            )
        out[name.strip().upper()] = proto.strip().upper()
    return out


def parse_listeners(raw: str, protocol_map: dict[str, str], config_name: str = "listeners") -> list[Endpoint]:
    """`NAME://HOST:PORT,...` (an empty host binds every interface, as Kafka's)."""
    out: list[Endpoint] = []
    for item in (x.strip() for x in raw.split(",")):
        if not item:
            continue
        name, sep, rest = item.partition("://")
        host, colon, port = rest.rpartition(":")
        if not sep or not colon or not port.isdigit():
            raise ConfigError(f"Invalid value {item!r} for configuration {config_name}: expected NAME://HOST:PORT")
        name = name.upper()
        proto = protocol_map.get(name)
        if proto is None:
            raise ConfigError(
                f"Invalid value {item!r} for configuration {config_name}: listener {name} is not in "
                "listener.security.protocol.map"
            )
        if any(e.name == name for e in out):
            raise ConfigError(f"Invalid value {raw!r} for configuration {config_name}: listener {name} repeated")
        out.append(Endpoint(name, proto, host.strip("[]") or "0.0.0.0", int(port)))
    return out


class ListenerConfig:
    """The broker's listeners and the lookup of a config for one of them."""

    def __init__(self, config: BrokerConfig) -> None:
        self.config = config
        self.protocol_map = parse_protocol_map(config["listener.security.protocol.map"])
        raw = config["listeners"]
        if raw:
            self.listeners = parse_listeners(raw, self.protocol_map)
        else:
            self.listeners = [Endpoint("PLAINTEXT", "PLAINTEXT", config["host.name"], config["port"])]
        if not self.listeners:
            raise ConfigError("Invalid value '' for configuration listeners: no listener")
        if config["port"] and len(self.listeners) == 1 and self.listeners[0].port == 0:
            # `--port` (EmbeddedCluster restarts a broker on its old port) fixes a lone listener's port 0
            e = self.listeners[0]
            self.listeners = [Endpoint(e.name, e.security_protocol, e.host, config["port"])]
        adv = config["advertised.listeners"]
        self.advertised: dict[str, Endpoint] = {}
        if adv:
            for e in parse_listeners(adv, self.protocol_map, "advertised.listeners"):
                if not any(x.name == e.name for x in self.listeners):
                    raise ConfigError(
                        f"Invalid value {adv!r} for configuration advertised.listeners: {e.name} is not a listener"
                    )
                self.advertised[e.name] = e
        ibl = config["inter.broker.listener.name"]
        if ibl:
            self.inter_broker = ibl.upper()
        else:
            proto = config["security.inter.broker.protocol"].upper()
            same = [e.name for e in self.listeners if e.security_protocol == proto]
            # Kafka requires one; a broker that never talks to another may have none of that protocol
            self.inter_broker = same[0] if same else self.listeners[0].name
        if not any(e.name == self.inter_broker for e in self.listeners):
            raise ConfigError(
                f"Invalid value {self.inter_broker!r} for configuration inter.broker.listener.name: not a listener"
            )

    def get(self, listener: str, key: str, default: Any = None) -> Any:
        """`listener.name.<listener>.<key>` if set, else the broker-wide `key` (Kafka's resolution)."""
        prefixed = f"listener.name.{listener.lower()}.{key}"
        value = self.config.get(prefixed)
        if value is not None:
            return value
        value = self.config.get(key)
        return default if value is None else value

    def endpoint(self, name: str) -> Endpoint:
        for e in self.listeners:
            if e.name == name:
                return e
        raise KeyError(name)


def format_endpoints(endpoints: list[Endpoint]) -> str:
    return ",".join(f"{e.name}://{e.host}:{e.port}" for e in endpoints)


__all__ = ["Endpoint", "ListenerConfig", "SECURITY_PROTOCOLS", "format_endpoints", "parse_listeners"]
