"""The AVRO schema type: parsing with fastavro, and Avro schema resolution (the Avro specification's
"Schema Resolution" section) as the compatibility check.

``reader_can_read(writer, reader)`` answers whether data written with ``writer`` can be decoded with
``reader``; BACKWARD (the new schema reads the old one's data) is ``reader_can_read(old, new)``.
Parsed schemas are ``(schema, names)``: the form of ``fastavro.parse_schema`` (named types fully
qualified, later uses of a named type are its full name as a string), with ``names`` holding every
named type (including those brought in by schema references).
"""

from __future__ import annotations

import json
from typing import Any

import fastavro

from .. import errors as E
from .base import Reference

PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}
# writer type -> reader types that can read it (besides itself), per the Avro spec's promotions
PROMOTIONS = {
    "int": {"long", "float", "double"},
    "long": {"float", "double"},
    "float": {"double"},
    "string": {"bytes"},
    "bytes": {"string"},
}


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


class _Resolver:
    def __init__(self, writer_names: dict[str, Any], reader_names: dict[str, Any]) -> None:
        self.wn = writer_names
        self.rn = reader_names
        self.assumed: set[tuple[str, str]] = set()  # named pairs under check (recursive types)
        self.messages: list[str] = []

    def _deref(self, schema: Any, names: dict[str, Any]) -> Any:
        if isinstance(schema, str) and schema not in PRIMITIVES:
            return names[schema]
        if isinstance(schema, dict) and schema.get("type") in PRIMITIVES and len(schema) >= 1:
            return schema["type"]  # {"type": "long", "logicalType": ...}: resolution is on the underlying type
        return schema

    @staticmethod
    def _kind(schema: Any) -> str:
        if isinstance(schema, list):
            return "union"
        if isinstance(schema, str):
            return schema
        return schema["type"]

    def check(self, writer: Any, reader: Any, path: str) -> bool:
        w = self._deref(writer, self.wn)
        r = self._deref(reader, self.rn)
        wk, rk = self._kind(w), self._kind(r)
        if wk == "union":
            ok = True
            for branch in w:
                if not self.check(branch, r, path):
                    ok = False
            return ok
        if rk == "union":
            for branch in r:
                if self._first_match(w, self._deref(branch, self.rn)):
                    return self.check(w, branch, path)
            self.messages.append(f"{path}: reader union lacks writer type {self._label(w)}")
            return False
        if wk in PRIMITIVES:
            if wk == rk or rk in PROMOTIONS.get(wk, ()):
                return True
            self.messages.append(f"{path}: reader type {rk} cannot read writer type {wk}")
            return False
        if wk != rk:
            self.messages.append(f"{path}: reader type {rk} cannot read writer type {wk}")
            return False
        if wk in ("record", "enum", "fixed"):
            if not self._names_match(w, r):
                self.messages.append(f"{path}: name mismatch, writer {w['name']} vs reader {r['name']}")
                return False
            key = (w["name"], r["name"])
            if key in self.assumed:
                return True
            self.assumed.add(key)
        if wk == "array":
            return self.check(w["items"], r["items"], path + "[]")
        if wk == "map":
            return self.check(w["values"], r["values"], path + "{}")
        if wk == "fixed":
            if w["size"] != r["size"]:
                self.messages.append(f"{path}: fixed size {w['size']} vs reader size {r['size']}")
                return False
            return True
        if wk == "enum":
            missing = [s for s in w["symbols"] if s not in r["symbols"]]
            if missing and "default" not in r:
                self.messages.append(f"{path}: reader enum {r['name']} lacks symbols {missing} and has no default")
                return False
            return True
        # record
        ok = True
        wfields = {f["name"]: f for f in w["fields"]}
        for rf in r["fields"]:
            candidates = [rf["name"], *rf.get("aliases", [])]
            wf = next((wfields[c] for c in candidates if c in wfields), None)
            fpath = f"{path}.{rf['name']}" if path else rf["name"]
            if wf is None:
                if "default" not in rf:
                    self.messages.append(f"{fpath}: reader field has no default and is missing from the writer")
                    ok = False
                continue
            if not self.check(wf["type"], rf["type"], fpath):
                ok = False
        return ok

    def _names_match(self, w: dict[str, Any], r: dict[str, Any]) -> bool:
        if _short(w["name"]) == _short(r["name"]):
            return True
        return any(_short(a) == _short(w["name"]) for a in r.get("aliases", []))

    def _first_match(self, w: Any, r: Any) -> bool:
        """Can union branch ``r`` take writer type ``w`` (first exact match, then first promotable)."""
        wk, rk = self._kind(w), self._kind(r)
        if wk in PRIMITIVES:
            return wk == rk or rk in PROMOTIONS.get(wk, ())
        if wk != rk:
            return False
        if wk in ("record", "enum", "fixed"):
            return self._names_match(w, r)
        return True

    @staticmethod
    def _label(schema: Any) -> str:
        if isinstance(schema, dict):
            return schema.get("name", schema.get("type", "?"))  # type: ignore[return-value]  # JSON: a str
        return str(schema)


def reader_can_read(
    writer: Any, reader: Any, writer_names: dict[str, Any], reader_names: dict[str, Any]
) -> tuple[bool, list[str]]:
    """(compatible, messages): can ``reader`` decode data written with ``writer``."""
    res = _Resolver(writer_names, reader_names)
    ok = res.check(writer, reader, "")
    return ok, res.messages


class AvroFormat:
    name = "AVRO"

    def canonical(self, schema_str: str) -> str:
        return compact_json(schema_str)

    def parse(self, canon: str, refs: list[Reference]) -> tuple[Any, dict[str, Any]]:
        names: dict[str, Any] = {}
        for ref in refs:
            if ref.schema_type != "AVRO":
                raise E.invalid_schema(f"reference {ref.name!r} is {ref.schema_type}, not AVRO")
            names.update(ref.parsed[1])
        try:
            parsed = fastavro.parse_schema(json.loads(canon), named_schemas=names, _write_hint=False)
        except Exception as e:  # fastavro raises SchemaParseException / UnknownType / ValueError
            raise E.invalid_schema(str(e)) from None
        return parsed, names

    def backward_messages(self, old: tuple[Any, dict[str, Any]], new: tuple[Any, dict[str, Any]]) -> list[str]:
        ok, msgs = reader_can_read(old[0], new[0], old[1], new[1])
        return [] if ok else msgs or ["incompatible"]


def compact_json(schema_str: str) -> str:
    try:
        return json.dumps(json.loads(schema_str), separators=(",", ":"))
    except (TypeError, ValueError) as e:
        raise E.invalid_schema(f"not JSON: {e}") from None
