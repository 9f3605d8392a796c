"""Per-change metadata records for the Raft-replicated controller (issue 32), named after KRaft's: each metadata
change the active controller makes is written to `__cluster_metadata` as the records that turn the previous image
into the new one, and every replica (and, later, every broker as an observer) replays them by type.

Sans-IO: `diff(old, new)` computes the records between two images (the controller state's JSON, as
`ControllerState.save()` writes it); `replay(image, record)` applies one record to an image in place. The
guarantee the controller relies on is `replay_all(old, diff(old, new)) == new`, order of lists included; the
controller checks it on every append and falls back to a whole-image record if it ever does not hold.

Record types (a JSON object with "type"):
- RegisterBrokerRecord {broker}: a broker registered (again): replaces its entry in place, or appends it;
- BrokerRegistrationChangeRecord {node_id, fenced}: only its fenced flag changed;
- UnregisterBrokerRecord {node_id};
- TopicRecord {topic}: a new topic with its partitions, or a topic replaced as a whole (appended/in place);
- RemoveTopicRecord {name};
- PartitionRecord {name, partition}: a partition added to a topic (CreatePartitions);
- PartitionChangeRecord {name, partition_index, changes}: the fields of one partition that changed
  (leader, leader_epoch, isr, partition_epoch, replicas ...);
- TopicConfigRecord {name, key, value}: another field of a topic changed (its configs);
- ProducerIdsRecord / ClientQuotaRecord / ConfigRecord / AccessControlRecord {key, value}: a section of the image
  replaced (next_producer_id; client_quotas; broker_configs or group_configs; security: SCRAM and ACLs);
- ImageFieldRecord {key, value}: any other top-level field (metadata_version, next_broker_epoch, cluster_id);
  RemoveImageFieldRecord {key};
- BrokersRecord / TopicsRecord {value}: a list replaced whole (an order the records above cannot express).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

Image = dict[str, Any]
Record = dict[str, Any]

SECTION_TYPES = {
    "next_producer_id": "ProducerIdsRecord",
    "client_quotas": "ClientQuotaRecord",
    "broker_configs": "ConfigRecord",
    "group_configs": "ConfigRecord",
    "security": "AccessControlRecord",
}
_FIELD_TYPES = {*SECTION_TYPES.values(), "ImageFieldRecord"}


class MetadataRecordError(ValueError):
    """A record that does not apply to the image (unknown type, missing entry)."""


# --- diff ----------------------------------------------------------------------------------------
def diff(old: Image, new: Image) -> list[Record]:
    """The records that turn `old` into `new`."""
    out: list[Record] = []
    for key, value in new.items():
        if key in ("brokers", "topics"):
            continue
        if key not in old or old[key] != value:
            out.append({"type": SECTION_TYPES.get(key, "ImageFieldRecord"), "key": key, "value": value})
    for key in old:
        if key not in new:
            out.append({"type": "RemoveImageFieldRecord", "key": key})
    out += _diff_brokers(old.get("brokers", []), new.get("brokers", []))
    out += _diff_topics(old.get("topics", []), new.get("topics", []))
    return out


def _order_kept(old_keys: list[Any], new_keys: list[Any]) -> bool:
    """Whether deleting the removed keys, replacing kept ones in place and appending new ones gives `new_keys`."""
    if len(set(old_keys)) != len(old_keys) or len(set(new_keys)) != len(new_keys) or None in new_keys:
        return False
    old_set, new_set = set(old_keys), set(new_keys)
    return [k for k in old_keys if k in new_set] + [k for k in new_keys if k not in old_set] == new_keys


def _broker_key(b: Any) -> Any:
    return b.get("node_id") if isinstance(b, dict) else None


def _topic_key(t: Any) -> Any:
    return t.get("name") if isinstance(t, dict) and isinstance(t.get("name"), str) else None


def _diff_brokers(old: list[Any], new: list[Any]) -> list[Record]:
    if not _order_kept([_broker_key(b) for b in old], [_broker_key(b) for b in new]):
        return [{"type": "BrokersRecord", "value": new}] if old != new else []
    before = {_broker_key(b): b for b in old}
    after = {_broker_key(b) for b in new}
    out: list[Record] = [{"type": "UnregisterBrokerRecord", "node_id": k} for k in before if k not in after]
    for b in new:
        prev = before.get(_broker_key(b))
        if prev == b:
            continue
        if prev is not None and {**prev, "fenced": b.get("fenced")} == b:
            out.append({"type": "BrokerRegistrationChangeRecord", "node_id": b["node_id"], "fenced": b["fenced"]})
        else:
            out.append({"type": "RegisterBrokerRecord", "broker": b})
    return out


def _diff_topics(old: list[Any], new: list[Any]) -> list[Record]:
    if not _order_kept([_topic_key(t) for t in old], [_topic_key(t) for t in new]):
        return [{"type": "TopicsRecord", "value": new}] if old != new else []
    before = {_topic_key(t): t for t in old}
    after = {_topic_key(t) for t in new}
    out: list[Record] = [{"type": "RemoveTopicRecord", "name": k} for k in before if k not in after]
    for t in new:
        prev = before.get(_topic_key(t))
        if prev == t:
            continue
        if prev is None or list(prev) != list(t) or prev.get("topic_id") != t.get("topic_id"):
            out.append({"type": "TopicRecord", "topic": t})
            continue
        changes = _diff_partitions(t["name"], prev.get("partitions"), t.get("partitions"))
        if changes is None:
            out.append({"type": "TopicRecord", "topic": t})
            continue
        for key, value in t.items():
            if key not in ("name", "topic_id", "partitions") and prev.get(key) != value:
                out.append({"type": "TopicConfigRecord", "name": t["name"], "key": key, "value": value})
        out += changes
    return out


def _diff_partitions(name: str, old: Any, new: Any) -> list[Record] | None:
    """PartitionChange/PartitionRecords, or None when only a whole TopicRecord can say it."""
    if not isinstance(old, list) or not isinstance(new, list) or len(new) < len(old):
        return None
    out: list[Record] = []
    for i, p in enumerate(new):
        if i >= len(old):
            out.append({"type": "PartitionRecord", "name": name, "partition": p})
            continue
        q = old[i]
        if q == p:
            continue
        if not isinstance(p, dict) or not isinstance(q, dict) or list(q) != list(p):
            return None  # a field added or removed: the order of keys matters to the image
        changes = {k: v for k, v in p.items() if q[k] != v}
        out.append({"type": "PartitionChangeRecord", "name": name, "partition_index": i, "changes": changes})
    return out


# --- replay ----------------------------------------------------------------------------------------
def _index(items: list[Any], key: Callable[[Any], Any], value: Any, what: str) -> int:
    for i, item in enumerate(items):
        if key(item) == value:
            return i
    raise MetadataRecordError(f"{what} {value!r} is not in the image")


def _upsert(items: list[Any], key: Callable[[Any], Any], entry: Any) -> None:
    for i, item in enumerate(items):
        if key(item) == key(entry):
            items[i] = entry
            return
    items.append(entry)


def replay(image: Image, record: Record) -> None:
    """Apply one record to `image` in place; MetadataRecordError if it does not apply."""
    t = record.get("type")
    brokers: list[Any] = image.get("brokers", [])
    topics: list[Any] = image.get("topics", [])
    if t in ("RegisterBrokerRecord", "TopicRecord"):  # the first of its kind creates the list
        brokers = image.setdefault("brokers", brokers)
        topics = image.setdefault("topics", topics)
    if t in _FIELD_TYPES:
        image[record["key"]] = copy.deepcopy(record["value"])
    elif t == "RemoveImageFieldRecord":
        image.pop(record["key"], None)
    elif t == "RegisterBrokerRecord":
        _upsert(brokers, _broker_key, copy.deepcopy(record["broker"]))
    elif t == "BrokerRegistrationChangeRecord":
        brokers[_index(brokers, _broker_key, record["node_id"], "broker")]["fenced"] = record["fenced"]
    elif t == "UnregisterBrokerRecord":
        del brokers[_index(brokers, _broker_key, record["node_id"], "broker")]
    elif t == "TopicRecord":
        _upsert(topics, _topic_key, copy.deepcopy(record["topic"]))
    elif t == "RemoveTopicRecord":
        del topics[_index(topics, _topic_key, record["name"], "topic")]
    elif t == "TopicConfigRecord":
        topics[_index(topics, _topic_key, record["name"], "topic")][record["key"]] = copy.deepcopy(record["value"])
    elif t == "PartitionRecord":
        topics[_index(topics, _topic_key, record["name"], "topic")]["partitions"].append(
            copy.deepcopy(record["partition"])
        )
    elif t == "PartitionChangeRecord":
        parts = topics[_index(topics, _topic_key, record["name"], "topic")]["partitions"]
        i = int(record["partition_index"])
        if not 0 <= i < len(parts):
            raise MetadataRecordError(f"partition {record['name']}-{i} is not in the image")
        parts[i].update(copy.deepcopy(record["changes"]))
    elif t == "BrokersRecord":
        image["brokers"] = copy.deepcopy(record["value"])
    elif t == "TopicsRecord":
        image["topics"] = copy.deepcopy(record["value"])
    else:
        raise MetadataRecordError(f"unknown metadata record type {t!r}")


def replay_all(image: Image, records: Iterable[Record]) -> Image:
    for r in records:
        replay(image, r)
    return image


__all__ = ["MetadataRecordError", "diff", "replay", "replay_all"]
