"""Confluent's wire framing and schema-registry access shared by the JSON Schema and Protobuf functions.

A record names its writer schema in one of two places (confluent-kafka 2.16's serde):
- the payload prefix: magic byte 0 and a 4-byte big-endian schema id (``prefix_schema_id_serializer``);
- a record header (``header_schema_id_serializer``, Schema Registry 8): ``__value_schema_id`` (or
  ``__key_schema_id`` for keys) holding magic byte 1 and the schema's 16-byte GUID, the payload then
  being the bare body.
Protobuf adds the message-index path after the id or GUID: a zigzag varint count then that many zigzag
varints (a lone 0 byte stands for ``[0]``, the file's first message).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from kafka_wire.errors import PykafkaError

MAGIC_ID = 0
MAGIC_GUID = 1
VALUE_HEADER = "__value_schema_id"
KEY_HEADER = "__key_schema_id"
MODES = ("FAILFAST", "PERMISSIVE")


class ConfluentDecodeError(PykafkaError, ValueError):
    pass


def mode_of(options: dict[str, str] | None) -> str:
    mode = str((options or {}).get("mode", "FAILFAST")).upper()
    if mode not in MODES:
        raise ValueError(f"option 'mode' must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


def _varint(data: bytes | memoryview, pos: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        if pos >= len(data):
            raise ConfluentDecodeError("truncated message-index varint")
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return (value >> 1) ^ -(value & 1), pos
        shift += 7
        if shift > 63:
            raise ConfluentDecodeError("message-index varint longer than 10 bytes")


def read_indexes(data: bytes | memoryview, pos: int) -> tuple[tuple[int, ...], int]:
    count, pos = _varint(data, pos)
    if count == 0:
        return (0,), pos
    if count < 0 or count > 1000:
        raise ConfluentDecodeError(f"invalid message-index count {count}")
    out = []
    for _ in range(count):
        v, pos = _varint(data, pos)
        out.append(v)
    return tuple(out), pos


def zigzag(n: int) -> bytes:
    z, out = (n << 1) ^ (n >> 63), bytearray()
    while z > 0x7F:
        out.append((z & 0x7F) | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


def write_indexes(indexes: Sequence[int]) -> bytes:
    if list(indexes) == [0]:
        return b"\x00"
    return zigzag(len(indexes)) + b"".join(zigzag(i) for i in indexes)


SchemaRef = tuple[str, int | str]  # ("id", 42) or ("guid", "9f1c...")


def split_frame(
    value: bytes, header: bytes | None, with_indexes: bool
) -> tuple[SchemaRef, tuple[int, ...] | None, memoryview]:
    """(writer schema reference, message indexes or None, body) of one record."""
    if header is not None:
        if len(header) < 17 or header[0] != MAGIC_GUID:
            raise ConfluentDecodeError("schema-id header is not magic byte 1 and a 16-byte GUID")
        ref: SchemaRef = ("guid", str(uuid.UUID(bytes=bytes(header[1:17]))))
        indexes = read_indexes(header, 17)[0] if with_indexes else None
        return ref, indexes, memoryview(value)
    if len(value) < 5 or value[0] != MAGIC_ID:
        if len(value) >= 17 and value[0] == MAGIC_GUID:
            ref, pos = ("guid", str(uuid.UUID(bytes=bytes(value[1:17])))), 17
        else:
            raise ConfluentDecodeError(
                "not Confluent-framed (no magic byte 0 and 4-byte schema id, nor a schema-id header)"
            )
    else:
        ref, pos = ("id", int.from_bytes(value[1:5], "big")), 5
    indexes = None
    if with_indexes:
        indexes, pos = read_indexes(value, pos)
    return ref, indexes, memoryview(value)[pos:]


def header_values(headers: list[Any] | None, name: str) -> bytes | None:
    """The last header called ``name`` in the source's ``headers`` column (a list of key/value structs)."""
    if not headers:
        return None
    found = None
    for h in headers:
        key, val = (h.get("key"), h.get("value")) if isinstance(h, dict) else h
        if key == name:
            found = val
    return found


class SchemaRegistryReader:
    """Schemas from a Confluent-compatible registry by id, GUID or subject, cached per process."""

    _cache: dict[tuple[str, str], Any] = {}
    _lock = threading.Lock()

    def __init__(self, url: str, timeout_s: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s

    def request(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/vnd.schemaregistry.v1+json"}
        if data is not None:
            headers["Content-Type"] = "application/vnd.schemaregistry.v1+json"
        req = urllib.request.Request(self.url + path, data=data, headers=headers, method="POST" if data else "GET")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            detail = e.read().decode(errors="replace")
            raise ConfluentDecodeError(f"schema registry {self.url}{path} answered {e.code}: {detail}") from None
        except (urllib.error.URLError, OSError) as e:
            raise ConfluentDecodeError(f"schema registry {self.url} is not reachable ({path}): {e}") from None

    def cached(self, key: str, load: Callable[[], Any]) -> Any:
        full = (self.url, key)
        hit = self._cache.get(full)
        if hit is None:
            hit = load()
            with self._lock:
                self._cache[full] = hit
        return hit

    def schema(self, ref: SchemaRef, fmt: str | None = None) -> dict[str, Any]:
        """The registry's answer for a schema id or GUID (``schema``, ``schemaType``, ``references``)."""
        kind, key = ref
        query = f"?format={fmt}" if fmt else ""
        path = f"/schemas/ids/{key}{query}" if kind == "id" else f"/schemas/guids/{key}{query}"
        return self.cached(path, lambda: self.request(path))

    def version(self, subject: str, version: int | str, fmt: str | None = None) -> dict[str, Any]:
        query = f"?format={fmt}" if fmt else ""
        path = f"/subjects/{urllib.parse.quote(subject, safe='')}/versions/{version}{query}"
        if version == "latest":
            return self.request(path)  # the latest is read at planning time, never cached
        return self.cached(path, lambda: self.request(path))

    def register(self, subject: str, schema: str, schema_type: str, refs: list[dict[str, Any]] | None = None) -> int:
        body: dict[str, Any] = {"schema": schema, "schemaType": schema_type}
        if refs:
            body["references"] = refs
        return int(self.request(f"/subjects/{urllib.parse.quote(subject, safe='')}/versions", body)["id"])


def arrow_udf(fn: Callable[..., Any], return_type: Any) -> Any:
    from pyspark.sql.functions import arrow_udf as make

    # pyspark's overloads want a function typed with pandas/arrow types; ours are checked at run time by Spark
    return make(fn, return_type)  # type: ignore[call-overload]


def columns(col: Any, position: tuple[Any, Any] | None, headers: Any) -> list[Any]:
    """The UDF's input columns: the value, then the headers column if given, then the position ones."""
    out = [col]
    if headers is not None:
        out.append(headers)
    if position is not None:
        out += list(position)
    return out


def unpack(
    args: tuple[Any, ...], has_headers: bool, has_position: bool, header_name: str
) -> tuple[list[Any], list[bytes | None], list[str] | None]:
    """(values, schema-id header of each record or None, FAILFAST locations) from a UDF call's Arrow args."""
    values = args[0].to_pylist()
    i = 1
    if has_headers:
        hdrs = [header_values(h, header_name) for h in args[1].to_pylist()]
        i += 1
    else:
        hdrs = [None] * len(values)
    where = None
    if has_position:
        where = [f"partition {p} offset {o}" for p, o in zip(args[i].to_pylist(), args[i + 1].to_pylist(), strict=True)]
    return values, hdrs, where
