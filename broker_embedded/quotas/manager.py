"""Kafka's ClientQuotaManager with its DefaultQuotaCallback, sans-IO: which quota applies to a
(user, client-id), one sampled rate per quota entity, and the throttle time of a request.

Precedence (KIP-55, the first entity that has the quota key wins):
  1. user + client-id   2. user + default client-id   3. user
  4. default user + client-id   5. default user + default client-id   6. default user
  7. client-id   8. default client-id
A quota of an exact entity is shared by everything that matches it (user-level: all clients of
that user); a default one gives each user / client-id its own rate with that bound.
"""

from __future__ import annotations

from collections.abc import Callable

from broker_embedded.quotas.rate import SampledRate, throttle_time_ms
from broker_embedded.quotas.store import CLIENT_ID, USER, ClientQuotaStore, QuotaEntity

# quota metric tags: (user, client-id), "" where the quota entity does not have that part
Tags = tuple[str, str]

SENSOR_EXPIRATION_MS = 3600 * 1000  # Kafka drops a client's quota sensors after an idle hour


def _entity(user: str | None | bool, client: str | None | bool) -> QuotaEntity:
    """(False = absent part, None = default entity)."""
    pairs: list[tuple[str, str | None]] = []
    if client is not False:
        # mypy does not narrow `bool` by `is not False`: here a str or None
        pairs.append((CLIENT_ID, client))  # type: ignore[arg-type]
    if user is not False:
        # mypy does not narrow `bool` by `is not False`: here a str or None
        pairs.append((USER, user))  # type: ignore[arg-type]
    return tuple(pairs)


class ClientQuotaManager:
    """One quota type (Kafka's ClientQuotaType: produce, fetch, request): `key` is its quota
    config (producer_byte_rate, consumer_byte_rate, request_percentage)."""

    def __init__(
        self,
        key: str,
        store: ClientQuotaStore,
        clock: Callable[[], int],
        samples: int = 11,
        window_ms: int = 1000,
    ) -> None:
        self.key = key
        self.store = store
        self.clock = clock
        self.samples = samples
        self.window_ms = window_ms
        self.sensors: dict[Tags, SampledRate] = {}
        self._quotas: dict[QuotaEntity, float] = {}
        self._records_since_sweep = 0
        self.quotas_changed()
        store.listeners.append(self.quotas_changed)

    def quotas_changed(self) -> None:
        """The store changed: the entities that have this quota key (Kafka's overriddenQuotas)."""
        self._quotas = {e: v[self.key] for e, v in self.store.entities.items() if self.key in v}

    @property
    def quotas_enabled(self) -> bool:
        return bool(self._quotas)

    # --- DefaultQuotaCallback ------------------------------------------------------------------
    def metric_tags(self, user: str, client_id: str) -> Tags:
        """Which quota entity's rate a request counts against (quotaMetricTags)."""
        q = self._quotas
        if _entity(user, client_id) in q or _entity(user, None) in q:
            return (user, client_id)
        if _entity(user, False) in q:
            return (user, "")
        if _entity(None, client_id) in q or _entity(None, None) in q:
            return (user, client_id)
        if _entity(None, False) in q:
            return (user, "")
        return ("", client_id)

    def quota_limit(self, tags: Tags) -> float | None:
        """The bound for these tags (quotaLimit); None = unlimited."""
        user, client_id = tags
        q = self._quotas
        if user and client_id:
            candidates = [_entity(user, client_id), _entity(user, None), _entity(None, client_id), _entity(None, None)]
        elif user:
            candidates = [_entity(user, False), _entity(None, False)]
        elif client_id:
            candidates = [_entity(False, client_id), _entity(False, None)]
        else:
            return None
        for entity in candidates:
            if entity in q:
                return q[entity]
        return None

    def quota(self, user: str, client_id: str) -> float | None:
        return self.quota_limit(self.metric_tags(user, client_id))

    # --- recording -----------------------------------------------------------------------------
    def _sensor(self, tags: Tags) -> SampledRate:
        sensor = self.sensors.get(tags)
        if sensor is None:
            sensor = self.sensors[tags] = SampledRate(self.samples, self.window_ms)
        return sensor

    def record_and_get_throttle_time_ms(
        self, user: str, client_id: str, value: float, now_ms: int | None = None
    ) -> int:
        """Record `value` (bytes, or request time) and return the throttle time: 0 within the
        quota, else how long until the rate is back at the bound (maybeRecordAndGetThrottleTimeMs)."""
        if not self._quotas:
            return 0
        now = self.clock() if now_ms is None else now_ms
        tags = self.metric_tags(user, client_id)
        sensor = self._sensor(tags)
        sensor.record(value, now)
        self._maybe_expire(now)
        bound = self.quota_limit(tags)
        if bound is None:
            return 0
        return throttle_time_ms(sensor, bound, now)

    def unrecord(self, user: str, client_id: str, value: float, now_ms: int | None = None) -> None:
        """Take back a recorded value (a throttled fetch answers no records: unrecordQuotaSensor)."""
        if not self._quotas:
            return
        now = self.clock() if now_ms is None else now_ms
        self._sensor(self.metric_tags(user, client_id)).record(-value, now)

    def max_value_in_quota_window(self, user: str, client_id: str) -> float | None:
        """The most one quota window may hold: bound x (samples - 1) x window seconds
        (Kafka caps a consumer's fetch max bytes with it); None without a quota."""
        bound = self.quota(user, client_id) if self._quotas else None
        if bound is None:
            return None
        return bound * (self.samples - 1) * self.window_ms / 1000.0

    def _maybe_expire(self, now: int) -> None:
        self._records_since_sweep += 1
        if self._records_since_sweep < 1000:
            return
        self._records_since_sweep = 0
        for tags in [t for t, s in self.sensors.items() if now - s.idle_since() > SENSOR_EXPIRATION_MS]:
            del self.sensors[tags]
