"""The registry's state machine, sans-IO.

State is rebuilt by applying the records of the compacted ``_schemas`` topic in log order
(``apply``); every change is *planned* here as records (``plan_*``), written to the topic by the
caller, and takes effect only when read back and applied. Several registry processes can therefore
share one topic: the log order decides. An id or a subject version claimed twice (two processes racing)
is kept by the first record in the log; the loser sees its record ignored and retries
(``registered`` tells the caller whether its write won). Record keys and values follow the shape of
Confluent's ``_schemas`` records (``keytype`` SCHEMA/CONFIG/MODE, JSON).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Any

from . import errors as E
from . import formats
from .compatibility import LEVELS, check_level
from .formats.base import Reference

MODES = ("READWRITE", "READONLY", "READONLY_OVERRIDE", "IMPORT")
Record = tuple[dict[str, Any], dict[str, Any] | None]  # (key, value or None for a tombstone)


@dataclass
class SchemaVersion:
    subject: str
    version: int
    id: int
    schema: str
    schema_type: str
    references: list[dict[str, Any]]
    deleted: bool = False

    @property
    def guid(self) -> str:
        return guid_of(self.schema, self.schema_type, _refs_key(self.references))

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "subject": self.subject,
            "version": self.version,
            "id": self.id,
            "guid": self.guid,
            "schema": self.schema,
        }
        if self.schema_type != "AVRO":
            out["schemaType"] = self.schema_type
        if self.references:
            out["references"] = self.references
        return out


@dataclass
class RegistryState:
    versions: dict[str, dict[int, SchemaVersion]] = field(default_factory=dict)
    ids: dict[int, tuple[str, str, tuple[tuple[str, str, int], ...]]] = field(default_factory=dict)
    config: dict[str | None, str] = field(default_factory=dict)
    mode: dict[str | None, str] = field(default_factory=dict)
    guids: dict[str, int] = field(default_factory=dict)


def canonical(schema_str: str, schema_type: str = "AVRO") -> str:
    return formats.get(schema_type).canonical(schema_str)


def _refs_key(refs: list[dict[str, Any]]) -> tuple[tuple[str, str, int], ...]:
    try:
        return tuple((r["name"], r["subject"], int(r["version"])) for r in refs)
    except (KeyError, TypeError, ValueError):
        raise E.invalid_schema(f"a reference needs name, subject and version: {refs!r}") from None


def guid_of(schema: str, schema_type: str, refs: tuple[tuple[str, str, int], ...]) -> str:
    """The schema's GUID (Schema Registry 8's global id, carried in record headers): derived from
    what identifies the schema, so every registry process sharing the topic computes the same one
    without a write of its own (and a schema registered twice keeps it)."""
    digest = hashlib.sha256(repr((schema_type, schema, refs)).encode()).digest()[:16]
    return str(uuid.UUID(bytes=digest, version=4))


class Registry:
    def __init__(self, default_compatibility: str = "BACKWARD") -> None:
        self.state = RegistryState()
        self.default_compatibility = default_compatibility
        self._parsed: dict[Any, Any] = {}

    # ---------------------------------------------------------------- applying the log
    def apply(self, key: dict[str, Any], value: dict[str, Any] | None) -> None:
        st = self.state
        kt = key.get("keytype")
        if kt == "SCHEMA":
            subject, version = key["subject"], int(key["version"])
            subj = st.versions.setdefault(subject, {})
            if value is None:  # hard delete (tombstone)
                subj.pop(version, None)
                if not subj:
                    st.versions.pop(subject, None)
                return
            sid = int(value["id"])
            schema, stype = value["schema"], value.get("schemaType", "AVRO")
            refs = value.get("references") or []
            ident = (schema, stype, _refs_key(refs))
            if st.ids.get(sid, ident) != ident:
                return  # id already bound to another schema by an earlier record: this write lost
            existing = subj.get(version)
            if existing is not None and existing.id != sid:
                return  # version already taken by another schema
            st.ids[sid] = ident
            st.guids.setdefault(guid_of(*ident), sid)
            subj[version] = SchemaVersion(subject, version, sid, schema, stype, refs, bool(value.get("deleted")))
        elif kt == "CONFIG":
            if value is None:
                st.config.pop(key.get("subject"), None)
            else:
                st.config[key.get("subject")] = value["compatibilityLevel"]
        elif kt == "MODE":
            if value is None:
                st.mode.pop(key.get("subject"), None)
            else:
                st.mode[key.get("subject")] = value["mode"]

    # ---------------------------------------------------------------- queries
    def compatibility(self, subject: str | None) -> str:
        c = self.state.config
        return c.get(subject) or c.get(None) or self.default_compatibility

    def mode_of(self, subject: str | None) -> str:
        m = self.state.mode
        return m.get(subject) or m.get(None) or "READWRITE"

    def subjects(self, deleted: bool = False) -> list[str]:
        return sorted(s for s, vs in self.state.versions.items() if any(deleted or not v.deleted for v in vs.values()))

    def _subject_versions(self, subject: str, deleted: bool = False) -> dict[int, SchemaVersion]:
        vs = self.state.versions.get(subject)
        if not vs:
            raise E.subject_not_found(subject)
        live = {n: v for n, v in vs.items() if deleted or not v.deleted}
        if not live:
            raise E.subject_not_found(subject)
        return live

    def list_versions(self, subject: str, deleted: bool = False) -> list[int]:
        return sorted(self._subject_versions(subject, deleted))

    def get_version(self, subject: str, version: str | int, deleted: bool = False) -> SchemaVersion:
        vs = self._subject_versions(subject, deleted)
        if version in ("latest", "-1", -1):
            return vs[max(vs)]
        try:
            n = int(version)
        except (TypeError, ValueError):
            raise E.RegistryError(
                422, E.INVALID_VERSION, f"The specified version '{version}' is not a valid version id."
            ) from None
        if n < 1:
            raise E.RegistryError(
                422, E.INVALID_VERSION, f"The specified version '{version}' is not a valid version id."
            )
        if n not in vs:
            raise E.version_not_found(subject, n)
        return vs[n]

    def get_by_id(self, sid: int) -> tuple[str, str, list[dict[str, Any]]]:
        ident = self.state.ids.get(sid)
        if ident is None:
            raise E.schema_not_found()
        schema, stype, refs = ident
        return schema, stype, [{"name": n, "subject": s, "version": v} for n, s, v in refs]

    def guid_of_id(self, sid: int) -> str:
        ident = self.state.ids.get(sid)
        if ident is None:
            raise E.schema_not_found()
        return guid_of(*ident)

    def id_of_guid(self, guid: str) -> int:
        try:
            key = str(uuid.UUID(guid))
        except ValueError:
            raise E.schema_not_found(f"Schema {guid} not found") from None
        sid = self.state.guids.get(key)
        if sid is None:
            raise E.schema_not_found(f"Schema {guid} not found")
        return sid

    def versions_of_id(self, sid: int) -> list[tuple[str, int]]:
        if sid not in self.state.ids:
            raise E.schema_not_found()
        return sorted(
            (v.subject, v.version)
            for vs in self.state.versions.values()
            for v in vs.values()
            if v.id == sid and not v.deleted
        )

    def referenced_by(self, subject: str, version: str | int) -> list[int]:
        target = self.get_version(subject, version)
        out = set()
        for vs in self.state.versions.values():
            for v in vs.values():
                if not v.deleted and any(
                    r["subject"] == subject and int(r["version"]) == target.version for r in v.references
                ):
                    out.add(v.id)
        return sorted(out)

    # ---------------------------------------------------------------- parsing
    def parse(self, schema_str: str, schema_type: str, refs: list[dict[str, Any]]) -> Any:
        """The schema parsed by its type's module, with its references resolved (cached: Protobuf's
        parse runs protoc, and every compatibility check parses the old versions again)."""
        fmt = formats.get(schema_type)
        resolved: list[Reference] = []
        for ref in refs:
            try:
                rv = self.get_version(ref["subject"], ref["version"])
            except (E.RegistryError, KeyError, TypeError) as e:
                raise E.invalid_schema(f"reference {ref!r} cannot be resolved: {e}") from None
            sub = self.parse(rv.schema, rv.schema_type, rv.references)
            resolved.append(Reference(str(ref.get("name", "")), rv.schema_type, rv.schema, sub))
        key = (schema_type, schema_str, tuple((r.name, r.schema_type, r.schema) for r in resolved))
        hit = self._parsed.get(key)
        if hit is None:
            hit = fmt.parse(fmt.canonical(schema_str), resolved)
            if len(self._parsed) > 1024:
                self._parsed.clear()
            self._parsed[key] = hit
        return hit

    def stored(self, schema_str: str, schema_type: str, refs: list[dict[str, Any]]) -> str:
        """The form a schema is stored and looked up in: the type's canonical form, then (Protobuf) a
        descriptor rendered as .proto text."""
        fmt = formats.get(schema_type)
        canon = fmt.canonical(schema_str)
        stored_form = getattr(fmt, "stored_form", None)
        if stored_form is None:
            return canon
        return stored_form(canon, self.parse(canon, schema_type, refs))

    def render(self, schema: str, schema_type: str, refs: list[dict[str, Any]], fmt: str) -> str:
        """The schema in the ``format`` a client asked for: ``serialized`` is a Protobuf schema as a
        base64 ``FileDescriptorProto`` (what confluent-kafka's Protobuf serdes read); other formats
        (and other types) answer the stored form."""
        if schema_type == "PROTOBUF" and fmt == "serialized":
            return self.parse(schema, schema_type, refs).serialized()
        return schema

    # ---------------------------------------------------------------- planning writes
    def lookup(
        self, subject: str, schema_str: str, schema_type: str, refs: list[dict[str, Any]], deleted: bool = False
    ) -> SchemaVersion:
        canon = self.stored(schema_str, schema_type, refs)
        vs = self._subject_versions(subject, deleted)
        key = _refs_key(refs)
        for n in sorted(vs, reverse=True):
            v = vs[n]
            if v.schema == canon and v.schema_type == schema_type and _refs_key(v.references) == key:
                return v
        raise E.schema_not_found()

    def compatibility_messages(
        self,
        subject: str,
        schema_str: str,
        schema_type: str,
        refs: list[dict[str, Any]],
        version: str | int | None = None,
    ) -> list[str]:
        fmt = formats.get(schema_type)
        new = self.parse(fmt.canonical(schema_str), schema_type, refs)
        level = self.compatibility(subject)
        try:
            vs = self._subject_versions(subject)
        except E.RegistryError:
            if version is not None and version != "latest":
                raise
            return []
        if version is None:
            olds = [vs[n] for n in sorted(vs)]
        else:
            olds = [self.get_version(subject, version)]
            level = level.removesuffix("_TRANSITIVE")
        # a subject's versions are compared within the new schema's type; one of another type is a
        # change of type, which no level but NONE allows (as in Confluent)
        if level == "NONE":
            return []
        olds = olds if level.endswith("_TRANSITIVE") else olds[-1:]
        for o in olds:
            if o.schema_type != schema_type:
                return [f"schema type changed from {o.schema_type} to {schema_type}"]
        existing = [self.parse(o.schema, o.schema_type, o.references) for o in olds]
        return check_level(level, new, existing, fmt.backward_messages)

    def plan_register(
        self,
        subject: str,
        schema_str: str,
        schema_type: str = "AVRO",
        refs: list[dict[str, Any]] | None = None,
        sid: int | None = None,
        version: int | None = None,
    ) -> tuple[SchemaVersion | None, list[Record]]:
        """(already registered version, []) or (None, records to write)."""
        refs = refs or []
        schema_type = schema_type or "AVRO"
        canon = self.stored(schema_str, schema_type, refs)
        self.parse(canon, schema_type, refs)
        mode = self.mode_of(subject)
        if mode in ("READONLY", "READONLY_OVERRIDE"):
            raise E.not_permitted(f"Subject {subject} is in read-only mode")
        try:
            found = self.lookup(subject, canon, schema_type, refs)
            if sid is None or found.id == sid:
                return found, []
        except E.RegistryError:
            pass
        if mode == "IMPORT":
            if sid is None:
                raise E.not_permitted("Subject is in IMPORT mode: the schema id must be given")
            ident = (canon, schema_type, _refs_key(refs))
            if self.state.ids.get(sid, ident) != ident:
                raise E.RegistryError(422, E.ID_DOES_NOT_MATCH, f"Schema id {sid} already in use by a different schema")
        elif sid is not None:
            raise E.not_permitted(f"Subject {subject} is not in import mode: a schema id cannot be given")
        else:
            msgs = self.compatibility_messages(subject, canon, schema_type, refs)
            if msgs:
                raise E.RegistryError(
                    409,
                    E.INCOMPATIBLE_SCHEMA,
                    "Schema being registered is incompatible with an earlier schema for subject "
                    f'"{subject}", details: {msgs}',
                )
            ident = (canon, schema_type, _refs_key(refs))
            sid = next((i for i, x in self.state.ids.items() if x == ident), None)
            if sid is None:
                sid = max(self.state.ids, default=0) + 1
        existing = self.state.versions.get(subject, {})
        if version is None or mode != "IMPORT":
            version = max(existing, default=0) + 1
        elif version in existing:
            raise E.RegistryError(422, E.INVALID_VERSION, f"Version {version} already exists for subject '{subject}'")
        value = {"subject": subject, "version": version, "id": sid, "schema": canon, "deleted": False}
        if schema_type != "AVRO":
            value["schemaType"] = schema_type
        if refs:
            value["references"] = refs
        return None, [({"keytype": "SCHEMA", "subject": subject, "version": version, "magic": 1}, value)]

    def _check_writable(self, subject: str) -> None:
        if self.mode_of(subject) in ("READONLY", "READONLY_OVERRIDE"):
            raise E.not_permitted(f"Subject {subject} is in read-only mode")

    def _refuse_if_referenced(self, subject: str, version: int) -> None:
        if self.referenced_by(subject, version):
            raise E.RegistryError(
                422,
                E.REFERENCE_EXISTS,
                f"One or more references exist to the schema {{subject={subject},version={version}}}.",
            )

    def plan_delete_version(self, subject: str, version: str | int, permanent: bool) -> tuple[int, list[Record]]:
        self._check_writable(subject)
        v = self.get_version(subject, version, deleted=permanent)
        key = {"keytype": "SCHEMA", "subject": subject, "version": v.version, "magic": 1}
        if permanent:
            if not v.deleted:
                raise E.RegistryError(
                    404,
                    E.SCHEMAVERSION_NOT_SOFT_DELETED,
                    f"Subject '{subject}' Version {v.version} was not deleted first before being permanently deleted",
                )
            return v.version, [(key, None)]
        if v.deleted:
            raise E.RegistryError(
                404, E.SCHEMAVERSION_SOFT_DELETED, f"Subject '{subject}' Version {v.version} was soft deleted."
            )
        self._refuse_if_referenced(subject, v.version)
        value = {**v.body(), "deleted": True}
        return v.version, [(key, value)]

    def plan_delete_subject(self, subject: str, permanent: bool) -> tuple[list[int], list[Record]]:
        self._check_writable(subject)
        all_vs = self._subject_versions(subject, deleted=True)
        live = {n: v for n, v in all_vs.items() if not v.deleted}
        if permanent:
            if live:
                raise E.RegistryError(
                    404,
                    E.SUBJECT_NOT_SOFT_DELETED,
                    f"Subject '{subject}' was not deleted first before being permanently deleted",
                )
            records: list[Record] = [
                ({"keytype": "SCHEMA", "subject": subject, "version": n, "magic": 1}, None) for n in sorted(all_vs)
            ]
            records += (
                [({"keytype": "CONFIG", "subject": subject, "magic": 0}, None)] if subject in self.state.config else []
            )
            records += (
                [({"keytype": "MODE", "subject": subject, "magic": 0}, None)] if subject in self.state.mode else []
            )
            return sorted(all_vs), records
        if not live:
            raise E.RegistryError(
                404,
                E.SUBJECT_SOFT_DELETED,
                f"Subject '{subject}' was soft deleted.Set permanent=true to delete permanently",
            )
        for n in live:
            self._refuse_if_referenced(subject, n)
        records = [
            ({"keytype": "SCHEMA", "subject": subject, "version": n, "magic": 1}, {**v.body(), "deleted": True})
            for n, v in sorted(live.items())
        ]
        return sorted(live), records

    def plan_config(self, subject: str | None, level: str | None) -> list[Record]:
        key = {"keytype": "CONFIG", "subject": subject, "magic": 0}
        if level is None:
            return [(key, None)]
        if not isinstance(level, str) or level.upper() not in LEVELS:
            raise E.RegistryError(
                422, E.INVALID_COMPATIBILITY_LEVEL, f"Invalid compatibility level. Valid values are {', '.join(LEVELS)}"
            )
        return [(key, {"compatibilityLevel": level.upper()})]

    def plan_mode(self, subject: str | None, mode: str | None, force: bool = False) -> list[Record]:
        key = {"keytype": "MODE", "subject": subject, "magic": 0}
        if mode is None:
            return [(key, None)]
        if not isinstance(mode, str) or mode.upper() not in MODES:
            raise E.RegistryError(422, E.INVALID_MODE, f"Invalid mode. Valid values are {', '.join(MODES)}")
        mode = mode.upper()
        if mode == "IMPORT" and not force:
            has = self.state.versions.get(subject) if subject is not None else any(self.state.versions.values())
            if has:
                raise E.not_permitted("Cannot import since found existing subjects")
        return [(key, {"mode": mode})]
