"""TLS for SSL and SASL_SSL listeners: Kafka's ssl.* configs turned into Python `ssl` contexts, and
the mTLS principal (`ssl.principal.mapping.rules`).

Python's ssl module loads only PEM files. A PKCS12 or JKS keystore (Kafka's default type) is
decoded with cryptography / pyjks and handed to `load_cert_chain` through a file in a private
(0700) temporary directory that is removed as soon as the context holds the key.
"""

from __future__ import annotations

import os
import re
import shutil
import ssl
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from broker_embedded.config import ConfigError

# cryptography is imported where a keystore or a peer certificate is read: a plaintext broker never
# needs it, and it is a fifth of the broker's import time (issue 17: start -> ready)
if TYPE_CHECKING:
    from cryptography import x509


def _pem_certs(certs: list[x509.Certificate]) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in certs)


def _keystore_pem(location: str, store_type: str, password: str | None, key_password: str | None) -> bytes:
    """The keystore's key (unencrypted PKCS#8, kept in memory only) followed by its chain, as PEM."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    data = Path(location).read_bytes()
    t = store_type.upper()
    if t == "PEM":
        # Kafka's PEM keystore: key (encrypted with ssl.key.password) + chain; decrypt to normalise
        key = serialization.load_pem_private_key(
            _first_pem_block(data, b"PRIVATE KEY"), (key_password or password or "").encode() or None
        )
        certs = x509.load_pem_x509_certificates(data)
    elif t == "PKCS12":
        loaded = pkcs12.load_key_and_certificates(data, (password or "").encode() or None)
        p12_key, leaf, extra = loaded
        if p12_key is None or leaf is None:
            raise ConfigError(f"ssl.keystore.location {location}: no private key entry in the PKCS12 keystore")
        key, certs = p12_key, [leaf, *extra]
    elif t == "JKS":
        import jks

        try:
            store = jks.KeyStore.loads(data, password or "", try_decrypt_keys=False)
        except Exception as e:  # pyjks raises several types; never echo the password
            why = type(e).__name__
            raise ConfigError(f"ssl.keystore.location {location}: cannot open the JKS keystore ({why})") from None
        entries = list(store.private_keys.values())
        if not entries:
            raise ConfigError(f"ssl.keystore.location {location}: no private key entry in the JKS keystore")
        entry = entries[0]
        entry.decrypt(key_password or password or "")
        key = serialization.load_der_private_key(entry.pkey_pkcs8, None)
        certs = [x509.load_der_x509_certificate(c[1]) for c in entry.cert_chain]
    else:
        raise ConfigError(f"ssl.keystore.type {store_type!r} is not one of JKS, PKCS12, PEM")
    pem_key = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return pem_key + _pem_certs(certs)


def _first_pem_block(data: bytes, kind: bytes) -> bytes:
    m = re.search(rb"-----BEGIN ([A-Z ]*" + kind + rb")-----.*?-----END \1-----", data, re.S)
    if m is None:
        raise ConfigError("ssl.keystore.location: the PEM keystore holds no private key")
    return m.group(0)


def _truststore_pem(location: str, store_type: str, password: str | None) -> bytes:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import pkcs12

    data = Path(location).read_bytes()
    t = store_type.upper()
    if t == "PEM":
        return data
    if t == "PKCS12":
        p12 = pkcs12.load_pkcs12(data, (password or "").encode() or None)
        certs = [c.certificate for c in p12.additional_certs]
        if p12.cert is not None:
            certs.insert(0, p12.cert.certificate)
        return _pem_certs(certs)
    if t == "JKS":
        import jks

        store = jks.KeyStore.loads(data, password or "")
        return _pem_certs([x509.load_der_x509_certificate(e.cert) for e in store.certs.values()])
    raise ConfigError(f"ssl.truststore.type {store_type!r} is not one of JKS, PKCS12, PEM")


def _load_chain(ctx: ssl.SSLContext, pem: bytes) -> None:
    tmp = tempfile.mkdtemp(prefix="pykafka-tls-")  # 0700: only this user can read the key
    try:
        path = os.path.join(tmp, "keystore.pem")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        ctx.load_cert_chain(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def keystore_pem(get: Callable[[str], Any]) -> bytes:
    """One listener's keystore (key and chain as PEM) from its resolved ssl.keystore.* configs."""
    location = get("ssl.keystore.location")
    if not location:
        raise ConfigError("ssl.keystore.location must be set for an SSL or SASL_SSL listener")
    return _keystore_pem(
        location, get("ssl.keystore.type") or "JKS", get("ssl.keystore.password"), get("ssl.key.password")
    )


def keystore_alias(get: Callable[[str], Any]) -> str:
    """The key entry's alias, as Kafka names it in its keystore messages ("kafka" for PEM)."""
    from cryptography.hazmat.primitives.serialization import pkcs12

    t = str(get("ssl.keystore.type") or "JKS").upper()
    try:
        data = Path(get("ssl.keystore.location")).read_bytes()
        if t == "PKCS12":
            cert = pkcs12.load_pkcs12(data, (get("ssl.keystore.password") or "").encode() or None).cert
            return (cert.friendly_name or b"").decode() if cert is not None else ""
        if t == "JKS":
            import jks

            store = jks.KeyStore.loads(data, get("ssl.keystore.password") or "", try_decrypt_keys=False)
            return next(iter(store.private_keys), "")
    except Exception:  # the alias only decorates a message; the keystore itself loaded already
        return ""
    return "kafka"


