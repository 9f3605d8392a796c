"""Confluent Schema Registry REST API over the sans-IO ``Registry`` (a WSGI app built with werkzeug).

Reads answer from the applied state; writes are planned by the core, written through the
``KafkaStore`` and answered once read back. A write that lost a race with another registry process
(its id or version was taken first in the log) is planned again.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from . import errors as E
from .core import Registry
from .formats import TYPES
from .store import KafkaStore

CONTENT_TYPE = "application/vnd.schemaregistry.v1+json"


def _flag(request: Request, name: str) -> bool:
    return request.args.get(name, "false").lower() == "true"


def _body(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(request.get_data() or b"{}")
    except ValueError as e:
        raise E.RegistryError(422, 42201, f"Invalid JSON body: {e}") from None
    if not isinstance(data, dict):
        raise E.RegistryError(422, 42201, "The request body must be a JSON object")
    return data


def _schema_args(data: dict[str, Any]) -> tuple[str, str, list[dict[str, Any]]]:
    schema = data.get("schema")
    if not isinstance(schema, str):
        raise E.invalid_schema("the field 'schema' (a string) is required")
    return schema, data.get("schemaType") or "AVRO", data.get("references") or []


class RegistryApp:
    def __init__(self, registry: Registry, store: KafkaStore) -> None:
        self.registry = registry
        self.store = store
        self.write_lock = threading.Lock()
        r = Rule
        self.urls = Map(
            [
                r("/", endpoint="root"),
                r("/schemas/types", endpoint="types"),
                r("/schemas/ids/<int:sid>", endpoint="schema_by_id"),
                r("/schemas/ids/<int:sid>/schema", endpoint="raw_by_id"),
                r("/schemas/ids/<int:sid>/versions", endpoint="versions_of_id"),
                r("/schemas/ids/<int:sid>/subjects", endpoint="subjects_of_id"),
                r("/schemas/guids/<guid>", endpoint="schema_by_guid"),
                r("/contexts", endpoint="contexts"),
                r("/schemas/guids/<guid>/ids", endpoint="ids_of_guid"),
                r("/subjects", endpoint="subjects"),
                r("/subjects/<path:subject>/versions", endpoint="versions", methods=["GET", "POST"]),
                r("/subjects/<path:subject>/versions/<version>", endpoint="version", methods=["GET", "DELETE"]),
                r("/subjects/<path:subject>/versions/<version>/schema", endpoint="version_schema"),
                r("/subjects/<path:subject>/versions/<version>/referencedby", endpoint="referencedby"),
                r("/subjects/<path:subject>", endpoint="subject", methods=["POST", "DELETE"]),
                r("/compatibility/subjects/<path:subject>/versions", endpoint="compat_all", methods=["POST"]),
                r("/compatibility/subjects/<path:subject>/versions/<version>", endpoint="compat", methods=["POST"]),
                r("/config", endpoint="config", methods=["GET", "PUT", "DELETE"], defaults={"subject": None}),
                r("/config/<path:subject>", endpoint="config", methods=["GET", "PUT", "DELETE"]),
                r("/mode", endpoint="mode", methods=["GET", "PUT", "DELETE"], defaults={"subject": None}),
                r("/mode/<path:subject>", endpoint="mode", methods=["GET", "PUT", "DELETE"]),
            ],
            strict_slashes=False,
        )

    # ------------------------------------------------------------------ WSGI
    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        request = Request(environ)
        try:
            endpoint, args = self.urls.bind_to_environ(environ).match()
            status, body = getattr(self, "on_" + endpoint)(request, **args)
        except E.RegistryError as e:
            status, body = e.status, e.body()
        except HTTPException as e:
            status, body = e.code or 500, {"error_code": e.code, "message": e.description}
        except Exception as e:  # noqa: BLE001 - a bug must still answer in the API's error shape
            status, body = 500, {"error_code": 50001, "message": f"Error in the backend data store: {e!r}"}
        raw = body if isinstance(body, str) else json.dumps(body)
        ctype = "text/plain" if isinstance(body, str) else CONTENT_TYPE
        return Response(raw, status=status, content_type=ctype)(environ, start_response)

    def _read(self, fn: Callable[[], Any]) -> Any:
        with self.store.lock:
            return fn()

    def _write(self, plan: Callable[[], Any]) -> Any:
        """Run plan() -> (result, records) under the write lock, against caught-up state; write the records."""
        with self.write_lock:
            self.store.catch_up()
            with self.store.lock:
                result, records = plan()
            self.store.write(records)
            return result

    # ------------------------------------------------------------------ endpoints
    def on_root(self, request: Request) -> tuple[int, Any]:
        return 200, {}

    def on_contexts(self, request: Request) -> tuple[int, Any]:
        return 200, ["."]  # only the default context: subjects carry no ':.context:' prefix here

    def on_types(self, request: Request) -> tuple[int, Any]:
        return 200, list(TYPES)

    def _by_id(self, sid: int, fmt: str | None = None) -> dict[str, Any]:
        def read() -> dict[str, Any]:
            schema, stype, refs = self.registry.get_by_id(sid)
            out: dict[str, Any] = {"schema": schema, "guid": self.registry.guid_of_id(sid)}
            if fmt:
                out["schema"] = self.registry.render(schema, stype, refs, fmt)
            if stype != "AVRO":
                out["schemaType"] = stype
            if refs:
                out["references"] = refs
            return out

        return self._read(read)

    def on_schema_by_id(self, request: Request, sid: int) -> tuple[int, Any]:
        return 200, self._by_id(sid, request.args.get("format"))

    def on_schema_by_guid(self, request: Request, guid: str) -> tuple[int, Any]:
        sid = self._read(lambda: self.registry.id_of_guid(guid))
        return 200, self._by_id(sid, request.args.get("format"))

    def on_ids_of_guid(self, request: Request, guid: str) -> tuple[int, Any]:
        return 200, [self._read(lambda: self.registry.id_of_guid(guid))]

    def on_raw_by_id(self, request: Request, sid: int) -> tuple[int, Any]:
        return 200, self._by_id(sid)["schema"]

    def on_versions_of_id(self, request: Request, sid: int) -> tuple[int, Any]:
        pairs = self._read(lambda: self.registry.versions_of_id(sid))
        return 200, [{"subject": s, "version": v} for s, v in pairs]

    def on_subjects_of_id(self, request: Request, sid: int) -> tuple[int, Any]:
        pairs = self._read(lambda: self.registry.versions_of_id(sid))
        return 200, sorted({s for s, _ in pairs})

    def on_subjects(self, request: Request) -> tuple[int, Any]:
        return 200, self._read(lambda: self.registry.subjects(_flag(request, "deleted")))

    def on_versions(self, request: Request, subject: str) -> tuple[int, Any]:
        if request.method == "GET":
            return 200, self._read(lambda: self.registry.list_versions(subject, _flag(request, "deleted")))
        schema, stype, refs = _schema_args(_body(request))
        data = _body(request)
        sid = data.get("id")
        version = data.get("version")

        def plan() -> Any:
            found, records = self.registry.plan_register(
                subject, schema, stype, refs, None if sid in (None, -1, 0) else int(sid), version or None
            )
            return found, records

        for _ in range(5):
            found = self._write(plan)
            if found is not None:
                return 200, {"id": found.id, "guid": found.guid}
            v = self._read(lambda: self._lookup_or_none(subject, schema, stype, refs))
            if v is not None:
                return 200, {"id": v.id, "guid": v.guid}
        raise E.RegistryError(500, E.STORE_ERROR, "Could not register the schema: lost five races for an id")

    def _lookup_or_none(self, subject: str, schema: str, stype: str, refs: list[dict[str, Any]]) -> Any:
        try:
            return self.registry.lookup(subject, schema, stype, refs)
        except E.RegistryError:
            return None

    def on_version(self, request: Request, subject: str, version: str) -> tuple[int, Any]:
        if request.method == "GET":
            fmt = request.args.get("format")

            def get() -> Any:
                v = self.registry.get_version(subject, version, _flag(request, "deleted"))
                body = v.body()
                if fmt:
                    body["schema"] = self.registry.render(v.schema, v.schema_type, v.references, fmt)
                return body

            return 200, self._read(get)
        permanent = _flag(request, "permanent")
        return 200, self._write(lambda: self.registry.plan_delete_version(subject, version, permanent))

    def on_version_schema(self, request: Request, subject: str, version: str) -> tuple[int, Any]:
        return 200, self._read(lambda: self.registry.get_version(subject, version).schema)

    def on_referencedby(self, request: Request, subject: str, version: str) -> tuple[int, Any]:
        return 200, self._read(lambda: self.registry.referenced_by(subject, version))

    def on_subject(self, request: Request, subject: str) -> tuple[int, Any]:
        if request.method == "DELETE":
            permanent = _flag(request, "permanent")
            return 200, self._write(lambda: self.registry.plan_delete_subject(subject, permanent))
        schema, stype, refs = _schema_args(_body(request))
        deleted = _flag(request, "deleted")

        def find() -> Any:
            self.registry.parse(schema, stype, refs)
            return self.registry.lookup(subject, schema, stype, refs, deleted).body()

        return 200, self._read(find)

    def _compat(self, request: Request, subject: str, version: str | None) -> tuple[int, Any]:
        schema, stype, refs = _schema_args(_body(request))
        msgs = self._read(lambda: self.registry.compatibility_messages(subject, schema, stype, refs, version))
        out: dict[str, Any] = {"is_compatible": not msgs}
        if _flag(request, "verbose"):
            out["messages"] = msgs
        return 200, out

    def on_compat(self, request: Request, subject: str, version: str) -> tuple[int, Any]:
        return self._compat(request, subject, version)

    def on_compat_all(self, request: Request, subject: str) -> tuple[int, Any]:
        return self._compat(request, subject, None)

    def on_config(self, request: Request, subject: str | None) -> tuple[int, Any]:
        reg = self.registry
        if request.method == "GET":

            def get() -> Any:
                if subject is not None and subject not in reg.state.config and not _flag(request, "defaultToGlobal"):
                    raise E.RegistryError(
                        404,
                        E.SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED,
                        f"Subject '{subject}' does not have subject-level compatibility configured",
                    )
                return {"compatibilityLevel": reg.compatibility(subject)}

            return 200, self._read(get)
        if request.method == "DELETE":
            old = self._read(lambda: reg.compatibility(subject))
            self._write(lambda: (None, reg.plan_config(subject, None)))
            return 200, {"compatibilityLevel": old}
        level = _body(request).get("compatibility")
        self._write(lambda: (None, reg.plan_config(subject, level)))
        return 200, {"compatibility": str(level).upper()}

    def on_mode(self, request: Request, subject: str | None) -> tuple[int, Any]:
        reg = self.registry
        if request.method == "GET":

            def get() -> Any:
                if subject is not None and subject not in reg.state.mode and not _flag(request, "defaultToGlobal"):
                    raise E.RegistryError(
                        404,
                        E.SUBJECT_LEVEL_MODE_NOT_CONFIGURED,
                        f"Subject '{subject}' does not have subject-level mode configured",
                    )
                return {"mode": reg.mode_of(subject)}

            return 200, self._read(get)
        if request.method == "DELETE":
            old = self._read(lambda: reg.mode_of(subject))
            self._write(lambda: (None, reg.plan_mode(subject, None)))
            return 200, {"mode": old}
        mode = _body(request).get("mode")
        force = _flag(request, "force")
        self._write(lambda: (None, reg.plan_mode(subject, mode, force)))
        return 200, {"mode": str(mode).upper()}
