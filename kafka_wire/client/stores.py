"""Trust stores and key stores under Kafka's `ssl.*` settings, and the TLS context built from them.

Java clients read JKS and PKCS12 stores (and, since KIP-651, PEM files or PEM strings); Python's
`ssl` module and librdkafka only read PEM (and librdkafka PKCS12 key stores). The stores are read
here, once per configuration, into PEM text kept in memory: the trusted certificates, and the
client's certificate chain with its private key. Errors name the option and never show a password.
"""

from __future__ import annotations

import base64
import os
import secrets
import ssl
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from kafka_wire.errors import PykafkaError

STORE_TYPES = ("JKS", "PKCS12", "PEM")
# the Java client settings that name the stores (read here into PEM: librdkafka gets ssl.ca.pem /
# ssl.certificate.pem / ssl.key.pem from them, the client stack its TLS context)
STORE_OPTIONS = (
    "ssl.truststore.location",
    "ssl.truststore.password",
    "ssl.truststore.type",
    "ssl.truststore.certificates",
    "ssl.keystore.location",
    "ssl.keystore.password",
    "ssl.keystore.type",
    "ssl.keystore.certificate.chain",
    "ssl.keystore.key",
    "ssl.key.password",
)


class StoreError(PykafkaError, ValueError):
    """A trust or key store cannot be read (missing file, wrong password, wrong type)."""


@dataclass(frozen=True)
class KeyMaterial:
    """The client's certificate chain (PEM) and its private key (PKCS#8 PEM, encrypted with `key_password`)."""

    chain_pem: str
    key_pem: str
    key_password: str

    def __repr__(self) -> str:
        return "KeyMaterial([hidden])"


def _pem(kind: str, der: bytes) -> str:
    body = base64.encodebytes(der).decode().replace("\n", "")
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN {kind}-----\n{lines}\n-----END {kind}-----\n"


def _read(location: str, option: str) -> bytes:
    try:
        return Path(location).read_bytes()
    except OSError as e:
        raise StoreError(f"option '{option}': cannot read {location!r}: {e.strerror or e}") from None


def _store_type(raw: str | None, location: str | None, option: str) -> str:
    if raw is None or not raw.strip():
        # Kafka's default type is JKS; a .p12/.pfx/.pem file says what it is
        suffix = (location or "").lower().rsplit(".", 1)[-1]
        return {"p12": "PKCS12", "pfx": "PKCS12", "pem": "PEM", "crt": "PEM"}.get(suffix, "JKS")
    t = raw.strip().upper()
    if t not in STORE_TYPES:
        raise StoreError(f"Invalid value {raw!r} for option '{option}': expected one of {', '.join(STORE_TYPES)}")
    return t


def _wrong_password(option: str, what: str) -> StoreError:
    return StoreError(f"option '{option}': cannot open the {what} (wrong password, or not a {what} of this type)")


def trusted_certs_pem(
    location: str | None, password: str | None, store_type: str | None, certificates: str | None, prefix: str = ""
) -> str | None:
    """PEM text of the trusted certificates, or None when neither a store nor certificates are given."""
    if certificates:
        if "-----BEGIN CERTIFICATE-----" not in certificates:
            raise StoreError(f"option '{prefix}ssl.truststore.certificates': expected PEM certificates")
        return certificates.strip() + "\n"
    if not location:
        return None
    t = _store_type(store_type, location, f"{prefix}ssl.truststore.type")
    data = _read(location, f"{prefix}ssl.truststore.location")
    if t == "PEM":
        text = data.decode("ascii", "replace")
        if "-----BEGIN CERTIFICATE-----" not in text:
            raise StoreError(f"option '{prefix}ssl.truststore.location': {location!r} holds no PEM certificate")
        return text
    if t == "PKCS12":
        from cryptography.hazmat.primitives.serialization import Encoding, pkcs12

        try:
            p12 = pkcs12.load_pkcs12(data, password.encode() if password else None)
        except (ValueError, TypeError):
            raise _wrong_password(f"{prefix}ssl.truststore.password", "PKCS12 trust store") from None
        certs = [c.certificate for c in p12.additional_certs] + ([p12.cert.certificate] if p12.cert else [])
        pems = [c.public_bytes(Encoding.PEM).decode() for c in certs]
    else:
        import jks

        try:
            ks = jks.KeyStore.loads(data, password or "", try_decrypt_keys=False)
        except Exception:  # noqa: BLE001 - pyjks raises several types; none may carry the password
            raise _wrong_password(f"{prefix}ssl.truststore.password", "JKS trust store") from None
        pems = [_pem("CERTIFICATE", e.cert) for e in ks.certs.values()]
        pems += [_pem("CERTIFICATE", c[1]) for e in ks.private_keys.values() for c in e.cert_chain[:1]]
    if not pems:
        raise StoreError(f"option '{prefix}ssl.truststore.location': {location!r} holds no certificate")
    return "".join(pems)


