"""Pytest fixtures for the JVM peers (imported by tests/conftest.py, so every test can use them).

* ``apache_kafka`` -- one Apache Kafka node (KRaft combined mode), started once per test run.
* ``apache_kafka_cluster`` -- three Apache Kafka nodes, started once per test run.
* ``java_client`` -- :class:`JavaClient`: the Java tools and clients against any bootstrap.

Without the jars (``./scripts/setup.sh`` resolves them with Maven) these fixtures skip the test,
except under ``CI=true``, where a missing peer is a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from peers import jvm


def require_kafka_peers() -> None:
    if jvm.kafka_peers_available():
        return
    message = f"JVM peers missing ({jvm.KAFKA_LIB}): run ./scripts/setup.sh (needs java and mvn)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def apache_kafka() -> Iterator[jvm.ApacheKafka]:
    require_kafka_peers()
    with jvm.ApacheKafka(1, num_partitions=4) as kafka:
        yield kafka


@pytest.fixture(scope="session")
def apache_kafka_cluster() -> Iterator[jvm.ApacheKafka]:
    require_kafka_peers()
    with jvm.ApacheKafka(3, num_partitions=3) as kafka:
        yield kafka


class JsonLines:
    """A background Java process whose stdout is JSON lines (the verifiable producer/consumer)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.events: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self._lock:
                self.events.append(event)

    def of(self, name: str) -> list[dict[str, Any]]:
        with self._lock:
            return [e for e in self.events if e.get("name") == name]

    def wait_for(self, predicate: Any, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what}; last events: {self.events[-5:]}")
            if self.proc.poll() is not None and not predicate():
                self._thread.join(5)
                if predicate():
                    return
                raise RuntimeError(f"process exited {self.proc.returncode} before {what}: {self.events[-5:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        jvm.stop_process(self.proc)
        self._thread.join(10)


class JavaClient:
    """The Java clients and Kafka's CLI tools (their main classes), against any bootstrap."""

    def __init__(self) -> None:
        self._background: list[JsonLines] = []

    def run(
        self, main_class: str, *args: str, timeout: float = 120.0, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        return jvm.java_tool(main_class, *args, timeout=timeout, check=check)

    def topics(self, bootstrap: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return self.run(jvm.TOPICS, "--bootstrap-server", bootstrap, *args, check=check)

    def configs(self, bootstrap: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return self.run(jvm.CONFIGS, "--bootstrap-server", bootstrap, *args, check=check)

    def consumer_groups(self, bootstrap: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return self.run(jvm.CONSUMER_GROUPS, "--bootstrap-server", bootstrap, *args, check=check)

    def verifiable_producer(self, bootstrap: str, topic: str, *args: str) -> JsonLines:
        proc = jvm.java_popen(jvm.VERIFIABLE_PRODUCER, "--bootstrap-server", bootstrap, "--topic", topic, *args)
        return self._track(JsonLines(proc))

    def verifiable_consumer(self, bootstrap: str, topic: str, group: str, *args: str) -> JsonLines:
        proc = jvm.java_popen(
            jvm.VERIFIABLE_CONSUMER, "--bootstrap-server", bootstrap, "--topic", topic, "--group-id", group, *args
        )
        return self._track(JsonLines(proc))

    def word_count(self, bootstrap: str, source: str, sink: str, app_id: str, state_dir: str) -> subprocess.Popen[str]:
        proc = jvm.java_popen(jvm.WORD_COUNT, bootstrap, source, sink, app_id, state_dir)
        self._track(JsonLines(proc))
        return proc

    def _track(self, job: JsonLines) -> JsonLines:
        self._background.append(job)
        return job

    def close(self) -> None:
        for job in self._background:
            job.stop()


@pytest.fixture
def java_client() -> Iterator[JavaClient]:
    require_kafka_peers()
    client = JavaClient()
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="session")
def kafka_tools() -> Iterator[Any]:
    """Kafka 4.3.1's command-line tools run one after another in one JVM (tests/peers/tool_shell.py:
    a JVM start per command costs ~2 s), for the whole run."""
    from tests.peers.tool_shell import ToolShell

    require_kafka_peers()
    shell = ToolShell()
    try:
        yield shell
    finally:
        shell.close()


@pytest.fixture(scope="module", params=["ours", "apache"])
def either_broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Differential conformance: our EmbeddedBroker (num.partitions=4, like tests/conftest.py's
    ``broker``) and then the session's real Apache Kafka (also num.partitions=4). A module that
    imports it as ``broker`` runs every test against both; tests that look inside our broker call
    :func:`ours_only`."""
    if request.param == "ours":
        from broker_embedded import EmbeddedBroker

        with EmbeddedBroker(num_partitions=4) as b:
            yield b
        return
    yield request.getfixturevalue("apache_kafka")


def ours_only(broker: Any, why: str = "looks inside our broker") -> None:
    if isinstance(broker, jvm.ApacheKafka):
        pytest.skip(f"ours only: {why}")


def is_apache(broker: Any) -> bool:
    return isinstance(broker, jvm.ApacheKafka)


# ---- a secured Apache Kafka (issue 13) --------------------------------------------------------------

STORE_PASSWORD = "store-secret-1"
USERS = {"alice": "alice-secret", "bob": "bob-secret"}  # alice: super user; bob: no ACLs
SCRAM_JAAS = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="{}" password="{}";'
PLAIN_JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="{}" password="{}";'
OAUTH_JAAS = (
    'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="{}";'
)
REAUTH_MS = 2500  # SCRAM-SHA-512 sessions on SASL_SSL last this long (KIP-368), so re-authentication runs


class SecuredKafka:
    """A secured Kafka: Apache Kafka (``backend="apache"``) or our EmbeddedBroker (``"ours"``), set up
    alike: listeners SASL_SSL (SCRAM-SHA-512/256, PLAIN, OAUTHBEARER unsecured), SSL (client
    certificate required) and PLAINTEXT (inter-broker, readiness, admin as ANONYMOUS);
    StandardAuthorizer with super users ANONYMOUS, alice, admin and the client certificate's DN."""

    def __init__(self, directory: str, backend: str = "apache") -> None:
        from broker_embedded.security import certs

        self.backend = backend
        self.dir = directory
        self.ca = certs.make_ca()
        # the server certificate names 127.0.0.1 only: dialling "localhost" is a host name mismatch
        server = certs.make_server_cert(self.ca, hosts=("127.0.0.1",))
        self.server = certs.write_stores(f"{directory}/server", "server", server, self.ca, STORE_PASSWORD)
        self.client_cert = certs.make_client_cert(self.ca, "CN=client,OU=pykafka")
        self.client = certs.write_stores(f"{directory}/client", "client", self.client_cert, self.ca, STORE_PASSWORD)
        other_ca = certs.make_ca("CN=another CA")
        self.untrusted = certs.write_stores(
            f"{directory}/other", "other", certs.make_client_cert(other_ca, "CN=stranger"), other_ca, STORE_PASSWORD
        )
        scram = [(m, u, p) for u, p in USERS.items() for m in ("SCRAM-SHA-512", "SCRAM-SHA-256")]
        plain_users = " ".join(f'user_{u}="{p}"' for u, p in USERS.items())
        overrides: dict[str, object] = {
            "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "super.users": f"User:ANONYMOUS;User:alice;User:admin;User:{self.client_cert.subject_dn}",
            "ssl.keystore.type": "PKCS12",
            "ssl.keystore.location": self.server.keystore_p12,
            "ssl.keystore.password": STORE_PASSWORD,
            "ssl.truststore.type": "PKCS12",
            "ssl.truststore.location": self.server.truststore_p12,
            "ssl.truststore.password": STORE_PASSWORD,
            "listener.name.ssl.ssl.client.auth": "required",
            "listener.name.sasl_ssl.sasl.enabled.mechanisms": "SCRAM-SHA-512,SCRAM-SHA-256,PLAIN,OAUTHBEARER",
            "listener.name.sasl_ssl.plain.sasl.jaas.config": (
                f"org.apache.kafka.common.security.plain.PlainLoginModule required {plain_users};"
            ),
            "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config": (
                "org.apache.kafka.common.security.scram.ScramLoginModule required;"
            ),
            "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config": (
                "org.apache.kafka.common.security.scram.ScramLoginModule required;"
            ),
            "listener.name.sasl_ssl.oauthbearer.sasl.jaas.config": OAUTH_JAAS.format("broker"),
            "listener.name.sasl_ssl.scram-sha-512.connections.max.reauth.ms": REAUTH_MS,
        }
        self._scram = scram
        self.kafka: jvm.ApacheKafka | None = None
        self.broker: Any = None
        if backend == "apache":
            self.kafka = jvm.ApacheKafka(
                1,
                num_partitions=2,
                overrides=overrides,
                extra_listeners={"SASL_SSL": "SASL_SSL", "SSL": "SSL"},
                scram_users=scram,
            )
            return
        from broker_embedded import EmbeddedBroker

        ours = {k.replace(".scram-sha-512.connections", ".connections"): v for k, v in overrides.items()}
        ours["listeners"] = "PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0,SSL://127.0.0.1:0"
        ours["inter.broker.listener.name"] = "PLAINTEXT"
        ours = {k: str(v) for k, v in ours.items()}
        self.broker = EmbeddedBroker(num_partitions=2, **ours)

    def __enter__(self) -> SecuredKafka:
        if self.kafka is not None:
            self.kafka.start()
            return self
        self.broker.start()
        for _mech, user, password in self._scram[::2]:
            self.broker.call(lambda _b, u=user, pw=password: self.broker.security.add_scram_user(u, pw))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.kafka is not None:
            self.kafka.close()
        else:
            self.broker.stop()

    def _listener(self, name: str, host: str) -> str:
        if self.kafka is not None:
            return self.kafka.listener_bootstrap(name, host) if name != "PLAINTEXT" else self.kafka.bootstrap_servers
        return f"{host}:{self.broker.bootstrap(name).rsplit(':', 1)[1]}"

    @property
    def plaintext(self) -> str:
        return self._listener("PLAINTEXT", jvm.LOOPBACK)

    def sasl_ssl(self, host: str = jvm.LOOPBACK) -> str:
        return self._listener("SASL_SSL", host)

    def ssl(self, host: str = jvm.LOOPBACK) -> str:
        return self._listener("SSL", host)

    def scram_params(self, user: str = "alice", password: str | None = None, mechanism: str = "SCRAM-SHA-512",
                     truststore_type: str = "JKS") -> dict[str, str]:  # fmt: skip
        """Kafka client settings (Java names) for SASL_SSL with SCRAM."""
        jaas = (PLAIN_JAAS if mechanism == "PLAIN" else SCRAM_JAAS).format(user, password or USERS[user])
        return {
            "bootstrap.servers": self.sasl_ssl(),
            "security.protocol": "SASL_SSL",
            "sasl.mechanism": mechanism,
            "sasl.jaas.config": jaas,
            **self.trust(truststore_type),
        }

    def oauth_params(self, sub: str = "admin") -> dict[str, str]:
        return {
            "bootstrap.servers": self.sasl_ssl(),
            "security.protocol": "SASL_SSL",
            "sasl.mechanism": "OAUTHBEARER",
            "sasl.jaas.config": OAUTH_JAAS.format(sub),
            **self.trust("PEM"),
        }

    def trust(self, store_type: str = "JKS") -> dict[str, str]:
        out = {"ssl.truststore.location": str(self.client.truststore(store_type)), "ssl.truststore.type": store_type}
        if store_type != "PEM":
            out["ssl.truststore.password"] = STORE_PASSWORD
        return out

    def mtls_params(self, keystore_type: str = "PKCS12", truststore_type: str = "PKCS12") -> dict[str, str]:
        out = {
            "bootstrap.servers": self.ssl(),
            "security.protocol": "SSL",
            **self.trust(truststore_type),
            "ssl.keystore.location": str(self.client.keystore(keystore_type)),
            "ssl.keystore.type": keystore_type,
            "ssl.key.password": STORE_PASSWORD,
        }
        if keystore_type != "PEM":
            out["ssl.keystore.password"] = STORE_PASSWORD
        return out


@pytest.fixture(scope="session")
def secured_apache_kafka(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecuredKafka]:
    """One secured Apache Kafka per test run (see `SecuredKafka`)."""
    require_kafka_peers()
    with SecuredKafka(str(tmp_path_factory.mktemp("secured-kafka-pki"))) as secured:
        yield secured


@pytest.fixture(scope="session")
def secured_our_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecuredKafka]:
    """Our EmbeddedBroker, secured like `secured_apache_kafka`."""
    with SecuredKafka(str(tmp_path_factory.mktemp("secured-ours-pki")), backend="ours") as secured:
        yield secured
