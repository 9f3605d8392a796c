"""Confluent-framed Protobuf for PySpark columns: ``from_confluent_protobuf`` / ``to_confluent_protobuf``.

Mirrors ``from_confluent_avro``: the output Spark type is fixed at planning time by the reader message
(``message_name`` or the first message of the latest schema of ``subject``, fetched from the registry
as a ``FileDescriptorProto`` with its references); each record names its writer schema and message by
the prefix (id + message-index list) or the ``__value_schema_id`` header (GUID + message-index list).
Protobuf evolves by field number, so every record is parsed with the reader's message: fields the
writer added are skipped, fields it lacked read as their default (or null when they have presence).
The writer's message is checked once per (schema, index path) and batch to be the reader's (by name).

Protobuf -> Spark (as Spark's ``from_protobuf``): int32/sint32/sfixed32 -> int; int64/sint64/sfixed64
and uint32 -> long; uint64 -> decimal(20,0); float/double; bool; string; bytes -> binary; enum -> its
value's name; message -> struct (null when unset); repeated -> array; map -> map;
google.protobuf.Timestamp -> timestamp; Duration -> interval day to second; the wrapper types
(Int32Value, StringValue, ...) -> their nullable value; Struct/Value/ListValue/Any -> JSON text.
A recursive message type is refused (Spark's ``recursive.fields.max.depth`` default does the same).
"""

from __future__ import annotations

import base64
import importlib
import operator
import threading
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

import pyarrow as pa
from google.protobuf import descriptor_pb2, descriptor_pool, json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import DecodeError
from google.protobuf.message_factory import GetMessageClass

from .confluent_framing import (
    KEY_HEADER,
    MAGIC_ID,
    VALUE_HEADER,
    ConfluentDecodeError,
    SchemaRegistryReader,
    arrow_udf,
    columns,
    mode_of,
    split_frame,
    unpack,
    write_indexes,
)

F = FieldDescriptor
WRAPPERS = {
    f"google.protobuf.{n}"
    for n in (
        "DoubleValue",
        "FloatValue",
        "Int64Value",
        "UInt64Value",
        "Int32Value",
        "UInt32Value",
        "BoolValue",
        "StringValue",
        "BytesValue",
    )
}
AS_JSON = {"google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue", "google.protobuf.Any"}
_BUILTIN_MODULES = [
    *(
        f"google.protobuf.{m}_pb2"
        for m in ("any", "api", "descriptor", "duration", "empty", "field_mask", "source_context", "struct")
    ),
    *(f"google.protobuf.{m}_pb2" for m in ("timestamp", "type", "wrappers")),
    *(
        f"google.type.{m}_pb2"
        for m in ("date", "datetime", "dayofweek", "decimal", "latlng", "money", "month", "timeofday")
    ),
    "confluent_kafka.schema_registry.confluent.meta_pb2",
    "confluent_kafka.schema_registry.confluent.types.decimal_pb2",
]
_builtins: dict[str, descriptor_pb2.FileDescriptorProto] | None = None
_builtins_lock = threading.Lock()


def _builtin_files() -> dict[str, descriptor_pb2.FileDescriptorProto]:
    global _builtins
    with _builtins_lock:
        if _builtins is None:
            out = {}
            for mod in _BUILTIN_MODULES:
                try:
                    serialized = importlib.import_module(mod).DESCRIPTOR.serialized_pb
                except ImportError:
                    continue
                fdp = descriptor_pb2.FileDescriptorProto.FromString(serialized)
                out[fdp.name] = fdp
            _builtins = out
        return _builtins


