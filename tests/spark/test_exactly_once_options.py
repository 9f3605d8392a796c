"""Options of the pykafka sink's exactly-once mode (connector.sink.transactional), driver side only:
no Spark job, no broker (librdkafka validates the settings without connecting)."""

from __future__ import annotations

import pyarrow as pa
import pytest
from pyspark.sql.types import BinaryType, StringType, StructField, StructType

from connector.sink.transactional import (
    ExactlyOnceCommitMessage,
    ExactlyOnceStreamWriter,
    _first_rows,
    exactly_once_requested,
    parse_exactly_once_options,
)
from connector.sink.writer import (
    KafkaSinkWriteError,
    PykafkaStreamWriter,
    SinkOptionError,
    create_batch_writer,
    create_stream_writer,
)

BOOT = {"kafka.bootstrap.servers": "127.0.0.1:9"}  # never contacted: options only
EOS = {**BOOT, "topic": "out", "exactlyonce": "true"}  # Spark hands options over lower-cased
SCHEMA = StructType([StructField("key", BinaryType()), StructField("value", StringType())])


def test_defaults() -> None:
    cfg = parse_exactly_once_options(EOS, streaming=True)
    conf = cfg.sink.producer_dict()
    assert (conf["acks"], conf["enable.idempotence"]) == ("all", "true")
    # librdkafka refuses message.timeout.ms > transaction.timeout.ms: the 2-minute at-least-once
    # default is cut to the transaction timeout
    assert (conf["transaction.timeout.ms"], conf["message.timeout.ms"]) == ("60000", "60000")
    assert "transactional.id" not in conf  # derived per task
    assert cfg.marker_topic == "out"
    assert cfg.transactional_id("q-1", 7) == "pykafka-eos-q-1-7"
    consumer = cfg.consumer_config("g")
    assert consumer["bootstrap.servers"] == "127.0.0.1:9"
    assert consumer["isolation.level"] == "read_committed"
    assert "acks" not in consumer and "partitioner" not in consumer  # producer-only settings stay out


def test_prefix_marker_topic_and_timeouts() -> None:
    cfg = parse_exactly_once_options(
        {
            **BOOT,
            "exactlyonce": "TRUE",
            "exactlyonce.markertopic": "markers",
            "exactlyonce.transactionalidprefix": "team-a",
            "kafka.transaction.timeout.ms": "30000",
            "kafka.sasl.username": "u",
        },
        streaming=True,
    )
    assert cfg.marker_topic == "markers"
    assert cfg.transactional_id("q", 0) == "team-a-q-0"
    assert cfg.sink.producer_dict()["message.timeout.ms"] == "30000"
    assert cfg.consumer_config("g")["sasl.username"] == "u"  # security settings reach the marker reader


@pytest.mark.parametrize(
    ("value", "expected"), [(None, False), ("false", False), ("False", False), ("true", True), (" TRUE ", True)]
)
def test_exactly_once_values(value: str | None, expected: bool) -> None:
    options = dict(BOOT) if value is None else {**BOOT, "exactlyonce": value}
    assert exactly_once_requested(options) is expected


@pytest.mark.parametrize("value", ["yes", "1", "", "exactly"])
def test_exactly_once_bad_value_names_accepted_values(value: str) -> None:
    with pytest.raises(SinkOptionError, match=r"option 'exactlyOnce' = .* accepted values are 'true' .* 'false'"):
        exactly_once_requested({**BOOT, "exactlyonce": value})


@pytest.mark.parametrize(
    ("options", "match"),
    [
        (
            {"kafka.transactional.id": "mine"},
            r"'kafka.transactional.id' cannot be set .*exactlyOnce.transactionalIdPrefix",
        ),
        ({"kafka.acks": "1"}, r"'kafka.acks' = '1' .* accepted values: 'all', '-1'"),
        ({"kafka.acks": "0"}, r"'kafka.acks'"),
        ({"kafka.enable.idempotence": "false"}, r"'kafka.enable.idempotence' = 'false'"),
        ({"kafka.max.in.flight.requests.per.connection": "6"}, r"accepted values: 1 to 5"),
        ({"kafka.max.in.flight": "many"}, r"'kafka.max.in.flight'"),
        ({"kafka.retries": "0"}, r"'kafka.retries' = '0'"),
        ({"topic": "", "exactlyonce.markertopic": " "}, r"needs a marker topic"),
        ({"exactlyonce.transactionalidprefix": " "}, r"'exactlyOnce.transactionalIdPrefix' must be a non-empty"),
        ({"kafka.transaction.timeout.ms": "soon"}, r"'kafka.transaction.timeout.ms' must be a positive integer"),
        # librdkafka's own check, made on the driver: a delivery timeout beyond the transaction's
        ({"kafka.message.timeout.ms": "90000"}, r"invalid Kafka producer option.*transaction.timeout.ms"),
        ({"kafka.bootstrap.servers": ""}, r"'kafka.bootstrap.servers' must be specified"),
    ],
)
def test_bad_options(options: dict[str, str], match: str) -> None:
    with pytest.raises(SinkOptionError, match=match):
        parse_exactly_once_options({**EOS, **options}, streaming=True)


