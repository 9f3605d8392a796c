"""Misspelled source options get "did you mean" (issue 33); names far from every known one keep
Spark's behaviour; the Kafka config names are Kafka's own (compared with the Java client's)."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from connector.option_names import KAFKA_CONSUMER_CONFIGS, KAFKA_PRODUCER_ONLY_CONFIGS, SourceOptionError
from connector.options import parse_source_options
from peers import jvm
from tests.peers.fixtures import require_kafka_peers

BASE = {"kafka.bootstrap.servers": "localhost:9092", "subscribe": "events"}


def _parse(**extra: str) -> object:
    # Spark hands a Python data source lower-cased keys
    return parse_source_options({k.lower(): v for k, v in {**BASE, **extra}.items()})


@pytest.mark.parametrize(
    ("option", "meant", "accepts"),
    [
        ("startingOffset", "'startingOffsets'", "'earliest', 'latest'"),
        ("maxOffsetPerTrigger", "'maxOffsetsPerTrigger'", "a positive integer"),
        ("failOnDataLos", "'failOnDataLoss'", "'true' or 'false'"),
        ("kafka.isolaton.level", "'kafka.isolation.level'", "'read_uncommitted' or 'read_committed'"),
        ("kafka.securty.protocol", "'kafka.security.protocol'", "SASL_SSL"),
        ("kafka.fetch.max.wait", "'kafka.fetch.max.wait.ms'", ""),
    ],
)
def test_close_names_get_did_you_mean(option: str, meant: str, accepts: str) -> None:
    with pytest.raises(SourceOptionError) as e:
        _parse(**{option: "x"})
    message = str(e.value)
    assert f"Unknown option '{option.lower()}'" in message
    assert f"did you mean {meant}" in message
    assert accepts in message


@pytest.mark.parametrize(
    "option",
    [
        "kafka.linger.ms",  # a producer config in an options dict shared with a sink
        "kafka.metadata.max.idle.ms",  # producer-only, close to metadata.max.age.ms
        "kafka.sasl.username",  # librdkafka's name: far from Kafka's
        "kafka.some.custom.interceptor.setting",
        "myAppOption",
        "subscribeTopics",  # far from 'subscribe': ignored as Spark does
    ],
)
def test_far_names_keep_spark_behaviour(option: str) -> None:
    opts = _parse(**{option: "1"})
    assert opts.subscription.topics == ("events",)  # type: ignore[attr-defined]


def test_known_names_pass() -> None:
    opts = _parse(startingOffsets="earliest", maxOffsetsPerTrigger="5", **{"kafka.isolation.level": "read_committed"})
    assert opts.max_offsets_per_trigger == 5  # type: ignore[attr-defined]


def test_serializers_keep_their_own_refusal() -> None:
    with pytest.raises(SourceOptionError, match="'key.serializer' is not supported"):
        _parse(**{"kafka.key.serializer": "x"})


def test_config_names_are_the_java_clients(tmp_path: Path) -> None:
    """KAFKA_CONSUMER_CONFIGS is ConsumerConfig.configNames() and the producer-only list is
    ProducerConfig's less the consumer's, as the Kafka client jar of the peers says."""
    require_kafka_peers()
    source = tmp_path / "Names.java"
    source.write_text(
        textwrap.dedent(
            """
            import org.apache.kafka.clients.consumer.ConsumerConfig;
            import org.apache.kafka.clients.producer.ProducerConfig;
            public class Names {
                public static void main(String[] a) {
                    ConsumerConfig.configNames().forEach(n -> System.out.println("c " + n));
                    ProducerConfig.configNames().forEach(n -> System.out.println("p " + n));
                }
            }
            """
        )
    )
    out = subprocess.run(
        [jvm.java_executable(), "-cp", jvm.classpath(), str(source)],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    consumer = {line[2:] for line in out.splitlines() if line.startswith("c ")}
    producer = {line[2:] for line in out.splitlines() if line.startswith("p ")}
    assert consumer and KAFKA_CONSUMER_CONFIGS == consumer
    assert KAFKA_PRODUCER_ONLY_CONFIGS == producer - consumer
