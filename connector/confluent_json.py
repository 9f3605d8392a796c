"""Confluent-framed JSON Schema for PySpark columns: ``from_confluent_json`` / ``to_confluent_json``.

Mirrors ``from_confluent_avro``: the output Spark type is fixed at planning time by a reader schema
(``reader_schema`` or the latest version of ``subject``); each record names its writer schema by the
5-byte prefix or by the ``__value_schema_id`` header (GUID) and every writer schema a batch uses is
fetched once per worker (an unknown id fails the record as the mode says). JSON is self-describing, so
evolution is a projection onto the reader's type: properties the reader lacks are dropped, those the
writer lacked are null. ``options={"validate": "true"}`` also checks each document against its writer
schema (as confluent-kafka's JSONDeserializer does), at a cost.

JSON Schema -> Spark: object with properties -> struct (every field nullable); object with only an
``additionalProperties`` schema -> map<string, V>; array -> array; string -> string; integer -> long;
number -> double; boolean -> boolean; ``[T, "null"]`` / ``anyOf``/``oneOf`` of T and null -> T;
enums of strings -> string; ``$ref`` followed (local pointers and references); anything else (free
objects, other unions, ``{}``) -> the value's JSON text as a string.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pyarrow as pa

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
)

JSON_TEXT = "json"  # marker: the value is kept as its JSON text


# ------------------------------------------------------------------------------- type mapping
class _Resolver:
    """Follows ``$ref`` within a document and into its referenced documents (by URL)."""

    def __init__(self, doc: Any, refs: dict[str, Any]) -> None:
        self.doc = doc
        self.refs = refs

    def deref(self, node: Any, depth: int = 0) -> tuple[Any, Any]:
        """(node with $ref followed, the document it lives in)."""
        doc = self.doc
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and depth < 32:
            target = node["$ref"]
            base, _, pointer = target.partition("#")
            if base:
                doc = next((d for url, d in self.refs.items() if url == base or url.endswith("/" + base)), None)
                if doc is None:
                    raise ConfluentDecodeError(f"$ref {target!r} is not among the schema's references")
            node = doc
            for part in [p for p in pointer.split("/") if p]:
                part = part.replace("~1", "/").replace("~0", "~")
                node = node[int(part)] if isinstance(node, list) else node[part]
            depth += 1
        return node, doc


def _non_null(node: dict[str, Any]) -> list[Any] | None:
    for key in ("anyOf", "oneOf"):
        if isinstance(node.get(key), list):
            return [b for b in node[key] if not (isinstance(b, dict) and b.get("type") == "null")]
    t = node.get("type")
    if isinstance(t, list):
        rest = {k: v for k, v in node.items() if k != "type"}
        return [{**rest, "type": x} for x in t if x != "null"]
    return None


def shape(node: Any, resolver: _Resolver, depth: int = 0) -> Any:
    """The reader's shape: a pa.DataType for plain values, ("struct", [(name, shape)]), ("list", shape),
    ("map", shape) or JSON_TEXT."""
    if depth > 24:
        return JSON_TEXT  # a recursive schema: deeper levels stay JSON text
    node, _ = resolver.deref(node)
    if not isinstance(node, dict):
        return JSON_TEXT
    branches = _non_null(node)
    if branches is not None:
        return shape(branches[0], resolver, depth + 1) if len(branches) == 1 else JSON_TEXT
    if "enum" in node:
        return pa.string() if all(isinstance(v, str) for v in node["enum"]) else JSON_TEXT
    t = node.get("type")
    if t is None and "properties" in node:
        t = "object"
    if t == "object":
        props = node.get("properties")
        if props:
            return ("struct", [(name, shape(sub, resolver, depth + 1)) for name, sub in props.items()])
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            return ("map", shape(extra, resolver, depth + 1))
        return JSON_TEXT
    if t == "array":
        items = node.get("items")
        return ("list", shape(items, resolver, depth + 1) if isinstance(items, dict) else JSON_TEXT)
    types: dict[Any, pa.DataType] = {
        "string": pa.string(),
        "integer": pa.int64(),
        "number": pa.float64(),
        "boolean": pa.bool_(),
    }
    return types.get(t, JSON_TEXT)  # no or an unknown "type": the document as JSON text


def arrow_type(s: Any) -> pa.DataType:
    if s == JSON_TEXT:
        return pa.string()
    if isinstance(s, pa.DataType):
        return s
    kind, inner = s
    if kind == "struct":
        return pa.struct([pa.field(n, arrow_type(x), True) for n, x in inner])
    if kind == "list":
        return pa.list_(pa.field("element", arrow_type(inner), True))
    return pa.map_(pa.string(), pa.field("value", arrow_type(inner), True))


def _identity(v: Any) -> Any:
    return v


def converter(s: Any) -> Callable[[Any], Any]:
    """A parsed JSON value -> what pyarrow builds the reader's column from (identity where it can)."""
    if s == JSON_TEXT:
        return lambda v: None if v is None else v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))
    if isinstance(s, pa.DataType):
        if s == pa.string():
            return lambda v: v if v is None or isinstance(v, str) else json.dumps(v)
        return _identity
    kind, inner = s
    if kind == "struct":
        convs = [(n, converter(x)) for n, x in inner]
        if all(c is _identity for _, c in convs):
            return lambda v: v if v is None or isinstance(v, dict) else _bad(v, "object")
        return lambda v: (
            None if v is None else {n: c(v.get(n)) for n, c in convs} if isinstance(v, dict) else _bad(v, "object")
        )
    if kind == "list":
        item = converter(inner)
        if item is _identity:
            return lambda v: v if v is None or isinstance(v, list) else _bad(v, "array")
        return lambda v: None if v is None else [item(x) for x in v] if isinstance(v, list) else _bad(v, "array")
    val = converter(inner)
    return lambda v: (
        None if v is None else [(k, val(x)) for k, x in v.items()] if isinstance(v, dict) else _bad(v, "object")
    )


