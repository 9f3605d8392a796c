"""Drives python-schema-registry-client (a second, independent client of the Confluent REST API,
httpx-based) against a registry URL and prints what it saw as JSON on stdout.

Run as a separate process by tests/integration/test_schema_registry.py: that package's top-level
module is also named ``schema_registry``, so it is installed aside (``pip install --target``) and
imported here with its directory first on ``sys.path``, where our own package is not reachable.

    python second_sr_client.py CLIENT_DIR REGISTRY_URL SUBJECT_PREFIX
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

USER_V1 = {"type": "record", "name": "User", "namespace": "t", "fields": [{"name": "name", "type": "string"}]}
USER_V2 = {
    **USER_V1,
    "fields": [*USER_V1["fields"], {"name": "age", "type": ["null", "int"], "default": None}],
}
USER_BAD = {**USER_V1, "fields": [{"name": "name", "type": "int"}]}  # string -> int: no resolution


def main() -> None:
    client_dir, url, prefix = sys.argv[1:4]
    sys.path.insert(0, client_dir)
    from schema_registry.client import AsyncSchemaRegistryClient, SchemaRegistryClient
    from schema_registry.client.errors import ClientError
    from schema_registry.serializers import AvroMessageSerializer

    seen: dict[str, Any] = {}

    def step(label: str, fn: Any) -> Any:
        try:
            out = fn()
        except ClientError as e:
            out = {"ClientError": e.http_code}
        seen[label] = out
        return out

    def fresh() -> Any:  # the client caches ids and schemas: a fresh one goes to the server
        return SchemaRegistryClient(url)

    c = SchemaRegistryClient(url)
    subject = f"{prefix}-users-value"
    id1 = step("register v1", lambda: c.register(subject, json.dumps(USER_V1)))
    step("register v1 again", lambda: fresh().register(subject, json.dumps(USER_V1)))
    step("get_by_id v1", lambda: fresh().get_by_id(id1).raw_schema)
    step("get_by_id unknown", lambda: fresh().get_by_id(987654))
    latest = step("latest", lambda: fresh().get_schema(subject)._asdict() | {"schema": None})
    step("latest schema", lambda: fresh().get_schema(subject).schema.raw_schema)
    step("versions", lambda: fresh().get_versions(subject))
    step("unknown subject versions", lambda: fresh().get_versions(f"{prefix}-nope"))
    step("unknown subject latest", lambda: fresh().get_schema(f"{prefix}-nope"))
    step("lookup v1", lambda: fresh().check_version(subject, json.dumps(USER_V1))._asdict() | {"schema": None})
    step("global compatibility", lambda: fresh().get_compatibility())
    step("compatible v2", lambda: fresh().test_compatibility(subject, json.dumps(USER_V2)))
    step("compatible bad", lambda: fresh().test_compatibility(subject, json.dumps(USER_BAD)))
    step("compatible bad verbose", lambda: fresh().test_compatibility(subject, json.dumps(USER_BAD), verbose=True))
    step("set FULL", lambda: fresh().update_compatibility("FULL", subject))
    step("subject compatibility", lambda: fresh().get_compatibility(subject))
    id2 = step("register v2", lambda: fresh().register(subject, json.dumps(USER_V2)))
    step("register bad", lambda: fresh().register(subject, json.dumps(USER_BAD)))
    step("versions after v2", lambda: fresh().get_versions(subject))
    step("version 1", lambda: fresh().get_schema(subject, version=1)._asdict() | {"schema": None})
    step(
        "subject versions of id2",
        lambda: [[sv.subject, sv.version] for sv in fresh().get_schema_subject_versions(id2)],
    )
    step("subjects", lambda: sorted(s for s in fresh().get_subjects() if s.startswith(prefix)))

    # the client's own serde: framed Avro written with v2 (the parent decodes it with other readers)
    ser = AvroMessageSerializer(fresh())
    from schema_registry.client import schema as sr_schema

    framed = ser.encode_record_with_schema(subject, sr_schema.AvroSchema(USER_V2), {"name": "ann", "age": 41})
    seen["framed v2"] = framed.hex()
    seen["decoded v2"] = AvroMessageSerializer(fresh()).decode_message(framed)

    # the async client takes another code path (httpx.AsyncClient)
    async def run_async() -> dict[str, Any]:
        ac = AsyncSchemaRegistryClient(url)
        sv = await ac.get_schema(subject)
        return {"latest version": sv.version, "versions": await ac.get_versions(subject)}

    seen["async"] = asyncio.run(run_async())

    step("delete version 1", lambda: fresh().delete_version(subject, 1))
    step("versions after delete", lambda: fresh().get_versions(subject))
    step("id1 after delete", lambda: fresh().get_by_id(id1).raw_schema)
    step("delete unknown version", lambda: fresh().delete_version(subject, 7))
    step("delete subject", lambda: fresh().delete_subject(subject))
    step("subjects after delete", lambda: [s for s in fresh().get_subjects() if s.startswith(prefix)])
    step("delete subject again", lambda: fresh().delete_subject(subject))
    seen["ids"] = [id1, id2]
    seen["latest"] = latest
    json.dump(seen, sys.stdout, default=str)


if __name__ == "__main__":
    main()
