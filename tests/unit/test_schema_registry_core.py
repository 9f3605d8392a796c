"""The registry's state machine without sockets: compatibility decisions on a table of schema pairs
with known outcomes (Avro schema resolution), ids and versions, deletes, modes, references, and the
log-order rule that lets several registry processes share one `_schemas` topic."""

from __future__ import annotations

import json

import pytest

from schema_registry import errors as E
from schema_registry.core import Registry


def rec(*fields: dict, name: str = "R") -> str:
    return json.dumps({"type": "record", "name": name, "namespace": "t", "fields": list(fields)})


def f(name: str, typ: object, **kw: object) -> dict:
    return {"name": name, "type": typ, **kw}


BASE = rec(f("a", "int"))
# (old, new, BACKWARD ok, FORWARD ok)
PAIRS = [
    ("add optional field", BASE, rec(f("a", "int"), f("b", ["null", "string"], default=None)), True, True),
    ("add required field", BASE, rec(f("a", "int"), f("b", "string")), False, True),
    ("remove field without default", rec(f("a", "int"), f("b", "string")), BASE, True, False),
    ("remove field with default", rec(f("a", "int"), f("b", "string", default="x")), BASE, True, True),
    ("int -> long promotion", BASE, rec(f("a", "long")), True, False),
    ("long -> int", rec(f("a", "long")), BASE, False, True),
    ("int -> string", BASE, rec(f("a", "string")), False, False),
    ("string <-> bytes", rec(f("a", "string")), rec(f("a", "bytes")), True, True),
    ("float -> double", rec(f("a", "float")), rec(f("a", "double")), True, False),
    ("type -> nullable union", BASE, rec(f("a", ["null", "int"])), True, False),
    ("union widened", rec(f("a", ["null", "int"])), rec(f("a", ["null", "int", "string"])), True, False),
    ("renamed field via alias", BASE, rec(f("z", "int", aliases=["a"])), True, False),
    ("record renamed", BASE, rec(f("a", "int"), name="S"), False, False),
    (
        "enum symbol added",
        rec(f("e", {"type": "enum", "name": "E", "symbols": ["A"]})),
        rec(f("e", {"type": "enum", "name": "E", "symbols": ["A", "B"]})),
        True,
        False,
    ),
    (
        "enum symbol added, reader default",
        rec(f("e", {"type": "enum", "name": "E", "symbols": ["A", "B"], "default": "A"})),
        rec(f("e", {"type": "enum", "name": "E", "symbols": ["A", "B", "C"], "default": "A"})),
        True,
        True,
    ),
    (
        "fixed size changed",
        rec(f("x", {"type": "fixed", "name": "F", "size": 4})),
        rec(f("x", {"type": "fixed", "name": "F", "size": 8})),
        False,
        False,
    ),
    (
        "array items promoted",
        rec(f("x", {"type": "array", "items": "int"})),
        rec(f("x", {"type": "array", "items": "long"})),
        True,
        False,
    ),
    (
        "map values changed",
        rec(f("x", {"type": "map", "values": "int"})),
        rec(f("x", {"type": "map", "values": "boolean"})),
        False,
        False,
    ),
    (
        "nested record gains optional field",
        rec(f("n", {"type": "record", "name": "N", "fields": [f("x", "int")]})),
        rec(f("n", {"type": "record", "name": "N", "fields": [f("x", "int"), f("y", "int", default=0)]})),
        True,
        True,
    ),
    (
        "recursive type unchanged",
        rec(f("next", ["null", "t.R"], default=None)),
        rec(f("next", ["null", "t.R"], default=None), f("v", "int", default=1)),
        True,
        True,
    ),
    ("logical type on same base", rec(f("d", {"type": "int", "logicalType": "date"})), rec(f("d", "int")), True, True),
]


def _records(reg: Registry, records: list) -> None:
    for k, v in records:
        reg.apply(json.loads(json.dumps(k)), None if v is None else json.loads(json.dumps(v)))


def _register(reg: Registry, subject: str, schema: str, **kw: object) -> int:
    found, records = reg.plan_register(subject, schema, **kw)
    if found is not None:
        return found.id
    _records(reg, records)
    return reg.lookup(subject, schema, kw.get("schema_type", "AVRO"), kw.get("refs") or []).id


@pytest.mark.parametrize(("old", "new", "backward", "forward"), [p[1:] for p in PAIRS], ids=[p[0] for p in PAIRS])
def test_compatibility_table(old: str, new: str, backward: bool, forward: bool) -> None:
    for level, expected in (
        ("BACKWARD", backward),
        ("FORWARD", forward),
        ("FULL", backward and forward),
        ("NONE", True),
    ):
        reg = Registry()
        _records(reg, reg.plan_config(None, level))
        _register(reg, "s", old)
        msgs = reg.compatibility_messages("s", new, "AVRO", [])
        assert (not msgs) == expected, (level, msgs)
        if expected:
            _register(reg, "s", new)
            assert reg.list_versions("s") == [1, 2]
        else:
            with pytest.raises(E.RegistryError) as ei:
                reg.plan_register("s", new)
            assert (ei.value.status, ei.value.error_code) == (409, 409)