def key_material(
    location: str | None,
    password: str | None,
    store_type: str | None,
    key_password: str | None,
    chain_pem: str | None,
    key_pem: str | None,
    prefix: str = "",
) -> KeyMaterial | None:
    """The client certificate chain and key (for mutual TLS), or None when no key store is given."""
    from cryptography.hazmat.primitives.serialization import (
        BestAvailableEncryption,
        Encoding,
        PrivateFormat,
        load_der_private_key,
        load_pem_private_key,
    )

    # the key is re-encrypted in memory with a fresh password: it is only written to disk (for
    # Python's ssl, which loads keys from files) encrypted, and librdkafka takes the same form
    fresh = secrets.token_urlsafe(24)

    def reencrypt(key: object) -> str:
        # `key` is typed `object` to keep cryptography's import lazy; it is a private key
        return key.private_bytes(  # type: ignore[attr-defined]
            Encoding.PEM, PrivateFormat.PKCS8, BestAvailableEncryption(fresh.encode())
        ).decode()

    def from_pem(key_text: str, chain: str, option: str) -> KeyMaterial:
        try:
            key = load_pem_private_key(key_text.encode(), key_password.encode() if key_password else None)
        except (ValueError, TypeError):
            raise StoreError(
                f"option '{option}': cannot read the private key (wrong {prefix}ssl.key.password, or not a PEM key)"
            ) from None
        if "-----BEGIN CERTIFICATE-----" not in chain:
            raise StoreError(f"option '{option}': no PEM certificate chain for the key")
        return KeyMaterial(_only_certs(chain), reencrypt(key), fresh)

    if chain_pem or key_pem:
        if not (chain_pem and key_pem):
            raise StoreError(
                f"options '{prefix}ssl.keystore.certificate.chain' and '{prefix}ssl.keystore.key' go together"
            )
        return from_pem(key_pem, chain_pem, f"{prefix}ssl.keystore.key")
    if not location:
        return None
    t = _store_type(store_type, location, f"{prefix}ssl.keystore.type")
    data = _read(location, f"{prefix}ssl.keystore.location")
    if t == "PEM":
        text = data.decode("ascii", "replace")
        return from_pem(text, text, f"{prefix}ssl.keystore.location")
    if t == "PKCS12":
        from cryptography.hazmat.primitives.serialization import pkcs12

        try:
            p12 = pkcs12.load_pkcs12(data, password.encode() if password else None)
        except (ValueError, TypeError):
            raise _wrong_password(f"{prefix}ssl.keystore.password", "PKCS12 key store") from None
        if p12.key is None or p12.cert is None:
            raise StoreError(f"option '{prefix}ssl.keystore.location': {location!r} holds no private key entry")
        chain = [p12.cert.certificate] + [c.certificate for c in p12.additional_certs]
        return KeyMaterial("".join(c.public_bytes(Encoding.PEM).decode() for c in chain), reencrypt(p12.key), fresh)
    import jks

    try:
        ks = jks.KeyStore.loads(data, password or "", try_decrypt_keys=False)
    except Exception:  # noqa: BLE001 - pyjks raises several types; none may carry the password
        raise _wrong_password(f"{prefix}ssl.keystore.password", "JKS key store") from None
    if not ks.private_keys:
        raise StoreError(f"option '{prefix}ssl.keystore.location': {location!r} holds no private key entry")
    entry = next(iter(ks.private_keys.values()))
    try:
        entry.decrypt(key_password if key_password is not None else (password or ""))
    except Exception:  # noqa: BLE001
        raise StoreError(
            f"option '{prefix}ssl.key.password': cannot decrypt the private key in the JKS key store"
        ) from None
    key = load_der_private_key(entry.pkey_pkcs8, None)
    chain_text = "".join(_pem("CERTIFICATE", der) for _type, der in entry.cert_chain)
    return KeyMaterial(chain_text, reencrypt(key), fresh)


def _only_certs(text: str) -> str:
    out, inside, block = [], False, []
    for line in text.splitlines():
        if line.startswith("-----BEGIN CERTIFICATE-----"):
            inside, block = True, [line]
        elif inside:
            block.append(line)
            if line.startswith("-----END CERTIFICATE-----"):
                out.append("\n".join(block) + "\n")
                inside = False
    return "".join(out)


_load_lock = threading.Lock()


def build_ssl_context(trust_pem: str | None, key: KeyMaterial | None, check_hostname: bool) -> ssl.SSLContext:
    """A TLS client context: the given trust anchors (else the system's), the client key for mutual
    TLS, and host name verification as `ssl.endpoint.identification.algorithm` says (https / "")."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    if trust_pem:
        ctx.load_verify_locations(cadata=trust_pem)
    else:
        ctx.load_default_certs()
    # the certificate chain is always verified (as Java does); only the name check is optional
    ctx.check_hostname = check_hostname
    ctx.verify_mode = ssl.CERT_REQUIRED
    if key is not None:
        # Python's ssl reads keys from files only: a private file, the key encrypted, removed at once
        with _load_lock, tempfile.TemporaryDirectory(prefix="pykafka-tls-") as d:
            path = os.path.join(d, "client.pem")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(key.key_pem + key.chain_pem)
            ctx.load_cert_chain(path, password=key.key_password)
    return ctx


__all__ = [
    "STORE_OPTIONS",
    "STORE_TYPES",
    "KeyMaterial",
    "StoreError",
    "build_ssl_context",
    "key_material",
    "trusted_certs_pem",
]
