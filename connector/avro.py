"""Avro for PySpark columns with fastavro: ``from_avro``/``to_avro`` (plain Avro, Spark's option names)
and ``from_confluent_avro``/``to_confluent_avro`` (Confluent wire format: magic byte 0, a 4-byte
big-endian schema id, the Avro body) driven by a schema registry URL.

The functions return Columns backed by Arrow UDFs (``pyspark.sql.functions.arrow_udf``): each call
gets a whole Arrow batch, decodes it with fastavro and builds the result column with one
``pyarrow.array`` call. Writer schemas are fetched once per id and cached per Python worker; data is
resolved to the reader schema with Avro schema resolution (evolution). Avro types map to Spark types
the way Spark's own ``from_avro`` maps them (SchemaConverters): logical types decimal, date,
timestamp-millis/micros (TimestampType), local-timestamp-millis/micros (TimestampNTZType), uuid
(string); ``[null, T]`` → nullable T; other unions → a struct with fields ``member0..memberN``;
enum → string; fixed → binary; map → map<string, V>; arrays; nested records.

``mode``: FAILFAST (default, like Spark) raises on a malformed record naming its row in the batch and
the reason; PERMISSIVE yields null for it and keeps going.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import operator
import os
import struct
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import fastavro
import pyarrow as pa
import pyarrow.compute as pc

from kafka_wire.errors import PykafkaError

MODES = ("FAILFAST", "PERMISSIVE")
MAGIC = 0


class AvroDecodeError(PykafkaError, ValueError):
    pass


# ------------------------------------------------------------------------------- type mapping
def _strip_null(branches: list[Any]) -> tuple[list[Any], bool]:
    non_null = [b for b in branches if b != "null" and not (isinstance(b, dict) and b.get("type") == "null")]
    return non_null, len(non_null) != len(branches)


def _resolve(schema: Any, names: dict[str, Any]) -> Any:
    if isinstance(schema, str) and schema in names:
        return names[schema]
    return schema


def arrow_type(schema: Any, names: dict[str, Any] | None = None) -> pa.DataType:
    """The Arrow type (the one Spark's type maps to) of a parsed Avro schema."""
    names = names if names is not None else {}
    s = _resolve(schema, names)
    if isinstance(s, list):
        non_null, _ = _strip_null(s)
        if not non_null:
            return pa.null()
        if len(non_null) == 1:
            return arrow_type(non_null[0], names)
        kinds = {_kind(_resolve(b, names)) for b in non_null}
        if kinds <= {"int", "long"}:
            return pa.int64()
        if kinds <= {"float", "double"}:
            return pa.float64()
        return pa.struct([pa.field(f"member{i}", arrow_type(b, names), True) for i, b in enumerate(non_null)])
    if isinstance(s, str):
        s = {"type": s}
    t, logical = s["type"], s.get("logicalType")
    if isinstance(t, (dict, list)):
        return arrow_type(t, names)
    if logical == "decimal" and t in ("bytes", "fixed"):
        return pa.decimal128(int(s["precision"]), int(s.get("scale", 0)))
    if logical == "date" and t == "int":
        return pa.date32()
    if logical in ("timestamp-millis", "timestamp-micros") and t == "long":
        return pa.timestamp("us", tz="UTC")
    if logical in ("local-timestamp-millis", "local-timestamp-micros") and t == "long":
        return pa.timestamp("us")
    simple = {
        "null": pa.null(),
        "boolean": pa.bool_(),
        "int": pa.int32(),
        "long": pa.int64(),
        "float": pa.float32(),
        "double": pa.float64(),
        "bytes": pa.binary(),
        "string": pa.string(),
        "enum": pa.string(),
        "fixed": pa.binary(),
    }
    if t in simple:
        return simple[t]
    if t == "array":
        return pa.list_(pa.field("element", arrow_type(s["items"], names), _nullable(s["items"], names)))
    if t == "map":
        return pa.map_(pa.string(), pa.field("value", arrow_type(s["values"], names), _nullable(s["values"], names)))
    if t == "record":
        return pa.struct(
            [pa.field(f["name"], arrow_type(f["type"], names), _nullable(f["type"], names)) for f in s["fields"]]
        )
    raise TypeError(f"Avro type {t!r} has no Spark type")


def _kind(s: Any) -> str:
    if isinstance(s, list):
        return "union"
    if isinstance(s, str):
        return s
    t = s["type"]
    return t if isinstance(t, str) else _kind(t)


def _nullable(s: Any, names: dict[str, Any]) -> bool:
    s = _resolve(s, names)
    return isinstance(s, list) and _strip_null(s)[1] or s == "null"


def spark_type(schema_json: str) -> Any:
    """The Spark DataType ``from_avro`` yields for ``schema_json``."""
    from pyspark.sql.pandas.types import from_arrow_type

    parsed, names = parse(schema_json)
    return from_arrow_type(arrow_type(parsed, names))


def parse(schema_json: str | dict, named: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    names: dict[str, Any] = dict(named or {})
    raw = json.loads(schema_json) if isinstance(schema_json, str) else schema_json
    return fastavro.parse_schema(raw, named_schemas=names), names


# ------------------------------------------------------------------------------- value conversion
def _identity(v: Any) -> Any:
    """The converter of values pyarrow takes as fastavro gives them (callers skip calling it)."""
    return v


def _converter(schema: Any, names: dict[str, Any]) -> Callable[[Any], Any]:
    """fastavro's decoded value -> the Python value pyarrow builds the Spark-typed column from."""
    s = _resolve(schema, names)
    if isinstance(s, list):
        non_null, _ = _strip_null(s)
        if len(non_null) == 1:
            inner = _converter(non_null[0], names)
            if inner is _identity:
                return _identity
            return lambda v: None if v is None else inner(v)
        kinds = {_kind(_resolve(b, names)) for b in non_null}
        if kinds <= {"int", "long"} or kinds <= {"float", "double"}:
            return _identity
        convs = [_converter(b, names) for b in non_null]
        matchers = [_matcher(_resolve(b, names)) for b in non_null]
        members = [f"member{j}" for j in range(len(non_null))]

        def member(i: int, v: Any) -> dict[str, Any]:
            out = dict.fromkeys(members)
            out[members[i]] = convs[i](v)
            return out

        def union(v: Any) -> Any:
            if v is None:
                return None
            if isinstance(v, tuple):  # (record name, value) from return_record_name=True
                name, v = v
                for i, b in enumerate(non_null):
                    rb = _resolve(b, names)
                    if isinstance(rb, dict) and rb.get("name") == name:
                        return member(i, v)
            for i, m in enumerate(matchers):
                if m(v):
                    return member(i, v)
            raise AvroDecodeError(f"value {v!r} matches no union branch")

        return union
    if isinstance(s, str):
        s = {"type": s}
    t, logical = s["type"], s.get("logicalType")
    if isinstance(t, (dict, list)):
        return _converter(t, names)
    if logical == "uuid":
        return lambda v: None if v is None else str(v)
    if logical in ("time-millis", "time-micros") and isinstance(t, str):
        scale = 1000 if logical == "time-millis" else 1_000_000

        def time_(v: Any) -> Any:
            if isinstance(v, dt.time):
                us = ((v.hour * 60 + v.minute) * 60 + v.second) * 1_000_000 + v.microsecond
                return us // (1_000_000 // scale)
            return v

        return time_
    if t == "array":
        item = _converter(s["items"], names)
        if item is _identity:
            return _identity
        return lambda v: None if v is None else [item(x) for x in v]
    if t == "map":
        val = _converter(s["values"], names)
        return lambda v: None if v is None else [(k, val(x)) for k, x in v.items()]
    if t == "record":
        fields = [(f["name"], _converter(f["type"], names)) for f in s["fields"]]
        if all(c is _identity for _, c in fields):
            return _identity  # fastavro's dict has exactly the reader's fields
        return lambda v: None if v is None else {n: c(v.get(n)) for n, c in fields}
    return _identity


def _matcher(s: Any) -> Callable[[Any], bool]:
    k = _kind(s)
    logical = s.get("logicalType") if isinstance(s, dict) else None
    if logical == "decimal":
        return lambda v: isinstance(v, Decimal)
    if logical == "uuid":
        return lambda v: isinstance(v, uuid.UUID)
    if logical == "date":
        return lambda v: isinstance(v, dt.date) and not isinstance(v, dt.datetime)
    if logical and "timestamp" in logical:
        return lambda v: isinstance(v, dt.datetime)
    return {
        "boolean": lambda v: isinstance(v, bool),
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "long": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "float": lambda v: isinstance(v, float),
        "double": lambda v: isinstance(v, float),
        "string": lambda v: isinstance(v, str),
        "enum": lambda v: isinstance(v, str) and v in s["symbols"],
        "bytes": lambda v: isinstance(v, bytes),
        "fixed": lambda v: isinstance(v, bytes) and len(v) == s["size"],
        "array": lambda v: isinstance(v, list),
        "map": lambda v: isinstance(v, dict),
        "record": lambda v: isinstance(v, dict),
    }.get(k, lambda v: False)


# ------------------------------------------------------------------------------- registry access
class RegistryLookup:
    """Writer schemas by id from a Confluent-compatible registry, cached for the life of the process."""

    _cache: dict[tuple[str, int], tuple[Any, dict[str, Any]]] = {}
    _lock = threading.Lock()

    def __init__(self, url: str, timeout_s: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s

    def _get(self, path: str) -> Any:
        req = urllib.request.Request(self.url + path, headers={"Accept": "application/vnd.schemaregistry.v1+json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            body = e.read().decode(errors="replace")
            raise AvroDecodeError(f"schema registry {self.url}{path} answered {e.code}: {body}") from None
        except (urllib.error.URLError, OSError) as e:
            raise AvroDecodeError(f"schema registry {self.url} is not reachable ({path}): {e}") from None

    def _named_refs(self, refs: list[dict[str, Any]]) -> dict[str, Any]:
        names: dict[str, Any] = {}
        for ref in refs or []:
            body = self._get(f"/subjects/{urllib.parse.quote(ref['subject'], safe='')}/versions/{ref['version']}")
            names.update(self._named_refs(body.get("references") or []))
            _, names = parse(body["schema"], names)
        return names

    def writer(self, schema_id: int) -> tuple[Any, dict[str, Any]]:
        key = (self.url, schema_id)
        hit = self._cache.get(key)
        if hit is None:
            body = self._get(f"/schemas/ids/{schema_id}")
            hit = parse(body["schema"], self._named_refs(body.get("references") or []))
            with self._lock:
                self._cache[key] = hit
        return hit

    def latest(self, subject: str) -> dict[str, Any]:
        return self._get(f"/subjects/{urllib.parse.quote(subject, safe='')}/versions/latest")

    def register(self, subject: str, schema_json: str) -> int:
        data = json.dumps({"schema": schema_json}).encode()
        req = urllib.request.Request(
            f"{self.url}/subjects/{urllib.parse.quote(subject, safe='')}/versions",
            data=data,
            headers={"Content-Type": "application/vnd.schemaregistry.v1+json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                return int(json.loads(resp.read())["id"])
        except urllib.error.HTTPError as e:
            raise AvroDecodeError(f"registering {subject} at {self.url}: {e.code} {e.read().decode()}") from None


# ------------------------------------------------------------------------------- batch codecs
def _mode(options: dict[str, str] | None) -> str:
    mode = str((options or {}).get("mode", "FAILFAST")).upper()
    if mode not in MODES:
        raise ValueError(f"option 'mode' must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


RAW_LOGICAL = {
    "timestamp-millis": ("long", 1000),
    "timestamp-micros": ("long", 1),
    "local-timestamp-millis": ("long", 1000),
    "local-timestamp-micros": ("long", 1),
    "date": ("int", 0),
}


def strip_logical(writer: Any, field_names: frozenset[str]) -> Any:
    """``writer`` with the time/date logicalType removed from the named top-level fields (fastavro
    converts by the writer's logical types; these fields are wanted as raw int/long)."""
    if not field_names or not (isinstance(writer, dict) and writer.get("type") == "record"):
        return writer
    raw = _clean(writer)
    changed = False
    for fld in raw["fields"]:
        t = fld["type"]
        if fld["name"] in field_names and isinstance(t, dict) and t.get("logicalType") in RAW_LOGICAL:
            fld["type"] = t["type"]
            changed = True
    if not changed:
        return writer
    return fastavro.parse_schema(raw, named_schemas=dict(writer.get("__named_schemas", {})))


class ColumnBuilder:
    """Builds the result column of a batch field by field (one ``pyarrow.array`` per top-level field).

    Top-level timestamp and date fields are decoded as their raw Avro int/long (the reader schema
    used for decoding drops their logicalType: schema resolution ignores logical types) and cast in
    Arrow, which avoids a Python datetime per value both in fastavro and in pyarrow.
    """

    def __init__(self, reader: Any, names: dict[str, Any]) -> None:
        self.type = arrow_type(reader, names)
        self.decode_schema = reader
        self.fields: list[tuple[str, Callable[[Any], Any] | None, tuple[str, int] | None, pa.DataType]] = []
        rec = _resolve(reader, names)
        self.columnar = isinstance(rec, dict) and rec.get("type") == "record"
        self.raw_names: frozenset[str] = frozenset()
        self._writers: dict[int, Any] = {}
        if not self.columnar:
            self.conv = _converter(reader, names)
            return
        raw = json.loads(json.dumps(_clean(rec)))
        for fld, out_field in zip(raw["fields"], self.type, strict=True):
            t = fld["type"]
            lt = t.get("logicalType") if isinstance(t, dict) else None
            if lt in RAW_LOGICAL and t.get("type") == RAW_LOGICAL[lt][0]:
                self.fields.append((fld["name"], None, RAW_LOGICAL[lt], out_field.type))
                fld["type"] = t["type"]
            else:
                orig = next(f for f in rec["fields"] if f["name"] == fld["name"])
                conv = _converter(orig["type"], names)
                self.fields.append((fld["name"], conv, None, out_field.type))
        self.decode_schema = fastavro.parse_schema(raw, named_schemas=dict(names))
        self.raw_names = frozenset(n for n, _, r, _ in self.fields if r is not None)
        self._writers = {}

    def schemas(self, writer: Any) -> tuple[Any, Any]:
        """(writer schema, reader schema or None) to hand fastavro for data written with ``writer``.

        The reader is None when the writer (its raw-decoded fields stripped like the reader's) is the
        decode schema itself, the usual case of data written with the latest version: fastavro then
        reads with the writer alone instead of resolving field by field (1.5x less CPU per record)."""
        hit = self._writers.get(id(writer))
        if hit is None:
            plain = strip_logical(writer, self.raw_names)
            same = _clean(plain) == _clean(self.decode_schema)
            # the writer object is kept in the entry so that its id() is not reused while cached
            hit = self._writers[id(writer)] = (writer, plain, None if same else self.decode_schema, {})
        return hit[1], hit[2]

    def bulk_schemas(self, writer: Any, framed: bool) -> tuple[Any, Any] | None:
        """The (writer, reader or None) array schemas of :func:`_bulk_decode` for ``writer`` (``framed``:
        each body starts with the 5-byte Confluent header), or None when a run of its records cannot
        be decoded in one call (not a record, or a top-level name the reader would refuse: the
        per-record path then gives the exact error)."""
        plain, reader = self.schemas(writer)
        cache = self._writers[id(writer)][3]
        if framed not in cache:
            ok = self.columnar and isinstance(plain, dict) and plain.get("type") == "record"
            if ok and reader is not None:
                ok = _short(plain["name"]) == _short(reader["name"])
            cache[framed] = (
                (_marked(plain, framed), None if reader is None else _marked(reader, framed)) if ok else None
            )
        return cache[framed]

    def build(self, rows: list[Any]) -> pa.Array:
        if not self.columnar:
            return pa.array([None if r is None else self.conv(r) for r in rows], type=self.type)
        nulls = [r is None for r in rows]
        mask = pa.array(nulls, type=pa.bool_())
        any_null = any(nulls)
        arrays = []
        for name, conv, raw, typ in self.fields:
            if any_null:
                vals = [None if r is None else r.get(name) for r in rows]
            else:  # every reader field is in each of fastavro's dicts
                vals = list(map(operator.itemgetter(name), rows))
            if raw is not None:
                base, scale = raw
                try:
                    if base == "int":
                        arrays.append(pa.array(vals, type=pa.int32()).cast(typ))
                        continue
                    micros = pa.array(vals, type=pa.int64())
                except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
                    # the writer carried the logical type (fastavro converted): let pyarrow take the objects
                    arrays.append(pa.array(vals, type=typ))
                    continue
                if scale != 1:
                    micros = pc.multiply_checked(micros, scale)
                arrays.append(micros.cast(typ))
            elif conv is _identity:
                arrays.append(pa.array(vals, type=typ))
            else:
                # conv is None only for raw fields, handled above
                arrays.append(pa.array([None if v is None else conv(v) for v in vals], type=typ))  # type: ignore[misc]
        return pa.StructArray.from_arrays(arrays, fields=list(self.type), mask=mask)


def _clean(schema: Any) -> Any:
    """A parsed schema without fastavro's private hints (to be parsed again)."""
    if isinstance(schema, dict):
        return {k: _clean(v) for k, v in schema.items() if not k.startswith("__")}
    if isinstance(schema, list):
        return [_clean(x) for x in schema]
    return schema


def _borderless_mark() -> bytes:
    """8 random bytes none of whose proper prefixes is also a suffix: a read that is off by fewer than
    8 bytes can never reproduce them, and a read off by more would need the data to contain them."""
    while True:
        mark = os.urandom(8)
        if all(mark[:k] != mark[-k:] for k in range(1, 8)):
            return mark


FRAME_MARK = _borderless_mark()  # per process: data cannot be crafted to contain it
MARK_FIELD = "__pykafka_frame_mark"
HEAD_FIELD = "__pykafka_confluent_header"


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _marked(record: Any, framed: bool) -> Any:
    """An array of ``record`` with a fixed(8) field appended (and, ``framed``, a fixed(5) one in front
    for the Confluent header): the schema of records laid end to end, each followed by
    :data:`FRAME_MARK` (a record's fields are its bytes in order, so the mark reads as one more
    field). The top-level name is replaced (by the same one in writer and reader) so that
    references to the original name inside the record keep meaning the unmarked type."""
    raw = _clean(record)
    raw["name"] = "pykafka_marked_record"
    raw.pop("namespace", None)
    raw.pop("aliases", None)
    head = [{"name": HEAD_FIELD, "type": {"type": "fixed", "name": "pykafka_head", "size": 5}}] if framed else []
    mark = {"name": MARK_FIELD, "type": {"type": "fixed", "name": "pykafka_mark", "size": 8}}
    raw["fields"] = [*head, *raw["fields"], mark]
    named = dict(record.get("__named_schemas", {}))
    return fastavro.parse_schema({"type": "array", "items": raw}, named_schemas=named)


_MARK_OF = operator.itemgetter(MARK_FIELD)


def _bulk_decode(bodies: list[Any], schemas: tuple[Any, Any]) -> list[Any] | None:
    """Decode Avro bodies written with one schema in a single fastavro call, or None if any of them
    is not exactly one well-formed record (the caller then decodes one by one for the exact error).

    fastavro's per-call overhead is a large part of the time of a small record; here the bodies are
    laid out as one Avro array (count, items, 0) with :data:`FRAME_MARK` after each, and every
    mark is checked: a body that is short, long or corrupt shifts the reads and breaks a mark, the
    array's end, or the decoding itself."""
    n = len(bodies)
    if n == 0:
        return []
    payload = b"".join((_zigzag_long(n), FRAME_MARK.join(bodies), FRAME_MARK, b"\x00"))
    buf = io.BytesIO(payload)
    try:
        # the framing makes the datum an array of the batch's records
        rows: Any = fastavro.schemaless_reader(
            buf, schemas[0], schemas[1], return_record_name=True, return_record_name_override=True
        )
    except Exception:
        return None
    if buf.tell() != len(payload) or len(rows) != n or set(map(_MARK_OF, rows)) != {FRAME_MARK}:
        return None
    return rows


def _zigzag_long(n: int) -> bytes:
    z, out = (n << 1) ^ (n >> 63), bytearray()
    while z > 0x7F:
        out.append((z & 0x7F) | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


def decode_plain(values: list[bytes | None], writer: Any, reader: Any, names: dict[str, Any], mode: str) -> pa.Array:
    builder = ColumnBuilder(reader, names)
    plain_writer, decode_with = builder.schemas(writer)
    bulk = builder.bulk_schemas(writer, framed=False)
    if bulk is not None:
        rows = _bulk_decode([v for v in values if v is not None], bulk)
        if rows is not None:
            it = iter(rows)
            return builder.build([None if v is None else next(it) for v in values])
    out: list[Any] = []
    for i, v in enumerate(values):
        if v is None:
            out.append(None)
            continue
        try:
            buf = io.BytesIO(v)
            rec = fastavro.schemaless_reader(
                buf, plain_writer, decode_with, return_record_name=True, return_record_name_override=True
            )
            if buf.tell() != len(v):
                raise AvroDecodeError(f"{len(v) - buf.tell()} trailing bytes after the Avro body")
            out.append(rec)
        except Exception as e:
            if mode == "FAILFAST":
                raise AvroDecodeError(f"Malformed Avro record at row {i} of the batch: {e}") from e
            out.append(None)
    return builder.build(out)


def decode_confluent(
    values: list[bytes | None],
    lookup: RegistryLookup,
    reader: Any,
    reader_names: dict[str, Any],
    mode: str,
    where: list[str] | None = None,
) -> pa.Array:
    builder = ColumnBuilder(reader, reader_names)
    if builder.columnar:
        rows = _confluent_bulk(values, lookup, builder)
        if rows is not None:
            return builder.build(rows)
    out: list[Any] = []
    append = out.append
    read = fastavro.schemaless_reader
    # the (writer, reader) pair of the previous record's schema id: a batch rarely mixes ids
    last_sid, plain_writer, decode_with = -1, None, None
    for i, v in enumerate(values):
        if v is None:
            append(None)
            continue
        try:
            if len(v) < 5 or v[0] != MAGIC:
                raise AvroDecodeError("not Confluent-framed Avro (no magic byte 0 and 4-byte schema id)")
            sid = int.from_bytes(v[1:5], "big")
            if sid != last_sid:
                plain_writer, decode_with = builder.schemas(lookup.writer(sid)[0])
                last_sid = sid
            buf = io.BytesIO(v)
            buf.seek(5)
            # plain_writer is set at the first record: no schema id equals the initial last_sid (-1)
            rec = read(buf, plain_writer, decode_with, return_record_name=True, return_record_name_override=True)  # type: ignore[arg-type]
            if buf.tell() != len(v):
                raise AvroDecodeError(f"{len(v) - buf.tell()} trailing bytes after the Avro body")
            append(rec)
        except Exception as e:
            if mode == "FAILFAST":
                at = where[i] if where else f"row {i} of the batch"
                raise AvroDecodeError(f"Malformed Confluent Avro record at {at}: {e}") from e
            append(None)
    return builder.build(out)


_HEAD_OF = operator.itemgetter(slice(0, 5))


def _confluent_bulk(values: list[bytes | None], lookup: RegistryLookup, builder: ColumnBuilder) -> list[Any] | None:
    """The batch's rows decoded one fastavro call per schema id, or None if any record is not
    well-formed (or its schema cannot be had): the per-record loop then reports it as the mode says."""
    try:
        # a None value raises TypeError, caught below: that is the batch's null check
        heads = set(map(_HEAD_OF, values))  # type: ignore[arg-type]
    except TypeError:  # null values in the batch
        heads = None
    try:
        if heads is not None and len(heads) == 1:
            # the usual batch: one schema id, no nulls; the headers stay in the bodies (a fixed(5) field)
            (head,) = heads
            if len(head) < 5 or head[0] != MAGIC:
                return None
            schemas = builder.bulk_schemas(lookup.writer(int.from_bytes(head[1:5], "big"))[0], framed=True)
            return None if schemas is None else _bulk_decode(values, schemas)
        by_id: dict[bytes, tuple[list[int], list[memoryview]]] = {}
        for i, v in enumerate(values):
            if v is None:
                continue
            if len(v) < 5 or v[0] != MAGIC:
                return None
            group = by_id.get(v[1:5])
            if group is None:
                group = by_id[v[1:5]] = ([], [])
            group[0].append(i)
            group[1].append(memoryview(v)[5:])
        rows: list[Any] = [None] * len(values)
        for sid, (positions, bodies) in by_id.items():
            schemas = builder.bulk_schemas(lookup.writer(int.from_bytes(sid, "big"))[0], framed=False)
            decoded = None if schemas is None else _bulk_decode(bodies, schemas)
            if decoded is None:
                return None
            for i, r in zip(positions, decoded, strict=True):
                rows[i] = r
        return rows
    except AvroDecodeError:  # the registry does not know an id, or cannot be reached
        return None


def _to_avro_value(v: Any) -> Any:
    if isinstance(v, list) and v and isinstance(v[0], tuple):
        return {k: _to_avro_value(x) for k, x in v}  # Arrow map -> dict
    if isinstance(v, list):
        return [_to_avro_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _to_avro_value(x) for k, x in v.items()}
    return v


def encode(values: list[Any], schema: Any, prefix: bytes = b"") -> pa.Array:
    out: list[bytes | None] = []
    for v in values:
        if v is None:
            out.append(None)
            continue
        buf = io.BytesIO()
        buf.write(prefix)
        fastavro.schemaless_writer(buf, schema, _to_avro_value(v))
        out.append(buf.getvalue())
    return pa.array(out, type=pa.binary())


# ------------------------------------------------------------------------------- Spark Columns
def _arrow_udf(fn: Callable[..., pa.Array], return_type: Any) -> Any:
    from pyspark.sql.functions import arrow_udf

    # pyspark's overloads want a function typed with pandas/arrow types; ours are checked at run time by Spark
    return arrow_udf(fn, return_type)  # type: ignore[call-overload]


def from_avro(col: Any, schema_json: str, options: dict[str, str] | None = None) -> Any:
    """Spark's ``from_avro(col, jsonFormatSchema, options)``: plain Avro (no header) written with
    ``schema_json`` (or, with option ``avroSchema``, read with that evolved reader schema)."""
    from pyspark.sql.pandas.types import from_arrow_type

    mode = _mode(options)
    writer, _ = parse(schema_json)
    reader_json = (options or {}).get("avroSchema", schema_json)
    reader, names = parse(reader_json)
    rtype = from_arrow_type(arrow_type(reader, names))

    def run(arr: pa.Array) -> pa.Array:
        return decode_plain(arr.to_pylist(), writer, reader, names, mode)

    return _arrow_udf(run, rtype)(col)


def to_avro(col: Any, schema_json: str) -> Any:
    """Spark's ``to_avro(col, jsonFormatSchema)``: a struct (or value) column to plain Avro bytes."""
    from pyspark.sql.types import BinaryType

    schema, _ = parse(schema_json)

    def run(arr: pa.Array) -> pa.Array:
        return encode(arr.to_pylist(), schema)

    return _arrow_udf(run, BinaryType())(col)


def from_confluent_avro(
    col: Any,
    schema_registry_url: str,
    subject: str | None = None,
    reader_schema: str | None = None,
    options: dict[str, str] | None = None,
    position: tuple[Any, Any] | None = ("partition", "offset"),
) -> Any:
    """Decode Confluent-framed Avro: each record's schema id picks its writer schema (fetched from the
    registry and cached per worker); data is resolved to the reader schema — ``reader_schema`` or
    the latest version of ``subject`` at planning time — which fixes the output Spark type.

    ``position``: the (partition, offset) columns FAILFAST errors name (the Kafka source's by
    default); ``None`` for a DataFrame without them (errors then name the row in the batch)."""
    from pyspark.sql.pandas.types import from_arrow_type

    mode = _mode(options)
    lookup = RegistryLookup(schema_registry_url)
    if reader_schema is None:
        if subject is None:
            raise ValueError("from_confluent_avro needs option 'subject' or 'reader_schema' to fix the output type")
        latest = lookup.latest(subject)
        reader, names = parse(latest["schema"], lookup._named_refs(latest.get("references") or []))
    else:
        reader, names = parse(reader_schema)
    rtype = from_arrow_type(arrow_type(reader, names))
    url = schema_registry_url

    if position is None:

        def run(arr: pa.Array) -> pa.Array:
            return decode_confluent(arr.to_pylist(), RegistryLookup(url), reader, names, mode)

        return _arrow_udf(run, rtype)(col)

    def run_at(arr: pa.Array, partitions: pa.Array, offsets: pa.Array) -> pa.Array:
        where = [f"partition {p} offset {o}" for p, o in zip(partitions.to_pylist(), offsets.to_pylist(), strict=True)]
        return decode_confluent(arr.to_pylist(), RegistryLookup(url), reader, names, mode, where)

    return _arrow_udf(run_at, rtype)(col, *position)


def to_confluent_avro(col: Any, schema_registry_url: str, subject: str, schema_json: str | None = None) -> Any:
    """Encode to Confluent-framed Avro with ``schema_json`` registered under ``subject`` (or the
    subject's latest schema)."""
    from pyspark.sql.types import BinaryType

    lookup = RegistryLookup(schema_registry_url)
    if schema_json is None:
        latest = lookup.latest(subject)
        schema_json, sid = latest["schema"], int(latest["id"])
    else:
        sid = lookup.register(subject, schema_json)
    schema, _ = parse(schema_json)
    prefix = bytes([MAGIC]) + struct.pack(">I", sid)

    def run(arr: pa.Array) -> pa.Array:
        return encode(arr.to_pylist(), schema, prefix)

    return _arrow_udf(run, BinaryType())(col)
