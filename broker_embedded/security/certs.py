"""Test certificates: a CA, server and client certificates, and the files Kafka's configs point at.

`EmbeddedBroker(secure=True)` and the security tests need a private PKI on the fly: a CA that
signs a server certificate (SAN 127.0.0.1 and localhost, or given hosts) and client certificates
whose subject DN becomes the mTLS principal (`User:CN=alice,OU=eng` under the DEFAULT
`ssl.principal.mapping.rules`). Each certificate can be written in the three store types Kafka's
`ssl.keystore.type` / `ssl.truststore.type` accept: PEM files, PKCS12 (cryptography's pkcs12) and
JKS (pyjks), each with a password.

DNs are written and read in RFC 4514/2253 order (most specific first), which is also the order
of Java's `X500Principal.getName()`, so the principal a Java broker would derive matches ours.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID

PrivateKey = ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey

DEFAULT_HOSTS: tuple[str, ...] = ("127.0.0.1", "localhost")


@dataclass(frozen=True)
class Certificate:
    """A certificate, its private key, and the chain up to (and including) its CA."""

    cert: x509.Certificate
    key: PrivateKey
    chain: tuple[x509.Certificate, ...] = ()

    @property
    def subject_dn(self) -> str:
        """The subject in RFC 2253 order, as Java's X500Principal.getName() prints it."""
        return self.cert.subject.rfc4514_string()

    def cert_pem(self) -> bytes:
        return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in (self.cert, *self.chain))

    def key_pem(self, password: str | None = None) -> bytes:
        enc: serialization.KeySerializationEncryption = (
            serialization.BestAvailableEncryption(password.encode()) if password else serialization.NoEncryption()
        )
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, enc)

    def __repr__(self) -> str:  # never the key
        return f"Certificate({self.subject_dn!r})"


def _new_key(key_type: str) -> PrivateKey:
    if key_type == "EC":
        return ec.generate_private_key(ec.SECP256R1())
    if key_type == "RSA":
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    raise ValueError(f"key_type must be 'EC' or 'RSA', got {key_type!r}")


def parse_dn(dn: str) -> x509.Name:
    """`CN=alice,OU=eng,O=acme` (RFC 4514, most specific first) as an X.509 name."""
    return x509.Name.from_rfc4514_string(dn)


def _san(hosts: Sequence[str]) -> x509.SubjectAlternativeName:
    names: list[x509.GeneralName] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return x509.SubjectAlternativeName(names)


def _builder(subject: x509.Name, issuer: x509.Name, public_key: object, days: int) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        # public_key is typed `object` to keep cryptography's import lazy; it is a certificate public key
        .public_key(public_key)  # type: ignore[arg-type]
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))  # tolerate small clock skew
        .not_valid_after(now + datetime.timedelta(days=days))
    )


def make_ca(dn: str = "CN=pykafka test CA", *, days: int = 365, key_type: str = "EC") -> Certificate:
    """A self-signed CA certificate that can sign server and client certificates."""
    key = _new_key(key_type)
    name = parse_dn(dn)
    cert = (
        _builder(name, name, key.public_key(), days)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return Certificate(cert, key)


def _leaf(
    ca: Certificate, dn: str, hosts: Sequence[str], usages: list[x509.ObjectIdentifier], days: int, key_type: str
) -> Certificate:
    key = _new_key(key_type)
    builder = (
        _builder(parse_dn(dn), ca.cert.subject, key.public_key(), days)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage(usages), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.key.public_key()), critical=False)
    )
    if hosts:
        builder = builder.add_extension(_san(hosts), critical=False)
    return Certificate(builder.sign(ca.key, hashes.SHA256()), key, (ca.cert, *ca.chain))


def make_server_cert(
    ca: Certificate,
    hosts: Sequence[str] = DEFAULT_HOSTS,
    *,
    dn: str | None = None,
    days: int = 365,
    key_type: str = "EC",
) -> Certificate:
    """A broker certificate: SANs for `hosts`; usable as a client certificate too (inter-broker mTLS)."""
    return _leaf(
        ca,
        dn or f"CN={hosts[0] if hosts else 'broker'}",
        hosts,
        [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH],
        days,
        key_type,
    )


def make_client_cert(
    ca: Certificate, dn: str = "CN=client", *, hosts: Sequence[str] = (), days: int = 365, key_type: str = "EC"
) -> Certificate:
    """A client certificate whose subject `dn` is the mTLS principal's source."""
    return _leaf(ca, dn, hosts, [ExtendedKeyUsageOID.CLIENT_AUTH], days, key_type)


# ---- files ---------------------------------------------------------------------------------------


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # keys: owner-only
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path


def write_pem_cert(path: str | Path, cert: Certificate) -> Path:
    """The certificate followed by its chain (what librdkafka's ssl.certificate.location takes)."""
    return _write(Path(path), cert.cert_pem())


def write_pem_key(path: str | Path, cert: Certificate, password: str | None = None) -> Path:
    """The private key as PKCS#8 PEM, encrypted when `password` is given."""
    return _write(Path(path), cert.key_pem(password))


