"""StandardAuthorizer semantics of broker_embedded.security.authorizer (sans-IO)."""

from __future__ import annotations

import pytest

from broker_embedded.config import BrokerConfig, ConfigError
from broker_embedded.security.authorizer import (
    STANDARD_AUTHORIZER,
    AclBinding,
    AclFilter,
    AclOperation,
    AclPermissionType,
    Authorizer,
    PatternType,
    ResourceType,
    authorizer_from_config,
    validate_binding,
)

A, D = AclPermissionType.ALLOW, AclPermissionType.DENY
T, G, C = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER
LIT, PRE = PatternType.LITERAL, PatternType.PREFIXED
Op = AclOperation


def acl(
    rt: ResourceType, name: str, op: AclOperation, perm: AclPermissionType = A, principal: str = "User:alice",
    pattern: PatternType = LIT, host: str = "*",
) -> AclBinding:  # fmt: skip
    return AclBinding(rt, name, pattern, principal, host, op, perm)


def authz(*bindings: AclBinding, supers: tuple[str, ...] = (), allow_if_no_acl: bool = False) -> Authorizer:
    changes: list[int] = []
    a = Authorizer(supers, allow_if_no_acl, lambda: changes.append(1))
    a.create(list(bindings))
    return a


def can(
    a: Authorizer, op: AclOperation, rt: ResourceType, name: str, who: str = "User:alice", host: str = "10.0.0.1"
) -> bool:
    return a.authorize(who, host, op, rt, name)


def test_literal_prefixed_and_wildcard_patterns() -> None:
    a = authz(acl(T, "orders", Op.READ), acl(T, "logs-", Op.WRITE, pattern=PRE), acl(G, "*", Op.READ))
    assert can(a, Op.READ, T, "orders")
    assert not can(a, Op.READ, T, "orders2")  # literal is exact
    assert can(a, Op.WRITE, T, "logs-app")
    assert not can(a, Op.WRITE, T, "log")
    assert can(a, Op.READ, G, "any-group")
    assert not can(a, Op.READ, T, "orders", who="User:bob")


def test_deny_wins_over_allow() -> None:
    a = authz(acl(T, "*", Op.ALL), acl(T, "secret", Op.READ, D))
    assert can(a, Op.WRITE, T, "secret")
    assert not can(a, Op.READ, T, "secret")
    assert can(a, Op.READ, T, "public")
    # a DENY of ALL denies every operation, including implied DESCRIBE
    b = authz(acl(T, "x", Op.READ), acl(T, "x", Op.ALL, D))
    assert not can(b, Op.DESCRIBE, T, "x")


@pytest.mark.parametrize("granted", [Op.READ, Op.WRITE, Op.DELETE, Op.ALTER])
def test_operations_that_imply_describe(granted: AclOperation) -> None:
    a = authz(acl(T, "t", granted))
    assert can(a, Op.DESCRIBE, T, "t")
    assert not can(a, Op.CREATE, T, "t")


def test_alter_configs_implies_describe_configs_only() -> None:
    a = authz(acl(T, "t", Op.ALTER_CONFIGS))
    assert can(a, Op.DESCRIBE_CONFIGS, T, "t")
    assert not can(a, Op.DESCRIBE, T, "t")
    b = authz(acl(T, "t", Op.DESCRIBE))
    assert not can(b, Op.READ, T, "t")  # implication goes one way


def test_deny_of_read_does_not_deny_describe() -> None:
    a = authz(acl(T, "t", Op.WRITE), acl(T, "t", Op.READ, D))
    assert can(a, Op.DESCRIBE, T, "t")


def test_host_and_wildcard_principal() -> None:
    a = authz(acl(T, "t", Op.READ, principal="User:*", host="10.0.0.1"))
    assert can(a, Op.READ, T, "t", who="User:anyone", host="10.0.0.1")
    assert not can(a, Op.READ, T, "t", who="User:anyone", host="10.0.0.2")


def test_super_users_and_no_acl_found() -> None:
    a = authz(acl(T, "t", Op.READ, D, principal="User:admin"), supers=("User:admin",))
    assert can(a, Op.READ, T, "t", who="User:admin")  # super users bypass even DENY
    assert not can(a, Op.READ, T, "other")  # no ACL and allow.everyone.if.no.acl.found=false
    open_ = authz(acl(T, "t", Op.READ, principal="User:bob"), allow_if_no_acl=True)
    assert can(open_, Op.READ, T, "other")  # no ACL names "other"
    assert not can(open_, Op.READ, T, "t")  # "t" has an ACL, not for alice


def test_filters_describe_and_delete() -> None:
    a = authz(
        acl(T, "orders", Op.READ),
        acl(T, "ord", Op.WRITE, pattern=PRE),
        acl(T, "*", Op.DESCRIBE),
        acl(G, "g", Op.READ, principal="User:bob"),
    )
    assert len(a.describe(AclFilter())) == 4
    assert len(a.describe(AclFilter(resource_type=T))) == 3
    # MATCH: every binding that applies to the topic "orders"
    assert len(a.describe(AclFilter(T, "orders", PatternType.MATCH))) == 3
    assert len(a.describe(AclFilter(T, "orders", PatternType.LITERAL))) == 1
    assert len(a.describe(AclFilter(principal="User:bob"))) == 1
    gone = a.delete(AclFilter(T, None, PatternType.PREFIXED))
    assert [b.resource_name for b in gone] == ["ord"]
    assert not can(a, Op.WRITE, T, "orders")


def test_persistence_round_trip_and_change_callback() -> None:
    changes: list[int] = []
    a = Authorizer((), False, lambda: changes.append(1))
    a.create([acl(T, "t", Op.READ)])
    a.create([acl(T, "t", Op.READ)])  # a duplicate changes nothing
    assert changes == [1]
    b = Authorizer((), False, lambda: None)
    b.load_json(a.to_json())
    assert b.acls == a.acls


@pytest.mark.parametrize(
    "binding",
    [
        acl(ResourceType.ANY, "t", Op.READ),
        acl(T, "t", Op.ANY),
        acl(T, "t", Op.READ, AclPermissionType.ANY),
        acl(T, "t", Op.READ, pattern=PatternType.MATCH),
        acl(T, "", Op.READ),
        acl(T, "t", Op.READ, principal="alice"),
        acl(C, "not-the-cluster", Op.ALTER),
        acl(T, "*", Op.READ, pattern=PRE),
    ],
)
def test_invalid_bindings_are_refused(binding: AclBinding) -> None:
    assert validate_binding(binding) is not None


def test_authorizer_from_config() -> None:
    assert authorizer_from_config(BrokerConfig({}), lambda: None) is None
    a = authorizer_from_config(
        BrokerConfig({"authorizer.class.name": STANDARD_AUTHORIZER, "super.users": "User:admin;User:CN=ops"}),
        lambda: None,
    )
    assert a is not None and a.super_users == {"User:admin", "User:CN=ops"}
    with pytest.raises(ConfigError, match="authorizer.class.name"):
        authorizer_from_config(BrokerConfig({"authorizer.class.name": "com.example.Nope"}), lambda: None)