def _bad(v: Any, want: str) -> Any:
    raise ConfluentDecodeError(f"expected a JSON {want}, got {json.dumps(v)[:80]}")


def reader_shape(lookup: SchemaRegistryReader, answer: dict[str, Any]) -> tuple[Any, Any]:
    """(shape, parsed schema) of a registry answer, with its references fetched."""
    if answer.get("schemaType", "AVRO") != "JSON":
        raise ConfluentDecodeError(f"schema is {answer.get('schemaType', 'AVRO')}, not JSON")
    doc = json.loads(answer["schema"])
    refs = _fetch_refs(lookup, answer.get("references") or [])
    return shape(doc, _Resolver(doc, refs)), (doc, refs)


def _fetch_refs(lookup: SchemaRegistryReader, refs: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for ref in refs:
        body = lookup.version(ref["subject"], ref["version"])
        out.update(_fetch_refs(lookup, body.get("references") or []))
        out[ref["name"]] = json.loads(body["schema"])
    return out


# ------------------------------------------------------------------------------- batch codec
def decode(
    values: list[bytes | None],
    headers: list[bytes | None],
    lookup: SchemaRegistryReader,
    s: Any,
    mode: str,
    validate: bool,
    where: list[str] | None = None,
) -> pa.Array:
    typ = arrow_type(s)
    conv = converter(s)
    writers: dict[Any, Any] = {}
    out: list[Any] = []
    for i, v in enumerate(values):
        if v is None:
            out.append(None)
            continue
        try:
            ref, _, body = split_frame(v, headers[i], with_indexes=False)
            writer = writers.get(ref)
            if writer is None:  # once per writer schema and batch (and per worker: the lookup caches)
                answer = lookup.schema(ref)
                if answer.get("schemaType", "AVRO") != "JSON":
                    raise ConfluentDecodeError(f"writer schema {ref[1]} is {answer.get('schemaType', 'AVRO')}")
                writer = writers[ref] = _validator(lookup, answer) if validate else True
            doc = json.loads(bytes(body))
            if validate:
                writer(doc)  # type: ignore[operator]  # validating: writers hold validators (True only when not)
            out.append(conv(doc))
        except Exception as e:
            if mode == "FAILFAST":
                at = where[i] if where else f"row {i} of the batch"
                raise ConfluentDecodeError(f"Malformed Confluent JSON record at {at}: {e}") from e
            out.append(None)
    try:
        return pa.array(out, type=typ)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        return _per_row(out, typ, mode, where)


def _per_row(rows: list[Any], typ: pa.DataType, mode: str, where: list[str] | None) -> pa.Array:
    """A batch pyarrow refused whole: find the rows whose values do not fit the reader's type."""
    fixed: list[Any] = []
    for i, r in enumerate(rows):
        try:
            pa.array([r], type=typ)
            fixed.append(r)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as e:
            if mode == "FAILFAST":
                at = where[i] if where else f"row {i} of the batch"
                raise ConfluentDecodeError(f"Confluent JSON record at {at} does not fit the reader schema: {e}") from e
            fixed.append(None)
    return pa.array(fixed, type=typ)


def _validator(lookup: SchemaRegistryReader, answer: dict[str, Any]) -> Callable[[Any], None]:
    import jsonschema
    import referencing
    import referencing.jsonschema

    doc = json.loads(answer["schema"])
    refs = _fetch_refs(lookup, answer.get("references") or [])
    registry = referencing.Registry().with_resources(
        (url, referencing.Resource.from_contents(d, default_specification=referencing.jsonschema.DRAFT7))
        for url, d in refs.items()
    )
    cls = jsonschema.validators.validator_for(doc, default=jsonschema.Draft7Validator)
    return cls(doc, registry=registry).validate


def _to_json_value(v: Any) -> Any:
    if isinstance(v, list) and v and isinstance(v[0], tuple):
        return {k: _to_json_value(x) for k, x in v}  # an Arrow map
    if isinstance(v, list):
        return [_to_json_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _to_json_value(x) for k, x in v.items() if x is not None}
    if isinstance(v, bytes):
        return v.decode()
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return v


def encode(values: list[Any], prefix: bytes) -> pa.Array:
    out = [
        None if v is None else prefix + json.dumps(_to_json_value(v), separators=(",", ":")).encode() for v in values
    ]
    return pa.array(out, type=pa.binary())


# ------------------------------------------------------------------------------- Spark Columns
def from_confluent_json(
    col: Any,
    schema_registry_url: str,
    subject: str | None = None,
    reader_schema: str | None = None,
    options: dict[str, str] | None = None,
    position: tuple[Any, Any] | None = ("partition", "offset"),
    headers: Any = None,
    field: str = "value",
) -> Any:
    """Decode Confluent-framed JSON Schema records into the Spark type of the reader schema (``reader_schema``
    or the latest version of ``subject``). ``headers``: the source's headers column (``includeHeaders``),
    for records whose schema GUID travels in the ``__value_schema_id`` header (``field="key"``: the key's).
    ``position``: the (partition, offset) columns FAILFAST errors name; ``None`` for other DataFrames."""
    from pyspark.sql.pandas.types import from_arrow_type

    mode = mode_of(options)
    validate = str((options or {}).get("validate", "false")).lower() == "true"
    lookup = SchemaRegistryReader(schema_registry_url)
    if reader_schema is None:
        if subject is None:
            raise ValueError("from_confluent_json needs option 'subject' or 'reader_schema' to fix the output type")
        s, _ = reader_shape(lookup, lookup.version(subject, "latest"))
    else:
        doc = json.loads(reader_schema)
        s = shape(doc, _Resolver(doc, {}))
    rtype = from_arrow_type(arrow_type(s))
    url, has_h, has_p = schema_registry_url, headers is not None, position is not None
    header_name = KEY_HEADER if field == "key" else VALUE_HEADER

    def run(*args: pa.Array) -> pa.Array:
        values, hdrs, where = unpack(args, has_h, has_p, header_name)
        return decode(values, hdrs, SchemaRegistryReader(url), s, mode, validate, where)

    return arrow_udf(run, rtype)(*columns(col, position, headers))


def to_confluent_json(col: Any, schema_registry_url: str, subject: str, schema_json: str | None = None) -> Any:
    """Encode a struct (or value) column as Confluent-framed JSON with ``schema_json`` registered under
    ``subject`` as a JSON schema (or the subject's latest schema), the schema id in the 5-byte prefix."""
    from pyspark.sql.types import BinaryType

    lookup = SchemaRegistryReader(schema_registry_url)
    if schema_json is None:
        sid = int(lookup.version(subject, "latest")["id"])
    else:
        sid = lookup.register(subject, schema_json, "JSON")
    prefix = bytes([MAGIC_ID]) + sid.to_bytes(4, "big")

    def run(arr: pa.Array) -> pa.Array:
        return encode(arr.to_pylist(), prefix)

    return arrow_udf(run, BinaryType())(col)
