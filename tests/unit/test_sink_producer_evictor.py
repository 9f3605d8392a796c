"""The `pykafka` sink's producer cache closes idle producers on its own (as Spark's producer cache does with
spark.kafka.producer.cache.timeout), never one a task is producing with. Times are explicit (a fake clock)."""

from __future__ import annotations

from typing import Any

import pytest

from connector.sink import writer


class _FakeProducer:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def purge(self) -> None:
        self.calls.append("purge")

    def flush(self, timeout: float) -> int:
        self.calls.append("flush")
        return 0

    def close(self) -> None:
        self.calls.append("close")


def _handle(last_used: float, in_use: bool) -> Any:
    h = object.__new__(writer._ProducerHandle)  # no librdkafka producer: the cache logic only
    h.producer = _FakeProducer()
    h.last_used = last_used
    h.in_use = in_use
    return h


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch) -> dict[Any, Any]:
    fresh: dict[Any, Any] = {}
    monkeypatch.setattr(writer, "_PRODUCERS", fresh)
    return fresh


def test_idle_producers_are_closed_and_busy_or_recent_ones_kept(cache: dict[Any, Any]) -> None:
    idle = cache[("idle",)] = _handle(last_used=0.0, in_use=False)
    busy = cache[("busy",)] = _handle(last_used=0.0, in_use=True)  # a task running for > the timeout
    recent = cache[("recent",)] = _handle(last_used=500.0, in_use=False)

    assert writer.evict_idle_producers(now=600.0, timeout_s=600.0) == 0  # not past the timeout yet
    assert writer.evict_idle_producers(now=600.5, timeout_s=600.0) == 1

    assert set(cache) == {("busy",), ("recent",)}
    assert idle.producer.calls == ["purge", "flush", "close"]
    assert busy.producer.calls == [] and recent.producer.calls == []

    busy.in_use = False  # the task ended at 1000
    busy.last_used = 1000.0
    assert writer.evict_idle_producers(now=1200.0, timeout_s=600.0) == 1  # `recent` (500) went idle
    assert set(cache) == {("busy",)}
    assert writer.evict_idle_producers(now=1600.5, timeout_s=600.0) == 1
    assert cache == {}


def test_a_released_producer_is_idle_from_its_release(cache: dict[Any, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    h = cache[("k",)] = _handle(last_used=0.0, in_use=True)
    monkeypatch.setattr(writer.time, "monotonic", lambda: 42.0)
    writer._release_producer(h)
    assert (h.in_use, h.last_used) == (False, 42.0)
    assert writer.evict_idle_producers(now=641.0, timeout_s=600.0) == 0
    assert writer.evict_idle_producers(now=642.5, timeout_s=600.0) == 1
