"""The admin APIs of confluent-kafka (AdminClient), kafka-python (KafkaAdminClient) and aiokafka
(AIOKafkaAdminClient) against the embedded broker: topics, partitions, configs, records, cluster.

Each client sits behind a small adapter returning Kafka error codes (0 = success), so every
scenario runs unchanged against all three; what a client cannot do is skipped with the reason.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from broker_embedded.config import TOPIC_CONFIGS
from kafka_wire.errors import ErrorCode
from tests.integration.clients_util import CLIENTS, LOOKUPS, ck_produce, hw, log_start, make_specs
from tests.peers.fixtures import is_apache, ours_only

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DYNAMIC_TOPIC_CONFIG = 1
STATIC_BROKER_CONFIG = 4
DEFAULT_CONFIG = 5

# Kafka's topic configs any client is likely to rely on (all must be described)
CORE_TOPIC_CONFIGS = {
    "cleanup.policy": "delete",
    "compression.type": "producer",
    "delete.retention.ms": "86400000",
    "max.message.bytes": "1048588",
    "message.timestamp.type": "CreateTime",
    "min.insync.replicas": "1",
    "retention.bytes": "-1",
    "retention.ms": "604800000",
    "segment.bytes": "1073741824",
    "segment.ms": "604800000",
}

_KP_ERROR = re.compile(r"\[Error (\d+)\]")


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    """Differential: every test of this module runs against our broker, then real Apache Kafka."""
    return either_broker


def _code(e: BaseException) -> int:
    """The Kafka error code carried by a client's exception."""
    args = getattr(e, "args", ())
    if args and hasattr(args[0], "code"):  # confluent KafkaException(KafkaError)
        return int(args[0].code())
    errno = getattr(e, "errno", None)
    if isinstance(errno, int):
        return errno
    raise e


class Described(dict):
    """name -> (value, source, is_default or None when the client does not say)."""


# --------------------------------------------------------------------------------------------
# adapters
# --------------------------------------------------------------------------------------------


class CkAdmin:
    name = "confluent"
    incremental = True
    describe_errors = True

    def __init__(self, bootstrap: str) -> None:
        from confluent_kafka.admin import AdminClient

        self.a = AdminClient({"bootstrap.servers": bootstrap})

    def _wait(self, futures: dict[Any, Any]) -> int:
        try:
            for f in futures.values():
                f.result(timeout=15)
        except Exception as e:
            return _code(e)
        return 0

    def create_topic(self, name: str, partitions: int = -1, rf: int = -1, configs: dict | None = None) -> int:
        from confluent_kafka.admin import NewTopic

        nt = NewTopic(name, num_partitions=partitions, replication_factor=rf, config=dict(configs or {}))
        return self._wait(self.a.create_topics([nt], request_timeout=15))

    def list_topics(self) -> set[str]:
        return set(self.a.list_topics(timeout=10).topics)

    def describe_topic(self, name: str) -> tuple[int, dict[str, Any]]:
        from confluent_kafka import TopicCollection

        try:
            d = self.a.describe_topics(TopicCollection([name]))[name].result(timeout=15)
        except Exception as e:
            return _code(e), {}
        parts = [(p.id, p.leader.id, [r.id for r in p.replicas], [r.id for r in p.isr]) for p in d.partitions]
        return 0, {"topic_id": str(d.topic_id), "partitions": sorted(parts), "internal": d.is_internal}

    def create_partitions(self, name: str, count: int) -> int:
        from confluent_kafka.admin import NewPartitions

        return self._wait(self.a.create_partitions([NewPartitions(name, count)], request_timeout=15))

    def describe_configs(self, name: str) -> tuple[int, Described]:
        from confluent_kafka.admin import ConfigResource, ResourceType

        res = ConfigResource(ResourceType.TOPIC, name)
        try:
            entries = self.a.describe_configs([res], request_timeout=15)[res].result(timeout=15)
        except Exception as e:
            return _code(e), Described()
        return 0, Described({k: (v.value, int(v.source), v.is_default) for k, v in entries.items()})

    def alter_configs(self, name: str, configs: dict[str, str]) -> int:
        from confluent_kafka.admin import ConfigResource, ResourceType

        res = ConfigResource(ResourceType.TOPIC, name, set_config=configs)
        return self._wait(self.a.alter_configs([res], request_timeout=15))

    def incremental_alter(self, name: str, ops: list[tuple[str, str, str | None]]) -> int:
        from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

        entries = [ConfigEntry(k, v, incremental_operation=AlterConfigOpType[op]) for k, op, v in ops]
        res = ConfigResource(ResourceType.TOPIC, name, incremental_configs=entries)
        return self._wait(self.a.incremental_alter_configs([res], request_timeout=15))

    def delete_records(self, name: str, partition: int, offset: int) -> tuple[int, int | None]:
        from confluent_kafka import TopicPartition

        try:
            (f,) = self.a.delete_records([TopicPartition(name, partition, offset)], request_timeout=15).values()
            return 0, f.result(timeout=15).low_watermark
        except Exception as e:
            return _code(e), None

    def describe_cluster(self) -> tuple[str, int, list[tuple[int, str, int]]]:
        c = self.a.describe_cluster(request_timeout=15).result(timeout=15)
        return c.cluster_id, c.controller.id, [(n.id, n.host, n.port) for n in c.nodes]

    def delete_topic(self, name: str) -> int:
        return self._wait(self.a.delete_topics([name], request_timeout=15))

    def close(self) -> None:
        pass


