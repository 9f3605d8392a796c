"""`EmbeddedBroker(secure=True)`: a private CA, the broker's keystores, client certificates and
SASL users made on the fly, plus the settings a client needs to connect.

    with EmbeddedBroker(secure=True) as b:
        s = b.secure                                   # a SecureSetup
        Producer(s.librdkafka(b.bootstrap("SASL_SSL"), "SASL_SSL", "SCRAM-SHA-512", user="alice"))
        props = s.client_properties("SASL_SSL", "SCRAM-SHA-512")   # Kafka/Java client names

Listeners: SASL_SSL (PLAIN, SCRAM-SHA-256/512, OAUTHBEARER unsecured JWS), SSL (client
certificates requested: one-way TLS, or mTLS whose principal is `User:CN=<user>`) and
SASL_PLAINTEXT. Users: `admin` (a super user), `alice`, `bob`, each with a random password for
PLAIN and both SCRAM mechanisms and a client certificate `CN=<user>`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broker_embedded.security.authorizer import STANDARD_AUTHORIZER
from broker_embedded.security.certs import (
    Certificate,
    StoreFiles,
    make_ca,
    make_client_cert,
    make_server_cert,
    write_stores,
)

PLAIN_LOGIN = "org.apache.kafka.common.security.plain.PlainLoginModule"
SCRAM_LOGIN = "org.apache.kafka.common.security.scram.ScramLoginModule"
OAUTH_LOGIN = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
SECURE_LISTENERS = "SASL_SSL://127.0.0.1:0,SSL://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0"
MECHANISMS = "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER"
USERS = ("admin", "alice", "bob")


@dataclass
class SecureSetup:
    directory: Path
    ca: Certificate = field(repr=False)
    store_password: str = field(repr=False)
    server: StoreFiles
    clients: dict[str, StoreFiles]
    users: dict[str, str] = field(repr=False)  # SASL user -> password

    @classmethod
    def create(cls, directory: str | Path, hosts: tuple[str, ...] = ("127.0.0.1", "localhost")) -> SecureSetup:
        directory = Path(directory)
        password = secrets.token_urlsafe(12)
        ca = make_ca()
        server = write_stores(directory, "broker", make_server_cert(ca, hosts), ca, password)
        clients = {u: write_stores(directory, u, make_client_cert(ca, f"CN={u}"), ca, password) for u in USERS}
        users = {u: secrets.token_urlsafe(12) for u in USERS}
        return cls(directory, ca, password, server, clients, users)

    @property
    def ca_pem(self) -> Path:
        return self.server.ca_pem

    # --- the broker's side --------------------------------------------------------------------
    def broker_configs(self, authorizer: bool = False, listeners: str = SECURE_LISTENERS) -> dict[str, Any]:
        plain_users = " ".join(f'user_{u}="{p}"' for u, p in self.users.items())
        # the broker's own login to other brokers: admin over PLAIN (static, so it works before
        # the controller's image brings SCRAM credentials)
        own = f'username="admin" password="{self.users["admin"]}"'
        configs: dict[str, Any] = {
            "listeners": listeners,
            "ssl.keystore.location": str(self.server.keystore_jks),
            "ssl.keystore.type": "JKS",
            "ssl.keystore.password": self.store_password,
            "ssl.truststore.location": str(self.server.truststore_jks),
            "ssl.truststore.type": "JKS",
            "ssl.truststore.password": self.store_password,
            "listener.name.ssl.ssl.client.auth": "requested",
            "sasl.enabled.mechanisms": MECHANISMS,
            "sasl.jaas.config": f"{PLAIN_LOGIN} required {own} {plain_users};",
            "inter.broker.listener.name": "SASL_SSL",
            "sasl.mechanism.inter.broker.protocol": "PLAIN",
        }
        if authorizer:
            configs["authorizer.class.name"] = STANDARD_AUTHORIZER
            configs["super.users"] = "User:admin;User:CN=admin"
        return configs

    def cluster_configs(self, authorizer: bool = False) -> dict[str, Any]:
        """An EmbeddedCluster's: one SASL_SSL listener per broker (inter-broker too, PLAIN as admin)
        and the controller on mutual TLS (controller.listener.names=CONTROLLER mapped to SSL)."""
        configs = self.broker_configs(authorizer, listeners="SASL_SSL://127.0.0.1:0")
        configs["controller.listener.names"] = "CONTROLLER"
        configs["listener.security.protocol.map"] = "CONTROLLER:SSL,SASL_SSL:SASL_SSL,SSL:SSL,PLAINTEXT:PLAINTEXT"
        if authorizer:
            # brokers fetch and replicate as admin (a super user), as Kafka's brokers use their principal
            configs["super.users"] = "User:admin;User:CN=admin;User:CN=127.0.0.1"
        return configs

    def controller_client_context(self) -> Any:
        """A TLS context with the broker's certificate, for tools that talk to the controller."""
        import ssl

        ctx = ssl.create_default_context(cafile=str(self.ca_pem))
        ctx.load_cert_chain(self.server.cert_pem, self.server.key_pem, password=self.store_password)
        return ctx

    # --- a client's side ----------------------------------------------------------------------
    def librdkafka(
        self, bootstrap: str, protocol: str, mechanism: str | None = None, user: str = "alice", mtls: bool = False
    ) -> dict[str, Any]:
        """confluent-kafka settings for `protocol` (and `mechanism` on SASL listeners) as `user`."""
        c: dict[str, Any] = {"bootstrap.servers": bootstrap, "security.protocol": protocol}
        if protocol in ("SSL", "SASL_SSL"):
            c["ssl.ca.location"] = str(self.ca_pem)
        if mtls:
            files = self.clients[user]
            c.update(
                {
                    "ssl.certificate.location": str(files.cert_pem),
                    "ssl.key.location": str(files.key_pem),
                    "ssl.key.password": self.store_password,
                }
            )
        if protocol.startswith("SASL_"):
            mechanism = mechanism or "SCRAM-SHA-512"
            c["sasl.mechanism"] = mechanism
            if mechanism == "OAUTHBEARER":
                c["enable.sasl.oauthbearer.unsecure.jwt"] = True
                c["sasl.oauthbearer.config"] = f"principal={user}"
            else:
                c["sasl.username"] = user
                c["sasl.password"] = self.users[user]
        return c

    def client_properties(
        self, protocol: str, mechanism: str | None = None, user: str = "alice", mtls: bool = False
    ) -> dict[str, str]:
        """Kafka (Java) client properties, e.g. for a console producer's --command-config file."""
        p: dict[str, str] = {"security.protocol": protocol}
        if protocol in ("SSL", "SASL_SSL"):
            p["ssl.truststore.location"] = str(self.clients[user].truststore_jks)
            p["ssl.truststore.password"] = self.store_password
            p["ssl.truststore.type"] = "JKS"
        if mtls:
            p["ssl.keystore.location"] = str(self.clients[user].keystore_jks)
            p["ssl.keystore.password"] = self.store_password
            p["ssl.key.password"] = self.store_password
            p["ssl.keystore.type"] = "JKS"
        if protocol.startswith("SASL_"):
            mechanism = mechanism or "SCRAM-SHA-512"
            p["sasl.mechanism"] = mechanism
            if mechanism == "OAUTHBEARER":
                p["sasl.jaas.config"] = f'{OAUTH_LOGIN} required unsecuredLoginStringClaim_sub="{user}";'
            else:
                login = PLAIN_LOGIN if mechanism == "PLAIN" else SCRAM_LOGIN
                p["sasl.jaas.config"] = f'{login} required username="{user}" password="{self.users[user]}";'
        return p

    def write_properties(self, path: str | Path, props: dict[str, str]) -> Path:
        path = Path(path)
        path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        path.chmod(0o600)
        return path


__all__ = ["SecureSetup", "SECURE_LISTENERS"]