def test_no_topic_at_all_needs_marker_topic() -> None:
    options = {k: v for k, v in EOS.items() if k != "topic"}
    with pytest.raises(SinkOptionError, match=r"set option 'topic', or option 'exactlyOnce.markerTopic'"):
        parse_exactly_once_options(options, streaming=True)
    assert parse_exactly_once_options({**options, "exactlyonce.markertopic": "m"}, streaming=True).marker_topic == "m"


def test_batch_write_refuses_exactly_once() -> None:
    with pytest.raises(SinkOptionError, match=r"applies to streaming writes \(df.writeStream\) only"):
        create_batch_writer(EOS, SCHEMA, overwrite=False)
    # and a bad value is named even for batch writes
    with pytest.raises(SinkOptionError, match=r"option 'exactlyOnce'"):
        create_batch_writer({**EOS, "exactlyonce": "maybe"}, SCHEMA, overwrite=False)
    create_batch_writer({**EOS, "exactlyonce": "false"}, SCHEMA, overwrite=False)


def test_stream_writer_factory_routes_on_the_option() -> None:
    assert isinstance(create_stream_writer(EOS, SCHEMA, overwrite=False), ExactlyOnceStreamWriter)
    assert isinstance(
        create_stream_writer({**EOS, "exactlyonce": "false"}, SCHEMA, overwrite=False), PykafkaStreamWriter
    )
    with pytest.raises(SinkOptionError, match=r"'kafka.acks'"):
        create_stream_writer({**EOS, "kafka.acks": "1"}, SCHEMA, overwrite=False)


def test_driver_commit_checks_the_tasks_batch_ids() -> None:
    writer = create_stream_writer(EOS, SCHEMA, overwrite=False)
    ok = [ExactlyOnceCommitMessage("q", 7, 0, 10), ExactlyOnceCommitMessage("q", 7, 1, 0, skipped=True), None]
    writer.commit(ok, 7)
    with pytest.raises(KafkaSinkWriteError, match=r"Spark commits batch 8 but tasks wrote batch \[7\]"):
        writer.commit(ok, 8)
    writer.abort(ok, 7)  # logs only: committed task transactions are skipped on replay


def test_tasks_without_rows_need_no_transaction() -> None:
    empty = pa.RecordBatch.from_pydict({"key": pa.array([], pa.binary()), "value": pa.array([], pa.string())})
    assert _first_rows(iter([])) is None
    assert _first_rows(iter([empty, empty])) is None
    one = pa.RecordBatch.from_pydict({"key": [b"k"], "value": ["v"]})
    rest = _first_rows(iter([empty, one, empty, one]))
    assert rest is not None and sum(b.num_rows for b in rest) == 2


def test_unsecured_oauthbearer_reaches_the_marker_reader() -> None:
    cfg = parse_exactly_once_options(
        {
            **EOS,
            "kafka.security.protocol": "SASL_PLAINTEXT",
            "kafka.sasl.mechanism": "OAUTHBEARER",
            "kafka.sasl.jaas.config": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule "
            'required unsecuredLoginStringClaim_sub="alice";',
        },
        streaming=True,
    )
    producer, consumer = cfg.sink.producer_dict(), cfg.consumer_config("g")
    assert producer["enable.sasl.oauthbearer.unsecure.jwt"] == "true"
    shared = ("security.protocol", "sasl.mechanisms", "enable.sasl.oauthbearer.unsecure.jwt", "sasl.oauthbearer.config")
    for key in shared:
        assert consumer.get(key) == producer.get(key), key
