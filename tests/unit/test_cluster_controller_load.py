"""controller-state.json validated on load (sans-IO): a topic whose stored state the controller
could never have written is refused with one log line and kept in the file; the rest loads."""

from __future__ import annotations

import copy
import json
import logging
import uuid
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.controller_client import ClusterImage
from broker_embedded.controller.state import ControllerState
from kafka_wire.errors import ErrorCode, KafkaError

LIMITS = {"max.broker.partitions": 10}


def make(tmp_path: Path) -> ControllerState:
    s = ControllerState(BrokerConfig(LIMITS), tmp_path)
    for b in (1, 2, 3):
        s.register_broker(b, "127.0.0.1", 9000 + b, None, f"inc-{b}")
    return s


def bad_entries(good: dict[str, Any]) -> dict[str, Any]:
    """name -> a stored entry that is impossible in a way the controller never writes."""

    def variant(name: str, **partition0: Any) -> dict[str, Any]:
        d = copy.deepcopy(good)
        d["name"] = name
        d["topic_id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, name))
        d["partitions"][0].update(partition0)
        return d

    # 3 brokers x max.broker.partitions 10 = 30 replicas at most; a flipped bit stored 31 partitions
    huge = variant("huge")
    huge["partitions"] = [
        {"partition": i, "replicas": [1], "isr": [1], "leader": 1, "leader_epoch": 0, "partition_epoch": 0}
        for i in range(31)
    ]
    holes = variant("holes")
    holes["partitions"][1]["partition"] = 5
    no_partitions = variant("no-partitions")
    no_partitions["partitions"] = []
    return {
        "huge": huge,
        "holes": holes,
        "no-partitions": no_partitions,
        "repeated-replica": variant("repeated-replica", replicas=[1, 1, 2]),
        "unknown-broker": variant("unknown-broker", replicas=[1, 2, 7], isr=[1, 2]),
        "isr-outside": variant("isr-outside", isr=[1, 2, 3, 4]),
        "empty-isr": variant("empty-isr", isr=[]),
        "leader-not-replica": variant("leader-not-replica", leader=9),
        "not-a-list": variant("not-a-list", replicas="1,2,3"),
        "bad name!": variant("bad name!"),
    }


def test_impossible_stored_topics_are_refused_and_the_rest_loads(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    s = make(tmp_path)
    s.create_topic("good", 2, 3, {})
    stored = json.loads(s.path.read_text())
    good = stored["topics"][0]
    bad = bad_entries(good)
    stored["topics"] += list(bad.values()) + [42, {"name": "missing-fields"}]
    s.path.write_text(json.dumps(stored))

    with caplog.at_level(logging.ERROR, logger="broker_embedded.controller.state"):
        again = ControllerState(BrokerConfig(LIMITS), tmp_path)
    assert set(again.topics) == {"good"}
    assert again.topics["good"].to_json() == good
    assert sorted(again.brokers) == [1, 2, 3]
    # one line per refused topic, naming it
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(lines) == len(bad) + 2, lines
    for name in bad:
        assert sum(f"refusing stored topic {name!r}" in line for line in lines) == 1, name
    assert any("partition count 31 is outside 1..30" in line for line in lines), lines
    assert any("replicas [7] are not registered brokers" in line for line in lines), lines

    # brokers learn the names so that they stop serving those topics instead of deleting them
    image = again.image()
    assert image["refused_topics"] == sorted([*bad, "missing-fields"])
    assert ClusterImage.from_json(image).refused_topics == frozenset([*bad, "missing-fields"])

    # the name is taken: a new topic must not adopt the refused topic's logs on the brokers
    with pytest.raises(KafkaError) as e:
        again.create_topic("huge", 1, 1, {})
    assert e.value.code == ErrorCode.TOPIC_ALREADY_EXISTS

    # saving keeps the refused entries unchanged; fixing one and restarting brings it back
    again.create_topic("other", 1, 3, {})
    stored = json.loads(again.path.read_text())
    assert bad["holes"] in stored["topics"] and 42 in stored["topics"]
    for d in stored["topics"]:
        if isinstance(d, dict) and d.get("name") == "repeated-replica":
            d["partitions"][0]["replicas"] = [1, 2, 3]
    again.path.write_text(json.dumps(stored))
    fixed = ControllerState(BrokerConfig(LIMITS), tmp_path)
    assert set(fixed.topics) == {"good", "other", "repeated-replica"}
    assert "repeated-replica" not in fixed.image()["refused_topics"]
