"""Option validation of the pykafka source: every bad option fails with a message naming the option.

Where the failure surfaces is dictated by pyspark's Python Data Source API: `DataSource.schema()`
runs at `load()` for batch and streams alike, so everything that is wrong for both fails there;
batch-only rules can only run in `reader()` (at the first action) and stream-only rules in
`streamReader()` (when the query starts, reported through the query's exception).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from connector.kafka_client import ClientConfig, KafkaClient, KafkaClientError
from connector.options import (
    DEFAULT_FETCH_OFFSET_RETRIES,
    DEFAULT_FETCH_OFFSET_RETRY_INTERVAL_MS,
    DEFAULT_MAX_TRIGGER_DELAY_MS,
    DEFAULT_POLL_TIMEOUT_MS,
    SourceOptionError,
    parse_duration_ms,
    parse_source_options,
)
from tests.spark.source_helpers import create_topic, produce

pytestmark = pytest.mark.timeout(240)

BOOT = "127.0.0.1:9"  # never contacted: these fail before any connection


def _opts(**kw: str) -> dict[str, str]:
    base = {"kafka.bootstrap.servers": BOOT, "subscribe": "t"}
    base.update(kw)
    return {k: v for k, v in base.items() if v is not None}


LOAD_ERRORS: list[tuple[dict[str, Any], str]] = [
    ({"kafka.bootstrap.servers": None}, "Option 'kafka.bootstrap.servers' must be specified"),
    ({"kafka.bootstrap.servers": "nohostport"}, "'kafka.bootstrap.servers': expected host:port"),
    ({"subscribe": None}, "One of the following options must be specified for the pykafka source: assign, subscribe"),
    ({"subscribe": None, "subscribeTopics": "t"}, "unknown option(s): subscribetopics"),
    ({"assign": '{"t": [0]}'}, "Only one of the following options can be specified"),
    ({"subscribePattern": "t.*"}, "Only one of the following options can be specified"),
    ({"subscribe": " , "}, "No topics to subscribe to as specified value for option 'subscribe'"),
    ({"subscribe": None, "subscribePattern": " "}, "Pattern to subscribe is empty"),
    ({"subscribe": None, "subscribePattern": "(unclosed"}, "'subscribePattern': not a valid regular expression"),
    ({"subscribe": None, "assign": "t:0"}, "for option 'assign': not valid JSON"),
    ({"subscribe": None, "assign": '{"t": [-1]}'}, "option 'assign': partition -1"),
    ({"startingOffsets": "beginning"}, "for option 'startingOffsets': expected 'earliest', 'latest' or a JSON"),
    ({"startingOffsets": '{"t": {"0": }'}, "for option 'startingOffsets': not valid JSON"),
    ({"startingOffsets": '{"t": {"zero": 1}}'}, "option 'startingOffsets': partition 'zero'"),
    ({"endingOffsets": '{"t": [1]}'}, "option 'endingOffsets'"),
    ({"startingOffsetsByTimestamp": '{"t": {"0": "noon"}}'}, "option 'startingOffsetsByTimestamp'"),
    ({"endingOffsetsByTimestamp": "{"}, "option 'endingOffsetsByTimestamp': not valid JSON"),
    ({"startingTimestamp": "yesterday"}, "option 'startingTimestamp': expected a timestamp in milliseconds"),
    ({"endingTimestamp": "-5"}, "option 'endingTimestamp'"),
    (
        {"startingOffsetsByTimestampStrategy": "earliest"},
        "'startingOffsetsByTimestampStrategy': expected one of error, latest",
    ),
    (
        {"maxOffsetsPerTrigger": "-5"},
        "Invalid value '-5' for option 'maxOffsetsPerTrigger': expected a positive integer",
    ),
    ({"maxOffsetsPerTrigger": "0"}, "option 'maxOffsetsPerTrigger'"),
    ({"maxOffsetsPerTrigger": "lots"}, "option 'maxOffsetsPerTrigger'"),
    ({"minOffsetsPerTrigger": "-1"}, "option 'minOffsetsPerTrigger'"),
    ({"minOffsetsPerTrigger": "10", "maxOffsetsPerTrigger": "5"}, "'minOffsetsPerTrigger' (10) must not exceed"),
    ({"maxTriggerDelay": "soon"}, "option 'maxTriggerDelay': expected a duration"),
    ({"minPartitions": "0"}, "Invalid value '0' for option 'minPartitions': expected a positive integer"),
    ({"maxRecordsPerPartition": "-3"}, "option 'maxRecordsPerPartition'"),
    ({"failOnDataLoss": "maybe"}, "for option 'failOnDataLoss': expected 'true' or 'false'"),
    ({"includeHeaders": "yes"}, "for option 'includeHeaders'"),
    ({"kafkaConsumer.pollTimeoutMs": "-1"}, "option 'kafkaConsumer.pollTimeoutMs'"),
    ({"fetchOffset.numRetries": "-1"}, "option 'fetchOffset.numRetries'"),
    ({"fetchOffset.retryIntervalMs": "1s"}, "option 'fetchOffset.retryIntervalMs'"),
    ({"kafka.auto.offset.reset": "earliest"}, "Kafka option 'auto.offset.reset' is not supported"),
    ({"kafka.key.deserializer": "x"}, "Kafka option 'key.deserializer' is not supported"),
    ({"kafka.value.deserializer": "x"}, "Kafka option 'value.deserializer' is not supported"),
    ({"kafka.enable.auto.commit": "true"}, "Kafka option 'enable.auto.commit' is not supported"),
    ({"kafka.interceptor.classes": "x"}, "Kafka option 'interceptor.classes' is not supported"),
    ({"kafka.value.serializer": "x"}, "Kafka option 'value.serializer' is not supported"),
    ({"kafka.security.protocol": "SASL_SSL"}, "for option 'kafka.sasl.mechanism': pykafka's clients speak"),
    ({"kafka.security.protocol": "TLS"}, "for option 'kafka.security.protocol': expected one of"),
    ({"kafka.isolation.level": "serializable"}, "'kafka.isolation.level': expected 'read_uncommitted' or"),
    ({"kafka.max.partition.fetch.bytes": "0"}, "'kafka.max.partition.fetch.bytes'"),
]


@pytest.mark.parametrize("options, message", LOAD_ERRORS, ids=[m[:40] for _, m in LOAD_ERRORS])
def test_parse_errors(options: dict[str, Any], message: str) -> None:
    """The same validation, without Spark (fast, exact exception type)."""
    with pytest.raises(SourceOptionError) as e:
        parse_source_options(_opts(**options))
    assert message in str(e.value)


@pytest.mark.parametrize("options, message", LOAD_ERRORS, ids=[m[:40] for _, m in LOAD_ERRORS])
def test_bad_options_fail_at_load(spark: Any, options: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception) as e:
        spark.read.format("pykafka").options(**_opts(**options)).load()
    assert message in str(e.value)


# streams run the same validation at readStream...load(): one case per kind of check is enough
STREAM_LOAD_ERRORS = [LOAD_ERRORS[i] for i in (0, 3, 4, 11, 20, 25, 33, 39)]


@pytest.mark.parametrize("options, message", STREAM_LOAD_ERRORS, ids=[m[:40] for _, m in STREAM_LOAD_ERRORS])
def test_bad_options_fail_stream_at_load(spark: Any, options: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception) as e:
        spark.readStream.format("pykafka").options(**_opts(**options)).load()
    assert message in str(e.value)


def test_option_names_are_case_insensitive_and_defaults() -> None:
    opts = parse_source_options({"KAFKA.BOOTSTRAP.SERVERS": BOOT, "SUBSCRIBE": "a,b,a", "MaxOffsetsPerTrigger": "7"})
    assert opts.subscription.topics == ("a", "b")
    assert opts.max_offsets_per_trigger == 7
    assert opts.fail_on_data_loss is True and opts.include_headers is False
    assert opts.poll_timeout_ms == DEFAULT_POLL_TIMEOUT_MS
    assert opts.fetch_offset_num_retries == DEFAULT_FETCH_OFFSET_RETRIES
    assert opts.fetch_offset_retry_interval_ms == DEFAULT_FETCH_OFFSET_RETRY_INTERVAL_MS
    assert opts.max_trigger_delay_ms == DEFAULT_MAX_TRIGGER_DELAY_MS
    assert opts.starting is None and opts.ending is None
    assert opts.client.client_id.startswith("spark-kafka-source-")


def test_group_id_prefix_and_group_id_name_the_client() -> None:
    opts = parse_source_options(_opts(groupIdPrefix="etl"))
    assert opts.client.client_id.startswith("etl-") and opts.group_id is None
    opts = parse_source_options(_opts(groupIdPrefix="etl", **{"kafka.group.id": "fixed"}))
    assert opts.client.client_id == "fixed" and opts.group_id == "fixed"
    # a group id alone keeps Spark's meaning (issue 20): no group mode, every partition is read;
    # `groupMode` = `true` switches group mode on (tests/spark/test_group_mode.py)
    assert opts.group is None
    opts = parse_source_options(_opts(**{"kafka.group.id": "fixed", "groupMode": "TRUE"}))
    assert opts.group is not None and opts.group.group_id == "fixed"
    opts = parse_source_options(_opts(**{"kafka.group.id": "fixed", "kafka.client.id": "mine"}))
    assert opts.client.client_id == "mine"


def test_durations() -> None:
    assert parse_duration_ms("15m", "maxTriggerDelay") == 900_000
    assert parse_duration_ms("30 seconds", "maxTriggerDelay") == 30_000
    assert parse_duration_ms("250ms", "maxTriggerDelay") == 250
    assert parse_duration_ms("2000", "maxTriggerDelay") == 2000
    with pytest.raises(SourceOptionError):
        parse_duration_ms("1 fortnight", "maxTriggerDelay")


BATCH_ERRORS = [
    ({"startingOffsets": "latest"}, "starting offset can't be latest for batch queries"),
    ({"startingOffsets": '{"t": {"0": -1}}'}, "starting offset for t-0 can't be latest (-1) for batch queries"),
    ({"endingOffsets": "earliest"}, "ending offset can't be earliest for batch queries"),
    ({"endingOffsets": '{"t": {"0": -2}}'}, "ending offset for t-0 can't be earliest (-2) for batch queries"),
]


@pytest.mark.parametrize("options, message", BATCH_ERRORS)
def test_batch_only_rules_fail_at_first_action(spark: Any, options: dict[str, str], message: str) -> None:
    df = spark.read.format("pykafka").options(**_opts(**options)).load()
    with pytest.raises(Exception) as e:
        df.count()
    assert message in str(e.value)


def _start_and_fail(spark: Any, options: dict[str, str], tmp: str) -> str:
    from pyspark.errors import StreamingQueryException

    q = (
        spark.readStream.format("pykafka")
        .options(**options)
        .load()
        .writeStream.format("noop")
        .option("checkpointLocation", tmp)
        .start()
    )
    try:
        with pytest.raises(StreamingQueryException) as e:
            q.awaitTermination(60)
        return str(e.value)
    finally:
        q.stop()


@pytest.mark.parametrize("option", ["endingOffsets", "endingTimestamp", "endingOffsetsByTimestamp"])
def test_ending_options_fail_a_stream_at_start(spark: Any, option: str, tmp_path: Any) -> None:
    value = {"endingOffsets": "latest", "endingTimestamp": "1000", "endingOffsetsByTimestamp": '{"t": {"0": 1}}'}
    msg = _start_and_fail(spark, _opts(**{option: value[option]}), str(tmp_path))
    assert f"Option '{option}' is not valid in streaming queries" in msg


def test_user_schema_is_refused(spark: Any, tmp_path: Any) -> None:
    df = spark.read.format("pykafka").options(**_opts()).schema("value string").load()
    with pytest.raises(Exception, match="fixed schema and cannot be set with a custom one"):
        df.count()
    stream = spark.readStream.format("pykafka").options(**_opts()).schema("value string").load()
    q = stream.writeStream.format("noop").option("checkpointLocation", str(tmp_path)).start()
    try:
        with pytest.raises(Exception, match="fixed schema"):
            q.awaitTermination(60)
    finally:
        q.stop()


def test_specific_offsets_must_name_every_partition(spark: Any, broker: EmbeddedBroker, topic_name: str) -> None:
    create_topic(broker, topic_name, 2)
    start = json.dumps({topic_name: {"0": 0}})
    df = (
        spark.read.format("pykafka")
        .options(
            **{"kafka.bootstrap.servers": broker.bootstrap_servers, "subscribe": topic_name, "startingOffsets": start}
        )
        .load()
    )
    with pytest.raises(Exception, match="must name every partition of the subscription"):
        df.count()


def test_fetch_offset_retries(broker: EmbeddedBroker, topic_name: str) -> None:
    """fetchOffset.numRetries / retryIntervalMs bound the driver's offset lookups."""
    create_topic(broker, topic_name, 1)
    produce(broker, topic_name, [(0, None, b"x", None)])
    client = KafkaClient(ClientConfig(bootstrap_servers=broker.bootstrap_servers))
    try:
        assert client.list_offsets({(topic_name, 0): -1}, retries=0) == {(topic_name, 0): (1, -1)}
        t0 = time.monotonic()
        with pytest.raises(KafkaClientError, match=r"after 3 attempt\(s\) \(fetchOffset.numRetries=2\)"):
            client.list_offsets({("missing-topic", 0): -1}, retries=2, retry_interval_ms=200)
        assert 0.4 <= time.monotonic() - t0 < 10
    finally:
        client.close()