class KpAdmin:
    """kafka-python's describe_configs drops a resource's error (an unknown topic describes as {})."""

    name = "kafka-python"
    incremental = True
    describe_errors = False

    def __init__(self, bootstrap: str) -> None:
        from kafka.admin import KafkaAdminClient

        self.a = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=15_000)

    def create_topic(self, name: str, partitions: int = -1, rf: int = -1, configs: dict | None = None) -> int:
        spec = {name: {"num_partitions": partitions, "replication_factor": rf, "configs": dict(configs or {})}}
        (t,) = self.a.create_topics(spec, raise_errors=False)["topics"]
        return t["error_code"]

    def list_topics(self) -> set[str]:
        return set(self.a.list_topics())

    def describe_topic(self, name: str) -> tuple[int, dict[str, Any]]:
        (t,) = self.a.describe_topics([name])
        if t["error_code"]:
            return t["error_code"], {}
        parts = [(p["partition_index"], p["leader_id"], p["replica_nodes"], p["isr_nodes"]) for p in t["partitions"]]
        return 0, {"topic_id": t["topic_id"], "partitions": sorted(parts), "internal": t["is_internal"]}

    def create_partitions(self, name: str, count: int) -> int:
        (r,) = self.a.create_partitions({name: count}, raise_errors=False).results
        return r.error_code

    def describe_configs(self, name: str) -> tuple[int, Described]:
        from kafka.admin import ConfigResource, ConfigSourceType

        try:
            out = self.a.describe_configs([ConfigResource("TOPIC", name)], config_filter="all")
        except Exception as e:
            return _code(e), Described()
        entries = out["topic"][name]
        if isinstance(entries, str):  # an error, as text
            return int(_KP_ERROR.search(entries).group(1)), Described()  # type: ignore[union-attr]
        return 0, Described(
            {k: (v["value"], int(ConfigSourceType[v["config_source"]]), None) for k, v in entries.items()}
        )

    def _alter(self, name: str, configs: dict[str, Any], incremental: bool) -> int:
        from kafka.admin import ConfigResource

        result = self.a.alter_configs(
            [ConfigResource("TOPIC", name, configs)], incremental=incremental, raise_on_unknown=False
        )
        text = result["topic"][name]
        if text == "OK":
            return 0
        return int(_KP_ERROR.search(str(text)).group(1))  # type: ignore[union-attr]

    def alter_configs(self, name: str, configs: dict[str, str]) -> int:
        # kafka-python's legacy path re-sends the other modified keys (AlterConfigs resets
        # omitted ones), so it does not reset them
        return self._alter(name, configs, incremental=False)

    def incremental_alter(self, name: str, ops: list[tuple[str, str, str | None]]) -> int:
        return self._alter(name, {k: (op, v) for k, op, v in ops}, incremental=True)

    def delete_records(self, name: str, partition: int, offset: int) -> tuple[int, int | None]:
        from kafka import TopicPartition

        tp = TopicPartition(name, partition)
        try:
            r = self.a.delete_records({tp: offset})[tp]
        except Exception as e:
            return _code(e), None
        return r["error_code"], r["low_watermark"]

    def describe_cluster(self) -> tuple[str, int, list[tuple[int, str, int]]]:
        c = self.a.describe_cluster()
        return c["cluster_id"], c["controller_id"], [(b["broker_id"], b["host"], b["port"]) for b in c["brokers"]]

    def delete_topic(self, name: str) -> int:
        (t,) = self.a.delete_topics([name], raise_errors=False)["topics"]
        return t["error_code"]

    def close(self) -> None:
        self.a.close()