def test_transitive_checks_every_live_version() -> None:
    v1 = rec(f("a", "int"))
    v2 = rec(f("a", "int"), f("b", "string", default="x"))
    v3 = rec(f("a", "int"), f("b", "string"))  # reads v2's data, not v1's (b has no default)
    for level, ok in (("BACKWARD", True), ("BACKWARD_TRANSITIVE", False)):
        reg = Registry(level)
        _register(reg, "s", v1)
        _register(reg, "s", v2)
        assert (not reg.compatibility_messages("s", v3, "AVRO", [])) == ok


def test_ids_are_global_and_reused_versions_per_subject() -> None:
    reg = Registry()
    a = _register(reg, "a", BASE)
    assert _register(reg, "a", json.dumps(json.loads(BASE), indent=2)) == a  # same canonical schema
    assert _register(reg, "b", BASE) == a  # same schema in another subject: same id
    c = _register(reg, "a", rec(f("a", "int"), f("b", "int", default=0)))
    assert c == a + 1
    assert reg.versions_of_id(a) == [("a", 1), ("b", 1)]


def test_bad_input_gets_confluent_codes() -> None:
    reg = Registry()
    with pytest.raises(E.RegistryError) as ei:
        reg.plan_register("s", rec(f("a", "nosuchtype")))
    assert ei.value.error_code == E.INVALID_SCHEMA
    with pytest.raises(E.RegistryError) as ei:
        reg.plan_register("s", '{"type":"string"}', schema_type="XML")
    assert ei.value.error_code == E.INVALID_SCHEMA and "not supported" in ei.value.message
    with pytest.raises(E.RegistryError) as ei:
        reg.get_version("nope", 1)
    assert ei.value.error_code == E.SUBJECT_NOT_FOUND
    _register(reg, "s", BASE)
    with pytest.raises(E.RegistryError) as ei:
        reg.get_version("s", 7)
    assert ei.value.error_code == E.VERSION_NOT_FOUND
    with pytest.raises(E.RegistryError) as ei:
        reg.get_version("s", "x")
    assert ei.value.error_code == E.INVALID_VERSION
    with pytest.raises(E.RegistryError) as ei:
        reg.plan_config(None, "SIDEWAYS")
    assert ei.value.error_code == E.INVALID_COMPATIBILITY_LEVEL
    with pytest.raises(E.RegistryError) as ei:
        reg.plan_mode(None, "WRITEONLY")
    assert ei.value.error_code == E.INVALID_MODE


def test_soft_then_hard_delete() -> None:
    reg = Registry()
    _register(reg, "s", BASE)
    with pytest.raises(E.RegistryError) as ei:
        reg.plan_delete_version("s", 1, permanent=True)
    assert ei.value.error_code == E.SCHEMAVERSION_NOT_SOFT_DELETED
    n, records = reg.plan_delete_version("s", 1, permanent=False)
    _records(reg, records)
    assert n == 1 and reg.subjects() == [] and reg.subjects(deleted=True) == ["s"]
    assert reg.get_by_id(1)[0]  # ids stay resolvable after a soft delete (consumers still need them)
    _records(reg, reg.plan_delete_version("s", 1, permanent=True)[1])
    assert reg.subjects(deleted=True) == []
    # the next version after deletes continues the numbering of live versions only
    assert _register(reg, "s", BASE) == 1


def test_modes_readonly_and_import() -> None:
    reg = Registry()
    _records(reg, reg.plan_mode("s", "READONLY"))
    with pytest.raises(E.RegistryError) as ei:
        reg.plan_register("s", BASE)
    assert ei.value.error_code == E.OPERATION_NOT_PERMITTED
    _records(reg, reg.plan_mode("s", "IMPORT"))
    with pytest.raises(E.RegistryError):
        reg.plan_register("s", BASE)  # IMPORT needs the id
    assert _register(reg, "s", BASE, sid=42, version=3) == 42
    assert reg.get_version("s", 3).id == 42


def test_references_resolve_and_block_deletes() -> None:
    reg = Registry()
    addr = json.dumps({"type": "record", "name": "Address", "namespace": "t", "fields": [f("city", "string")]})
    _register(reg, "address", addr)
    person = rec(f("name", "string"), f("home", "t.Address"), name="Person")
    refs = [{"name": "t.Address", "subject": "address", "version": 1}]
    with pytest.raises(E.RegistryError):
        reg.plan_register("person", person)  # t.Address unknown without the reference
    pid = _register(reg, "person", person, refs=refs)
    assert reg.get_by_id(pid)[2] == refs
    assert reg.referenced_by("address", 1) == [pid]
    with pytest.raises(E.RegistryError) as ei:
        reg.plan_delete_subject("address", permanent=False)
    assert ei.value.error_code == E.REFERENCE_EXISTS


def test_log_order_decides_races_between_registry_processes() -> None:
    """Two processes plan from the same state; the first record in the log wins, the second is ignored."""
    reg = Registry()
    _, rec_a = reg.plan_register("s", BASE)
    _, rec_b = reg.plan_register("s", rec(f("a", "int"), f("b", "int", default=0)))
    assert rec_a[0][1]["id"] == rec_b[0][1]["id"] == 1  # both claim id 1, version 1
    _records(reg, rec_a + rec_b)
    assert reg.get_by_id(1)[0] == json.dumps(json.loads(BASE), separators=(",", ":"))
    assert reg.list_versions("s") == [1]
    with pytest.raises(E.RegistryError):
        reg.lookup("s", rec(f("a", "int"), f("b", "int", default=0)), "AVRO", [])  # loser re-plans
