"""The registry's compatibility decisions against a table of schema pairs whose outcomes are read off
the Avro specification's "Schema Resolution" section (not from running our checker), at every level
(BACKWARD, FORWARD, FULL and the transitive variants), and cross-checked with fastavro's resolving
reader: data written with the writer schema decodes with the reader schema exactly when the table
says the reader can read the writer.

Rules of the specification each row relies on (quoted loosely, section "Schema Resolution"):
  P   primitives match when equal, or the writer's is promotable: int -> long, float, double;
      long -> float, double; float -> double; string -> bytes; bytes -> string.
  R   records match by unqualified name (or a reader alias); fields by name (or reader field
      alias); a writer field the reader lacks is ignored; a reader field the writer lacks takes its
      default, and without a default it is an error.
  E   enums match by name; a writer symbol missing from the reader is an error unless the reader
      has a default symbol.
  F   fixed types match by name and size.
  A/M arrays / maps match when their items / values match.
  U   a writer union is readable when every branch it may select is; a reader union reads a
      writer type when one of its branches matches it; otherwise the types must match.
  X   reader aliases name earlier names of named types and fields; writer aliases play no part.
"""

from __future__ import annotations

import io
import json
from typing import Any

import fastavro
import pytest

from schema_registry import errors as E
from schema_registry.compatibility import reader_can_read
from schema_registry.core import Registry


def rec(*fields: dict, name: str = "R", **kw: Any) -> dict:
    return {"type": "record", "name": name, "namespace": "t", "fields": list(fields), **kw}


def f(name: str, typ: object, **kw: object) -> dict:
    return {"name": name, "type": typ, **kw}


def one(typ: object) -> dict:
    """A record with the single field ``x`` of ``typ``."""
    return rec(f("x", typ))


def enum(*symbols: str, name: str = "E", **kw: Any) -> dict:
    return {"type": "enum", "name": name, "symbols": list(symbols), **kw}


def fixed(size: int, name: str = "F", **kw: Any) -> dict:
    return {"type": "fixed", "name": name, "size": size, **kw}


def nested(*fields: dict) -> dict:
    return rec(f("n", rec(*fields, name="N")))