class AioAdmin:
    """aiokafka has no IncrementalAlterConfigs and no topic ids (Metadata v1, which also
    auto-creates: describe_topic is only called for topics that exist)."""

    name = "aiokafka"
    incremental = False
    describe_errors = True

    def __init__(self, bootstrap: str) -> None:
        from aiokafka.admin import AIOKafkaAdminClient

        async def start() -> Any:
            a = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=15_000)
            await a.start()
            return a

        self.loop = asyncio.new_event_loop()
        self.a = self.loop.run_until_complete(start())

    def _run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def create_topic(self, name: str, partitions: int = -1, rf: int = -1, configs: dict | None = None) -> int:
        from aiokafka.admin import NewTopic

        r = self._run(self.a.create_topics([NewTopic(name, partitions, rf, topic_configs=dict(configs or {}))]))
        ((_, code, _msg),) = r.topic_errors
        return code

    def list_topics(self) -> set[str]:
        return set(self._run(self.a.list_topics()))

    def describe_topic(self, name: str) -> tuple[int, dict[str, Any]]:
        (t,) = self._run(self.a.describe_topics([name]))
        if t["error_code"]:
            return t["error_code"], {}
        parts = [(p["partition"], p["leader"], p["replicas"], p["isr"]) for p in t["partitions"]]
        return 0, {"topic_id": None, "partitions": sorted(parts), "internal": t["is_internal"]}

    def create_partitions(self, name: str, count: int) -> int:
        from aiokafka.admin import NewPartitions

        try:
            self._run(self.a.create_partitions({name: NewPartitions(count)}))
        except Exception as e:
            return _code(e)
        return 0

    def describe_configs(self, name: str) -> tuple[int, Described]:
        from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

        (resp,) = self._run(self.a.describe_configs([ConfigResource(ConfigResourceType.TOPIC, name)]))
        ((code, _msg, _type, _name, entries),) = resp.resources
        if code:
            return code, Described()
        return 0, Described({e[0]: (e[1], e[3], None) for e in entries})

    def alter_configs(self, name: str, configs: dict[str, str]) -> int:
        from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

        (resp,) = self._run(self.a.alter_configs([ConfigResource(ConfigResourceType.TOPIC, name, configs)]))
        ((code, _msg, _type, _name),) = resp.resources
        return code

    def incremental_alter(self, name: str, ops: list[tuple[str, str, str | None]]) -> int:
        raise NotImplementedError

    def delete_records(self, name: str, partition: int, offset: int) -> tuple[int, int | None]:
        from aiokafka import TopicPartition
        from aiokafka.admin import RecordsToDelete

        tp = TopicPartition(name, partition)
        try:
            return 0, self._run(self.a.delete_records({tp: RecordsToDelete(offset)}))[tp]
        except Exception as e:
            return _code(e), None

    def describe_cluster(self) -> tuple[str, int, list[tuple[int, str, int]]]:
        c = self._run(self.a.describe_cluster())
        return c["cluster_id"], c["controller_id"], [(b["node_id"], b["host"], b["port"]) for b in c["brokers"]]

    def delete_topic(self, name: str) -> int:
        r = self._run(self.a.delete_topics([name]))
        ((_, code),) = r.topic_error_codes
        return code

    def close(self) -> None:
        self._run(self.a.close())
        self.loop.close()


ADMINS = {"confluent": CkAdmin, "kafka-python": KpAdmin, "aiokafka": AioAdmin}


@pytest.fixture(params=CLIENTS)
def admin(request, broker) -> Iterator[Any]:
    a = ADMINS[request.param](broker.bootstrap_servers)
    try:
        yield a
    finally:
        a.close()


def _once_known(broker: Any, ask: Callable[[], tuple[int, Any]]) -> tuple[int, Any]:
    """`ask()` right after a CreateTopics; on Apache Kafka, again while it answers UNKNOWN_TOPIC_OR_PARTITION.

    Apache Kafka answers CreateTopics once its controller committed the topic; the broker's metadata
    cache learns of it a moment later. Ours creates the topic before it answers: asked once.
    """
    deadline = time.monotonic() + 10
    code, got = ask()
    while code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION and is_apache(broker) and time.monotonic() < deadline:
        time.sleep(0.1)
        code, got = ask()
    return code, got