# ------------------------------------------------------------------------------- schemas from the registry
class ProtoSchema:
    """A registered Protobuf schema as a descriptor pool (its references and the built-ins loaded)."""

    def __init__(self, lookup: SchemaRegistryReader, answer: dict[str, Any]) -> None:
        if answer.get("schemaType", "AVRO") != "PROTOBUF":
            raise ConfluentDecodeError(f"schema is {answer.get('schemaType', 'AVRO')}, not PROTOBUF")
        files = dict(_builtin_files())
        self._fetch_refs(lookup, answer.get("references") or [], files)
        self.file = _file(answer["schema"], "schema.proto")
        self.pool = descriptor_pool.DescriptorPool()
        added: set[str] = set()

        def add(fdp: descriptor_pb2.FileDescriptorProto) -> None:
            if fdp.name in added:
                return
            added.add(fdp.name)
            for dep in fdp.dependency:
                if dep not in files:
                    raise ConfluentDecodeError(f"import {dep!r} is neither a reference nor a built-in type")
                add(files[dep])
            self.pool.Add(fdp)

        add(self.file)

    @staticmethod
    def _fetch_refs(
        lookup: SchemaRegistryReader, refs: list[dict[str, Any]], files: dict[str, descriptor_pb2.FileDescriptorProto]
    ) -> None:
        for ref in refs:
            if ref["name"] in files:
                continue
            body = lookup.version(ref["subject"], ref["version"], fmt="serialized")
            ProtoSchema._fetch_refs(lookup, body.get("references") or [], files)
            files[ref["name"]] = _file(body["schema"], ref["name"])

    def message(self, indexes: Sequence[int]) -> Descriptor:
        """The message an index path names (first index: a top-level message, then nested ones)."""
        msgs = list(self.file.message_type)
        path: list[str] = []
        for i in indexes:
            if not 0 <= i < len(msgs):
                raise ConfluentDecodeError(f"message index {list(indexes)} out of range of the writer schema")
            path.append(msgs[i].name)
            msgs = list(msgs[i].nested_type)
        name = ".".join(([self.file.package] if self.file.package else []) + path)
        return self.pool.FindMessageTypeByName(name)

    def by_name(self, name: str | None) -> Descriptor:
        if name is None:
            return self.message([0])
        full = name if "." in name or not self.file.package else f"{self.file.package}.{name}"
        try:
            return self.pool.FindMessageTypeByName(full)
        except KeyError:
            raise ValueError(f"message {name!r} is not in the schema") from None

    @staticmethod
    def indexes_of(desc: Descriptor) -> list[int]:
        out: list[int] = []
        while desc is not None:
            siblings = desc.containing_type.nested_types if desc.containing_type else desc.file.message_types_by_name
            names = [d.name for d in siblings] if desc.containing_type else list(siblings)
            out.append(names.index(desc.name))
            desc = desc.containing_type
        return out[::-1]


def _file(schema: str, name: str) -> descriptor_pb2.FileDescriptorProto:
    try:
        fdp = descriptor_pb2.FileDescriptorProto.FromString(base64.b64decode(schema, validate=True))
    except (ValueError, DecodeError) as e:
        raise ConfluentDecodeError(f"the registry's serialized schema is not a FileDescriptorProto: {e}") from None
    fdp.name = name
    return fdp


# ------------------------------------------------------------------------------- type mapping
_SCALARS = {
    F.TYPE_INT32: pa.int32(),
    F.TYPE_SINT32: pa.int32(),
    F.TYPE_SFIXED32: pa.int32(),
    F.TYPE_INT64: pa.int64(),
    F.TYPE_SINT64: pa.int64(),
    F.TYPE_SFIXED64: pa.int64(),
    F.TYPE_UINT32: pa.int64(),
    F.TYPE_FIXED32: pa.int64(),
    F.TYPE_UINT64: pa.decimal128(20, 0),
    F.TYPE_FIXED64: pa.decimal128(20, 0),
    F.TYPE_FLOAT: pa.float32(),
    F.TYPE_DOUBLE: pa.float64(),
    F.TYPE_BOOL: pa.bool_(),
    F.TYPE_STRING: pa.string(),
    F.TYPE_BYTES: pa.binary(),
    F.TYPE_ENUM: pa.string(),
}


def _identity(v: Any) -> Any:
    return v


def _scalar_conv(f: FieldDescriptor) -> Callable[[Any], Any]:
    if f.type == F.TYPE_ENUM:
        names = {v.number: v.name for v in f.enum_type.values}
        return lambda v: names.get(v, str(v))
    if f.type in (F.TYPE_UINT64, F.TYPE_FIXED64):
        return Decimal
    return _identity


def _value(f: FieldDescriptor, stack: tuple[str, ...]) -> tuple[pa.DataType, Callable[[Any], Any]]:
    """The Arrow type and converter of one (non-repeated) value of field ``f``."""
    if f.type != F.TYPE_MESSAGE:
        return _SCALARS[f.type], _scalar_conv(f)
    return message_type(f.message_type, stack)


