"""`security.protocol`, SASL and TLS settings of the client stack, under Kafka's config names.

`SecurityConfig` is plain, hashable, picklable data (it travels inside `ClientConfig` to Spark
executors): the stores are re-read where a connection is made, once per configuration and
process (`ssl_context`). Its `repr` never shows a password, a key or a token, and no error raised
here quotes one.

Authentication failures are not retriable (as in Kafka's clients: an `AuthenticationException`
fails the call at once instead of retrying until `default.api.timeout.ms`).
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Mapping
from dataclasses import dataclass, fields

from kafka_wire.client.jaas import JaasConfig, JaasConfigError, parse_jaas
from kafka_wire.client.stores import STORE_OPTIONS, StoreError, build_ssl_context, key_material, trusted_certs_pem
from kafka_wire.errors import ErrorCode, KafkaError, PykafkaError

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
# which login module each mechanism needs in sasl.jaas.config
_MODULE_FOR = {"PLAIN": "PLAIN", "SCRAM-SHA-256": "SCRAM", "SCRAM-SHA-512": "SCRAM", "OAUTHBEARER": "OAUTHBEARER"}

# the Kafka client settings this module reads (without the connector's `kafka.` prefix)
SECURITY_OPTIONS = (
    "security.protocol",
    "sasl.mechanism",
    "sasl.jaas.config",
    "sasl.oauthbearer.token.endpoint.url",
    "sasl.login.callback.handler.class",
    *STORE_OPTIONS,
    "ssl.endpoint.identification.algorithm",
)
_SECRET_FIELDS = frozenset({"truststore_password", "keystore_password", "key_password", "keystore_key"})


class AuthenticationError(KafkaError):
    """SASL authentication failed (wrong credentials, mechanism not enabled): not retriable."""

    code = ErrorCode.SASL_AUTHENTICATION_FAILED


class SslAuthenticationError(AuthenticationError):
    """The TLS handshake failed (untrusted certificate, host name mismatch, client certificate
    refused): not retriable. Kafka has no error code for it; Java's SslAuthenticationException."""


class SecurityConfigError(PykafkaError, ValueError):
    """A security setting is missing or invalid; names the option, never shows a secret."""