def _topic(b: Any, name: str) -> Any:
    return b.call(lambda broker: broker.topics.get(name))


# --------------------------------------------------------------------------------------------
# topics
# --------------------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_create_topic_with_configs(admin, broker, topic_name):
    ours_only(broker)  # looks inside our broker
    configs = {"retention.ms": "12345", "cleanup.policy": "compact", "max.message.bytes": "2000000"}
    assert admin.create_topic(topic_name, 3, 1, configs) == 0
    assert topic_name in admin.list_topics()
    code, d = admin.describe_topic(topic_name)
    assert code == 0
    assert d["partitions"] == [(i, 0, [0], [0]) for i in range(3)]
    assert d["internal"] is False
    meta = _topic(broker, topic_name)
    if d["topic_id"] is not None:  # the same id the broker keeps (clients print it differently)
        assert d["topic_id"] in (str(uuid.UUID(bytes=meta.topic_id)), _b64_uuid(meta.topic_id))
    code, described = admin.describe_configs(topic_name)
    assert code == 0
    for k, v in configs.items():
        assert described[k][:2] == (v, DYNAMIC_TOPIC_CONFIG), k
        assert described[k][2] in (None, False)


def _b64_uuid(raw: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(raw).decode().rstrip("=").replace("-", "+").replace("_", "/")


@pytest.mark.timeout(60)
def test_create_topic_with_broker_defaults(admin, broker, topic_name):
    """num_partitions / replication_factor -1: the broker's num.partitions (4 here) and 1."""
    if admin.name == "aiokafka":
        pytest.skip("aiokafka requires num_partitions and replication_factor")
    assert admin.create_topic(topic_name) == 0
    code, d = _once_known(broker, lambda: admin.describe_topic(topic_name))
    assert code == 0 and [p[0] for p in d["partitions"]] == [0, 1, 2, 3]


@pytest.mark.timeout(60)
def test_create_topic_errors(admin, broker, topic_name):
    ours_only(broker)  # looks inside our broker
    assert admin.create_topic(topic_name, 1, 1) == 0
    cases = [
        ((topic_name, 1, 1), ErrorCode.TOPIC_ALREADY_EXISTS),
        (("bad name!", 1, 1), ErrorCode.INVALID_TOPIC_EXCEPTION),
        (("..", 1, 1), ErrorCode.INVALID_TOPIC_EXCEPTION),
        (("x" * 250, 1, 1), ErrorCode.INVALID_TOPIC_EXCEPTION),
        ((f"{topic_name}-rf2", 1, 2), ErrorCode.INVALID_REPLICATION_FACTOR),
        ((f"{topic_name}-p0", 0, 1), ErrorCode.INVALID_PARTITIONS),
    ]
    for args, want in cases:
        assert admin.create_topic(*args) == want, args[0][:40]
    bad_configs = [{"retention.ms": "abc"}, {"cleanup.policy": "shred"}, {"no.such.config": "1"}]
    for i, configs in enumerate(bad_configs):
        assert admin.create_topic(f"{topic_name}-c{i}", 1, 1, configs) == ErrorCode.INVALID_CONFIG, configs
    # nothing half-created
    assert {t for t in admin.list_topics() if t.startswith(topic_name)} == {topic_name}
    assert _topic(broker, "bad name!") is None


@pytest.mark.timeout(60)
def test_create_partitions(admin, broker, topic_name):
    ours_only(broker)  # looks inside our broker
    assert admin.create_topic(topic_name, 4, 1) == 0
    assert admin.create_partitions(topic_name, 6) == 0
    code, d = admin.describe_topic(topic_name)
    assert code == 0 and [p[0] for p in d["partitions"]] == list(range(6))
    # the new partitions take records
    ck_produce(broker.bootstrap_servers, topic_name, make_specs(12, partitions=6))
    assert [hw(broker, topic_name, p) for p in range(6)] == [2] * 6
    assert admin.create_partitions(topic_name, 3) == ErrorCode.INVALID_PARTITIONS  # shrink
    assert admin.create_partitions(topic_name, 6) == ErrorCode.INVALID_PARTITIONS  # no change
    assert admin.create_partitions(f"{topic_name}-none", 8) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert _topic(broker, topic_name).num_partitions == 6


# --------------------------------------------------------------------------------------------
# configs
# --------------------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_describe_configs_every_topic_config(admin, broker, topic_name):
    assert admin.create_topic(topic_name, 1, 1, {"retention.ms": "3600000"}) == 0
    code, described = _once_known(broker, lambda: admin.describe_configs(topic_name))
    assert code == 0
    missing = (set(TOPIC_CONFIGS) | set(CORE_TOPIC_CONFIGS)) - set(described)
    assert not missing, f"not described: {sorted(missing)}"
    assert described["retention.ms"][:2] == ("3600000", DYNAMIC_TOPIC_CONFIG)
    assert described["retention.ms"][2] in (None, False)
    for name, default in CORE_TOPIC_CONFIGS.items():
        if name == "retention.ms":
            continue
        value, source, is_default = described[name]
        if is_apache(broker) and name == "min.insync.replicas":
            # Apache Kafka 4.x formats KRaft storage with min.insync.replicas as a cluster-wide
            # dynamic default (DYNAMIC_DEFAULT_BROKER_CONFIG, 3), same value (README: differences)
            assert (value, source) == (default, 3), name
            continue
        assert (value, source) == (default, DEFAULT_CONFIG), name
        assert is_default in (None, True), name
    for name, (value, source, _) in described.items():
        allowed = (DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG) + ((3,) if is_apache(broker) else ())
        assert value is not None and source in allowed, name
    if admin.describe_errors:
        assert admin.describe_configs(f"{topic_name}-none")[0] == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


@pytest.mark.timeout(60)
def test_describe_configs_synonyms_and_broker_resource(broker, topic_name):
    """confluent asks for synonyms; a broker resource lists the broker's own configs."""
    from confluent_kafka.admin import AdminClient, ConfigResource, ResourceType

    a = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    assert CkAdmin(broker.bootstrap_servers).create_topic(topic_name, 1, 1, {"retention.ms": "3600000"}) == 0
    res = ConfigResource(ResourceType.TOPIC, topic_name)
    _, described = _once_known(broker, lambda: CkAdmin(broker.bootstrap_servers).describe_configs(topic_name))
    assert "retention.ms" in described  # known to the broker: the synonyms below ask it once
    entry = a.describe_configs([res])[res].result(timeout=15)["retention.ms"]
    syn = {name: (e.value, int(e.source)) for name, e in entry.synonyms.items()}
    assert syn["retention.ms"] == ("3600000", DYNAMIC_TOPIC_CONFIG)
    # no DEFAULT_CONFIG synonym: log.retention.ms has no default in Kafka (168 h is log.retention.hours'),
    # and Kafka's synonym list starts at the broker config of that very name
    assert syn == {"retention.ms": ("3600000", DYNAMIC_TOPIC_CONFIG)}
    res = ConfigResource(ResourceType.BROKER, "0")
    entries = a.describe_configs([res])[res].result(timeout=15)
    # the fixture broker was started with num_partitions=4: a static broker config
    assert (entries["num.partitions"].value, int(entries["num.partitions"].source)) == ("4", STATIC_BROKER_CONFIG)
    assert entries["num.partitions"].is_read_only


@pytest.mark.timeout(60)
def test_alter_configs_replaces_the_overrides(admin, broker, topic_name):
    """Legacy AlterConfigs: the request's set replaces every override (confluent, aiokafka);
    kafka-python re-sends the other overrides itself, so they stay."""
    ours_only(broker)  # looks inside our broker
    assert admin.create_topic(topic_name, 1, 1, {"cleanup.policy": "compact", "retention.ms": "12345"}) == 0
    assert admin.alter_configs(topic_name, {"retention.ms": "1000", "segment.ms": "60000"}) == 0
    code, described = admin.describe_configs(topic_name)
    assert code == 0
    assert described["retention.ms"][:2] == ("1000", DYNAMIC_TOPIC_CONFIG)
    assert described["segment.ms"][:2] == ("60000", DYNAMIC_TOPIC_CONFIG)
    if admin.name == "kafka-python":
        assert described["cleanup.policy"][:2] == ("compact", DYNAMIC_TOPIC_CONFIG)
    else:
        assert described["cleanup.policy"][:2] == ("delete", DEFAULT_CONFIG)
    # the broker applies it to the log
    assert broker.call(lambda b: b.partition(topic_name, 0).log.config.retention_ms) == 1000
    # an invalid value is refused and changes nothing
    assert admin.alter_configs(topic_name, {"retention.ms": "abc"}) == ErrorCode.INVALID_CONFIG
    assert admin.alter_configs(topic_name, {"no.such.config": "1"}) == ErrorCode.INVALID_CONFIG
    assert admin.describe_configs(topic_name)[1]["retention.ms"][:2] == ("1000", DYNAMIC_TOPIC_CONFIG)
    assert admin.alter_configs(f"{topic_name}-none", {"retention.ms": "1"}) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


@pytest.mark.timeout(60)
def test_incremental_alter_configs(admin, broker, topic_name):
    ours_only(broker)  # looks inside our broker
    if not admin.incremental:
        pytest.skip(f"{admin.name} has no IncrementalAlterConfigs")
    assert admin.create_topic(topic_name, 1, 1, {"retention.ms": "12345"}) == 0

    def described(name: str) -> tuple[str, int]:
        code, d = admin.describe_configs(topic_name)
        assert code == 0
        return d[name][:2]

    assert admin.incremental_alter(topic_name, [("segment.ms", "SET", "60000")]) == 0
    assert described("segment.ms") == ("60000", DYNAMIC_TOPIC_CONFIG)
    assert described("retention.ms") == ("12345", DYNAMIC_TOPIC_CONFIG)  # untouched
    # APPEND to the default list, then SUBTRACT
    assert admin.incremental_alter(topic_name, [("cleanup.policy", "APPEND", "compact")]) == 0
    assert described("cleanup.policy") == ("delete,compact", DYNAMIC_TOPIC_CONFIG)
    assert broker.call(lambda b: b.partition(topic_name, 0).log.config.compact_enabled)
    assert admin.incremental_alter(topic_name, [("cleanup.policy", "APPEND", "compact")]) == 0  # no duplicate
    assert described("cleanup.policy") == ("delete,compact", DYNAMIC_TOPIC_CONFIG)
    assert admin.incremental_alter(topic_name, [("cleanup.policy", "SUBTRACT", "delete")]) == 0
    assert described("cleanup.policy") == ("compact", DYNAMIC_TOPIC_CONFIG)
    # DELETE: back to the default
    assert admin.incremental_alter(topic_name, [("retention.ms", "DELETE", None)]) == 0
    assert described("retention.ms") == ("604800000", DEFAULT_CONFIG)
    # refused: invalid value, unknown name, APPEND to a non-list; nothing changes
    assert admin.incremental_alter(topic_name, [("segment.ms", "SET", "abc")]) == ErrorCode.INVALID_CONFIG
    assert admin.incremental_alter(topic_name, [("cleanup.policy", "SET", "shred")]) == ErrorCode.INVALID_CONFIG
    assert admin.incremental_alter(topic_name, [("no.such.config", "SET", "1")]) == ErrorCode.INVALID_CONFIG
    assert admin.incremental_alter(topic_name, [("segment.ms", "APPEND", "1")]) == ErrorCode.INVALID_CONFIG
    assert described("segment.ms") == ("60000", DYNAMIC_TOPIC_CONFIG)
    assert described("cleanup.policy") == ("compact", DYNAMIC_TOPIC_CONFIG)


@pytest.mark.timeout(60)
def test_empty_cleanup_policy_is_answered(broker, topic_name):
    """Kafka 4.0 accepts an empty cleanup.policy list (no cleanup at all); refusing it with
    INVALID_CONFIG would be fine too. Not fine: no answer, and a topic left half-configured."""
    admin = CkAdmin(broker.bootstrap_servers)
    assert admin.create_topic(topic_name, 1, 1) == 0
    code = admin.incremental_alter(topic_name, [("cleanup.policy", "SUBTRACT", "delete")])
    assert code in (0, ErrorCode.INVALID_CONFIG)
    described = admin.describe_configs(topic_name)[1]["cleanup.policy"][:2]
    if code == ErrorCode.INVALID_CONFIG:
        assert described == ("delete", DEFAULT_CONFIG)
    else:
        assert described == ("", DYNAMIC_TOPIC_CONFIG)
    # whatever the answer, the topic still works
    ck_produce(broker.bootstrap_servers, topic_name, make_specs(3, partitions=1))
    assert admin.create_topic(f"{topic_name}-c", 1, 1, {"cleanup.policy": ""}) in (0, ErrorCode.INVALID_CONFIG)


# --------------------------------------------------------------------------------------------
# records
# --------------------------------------------------------------------------------------------


def _first_offset_from_beginning(client: str, bootstrap: str, topic: str, partition: int) -> int:
    """The first record a consumer of `client` reads when it starts at offset 0 (confluent: at
    OFFSET_BEGINNING — an explicit 0 below the log start hits the null-records fetch bug, see
    test_clients_fetch)."""
    from tests.integration.clients_util import consume_with

    if client == "confluent":
        from confluent_kafka import OFFSET_BEGINNING

        got = consume_with(client, bootstrap, topic, [partition], 1, start=OFFSET_BEGINNING, timeout=15)
    else:
        got = consume_with(client, bootstrap, topic, [partition], 1, start=0, timeout=15)
    return got[partition][0].offset


@pytest.mark.timeout(60)
def test_delete_records(admin, broker, topic_name):
    assert admin.create_topic(topic_name, 2, 1) == 0
    ck_produce(broker.bootstrap_servers, topic_name, make_specs(100, partitions=2))
    assert admin.delete_records(topic_name, 0, 30) == (0, 30)
    assert log_start(broker, topic_name, 0) == 30
    assert admin.delete_records(topic_name, 0, 10) == (0, 30)  # never backwards
    assert admin.delete_records(topic_name, 1, -1) == (0, 50)  # -1: up to the high watermark
    assert admin.delete_records(topic_name, 0, 51)[0] == ErrorCode.OFFSET_OUT_OF_RANGE  # beyond the HW
    # no partition 5: the broker says UNKNOWN_TOPIC_OR_PARTITION; librdkafka (_NOENT, -156) and
    # aiokafka (no leader: NOT_LEADER_OR_FOLLOWER) refuse it from their metadata first
    assert admin.delete_records(topic_name, 5, 1)[0] == {"confluent": -156, "aiokafka": 6}.get(
        admin.name, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    )
    # earliest ListOffsets is the new low watermark, and consumers from 0 start there
    lk = LOOKUPS[admin.name](broker.bootstrap_servers)
    try:
        assert lk.earliest(topic_name, 0) == 30
        assert (lk.earliest(topic_name, 1), lk.latest(topic_name, 1)) == (50, 50)
    finally:
        lk.close()
    assert _first_offset_from_beginning(admin.name, broker.bootstrap_servers, topic_name, 0) == 30


# --------------------------------------------------------------------------------------------
# cluster and deletion
# --------------------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_describe_cluster(admin, broker):
    ours_only(broker)  # looks inside our broker
    cluster_id, controller, nodes = admin.describe_cluster()
    assert cluster_id == broker.broker.cluster_id
    assert controller == 0
    host, port = broker.bootstrap_servers.rsplit(":", 1)
    assert nodes == [(0, host, int(port))]


@pytest.mark.timeout(60)
def test_delete_topic_and_recreate(admin, broker, topic_name):
    ours_only(broker)  # looks inside our broker
    from confluent_kafka import Consumer

    assert admin.create_topic(topic_name, 2, 1) == 0
    old_id = _topic(broker, topic_name).topic_id
    ck_produce(broker.bootstrap_servers, topic_name, make_specs(20, partitions=2))
    assert admin.delete_topic(topic_name) == 0
    assert topic_name not in admin.list_topics()
    # (a consumer's metadata request does not auto-create, an AdminClient's would)
    c = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g"})
    md = c.list_topics(topic_name, timeout=10)
    c.close()
    assert md.topics[topic_name].error is not None
    assert md.topics[topic_name].error.code() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert _topic(broker, topic_name) is None
    assert admin.delete_topic(topic_name) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    # re-created: a new topic id and empty logs
    assert admin.create_topic(topic_name, 2, 1) == 0
    new_id = _topic(broker, topic_name).topic_id
    assert new_id != old_id
    code, d = admin.describe_topic(topic_name)
    assert code == 0
    if d["topic_id"] is not None:
        assert d["topic_id"] in (str(uuid.UUID(bytes=new_id)), _b64_uuid(new_id))
    for p in range(2):
        assert (log_start(broker, topic_name, p), hw(broker, topic_name, p)) == (0, 0)
    deliveries = ck_produce(broker.bootstrap_servers, topic_name, make_specs(2, partitions=2))
    assert [(d.partition, d.offset) for d in deliveries] == [(0, 0), (1, 0)]
