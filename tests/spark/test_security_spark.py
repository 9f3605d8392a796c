"""The connector over a secured Apache Kafka (one JVM for the module): the `pykafka` source into
`pykafka-delta` exactly once over SASL_SSL/SCRAM-SHA-512 (with the offset mirror to a group on the
same secured cluster), the `pykafka` sink over SASL_SSL and over mTLS with JKS stores (librdkafka
gets them as in-memory PEM), and the failures: a wrong password and a missing ACL name their
Kafka error in the query's error within seconds. Secrets never show in plans or progress."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from kafka_wire.client.config import ClientConfig
from kafka_wire.client.kafka_client import KafkaClient
from kafka_wire.client.librdkafka import to_librdkafka
from kafka_wire.types import TopicPartition
from tests.peers.fixtures import (  # noqa: F401 - the fixture
    STORE_PASSWORD,
    USERS,
    SecuredKafka,
    secured_apache_kafka,
    secured_our_broker,
)
from tests.spark.delta_helpers import delta_rs_table, positions

pytestmark = [pytest.mark.timeout(240)]

SECRETS = (*USERS.values(), STORE_PASSWORD)


@pytest.fixture(scope="module")
def kafka(secured_apache_kafka: SecuredKafka) -> SecuredKafka:  # noqa: F811
    return secured_apache_kafka


def spark_options(params: dict[str, str]) -> dict[str, str]:
    """Kafka client settings as the connector's `kafka.*` options (Spark's Kafka connector names)."""
    return {f"kafka.{k}": v for k, v in params.items()}


def new_topic(kafka: SecuredKafka, partitions: int = 2) -> str:
    from confluent_kafka.admin import AdminClient, NewTopic

    name = f"sec-spark-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": kafka.plaintext})  # kept alive until the result is in
    admin.create_topics([NewTopic(name, partitions, 1)])[name].result(30)
    return name


def produce(kafka: SecuredKafka, topic: str, n: int) -> list[tuple[int, int]]:
    """n records over SASL_SSL (librdkafka through the translation); their (partition, offset)."""
    from confluent_kafka import Producer

    conf, _ = to_librdkafka(kafka.scram_params(), prefix="")
    acked: list[tuple[int, int]] = []
    p = Producer({**conf, "linger.ms": 5})
    for i in range(n):
        p.produce(
            topic,
            f"v{i}".encode(),
            f"k{i}".encode(),
            on_delivery=lambda e, m: acked.append((m.partition(), m.offset())),
        )
    assert p.flush(30) == 0
    return sorted(acked)


def end_offsets(kafka: SecuredKafka, topic: str, partitions: int = 2) -> dict[int, int]:
    c = KafkaClient(ClientConfig.from_kafka_params(kafka.scram_params(), "check", prefix=""))
    try:
        got = c.list_offsets({TopicPartition(topic, p): -1 for p in range(partitions)})
        return {tp[1]: off for tp, (off, _) in got.items()}
    finally:
        c.close()


def assert_no_secret(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"a secret shows in {where}"


@pytest.mark.slow
@pytest.mark.parametrize("auth", ["scram", "mtls"])
def test_source_to_delta_exactly_once(spark: Any, kafka: SecuredKafka, tmp_path: Path, auth: str) -> None:
    """SASL_SSL/SCRAM-SHA-512 with a JKS trust store, or mTLS with JKS stores (the mirror's group
    commit over mTLS runs as the certificate's principal, a super user)."""
    topic = new_topic(kafka)
    acked = produce(kafka, topic, 60)
    params = kafka.scram_params(truststore_type="JKS") if auth == "scram" else kafka.mtls_params("JKS", "JKS")
    opts = spark_options(params)
    df = spark.readStream.format("pykafka").options(**opts).option("subscribe", topic).option(
        "startingOffsets", "earliest").option("maxOffsetsPerTrigger", "40").load()  # fmt: skip
    plan = df._jdf.queryExecution().toString()  # what df.explain(True) prints
    assert_no_secret(plan, "the plan")
    assert "kafka.subscribe" not in plan and f"subscribe={topic}" in plan  # the options are listed
    assert "redacted" in plan  # and Spark redacts the jaas config / passwords
    path, checkpoint = str(tmp_path / "t"), str(tmp_path / "ck")
    q = (
        df.writeStream.format("pykafka-delta")
        .option("checkpointLocation", checkpoint)
        .options(**opts)  # the offset mirror to group 'offsetsOwner' over the same security settings
        .option("offsetsOwner", f"owner-{topic}")
        .trigger(availableNow=True)
        .start(path)
    )
    q.awaitTermination(120)
    assert q.exception() is None
    assert positions(delta_rs_table(path)) == sorted((topic, p, o) for p, o in acked)
    progress = json.dumps(q.recentProgress and [json.loads(p.json) for p in q.recentProgress])
    assert_no_secret(progress + json.dumps(q.lastProgress and json.loads(q.lastProgress.json)), "the progress")
    assert '"numInputRows": 40' in progress  # several micro-batches did run
    # the mirror reached the group on the secured cluster
    c = KafkaClient(ClientConfig.from_kafka_params(kafka.scram_params(), "check", prefix=""))
    try:
        committed = {tp[1]: off for tp, (off, _) in c.fetch_offsets(f"owner-{topic}").items()}
    finally:
        c.close()
    assert committed == end_offsets(kafka, topic)


def test_batch_source_and_sink_with_every_mechanism(spark: Any, kafka: SecuredKafka) -> None:
    """Batch read over mTLS (JKS: read by us, in-memory PEM for librdkafka), then the sink writes the
    rows over mTLS, SCRAM-SHA-512, PLAIN (PKCS12 truststore) and OAUTHBEARER (unsecured token)."""
    src = new_topic(kafka)
    produce(kafka, src, 30)
    mtls = spark_options(kafka.mtls_params("JKS", "JKS"))
    df = spark.read.format("pykafka").options(**mtls).option("subscribe", src).load()
    assert df.count() == 30
    assert_no_secret(df._jdf.queryExecution().toString(), "the batch plan")
    rows = df.selectExpr("key", "value").cache()
    writers = {
        "mtls": mtls,
        "scram": spark_options(kafka.scram_params()),
        "plain": spark_options(kafka.scram_params(mechanism="PLAIN", truststore_type="PKCS12")),
        "oauth": spark_options(kafka.oauth_params()),
    }
    for name, opts in writers.items():
        out = new_topic(kafka)
        rows.write.format("pykafka").mode("append").options(**opts).option("topic", out).save()
        assert sum(end_offsets(kafka, out).values()) == 30, name
    # and the source reads over OAUTHBEARER too
    oauth = spark.read.format("pykafka").options(**writers["oauth"]).option("subscribe", src).load()
    assert oauth.count() == 30


@pytest.mark.slow
def test_group_mode_over_scram(spark: Any, kafka: SecuredKafka, tmp_path: Path) -> None:
    """Group mode's membership (consumer_group over SASL_SSL), then group_lag with the same settings."""
    from connector.group_lag import group_lag

    topic = new_topic(kafka)
    acked = produce(kafka, topic, 30)
    group, name = f"g-{topic}", f"gm_{uuid.uuid4().hex[:8]}"
    q = (
        spark.readStream.format("pykafka").options(**spark_options(kafka.scram_params()))
        .option("subscribe", topic).option("kafka.group.id", group).option("groupMode", "true")
        .option("startingOffsets", "earliest").option("kafka.heartbeat.interval.ms", "500")
        .load().selectExpr("partition", "offset")
        .writeStream.format("memory").queryName(name)
        .option("checkpointLocation", str(tmp_path / "ck")).trigger(availableNow=True).start()
    )  # fmt: skip
    assert q.awaitTermination(90)
    assert q.exception() is None
    got = sorted((r["partition"], r["offset"]) for r in spark.sql(f"SELECT * FROM {name}").collect())
    assert got == acked
    lag = group_lag(kafka.sasl_ssl(), group, kafka_options=kafka.scram_params(), timeout=20)
    assert lag.group_id == group


def test_connector_against_our_secured_broker(spark: Any, secured_our_broker: SecuredKafka) -> None:  # noqa: F811
    """The same connector options against our EmbeddedBroker, secured alike: a batch read over
    SASL_SSL/SCRAM-SHA-512 and a sink write over mTLS."""
    ours = secured_our_broker
    src, out = new_topic(ours), new_topic(ours)
    produce(ours, src, 20)
    df = spark.read.format("pykafka").options(**spark_options(ours.scram_params())).option("subscribe", src).load()
    assert df.count() == 20
    df.selectExpr("key", "value").write.format("pykafka").mode("append").options(
        **spark_options(ours.mtls_params("JKS", "JKS"))).option("topic", out).save()  # fmt: skip
    assert sum(end_offsets(ours, out).values()) == 20


def _failing_stream(spark: Any, opts: dict[str, str], topic: str, tmp_path: Path) -> tuple[str, float]:
    t0 = time.monotonic()
    q = (
        spark.readStream.format("pykafka").options(**opts).option("subscribe", topic)
        .option("startingOffsets", "earliest").load()
        .writeStream.format("noop").option("checkpointLocation", str(tmp_path / "ck")).start()
    )  # fmt: skip
    try:
        q.awaitTermination(90)  # raises the query's error
    except Exception:  # noqa: BLE001, S110 - read back from q.exception() below
        pass
    finally:
        q.stop()
    assert q.exception() is not None, "the query should have failed"
    return str(q.exception()), time.monotonic() - t0


def test_wrong_password_fails_the_query_within_seconds(spark: Any, kafka: SecuredKafka, tmp_path: Path) -> None:
    topic = new_topic(kafka)
    opts = spark_options(kafka.scram_params(password="wrong-password-123"))
    error, took = _failing_stream(spark, opts, topic, tmp_path)
    assert "SASL_AUTHENTICATION_FAILED" in error
    assert took < 30, f"an authentication failure is not retried (took {took:.1f} s)"
    assert "wrong-password-123" not in error
    assert_no_secret(error, "the query's error")


def test_sink_with_a_wrong_password_fails_within_seconds(spark: Any, kafka: SecuredKafka) -> None:
    """librdkafka would retry the authentication until message.timeout.ms (2 min); the sink fails the
    task at once, as Kafka's Java producer does."""
    topic = new_topic(kafka)
    opts = spark_options(kafka.scram_params(password="wrong-sink-password"))
    t0 = time.monotonic()
    with pytest.raises(Exception, match="SASL_AUTHENTICATION_FAILED") as e:
        spark.range(3).selectExpr("cast(id as string) as value").write.format("pykafka").mode("append").options(
            **opts).option("topic", topic).save()  # fmt: skip
    assert time.monotonic() - t0 < 30
    assert "wrong-sink-password" not in str(e.value)


def test_missing_acl_names_the_topic(spark: Any, kafka: SecuredKafka, tmp_path: Path) -> None:
    topic = new_topic(kafka)
    error, took = _failing_stream(spark, spark_options(kafka.scram_params("bob")), topic, tmp_path)
    assert "TOPIC_AUTHORIZATION_FAILED" in error and topic in error
    assert took < 30


def test_bad_security_options_fail_at_load(spark: Any, kafka: SecuredKafka) -> None:
    opts = {**spark_options(kafka.scram_params()), "kafka.ssl.truststore.password": "not-the-store-password"}
    with pytest.raises(Exception, match="kafka.ssl.truststore.password") as e:
        spark.read.format("pykafka").options(**opts).option("subscribe", "x").load()
    assert "not-the-store-password" not in str(e.value)
    with pytest.raises(Exception, match="kafka.ssl.truststore.password"):
        spark.range(1).selectExpr("'v' as value").write.format("pykafka").mode("append").options(**opts).option(
            "topic", "x").save()  # fmt: skip
