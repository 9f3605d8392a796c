"""Topic metadata of this broker: names, topic ids, partition counts and config overrides.

On a single node this is the whole "metadata image". It is persisted as one JSON file in the log
dir (written atomically) so that topic ids and overrides survive restarts; each partition's log
directory is owned by the log manager.
"""

from __future__ import annotations

import json
import logging
import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka_wire.errors import ErrorCode, KafkaError

# fullmatch: "$" would also match before a trailing newline and let "bad\n" through
_LEGAL_TOPIC = re.compile(r"[a-zA-Z0-9._-]+")
MAX_TOPIC_NAME_LENGTH = 249
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})
# Stored partition counts above this are refused on load (the broker's max.broker.partitions is
# passed in by the broker; this is the bound for other readers of the file).
MAX_STORED_PARTITIONS = 1_000_000

log = logging.getLogger(__name__)


def validate_topic_name(name: str | None) -> None:
    if not name:
        raise KafkaError("Topic name is empty", ErrorCode.INVALID_TOPIC_EXCEPTION)
    if name in (".", ".."):
        raise KafkaError("Topic name cannot be '.' or '..'", ErrorCode.INVALID_TOPIC_EXCEPTION)
    if len(name) > MAX_TOPIC_NAME_LENGTH:
        raise KafkaError(
            f"Topic name is longer than {MAX_TOPIC_NAME_LENGTH} characters", ErrorCode.INVALID_TOPIC_EXCEPTION
        )
    if not _LEGAL_TOPIC.fullmatch(name):
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

    def __init__(self, log_dir: Path, max_partitions: int = MAX_STORED_PARTITIONS) -> None:
        self.path = log_dir / self.FILE_NAME
        self.by_name: dict[str, TopicMetadata] = {}
        self.by_id: dict[bytes, TopicMetadata] = {}
        # stored entries refused on load: written back unchanged so that fixing the value (or the
        # limit) and restarting brings the topic back, nothing is silently forgotten
        self.refused: list[Any] = []
        if self.path.exists():
            self._load(max_partitions)

    def _load(self, max_partitions: int) -> None:
        """Validate what was persisted: one bad entry (a partition count of 1,295,077,183 from a
        flipped bit or a hand edit) is refused with one log line, the other topics load."""
        try:
            doc = json.loads(self.path.read_text())
            entries = doc.get("topics", []) if isinstance(doc, dict) else None
            if not isinstance(entries, list):
                raise ValueError("no 'topics' list")
        except (OSError, ValueError, UnicodeDecodeError) as e:
            # keep the damaged file for inspection; the broker starts without those topics
            broken = self.path.with_name(self.path.name + ".corrupt")
            os.replace(self.path, broken)
            log.error("%s is unreadable (%s): moved to %s; no stored topics loaded", self.path, e, broken.name)
            return
        for d in entries:
            try:
                t = TopicMetadata.from_json(d)
                validate_topic_name(t.name)
                if not 1 <= t.num_partitions <= max_partitions:
                    raise ValueError(f"partition count {t.num_partitions} is outside 1..{max_partitions}")
                if not 1 <= t.replication_factor <= 32767:
                    raise ValueError(f"replication factor {t.replication_factor} is outside 1..32767")
                if t.name in self.by_name or t.topic_id in self.by_id:
                    raise ValueError("duplicate topic name or id")
            except (KeyError, TypeError, ValueError, KafkaError) as e:
                name = d.get("name") if isinstance(d, dict) else None
                log.error("refusing stored topic %r from %s: %s; the topic is offline until fixed", name, self.path, e)
                self.refused.append(d)
                continue
            self.by_name[t.name] = t
            self.by_id[t.topic_id] = t

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        topics = [t.to_json() for t in self.by_name.values()] + self.refused
        data = json.dumps({"version": 1, "topics": topics}, indent=1)
        with open(tmp, "w") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def get(self, name: str) -> TopicMetadata | None:
        return self.by_name.get(name)

    def add(
        self,
        name: str,
        num_partitions: int,
        replication_factor: int,
        configs: dict[str, Any],
        topic_id: bytes | None = None,
    ) -> TopicMetadata:
        # A re-created topic gets a fresh id, so nothing keyed by the old id is mistaken for it.
        t = TopicMetadata(name, topic_id or uuid.uuid4().bytes, num_partitions, replication_factor, dict(configs))
        self.refused = [d for d in self.refused if not (isinstance(d, dict) and d.get("name") == name)]
        self.by_name[name] = t
        self.by_id[t.topic_id] = t
        self.save()
        return t

    def refuse(self, name: str, reason: str) -> None:
        """Take a loaded topic offline (its stored entry is kept for a later fix)."""
        t = self.by_name.pop(name, None)
        if t is not None:
            self.by_id.pop(t.topic_id, None)
            self.refused.append(t.to_json())
            log.error("refusing stored topic %r from %s: %s; the topic is offline until fixed", name, self.path, reason)

    def remove(self, name: str) -> TopicMetadata | None:
        t = self.by_name.pop(name, None)
        if t is not None:
            self.by_id.pop(t.topic_id, None)
            self.save()
        return t

    def __iter__(self):
        return iter(list(self.by_name.values()))

    def __len__(self) -> int:
        return len(self.by_name)
