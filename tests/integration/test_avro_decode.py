"""``connector.avro``'s batch decoders without Spark: the one-call-per-batch path (records laid end to
end with a check mark after each) gives exactly the rows of fastavro decoding record by record, and
any malformed record -- short, long, compensating pairs, bad header, unknown id -- is reported (or
nulled) exactly as the per-record path reports it, alone, at its own row."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

fastavro = pytest.importorskip("fastavro")
pytest.importorskip("confluent_kafka.schema_registry")

from confluent_kafka.schema_registry import SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

from broker_embedded import EmbeddedBroker  # noqa: E402
from connector import avro  # noqa: E402
from schema_registry import SchemaRegistry  # noqa: E402

V1 = {
    "type": "record",
    "name": "Ev",
    "namespace": "t",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "s", "type": "string"},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "n", "type": ["null", "int"], "default": None},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"]}},
        {"name": "p", "type": {"type": "record", "name": "P", "fields": [{"name": "x", "type": "int"}]}},
        {"name": "q", "type": ["null", "t.P"], "default": None},  # named types used again by name
        {"name": "e2", "type": "t.E"},
    ],
}
V2 = {**V1, "fields": [*V1["fields"], {"name": "added", "type": "string", "default": "d"}]}


def rec(k: int) -> dict[str, Any]:
    return {
        "id": k,
        "s": "x" * (k % 7),
        "tags": [str(j) for j in range(k % 3)],
        "n": None if k % 2 else k,
        "ts": 1_700_000_000_000 + k,
        "e": "AB"[k % 2],
        "p": {"x": k},
        "q": {"x": -k} if k % 4 == 0 else None,
        "e2": "BA"[k % 2],
    }


def body(schema: dict, value: dict) -> bytes:
    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, fastavro.parse_schema(schema), value)
    return buf.getvalue()


def one_by_one(values: list[bytes | None], writer: dict, reader: dict) -> list[Any]:
    """The reference: fastavro per record, writer -> reader resolution, as plain Python values."""
    reader_names: dict[str, Any] = {}
    w, r = fastavro.parse_schema(writer, named_schemas={}), fastavro.parse_schema(reader, named_schemas=reader_names)
    out = []
    for v in values:
        out.append(None if v is None else fastavro.schemaless_reader(io.BytesIO(v), w, r))
    return avro.ColumnBuilder(r, reader_names).build(out).to_pylist()


@pytest.fixture(scope="module")
def sr() -> Iterator[SchemaRegistry]:
    with EmbeddedBroker() as b, SchemaRegistry(bootstrap_servers=b.bootstrap_servers) as registry:
        yield registry


def _framed(sr: SchemaRegistry, schema: dict, values: list[dict]) -> list[bytes]:
    ser = AvroSerializer(SchemaRegistryClient({"url": sr.url}), json.dumps(schema))
    ctx = SerializationContext("dec", MessageField.VALUE)
    return [ser(v, ctx) for v in values]


def test_plain_batches_match_record_by_record_decoding() -> None:
    values: list[bytes | None] = [body(V1, rec(k)) for k in range(200)]
    values[17] = None
    w, _ = avro.parse(json.dumps(V1))
    for reader in (V1, V2):  # same schema (no resolution) and evolved reader (resolution)
        r, names = avro.parse(json.dumps(reader))
        got = avro.decode_plain(values, w, r, names, "FAILFAST").to_pylist()
        assert got == one_by_one(values, V1, reader)
        assert got[17] is None and got[4]["q"] == {"x": -4} and got[4]["e2"] == "B"
        # (and it was the one-call path that decoded them)
        schemas = avro.ColumnBuilder(r, names).bulk_schemas(w, framed=False)
        assert schemas is not None and avro._bulk_decode([v for v in values if v is not None], schemas) is not None


@pytest.mark.parametrize(
    ("label", "corrupt"),
    [
        ("truncated", lambda vs: vs.__setitem__(5, vs[5][:-1])),
        ("trailing byte", lambda vs: vs.__setitem__(5, vs[5] + b"\x00")),
        # record 5 one byte too long and record 6 one byte too short: the batch's total is unchanged
        ("compensating pair", lambda vs: (vs.__setitem__(5, vs[5] + vs[6][:1]), vs.__setitem__(6, vs[6][1:]))),
        ("garbage", lambda vs: vs.__setitem__(5, b"\xff" * 9)),
        ("empty", lambda vs: vs.__setitem__(5, b"")),
    ],
)
def test_plain_malformed_records_are_found_alone(label: str, corrupt: Any) -> None:
    values: list[bytes | None] = [body(V1, rec(k)) for k in range(20)]
    corrupt(values)
    w, _ = avro.parse(json.dumps(V1))
    r, names = avro.parse(json.dumps(V1))
    with pytest.raises(avro.AvroDecodeError, match="row 5 of the batch"):
        avro.decode_plain(values, w, r, names, "FAILFAST")
    got = avro.decode_plain(values, w, r, names, "PERMISSIVE").to_pylist()
    # the bad record is null, every other row is itself (the pair's second half may decode as garbage)
    assert got[5] is None, label
    assert [row["id"] for i, row in enumerate(got) if i not in (5, 6)] == [k for k in range(20) if k not in (5, 6)]


def test_confluent_batches_with_two_writer_versions_and_nulls(sr: SchemaRegistry) -> None:
    old = _framed(sr, V1, [rec(k) for k in range(100)])
    new = _framed(sr, V2, [{**rec(k), "added": f"a{k}"} for k in range(100, 200)])
    values: list[bytes | None] = [v for pair in zip(old, new, strict=True) for v in pair]  # ids alternate
    values[10] = None
    r, names = avro.parse(json.dumps(V2))
    got = avro.decode_confluent(values, avro.RegistryLookup(sr.url), r, names, "FAILFAST").to_pylist()
    writers = [V1, V2] * 100
    expected = [None if v is None else one_by_one([v[5:]], writers[i], V2)[0] for i, v in enumerate(values)]
    assert got == expected
    assert got[0]["added"] == "d" and got[1]["added"] == "a100"  # the reader's default for old data
    # the usual batch: one id, no nulls
    got = avro.decode_confluent(new, avro.RegistryLookup(sr.url), r, names, "FAILFAST").to_pylist()
    assert [g["added"] for g in got] == [f"a{k}" for k in range(100, 200)]


def test_confluent_malformed_records_are_found_alone(sr: SchemaRegistry) -> None:
    good = _framed(sr, V1, [rec(k) for k in range(30)])
    r, names = avro.parse(json.dumps(V1))
    lookup = avro.RegistryLookup(sr.url)
    cases = {
        "no magic byte": lambda vs: vs.__setitem__(7, b"\x01" + vs[7][1:]),
        "unknown id": lambda vs: vs.__setitem__(7, b"\x00\x00\x0f\x42\x40" + vs[7][5:]),
        "truncated": lambda vs: vs.__setitem__(7, vs[7][:-2]),
        "compensating pair": lambda vs: (
            vs.__setitem__(7, vs[7] + vs[8][5:6]),
            vs.__setitem__(8, vs[8][:5] + vs[8][6:]),
        ),
        "short header": lambda vs: vs.__setitem__(7, b"\x00\x00"),
    }
    for label, corrupt in cases.items():
        values: list[bytes | None] = list(good)
        corrupt(values)
        where = [f"partition 0 offset {100 + i}" for i in range(len(values))]
        with pytest.raises(avro.AvroDecodeError, match="offset 107"):
            avro.decode_confluent(values, lookup, r, names, "FAILFAST", where)
        got = avro.decode_confluent(values, lookup, r, names, "PERMISSIVE").to_pylist()
        assert got[7] is None, label
        assert [row["id"] for i, row in enumerate(got) if i not in (7, 8)] == [k for k in range(30) if k not in (7, 8)]
