"""The JSON schema type: JSON Schema drafts 4, 6, 7, 2019-09 and 2020-12 (the ones Confluent's
registry takes), checked against their meta-schemas with ``jsonschema``; references are other
registered JSON schemas named by the ``$ref`` URL that points at them.

Compatibility is Confluent's JSON Schema diff: the old and the new schema are walked side by side
and every difference gets a type; BACKWARD holds when every difference is one of the compatible
types (:data:`COMPATIBLE`): the new schema accepts every document the old one accepted. The content
model decides what adding or removing a property means: an *open* object (no
``additionalProperties`` schema, no ``patternProperties``, additional properties allowed) already
took any value under a new name, so adding a typed property to it is incompatible while removing one
is fine; a *closed* object is the other way round; a *partially open* one (``patternProperties`` or an
``additionalProperties`` schema) compares the property with the schema that covered it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag

import jsonschema
import jsonschema.validators
import referencing
import referencing.exceptions
import referencing.jsonschema

from .. import errors as E
from .avro import compact_json
from .base import Reference

DRAFTS = {
    "http://json-schema.org/draft-04/schema": jsonschema.Draft4Validator,
    "http://json-schema.org/draft-06/schema": jsonschema.Draft6Validator,
    "http://json-schema.org/draft-07/schema": jsonschema.Draft7Validator,
    "https://json-schema.org/draft/2019-09/schema": jsonschema.Draft201909Validator,
    "https://json-schema.org/draft/2020-12/schema": jsonschema.Draft202012Validator,
}
DEFAULT_DRAFT = jsonschema.Draft7Validator  # Confluent's default when $schema is absent

# Confluent's json-schema-provider diff/SchemaDiff.COMPATIBLE_CHANGES
COMPATIBLE = frozenset(
    """ID_CHANGED DESCRIPTION_CHANGED TITLE_CHANGED DEFAULT_CHANGED SCHEMA_REMOVED TYPE_EXTENDED
    MAX_LENGTH_INCREASED MAX_LENGTH_REMOVED MIN_LENGTH_DECREASED MIN_LENGTH_REMOVED PATTERN_REMOVED
    MAXIMUM_INCREASED MAXIMUM_REMOVED MINIMUM_DECREASED MINIMUM_REMOVED EXCLUSIVE_MAXIMUM_INCREASED
    EXCLUSIVE_MAXIMUM_REMOVED EXCLUSIVE_MINIMUM_DECREASED EXCLUSIVE_MINIMUM_REMOVED MULTIPLE_OF_REDUCED
    MULTIPLE_OF_REMOVED REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED REQUIRED_ATTRIBUTE_REMOVED
    DEPENDENCY_ARRAY_NARROWED DEPENDENCY_ARRAY_REMOVED DEPENDENCY_SCHEMA_REMOVED MAX_PROPERTIES_INCREASED
    MAX_PROPERTIES_REMOVED MIN_PROPERTIES_DECREASED MIN_PROPERTIES_REMOVED ADDITIONAL_PROPERTIES_ADDED
    ADDITIONAL_PROPERTIES_EXTENDED PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL
    REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL
    PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL
    PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL
    PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL MAX_ITEMS_INCREASED MAX_ITEMS_REMOVED
    MIN_ITEMS_DECREASED MIN_ITEMS_REMOVED UNIQUE_ITEMS_REMOVED ADDITIONAL_ITEMS_ADDED ADDITIONAL_ITEMS_EXTENDED
    ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL ITEM_ADDED_TO_CLOSED_CONTENT_MODEL
    ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL
    ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL
    ENUM_ARRAY_EXTENDED COMBINED_TYPE_EXTENDED PRODUCT_TYPE_NARROWED SUM_TYPE_EXTENDED NOT_TYPE_NARROWED""".split()
)


@dataclass
class JsonSchema:
    """A parsed JSON schema: the document, its validator class, and the referenced documents by URL."""

    doc: Any
    validator: Any  # a jsonschema Validator class (META_SCHEMA, iter_errors)
    refs: dict[str, Any] = field(default_factory=dict)

    def registry(self) -> referencing.Registry:
        spec = referencing.jsonschema.specification_with(
            self.validator.META_SCHEMA.get("$schema", ""), default=referencing.jsonschema.DRAFT7
        )
        return referencing.Registry().with_resources(
            (url, referencing.Resource.from_contents(doc, default_specification=spec)) for url, doc in self.refs.items()
        )

    def validate(self, instance: Any) -> None:
        self.validator(self.doc, registry=self.registry()).validate(instance)


class JsonSchemaFormat:
    name = "JSON"

    def canonical(self, schema_str: str) -> str:
        return compact_json(schema_str)

    def parse(self, canon: str, refs: list[Reference]) -> JsonSchema:
        doc = json.loads(canon)
        if not isinstance(doc, (dict, bool)):
            raise E.invalid_schema("a JSON schema is an object or a boolean")
        declared = doc.get("$schema") if isinstance(doc, dict) else None
        if declared is not None:
            cls = DRAFTS.get(str(declared).rstrip("#"))
            if cls is None:
                raise E.invalid_schema(f"unsupported $schema {declared!r} (drafts 4, 6, 7, 2019-09, 2020-12)")
        else:
            cls = DEFAULT_DRAFT
        try:
            cls.check_schema(doc)
        except jsonschema.SchemaError as e:
            raise E.invalid_schema(f"not a valid {cls.__name__} schema: {e.message}") from None
        ref_docs: dict[str, Any] = {}
        for ref in refs:
            if ref.schema_type != "JSON":
                raise E.invalid_schema(f"reference {ref.name!r} is {ref.schema_type}, not JSON")
            ref_docs.update(ref.parsed.refs)
            ref_docs[ref.name] = ref.parsed.doc
        parsed = JsonSchema(doc, cls, ref_docs)
        for target in _external_refs(doc):
            if target not in ref_docs and not _resolvable(parsed, target):
                raise E.invalid_schema(f"$ref {target!r} is neither a reference nor resolvable")
        return parsed

    def backward_messages(self, old: JsonSchema, new: JsonSchema) -> list[str]:
        diff = _Diff(old, new)
        diff.compare(old.doc, new.doc, "#")
        return [f"{kind} at {path}" for kind, path in diff.differences if kind not in COMPATIBLE]


def _external_refs(doc: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == "$ref" and isinstance(v, str) and not v.startswith("#"):
                out.add(urldefrag(v)[0])
            elif k not in ("enum", "const", "default", "examples"):
                out |= _external_refs(v)
    elif isinstance(doc, list):
        for v in doc:
            out |= _external_refs(v)
    return out


def _resolvable(parsed: JsonSchema, target: str) -> bool:
    base = parsed.doc.get("$id", "") if isinstance(parsed.doc, dict) else ""
    resource = referencing.Resource.from_contents(parsed.doc, default_specification=referencing.jsonschema.DRAFT7)
    try:
        parsed.registry().with_resource(base, resource).resolver(base).lookup(target)
        return True
    except referencing.exceptions.Unresolvable:
        return False


# ------------------------------------------------------------------------------ the diff
def _unique(subs: list[Any]) -> list[Any]:
    out: list[Any] = []
    for x in subs:
        if x not in out:
            out.append(x)
    return out


def _max_matching(adj: dict[int, list[int]]) -> dict[int, int]:
    """A maximum bipartite matching (right -> left) by augmenting paths; the sides are a schema's few branches."""
    match: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj.get(i, []):
            if j in seen:
                continue
            seen.add(j)
            if j not in match or augment(match[j], seen):
                match[j] = i
                return True
        return False

    for i in adj:
        augment(i, set())
    return match


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


