"""IP connection creation rate quotas (issue 30; Kafka's ConnectionQuotas) on a fake clock: the
padded sampled rate lets an IP open N x (samples - 1) connections at once, the next is throttled
(not counted, closed after at most one quota window), an IP's own quota wins over the ip default,
and the server's acceptor leaves a throttled connection unread and closes it after the throttle."""

from __future__ import annotations

import asyncio
from typing import Any

from broker_embedded.network.server import KafkaServer
from broker_embedded.quotas.connections import ConnectionQuotas
from broker_embedded.quotas.store import CONNECTION_CREATION_RATE, IP, ClientQuotaStore


def _quotas(entities: dict[str | None, float]) -> tuple[ConnectionQuotas, list[int]]:
    store = ClientQuotaStore()
    for ip, rate in entities.items():
        store.entities[((IP, ip),)] = {CONNECTION_CREATION_RATE: rate}
    now = [1_000_000]
    return ConnectionQuotas(store, samples=11, window_seconds=1, clock=lambda: now[0]), now


def test_rate_bound_throttle_time_and_recovery() -> None:
    quotas, now = _quotas({"127.0.0.2": 2})
    # a burst: 2/s over the 10 padded windows admits 20, the 21st takes the rate to 2.1/s
    assert [quotas.record("127.0.0.2") for _ in range(20)] == [0] * 20
    throttle = quotas.record("127.0.0.2")
    assert throttle == 500  # (2.1 - 2) / 2 x 10 s, Kafka's QuotaUtils.throttleTime
    # the throttled one was not counted: the next is throttled just the same
    assert quotas.record("127.0.0.2") == 500
    assert quotas.record("127.0.0.1") == 0  # no quota for that IP
    now[0] += 11_000  # the burst's windows have expired
    assert quotas.record("127.0.0.2") == 0


def test_ip_default_and_override() -> None:
    quotas, now = _quotas({None: 1, "127.0.0.1": 1000})
    assert quotas.quota("10.0.0.7") == 1
    assert quotas.quota("127.0.0.1") == 1000
    admitted = sum(1 for _ in range(15) if quotas.record("10.0.0.7") == 0)
    assert admitted == 10  # 1/s x 10 padded windows
    assert all(quotas.record("127.0.0.1") == 0 for _ in range(200))
    # a throttle time never exceeds one quota window (boundedThrottleTime)
    quotas.store.entities[((IP, None),)] = {CONNECTION_CREATION_RATE: 0}
    assert quotas.record("10.0.0.8") == 1000


class _Transport:
    def __init__(self, ip: str) -> None:
        self.ip = ip
        self.paused = False
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self.ip, 40000) if name == "peername" else default

    def pause_reading(self) -> None:
        self.paused = True

    def close(self) -> None:
        self.closed = True


def test_acceptor_leaves_a_throttled_connection_unread_then_closes_it() -> None:
    async def run() -> None:
        server = KafkaServer(lambda *a: None, 1 << 20)
        quotas, _ = _quotas({"127.0.0.2": 1})
        quotas.clock = lambda: int(asyncio.get_running_loop().time() * 1000)
        server.connection_quotas = quotas
        served = [_Transport("127.0.0.2") for _ in range(10)]
        assert all(server.admit(t) for t in served)  # type: ignore[arg-type]
        throttled = _Transport("127.0.0.2")
        assert not server.admit(throttled)  # type: ignore[arg-type]
        assert throttled.paused and not throttled.closed
        deadline = asyncio.get_running_loop().time() + 5
        while not throttled.closed and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert throttled.closed
        assert not any(t.paused or t.closed for t in served)

    asyncio.run(run())
