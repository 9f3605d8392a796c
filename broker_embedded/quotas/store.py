"""Client quota configs (KIP-546): the entities (user, client-id, both, defaults; ip) and their
quota values, with Kafka's DescribeClientQuotas matching and AlterClientQuotas validation
(KRaft's ClientQuotasImage.describe and ClientQuotaControlManager.alterClientQuotas).

Sans-IO except :meth:`ClientQuotaStore.save` / :meth:`ClientQuotaStore.load`, one JSON file
written atomically (a single broker's `<log dir>/client-quotas.json`); in a cluster the
controller holds the store and pushes it to every broker in its image.
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kafka_wire.errors import ErrorCode

USER = "user"
CLIENT_ID = "client-id"
IP = "ip"

PRODUCER_BYTE_RATE = "producer_byte_rate"
CONSUMER_BYTE_RATE = "consumer_byte_rate"
REQUEST_PERCENTAGE = "request_percentage"
CONTROLLER_MUTATION_RATE = "controller_mutation_rate"
CONNECTION_CREATION_RATE = "connection_creation_rate"

# Kafka's QuotaConfig key types: integral ones refuse fractions and values past their type's range
_LONG_MAX = 2**63 - 1
_INT_MAX = 2**31 - 1
USER_AND_CLIENT_KEYS: dict[str, str] = {
    PRODUCER_BYTE_RATE: "LONG",
    CONSUMER_BYTE_RATE: "LONG",
    REQUEST_PERCENTAGE: "DOUBLE",
    CONTROLLER_MUTATION_RATE: "DOUBLE",
}
IP_KEYS: dict[str, str] = {CONNECTION_CREATION_RATE: "INT"}

# DescribeClientQuotas match types
MATCH_EXACT = 0
MATCH_DEFAULT = 1
MATCH_SPECIFIED = 2

# an entity: its (type, name) pairs sorted by type; name None = the type's default entity
QuotaEntity = tuple[tuple[str, str | None], ...]


def entity_of(pairs: Iterable[tuple[str, str | None]]) -> QuotaEntity:
    """Kafka builds a map from the request's pairs: a repeated type keeps its last name."""
    return tuple(sorted(dict(pairs).items()))


def describe_entity(entity: QuotaEntity) -> str:
    """Kafka's ClientQuotaEntity toString, for error messages."""
    return "ClientQuotaEntity(entries={" + ", ".join(f"{t}={n}" for t, n in entity) + "})"


