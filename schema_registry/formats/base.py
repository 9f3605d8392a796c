"""The interface every schema type (AVRO, JSON, PROTOBUF) implements for the registry's core."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Reference:
    """A resolved schema reference: the name the referring schema uses for it (an Avro type name is
    not needed: the named types come along; a JSON Schema ``$ref`` URL; a Protobuf import path),
    the referenced version's type, schema text and parsed form."""

    name: str
    schema_type: str
    schema: str
    parsed: Any


class SchemaFormat(Protocol):
    name: str

    def canonical(self, schema_str: str) -> str:
        """The form stored in ``_schemas`` and compared by lookups (raises 42201 if unreadable)."""

    def parse(self, canon: str, refs: list[Reference]) -> Any:
        """The parsed schema the compatibility check works on (raises 42201 when invalid)."""

    def backward_messages(self, old: Any, new: Any) -> list[str]:
        """Why a consumer using ``new`` cannot read data written with ``old`` (empty: it can).
        FORWARD is the same check with the roles swapped."""
