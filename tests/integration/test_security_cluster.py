"""Issue 13 in cluster mode: `EmbeddedCluster(3, secure=True, acls=True)` -- brokers replicate over
SASL_SSL (PLAIN as the super user admin), register with the controller over mutual TLS; SCRAM
users and ACLs are controller metadata, so what one broker is told every broker enforces; and the
replication fault test's invariants hold under repeated leader SIGKILLs with everything secured.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import (
    AclBinding,
    AclOperation,
    AclPermissionType,
    AdminClient,
    NewTopic,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialUpsertion,
)

from broker_embedded import EmbeddedCluster
from tests.integration.cluster_util import FAST, StreamingProducer, wait_full_isr
from tests.integration.test_replication_fault import read_replica_log

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

TOPIC = "secure-fault"
ROUNDS = 6


def client(c: EmbeddedCluster, user: str = "admin", broker_id: int | None = None, **extra: Any) -> dict[str, Any]:
    assert c.secure is not None
    bootstrap = c.bootstrap_servers if broker_id is None else c.bootstrap(broker_id)
    return {**c.secure.librdkafka(bootstrap, "SASL_SSL", "SCRAM-SHA-512", user=user), **extra}


def test_secured_cluster_survives_leader_kills_and_shares_security_metadata(tmp_path: Path) -> None:
    with EmbeddedCluster(3, log_dir=tmp_path, secure=True, acls=True, **{**FAST, "min.insync.replicas": 2}) as c:
        admin = AdminClient(client(c))
        admin.create_topics([NewTopic(TOPIC, 1, 3)])[TOPIC].result(30)
        wait_full_isr(c, TOPIC)  # followers fetched over SASL_SSL: the brokers authenticated

        # SCRAM user and ACL through broker 1; enforced on broker 3 (controller metadata)
        one = AdminClient(client(c, broker_id=1))
        one.alter_user_scram_credentials(
            [UserScramCredentialUpsertion("erin", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), b"erin-pw")]
        )["erin"].result(10)
        acl = AclBinding(ResourceType.TOPIC, TOPIC, ResourcePatternType.LITERAL, "User:erin", "*",
                         AclOperation.WRITE, AclPermissionType.ALLOW)  # fmt: skip
        one.create_acls([acl])[acl].result(10)
        erin = {**client(c, broker_id=3), "sasl.username": "erin", "sasl.password": "erin-pw"}
        reports: list[Any] = []
        p = Producer({**erin, "message.timeout.ms": 10000})
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:  # the image reaches broker 3 within a push
            reports.clear()
            p.produce(TOPIC, b"by erin", on_delivery=lambda err, _m: reports.append(err))
            p.flush(10)
            if reports and reports[0] is None:
                break
            time.sleep(0.2)
        assert reports == [None], reports
        denied: list[Any] = []
        p.produce("other-topic", b"x", on_delivery=lambda err, _m: denied.append(err))
        p.flush(10)
        assert denied[0] is not None and denied[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED

        # the fault test's loop, secured: kill the leader, a new leader takes acks, restart the old one
        prod = StreamingProducer(c.bootstrap_servers, TOPIC, extra=client(c))
        prod.start()
        try:
            prod.wait_for_acks(100, 30)
            for _ in range(ROUNDS):
                c.wait_for(lambda: c.leader(TOPIC, 0) >= 0 and len(c.isr(TOPIC, 0)) >= 2, timeout=30, what="ISR 2+")
                leader = c.leader(TOPIC, 0)
                n = prod.count()
                c.kill(leader)
                c.wait_for(lambda leader=leader: c.leader(TOPIC, 0) not in (-1, leader), timeout=30, what="new leader")
                prod.wait_for_acks(n + 20, 30)
                c.start(leader)  # same port, log dir, certificates and credentials
            wait_full_isr(c, TOPIC, timeout=30)
            prod.wait_for_acks(prod.count() + 50, 30)
        finally:
            prod.stop()
        assert not prod.errors, prod.errors[:5]

        # every acknowledged record is there, once, at its offset, for a SCRAM consumer
        # (a record acked without an offset -- librdkafka's implicit ack after a lost answer -- is
        # checked by its value: it must be in the log too)
        acked = {o: v for _, o, v in prod.acked if o is not None}
        unplaced = {v for _, o, v in prod.acked if o is None}
        end = max(acked) + 1
        consumer = Consumer(client(c, **{"group.id": "verify", "enable.auto.commit": False}))
        consumer.assign([TopicPartition(TOPIC, 0, 0)])
        seen: dict[int, bytes] = {}
        deadline = time.monotonic() + 60
        while (len(seen) < end or not unplaced <= set(seen.values())) and time.monotonic() < deadline:
            m = consumer.poll(0.5)
            if m is not None and m.error() is None:
                seen[m.offset()] = m.value()
        consumer.close()
        assert all(seen.get(o) == v for o, v in acked.items())
        assert unplaced <= set(seen.values()), "a record acknowledged without an offset is not in the log"
        wait_full_isr(c, TOPIC, timeout=30)
        for b in c.broker_ids:
            c.kill(b)
        logs = {b: read_replica_log(c.broker_log_dir(b) / f"{TOPIC}-0") for b in c.broker_ids}
    reference = logs[1]
    for b, batches in logs.items():
        assert batches == reference, f"broker {b}'s log differs from broker 1's"


def test_controller_refuses_a_broker_without_the_cluster_certificate(tmp_path: Path) -> None:
    import socket
    import ssl

    with EmbeddedCluster(1, log_dir=tmp_path, secure=True, controllers=1, **FAST) as c:
        port = c.controller_port
        assert port is not None
        # TLS without a client certificate: refused (TLS 1.3 reports it on the first read: an alert
        # or the connection closed, never an answer)
        assert c.secure is not None
        ctx = ssl.create_default_context(cafile=str(c.secure.ca_pem))
        body = b'{"op": "describe", "id": 1}'
        answer = b""
        with socket.create_connection(("127.0.0.1", port), timeout=3) as raw:
            try:
                with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                    tls.sendall(len(body).to_bytes(4, "big") + body)
                    answer = tls.recv(10)
            except (ssl.SSLError, ConnectionError):
                pass
        assert answer == b""
        assert c.live_brokers() == [1]  # the cluster's own tools (with the certificate) are served


def test_metadata_names_every_broker_on_the_clients_listener(tmp_path: Path) -> None:
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-pw";'
    configs = {
        **FAST,
        "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
        "sasl.enabled.mechanisms": "PLAIN",
        "sasl.jaas.config": jaas,
    }
    with EmbeddedCluster(2, log_dir=tmp_path, controllers=1, **configs) as c:
        registered = {int(b["node_id"]): b["listeners"] for b in c.describe()["brokers"]}
        sasl = {n: f"{h}:{p}" for n, ls in registered.items() for h, p in [ls["SASL_PLAINTEXT"]]}
        assert all(sasl[n] != c.bootstrap(n) for n in c.broker_ids)  # two listeners, two ports
        conf = {
            "bootstrap.servers": sasl[1],
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "PLAIN",
            "sasl.username": "alice",
            "sasl.password": "alice-pw",
        }
        admin = AdminClient(conf)
        admin.create_topics([NewTopic("both", 2, 1)])["both"].result(20)
        md = admin.list_topics(timeout=10)
        assert {b.id: f"{b.host}:{b.port}" for b in md.brokers.values()} == sasl
        # records to partitions led by each broker, through the SASL listener only
        reports: list[Any] = []
        p = Producer(conf)
        deadline = time.monotonic() + 20
        for part in (0, 1):
            while time.monotonic() < deadline:
                reports.clear()
                p.produce("both", b"x", partition=part, on_delivery=lambda err, _m: reports.append(err))
                p.flush(10)
                if reports == [None]:
                    break
                time.sleep(0.2)
            assert reports == [None], (part, reports)


def test_raft_controllers_serve_their_listener_on_mutual_tls_only(tmp_path: Path) -> None:
    """controllers=3 (a Raft quorum, issue 32) with the controller listener on SSL: the voters replicate
    `__cluster_metadata` to each other and to the broker's observer, and the broker registers and heartbeats
    (62/63), all over mutual TLS (the broker would never be unfenced otherwise). A plaintext Kafka request and a
    TLS connection without the cluster's certificate get no answer; one with it is served (DescribeQuorum)."""
    import socket
    import ssl

    with EmbeddedCluster(1, log_dir=tmp_path, secure=True, controllers=3, **FAST) as c:
        assert c.quorum == "raft" and c.secure is not None
        assert c.live_brokers() == [1]  # registered, caught up on the log and unfenced: all over TLS
        # ApiVersions v0 (header v1), correlation id 7: served on the Raft listener to a client with the certificate
        frame = (18).to_bytes(2, "big") + (0).to_bytes(2, "big") + (7).to_bytes(4, "big") + (4).to_bytes(2, "big")
        frame = len(frame + b"test").to_bytes(4, "big") + frame + b"test"

        def answer(port: int, ctx: ssl.SSLContext | None) -> bytes:
            got = b""
            with socket.create_connection(("127.0.0.1", port), timeout=3) as raw:
                try:
                    s = raw if ctx is None else ctx.wrap_socket(raw, server_hostname="127.0.0.1")
                    s.sendall(frame)
                    while len(got) < 8:
                        chunk = s.recv(8 - len(got))
                        if not chunk:
                            break
                        got += chunk
                except (ssl.SSLError, ConnectionError, TimeoutError):
                    pass
            return got

        no_cert = ssl.create_default_context(cafile=str(c.secure.ca_pem))
        for i, port in c.raft_ports.items():
            assert answer(port, None) == b"", f"controller {i}: a plaintext request was answered"
            assert answer(port, no_cert) == b"", f"controller {i}: a client without the certificate was answered"
            assert answer(port, c.secure.controller_client_context())[4:8] == (7).to_bytes(4, "big"), i