def write_pem_keystore(path: str | Path, cert: Certificate, password: str | None = None) -> Path:
    """Key and chain in one PEM file (Kafka's ssl.keystore.type=PEM with ssl.keystore.location)."""
    return _write(Path(path), cert.key_pem(password) + cert.cert_pem())


def write_pem_truststore(path: str | Path, *cas: Certificate) -> Path:
    return _write(Path(path), b"".join(c.cert.public_bytes(serialization.Encoding.PEM) for c in cas))


def write_pkcs12_keystore(path: str | Path, cert: Certificate, password: str, alias: str = "pykafka") -> Path:
    data = pkcs12.serialize_key_and_certificates(
        alias.encode(),
        cert.key,
        cert.cert,
        list(cert.chain) or None,
        serialization.BestAvailableEncryption(password.encode()),
    )
    return _write(Path(path), data)


def write_pkcs12_truststore(path: str | Path, password: str, *cas: Certificate) -> Path:
    """A truststore Java reads as trusted certificate entries (the Java trusted-key-usage attribute)."""
    entries = [pkcs12.PKCS12Certificate(c.cert, f"ca{i}".encode()) for i, c in enumerate(cas)]
    data = pkcs12.serialize_java_truststore(entries, serialization.BestAvailableEncryption(password.encode()))
    return _write(Path(path), data)


def write_jks_keystore(
    path: str | Path, cert: Certificate, password: str, *, key_password: str | None = None, alias: str = "pykafka"
) -> Path:
    """A JKS keystore with one private key entry (key protected by `key_password`, Kafka's ssl.key.password)."""
    import jks

    der_key = cert.key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    chain = [c.public_bytes(serialization.Encoding.DER) for c in (cert.cert, *cert.chain)]
    entry = jks.PrivateKeyEntry.new(alias, chain, der_key, "pkcs8")
    entry.encrypt(key_password or password)
    store = jks.KeyStore.new("jks", [entry])
    return _write(Path(path), store.saves(password))


def write_jks_truststore(path: str | Path, password: str, *cas: Certificate) -> Path:
    import jks

    entries = [
        jks.TrustedCertEntry.new(f"ca{i}", c.cert.public_bytes(serialization.Encoding.DER)) for i, c in enumerate(cas)
    ]
    store = jks.KeyStore.new("jks", entries)
    return _write(Path(path), store.saves(password))


@dataclass
class StoreFiles:
    """One identity written in every store type, plus the CA's truststores (paths and passwords).

    `repr` hides the passwords: these objects end up in test logs.
    """

    directory: Path
    name: str
    password: str = field(repr=False)
    cert_pem: Path = field(init=False)
    key_pem: Path = field(init=False)  # encrypted with `password`
    keystore_pem: Path = field(init=False)  # key (encrypted) + chain in one file
    keystore_p12: Path = field(init=False)
    keystore_jks: Path = field(init=False)
    ca_pem: Path = field(init=False)
    truststore_p12: Path = field(init=False)
    truststore_jks: Path = field(init=False)

    def __post_init__(self) -> None:
        d, n = self.directory, self.name
        self.cert_pem = d / f"{n}.crt.pem"
        self.key_pem = d / f"{n}.key.pem"
        self.keystore_pem = d / f"{n}.keystore.pem"
        self.keystore_p12 = d / f"{n}.keystore.p12"
        self.keystore_jks = d / f"{n}.keystore.jks"
        self.ca_pem = d / "ca.crt.pem"
        self.truststore_p12 = d / "truststore.p12"
        self.truststore_jks = d / "truststore.jks"

    def keystore(self, store_type: str) -> Path:
        return {"PEM": self.keystore_pem, "PKCS12": self.keystore_p12, "JKS": self.keystore_jks}[store_type.upper()]

    def truststore(self, store_type: str) -> Path:
        return {"PEM": self.ca_pem, "PKCS12": self.truststore_p12, "JKS": self.truststore_jks}[store_type.upper()]


def write_stores(directory: str | Path, name: str, cert: Certificate, ca: Certificate, password: str) -> StoreFiles:
    """Write `cert` as PEM/PKCS12/JKS keystores and `ca` as PEM/PKCS12/JKS truststores under `directory`."""
    files = StoreFiles(Path(directory), name, password)
    write_pem_cert(files.cert_pem, cert)
    write_pem_key(files.key_pem, cert, password)
    write_pem_keystore(files.keystore_pem, cert, password)
    write_pkcs12_keystore(files.keystore_p12, cert, password)
    write_jks_keystore(files.keystore_jks, cert, password)
    write_pem_truststore(files.ca_pem, ca)
    write_pkcs12_truststore(files.truststore_p12, password, ca)
    write_jks_truststore(files.truststore_jks, password, ca)
    return files


__all__ = [
    "DEFAULT_HOSTS",
    "Certificate",
    "StoreFiles",
    "make_ca",
    "make_client_cert",
    "make_server_cert",
    "parse_dn",
    "write_jks_keystore",
    "write_jks_truststore",
    "write_pem_cert",
    "write_pem_key",
    "write_pem_keystore",
    "write_pem_truststore",
    "write_pkcs12_keystore",
    "write_pkcs12_truststore",
    "write_stores",
]
