"""Per-change metadata records (controller/metadata_records.py): the records between two controller images replay
to exactly the newer image, each change is the small record of its kind, and bad records are refused."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.metadata_records import MetadataRecordError, diff, replay, replay_all
from broker_embedded.controller.state import ControllerState


class Recorder(ControllerState):
    """ControllerState that keeps every image save() writes."""

    def __init__(self, directory: Path) -> None:
        self.images: list[dict[str, Any]] = []
        super().__init__(BrokerConfig({}), directory)

    def save(self) -> None:
        super().save()
        self.images.append(json.loads(self.path.read_text()))


def _types(records: list[dict[str, Any]]) -> list[str]:
    return sorted(r["type"] for r in records if r.get("key") != "metadata_version")


def _step(s: Recorder, action: Any) -> list[dict[str, Any]]:
    before = copy.deepcopy(s.images[-1]) if s.images else {}
    n = len(s.images)
    action()
    assert len(s.images) > n, "the action saved nothing"
    records: list[dict[str, Any]] = []
    for old, new in zip([before, *s.images[n:-1]], s.images[n:], strict=True):
        step = diff(old, new)
        assert replay_all(copy.deepcopy(old), json.loads(json.dumps(step))) == new
        records += step
    return records


def test_each_controller_change_is_its_own_small_record(tmp_path: Path) -> None:
    s = Recorder(tmp_path)
    for b in (1, 2, 3):
        recs = _step(s, lambda b=b: s.register_broker(b, "127.0.0.1", 9000 + b, None, f"inc{b}"))
        assert "RegisterBrokerRecord" in _types(recs)
    recs = _step(s, lambda: s.create_topic("t", 2, 3, {}))
    assert _types(recs) == ["TopicRecord"]
    p = s.topics["t"].partitions[0]
    follower = next(r for r in p.replicas if r != p.leader)
    recs = _step(
        s,
        lambda: s.alter_partition(
            p.leader, "t", 0, p.leader_epoch, [r for r in p.isr if r != follower], p.partition_epoch
        ),
    )
    assert _types(recs) == ["PartitionChangeRecord"]
    change = next(r for r in recs if r["type"] == "PartitionChangeRecord")
    assert set(change["changes"]) <= {"isr", "partition_epoch"} and change["partition_index"] == 0
    recs = _step(s, lambda: s.fence_broker(3))
    assert "BrokerRegistrationChangeRecord" in _types(recs) and "RegisterBrokerRecord" not in _types(recs)
    assert set(_types(recs)) <= {"BrokerRegistrationChangeRecord", "PartitionChangeRecord"}
    recs = _step(s, lambda: s.unfence(3))
    assert "BrokerRegistrationChangeRecord" in _types(recs)
    recs = _step(s, lambda: s.create_partitions("t", 3))
    assert _types(recs) == ["PartitionRecord"]
    recs = _step(s, lambda: s.set_topic_configs("t", {"retention.ms": "1000"}))
    assert _types(recs) == ["TopicConfigRecord"]
    recs = _step(s, lambda: s.allocate_producer_ids())
    assert _types(recs) == ["ProducerIdsRecord"]
    recs = _step(s, lambda: s.set_broker_configs("", {"log.retention.ms": "5000"}, False))
    assert _types(recs) == ["ConfigRecord"]
    _step(s, lambda: s.create_topic("u", 1, 2, {}))
    recs = _step(s, lambda: s.delete_topic("t"))
    assert _types(recs) == ["RemoveTopicRecord"]
    recs = _step(s, lambda: s.register_broker(2, "127.0.0.1", 9102, None, "inc2-restarted"))
    assert "RegisterBrokerRecord" in _types(recs)
    # a record is a small fraction of the whole image once there is some metadata
    for i in range(20):
        _step(s, lambda i=i: s.create_topic(f"more{i}", 4, 3, {}))
    p = s.topics["more0"].partitions[0]
    follower = next(r for r in p.replicas if r != p.leader)
    isr = [r for r in p.isr if r != follower]
    recs = _step(s, lambda: s.alter_partition(p.leader, "more0", 0, p.leader_epoch, isr, p.partition_epoch))
    assert len(json.dumps(recs)) * 20 < len(json.dumps(s.images[-1]))


def _random_image(rng: random.Random) -> dict[str, Any]:
    brokers = [
        {"node_id": i, "host": "h", "port": 9000 + i, "fenced": rng.random() < 0.3, "broker_epoch": rng.randrange(9)}
        for i in rng.sample(range(1, 8), rng.randrange(0, 5))
    ]
    topics = []
    for k in rng.sample(range(12), rng.randrange(0, 6)):
        parts = [
            {"partition": j, "leader": rng.randrange(-1, 4), "isr": rng.sample(range(1, 5), 2), "leader_epoch": 1}
            for j in range(rng.randrange(1, 4))
        ]
        topics.append({"name": f"t{k}", "topic_id": f"id{k}", "configs": {"x": rng.randrange(3)}, "partitions": parts})
    return {
        "version": 1,
        "metadata_version": rng.randrange(100),
        "next_producer_id": rng.randrange(3) * 1000,
        "brokers": brokers,
        "topics": topics,
        "security": {"acls": rng.sample(["a", "b", "c"], rng.randrange(3))},
    }


def _mutate(rng: random.Random, image: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(image)
    for _ in range(rng.randrange(1, 5)):
        what = rng.randrange(9)
        if what == 0 and new["brokers"]:
            rng.choice(new["brokers"])["fenced"] ^= True
        elif what == 1:
            new["brokers"].append({"node_id": 100 + rng.randrange(50), "host": "n", "port": 1, "fenced": False})
        elif what == 2 and new["brokers"]:
            new["brokers"].pop(rng.randrange(len(new["brokers"])))
        elif what == 3 and any(t["partitions"] for t in new["topics"]):
            t = rng.choice([t for t in new["topics"] if t["partitions"]])
            rng.choice(t["partitions"])["isr"] = rng.sample(range(1, 5), rng.randrange(1, 4))
        elif what == 4 and new["topics"]:
            rng.choice(new["topics"])["partitions"].append({"partition": 9, "leader": 1, "isr": [1], "leader_epoch": 0})
        elif what == 5 and new["topics"]:
            new["topics"].pop(rng.randrange(len(new["topics"])))
        elif what == 6:
            new["topics"].insert(
                rng.randrange(len(new["topics"]) + 1), {"name": f"n{rng.randrange(99)}", "partitions": []}
            )
        elif what == 7:
            new["metadata_version"] += 1
            new.pop("security", None) if rng.random() < 0.2 else new.update(security={"acls": ["z"]})
        elif what == 8:
            rng.shuffle(new["brokers"])
    return new


@pytest.mark.parametrize("chunk", range(4))
def test_random_images_replay_exactly(chunk: int) -> None:
    for seed in range(chunk * 250, (chunk + 1) * 250):
        rng = random.Random(seed)
        old = _random_image(rng)
        new = _mutate(rng, old)
        records = json.loads(json.dumps(diff(old, new)))  # as written to and read from the log
        assert replay_all(copy.deepcopy(old), records) == new, f"seed {seed}"
        assert diff(new, new) == []


def test_records_that_do_not_apply_are_refused() -> None:
    image: dict[str, Any] = {"brokers": [], "topics": []}
    with pytest.raises(MetadataRecordError):
        replay(image, {"type": "NoSuchRecord"})
    with pytest.raises(MetadataRecordError):
        replay(image, {"type": "BrokerRegistrationChangeRecord", "node_id": 1, "fenced": True})
    with pytest.raises(MetadataRecordError):
        replay(image, {"type": "PartitionChangeRecord", "name": "t", "partition_index": 0, "changes": {}})
    replay(image, {"type": "TopicRecord", "topic": {"name": "t", "partitions": []}})
    with pytest.raises(MetadataRecordError):
        replay(image, {"type": "PartitionChangeRecord", "name": "t", "partition_index": 0, "changes": {}})
