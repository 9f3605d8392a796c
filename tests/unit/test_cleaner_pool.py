"""log.cleaner.threads (issue 30): the cleaner pool cleans that many logs at a time and is resized
live; the dynamic config's refusals are Kafka 4.3.1's (LogCleaner.validateReconfiguration) and the
cleaner configs are listed with Java's number formats."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.config import BROKER_CONFIGS, BrokerConfig, format_value
from broker_embedded.dynamic_config import DYNAMIC_BROKER_CONFIGS, DynamicBrokerConfig
from broker_embedded.log.cleaner_pool import CleanerPool
from kafka_wire.errors import KafkaError


def _max_concurrent(threads: int, logs: int) -> int:
    lock = threading.Lock()
    state = {"active": 0, "max": 0}
    both = threading.Event()

    def clean(_log: Any, _now: int) -> bool:
        with lock:
            state["active"] += 1
            state["max"] = max(state["max"], state["active"])
            if state["active"] >= 2:
                both.set()
        both.wait(0.3)  # a second worker, if there is one, joins within this
        with lock:
            state["active"] -= 1
        return True

    pool = CleanerPool(threads, clean)
    try:
        assert pool.clean([object() for _ in range(logs)], 0) == logs  # type: ignore[misc]
    finally:
        pool.shutdown()
    return state["max"]


def test_pool_cleans_n_logs_at_a_time() -> None:
    assert _max_concurrent(1, 3) == 1
    assert _max_concurrent(2, 4) == 2


def test_resize_and_errors() -> None:
    calls: list[int] = []

    def clean(log: Any, _now: int) -> bool:
        calls.append(log)
        if log == 2:
            raise OSError("disk")
        return log % 2 == 1

    pool = CleanerPool(1, clean)
    pool.resize(3)
    assert pool.threads == 3
    with pytest.raises(OSError):
        pool.clean([1, 2, 3], 0)  # type: ignore[list-item]
    assert sorted(calls) == [1, 2, 3]  # the error did not stop the other cleanings
    pool.resize(0)
    assert pool.threads == 1
    pool.shutdown()


def test_cleaner_threads_dynamic_validation(tmp_path: Path) -> None:
    config = BrokerConfig({"log.cleaner.threads": "2"})
    dynamic = DynamicBrokerConfig(config, 1, tmp_path / DynamicBrokerConfig.FILE_NAME)
    wrap = (
        "Invalid value org.apache.kafka.common.config.ConfigException: {}"
        " for configuration Invalid dynamic configuration"
    )
    for value, why in (
        ("0", "Log cleaner threads should be at least 1"),
        ("5", "Log cleaner threads cannot be increased to more than double the current value 2"),
    ):
        with pytest.raises(KafkaError) as e:
            dynamic.set_layer("1", {"log.cleaner.threads": value})
        assert str(e.value) == wrap.format(why)
    dynamic.set_layer("1", {"log.cleaner.threads": "4"})
    assert config["log.cleaner.threads"] == 4
    with pytest.raises(KafkaError, match="cannot be reduced to less than half the current value 4"):
        dynamic.set_layer("1", {"log.cleaner.threads": "1"})
    for name in ("log.cleaner.io.max.bytes.per.second", "log.cleaner.dedupe.buffer.size", "log.cleaner.backoff.ms"):
        assert name in DYNAMIC_BROKER_CONFIGS
    d = BROKER_CONFIGS["log.cleaner.io.max.bytes.per.second"]
    assert format_value(d, d.default) == "1.7976931348623157E308"
    assert format_value(d, 1e7) == "1.0E7"
