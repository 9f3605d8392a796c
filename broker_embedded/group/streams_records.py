"""The streams group records of ``__consumer_offsets`` (KIP-1071), in Kafka 4.3's own layouts.

Kafka's group coordinator defines them as JSON specs (``StreamsGroup*Key``/``*Value``, record types
17 and 19-23; 18, the old partition metadata, is gone). A key is an int16 record type followed by
non-flexible strings; a value is an int16 version (0) followed by the flexible encoding. The layouts
are described here as data (`Schema`) and one small codec walks them, so a log Kafka wrote replays
here and the other way round. Values are plain dicts keyed by the snake_case field names; a None
value is a tombstone.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from broker_embedded.group.consumer_records import _Reader, _Writer

STREAMS_GROUP_METADATA = 17
STREAMS_GROUP_MEMBER_METADATA = 19
STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA = 20
STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER = 21
STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT = 22
STREAMS_GROUP_TOPOLOGY = 23
STREAMS_RECORD_TYPES = frozenset({17, 18, 19, 20, 21, 22, 23})
_MEMBER_KEYED = frozenset({19, 21, 22})

# A field: (name, type, tag or None, default for a tagged field). Types: the primitive names,
# ("[]", element), ("[]?", element) nullable array, ("{}", fields) struct, ("{}?", fields) nullable.
Field = tuple[str, Any, int | None, Any]
Schema = list[Field]


def _f(name: str, typ: Any, tag: int | None = None, default: Any = None) -> Field:
    return (name, typ, tag, default)


KEY_VALUE: Schema = [_f("key", "string"), _f("value", "string")]
TASK_IDS: Schema = [
    _f("subtopology_id", "string"),
    _f("partitions", ("[]", "int32")),
    _f("assignment_epochs", ("[]?", "int32"), 0, None),
]
TASK_IDS_PLAIN: Schema = TASK_IDS[:2]
TOPIC_INFO: Schema = [
    _f("name", "string"),
    _f("partitions", "int32"),
    _f("replication_factor", "int16"),
    _f("topic_configs", ("[]", ("{}", KEY_VALUE))),
]
COPARTITION_GROUP: Schema = [
    _f("source_topics", ("[]", "int16")),
    _f("source_topic_regex", ("[]", "int16")),
    _f("repartition_source_topics", ("[]", "int16")),
]
SUBTOPOLOGY: Schema = [
    _f("subtopology_id", "string"),
    _f("source_topics", ("[]", "string")),
    _f("source_topic_regex", ("[]", "string")),
    _f("state_changelog_topics", ("[]", ("{}", TOPIC_INFO))),
    _f("repartition_sink_topics", ("[]", "string")),
    _f("repartition_source_topics", ("[]", ("{}", TOPIC_INFO))),
    _f("copartition_groups", ("[]", ("{}", COPARTITION_GROUP))),
]
VALUE_SCHEMAS: dict[int, Schema] = {
    STREAMS_GROUP_METADATA: [
        _f("epoch", "int32"),
        _f("metadata_hash", "int64"),
        _f("validated_topology_epoch", "int32", 0, -1),
        _f("last_assignment_configs", ("[]?", ("{}", KEY_VALUE)), 1, None),
    ],
    STREAMS_GROUP_MEMBER_METADATA: [
        _f("instance_id", "string?"),
        _f("rack_id", "string?"),
        _f("client_id", "string"),
        _f("client_host", "string"),
        _f("rebalance_timeout_ms", "int32"),
        _f("topology_epoch", "int32"),
        _f("process_id", "string"),
        _f("user_endpoint", ("{}?", [_f("host", "string"), _f("port", "uint16")])),
        _f("client_tags", ("[]", ("{}", KEY_VALUE))),
    ],
    STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA: [
        _f("assignment_epoch", "int32"),
        _f("assignment_timestamp", "int64", 0, 0),
    ],
    STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER: [
        _f("active_tasks", ("[]", ("{}", TASK_IDS_PLAIN))),
        _f("standby_tasks", ("[]", ("{}", TASK_IDS_PLAIN))),
        _f("warmup_tasks", ("[]", ("{}", TASK_IDS_PLAIN))),
    ],
    STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT: [
        _f("member_epoch", "int32"),
        _f("previous_member_epoch", "int32"),
        _f("state", "int8"),
        *(
            _f(f"{kind}_tasks{suffix}", ("[]", ("{}", TASK_IDS)))
            for suffix in ("", "_pending_revocation")
            for kind in ("active", "standby", "warmup")
        ),
    ],
    STREAMS_GROUP_TOPOLOGY: [_f("epoch", "int32"), _f("subtopologies", ("[]", ("{}", SUBTOPOLOGY)))],
}

_FIXED = {"int8": ">b", "int16": ">h", "uint16": ">H", "int32": ">i", "int64": ">q"}


@dataclass(frozen=True)
class StreamsGroupKey:
    record_type: int
    group_id: str
    member_id: str | None = None


StreamsGroupRecord = tuple[StreamsGroupKey, dict[str, Any] | None]


def _write(w: _Writer, typ: Any, v: Any) -> None:
    if isinstance(typ, str):
        if typ in _FIXED:
            w.out += struct.pack(_FIXED[typ], v)
        elif typ in ("string", "string?"):
            w.compact_string(v)
        else:  # pragma: no cover - the schemas above use no other type
            raise ValueError(typ)
        return
    kind, inner = typ
    if kind in ("[]", "[]?"):
        if v is None:
            w.uvarint(0)
            return
        w.uvarint(len(v) + 1)
        for item in v:
            _write(w, inner, item)
    elif kind in ("{}", "{}?"):
        if kind == "{}?":
            w.int8(-1 if v is None else 1)
            if v is None:
                return
        _write_struct(w, inner, v)


def _write_struct(w: _Writer, schema: Schema, v: dict[str, Any]) -> None:
    tagged: list[tuple[int, bytes]] = []
    for name, typ, tag, default in schema:
        value = v.get(name, default)
        if tag is None:
            _write(w, typ, value)
        elif value != default:
            sub = _Writer()
            _write(sub, typ, value)
            tagged.append((tag, bytes(sub.out)))
    w.uvarint(len(tagged))
    for tag, data in tagged:
        w.uvarint(tag)
        w.uvarint(len(data))
        w.out += data


def _read(r: _Reader, typ: Any) -> Any:
    if isinstance(typ, str):
        if typ in _FIXED:
            s = struct.Struct(_FIXED[typ])
            return r._unpack(s)
        return r.compact_string()
    kind, inner = typ
    if kind in ("[]", "[]?"):
        n = r.uvarint() - 1
        return None if n < 0 else [_read(r, inner) for _ in range(n)]
    if kind == "{}?" and r.int8() < 0:
        return None
    return _read_struct(r, inner)


def _read_struct(r: _Reader, schema: Schema) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, typ, tag, default in schema:
        if tag is None:
            out[name] = _read(r, typ)
        else:
            out[name] = default
    by_tag = {tag: (name, typ) for name, typ, tag, _ in schema if tag is not None}
    for tag, data in r.tags().items():
        if tag in by_tag:  # unknown tags are skipped, as Kafka's generated readers do
            name, typ = by_tag[tag]
            out[name] = _read(_Reader(data), typ)
    return out


def encode_record(record: StreamsGroupRecord) -> tuple[bytes, bytes | None]:
    key, value = record
    w = _Writer()
    w.int16(key.record_type)
    w.string(key.group_id)
    if key.record_type in _MEMBER_KEYED:
        w.string(key.member_id or "")
    if value is None:
        return bytes(w.out), None
    v = _Writer()
    v.int16(0)
    _write_struct(v, VALUE_SCHEMAS[key.record_type], value)
    return bytes(w.out), bytes(v.out)


def decode_record(key: bytes, value: bytes | None) -> StreamsGroupRecord | None:
    """A streams group record, or None if the key is of another record type. Type 18 (the
    partition metadata of Kafka 4.0/4.1's early access) is decoded as an ignorable record."""
    if len(key) < 2:
        return None
    r = _Reader(key)
    record_type = r.int16()
    if record_type not in STREAMS_RECORD_TYPES:
        return None
    group_id = r.string()
    member_id = r.string() if record_type in _MEMBER_KEYED else None
    k = StreamsGroupKey(record_type, group_id, member_id)
    if value is None or record_type not in VALUE_SCHEMAS:
        return k, None
    vr = _Reader(value)
    vr.int16()  # the value version: 0 is the only one
    return k, _read_struct(vr, VALUE_SCHEMAS[record_type])
