"""Kafka's sampled rate (``org.apache.kafka.common.metrics.stats.Rate`` over a ``WindowedSum``), sans-IO.

Values are summed into `samples` windows of `window_ms` each (quota.window.num, default 11, of
quota.window.size.seconds, default 1 s); a sample older than samples x window (since its last event)
is reset. The rate is the retained sum over the elapsed time since the oldest sample started, that
time padded to at least samples - 1 full windows (so a new client's first burst is measured over
~10 s, not over the milliseconds it has existed). Every method takes the time: the caller owns the clock.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Sample:
    start_ms: int
    last_event_ms: int
    value: float = 0.0
    event_count: int = 0

    def reset(self, now_ms: int) -> None:
        self.start_ms = self.last_event_ms = now_ms
        self.value = 0.0
        self.event_count = 0


class SampledRate:
    """A per-second rate over Kafka's sample windows (one quota sensor's measurable)."""

    __slots__ = ("samples", "window_ms", "_samples", "_current")

    def __init__(self, samples: int, window_ms: int) -> None:
        if samples < 1 or window_ms < 1:
            raise ValueError("samples and window_ms must be at least 1")
        self.samples = samples
        self.window_ms = window_ms
        self._samples: list[Sample] = []
        self._current = 0

    def _current_sample(self, now_ms: int) -> Sample:
        if not self._samples:
            self._samples.append(Sample(now_ms, now_ms))
        return self._samples[self._current]

    def record(self, value: float, now_ms: int) -> None:
        sample = self._current_sample(now_ms)
        if now_ms - sample.start_ms >= self.window_ms:
            # advance; one extra slot holds the sample overlapping the monitored window (Kafka's)
            self._current = (self._current + 1) % (self.samples + 1)
            if self._current >= len(self._samples):
                sample = Sample(now_ms, now_ms)
                self._samples.append(sample)
            else:
                sample = self._samples[self._current]
                sample.reset(now_ms)
        sample.value += value
        sample.event_count += 1
        sample.last_event_ms = now_ms

    def _purge(self, now_ms: int) -> None:
        expire_age = self.samples * self.window_ms
        for s in self._samples:
            if now_ms - s.last_event_ms >= expire_age:
                s.reset(now_ms)

    def window_size_ms(self, now_ms: int) -> int:
        """The elapsed time the rate divides by (Rate.windowSize)."""
        self._purge(now_ms)
        if not self._samples:
            self._samples.append(Sample(now_ms, now_ms))
        oldest = min(s.start_ms for s in self._samples)
        elapsed = now_ms - oldest
        full_windows = elapsed // self.window_ms
        min_full = self.samples - 1
        if full_windows < min_full:
            elapsed += (min_full - full_windows) * self.window_ms
        return max(elapsed, 1)

    def total(self, now_ms: int) -> float:
        self._purge(now_ms)
        return sum(s.value for s in self._samples)

    def measure(self, now_ms: int) -> float:
        """Units per second now."""
        total = self.total(now_ms)
        return total / (self.window_size_ms(now_ms) / 1000.0)

    def idle_since(self) -> int:
        """The time of the last recorded event (for expiring idle sensors)."""
        return max((s.last_event_ms for s in self._samples), default=0)


class SimpleRate(SampledRate):
    """Kafka's SimpleRate, the replication quotas' rate: the elapsed time since the oldest sample
    started, at least one window, with no padding to samples - 1 windows, so a throttled move is held
    at its rate from its first second instead of being let through a ~10 s burst first."""

    __slots__ = ()

    def window_size_ms(self, now_ms: int) -> int:
        self._purge(now_ms)
        if not self._samples:
            self._samples.append(Sample(now_ms, now_ms))
        oldest = min(s.start_ms for s in self._samples)
        return max(now_ms - oldest, self.window_ms)


def throttle_time_ms(rate: SampledRate, bound: float, now_ms: int) -> int:
    """Kafka's QuotaUtils.throttleTime: how long, with nothing more recorded, until the measured
    rate is back at `bound`: (value - bound) / bound x the rate's window; 0 within the quota."""
    value = rate.measure(now_ms)
    if value <= bound:
        return 0
    # Java's Math.round: half up
    return int((value - bound) / bound * rate.window_size_ms(now_ms) + 0.5)
