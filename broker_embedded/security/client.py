"""The broker as a client: how it connects to other brokers (replication fetchers, over the
inter-broker listener) and to the controller.

Kafka configures the broker's own credentials on the inter-broker listener: TLS from the same
`ssl.*` stores (the keystore is the client certificate), SASL with
`sasl.mechanism.inter.broker.protocol` and the `username`/`password` options of that mechanism's
JAAS config (`listener.name.<l>.<mechanism>.sasl.jaas.config`, else `sasl.jaas.config`). The
controller connection uses TLS when `listener.security.protocol.map` maps the first of
`controller.listener.names` to SSL (mutual TLS: the controller requires a client certificate).
"""

from __future__ import annotations

import ssl
from collections.abc import Awaitable, Callable
from typing import Any

from broker_embedded.config import BrokerConfig, ConfigError
from broker_embedded.security.listeners import ListenerConfig, parse_protocol_map
from broker_embedded.security.sasl import parse_jaas_options
from broker_embedded.security.tls import client_context, server_context
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import sasl_authenticate_request, sasl_handshake_request

# request(api_key, body, version) -> response body
Requester = Callable[[int, Any, int], Awaitable[Any]]


class InterBrokerSecurity:
    """TLS context and SASL login for connections to other brokers' inter-broker listener."""

    def __init__(self, config: BrokerConfig) -> None:
        listeners = ListenerConfig(config)
        self.listener = listeners.endpoint(listeners.inter_broker)
        name = self.listener.name

        def get(key: str) -> Any:
            return listeners.get(name, key)

        self.ssl_context: ssl.SSLContext | None = client_context(get) if self.listener.uses_tls else None
        self.mechanism: str | None = None
        self._username = self._password = ""
        if self.listener.uses_sasl:
            self.mechanism = str(config["sasl.mechanism.inter.broker.protocol"]).upper()
            raw = config.get(f"listener.name.{name.lower()}.{self.mechanism.lower()}.sasl.jaas.config")
            options = parse_jaas_options(raw if raw is not None else get("sasl.jaas.config"))
            self._username = options.get("username", "")
            self._password = options.get("password", "")
            if self.mechanism not in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"):
                raise ConfigError(
                    f"Invalid value {self.mechanism} for configuration sasl.mechanism.inter.broker.protocol: "
                    "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512"
                )
            if not self._username:
                raise ConfigError(
                    f"the inter-broker listener {name} needs username= and password= in the {self.mechanism} "
                    "sasl.jaas.config (the broker's own credentials)"
                )

    def __repr__(self) -> str:
        return f"InterBrokerSecurity({self.listener.name}, {self.mechanism}, user={self._username!r})"

    async def authenticate(self, request: Requester) -> None:
        """SaslHandshake v1 + SaslAuthenticate v2 on a fresh connection; raises KafkaError."""
        if self.mechanism is None:
            return
        hs = await request(17, sasl_handshake_request.SaslHandshakeRequest(mechanism=self.mechanism), 1)
        if hs.error_code != ErrorCode.NONE:
            raise KafkaError(f"SaslHandshake {self.mechanism} refused", ErrorCode(hs.error_code))

        async def step(token: bytes) -> bytes:
            resp = await request(36, sasl_authenticate_request.SaslAuthenticateRequest(auth_bytes=token), 2)
            if resp.error_code != ErrorCode.NONE:
                raise KafkaError(resp.error_message or "SASL authentication failed", ErrorCode(resp.error_code))
            return bytes(resp.auth_bytes)

        if self.mechanism == "PLAIN":
            await step(f"\x00{self._username}\x00{self._password}".encode())
            return
        import scramp  # only inter-broker SCRAM needs it (start time of a plaintext broker)

        client = scramp.ScramClient([self.mechanism], self._username, self._password)
        client.set_server_first((await step(client.get_client_first().encode())).decode())
        final = await step(client.get_client_final().encode())
        try:
            client.set_server_final(final.decode())  # the other broker proves it knows the credential
        except scramp.ScramException as e:
            raise KafkaError(f"the broker's SCRAM proof is wrong: {e}", ErrorCode.SASL_AUTHENTICATION_FAILED) from None


def _controller_listener(config: BrokerConfig) -> tuple[str, str] | None:
    names = [n.strip().upper() for n in str(config.get("controller.listener.names") or "").split(",") if n.strip()]
    if not names:
        return None
    protocol = parse_protocol_map(config["listener.security.protocol.map"]).get(names[0], "PLAINTEXT")
    if protocol not in ("PLAINTEXT", "SSL"):
        raise ConfigError(f"the controller listener {names[0]} must be PLAINTEXT or SSL, not {protocol}")
    return names[0], protocol


def _getter(config: BrokerConfig, listener: str) -> Callable[[str], Any]:
    def get(key: str) -> Any:
        value = config.get(f"listener.name.{listener.lower()}.{key}")
        return config.get(key) if value is None else value

    return get


def controller_server_context(config: BrokerConfig) -> ssl.SSLContext | None:
    """The controller's TLS context (client certificates required unless configured otherwise)."""
    found = _controller_listener(config)
    if found is None or found[1] != "SSL":
        return None
    get = _getter(config, found[0])

    def with_required_auth(key: str) -> Any:
        if key == "ssl.client.auth" and config.get(f"listener.name.{found[0].lower()}.ssl.client.auth") is None:
            return "required"  # a controller only talks to brokers that prove who they are
        return get(key)

    return server_context(with_required_auth)


def controller_client_context(config: BrokerConfig) -> ssl.SSLContext | None:
    found = _controller_listener(config)
    if found is None or found[1] != "SSL":
        return None
    return client_context(_getter(config, found[0]))


__all__ = ["InterBrokerSecurity", "controller_client_context", "controller_server_context"]
