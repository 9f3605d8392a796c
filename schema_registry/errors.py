"""Confluent Schema Registry error codes and the error type the core raises (HTTP layer renders it)."""

from __future__ import annotations

from kafka_wire.errors import PykafkaError


class RegistryError(PykafkaError):
    """An error answered as ``{"error_code": code, "message": message}`` with HTTP ``status``."""

    def __init__(self, status: int, error_code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.error_code = error_code
        self.message = message

    def body(self) -> dict[str, object]:
        return {"error_code": self.error_code, "message": self.message}


# Confluent's documented codes (io.confluent.kafka.schemaregistry.rest.exceptions.Errors)
SUBJECT_NOT_FOUND = 40401
VERSION_NOT_FOUND = 40402
SCHEMA_NOT_FOUND = 40403
SUBJECT_SOFT_DELETED = 40404
SUBJECT_NOT_SOFT_DELETED = 40405
SCHEMAVERSION_SOFT_DELETED = 40406
SCHEMAVERSION_NOT_SOFT_DELETED = 40407
SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED = 40408
SUBJECT_LEVEL_MODE_NOT_CONFIGURED = 40409
INCOMPATIBLE_SCHEMA = 409
INVALID_SCHEMA = 42201
INVALID_VERSION = 42202
INVALID_COMPATIBILITY_LEVEL = 42203
INVALID_MODE = 42204
OPERATION_NOT_PERMITTED = 42205
REFERENCE_EXISTS = 42206
ID_DOES_NOT_MATCH = 42207
STORE_ERROR = 50001
OPERATION_TIMEOUT = 50002


def subject_not_found(subject: str) -> RegistryError:
    return RegistryError(404, SUBJECT_NOT_FOUND, f"Subject '{subject}' not found.")


def version_not_found(subject: str, version: object) -> RegistryError:
    return RegistryError(404, VERSION_NOT_FOUND, f"Version {version} not found for subject '{subject}'.")


def schema_not_found(what: str = "Schema not found") -> RegistryError:
    return RegistryError(404, SCHEMA_NOT_FOUND, what)


def invalid_schema(detail: str) -> RegistryError:
    return RegistryError(422, INVALID_SCHEMA, f"Invalid schema: {detail}")


def not_permitted(detail: str) -> RegistryError:
    return RegistryError(422, OPERATION_NOT_PERMITTED, detail)
