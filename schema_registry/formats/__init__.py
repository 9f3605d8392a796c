"""Schema types behind one interface (:class:`base.SchemaFormat`): parse, canonical form,
compatibility, references. ``get(schema_type)`` picks the module; the core never looks inside."""

from __future__ import annotations

from .. import errors as E
from .avro import AvroFormat
from .base import Reference, SchemaFormat
from .json_schema import JsonSchemaFormat
from .protobuf import ProtobufFormat

FORMATS: dict[str, SchemaFormat] = {f.name: f for f in (AvroFormat(), JsonSchemaFormat(), ProtobufFormat())}
# the order Confluent's GET /schemas/types answers in
TYPES = ["JSON", "PROTOBUF", "AVRO"]


def get(schema_type: str) -> SchemaFormat:
    fmt = FORMATS.get(schema_type)
    if fmt is None:
        raise E.RegistryError(
            422,
            E.INVALID_SCHEMA,
            f"Invalid schema: schemaType {schema_type} is not supported (one of {', '.join(TYPES)})",
        )
    return fmt


__all__ = ["FORMATS", "TYPES", "Reference", "SchemaFormat", "get"]