def message_type(desc: Descriptor, stack: tuple[str, ...] = ()) -> tuple[pa.DataType, Callable[[Any], Any]]:
    """(Arrow type, message -> Python value) of a message."""
    name = desc.full_name
    if name in stack:
        raise ValueError(f"recursive message type {name} ({' -> '.join((*stack, name))}) has no Spark type")
    if name == "google.protobuf.Timestamp":
        return pa.timestamp("us", tz="UTC"), lambda m: m.seconds * 1_000_000 + m.nanos // 1000
    if name == "google.protobuf.Duration":
        return pa.duration("us"), lambda m: m.seconds * 1_000_000 + m.nanos // 1000
    if name in WRAPPERS:
        typ, conv = _value(desc.fields_by_name["value"], stack)
        return typ, lambda m: conv(m.value)
    if name in AS_JSON:
        return pa.string(), lambda m: json_format.MessageToJson(m, indent=None)
    stack = (*stack, name)
    fields: list[pa.Field] = []
    getters: list[tuple[str, Callable[[Any], Any]]] = []
    for f in desc.fields:
        fname = f.name
        entry = f.message_type if f.type == F.TYPE_MESSAGE else None
        if entry is not None and entry.GetOptions().map_entry:
            ktyp, kconv = _value(entry.fields_by_name["key"], stack)
            vtyp, vconv = _value(entry.fields_by_name["value"], stack)
            fields.append(pa.field(fname, pa.map_(ktyp, pa.field("value", vtyp, True)), True))
            getters.append((fname, _map_getter(fname, kconv, vconv)))
            continue
        typ, conv = _value(f, stack)
        if f.is_repeated:
            fields.append(pa.field(fname, pa.list_(pa.field("element", typ, True)), True))
            getters.append((fname, _list_getter(fname, conv)))
        elif f.type == F.TYPE_MESSAGE or f.has_presence:
            fields.append(pa.field(fname, typ, True))
            getters.append((fname, _present_getter(fname, conv)))
        else:
            fields.append(pa.field(fname, typ, True))
            getters.append((fname, _plain_getter(fname, conv)))

    def to_dict(m: Any) -> dict[str, Any]:
        return {n: g(m) for n, g in getters}

    to_dict.getters = getters  # type: ignore[attr-defined]  # the columnar build's per-field path
    return pa.struct(fields), to_dict


def _map_getter(name: str, kconv: Callable[[Any], Any], vconv: Callable[[Any], Any]) -> Callable[[Any], Any]:
    if kconv is _identity and vconv is _identity:
        return lambda m: list(getattr(m, name).items())
    return lambda m: [(kconv(k), vconv(v)) for k, v in getattr(m, name).items()]


def _list_getter(name: str, conv: Callable[[Any], Any]) -> Callable[[Any], Any]:
    if conv is _identity:
        return lambda m: list(getattr(m, name))
    return lambda m: [conv(x) for x in getattr(m, name)]


