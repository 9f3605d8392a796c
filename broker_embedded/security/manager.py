"""The broker's security state: listeners and their TLS contexts, SASL configs, SCRAM credentials,
the authorizer; what the network server and the security handlers reach through `ctx.session`.

SCRAM credentials and ACLs are broker metadata: kept in `<log dir>/security.json` (written
atomically) so they survive restarts.
"""

from __future__ import annotations

import json
import logging
import os
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from broker_embedded.config import BrokerConfig, ConfigError
from broker_embedded.security.authorizer import Authorizer, authorizer_from_config
from broker_embedded.security.listeners import Endpoint, ListenerConfig
from broker_embedded.security.sasl import (
    SaslAuthenticator,
    SaslListenerConfig,
    load_validator,
    parse_jaas_options,
)
from broker_embedded.security.scram import MECHANISMS as SCRAM_MECHANISMS
from broker_embedded.security.scram import MIN_ITERATIONS, ScramCredentialStore, credential_from_password
from broker_embedded.security.tls import (
    SslPrincipalMapper,
    java_dn,
    keystore_alias,
    keystore_pem,
    leaf_certificate,
    peer_dn,
    server_context,
    subject_alt_names,
    truststore_pem,
)
from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from cryptography import x509

log = logging.getLogger(__name__)

SUPPORTED_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")


