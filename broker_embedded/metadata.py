"""Topic metadata of this broker: names, topic ids, partition counts and config overrides.

On a single node this is the whole "metadata image". It is persisted as one JSON file in the log
dir (written atomically) so that topic ids and overrides survive restarts; each partition's log
directory is owned by the log manager.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka_wire.errors import ErrorCode, KafkaError

_LEGAL_TOPIC = re.compile(r"^[a-zA-Z0-9._-]+$")
MAX_TOPIC_NAME_LENGTH = 249
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state"})


def validate_topic_name(name: str | None) -> None:
    if not name:
        raise KafkaError("Topic name is empty", ErrorCode.INVALID_TOPIC_EXCEPTION)
    if name in (".", ".."):
        raise KafkaError("Topic name cannot be '.' or '..'", ErrorCode.INVALID_TOPIC_EXCEPTION)
    if len(name) > MAX_TOPIC_NAME_LENGTH:
        raise KafkaError(
            f"Topic name is longer than {MAX_TOPIC_NAME_LENGTH} characters", ErrorCode.INVALID_TOPIC_EXCEPTION
        )
    if not _LEGAL_TOPIC.match(name):
        raise KafkaError(
            f"Topic name {name!r} is illegal: only ASCII alphanumerics, '.', '_' and '-' are allowed",
            ErrorCode.INVALID_TOPIC_EXCEPTION,
        )


@dataclass
class TopicMetadata:
    name: str
    topic_id: bytes
    num_partitions: int
    replication_factor: int = 1
    configs: dict[str, Any] = field(default_factory=dict)  # topic-level overrides only

    @property
    def is_internal(self) -> bool:
        return self.name in INTERNAL_TOPICS

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "topic_id": str(uuid.UUID(bytes=self.topic_id)),
            "num_partitions": self.num_partitions,
            "replication_factor": self.replication_factor,
            "configs": self.configs,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TopicMetadata:
        return cls(
            name=d["name"],
            topic_id=uuid.UUID(d["topic_id"]).bytes,
            num_partitions=int(d["num_partitions"]),
            replication_factor=int(d.get("replication_factor", 1)),
            configs=dict(d.get("configs", {})),
        )


class TopicRegistry:
    """Name ↔ topic id ↔ metadata, persisted to ``<log dir>/topics.json``."""

    FILE_NAME = "topics.json"

    def __init__(self, log_dir: Path) -> None:
        self.path = log_dir / self.FILE_NAME
        self.by_name: dict[str, TopicMetadata] = {}
        self.by_id: dict[bytes, TopicMetadata] = {}
        if self.path.exists():
            for d in json.loads(self.path.read_text()).get("topics", []):
                t = TopicMetadata.from_json(d)
                self.by_name[t.name] = t
                self.by_id[t.topic_id] = t

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        data = json.dumps({"version": 1, "topics": [t.to_json() for t in self.by_name.values()]}, indent=1)
        with open(tmp, "w") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def get(self, name: str) -> TopicMetadata | None:
        return self.by_name.get(name)

    def add(self, name: str, num_partitions: int, replication_factor: int, configs: dict[str, Any]) -> TopicMetadata:
        # A re-created topic gets a fresh id, so nothing keyed by the old id is mistaken for it.
        t = TopicMetadata(name, uuid.uuid4().bytes, num_partitions, replication_factor, dict(configs))
        self.by_name[name] = t
        self.by_id[t.topic_id] = t
        self.save()
        return t

    def remove(self, name: str) -> TopicMetadata | None:
        t = self.by_name.pop(name, None)
        if t is not None:
            self.by_id.pop(t.topic_id, None)
            self.save()
        return t

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(list(self.by_name.values()))

    def __len__(self) -> int:
        return len(self.by_name)