class QuotaRequestError(Exception):
    """A request-level error (DescribeClientQuotas answers it for the whole filter)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class QuotaOp:
    key: str
    value: float | None  # None = remove


@dataclass(frozen=True, slots=True)
class Result:
    code: ErrorCode
    message: str | None = None


OK = Result(ErrorCode.NONE)


def _invalid(message: str) -> Result:
    return Result(ErrorCode.INVALID_REQUEST, message)


class ClientQuotaStore:
    """Entity -> {quota key: value}; entities without quotas are dropped."""

    FILE_NAME = "client-quotas.json"

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.entities: dict[QuotaEntity, dict[str, float]] = {}
        self.listeners: list[Callable[[], None]] = []  # called after every change (quota managers)

    # --- DescribeClientQuotas ------------------------------------------------------------------
    def describe(
        self, components: Iterable[tuple[str, int, str | None]], strict: bool
    ) -> list[tuple[QuotaEntity, dict[str, float]]]:
        """Entities matching the filter (entity type, match type, match) -> [(entity, values)].
        Raises QuotaRequestError with Kafka's codes and messages for a bad filter."""
        exact: dict[str, str | None] = {}
        typed: set[str] = set()
        for entity_type, match_type, match in components:
            if not entity_type:
                raise QuotaRequestError(ErrorCode.INVALID_REQUEST, "Invalid empty entity type.")
            if entity_type in exact or entity_type in typed:
                raise QuotaRequestError(
                    ErrorCode.INVALID_REQUEST, f"Entity type {entity_type} cannot appear more than once in the filter."
                )
            if entity_type not in (IP, USER, CLIENT_ID):
                raise QuotaRequestError(ErrorCode.UNSUPPORTED_VERSION, f"Unsupported entity type {entity_type}")
            if match_type == MATCH_EXACT:
                if match is None:
                    raise QuotaRequestError(
                        ErrorCode.INVALID_REQUEST, "Request specified MATCH_TYPE_EXACT, but set match string to null."
                    )
                exact[entity_type] = match
            elif match_type == MATCH_DEFAULT:
                if match is not None:
                    raise QuotaRequestError(
                        ErrorCode.INVALID_REQUEST,
                        "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.",
                    )
                exact[entity_type] = None
            elif match_type == MATCH_SPECIFIED:
                if match is not None:
                    raise QuotaRequestError(
                        ErrorCode.INVALID_REQUEST,
                        "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.",
                    )
                typed.add(entity_type)
            else:
                raise QuotaRequestError(ErrorCode.INVALID_REQUEST, f"Unknown match type {match_type}")
        if IP in exact or IP in typed:
            if {USER, CLIENT_ID} & (set(exact) | typed):
                raise QuotaRequestError(
                    ErrorCode.INVALID_REQUEST,
                    "Invalid entity filter component combination. IP filter component should not be used with "
                    "user or clientId filter component.",
                )
        out = []
        for entity, values in self.entities.items():
            names = dict(entity)
            if strict and len(names) != len(exact) + len(typed):
                continue
            if any(t not in names or names[t] != m for t, m in exact.items()):
                continue
            if any(t not in names for t in typed):
                continue
            out.append((entity, dict(values)))
        return out

    # --- AlterClientQuotas ---------------------------------------------------------------------
    def alter(
        self, alterations: list[tuple[QuotaEntity, list[QuotaOp]]], validate_only: bool = False
    ) -> list[tuple[QuotaEntity, Result]]:
        """Apply each entity's ops (all or nothing per entity), with Kafka's per-entity errors.
        Returns one result per distinct entity, in first-seen order."""
        results: dict[QuotaEntity, Result] = {}
        staged: dict[QuotaEntity, dict[str, float]] = {e: dict(v) for e, v in self.entities.items()}
        for entity, ops in alterations:
            changes: dict[str, float | None] = {}
            for op in ops:
                if op.key in changes:
                    results[entity] = _invalid(
                        f"Duplicate quota key {op.key} not updating quota for this entity {describe_entity(entity)}"
                    )
                else:
                    changes[op.key] = op.value
            if entity in results:
                # Kafka's controller: an entity already answered (a duplicate key, or the same
                # entity earlier in this request) is ignored
                results[entity] = _invalid(f"Ignoring duplicate entity {describe_entity(entity)}")
                continue
            results[entity] = self._alter_entity(staged, entity, changes)
        if not validate_only and staged != self.entities:
            self.entities = {e: v for e, v in staged.items() if v}
            self._changed()
        return list(results.items())

    @staticmethod
    def _alter_entity(
        staged: dict[QuotaEntity, dict[str, float]], entity: QuotaEntity, changes: dict[str, float | None]
    ) -> Result:
        error = _validate_entity(entity)
        if error is not None:
            return error
        types = {t for t, _ in entity}
        keys = IP_KEYS if IP in types else USER_AND_CLIENT_KEYS
        current = dict(staged.get(entity, {}))
        for key, value in changes.items():
            if value is None:
                current.pop(key, None)
                continue
            error = _validate_value(keys, key, value)
            if error is not None:
                return error
            current[key] = float(value)
        if current:
            staged[entity] = current
        else:
            staged.pop(entity, None)
        return OK

    # --- replication and persistence -----------------------------------------------------------
    def to_json(self) -> list[dict[str, Any]]:
        return [
            {"entity": [[t, n] for t, n in entity], "quotas": dict(values)}
            for entity, values in sorted(self.entities.items(), key=lambda kv: repr(kv[0]))
        ]

    def load_json(self, data: list[dict[str, Any]] | None) -> None:
        """Replace the entities (a controller image, or the stored file)."""
        entities: dict[QuotaEntity, dict[str, float]] = {}
        for item in data or []:
            entity = entity_of((str(t), None if n is None else str(n)) for t, n in item["entity"])
            values = {str(k): float(v) for k, v in item["quotas"].items()}
            if values:
                entities[entity] = values
        if entities != self.entities:
            self.entities = entities
            for listener in self.listeners:
                listener()

    def _changed(self) -> None:
        self.save()
        for listener in self.listeners:
            listener()

    def load(self) -> None:
        if self.path is not None and self.path.exists():
            self.load_json(json.loads(self.path.read_text()).get("entities", []))

    def save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            json.dump({"version": 1, "entities": self.to_json()}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)


def _validate_entity(entity: QuotaEntity) -> Result | None:
    if not entity:
        return _invalid("Invalid empty client quota entity")
    for entity_type, name in entity:
        if entity_type not in (USER, CLIENT_ID, IP):
            return _invalid(f"Unhandled client quota entity type: {entity_type}")
        if name is not None and not name:
            return _invalid(f"Empty {entity_type} not supported")
    types = {t for t, _ in entity}
    if IP in types:
        if len(types) > 1:
            return _invalid("Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId")
        ip = dict(entity)[IP]
        if ip is not None:
            try:
                ipaddress.ip_address(ip)
            except ValueError:
                # Kafka resolves host names too (InetAddress.getByName); literal addresses only here
                return _invalid(f"{ip} is not a valid IP or resolvable host.")
    return None


def _validate_value(keys: dict[str, str], key: str, value: float) -> Result | None:
    kind = keys.get(key)
    if kind is None:
        return _invalid(f"Invalid configuration key {key}")
    if value <= 0.0:
        return _invalid(f"Quota {key} must be greater than 0")
    if kind == "DOUBLE":
        return None
    limit, name = (_INT_MAX, "an INT") if kind == "INT" else (_LONG_MAX, "a LONG")
    if value > limit:
        return _invalid(f"Proposed value for {key} is too large for {name}.")
    if abs(value % 1.0) > 1e-6:
        return _invalid(f"{key} cannot be a fractional value.")
    return None