class _Diff:
    def __init__(self, old: JsonSchema, new: JsonSchema) -> None:
        self.sides = (old, new)
        self.differences: list[tuple[str, str]] = []
        self.seen: set[tuple[int, int]] = set()  # (old node, new node) pairs under comparison: recursion

    def add(self, kind: str, path: str) -> None:
        self.differences.append((kind, path))

    def sub(self) -> _Diff:
        d = _Diff(*self.sides)
        d.seen = self.seen
        return d

    def compatible(self) -> bool:
        return all(k in COMPATIBLE for k, _ in self.differences)

    def _deref(self, node: Any, side: int) -> Any:
        """A ``$ref`` node replaced by what it points at (local pointer or a referenced schema)."""
        for _ in range(32):
            if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
                return node
            parsed = self.sides[side]
            target = node["$ref"]
            try:
                base = parsed.doc.get("$id", "") if isinstance(parsed.doc, dict) else ""
                resource = referencing.Resource.from_contents(
                    parsed.doc, default_specification=referencing.jsonschema.DRAFT7
                )
                node = parsed.registry().with_resource(base, resource).resolver(base).lookup(target).contents
            except referencing.exceptions.Unresolvable:
                return {}
        return node

    @staticmethod
    def _kind(node: Any) -> str:
        if node is True or node == {}:
            return "empty"
        if node is False:
            return "false"
        if not isinstance(node, dict):
            return "empty"
        if any(k in node for k in ("allOf", "anyOf", "oneOf")) or isinstance(node.get("type"), list):
            return "combined"
        if "enum" in node:
            return "enum"
        if "const" in node:
            return "const"
        if "not" in node:
            return "not"
        t = node.get("type")
        if t in ("integer", "number"):
            return "number"
        if t in ("object", "array", "string", "boolean", "null"):
            return t
        if any(k in node for k in ("properties", "additionalProperties", "patternProperties", "required")):
            return "object"
        if any(k in node for k in ("items", "additionalItems", "prefixItems")):
            return "array"
        return "empty"

    @staticmethod
    def _subschemas(node: dict[str, Any]) -> tuple[str, list[Any]]:
        if isinstance(node.get("type"), list):
            rest = {k: v for k, v in node.items() if k != "type"}
            return "anyOf", [{**rest, "type": t} for t in node["type"]]
        for crit in ("allOf", "anyOf", "oneOf"):
            if crit in node:
                return crit, list(node[crit])
        return "allOf", []

    def compare(self, old: Any, new: Any, path: str) -> None:
        if old is None and new is None:
            return
        if old is None:
            self.add("SCHEMA_ADDED", path)
            return
        if new is None:
            self.add("SCHEMA_REMOVED", path)
            return
        old, new = self._deref(old, 0), self._deref(new, 1)
        ok_, nk = self._kind(old), self._kind(new)
        if ok_ != "combined" and nk == "combined":
            crit, subs = self._subschemas(new)
            if len(subs) == 1 or crit in ("anyOf", "oneOf"):
                for s in subs:
                    d = self.sub()
                    d.compare(old, s, path)
                    if d.compatible():
                        self.differences += d.differences
                        if len(subs) > 1:
                            self.add("SUM_TYPE_EXTENDED", path)
                        return
        elif ok_ == "combined" and nk != "combined":
            crit, subs = self._subschemas(old)
            if len(subs) == 1:
                d = self.sub()
                d.compare(subs[0], new, path)
                if d.compatible():
                    self.differences += d.differences
                    return
        if ok_ != nk:
            if ok_ == "false" or nk == "empty":
                return
            self.add("TYPE_CHANGED", path)
            return
        if not isinstance(old, dict) or not isinstance(new, dict):
            return
        key = (id(old), id(new))
        if key in self.seen:
            return
        self.seen.add(key)
        for attr, kind in (
            ("title", "TITLE_CHANGED"),
            ("description", "DESCRIPTION_CHANGED"),
            ("default", "DEFAULT_CHANGED"),
        ):
            if old.get(attr) != new.get(attr):
                self.add(kind, path)
        if old.get("$id", old.get("id")) != new.get("$id", new.get("id")):
            self.add("ID_CHANGED", path)
        getattr(self, "_" + ok_, lambda *a: None)(old, new, path)

    def _bound(self, old: dict[str, Any], new: dict[str, Any], attr: str, name: str, path: str) -> None:
        o, n = _num(old.get(attr)), _num(new.get(attr))
        if o == n:
            return
        if o is None:
            self.add(f"{name}_ADDED", f"{path}/{attr}")
        elif n is None:
            self.add(f"{name}_REMOVED", f"{path}/{attr}")
        else:
            self.add(f"{name}_{'INCREASED' if o < n else 'DECREASED'}", f"{path}/{attr}")

    def _string(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        self._bound(old, new, "maxLength", "MAX_LENGTH", path)
        self._bound(old, new, "minLength", "MIN_LENGTH", path)
        if old.get("pattern") != new.get("pattern"):
            if "pattern" not in old:
                self.add("PATTERN_ADDED", f"{path}/pattern")
            else:
                self.add("PATTERN_REMOVED" if "pattern" not in new else "PATTERN_CHANGED", f"{path}/pattern")

    def _number(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        self._bound(old, new, "maximum", "MAXIMUM", path)
        self._bound(old, new, "minimum", "MINIMUM", path)
        # draft 4 spells exclusive bounds as booleans beside maximum/minimum
        for attr, name in (("exclusiveMaximum", "EXCLUSIVE_MAXIMUM"), ("exclusiveMinimum", "EXCLUSIVE_MINIMUM")):
            self._bound(old, new, attr, name, path)
        o, n = _num(old.get("multipleOf")), _num(new.get("multipleOf"))
        if o != n:
            if o is None:
                self.add("MULTIPLE_OF_ADDED", path)
            elif n is None:
                self.add("MULTIPLE_OF_REMOVED", path)
            elif int(o) and int(n) and int(n) % int(o) == 0:
                self.add("MULTIPLE_OF_EXPANDED", path)
            elif int(o) and int(n) and int(o) % int(n) == 0:
                self.add("MULTIPLE_OF_REDUCED", path)
            else:
                self.add("MULTIPLE_OF_CHANGED", path)
        oi, ni = old.get("type") == "integer", new.get("type") == "integer"
        if oi != ni:
            self.add("TYPE_EXTENDED" if oi else "TYPE_NARROWED", path)

    def _enum(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        o, n = list(old["enum"]), list(new["enum"])
        if o != n:
            if all(x in n for x in o):
                self.add("ENUM_ARRAY_EXTENDED", path)
            elif all(x in o for x in n):
                self.add("ENUM_ARRAY_NARROWED", path)
            else:
                self.add("ENUM_ARRAY_CHANGED", path)

    def _const(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        if old["const"] != new["const"]:
            self.add("CONST_CHANGED", path)

    def _not(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        d = self.sub()
        d.compare(new["not"], old["not"], path + "/not")  # the excluded set may only shrink
        self.add("NOT_TYPE_NARROWED" if d.compatible() else "NOT_TYPE_EXTENDED", path)

    def _combined(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        oc, osubs = self._subschemas(old)
        nc, nsubs = self._subschemas(new)
        osubs, nsubs = _unique(osubs), _unique(nsubs)
        if oc != nc:
            # allOf/oneOf -> anyOf widens; a singleton may become oneOf, singletons may become allOf
            if nc == "anyOf" or (nc == "oneOf" and len(osubs) == 1) or (len(osubs) == len(nsubs) == 1):
                self.add("COMBINED_TYPE_EXTENDED", path)
            else:
                self.add("COMBINED_TYPE_CHANGED", path)
                return
        if len(osubs) != len(nsubs):
            grew = len(nsubs) > len(osubs)
            if nc == "allOf":
                self.add("PRODUCT_TYPE_EXTENDED" if grew else "PRODUCT_TYPE_NARROWED", path)
            else:
                self.add("SUM_TYPE_EXTENDED" if grew else "SUM_TYPE_NARROWED", path)
        # the compatible (old branch, new branch) pairs, then a maximum matching over them: every branch
        # of the smaller side needs a partner
        edges: dict[int, dict[int, list[tuple[str, str]]]] = {}
        for i, o in enumerate(osubs):
            for j, n in enumerate(nsubs):
                d = self.sub()
                d.compare(o, n, f"{path}/{oc}/{i}")
                if d.compatible():
                    edges.setdefault(i, {})[j] = d.differences
        match = _max_matching({i: list(js) for i, js in edges.items()})
        for j, i in match.items():
            self.differences += edges[i][j]
        if len(match) < min(len(osubs), len(nsubs)):
            self.add("COMBINED_TYPE_SUBSCHEMAS_CHANGED", path)

    # -- objects
    @staticmethod
    def _additional(node: dict[str, Any]) -> tuple[bool, Any]:
        """(additional properties permitted, the schema they must match or None)."""
        ap = node.get("additionalProperties", True)
        if ap is False:
            return False, None
        if ap is True or ap == {}:
            return True, None
        return True, ap

    def _open(self, node: dict[str, Any]) -> bool:
        permits, schema = self._additional(node)
        return permits and schema is None and not node.get("patternProperties")

    def _partial(self, node: dict[str, Any], name: str) -> Any:
        import re

        for pattern, schema in (node.get("patternProperties") or {}).items():
            if re.search(pattern, name):
                return schema
        return self._additional(node)[1]

    def _object(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        op, np_ = old.get("properties") or {}, new.get("properties") or {}
        oreq, nreq = set(old.get("required") or []), set(new.get("required") or [])
        for name in op:
            if name in np_:
                if name in oreq and name not in nreq:
                    self.add("REQUIRED_ATTRIBUTE_REMOVED", f"{path}/required/{name}")
                elif name not in oreq and name in nreq:
                    has_default = isinstance(np_[name], dict) and "default" in np_[name]
                    kind = "REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED" if has_default else "REQUIRED_ATTRIBUTE_ADDED"
                    self.add(kind, f"{path}/required/{name}")
        for name in sorted(set(op) | set(np_)):
            ppath = f"{path}/properties/{name}"
            o, n = op.get(name), np_.get(name)
            if n is None:
                if self._open(new):
                    self.add("PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL", ppath)
                elif (cover := self._partial(new, name)) is not None:
                    d = self.sub()
                    d.compare(o, cover, ppath)
                    self.differences += d.differences
                    self.add(
                        "PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL"
                        if d.compatible()
                        else "PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
                        ppath,
                    )
                elif o is False:
                    self.add("PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL", ppath)
                else:
                    self.add("PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL", ppath)
            elif o is None:
                if self._open(old):
                    empty = n is True or n == {}
                    self.add(
                        "PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL"
                        if empty
                        else "PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL",
                        ppath,
                    )
                    continue
                if (cover := self._partial(old, name)) is not None:
                    d = self.sub()
                    d.compare(cover, n, ppath)
                    self.differences += d.differences
                    self.add(
                        "PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL"
                        if d.compatible()
                        else "PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
                        ppath,
                    )
                if name in nreq:
                    has_default = isinstance(n, dict) and "default" in n
                    self.add(
                        "REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL"
                        if has_default
                        else "REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL",
                        ppath,
                    )
                else:
                    self.add("OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL", ppath)
            else:
                self.compare(o, n, ppath)
        self._dependencies(old, new, path)
        opermits, oschema = self._additional(old)
        npermits, nschema = self._additional(new)
        apath = f"{path}/additionalProperties"
        if opermits != npermits:
            self.add("ADDITIONAL_PROPERTIES_ADDED" if npermits else "ADDITIONAL_PROPERTIES_REMOVED", apath)
        elif oschema is None and nschema is not None:
            self.add("ADDITIONAL_PROPERTIES_NARROWED", apath)
        elif nschema is None and oschema is not None:
            self.add("ADDITIONAL_PROPERTIES_EXTENDED", apath)
        elif oschema is not None:
            self.compare(oschema, nschema, apath)
        self._bound(old, new, "maxProperties", "MAX_PROPERTIES", path)
        self._bound(old, new, "minProperties", "MIN_PROPERTIES", path)

    def _dependencies(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        def split(node: dict[str, Any]) -> tuple[dict[str, set[str]], dict[str, Any]]:
            arrays = {k: set(v) for k, v in (node.get("dependentRequired") or {}).items()}
            schemas = dict(node.get("dependentSchemas") or {})
            for k, v in (node.get("dependencies") or {}).items():
                (arrays.__setitem__(k, set(v)) if isinstance(v, list) else schemas.__setitem__(k, v))
            return arrays, schemas

        (oa, os_), (na, ns) = split(old), split(new)
        for k in sorted(set(oa) | set(na)):
            p = f"{path}/dependencies/{k}"
            if k not in na:
                self.add("DEPENDENCY_ARRAY_REMOVED", p)
            elif k not in oa:
                self.add("DEPENDENCY_ARRAY_ADDED", p)
            elif oa[k] != na[k]:
                self.add(
                    "DEPENDENCY_ARRAY_EXTENDED"
                    if na[k] >= oa[k]
                    else "DEPENDENCY_ARRAY_NARROWED"
                    if na[k] <= oa[k]
                    else "DEPENDENCY_ARRAY_CHANGED",
                    p,
                )
        for k in sorted(set(os_) | set(ns)):
            p = f"{path}/dependencies/{k}"
            if k not in ns:
                self.add("DEPENDENCY_SCHEMA_REMOVED", p)
            elif k not in os_:
                self.add("DEPENDENCY_SCHEMA_ADDED", p)
            else:
                self.compare(os_[k], ns[k], p)

    # -- arrays
    @staticmethod
    def _items(node: dict[str, Any]) -> tuple[Any, list[Any] | None, Any]:
        """(all-items schema or None, tuple item schemas or None, schema of items past the tuple)."""
        if "prefixItems" in node:  # 2020-12
            return None, list(node["prefixItems"]), node.get("items", True)
        items = node.get("items")
        if isinstance(items, list):
            return None, items, node.get("additionalItems", True)
        return items, None, True

    def _array(self, old: dict[str, Any], new: dict[str, Any], path: str) -> None:
        oall, otuple, orest = self._items(old)
        nall, ntuple, nrest = self._items(new)
        if otuple is None and ntuple is None:
            if oall is not None or nall is not None:
                self.compare(oall if oall is not None else {}, nall if nall is not None else {}, f"{path}/items")
        else:
            otuple, ntuple = otuple or [], ntuple or []
            open_old = orest is True or orest == {}
            open_new = nrest is True or nrest == {}
            for i in range(max(len(otuple), len(ntuple))):
                ip = f"{path}/items/{i}"
                if i >= len(ntuple):
                    if open_new:
                        self.add("ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL", ip)
                    elif nrest is not False:
                        d = self.sub()
                        d.compare(otuple[i], nrest, ip)
                        self.differences += d.differences
                        self.add(
                            "ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL"
                            if d.compatible()
                            else "ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
                            ip,
                        )
                    elif otuple[i] is False:
                        self.add("ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL", ip)
                    else:
                        self.add("ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL", ip)
                elif i >= len(otuple):
                    if open_old:
                        empty = ntuple[i] is True or ntuple[i] == {}
                        self.add(
                            "ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL"
                            if empty
                            else "ITEM_ADDED_TO_OPEN_CONTENT_MODEL",
                            ip,
                        )
                    elif orest is not False:
                        d = self.sub()
                        d.compare(orest, ntuple[i], ip)
                        self.differences += d.differences
                        self.add(
                            "ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL"
                            if d.compatible()
                            else "ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
                            ip,
                        )
                    else:
                        self.add("ITEM_ADDED_TO_CLOSED_CONTENT_MODEL", ip)
                else:
                    self.compare(otuple[i], ntuple[i], ip)
            if open_old != open_new:
                kind = "ADDITIONAL_ITEMS_ADDED" if open_new else "ADDITIONAL_ITEMS_REMOVED"
                self.add(kind, f"{path}/additionalItems")
            elif not open_old and orest is not False and nrest is not False:
                self.compare(orest, nrest, f"{path}/additionalItems")
            elif orest is False and nrest not in (False, None):
                self.add("ADDITIONAL_ITEMS_EXTENDED", f"{path}/additionalItems")
            elif nrest is False and orest not in (False, None):
                self.add("ADDITIONAL_ITEMS_NARROWED", f"{path}/additionalItems")
        self._bound(old, new, "maxItems", "MAX_ITEMS", path)
        self._bound(old, new, "minItems", "MIN_ITEMS", path)
        ou, nu = bool(old.get("uniqueItems")), bool(new.get("uniqueItems"))
        if ou != nu:
            self.add("UNIQUE_ITEMS_ADDED" if nu else "UNIQUE_ITEMS_REMOVED", path)
