"""ACLs and Kafka's StandardAuthorizer semantics.

An ACL binding is (resource type, resource name, pattern type) + (principal, host, operation,
permission). A request is allowed when the principal is a super user, or no DENY binding matches
and an ALLOW binding matches (directly, through ALL, or through an implied operation: READ,
WRITE, DELETE, ALTER imply DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS). A resource that no
binding names at all is allowed only with `allow.everyone.if.no.acl.found=true`.

Enabled by `authorizer.class.name` with Kafka's class name, so a Kafka server.properties carries
over. Handlers ask one question: `authorize(session, operation, resource_type, name)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from broker_embedded.config import BrokerConfig, ConfigError

STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
# the ZooKeeper-era name, accepted so older server.properties carry over
ACL_AUTHORIZER = "kafka.security.authorizer.AclAuthorizer"
CLUSTER_NAME = "kafka-cluster"
WILDCARD = "*"


class ResourceType(IntEnum):
    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class PatternType(IntEnum):
    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4


class AclOperation(IntEnum):
    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14


class AclPermissionType(IntEnum):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


# an ALLOW of the key also allows these (Kafka's AclEntry implied operations)
_IMPLIED_BY: dict[AclOperation, frozenset[AclOperation]] = {
    AclOperation.DESCRIBE: frozenset(
        {AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE}
    ),
    AclOperation.DESCRIBE_CONFIGS: frozenset({AclOperation.ALTER_CONFIGS, AclOperation.DESCRIBE_CONFIGS}),
}


@dataclass(frozen=True)
class AclBinding:
    resource_type: ResourceType
    resource_name: str
    pattern_type: PatternType
    principal: str
    host: str
    operation: AclOperation
    permission: AclPermissionType

    def matches_resource(self, resource_type: ResourceType, name: str) -> bool:
        if self.resource_type != resource_type:
            return False
        if self.pattern_type == PatternType.LITERAL:
            return self.resource_name == name or self.resource_name == WILDCARD
        return name.startswith(self.resource_name)  # PREFIXED

    def to_json(self) -> list[Any]:
        return [
            int(self.resource_type),
            self.resource_name,
            int(self.pattern_type),
            self.principal,
            self.host,
            int(self.operation),
            int(self.permission),
        ]

    @classmethod
    def from_json(cls, d: list[Any]) -> AclBinding:
        return cls(ResourceType(d[0]), d[1], PatternType(d[2]), d[3], d[4], AclOperation(d[5]), AclPermissionType(d[6]))


@dataclass(frozen=True)
class AclFilter:
    """DescribeAcls / DeleteAcls filter: None fields and ANY match everything."""

    resource_type: ResourceType = ResourceType.ANY
    resource_name: str | None = None
    pattern_type: PatternType = PatternType.ANY
    principal: str | None = None
    host: str | None = None
    operation: AclOperation = AclOperation.ANY
    permission: AclPermissionType = AclPermissionType.ANY

    def matches(self, b: AclBinding) -> bool:
        if self.resource_type != ResourceType.ANY and b.resource_type != self.resource_type:
            return False
        if self.pattern_type == PatternType.MATCH:
            # bindings that would apply to the named resource
            if self.resource_name is not None:
                if b.pattern_type == PatternType.LITERAL:
                    if b.resource_name not in (self.resource_name, WILDCARD):
                        return False
                elif not self.resource_name.startswith(b.resource_name):
                    return False
        else:
            if self.pattern_type != PatternType.ANY and b.pattern_type != self.pattern_type:
                return False
            if self.resource_name is not None and b.resource_name != self.resource_name:
                return False
        if self.principal is not None and b.principal != self.principal:
            return False
        if self.host is not None and b.host != self.host:
            return False
        if self.operation != AclOperation.ANY and b.operation != self.operation:
            return False
        return self.permission == AclPermissionType.ANY or b.permission == self.permission


def acl_filter_to_json(f: AclFilter) -> list[Any]:
    return [
        int(f.resource_type),
        f.resource_name,
        int(f.pattern_type),
        f.principal,
        f.host,
        int(f.operation),
        int(f.permission),
    ]


def acl_filter_from_json(d: list[Any]) -> AclFilter:
    return AclFilter(
        ResourceType(d[0]), d[1], PatternType(d[2]), d[3], d[4], AclOperation(d[5]), AclPermissionType(d[6])
    )


def validate_binding(b: AclBinding) -> str | None:
    """Why Kafka would refuse to create `b` (INVALID_REQUEST), or None."""
    if b.resource_type in (ResourceType.ANY, ResourceType.UNKNOWN):
        return "resource type must be specific"
    if b.pattern_type not in (PatternType.LITERAL, PatternType.PREFIXED):
        return "pattern type must be LITERAL or PREFIXED"
    if b.operation in (AclOperation.ANY, AclOperation.UNKNOWN):
        return "operation must be specific"
    if b.permission not in (AclPermissionType.ALLOW, AclPermissionType.DENY):
        return "permission type must be ALLOW or DENY"
    if not b.resource_name:
        return "resource name must not be empty"
    if b.resource_type == ResourceType.CLUSTER and b.resource_name != CLUSTER_NAME:
        return f"the cluster resource is named {CLUSTER_NAME}"
    if b.pattern_type == PatternType.PREFIXED and b.resource_name == WILDCARD:
        return "a PREFIXED pattern cannot be the wildcard"
    kind, sep, name = b.principal.partition(":")
    if not sep or not kind or not name:
        return f"principal {b.principal!r} must be <type>:<name>"
    if not b.host:
        return "host must not be empty"
    return None


class Authorizer:
    """StandardAuthorizer: an in-memory ACL set; `on_change` persists it."""

    def __init__(self, super_users: Iterable[str], allow_if_no_acl: bool, on_change: Callable[[], None]) -> None:
        self.super_users = frozenset(super_users)
        self.allow_if_no_acl = allow_if_no_acl
        self.on_change = on_change
        self.acls: list[AclBinding] = []

    # --- decisions -------------------------------------------------------------------------------
    def authorize(
        self, principal: str, host: str, operation: AclOperation, resource_type: ResourceType, name: str
    ) -> bool:
        if principal in self.super_users:
            return True
        found = False
        allowed = False
        ops = _IMPLIED_BY.get(operation, frozenset({operation}))
        for b in self.acls:
            if not b.matches_resource(resource_type, name):
                continue
            found = True
            if b.principal not in (principal, "User:*") or b.host not in (host, WILDCARD):
                continue
            if b.permission == AclPermissionType.DENY:
                if b.operation in (operation, AclOperation.ALL):
                    return False  # deny wins
            elif b.operation == AclOperation.ALL or b.operation in ops:
                allowed = True
        return allowed or (not found and self.allow_if_no_acl)

    def authorize_any(self, principal: str, host: str, operation: AclOperation, resource_type: ResourceType) -> bool:
        """Kafka's authorizeByResourceType (KIP-679: an idempotent producer may write if it may
        write some topic): an ALLOW for `operation` on some resource of the type that no DENY of
        the same pattern cancels."""
        if principal in self.super_users:
            return True
        mine = [
            b
            for b in self.acls
            if b.resource_type == resource_type
            and b.principal in (principal, "User:*")
            and b.host in (host, WILDCARD)
            and b.operation in (operation, AclOperation.ALL)
        ]
        denied = {(b.resource_name, b.pattern_type) for b in mine if b.permission == AclPermissionType.DENY}
        if (WILDCARD, PatternType.LITERAL) in denied:
            return False
        return any(
            b.permission == AclPermissionType.ALLOW and (b.resource_name, b.pattern_type) not in denied for b in mine
        ) or (self.allow_if_no_acl and not any(b.resource_type == resource_type for b in self.acls))

    # --- the ACL store ---------------------------------------------------------------------------
    def create(self, bindings: list[AclBinding]) -> None:
        changed = False
        for b in bindings:
            if b not in self.acls:
                self.acls.append(b)
                changed = True
        if changed:
            self.on_change()

    def describe(self, f: AclFilter) -> list[AclBinding]:
        return [b for b in self.acls if f.matches(b)]

    def delete(self, f: AclFilter) -> list[AclBinding]:
        gone = [b for b in self.acls if f.matches(b)]
        if gone:
            self.acls = [b for b in self.acls if not f.matches(b)]
            self.on_change()
        return gone

    def to_json(self) -> list[Any]:
        return [b.to_json() for b in self.acls]

    def load_json(self, data: list[Any]) -> None:
        self.acls = [AclBinding.from_json(d) for d in data]


def authorizer_from_config(config: BrokerConfig, on_change: Callable[[], None]) -> Authorizer | None:
    name = (config["authorizer.class.name"] or "").strip()
    if not name:
        return None
    if name not in (STANDARD_AUTHORIZER, ACL_AUTHORIZER):
        raise ConfigError(
            f"Invalid value {name!r} for configuration authorizer.class.name: supported are {STANDARD_AUTHORIZER} "
            f"and {ACL_AUTHORIZER}"
        )
    supers = [s.strip() for s in (config["super.users"] or "").split(";") if s.strip()]
    return Authorizer(supers, config["allow.everyone.if.no.acl.found"], on_change)


__all__ = [
    "CLUSTER_NAME",
    "STANDARD_AUTHORIZER",
    "AclBinding",
    "AclFilter",
    "AclOperation",
    "AclPermissionType",
    "Authorizer",
    "PatternType",
    "ResourceType",
    "acl_filter_from_json",
    "acl_filter_to_json",
    "authorizer_from_config",
    "validate_binding",
]
