"""Fixtures shared by the consumer group tests (tests/integration/test_groups_*.py).

A module that needs something else under the same name (test_groups_churn.py's `gb` also runs
against Apache Kafka) defines its own, which overrides these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.integration.group_util import RawMember, group_broker


@pytest.fixture(scope="module")
def gb() -> Iterator[Any]:
    """One embedded broker with short group timeouts per test module (group_util.FAST_GROUP_CONFIG)."""
    with group_broker() as b:
        yield b


@pytest.fixture
def raw(gb: Any) -> Iterator[Callable[..., RawMember]]:
    """A factory of RawMembers on `gb` that are all closed after the test."""
    made: list[RawMember] = []

    def make(group: str, topic: str, **kw: Any) -> RawMember:
        m = RawMember(gb.bootstrap_servers, group, [topic], **kw)
        made.append(m)
        return m

    yield make
    for m in made:
        m.close()
