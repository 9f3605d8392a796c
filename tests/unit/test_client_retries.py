"""`kafka_wire.client.KafkaClient` retry mechanics without a broker: throttling delays the next
request to that broker, reconnect backoff grows per address, the backoff's jitter stays in
bounds, and a coordinator that moved is looked up again."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import pytest

from kafka_wire.client import ClientConfig, KafkaClient, KafkaClientError
from kafka_wire.client.kafka_client import Backoff
from kafka_wire.errors import ErrorCode


class FakeConn:
    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers
        self.sent: list[tuple[int, float]] = []

    def best_version(self, api_key: int) -> int:
        return 4

    def request(self, api_key: int, body: Any, version: int) -> Any:
        self.sent.append((api_key, time.monotonic()))
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def close(self) -> None:
        pass


def _client(**kw: Any) -> KafkaClient:
    return KafkaClient(ClientConfig("127.0.0.1:1", **kw))


def test_backoff_doubles_up_to_max_with_jitter() -> None:
    b = Backoff(100, 1000)
    got = [b.next_ms() for _ in range(6)]
    for value, base in zip(got, [100, 200, 400, 800, 1000, 1000], strict=True):
        assert 0.8 * base <= value <= 1.2 * base


def test_throttle_time_delays_the_next_request_to_that_broker() -> None:
    client = _client()
    conn = FakeConn([SimpleNamespace(throttle_time_ms=300), SimpleNamespace(throttle_time_ms=0)])
    client._conns[("127.0.0.1", 1)] = conn  # type: ignore[assignment]
    client._request(("127.0.0.1", 1), 3, lambda v: None)
    client._request(("127.0.0.1", 1), 3, lambda v: None)
    assert conn.sent[1][1] - conn.sent[0][1] >= 0.28


def test_reconnect_backoff_grows_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    import kafka_wire.client.kafka_client as cluster

    def refuse(*a: Any, **kw: Any) -> Any:
        raise ConnectionRefusedError("refused")

    monkeypatch.setattr(cluster, "BrokerConnection", refuse)
    client = _client(reconnect_backoff_ms=100, reconnect_backoff_max_ms=400)
    # The backoff chosen at each refusal lies between (deadline - time after the call) and
    # (deadline - time before it): bounds that hold however long the call was descheduled.
    backoffs: list[tuple[float, float]] = []
    for _ in range(4):
        before = time.monotonic()
        with pytest.raises(ConnectionRefusedError):
            client._connect(("127.0.0.1", 1))
        after = time.monotonic()
        deadline = client._reconnect[("127.0.0.1", 1)][0]
        backoffs.append((deadline - after, deadline - before))
    (low0, high0), (low3, high3) = backoffs[0], backoffs[3]
    assert high0 >= 0.08 and low0 <= 0.12, backoffs  # 100 ms +-20% jitter
    assert high3 >= 0.32 and low3 <= 0.48, backoffs  # doubled thrice, capped at 400 ms +-20%


def test_moved_coordinator_is_found_again_and_the_commit_retried() -> None:
    client = _client(retry_backoff_ms=1, retry_backoff_max_ms=2)
    a, b = ("127.0.0.1", 1), ("127.0.0.1", 2)
    found = iter([a, b])
    client._find_coordinator_once = lambda group_id: next(found)  # type: ignore[method-assign]
    not_coordinator = SimpleNamespace(
        throttle_time_ms=0,
        topics=[SimpleNamespace(name="t", partitions=[SimpleNamespace(partition_index=0, error_code=16)])],
    )
    ok = SimpleNamespace(
        throttle_time_ms=0,
        topics=[SimpleNamespace(name="t", partitions=[SimpleNamespace(partition_index=0, error_code=0)])],
    )
    client._conns[a] = FakeConn([not_coordinator])  # type: ignore[assignment]
    client._conns[b] = FakeConn([ok])  # type: ignore[assignment]
    client.commit_offsets("g", {("t", 0): 5})
    assert client._coordinators["g"] == b


def test_coordinator_errors_end_with_group_brokers_and_timeout() -> None:
    client = _client(retry_backoff_ms=1, retry_backoff_max_ms=5, default_api_timeout_ms=200)

    def unavailable(group_id: str) -> Any:
        client.tried.add(("127.0.0.1", 9))
        raise KafkaClientError(
            "FindCoordinator for group 'g': COORDINATOR_NOT_AVAILABLE", ErrorCode.COORDINATOR_NOT_AVAILABLE
        )

    client._find_coordinator_once = unavailable  # type: ignore[method-assign]
    with pytest.raises(KafkaClientError) as info:
        client.fetch_offsets("g")
    assert str(info.value).startswith(
        "OffsetFetch for group 'g' failed within kafka.default.api.timeout.ms=200; brokers tried: 127.0.0.1:9: "
        "FindCoordinator for group 'g': COORDINATOR_NOT_AVAILABLE"
    ), str(info.value)
    assert info.value.code == ErrorCode.COORDINATOR_NOT_AVAILABLE
