"""JSON Schema and Protobuf compatibility decisions against tables of schema pairs whose outcomes are
read off Confluent's rules (its json-schema-provider and protobuf-provider diff: a change is
BACKWARD-compatible when every difference found is in the provider's set of compatible changes;
FORWARD is the same check with old and new swapped), at every level, through the registry core.

JSON rows carry witnesses: for a direction the table calls incompatible, a document the writer schema
accepts and the reader schema refuses (checked with ``jsonschema``), so the table is not just our
checker's opinion. Protobuf rows are cross-checked on the wire where a scalar changes group: a value
written with the old type decodes to a different value with the new one.

JSON content models (Confluent's terms): *open* = additional properties allowed with no schema and no
patternProperties; *closed* = additionalProperties false; *partially open* = patternProperties or an
additionalProperties schema.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("jsonschema")
pytest.importorskip("grpc_tools")

import jsonschema  # noqa: E402

from schema_registry import errors as E  # noqa: E402
from schema_registry.core import Registry  # noqa: E402

OPEN: dict[str, Any] = {}
CLOSED = {"additionalProperties": False}


def obj(props: dict[str, Any], required: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props, **kw}
    if required:
        out["required"] = required
    return out


INT, N, S = {"type": "integer"}, {"type": "number"}, {"type": "string"}
# (id, old, new, BACKWARD ok, FORWARD ok, witness for !BACKWARD: old accepts, new refuses; witness for !FORWARD)
JSON_PAIRS: list[tuple[str, dict, dict, bool, bool, Any, Any]] = [
    ("optional property added to a closed object", obj({"a": INT}, **CLOSED), obj({"a": INT, "b": S}, **CLOSED),
     True, False, None, {"a": 1, "b": "x"}),
    ("property added to an open object", obj({"a": INT}), obj({"a": INT, "b": S}),
     False, True, {"b": 5}, None),
    ("property with an empty schema added to an open object", obj({"a": INT}), obj({"a": INT, "b": {}}),
     True, True, None, None),
    ("required property with a default added to a closed object", obj({"a": INT}, **CLOSED),
     obj({"a": INT, "b": {**S, "default": "x"}}, ["b"], **CLOSED), True, False, None, {"a": 1, "b": "y"}),
    ("required property without default added to a closed object", obj({"a": INT}, **CLOSED),
     obj({"a": INT, "b": S}, ["b"], **CLOSED), False, False, {"a": 1}, {"a": 1, "b": "y"}),
    ("integer widened to number", obj({"a": INT}), obj({"a": N}), True, False, None, {"a": 1.5}),
    ("string changed to integer", obj({"a": S}), obj({"a": INT}), False, False, {"a": "x"}, {"a": 1}),
    ("maxLength increased", {**S, "maxLength": 10}, {**S, "maxLength": 20}, True, False, None, "x" * 15),
    ("minimum added", obj({"a": INT}), obj({"a": {**INT, "minimum": 0}}), False, True, {"a": -5}, None),
    ("enum extended", {"enum": ["A"]}, {"enum": ["A", "B"]}, True, False, None, "B"),
    ("required removed", obj({"a": INT}, ["a"]), obj({"a": INT}), True, False, None, {}),
    ("type made nullable (anyOf)", obj({"a": INT}), obj({"a": {"anyOf": [INT, {"type": "null"}]}}),
     True, False, None, {"a": None}),
    ("closed object opened", obj({"a": INT}, **CLOSED), obj({"a": INT}), True, False, None, {"zz": 1}),
    (
        "property added under a covering patternProperties",
        obj({"a": INT}, patternProperties={"^x_": S}, additionalProperties=False),
        obj({"a": INT, "x_1": S}, patternProperties={"^x_": S}, additionalProperties=False),
        True, True, None, None,
    ),
    (
        "property added against the additionalProperties schema",
        obj({"a": INT}, additionalProperties=S),
        obj({"a": INT, "b": INT}, additionalProperties=S),
        False, False, {"b": "s"}, {"b": 3},
    ),
    ("anyOf branch added", {"anyOf": [S, INT]}, {"anyOf": [S, INT, {"type": "boolean"}]}, True, False, None, True),
    ("anyOf branch removed", {"anyOf": [S, INT]}, {"anyOf": [S]}, False, True, 1, None),
    # 1 is both a number and an integer: oneOf refuses it, anyOf takes it
    ("oneOf widened to anyOf", {"oneOf": [N, INT]}, {"anyOf": [N, INT]}, True, False, None, 1),
    ("array items widened", {"type": "array", "items": INT}, {"type": "array", "items": N},
     True, False, None, [1.5]),
    (
        "draft 2020-12 $defs target changes type",
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"T": S},
         "type": "object", "properties": {"a": {"$ref": "#/$defs/T"}}},
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"T": INT},
         "type": "object", "properties": {"a": {"$ref": "#/$defs/T"}}},
        False, False, {"a": "s"}, {"a": 1},
    ),
]  # fmt: skip

PROTO_BASE = """syntax = "proto3";
package p;
message M {
  int32 a = 1;
  string b = 2;
  Line line = 3;
  map<string, int32> m = 4;
  E e = 5;
  fixed32 f = 6;
  float g = 7;
  message Line { string sku = 1; int32 qty = 2; }
  enum E { ZERO = 0; ONE = 1; }
}
message Other { string x = 1; }
"""


def proto(old: str, new: str) -> str:
    assert old in PROTO_BASE, old
    return PROTO_BASE.replace(old, new)


# (id, old, new, BACKWARD ok, FORWARD ok)
PROTO_PAIRS: list[tuple[str, str, str, bool, bool]] = [
    ("field added", PROTO_BASE, proto("float g = 7;", "float g = 7; int64 h = 8;"), True, True),
    ("field removed", PROTO_BASE, proto("string b = 2;", ""), True, True),
    ("field renamed, same number", PROTO_BASE, proto("string b = 2;", "string bee = 2;"), True, True),
    ("int32 -> int64 (same group)", PROTO_BASE, proto("int32 a = 1;", "int64 a = 1;"), True, True),
    ("int32 -> sint32 (zigzag: other group)", PROTO_BASE, proto("int32 a = 1;", "sint32 a = 1;"), False, False),
    ("string -> bytes", PROTO_BASE, proto("string b = 2;", "bytes b = 2;"), True, True),
    ("string -> int32", PROTO_BASE, proto("string b = 2;", "int32 b = 2;"), False, False),
    ("fixed32 -> sfixed32", PROTO_BASE, proto("fixed32 f = 6;", "sfixed32 f = 6;"), True, True),
    ("float -> double", PROTO_BASE, proto("float g = 7;", "double g = 7;"), False, False),
    ("enum -> int32 (same group)", PROTO_BASE, proto("E e = 5;", "int32 e = 5;"), True, True),
    ("enum value added", PROTO_BASE, proto("ONE = 1;", "ONE = 1; TWO = 2;"), True, True),
    ("message type added", PROTO_BASE, PROTO_BASE + "message Third { int32 z = 1; }\n", True, False),
    ("package changed", PROTO_BASE, proto("package p;", "package q;"), False, False),
    ("field's message type changed", PROTO_BASE, proto("Line line = 3;", "Other line = 3;"), False, False),
    ("scalar field -> message field", PROTO_BASE, proto("string b = 2;", "Other b = 2;"), False, False),
    ("map value type changed", PROTO_BASE, proto("map<string, int32> m", "map<string, string> m"), False, False),
    (
        "nested message field changes group",
        PROTO_BASE,
        proto("int32 qty = 2;", "string qty = 2;"),
        False,
        False,
    ),
    ("messages reordered", PROTO_BASE, proto("message Other { string x = 1; }\n", "").replace(
        "package p;\n", "package p;\nmessage Other { string x = 1; }\n"), True, True),
    ("one field moved into a new oneof", PROTO_BASE, proto("int32 a = 1;", "oneof o { int32 a = 1; }"), True, True),
    (
        "two fields moved into a new oneof",
        PROTO_BASE,
        proto("int32 a = 1;\n  string b = 2;", "oneof o { int32 a = 1; string b = 2; }"),
        False,
        True,
    ),
    (
        "oneof member changes group",
        proto("int32 a = 1;", "oneof o { int32 a = 1; int64 a2 = 9; }"),
        proto("int32 a = 1;", "oneof o { int32 a = 1; string a2 = 9; }"),
        False,
        False,
    ),
    (
        "field moved out of a oneof",
        proto("int32 a = 1;", "oneof o { int32 a = 1; int64 a2 = 9; }"),
        proto("int32 a = 1;", "oneof o { int32 a = 1; } int64 a2 = 9;"),
        True,
        False,
    ),
    (
        "field removed from a oneof",
        proto("int32 a = 1;", "oneof o { int32 a = 1; int64 a2 = 9; }"),
        proto("int32 a = 1;", "oneof o { int32 a = 1; }"),
        False,
        True,
    ),
]  # fmt: skip

PROTO2_BASE = 'syntax = "proto2";\npackage p;\nmessage M { optional int32 a = 1; }\n'
PROTO_PAIRS.append(
    ("proto2 required field added", PROTO2_BASE, PROTO2_BASE.replace("a = 1;", "a = 1; required int32 r = 2;"),
     False, False)
)  # fmt: skip


def _registry(level: str) -> Registry:
    reg = Registry()
    for k, v in reg.plan_config(None, level):
        reg.apply(k, v)
    return reg


def _register(reg: Registry, subject: str, schema: str, schema_type: str) -> None:
    found, records = reg.plan_register(subject, schema, schema_type)
    for k, v in records:
        reg.apply(k, v)


def _decision(level: str, schema_type: str, versions: list[str], new: str) -> bool:
    reg = _registry(level)
    for s in versions:
        _register(reg, "s", s, schema_type)
    return not reg.compatibility_messages("s", new, schema_type, [])


LEVELS = ("NONE", "BACKWARD", "FORWARD", "FULL", "BACKWARD_TRANSITIVE", "FORWARD_TRANSITIVE", "FULL_TRANSITIVE")


def _expected(level: str, backward: bool, forward: bool) -> bool:
    base = level.removesuffix("_TRANSITIVE")
    return {"NONE": True, "BACKWARD": backward, "FORWARD": forward, "FULL": backward and forward}[base]


@pytest.mark.parametrize(
    ("old", "new", "backward", "forward"), [p[1:5] for p in JSON_PAIRS], ids=[p[0] for p in JSON_PAIRS]
)
def test_json_levels_follow_the_table(old: dict, new: dict, backward: bool, forward: bool) -> None:
    for level in LEVELS:
        got = _decision(level, "JSON", [json.dumps(old)], json.dumps(new))
        assert got == _expected(level, backward, forward), level


JSON_IDS = [p[0] for p in JSON_PAIRS]


@pytest.mark.parametrize(("old", "new", "backward", "forward", "wb", "wf"), [p[1:] for p in JSON_PAIRS], ids=JSON_IDS)
def test_json_witnesses_show_the_incompatibility(
    old: dict, new: dict, backward: bool, forward: bool, wb: Any, wf: Any
) -> None:
    def accepts(schema: dict, doc: Any) -> bool:
        return jsonschema.validators.validator_for(schema)(schema).is_valid(doc)

    assert (wb is None) == backward and (wf is None) == forward
    if wb is not None:  # data the old schema wrote that a consumer on the new schema refuses
        assert accepts(old, wb) and not accepts(new, wb)
    if wf is not None:
        assert accepts(new, wf) and not accepts(old, wf)


@pytest.mark.parametrize(
    ("old", "new", "backward", "forward"), [p[1:5] for p in PROTO_PAIRS], ids=[p[0] for p in PROTO_PAIRS]
)
def test_protobuf_levels_follow_the_table(old: str, new: str, backward: bool, forward: bool) -> None:
    for level in ("NONE", "BACKWARD", "FORWARD", "FULL"):
        assert _decision(level, "PROTOBUF", [old], new) == _expected(level, backward, forward), level


def test_protobuf_scalar_groups_match_the_wire() -> None:
    """The groups are wire facts: int32 -> int64 reads the same varint; int32 -> sint32 reads it zigzagged."""
    from google.protobuf import descriptor_pb2, descriptor_pool
    from google.protobuf.message_factory import GetMessageClass

    def cls(type_: int, name: str) -> Any:
        fdp = descriptor_pb2.FileDescriptorProto(name=f"{name}.proto", package=name, syntax="proto3")
        m = fdp.message_type.add(name="M")
        m.field.add(name="a", number=1, type=type_, label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
        pool = descriptor_pool.DescriptorPool()
        pool.Add(fdp)
        return GetMessageClass(pool.FindMessageTypeByName(f"{name}.M"))

    F = descriptor_pb2.FieldDescriptorProto
    wire = cls(F.TYPE_INT32, "w")(a=-3).SerializeToString()
    assert cls(F.TYPE_INT64, "r1").FromString(wire).a == -3
    assert cls(F.TYPE_SINT32, "r2").FromString(wire).a != -3


# three versions: each step passes, the last breaks against the first (field 2 string, removed, back as int32)
CHAIN = [
    'syntax = "proto3";\nmessage M { int32 a = 1; string b = 2; }\n',
    'syntax = "proto3";\nmessage M { int32 a = 1; }\n',
    'syntax = "proto3";\nmessage M { int32 a = 1; int32 b = 2; }\n',
]


@pytest.mark.parametrize("base", ["BACKWARD", "FORWARD", "FULL"])
def test_protobuf_transitive_levels_check_every_version(base: str) -> None:
    v1, v2, v3 = CHAIN
    assert _decision(base, "PROTOBUF", [v1, v2], v3)
    assert not _decision(base + "_TRANSITIVE", "PROTOBUF", [v1, v2], v3)
    assert _decision(base + "_TRANSITIVE", "PROTOBUF", [v2], v3)


def test_schema_type_change_is_refused_unless_none() -> None:
    avro = json.dumps({"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]})
    reg = _registry("BACKWARD")
    _register(reg, "s", avro, "AVRO")
    assert reg.compatibility_messages("s", json.dumps(obj({"a": INT})), "JSON", []) == [
        "schema type changed from AVRO to JSON"
    ]
    reg = _registry("NONE")
    _register(reg, "s", avro, "AVRO")
    _register(reg, "s", json.dumps(obj({"a": INT})), "JSON")
    assert reg.list_versions("s") == [1, 2]


@pytest.mark.parametrize(
    ("schema_type", "schema", "needle"),
    [
        ("JSON", '{"type": "nosuchtype"}', "Draft7Validator"),
        ("JSON", '{"$schema": "http://example.com/draft-99", "type": "string"}', "unsupported $schema"),
        ("JSON", "[1, 2]", "object or a boolean"),
        ("JSON", "{not json", "not JSON"),
        ("PROTOBUF", 'syntax = "proto3"; message M { int32 a = 1 }', "line 1"),
        ("PROTOBUF", 'syntax = "proto3"; message M { Missing a = 1; }', "Missing"),
        ("PROTOBUF", 'syntax = "proto3"; import "nowhere.proto"; message M { int32 a = 1; }', "nowhere.proto"),
    ],
)
def test_bad_schemas_get_42201_with_the_reason(schema_type: str, schema: str, needle: str) -> None:
    with pytest.raises(E.RegistryError) as ei:
        Registry().plan_register("s", schema, schema_type)
    assert ei.value.error_code == E.INVALID_SCHEMA and needle in ei.value.message, ei.value.message


def test_same_schema_same_id_and_guid_across_text_forms() -> None:
    reg = Registry()
    _register(reg, "a", '{"type": "string"}', "JSON")
    _register(reg, "b", '{ "type" : "string" }', "JSON")  # same canonical form
    va, vb = reg.get_version("a", 1), reg.get_version("b", 1)
    assert va.id == vb.id and va.guid == vb.guid
    assert reg.id_of_guid(va.guid) == va.id
    _register(reg, "c", '{"type": "integer"}', "JSON")
    assert reg.get_version("c", 1).guid != va.guid