# (id, old schema, new schema, BACKWARD: new reads old data, FORWARD: old reads new data, rule)
PAIRS: list[tuple[str, dict, dict, bool, bool, str]] = [
    # --- promotions (P)
    ("int->long", one("int"), one("long"), True, False, "P"),
    ("int->float", one("int"), one("float"), True, False, "P"),
    ("int->double", one("int"), one("double"), True, False, "P"),
    ("long->float", one("long"), one("float"), True, False, "P"),
    ("long->double", one("long"), one("double"), True, False, "P"),
    ("float->double", one("float"), one("double"), True, False, "P"),
    ("string->bytes", one("string"), one("bytes"), True, True, "P both ways"),
    ("int->string", one("int"), one("string"), False, False, "P no promotion"),
    ("boolean->int", one("boolean"), one("int"), False, False, "P no promotion"),
    ("float->long", one("float"), one("long"), False, True, "P long->float only"),
    ("bytes->fixed", one("bytes"), one(fixed(4)), False, False, "P bytes and fixed differ"),
    ("enum->string", one(enum("A")), one("string"), False, False, "E enum is not a string"),
    # --- record fields (R)
    ("add field with default", one("int"), rec(f("x", "int"), f("y", "string", default="d")), True, True, "R"),
    ("add field without default", one("int"), rec(f("x", "int"), f("y", "string")), False, True, "R"),
    (
        "add nullable field default null",
        one("int"),
        rec(f("x", "int"), f("y", ["null", "int"], default=None)),
        True,
        True,
        "R",
    ),
    ("remove field with default", rec(f("x", "int"), f("y", "long", default=0)), one("int"), True, True, "R"),
    ("remove field without default", rec(f("x", "int"), f("y", "long")), one("int"), True, False, "R"),
    ("rename field, no alias", one("int"), rec(f("z", "int")), False, False, "R"),
    ("rename field, reader alias", one("int"), rec(f("z", "int", aliases=["x"])), True, False, "R+X"),
    (
        "rename field, alias on the old side",
        rec(f("x", "int", aliases=["z"])),
        rec(f("z", "int")),
        False,
        True,
        "X reader aliases only",
    ),
    (
        "field order changed",
        rec(f("x", "int"), f("y", "string")),
        rec(f("y", "string"), f("x", "int")),
        True,
        True,
        "R",
    ),
    ("record renamed", one("int"), rec(f("x", "int"), name="S"), False, False, "R name"),
    ("record renamed with alias", one("int"), rec(f("x", "int"), name="S", aliases=["t.R"]), True, False, "R+X"),
    ("namespace changed", one("int"), {**one("int"), "namespace": "u"}, True, True, "R unqualified name"),
    # --- nested records
    (
        "nested: add field with default",
        nested(f("a", "int")),
        nested(f("a", "int"), f("b", "int", default=1)),
        True,
        True,
        "R",
    ),
    (
        "nested: add field without default",
        nested(f("a", "int")),
        nested(f("a", "int"), f("b", "int")),
        False,
        True,
        "R",
    ),
    ("nested: field promoted", nested(f("a", "int")), nested(f("a", "long")), True, False, "R+P"),
    ("nested: field type changed", nested(f("a", "int")), nested(f("a", "boolean")), False, False, "R+P"),
    # --- enums (E)
    ("enum symbol added", one(enum("A", "B")), one(enum("A", "B", "C")), True, False, "E"),
    ("enum symbol removed", one(enum("A", "B", "C")), one(enum("A", "B")), False, True, "E"),
    (
        "enum symbol removed, reader default",
        one(enum("A", "B", "C")),
        one(enum("A", "B", default="A")),
        True,
        True,
        "E default",
    ),
    (
        "enum symbol added, both default",
        one(enum("A", "B", default="A")),
        one(enum("A", "B", "C", default="A")),
        True,
        True,
        "E default",
    ),
    ("enum symbols reordered", one(enum("A", "B")), one(enum("B", "A")), True, True, "E by symbol"),
    ("enum renamed", one(enum("A")), one(enum("A", name="G")), False, False, "E name"),
    ("enum renamed with alias", one(enum("A")), one(enum("A", name="G", aliases=["t.E"])), True, False, "E+X"),
    # --- fixed (F)
    ("fixed size changed", one(fixed(4)), one(fixed(8)), False, False, "F size"),
    ("fixed renamed", one(fixed(4)), one(fixed(4, name="G")), False, False, "F name"),
    ("fixed renamed with alias", one(fixed(4)), one(fixed(4, name="G", aliases=["t.F"])), True, False, "F+X"),
    # --- arrays and maps (A/M)
    (
        "array items int->long",
        one({"type": "array", "items": "int"}),
        one({"type": "array", "items": "long"}),
        True,
        False,
        "A+P",
    ),
    (
        "array items string->bytes",
        one({"type": "array", "items": "string"}),
        one({"type": "array", "items": "bytes"}),
        True,
        True,
        "A+P",
    ),
    (
        "array items int->string",
        one({"type": "array", "items": "int"}),
        one({"type": "array", "items": "string"}),
        False,
        False,
        "A",
    ),
    (
        "map values float->double",
        one({"type": "map", "values": "float"}),
        one({"type": "map", "values": "double"}),
        True,
        False,
        "M+P",
    ),
    (
        "map values long->boolean",
        one({"type": "map", "values": "long"}),
        one({"type": "map", "values": "boolean"}),
        False,
        False,
        "M",
    ),
    (
        "array -> map",
        one({"type": "array", "items": "int"}),
        one({"type": "map", "values": "int"}),
        False,
        False,
        "A/M",
    ),
    (
        "array of records gains defaulted field",
        one({"type": "array", "items": rec(f("a", "int"), name="I")}),
        one({"type": "array", "items": rec(f("a", "int"), f("b", "string", default=""), name="I")}),
        True,
        True,
        "A+R",
    ),
    # --- unions (U)
    ("T -> [null, T]", one("int"), one(["null", "int"]), True, False, "U"),
    ("union widened", one(["null", "int"]), one(["null", "int", "string"]), True, False, "U"),
    ("union narrowed", one(["null", "int", "string"]), one(["null", "int"]), False, True, "U"),
    ("union branch promoted", one(["null", "int"]), one(["null", "long"]), True, False, "U+P"),
    ("union reordered", one(["int", "string"]), one(["string", "int"]), True, True, "U"),
    ("union -> other type", one(["null", "int"]), one("string"), False, False, "U"),
    ("T -> union without T", one("int"), one(["null", "string"]), False, False, "U"),
    ("T -> union with a promotable branch", one("int"), one(["null", "double"]), True, False, "U+P"),
    (
        "union record gains field without default",
        one(["null", rec(f("a", "int"), name="I")]),
        one(["null", rec(f("a", "int"), f("b", "int"), name="I")]),
        False,
        True,
        "U+R",
    ),
    # --- recursive types
    (
        "linked list gains defaulted field",
        rec(f("v", "int"), f("next", ["null", "t.R"], default=None)),
        rec(f("v", "int"), f("next", ["null", "t.R"], default=None), f("w", "int", default=0)),
        True,
        True,
        "R recursive",
    ),
    (
        "linked list value promoted",
        rec(f("v", "int"), f("next", ["null", "t.R"], default=None)),
        rec(f("v", "long"), f("next", ["null", "t.R"], default=None)),
        True,
        False,
        "R recursive+P",
    ),
    # --- logical types: resolution is on the underlying type
    ("date -> int", one({"type": "int", "logicalType": "date"}), one("int"), True, True, "P underlying type"),
    (
        "timestamp-millis -> timestamp-micros",
        one({"type": "long", "logicalType": "timestamp-millis"}),
        one({"type": "long", "logicalType": "timestamp-micros"}),
        True,
        True,
        "P underlying type",
    ),
]
IDS = [p[0] for p in PAIRS]


