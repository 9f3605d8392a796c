"""pykafka sink option and column checks without running Spark jobs (fast, driver-side logic)."""

from __future__ import annotations

import pytest
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    IntegerType,
    LongType,
    NullType,
    StringType,
    StructField,
    StructType,
)

from connector.sink.writer import (
    SinkColumns,
    SinkOptionError,
    SinkSchemaError,
    create_batch_writer,
    create_stream_writer,
    parse_sink_options,
    validate_sink_schema,
)

BOOT = {"kafka.bootstrap.servers": "127.0.0.1:9"}  # never contacted: options only


def conf(**options: str) -> dict[str, object]:
    return parse_sink_options({**BOOT, **{k.replace("_", "."): v for k, v in options.items()}}).producer_dict()


def test_defaults_follow_the_java_producer() -> None:
    c = conf()
    assert c["bootstrap.servers"] == "127.0.0.1:9"
    assert c["acks"] == "all"
    assert c["enable.idempotence"] == "true"
    assert c["partitioner"] == "murmur2_random"  # Kafka's default partitioner placement
    assert c["message.timeout.ms"] == "120000"  # Java's delivery.timeout.ms
    assert "message.timeout.ms" not in conf(kafka_delivery_timeout_ms="5000")


def test_idempotence_not_forced_when_settings_conflict() -> None:
    assert "enable.idempotence" not in conf(kafka_acks="1")
    assert "enable.idempotence" not in conf(kafka_retries="0")
    assert "enable.idempotence" not in conf(**{"kafka.max.in.flight.requests.per.connection": "10"})
    assert conf(kafka_enable_idempotence="false")["enable.idempotence"] == "false"


def test_java_names_are_translated() -> None:
    c = conf(
        kafka_max_request_size="2097152",
        kafka_buffer_memory="33554432",
        **{
            "kafka.send.buffer.bytes": "131072",
            "kafka.partitioner.class": "org.apache.kafka.clients.producer.UniformStickyPartitioner",
        },
    )
    assert c["message.max.bytes"] == "2097152"
    assert c["queue.buffering.max.kbytes"] == "32768"
    assert c["socket.send.buffer.bytes"] == "131072"
    assert c["partitioner"] == "random"
    assert "max.request.size" not in c and "buffer.memory" not in c and "partitioner.class" not in c


def test_max_block_ms_is_handled_by_the_sink() -> None:
    cfg = parse_sink_options({**BOOT, "kafka.max.block.ms": "1234"})
    assert cfg.max_block_ms == 1234
    assert "max.block.ms" not in cfg.producer_dict()


def test_jaas_plain_becomes_sasl_username_password() -> None:
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="s3\\"cret";'
    c = conf(
        **{
            "kafka.security.protocol": "SASL_PLAINTEXT",
            "kafka.sasl.mechanism": "PLAIN",
            "kafka.sasl.jaas.config": jaas,
        }
    )
    assert c["sasl.username"] == "alice"
    assert c["sasl.password"] == 's3"cret'


def test_unsupported_jaas_module_is_refused() -> None:
    with pytest.raises(SinkOptionError, match="sasl.jaas.config"):
        conf(**{"kafka.sasl.jaas.config": "com.sun.security.auth.module.Krb5LoginModule required;"})


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"kafka.bootstrap.servers": ""}, "'kafka.bootstrap.servers' must be specified"),
        ({"kafka.key.serializer": "org.apache.kafka.common.serialization.StringSerializer"}, "key.serializer"),
        ({"kafka.value.serializer": "x"}, "value.serializer"),
        ({"kafka.interceptor.classes": "x"}, "interceptor.classes"),
        ({"kafka.transactional.id": "x"}, "at-least-once"),
        ({"kafka.delivery.report.only.error": "false"}, "Python callback"),
        ({"kafka.compression.type": "brotli"}, "invalid Kafka producer option"),
        ({"kafka.linger.ms": "soon"}, "invalid Kafka producer option"),
        ({"kafka.buffer.memory": "lots"}, "kafka.buffer.memory"),
        ({"kafka.max.block.ms": "-1"}, "non-negative"),
        ({"topic": ""}, "non-empty"),
    ],
)
def test_bad_options(options: dict[str, str], match: str) -> None:
    with pytest.raises(SinkOptionError, match=match):
        parse_sink_options({**BOOT, **options})


def test_non_kafka_options_are_ignored() -> None:
    cfg = parse_sink_options({**BOOT, "checkpointlocation": "/tmp/x", "path": "p", "topic": "t"})
    assert cfg.topic == "t"
    assert not any(k in cfg.producer_dict() for k in ("checkpointlocation", "path", "topic"))


HEADERS = ArrayType(StructType([StructField("key", StringType()), StructField("value", BinaryType())]))


def schema(**cols: object) -> StructType:
    return StructType([StructField(name, dt) for name, dt in cols.items()])  # type: ignore[arg-type]


def test_all_columns() -> None:
    s = schema(value=BinaryType(), key=StringType(), headers=HEADERS, topic=StringType(), partition=IntegerType())
    assert validate_sink_schema(s, None) == SinkColumns(
        key="key", headers="headers", topic="topic", partition="partition"
    )
    # The topic option overrides (and so hides) the column.
    assert validate_sink_schema(s, "t").topic is None


def test_null_typed_optional_columns_mean_absent() -> None:
    s = schema(value=StringType(), key=NullType(), headers=NullType(), partition=NullType())
    assert validate_sink_schema(s, "t") == SinkColumns()


@pytest.mark.parametrize(
    ("cols", "topic", "match"),
    [
        ({"key": StringType()}, "t", "required column 'value' not found"),
        ({"value": LongType()}, "t", "column 'value' .* bigint; accepted: string or binary"),
        ({"value": StringType(), "key": IntegerType()}, "t", "column 'key' .* int; accepted: string or binary"),
        ({"value": StringType(), "partition": LongType()}, "t", "column 'partition' .* bigint; accepted: int"),
        ({"value": StringType(), "headers": ArrayType(StringType())}, "t", "column 'headers' .*accepted: array<struct"),
        ({"value": StringType()}, None, "needs a topic"),
        ({"value": StringType(), "topic": BinaryType()}, None, "column 'topic' .* binary; accepted: string"),
        # Column names match exactly, as in Spark's Kafka sink.
        ({"VALUE": StringType()}, "t", "required column 'value' not found"),
    ],
)
def test_bad_columns(cols: dict[str, object], topic: str | None, match: str) -> None:
    with pytest.raises(SinkSchemaError, match=match):
        validate_sink_schema(schema(**cols), topic)


def test_overwrite_refused_for_batch_but_complete_mode_streams() -> None:
    s = schema(value=StringType())
    with pytest.raises(SinkOptionError, match="Overwrite is not allowed"):
        create_batch_writer({**BOOT, "topic": "t"}, s, overwrite=True)
    assert create_batch_writer({**BOOT, "topic": "t"}, s, overwrite=False).config.topic == "t"
    # Streaming output mode complete passes overwrite=True: accepted, as by Spark's Kafka sink.
    assert create_stream_writer({**BOOT, "topic": "t"}, s, overwrite=True).config.topic == "t"


def test_writers_pickle() -> None:
    import pickle

    w = create_stream_writer({**BOOT, "topic": "t"}, schema(value=StringType(), key=BinaryType()), overwrite=False)
    w2 = pickle.loads(pickle.dumps(w))
    assert w2.config == w.config and w2.columns == w.columns
