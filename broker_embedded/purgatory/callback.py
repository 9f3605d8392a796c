"""A purgatory operation whose condition and actions are closures.

The coordinators park small waits this way (a group's rebalance and member heartbeats, a commit
waiting for its coordinator partition's high watermark) without a class per wait.
"""

from __future__ import annotations

from collections.abc import Callable

from broker_embedded.purgatory.delayed_operation import DelayedOperation


class DelayedCallback(DelayedOperation):
    """Completes when `condition()` holds or after `delay_ms`; `on_done(expired)` runs once."""

    def __init__(
        self,
        delay_ms: int,
        condition: Callable[[], bool],
        on_done: Callable[[bool], None],
    ) -> None:
        super().__init__(max(0, delay_ms))
        self._condition = condition
        self._on_done = on_done

    def try_complete(self) -> bool:
        if self._condition():
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        self._on_done(self.completed_by_expiration)

    def on_expiration(self) -> None:
        pass