@dataclass(frozen=True)
class SecurityConfig:
    protocol: str = "PLAINTEXT"
    sasl_mechanism: str = "GSSAPI"  # Kafka's default: refused unless SASL is off
    jaas: JaasConfig | None = None
    oauth_token_endpoint_url: str | None = None
    truststore_location: str | None = None
    truststore_password: str | None = None
    truststore_type: str | None = None
    truststore_certificates: str | None = None
    keystore_location: str | None = None
    keystore_password: str | None = None
    keystore_type: str | None = None
    keystore_certificate_chain: str | None = None
    keystore_key: str | None = None
    key_password: str | None = None
    check_hostname: bool = True  # ssl.endpoint.identification.algorithm=https (Kafka's default)

    @property
    def uses_ssl(self) -> bool:
        return self.protocol in ("SSL", "SASL_SSL")

    @property
    def uses_sasl(self) -> bool:
        return self.protocol in ("SASL_PLAINTEXT", "SASL_SSL")

    def __repr__(self) -> str:
        shown = []
        for f in fields(self):
            v = getattr(self, f.name)
            if v is None or v == f.default:
                continue
            shown.append(f"{f.name}={'[hidden]' if f.name in _SECRET_FIELDS else repr(v)}")
        return f"SecurityConfig({', '.join(shown)})"

    __str__ = __repr__

    @classmethod
    def from_params(cls, params: Mapping[str, str], prefix: str = "kafka.") -> SecurityConfig:
        """Validate Kafka's security settings (`params`: lower-case names without `prefix`).

        Stores and keys are opened here once, so a wrong path or password fails at option
        validation (naming the option), not in every task."""
        get = params.get
        raw = get("security.protocol", "PLAINTEXT")
        protocol = raw.strip().upper()
        if protocol not in SECURITY_PROTOCOLS:
            raise SecurityConfigError(
                f"Invalid value {raw!r} for option '{prefix}security.protocol': expected one of "
                f"{', '.join(SECURITY_PROTOCOLS)}"
            )
        mech_raw = get("sasl.mechanism", "GSSAPI")
        mechanism = mech_raw.strip().upper()
        jaas: JaasConfig | None = None
        token_url = (get("sasl.oauthbearer.token.endpoint.url") or "").strip() or None
        if protocol.startswith("SASL"):
            if mechanism not in SASL_MECHANISMS:
                raise SecurityConfigError(
                    f"Invalid value {mech_raw!r} for option '{prefix}sasl.mechanism': pykafka's clients speak "
                    f"{', '.join(SASL_MECHANISMS)} (GSSAPI/Kerberos is not supported)"
                )
            text = get("sasl.jaas.config")
            if not text or not text.strip():
                raise SecurityConfigError(
                    f"option '{prefix}sasl.jaas.config' must be set for {prefix}security.protocol={protocol} "
                    f"with {prefix}sasl.mechanism={mechanism}"
                )
            try:
                jaas = parse_jaas(text, prefix + "sasl.jaas.config")
            except JaasConfigError as e:
                raise SecurityConfigError(str(e)) from None
            if jaas.kind != _MODULE_FOR[mechanism]:
                raise SecurityConfigError(
                    f"option '{prefix}sasl.jaas.config': {jaas.login_module} does not fit "
                    f"{prefix}sasl.mechanism={mechanism}"
                )
            if jaas.kind in ("PLAIN", "SCRAM") and (jaas.get("username") is None or jaas.get("password") is None):
                raise SecurityConfigError(
                    f'option \'{prefix}sasl.jaas.config\': {jaas.login_module} needs username="..." password="..."'
                )
            if jaas.kind == "OAUTHBEARER" and jaas.get("unsecuredLoginStringClaim_sub") is None:
                if not (jaas.get("clientId") and jaas.get("clientSecret") and token_url):
                    raise SecurityConfigError(
                        f"option '{prefix}sasl.jaas.config': OAuthBearerLoginModule needs "
                        'unsecuredLoginStringClaim_sub="..." (an unsecured token, for tests), or clientId and '
                        f"clientSecret with option '{prefix}sasl.oauthbearer.token.endpoint.url'"
                    )
        algo_raw = get("ssl.endpoint.identification.algorithm", "https")
        algo = algo_raw.strip().lower()
        if algo not in ("https", ""):
            raise SecurityConfigError(
                f"Invalid value {algo_raw!r} for option '{prefix}ssl.endpoint.identification.algorithm': expected "
                "'https' (verify the broker's host name, the default) or '' (do not)"
            )
        config = cls(
            protocol=protocol,
            sasl_mechanism=mechanism,
            jaas=jaas,
            oauth_token_endpoint_url=token_url,
            truststore_location=get("ssl.truststore.location") or None,
            truststore_password=get("ssl.truststore.password"),
            truststore_type=get("ssl.truststore.type"),
            truststore_certificates=get("ssl.truststore.certificates") or None,
            keystore_location=get("ssl.keystore.location") or None,
            keystore_password=get("ssl.keystore.password"),
            keystore_type=get("ssl.keystore.type"),
            keystore_certificate_chain=get("ssl.keystore.certificate.chain") or None,
            keystore_key=get("ssl.keystore.key") or None,
            key_password=get("ssl.key.password"),
            check_hostname=algo == "https",
        )
        if config.uses_ssl:
            try:
                config._materials(prefix)
            except StoreError as e:
                raise SecurityConfigError(str(e)) from None
        return config

    def _materials(self, prefix: str = "") -> tuple[str | None, object]:
        trust = trusted_certs_pem(
            self.truststore_location,
            self.truststore_password,
            self.truststore_type,
            self.truststore_certificates,
            prefix,
        )
        key = key_material(
            self.keystore_location,
            self.keystore_password,
            self.keystore_type,
            self.key_password,
            self.keystore_certificate_chain,
            self.keystore_key,
            prefix,
        )
        return trust, key

    def ssl_context(self) -> ssl.SSLContext:
        """The TLS context of this configuration, built once per process."""
        with _contexts_lock:
            ctx = _contexts.get(self)
            if ctx is None:
                try:
                    trust, key = self._materials()
                except StoreError as e:
                    raise SslAuthenticationError(f"cannot set up TLS: {e}") from None
                # _materials types the key `object` (store types stay lazy); it is KeyMaterial or None
                ctx = build_ssl_context(trust, key, self.check_hostname)  # type: ignore[arg-type]
                _contexts[self] = ctx
            return ctx


PLAINTEXT = SecurityConfig()
_contexts: dict[SecurityConfig, ssl.SSLContext] = {}
_contexts_lock = threading.Lock()


__all__ = [
    "PLAINTEXT",
    "SASL_MECHANISMS",
    "SECURITY_OPTIONS",
    "SECURITY_PROTOCOLS",
    "AuthenticationError",
    "SecurityConfig",
    "SecurityConfigError",
    "SslAuthenticationError",
]