def _register(reg: Registry, subject: str, schema: dict) -> None:
    found, records = reg.plan_register(subject, json.dumps(schema))
    if found is None:
        for k, v in records:
            reg.apply(json.loads(json.dumps(k)), None if v is None else json.loads(json.dumps(v)))


def _decision(level: str, versions: list[dict], new: dict) -> bool:
    reg = Registry()
    for k, v in reg.plan_config(None, level):
        reg.apply(k, v)
    for schema in versions:
        _register(reg, "s", schema)
    return not reg.compatibility_messages("s", json.dumps(new), "AVRO", [])


@pytest.mark.parametrize(("old", "new", "backward", "forward"), [p[1:5] for p in PAIRS], ids=IDS)
def test_levels_follow_the_table(old: dict, new: dict, backward: bool, forward: bool) -> None:
    for level, expected in (
        ("NONE", True),
        ("BACKWARD", backward),
        ("FORWARD", forward),
        ("FULL", backward and forward),
        # one earlier version: the transitive levels decide as the plain ones
        ("BACKWARD_TRANSITIVE", backward),
        ("FORWARD_TRANSITIVE", forward),
        ("FULL_TRANSITIVE", backward and forward),
    ):
        assert _decision(level, [old], new) == expected, level
    # and the registry refuses exactly the incompatible ones with 409
    reg = Registry("FULL")
    _register(reg, "s", old)
    if backward and forward:
        _register(reg, "s", new)
        assert len(reg.list_versions("s")) in (1, 2)  # 1 when old and new are the same canonical schema
    else:
        with pytest.raises(E.RegistryError) as ei:
            reg.plan_register("s", json.dumps(new))
        assert (ei.value.status, ei.value.error_code) == (409, 409)