def leaf_certificate(pem: bytes) -> x509.Certificate:
    from cryptography import x509

    return x509.load_pem_x509_certificates(pem)[0]


def java_dn(cert: x509.Certificate) -> str:
    """The subject as Java's X500Principal.toString prints it (certificate order, ", ")."""
    return ", ".join(rdn.rfc4514_string() for rdn in cert.subject.rdns)


def subject_alt_names(cert: x509.Certificate) -> list[tuple[int, str]]:
    """(GeneralName tag as Java numbers it, value): DNS 2, IP 7, URI 6, email 1."""
    from cryptography import x509

    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    tags: dict[type, int] = {x509.DNSName: 2, x509.IPAddress: 7, x509.UniformResourceIdentifier: 6, x509.RFC822Name: 1}
    return [(tags.get(type(n), 0), str(n.value)) for n in san]


def truststore_pem(get: Callable[[str], Any]) -> bytes:
    """One listener's truststore (its CA certificates as PEM) from its resolved ssl.truststore.* configs."""
    return _truststore_pem(
        get("ssl.truststore.location"), get("ssl.truststore.type") or "JKS", get("ssl.truststore.password")
    )


def server_context(get: Callable[[str], Any], keystore: bytes | None = None) -> ssl.SSLContext:
    """The server context of one listener; `get(key)` resolves a config for that listener
    (`keystore`: its keystore_pem, already read)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    _load_chain(ctx, keystore if keystore is not None else keystore_pem(get))
    if get("ssl.truststore.location"):
        ctx.load_verify_locations(cadata=truststore_pem(get).decode())
    auth = str(get("ssl.client.auth") or "none").lower()
    if auth not in ("required", "requested", "none"):
        raise ConfigError(f"Invalid value {auth!r} for configuration ssl.client.auth: required, requested or none")
    if auth != "none" and not get("ssl.truststore.location"):
        raise ConfigError(f"ssl.client.auth={auth} needs ssl.truststore.location (the CAs of client certificates)")
    ctx.verify_mode = {"required": ssl.CERT_REQUIRED, "requested": ssl.CERT_OPTIONAL, "none": ssl.CERT_NONE}[auth]
    return ctx


def client_context(get: Callable[[str], Any], check_hostname: bool = True) -> ssl.SSLContext:
    """A client context from the same configs (inter-broker and broker-to-controller connections)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    trust = get("ssl.truststore.location")
    if trust:
        ctx.load_verify_locations(
            cadata=_truststore_pem(trust, get("ssl.truststore.type") or "JKS", get("ssl.truststore.password")).decode()
        )
    else:
        ctx.load_default_certs()
    ctx.check_hostname = check_hostname and str(get("ssl.endpoint.identification.algorithm") or "").lower() == "https"
    location = get("ssl.keystore.location")
    if location:
        _load_chain(
            ctx,
            _keystore_pem(
                location, get("ssl.keystore.type") or "JKS", get("ssl.keystore.password"), get("ssl.key.password")
            ),
        )
    return ctx


# ---- ssl.principal.mapping.rules ----------------------------------------------------------------


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str] | None  # None: DEFAULT
    replacement: str = ""
    case: str = ""

    def apply(self, dn: str) -> str | None:
        if self.pattern is None:
            return dn
        if not self.pattern.fullmatch(dn):
            return None
        out = self.pattern.sub(self.replacement, dn, count=1)
        return out.lower() if self.case == "L" else out.upper() if self.case == "U" else out


_RULE = re.compile(r"\s*(DEFAULT|RULE:((?:\\.|[^\\/])+)/((?:\\.|[^\\/])*)/([LU]?))\s*(?:,|$)")


def parse_mapping_rules(raw: str) -> list[_Rule]:
    """Kafka's `ssl.principal.mapping.rules`: `RULE:pattern/replacement/[LU]`, ..., `DEFAULT`."""
    rules: list[_Rule] = []
    pos = 0
    raw = raw.strip()
    while pos < len(raw):
        m = _RULE.match(raw, pos)
        if m is None or m.end() == pos:
            raise ConfigError(f"Invalid value {raw!r} for configuration ssl.principal.mapping.rules at {pos}")
        pos = m.end()
        if m.group(1) == "DEFAULT":
            rules.append(_Rule(None))
        else:
            # Java's $1 group references become Python's \g<1>
            replacement = re.sub(r"\$(\d+)", r"\\g<\1>", m.group(3))
            rules.append(_Rule(re.compile(m.group(2)), replacement, m.group(4)))
    return rules or [_Rule(None)]


class SslPrincipalMapper:
    def __init__(self, rules: str) -> None:
        self.rules = parse_mapping_rules(rules)

    def name(self, dn: str) -> str:
        for rule in self.rules:
            out = rule.apply(dn)
            if out is not None:
                return out
        raise ValueError(f"no ssl.principal.mapping.rules rule matches {dn!r}")


def peer_dn(ssl_object: Any) -> str | None:
    """The verified client certificate's subject DN in RFC 2253 order, or None without one."""
    if ssl_object is None:
        return None
    der = ssl_object.getpeercert(binary_form=True)
    if not der:
        return None
    from cryptography import x509

    return x509.load_der_x509_certificate(der).subject.rfc4514_string()


__all__ = [
    "SslPrincipalMapper",
    "client_context",
    "java_dn",
    "keystore_alias",
    "keystore_pem",
    "leaf_certificate",
    "parse_mapping_rules",
    "peer_dn",
    "server_context",
    "subject_alt_names",
    "truststore_pem",
]
