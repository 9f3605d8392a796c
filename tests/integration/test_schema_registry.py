"""The schema registry against confluent-kafka's own Schema Registry client, AvroSerializer and
AvroDeserializer (an independent oracle), with its state in `_schemas` on our embedded broker:
register/fetch, Confluent error codes, compatibility, deletes, modes, references, evolution through
the serializers, restart and kill -9 of the registry process keeping ids, two processes sharing a topic."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastavro")
pytest.importorskip("werkzeug")
sr_mod = pytest.importorskip("confluent_kafka.schema_registry")

from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer  # noqa: E402
from confluent_kafka.schema_registry.error import SchemaRegistryError  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

from broker_embedded import EmbeddedBroker  # noqa: E402
from schema_registry import SchemaRegistry  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
V1 = json.dumps({"type": "record", "name": "User", "namespace": "t", "fields": [{"name": "name", "type": "string"}]})
V2 = json.dumps(
    {
        "type": "record",
        "name": "User",
        "namespace": "t",
        "fields": [{"name": "name", "type": "string"}, {"name": "age", "type": ["null", "int"], "default": None}],
    }
)
BAD = json.dumps({"type": "record", "name": "User", "namespace": "t", "fields": [{"name": "name", "type": "int"}]})


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker() as b:
        yield b


@pytest.fixture(scope="module")
def registry(broker: EmbeddedBroker) -> Iterator[SchemaRegistry]:
    with SchemaRegistry(bootstrap_servers=broker.bootstrap_servers) as sr:
        yield sr


@pytest.fixture
def client(registry: SchemaRegistry) -> SchemaRegistryClient:
    return SchemaRegistryClient({"url": registry.url})


def _code(excinfo: pytest.ExceptionInfo) -> tuple[int, int]:
    e = excinfo.value
    return e.http_status_code, e.error_code


def test_register_fetch_and_lookup(client: SchemaRegistryClient) -> None:
    sid = client.register_schema("users-value", Schema(V1, "AVRO"))
    assert client.register_schema("users-value", Schema(V1, "AVRO")) == sid
    fresh = SchemaRegistryClient({"url": client._rest_client.base_urls[0]})  # no cache
    assert json.loads(fresh.get_schema(sid).schema_str) == json.loads(V1)
    latest = fresh.get_latest_version("users-value")
    assert (latest.schema_id, latest.version, latest.subject) == (sid, 1, "users-value")
    found = fresh.lookup_schema("users-value", Schema(V1, "AVRO"))
    assert (found.schema_id, found.version) == (sid, 1)
    assert "users-value" in fresh.get_subjects()
    assert fresh.get_versions("users-value") == [1]
    with pytest.raises(SchemaRegistryError) as ei:
        fresh.get_schema(9999)
    assert _code(ei) == (404, 40403)
    with pytest.raises(SchemaRegistryError) as ei:
        fresh.get_latest_version("no-such-subject")
    assert _code(ei) == (404, 40401)
    with pytest.raises(SchemaRegistryError) as ei:
        fresh.get_version("users-value", 5)
    assert _code(ei) == (404, 40402)
    with pytest.raises(SchemaRegistryError) as ei:
        fresh.register_schema("users-value", Schema('{"type": "nosuchtype"}', "AVRO"))
    assert _code(ei) == (422, 42201)


def test_compatibility_levels_and_checks(client: SchemaRegistryClient) -> None:
    client.register_schema("compat-value", Schema(V1, "AVRO"))
    assert client.get_compatibility() == "BACKWARD"
    assert client.test_compatibility("compat-value", Schema(V2, "AVRO")) is True
    assert client.test_compatibility("compat-value", Schema(BAD, "AVRO")) is False
    with pytest.raises(SchemaRegistryError) as ei:
        client.register_schema("compat-value", Schema(BAD, "AVRO"))
    assert _code(ei) == (409, 409)
    client.set_compatibility("compat-value", "NONE")
    assert client.get_compatibility("compat-value") == "NONE"
    client.register_schema("compat-value", Schema(BAD, "AVRO"))
    client.set_compatibility("compat-value", "FULL_TRANSITIVE")
    assert client.test_compatibility_all_versions("compat-value", Schema(V2, "AVRO")) is False
    with pytest.raises(SchemaRegistryError) as ei:
        client.set_compatibility("compat-value", "SIDEWAYS")
    assert _code(ei) == (422, 42203)


def test_serializer_round_trip_with_evolution(client: SchemaRegistryClient) -> None:
    ctx = SerializationContext("evolve", MessageField.VALUE)
    ser1 = AvroSerializer(client, V1)
    ser2 = AvroSerializer(client, V2)
    b1 = ser1({"name": "ann"}, ctx)
    b2 = ser2({"name": "bob", "age": 7}, ctx)
    assert b1[0] == 0 and b2[0] == 0 and b1[1:5] != b2[1:5]  # Confluent framing, two ids
    fresh = SchemaRegistryClient({"url": client._rest_client.base_urls[0]})
    plain = AvroDeserializer(fresh)
    assert plain(b1, ctx) == {"name": "ann"}
    assert plain(b2, ctx) == {"name": "bob", "age": 7}
    reader = AvroDeserializer(fresh, V2)  # old data read with the new schema: the default fills in
    assert reader(b1, ctx) == {"name": "ann", "age": None}
    assert fresh.get_versions("evolve-value") == [1, 2]


def test_soft_and_hard_deletes(client: SchemaRegistryClient) -> None:
    sid = client.register_schema("del-value", Schema(V1, "AVRO"))
    client.register_schema("del-value", Schema(V2, "AVRO"))
    with pytest.raises(SchemaRegistryError) as ei:
        client.delete_version("del-value", 1, permanent=True)
    assert _code(ei) == (404, 40407)
    assert client.delete_version("del-value", 1) == 1
    with pytest.raises(SchemaRegistryError) as ei:
        client.get_version("del-value", 1)
    assert _code(ei) == (404, 40402)
    assert json.loads(client.get_schema(sid).schema_str)  # ids of soft-deleted versions still resolve
    assert sorted(client.delete_subject("del-value")) == [2]
    assert "del-value" not in client.get_subjects()
    with pytest.raises(SchemaRegistryError) as ei:
        client.delete_subject("del-value")
    assert _code(ei) == (404, 40404)
    assert sorted(client.delete_subject("del-value", permanent=True)) == [1, 2]
    with pytest.raises(SchemaRegistryError) as ei:
        client.get_versions("del-value")
    assert _code(ei) == (404, 40401)


def test_modes(client: SchemaRegistryClient) -> None:
    client.register_schema("mode-value", Schema(V1, "AVRO"))
    client.update_mode("mode-value", "READONLY")
    assert client.get_mode("mode-value") == "READONLY"
    with pytest.raises(SchemaRegistryError) as ei:
        client.register_schema("mode-value", Schema(V2, "AVRO"))
    assert _code(ei) == (422, 42205)
    client.delete_mode("mode-value")
    client.register_schema("mode-value", Schema(V2, "AVRO"))
    with pytest.raises(SchemaRegistryError) as ei:
        client.update_mode("mode-value", "SIDEWAYS")
    assert _code(ei) == (422, 42204)


def test_references(client: SchemaRegistryClient) -> None:
    addr = json.dumps(
        {"type": "record", "name": "Address", "namespace": "t", "fields": [{"name": "city", "type": "string"}]}
    )
    client.register_schema("address", Schema(addr, "AVRO"))
    person = json.dumps(
        {"type": "record", "name": "Person", "namespace": "t", "fields": [{"name": "home", "type": "t.Address"}]}
    )
    refs = [SchemaReference("t.Address", "address", 1)]
    pid = client.register_schema("person-value", Schema(person, "AVRO", refs))
    got = SchemaRegistryClient({"url": client._rest_client.base_urls[0]}).get_schema(pid)
    assert [(r.name, r.subject, r.version) for r in got.references] == [("t.Address", "address", 1)]
    ctx = SerializationContext("person", MessageField.VALUE)
    ser = AvroSerializer(
        client, Schema(person, "AVRO", refs), conf={"auto.register.schemas": False, "use.latest.version": True}
    )
    data = ser({"home": {"city": "Oslo"}}, ctx)
    assert AvroDeserializer(SchemaRegistryClient({"url": client._rest_client.base_urls[0]}))(data, ctx) == {
        "home": {"city": "Oslo"}
    }
    with pytest.raises(SchemaRegistryError) as ei:
        client.delete_subject("address")
    assert _code(ei) == (422, 42206)


def _start_cli(bootstrap: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "schema_registry", "--bootstrap-servers", bootstrap],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    line = proc.stdout.readline().strip()
    assert line.startswith("schema.registry.url=http://127.0.0.1:"), line
    return proc, line.split("=", 1)[1]


def test_ids_survive_kill_9_and_two_processes_agree(broker: EmbeddedBroker) -> None:
    proc, url = _start_cli(broker.bootstrap_servers)
    try:
        c = SchemaRegistryClient({"url": url})
        ids = [c.register_schema(f"k9-{i}", Schema(V1 if i % 2 else V2, "AVRO")) for i in range(4)]
        other = SchemaRegistryClient({"url": url}).register_schema("k9-x", Schema(BAD, "AVRO"))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    a, url_a = _start_cli(broker.bootstrap_servers)
    b, url_b = _start_cli(broker.bootstrap_servers)
    try:
        ca, cb = SchemaRegistryClient({"url": url_a}), SchemaRegistryClient({"url": url_b})
        for i, sid in enumerate(ids):
            assert ca.get_latest_version(f"k9-{i}").schema_id == sid
        assert json.loads(cb.get_schema(other).schema_str) == json.loads(BAD)
        # writes through either process land in one id space
        new_a = ca.register_schema("shared", Schema(V1, "AVRO"))
        new_b = cb.register_schema("shared", Schema(V2, "AVRO"))
        assert new_b != new_a
        deadline = time.monotonic() + 10
        while True:
            try:
                assert SchemaRegistryClient({"url": url_a}).get_version("shared", 2).schema_id == new_b
                break
            except SchemaRegistryError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        for p in (a, b):
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


# ------------------------------------------------------------------ a second client: python-schema-registry-client
SECOND_CLIENT = "python-schema-registry-client==2.6.1"


def _second_client_dir() -> Path:
    """python-schema-registry-client installed aside (``pip install --target``), not in the venv: its
    top-level package is also named ``schema_registry`` and would shadow ours."""
    target = Path(os.environ.get("PYKAFKA_SECOND_SR_CLIENT", Path(sys.prefix) / "second-sr-client"))
    if (target / "schema_registry" / "client" / "__init__.py").exists():
        return target
    tmp = target.with_name(f"{target.name}.tmp{os.getpid()}")
    # its dependencies (httpx, anyio, fastavro, jsonschema, certifi) are in the venv already
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(tmp), SECOND_CLIENT]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if done.returncode != 0:
        pytest.skip(f"could not install {SECOND_CLIENT} aside: {done.stderr.strip()[-300:]}")
    try:
        tmp.rename(target)
    except OSError:  # another run installed it meanwhile
        pass
    return target


def test_second_client_python_schema_registry_client(registry: SchemaRegistry) -> None:
    """Register, get by id, versions, lookup, compatibility checks, deletes and its serde through
    python-schema-registry-client (sync and async httpx clients), in a process of its own."""
    script = Path(__file__).with_name("second_sr_client.py")
    done = subprocess.run(
        [sys.executable, str(script), str(_second_client_dir()), registry.url, "psrc"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(script.parent),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    id1, id2 = seen["ids"]
    subject = "psrc-users-value"
    v1 = json.loads(V1)
    assert seen["register v1 again"] == id1 and id2 != id1
    assert seen["get_by_id v1"] == v1 and seen["latest schema"] == v1
    assert seen["get_by_id unknown"] is None  # the client maps our 404/40403 to None
    assert seen["latest"] == {"subject": subject, "schema_id": id1, "schema": None, "version": 1}
    assert seen["lookup v1"] == {"subject": subject, "schema_id": id1, "schema": None, "version": 1}
    assert seen["versions"] == [1] and seen["unknown subject versions"] == []
    assert seen["unknown subject latest"] is None
    assert seen["global compatibility"] == "BACKWARD"
    assert (seen["compatible v2"], seen["compatible bad"]) == (True, False)
    verbose = seen["compatible bad verbose"]
    assert verbose["is_compatible"] is False and any("name" in m for m in verbose["messages"])
    assert (seen["set FULL"], seen["subject compatibility"]) == (True, "FULL")
    assert seen["register bad"] == {"ClientError": 409}
    assert seen["versions after v2"] == [1, 2]
    assert seen["version 1"]["schema_id"] == id1
    assert [subject, 2] in seen["subject versions of id2"]  # ids are global: other subjects may share it
    assert seen["subjects"] == [subject]
    assert seen["decoded v2"] == {"name": "ann", "age": 41}
    assert seen["async"] == {"latest version": 2, "versions": [1, 2]}
    assert seen["delete version 1"] == 1 and seen["versions after delete"] == [2]
    assert seen["id1 after delete"] == v1  # ids of soft-deleted versions still resolve
    assert seen["delete unknown version"] is None  # a 404 (40402), which the client maps to None
    assert seen["delete subject"] == [2] and seen["subjects after delete"] == []
    assert seen["delete subject again"] == []  # 404 (40404), mapped to [] by the client
    # its framed bytes read with confluent-kafka's deserializer and connector.avro's decoder
    framed = bytes.fromhex(seen["framed v2"])
    assert framed[0] == 0 and int.from_bytes(framed[1:5], "big") == id2
    ctx = SerializationContext("psrc-users", MessageField.VALUE)
    assert AvroDeserializer(SchemaRegistryClient({"url": registry.url}))(framed, ctx) == {"name": "ann", "age": 41}
    from connector import avro

    reader, names = avro.parse(V2)
    col = avro.decode_confluent([framed], avro.RegistryLookup(registry.url), reader, names, "FAILFAST")
    assert col.to_pylist() == [{"name": "ann", "age": 41}]