class SecurityManager:
    def __init__(self, config: BrokerConfig, log_dir: Path | None) -> None:
        self.config = config
        self.listeners = ListenerConfig(config)
        self.path = log_dir / "security.json" if log_dir is not None else None
        self.scram = ScramCredentialStore()
        self.authorizer: Authorizer | None = authorizer_from_config(config, self._save)
        self._load()
        # NAME -> (host, port) told to clients, filled once the listeners are bound (BrokerRunner)
        self.advertised: dict[str, tuple[str, int]] = {}
        self._ssl: dict[str, ssl.SSLContext] = {}
        self._sasl: dict[str, SaslListenerConfig] = {}
        self._mappers: dict[str, SslPrincipalMapper] = {}
        # listener name (lower case) -> its dynamic keystore/truststore configs in force (KIP-226)
        self._dynamic_keystores: dict[str, dict[str, str]] = {}
        # listener name -> what its context was built from: the leaf certificate and its alias (a
        # reload compares the new one with it), whether it had a truststore, and the store files'
        # (path, mtime, size) when read (a file rewritten in place is reloaded, as Kafka's SslFactory)
        self._in_force: dict[str, _StoresInForce] = {}
        for e in self.listeners.listeners:
            if e.uses_tls:
                self._ssl[e.name], self._in_force[e.name] = self._build_context(e.name, {})
                self._mappers[e.name] = SslPrincipalMapper(
                    self.listeners.get(e.name, "ssl.principal.mapping.rules", "DEFAULT")
                )
            if e.uses_sasl:
                self._sasl[e.name] = self._sasl_config(e)

    # --- listeners -------------------------------------------------------------------------------
    def ssl_context(self, listener: str) -> ssl.SSLContext | None:
        """The listener's context in force (the server asks on every accept: a reload swaps it)."""
        return self._ssl.get(listener)

    # --- dynamic listener keystores and truststores (Kafka's SslFactory reconfiguration, KIP-226) --
    def _keystore_get(self, listener: str, dynamic: dict[str, str]) -> Callable[[str], Any]:
        return lambda key: dynamic[key] if key in dynamic else self.listeners.get(listener, key)

    def _build_context(self, name: str, dynamic: dict[str, str]) -> tuple[ssl.SSLContext, _StoresInForce]:
        get = self._keystore_get(name, dynamic)
        files = _store_files(get)  # before reading them, as Kafka takes the modification time first
        pem = keystore_pem(get)
        ctx = server_context(get, keystore=pem)
        return ctx, _StoresInForce(
            leaf_certificate(pem), keystore_alias(get), bool(get("ssl.truststore.location")), files
        )

    def _stale(self, name: str, configs: dict[str, str]) -> bool:
        """The listener's stores must be rebuilt: other configs, or a store file changed since read."""
        if configs != self._dynamic_keystores.get(name.lower(), {}):
            return True
        return _store_files(self._keystore_get(name, configs)) != self._in_force[name].files

    def validate_keystores(self, keystores: dict[str, dict[str, str]]) -> None:
        """A BROKER resource's new listener store configs: the stores must load, the keystore must
        present the subject DN and SubjectAltNames of the certificate in force, and a truststore cannot
        be added to a listener that had none (Kafka's SslFactory checks and messages; INVALID_REQUEST).
        As Kafka's broker, only listeners whose configs change are checked here: a file rewritten at
        the same path is checked when it is reloaded (reload_keystores)."""
        for name in self._ssl:
            new_configs = keystores.get(name.lower(), {})
            if new_configs != self._dynamic_keystores.get(name.lower(), {}):
                self._check_compatible(name, new_configs)

    def _check_compatible(self, name: str, new_configs: dict[str, str]) -> None:
        old = self._in_force[name]
        new_get = self._keystore_get(name, new_configs)
        try:
            new = leaf_certificate(keystore_pem(new_get))
            trust = new_get("ssl.truststore.location")
            if trust:
                truststore_pem(new_get)
        except (ConfigError, ValueError, OSError) as e:
            raise self._invalid(f"org.apache.kafka.common.KafkaException: Failed to load SSL keystore: {e}") from None
        if trust and not old.has_truststore:
            raise self._invalid(
                "org.apache.kafka.common.config.ConfigException: Cannot add SSL truststore to an existing "
                "listener for which no truststore was configured."
            )
        old_alias, new_alias = old.alias, keystore_alias(new_get)
        if new.subject != old.leaf.subject:
            raise self._invalid(
                "org.apache.kafka.common.config.ConfigException: Keystore DistinguishedName does not match: "
                f" existing={{alias={old_alias}, DN={java_dn(old.leaf)}}},"
                f" new={{alias={new_alias}, DN={java_dn(new)}}}"
            )
        old_san, new_san = subject_alt_names(old.leaf), subject_alt_names(new)
        if not set(old_san) <= set(new_san):
            raise self._invalid(
                "org.apache.kafka.common.config.ConfigException: Keystore SubjectAltNames do not match: "
                f" existing={{alias={old_alias}, SAN={_java_sans(old_san)}}},"
                f" new={{alias={new_alias}, SAN={_java_sans(new_san)}}}"
            )

    @staticmethod
    def _invalid(cause: str) -> KafkaError:
        return KafkaError(
            "Invalid value org.apache.kafka.common.config.ConfigException: Validation of dynamic config update of "
            f"SSLFactory failed: {cause} for configuration Invalid dynamic configuration",
            ErrorCode.INVALID_REQUEST,
        )

    def reload_keystores(self, keystores: dict[str, dict[str, str]]) -> None:
        """Apply this broker's dynamic listener stores: a listener whose configs changed, or whose
        store file changed in place, gets a new server context; connections accepted after this
        use it (new certificate, new trusted CAs), open ones keep their session. Stores that no
        longer load (a stored config, a file gone) leave the listener's context as it was."""
        for name in list(self._ssl):
            configs = keystores.get(name.lower(), {})
            if not self._stale(name, configs):
                continue
            try:
                # a file rewritten in place was not checked by an update (its configs did not change):
                # checked now; a failure is logged and the listener keeps its stores, as Kafka's reload
                if configs == self._dynamic_keystores.get(name.lower(), {}):
                    self._check_compatible(name, configs)
                ctx, in_force = self._build_context(name, configs)
            except KafkaError as e:
                log.error("listener %s keeps its keystore and truststore: %s", name, e)
                continue
            except (ConfigError, ValueError, OSError, ssl.SSLError) as e:
                log.error("listener %s keeps its keystore and truststore: the dynamic ones do not load: %s", name, e)
                continue
            self._ssl[name], self._in_force[name] = ctx, in_force
            if configs:
                self._dynamic_keystores[name.lower()] = dict(configs)
            else:
                self._dynamic_keystores.pop(name.lower(), None)
            log.info("listener %s: keystore and truststore reloaded", name)

    def _sasl_config(self, e: Endpoint) -> SaslListenerConfig:
        get = self.listeners.get
        raw = get(e.name, "sasl.enabled.mechanisms")
        mechanisms = [m.strip().upper() for m in (raw if isinstance(raw, list) else str(raw).split(",")) if m.strip()]
        unsupported = [m for m in mechanisms if m not in SUPPORTED_MECHANISMS]
        if unsupported:
            raise ConfigError(
                f"Invalid value {','.join(mechanisms)} for configuration sasl.enabled.mechanisms on listener "
                f"{e.name}: {', '.join(unsupported)} not supported (choose from {', '.join(SUPPORTED_MECHANISMS)})"
            )
        cfg = SaslListenerConfig(
            mechanisms, scram=self.scram, max_reauth_ms=int(get(e.name, "connections.max.reauth.ms", 0))
        )
        for m in mechanisms:
            raw_ms = self.config.get(f"listener.name.{e.name.lower()}.{m.lower()}.connections.max.reauth.ms")
            if raw_ms is not None:
                cfg.max_reauth_ms_by_mechanism[m] = int(raw_ms)
        if "PLAIN" in mechanisms:
            options = self._jaas(e.name, "plain")
            cfg.plain_users = {k[5:]: v for k, v in options.items() if k.startswith("user_")}
        if "OAUTHBEARER" in mechanisms:
            options = self._jaas(e.name, "oauthbearer")
            cls = self.config.get(f"listener.name.{e.name.lower()}.oauthbearer.sasl.server.callback.handler.class")
            cls = cls or self.config.get("sasl.server.callback.handler.class")
            cfg.oauth_validator = load_validator(cls, options)
        return cfg

    def _jaas(self, listener: str, mechanism: str) -> dict[str, str]:
        """Kafka's lookup: listener.name.<l>.<mechanism>.sasl.jaas.config, then sasl.jaas.config."""
        raw = self.config.get(f"listener.name.{listener.lower()}.{mechanism}.sasl.jaas.config")
        if raw is None:
            raw = self.listeners.get(listener, "sasl.jaas.config")
        return parse_jaas_options(raw)

    def new_authenticator(self, listener: str) -> SaslAuthenticator | None:
        cfg = self._sasl.get(listener)
        return SaslAuthenticator(cfg) if cfg is not None else None

    def ssl_principal(self, listener: str, ssl_object: Any) -> str:
        """An SSL listener's principal: the mapped certificate DN, or ANONYMOUS without a certificate."""
        dn = peer_dn(ssl_object)
        if dn is None:
            return "User:ANONYMOUS"
        return "User:" + self._mappers[listener].name(dn)

    # --- SCRAM credentials and ACLs (broker metadata) --------------------------------------------
    def add_scram_user(
        self,
        user: str,
        password: str,
        mechanisms: tuple[str, ...] = tuple(SCRAM_MECHANISMS),
        iterations: int = MIN_ITERATIONS,
    ) -> None:
        """Seed a SCRAM user (kafka-storage format --add-scram; EmbeddedBroker(secure=True))."""
        for m in mechanisms:
            self.scram.upsert(user, m, credential_from_password(m, password, iterations))
        self._save()

    def scram_changed(self) -> None:
        self._save()

    def apply_cluster_security(self, security: dict[str, Any] | None) -> None:
        """Cluster mode: the controller's SCRAM credentials and ACLs replace this broker's (every
        image carries them, so each broker converges on the controller's state)."""
        if security is None:
            return
        self.scram.load_json(security.get("scram", {}))
        if self.authorizer is not None:
            self.authorizer.load_json(security.get("acls", []))
        self._stored_acls: list[Any] = security.get("acls", [])
        self._save()

    def _load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        data = json.loads(self.path.read_text())
        self.scram.load_json(data.get("scram", {}))
        if self.authorizer is not None:
            self.authorizer.load_json(data.get("acls", []))
        elif data.get("acls"):
            log.warning("%d stored ACLs are not enforced: authorizer.class.name is not set", len(data["acls"]))
        self._stored_acls = data.get("acls", [])

    def _save(self) -> None:
        if self.path is None:
            return
        acls = self.authorizer.to_json() if self.authorizer is not None else getattr(self, "_stored_acls", [])
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"version": 1, "scram": self.scram.to_json(), "acls": acls}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)


@dataclass(frozen=True, slots=True)
class _StoresInForce:
    leaf: x509.Certificate
    alias: str
    has_truststore: bool
    files: tuple[tuple[str, int, int, int] | None, ...]


def _store_files(get: Callable[[str], Any]) -> tuple[tuple[str, int, int, int] | None, ...]:
    """The keystore's and truststore's (path, mtime ns, size, inode); None where unset or unreadable
    (Kafka compares the file's last modification time; size and inode also catch a replace within
    the clock's resolution)."""
    out: list[tuple[str, int, int, int] | None] = []
    for key in ("ssl.keystore.location", "ssl.truststore.location"):
        path = get(key)
        try:
            st = os.stat(path) if path else None
        except OSError:
            st = None
        out.append((str(path), st.st_mtime_ns, st.st_size, st.st_ino) if st is not None else None)
    return tuple(out)


def _java_sans(sans: list[tuple[int, str]]) -> str:
    """SubjectAltNames as Java's Collection<List<?>> prints them: [[7, 127.0.0.1], ...]."""
    return "[" + ", ".join(f"[{tag}, {value}]" for tag, value in sans) + "]"


__all__ = ["SUPPORTED_MECHANISMS", "SecurityManager"]