def _present_getter(name: str, conv: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda m: conv(getattr(m, name)) if m.HasField(name) else None


def _plain_getter(name: str, conv: Callable[[Any], Any]) -> Callable[[Any], Any]:
    if conv is _identity:
        return operator.attrgetter(name)  # a C-level getter: the columnar build maps it over a batch
    return lambda m: conv(getattr(m, name))


# ------------------------------------------------------------------------------- batch codec
def decode(
    values: list[bytes | None],
    headers: list[bytes | None],
    lookup: SchemaRegistryReader,
    reader: Descriptor,
    mode: str,
    where: list[str] | None = None,
) -> pa.Array:
    typ, to_dict = message_type(reader)
    checked: dict[Any, str | None] = {}  # (schema ref, indexes) -> error or None, once per batch
    bodies: list[bytes | None] = []
    last_head = b""  # the previous record's whole prefix (id and indexes): a batch rarely changes it
    for i, v in enumerate(values):
        if v is None:
            bodies.append(None)
            continue
        if last_head and headers[i] is None and v[: len(last_head)] == last_head:
            bodies.append(v[len(last_head) :])
            continue
        try:
            ref, indexes, body = split_frame(v, headers[i], with_indexes=True)
            key = (ref, indexes)
            if key not in checked:
                writer = _writer(lookup, ref).message(indexes or (0,))
                checked[key] = (
                    None
                    if writer.full_name == reader.full_name
                    else f"written as {writer.full_name}, the reader reads {reader.full_name}"
                )
            if checked[key] is not None:
                raise ConfluentDecodeError(checked[key])
            bodies.append(bytes(body))
            last_head = v[: len(v) - len(body)] if headers[i] is None else b""
        except Exception as e:
            if mode == "FAILFAST":
                raise ConfluentDecodeError(f"Malformed Confluent Protobuf record at {_at(where, i)}: {e}") from e
            bodies.append(None)
    msgs = _parse_all(reader, bodies, mode, where)
    return _build(typ, to_dict, msgs)


def _at(where: list[str] | None, i: int) -> str:
    return where[i] if where else f"row {i} of the batch"


_batch_types: dict[tuple[int, str], Any] = {}


def _batch_class(reader: Descriptor) -> Any:
    """A message ``{ repeated <reader> items = 1; }`` beside the reader: a batch of bodies laid out as its
    length-delimited field 1 parses in one call (a submessage of length L parses exactly as those L bytes)."""
    pool = reader.file.pool
    key = (id(pool), reader.full_name)
    hit = _batch_types.get(key)
    if hit is None:
        name = "pykafka_batch_" + reader.full_name.replace(".", "_")
        fdp = descriptor_pb2.FileDescriptorProto(name=name + ".proto", package="pykafka_batch", syntax="proto3")
        fdp.dependency.append(reader.file.name)
        m = fdp.message_type.add(name=name)
        m.field.add(
            name="items",
            number=1,
            type=descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE,
            label=descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED,
            type_name="." + reader.full_name,
        )
        try:
            pool.FindFileByName(fdp.name)
        except KeyError:
            pool.Add(fdp)
        hit = _batch_types[key] = GetMessageClass(pool.FindMessageTypeByName(f"pykafka_batch.{name}"))
    return hit


def _parse_all(reader: Descriptor, bodies: list[bytes | None], mode: str, where: list[str] | None) -> list[Any]:
    present = [b for b in bodies if b is not None]
    if present:
        try:
            payload = b"".join(b"\x0a" + _uvarint(len(b)) + b for b in present)
            items = _batch_class(reader).FromString(payload).items
            if len(present) == len(bodies):
                return list(items)
            it = iter(items)
            return [None if b is None else next(it) for b in bodies]
        except DecodeError:
            pass  # some body is malformed: the per-record loop names it
    cls = GetMessageClass(reader)
    out: list[Any] = []
    for i, b in enumerate(bodies):
        if b is None:
            out.append(None)
            continue
        try:
            out.append(cls.FromString(b))
        except DecodeError as e:
            if mode == "FAILFAST":
                raise ConfluentDecodeError(f"Malformed Confluent Protobuf record at {_at(where, i)}: {e}") from e
            out.append(None)
    return out


def _uvarint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _build(typ: pa.StructType, to_dict: Any, msgs: list[Any]) -> pa.Array:
    """The struct column built field by field (one ``pyarrow.array`` per top-level field)."""
    nulls = [m is None for m in msgs]
    live = [m for m in msgs if m is not None]
    arrays = []
    for (_, getter), fld in zip(to_dict.getters, typ, strict=True):
        vals = list(map(getter, live))
        if len(live) != len(msgs):
            it = iter(vals)
            vals = [None if n else next(it) for n in nulls]
        arrays.append(pa.array(vals, type=fld.type))
    mask = pa.array(nulls, type=pa.bool_()) if any(nulls) else None
    return pa.StructArray.from_arrays(arrays, fields=list(typ), mask=mask)


_writers: dict[tuple[str, Any], ProtoSchema] = {}
_writers_lock = threading.Lock()


def _writer(lookup: SchemaRegistryReader, ref: Any) -> ProtoSchema:
    key = (lookup.url, ref)
    hit = _writers.get(key)
    if hit is None:
        hit = ProtoSchema(lookup, lookup.schema(ref, fmt="serialized"))
        with _writers_lock:
            _writers[key] = hit
    return hit


def _fill(msg: Any, value: dict[str, Any]) -> None:
    """Set a message's fields from a Spark row dict (the inverse of ``message_type``'s converter)."""
    desc = msg.DESCRIPTOR
    for name, v in value.items():
        if v is None:
            continue
        f = desc.fields_by_name.get(name)
        if f is None:
            raise ConfluentDecodeError(f"{desc.full_name} has no field {name!r}")
        entry = f.message_type if f.type == F.TYPE_MESSAGE else None
        if entry is not None and entry.GetOptions().map_entry:
            target = getattr(msg, name)
            items = v.items() if isinstance(v, dict) else v
            vf = entry.fields_by_name["value"]
            for k, x in items:
                if vf.type == F.TYPE_MESSAGE:
                    _set_message(target[k], x)
                else:
                    target[k] = _scalar_in(vf, x)
        elif f.is_repeated:
            target = getattr(msg, name)
            for x in v:
                if f.type == F.TYPE_MESSAGE:
                    _set_message(target.add(), x)
                else:
                    target.append(_scalar_in(f, x))
        elif f.type == F.TYPE_MESSAGE:
            _set_message(getattr(msg, name), v)
        else:
            setattr(msg, name, _scalar_in(f, v))


def _scalar_in(f: FieldDescriptor, v: Any) -> Any:
    if f.type == F.TYPE_ENUM and isinstance(v, str):
        return f.enum_type.values_by_name[v].number
    if f.type in (F.TYPE_UINT64, F.TYPE_FIXED64):
        return int(v)
    return v


def _set_message(msg: Any, v: Any) -> None:
    name = msg.DESCRIPTOR.full_name
    if name == "google.protobuf.Timestamp":
        msg.FromDatetime(v)
    elif name == "google.protobuf.Duration":
        msg.FromTimedelta(v)
    elif name in WRAPPERS:
        msg.value = _scalar_in(msg.DESCRIPTOR.fields_by_name["value"], v)
    elif name in AS_JSON:
        json_format.Parse(v, msg)
    else:
        msg.SetInParent()
        _fill(msg, v)


# ------------------------------------------------------------------------------- Spark Columns
def from_confluent_protobuf(
    col: Any,
    schema_registry_url: str,
    subject: str,
    message_name: str | None = None,
    options: dict[str, str] | None = None,
    position: tuple[Any, Any] | None = ("partition", "offset"),
    headers: Any = None,
    field: str = "value",
) -> Any:
    """Decode Confluent-framed Protobuf records into the Spark type of the reader message: ``message_name``
    (or the first message) of the latest schema of ``subject``. ``headers``: the source's headers column
    (``includeHeaders``), for records whose schema GUID and message indexes travel in the
    ``__value_schema_id`` header. ``position``: the (partition, offset) columns FAILFAST errors name."""
    from pyspark.sql.pandas.types import from_arrow_type

    mode = mode_of(options)
    lookup = SchemaRegistryReader(schema_registry_url)
    latest = lookup.version(subject, "latest", fmt="serialized")
    reader_schema = ProtoSchema(lookup, latest)
    reader_desc = reader_schema.by_name(message_name)
    rtype = from_arrow_type(message_type(reader_desc)[0])
    url, has_h, has_p = schema_registry_url, headers is not None, position is not None
    header_name = KEY_HEADER if field == "key" else VALUE_HEADER
    latest_id, full_name = int(latest["id"]), reader_desc.full_name

    def run(*args: pa.Array) -> pa.Array:
        values, hdrs, where = unpack(args, has_h, has_p, header_name)
        worker_lookup = SchemaRegistryReader(url)
        reader = _writer(worker_lookup, ("id", latest_id)).pool.FindMessageTypeByName(full_name)
        return decode(values, hdrs, worker_lookup, reader, mode, where)

    return arrow_udf(run, rtype)(*columns(col, position, headers))


def to_confluent_protobuf(
    col: Any, schema_registry_url: str, subject: str, schema: str | None = None, message_name: str | None = None
) -> Any:
    """Encode a struct column as Confluent-framed Protobuf: ``schema`` (.proto text) registered under
    ``subject`` (or the subject's latest schema), ``message_name`` (or the first message) of it; the
    prefix carries the schema id and the message's index path."""
    from pyspark.sql.types import BinaryType

    lookup = SchemaRegistryReader(schema_registry_url)
    sid = (
        int(lookup.version(subject, "latest")["id"]) if schema is None else lookup.register(subject, schema, "PROTOBUF")
    )
    desc = _writer(lookup, ("id", sid)).by_name(message_name)
    prefix = bytes([MAGIC_ID]) + sid.to_bytes(4, "big") + write_indexes(ProtoSchema.indexes_of(desc))
    url, full_name = schema_registry_url, desc.full_name

    def run(arr: pa.Array) -> pa.Array:
        cls = GetMessageClass(_writer(SchemaRegistryReader(url), ("id", sid)).pool.FindMessageTypeByName(full_name))
        out: list[bytes | None] = []
        for v in arr.to_pylist():
            if v is None:
                out.append(None)
                continue
            msg = cls()
            _fill(msg, v)
            out.append(prefix + msg.SerializeToString())
        return pa.array(out, type=pa.binary())

    return arrow_udf(run, BinaryType())(col)
