"""Kafka's (Java) client settings translated to librdkafka's, for confluent-kafka clients.

The one place where Java names become librdkafka names: the `pykafka` sink's producers (and any
other confluent-kafka client of the suite) take `kafka.*` options the way Spark's Kafka connector
does, under the Java clients' names; settings librdkafka spells the same way, or only librdkafka
knows, pass through unchanged (librdkafka itself validates them).

What changes:

* renames (`max.request.size` -> `message.max.bytes`, ...), `buffer.memory` (bytes -> KiB),
  `partitioner.class` (Kafka's partitioners -> librdkafka's with the same placement);
* `sasl.jaas.config` (Java JAAS text) -> `sasl.username`/`sasl.password` (PLAIN, SCRAM), the
  unsecured OAUTHBEARER token (`enable.sasl.oauthbearer.unsecure.jwt`, `sasl.oauthbearer.config`)
  or OIDC client credentials (`sasl.oauthbearer.method=oidc`, client id/secret/scope);
* trust and key stores: librdkafka reads PEM (and PKCS12 key stores), so JKS and PKCS12 trust
  stores and JKS/PEM key stores are read here (`stores`) and handed over as PEM strings in memory
  (`ssl.ca.pem`, `ssl.certificate.pem`, `ssl.key.pem`), never written to disk;
* `ssl.endpoint.identification.algorithm`: Java's empty value (no host name check) is librdkafka's `none`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from kafka_wire.client.jaas import JaasConfigError, parse_jaas
from kafka_wire.client.stores import STORE_OPTIONS, StoreError, key_material, trusted_certs_pem
from kafka_wire.errors import PykafkaError

# Java producer setting -> librdkafka setting, where only the name differs.
JAVA_RENAMES = {
    "max.request.size": "message.max.bytes",
    "send.buffer.bytes": "socket.send.buffer.bytes",
    "receive.buffer.bytes": "socket.receive.buffer.bytes",
}

# Kafka's partitioner classes -> librdkafka partitioners with the same placement.
JAVA_PARTITIONERS = {
    "org.apache.kafka.clients.producer.internals.DefaultPartitioner": "murmur2_random",
    "org.apache.kafka.clients.producer.UniformStickyPartitioner": "random",
}

OAUTH_CALLBACK_HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
OAUTH_CALLBACK_HANDLER_OLD = "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler"

# the Java names translated here, for error messages that list them
TRANSLATED = sorted([*JAVA_RENAMES, "buffer.memory", "partitioner.class", "sasl.jaas.config", *STORE_OPTIONS])


class LibrdkafkaOptionError(PykafkaError, ValueError):
    """A Kafka client option has no librdkafka equivalent or a bad value; names the option."""


def _translate_jaas(value: str, option: str) -> dict[str, str]:
    try:
        jaas = parse_jaas(value, option)
    except JaasConfigError as e:
        raise LibrdkafkaOptionError(str(e)) from None
    if jaas.kind in ("PLAIN", "SCRAM"):
        out = {}
        if jaas.get("username") is not None:
            out["sasl.username"] = jaas.get("username") or ""
        if jaas.get("password") is not None:
            out["sasl.password"] = jaas.get("password") or ""
        return out
    # OAUTHBEARER
    sub = jaas.get("unsecuredLoginStringClaim_sub")
    if sub is not None:
        # Kafka's unsecured (alg none) token for development and tests; librdkafka builds the same
        config = f"principal={sub}"
        scope = jaas.get("unsecuredLoginListClaim_scope")
        if scope:
            config += f" scope={scope}"
        lifetime = jaas.get("unsecuredLoginLifetimeSeconds")
        if lifetime:
            config += f" lifeSeconds={lifetime}"
        return {"enable.sasl.oauthbearer.unsecure.jwt": "true", "sasl.oauthbearer.config": config}
    client_id, secret = jaas.get("clientId"), jaas.get("clientSecret")
    if client_id is not None and secret is not None:
        out = {
            "sasl.oauthbearer.method": "oidc",
            "sasl.oauthbearer.client.id": client_id,
            "sasl.oauthbearer.client.secret": secret,
        }
        if jaas.get("scope"):
            out["sasl.oauthbearer.scope"] = jaas.get("scope") or ""
        return out
    raise LibrdkafkaOptionError(
        f"option '{option}': OAuthBearerLoginModule needs unsecuredLoginStringClaim_sub=... (an unsecured "
        "token) or clientId=... clientSecret=... with sasl.oauthbearer.token.endpoint.url"
    )


def to_librdkafka(params: Mapping[str, str], prefix: str = "kafka.") -> tuple[dict[str, str], set[str]]:
    """Translate `params` (Kafka client names, lower-case keys without `prefix`) for librdkafka.

    Returns the librdkafka configuration and the librdkafka names the user set explicitly (so
    callers know which of their own defaults were overridden). Errors name `prefix + name`.
    """
    conf: dict[str, str] = {}
    explicit: set[str] = set()
    for name, value in sorted(params.items()):
        option = prefix + name
        if name in STORE_OPTIONS:
            continue  # read together below
        if name == "buffer.memory":
            try:
                conf["queue.buffering.max.kbytes"] = str(max(1, math.ceil(int(value) / 1024)))
            except ValueError:
                raise LibrdkafkaOptionError(f"option '{option}' must be an integer (bytes), got {value!r}") from None
            continue
        if name == "partitioner.class":
            if value not in JAVA_PARTITIONERS:
                raise LibrdkafkaOptionError(
                    f"option '{option}' = {value!r} is not supported: accepted are "
                    f"{', '.join(sorted(JAVA_PARTITIONERS))}, or a librdkafka partitioner through "
                    f"'{prefix}partitioner' (murmur2_random, murmur2, consistent_random, consistent, "
                    "random, fnv1a, fnv1a_random)"
                )
            conf["partitioner"] = JAVA_PARTITIONERS[value]
            explicit.add("partitioner")
            continue
        if name == "sasl.jaas.config":
            conf.update(_translate_jaas(value, option))
            continue
        if name == "sasl.login.callback.handler.class":
            if value.strip() in (OAUTH_CALLBACK_HANDLER, OAUTH_CALLBACK_HANDLER_OLD):
                continue  # librdkafka's OIDC method is that handler
            raise LibrdkafkaOptionError(
                f"option '{option}': only {OAUTH_CALLBACK_HANDLER} can be translated for librdkafka"
            )
        if name == "ssl.endpoint.identification.algorithm":
            v = value.strip().lower()
            if v not in ("", "https", "none"):
                raise LibrdkafkaOptionError(f"Invalid value {value!r} for option '{option}': expected 'https' or ''")
            conf[name] = v or "none"
            explicit.add(name)
            continue
        if name == "security.protocol":
            value = value.strip().upper()
        elif name == "sasl.mechanisms":
            name = "sasl.mechanism"  # librdkafka's alias, one spelling here
        name = JAVA_RENAMES.get(name, name)
        conf[name] = value
        explicit.add(name)
    conf.update(_stores(params, prefix))
    return conf, explicit


def _stores(params: Mapping[str, str], prefix: str) -> dict[str, str]:
    out: dict[str, str] = {}
    get = params.get
    try:
        trust = trusted_certs_pem(
            get("ssl.truststore.location"),
            get("ssl.truststore.password"),
            get("ssl.truststore.type"),
            get("ssl.truststore.certificates"),
            prefix,
        )
        if trust is not None:
            out["ssl.ca.pem"] = trust
        location, store_type = get("ssl.keystore.location"), (get("ssl.keystore.type") or "").strip().upper()
        if location and (store_type == "PKCS12" or (not store_type and location.lower().endswith((".p12", ".pfx")))):
            # librdkafka reads PKCS12 key stores itself; still opened here once for a clear error
            key_material(location, get("ssl.keystore.password"), "PKCS12", get("ssl.key.password"), None, None, prefix)
            out["ssl.keystore.location"] = location
            out["ssl.keystore.password"] = get("ssl.keystore.password") or ""
            return out
        key = key_material(
            location,
            get("ssl.keystore.password"),
            get("ssl.keystore.type"),
            get("ssl.key.password"),
            get("ssl.keystore.certificate.chain"),
            get("ssl.keystore.key"),
            prefix,
        )
    except StoreError as e:
        raise LibrdkafkaOptionError(str(e)) from None
    if key is not None:
        out["ssl.certificate.pem"] = key.chain_pem
        out["ssl.key.pem"] = key.key_pem
        out["ssl.key.password"] = key.key_password
    return out


# librdkafka settings whose values are secrets (never logged, never in a repr or an error)
SECRET_SETTINGS = frozenset(
    {
        "sasl.password",
        "sasl.oauthbearer.client.secret",
        "sasl.oauthbearer.config",
        "ssl.key.password",
        "ssl.keystore.password",
        "ssl.key.pem",
        "ssl.truststore.password",
        "sasl.jaas.config",
        "ssl.keystore.key",
    }
)


def is_secret_setting(name: str) -> bool:
    n = name.lower().removeprefix("kafka.")
    return n in SECRET_SETTINGS or "password" in n or "secret" in n or n.endswith(".key.pem")


def redact(conf: Mapping[str, str]) -> dict[str, str]:
    """`conf` with every secret value replaced, for logs and error messages."""
    return {k: ("[hidden]" if is_secret_setting(k) else v) for k, v in conf.items()}


__all__ = [
    "JAVA_PARTITIONERS",
    "JAVA_RENAMES",
    "SECRET_SETTINGS",
    "STORE_OPTIONS",
    "TRANSLATED",
    "LibrdkafkaOptionError",
    "is_secret_setting",
    "redact",
    "to_librdkafka",
]
