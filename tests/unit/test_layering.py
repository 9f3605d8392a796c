"""The import graph keeps the rooms apart (issue 19): `kafka_wire` imports nothing of ours,
`broker_embedded`, `offsets` and `consumer_group` only `kafka_wire`, and `connector` never the
broker. Imports inside functions count too (they are read from the source, not executed)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = {"kafka_wire", "broker_embedded", "consumer_group", "offsets", "connector", "schema_registry"}
ALLOWED = {
    "kafka_wire": set(),
    "broker_embedded": {"kafka_wire"},
    "consumer_group": {"kafka_wire"},
    "offsets": {"kafka_wire"},
    "connector": {"kafka_wire", "consumer_group", "offsets"},
    # a Kafka client application beside the broker (ARCHITECTURE.md §1); today it talks to Kafka via librdkafka
    "schema_registry": {"kafka_wire"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_its_layer_allows(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for imported in _imports(path) & OURS - {package} - ALLOWED[package]:
            bad.append(f"{path.relative_to(ROOT)} imports {imported}")
    assert not bad, "\n".join(bad)


def test_one_topic_partition_type() -> None:
    from broker_embedded.log import checkpoint
    from consumer_group import structs
    from kafka_wire.types import TopicPartition
    from offsets import spec

    assert structs.TopicPartition is TopicPartition
    assert spec.TopicPartition is TopicPartition
    assert checkpoint.TopicPartition is TopicPartition