# Three versions each: every step passes the plain level, but the last version breaks it against the
# first (rule R), so the transitive level refuses it. (level, id, v1, v2, v3)
CHAINS: list[tuple[str, str, dict, dict, dict]] = [
    (
        # R: v2 adds y with a default, v3 drops the default: v3 reads v2's data (y present), not v1's
        "BACKWARD",
        "default dropped later",
        one("int"),
        rec(f("x", "int"), f("y", "int", default=0)),
        rec(f("x", "int"), f("y", "int")),
    ),
    (
        # R: v1 has y without a default; v2 gives it a default; v3 removes y: v2 reads v3's data, v1 cannot
        "FORWARD",
        "field removed after gaining a default",
        rec(f("x", "int"), f("y", "int")),
        rec(f("x", "int"), f("y", "int", default=0)),
        one("int"),
    ),
    (
        # R both ways: v2 adds z with a default (FULL with v1), v3 drops the default (FULL with v2,
        # which always writes z), but v3 cannot read v1's data
        "FULL",
        "default dropped two steps later",
        one("int"),
        rec(f("x", "int"), f("z", "string", default="")),
        rec(f("x", "int"), f("z", "string")),
    ),
]


@pytest.mark.parametrize(("base", "v1", "v2", "v3"), [c[:1] + c[2:] for c in CHAINS], ids=[c[1] for c in CHAINS])
def test_transitive_levels_check_every_version(base: str, v1: dict, v2: dict, v3: dict) -> None:
    assert _decision(base, [v1], v2)  # each step is fine at the plain level
    assert _decision(base, [v1, v2], v3)
    assert not _decision(base + "_TRANSITIVE", [v1, v2], v3)  # but v3 breaks against v1
    assert _decision(base + "_TRANSITIVE", [v2], v3)  # (v2 alone is no obstacle)


# ------------------------------------------------------------------------------- fastavro cross-check
def _datums(schema: Any, names: dict[str, Any], i: int, depth: int = 0) -> Any:
    """A value of ``schema`` whose choices (union branch, enum symbol) vary with ``i``."""
    if isinstance(schema, str) and schema in names:
        schema = names[schema]
    if isinstance(schema, list):
        branches = schema if depth < 2 else [b for b in schema if b == "null"] or schema
        return _datums(branches[i % len(branches)], names, i // len(branches), depth + 1)
    t = schema if isinstance(schema, str) else schema["type"]
    if isinstance(t, (dict, list)):
        return _datums(t, names, i, depth)
    simple = {
        "null": None,
        "boolean": i % 2 == 0,
        "int": i,
        "long": i * 1_000_003,
        "float": i + 0.5,
        "double": i / 3,
        "bytes": b"b%d" % i,
        "string": f"s{i}",
    }
    if t in simple:
        return simple[t]
    if t == "enum":
        return schema["symbols"][i % len(schema["symbols"])]
    if t == "fixed":
        return bytes([i % 256]) * schema["size"]
    if t == "array":
        return [_datums(schema["items"], names, i + j, depth) for j in range(3)]
    if t == "map":
        return {f"k{j}": _datums(schema["values"], names, i + j, depth) for j in range(3)}
    if t == "record":
        return {fld["name"]: _datums(fld["type"], names, i, depth + 1) for fld in schema["fields"]}
    raise AssertionError(t)


def _fastavro_reads(writer: dict, reader: dict) -> bool:
    """Does every one of a dozen values written with ``writer`` decode with ``reader``?"""
    wnames: dict[str, Any] = {}
    w = fastavro.parse_schema(writer, named_schemas=wnames)
    r = fastavro.parse_schema(reader, named_schemas={})
    for i in range(12):
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, w, _datums(w, wnames, i))
        buf.seek(0)
        try:
            fastavro.schemaless_reader(buf, w, r)
        except Exception:  # fastavro's SchemaResolutionError or a decode error: not readable
            return False
    return True


@pytest.mark.parametrize(("old", "new", "backward", "forward"), [p[1:5] for p in PAIRS], ids=IDS)
def test_fastavro_reader_agrees_with_the_checker(old: dict, new: dict, backward: bool, forward: bool) -> None:
    onames: dict[str, Any] = {}
    nnames: dict[str, Any] = {}
    po, pn = fastavro.parse_schema(old, named_schemas=onames), fastavro.parse_schema(new, named_schemas=nnames)
    checker = (reader_can_read(po, pn, onames, nnames)[0], reader_can_read(pn, po, nnames, onames)[0])
    assert checker == (backward, forward)
    # fastavro's reader is an independent implementation of the same rules, run on real data
    assert (_fastavro_reads(old, new), _fastavro_reads(new, old)) == checker
