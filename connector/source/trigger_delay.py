"""`minOffsetsPerTrigger` with `maxTriggerDelay`: when a micro-batch may start, decided as Spark's Kafka source does.

Sans-IO: the stream reader passes the number of new offsets it sees; time comes from an injected clock so
the rule is tested on a fake one. Spark's `KafkaMicroBatchStream.delayBatch` is the model, including two
details a user can observe:

* the first decision after a start never delays (nothing has triggered yet), and
* every planning call that does not delay restarts the delay, also when there is nothing new to read
  (an idle query re-arms it every `maxTriggerDelay`), so a few new records wait *at most*
  `maxTriggerDelay` from their arrival, not exactly that long.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class TriggerDelay:
    """Holds a batch back while fewer than `min_offsets` are new and `max_delay_ms` has not passed."""

    def __init__(self, max_delay_ms: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_delay_ms = max_delay_ms
        self._clock = clock  # seconds
        self._last_trigger_ms: float | None = None  # None: nothing triggered yet

    def delays(self, new_offsets: int, min_offsets: int) -> bool:
        """True: plan no batch now. False: plan one (and restart the delay from now)."""
        now_ms = self._clock() * 1000.0
        waited = self._last_trigger_ms is not None and now_ms - self._last_trigger_ms < self.max_delay_ms
        if new_offsets < min_offsets and waited:
            return True
        self._last_trigger_ms = now_ms
        return False
