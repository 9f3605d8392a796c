"""IP connection creation rate quotas (Kafka's ConnectionQuotas, KIP-612), sans-IO.

`kafka-configs --alter --entity-type ips --entity-name <ip> --add-config connection_creation_rate=N`
(or `--entity-default` for every IP without its own) caps how many connections an IP may open per
second. Kafka records each accepted connection in the IP's rate sensor (the client quotas' sampled
Rate: quota.window.num windows of quota.window.size.seconds, padded to samples - 1 windows, so a new
IP may open about N x (samples - 1) connections before it is throttled). A connection that takes the
rate over N is un-recorded and not served: the acceptor never reads it and closes it once the
throttle time has passed (QuotaUtils.boundedThrottleTime: at most one quota window). The caller owns
the sockets and the clock (network/server.py).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from broker_embedded.quotas.rate import SampledRate, throttle_time_ms
from broker_embedded.quotas.store import CONNECTION_CREATION_RATE, IP, ClientQuotaStore

# Kafka expires an IP's connection rate sensor after an hour without connections
SENSOR_EXPIRATION_MS = 3_600_000


def _normalized(ip: str) -> str:
    try:
        return ipaddress.ip_address(ip).compressed
    except ValueError:
        return ip


class ConnectionQuotas:
    """Per-IP connection creation rates checked against the ip entities of the client quota store."""

    def __init__(self, store: ClientQuotaStore, samples: int, window_seconds: int, clock: Callable[[], int]) -> None:
        self.store = store
        self.samples = samples
        self.window_ms = window_seconds * 1000
        self.clock = clock
        self._rates: dict[str, SampledRate] = {}
        self._next_expiry_ms = 0

    def quota(self, ip: str) -> float | None:
        """The IP's connection_creation_rate: its own entity's, else the ip default's; None: unlimited."""
        entities = self.store.entities
        own = entities.get(((IP, ip),))
        if own is None:
            want = _normalized(ip)  # an entity may spell the address another way ("::1", "0:0::1")
            own = next(
                (
                    v
                    for e, v in entities.items()
                    if len(e) == 1 and e[0][0] == IP and e[0][1] and _normalized(e[0][1]) == want
                ),
                None,
            )
        if own is not None and CONNECTION_CREATION_RATE in own:
            return own[CONNECTION_CREATION_RATE]
        return entities.get(((IP, None),), {}).get(CONNECTION_CREATION_RATE)

    def record(self, ip: str, now_ms: int | None = None) -> int:
        """A new connection from `ip`: 0 if it is accepted (and counted), else the throttle time in
        ms after which the unserved connection is closed (it is not counted)."""
        now = self.clock() if now_ms is None else now_ms
        self._expire(now)
        bound = self.quota(ip)
        if bound is None:
            return 0
        rate = self._rates.get(ip)
        if rate is None:
            rate = self._rates[ip] = SampledRate(self.samples, self.window_ms)
        rate.record(1.0, now)
        throttle = min(throttle_time_ms(rate, bound, now), self.window_ms) if bound > 0 else self.window_ms
        if throttle > 0:
            rate.record(-1.0, now)  # not accepted: un-recorded, as Kafka does
        return throttle

    def _expire(self, now: int) -> None:
        if now < self._next_expiry_ms:
            return
        self._next_expiry_ms = now + 60_000
        for ip in [ip for ip, rate in self._rates.items() if now - rate.idle_since() >= SENSOR_EXPIRATION_MS]:
            del self._rates[ip]


__all__ = ["SENSOR_EXPIRATION_MS", "ConnectionQuotas"]
