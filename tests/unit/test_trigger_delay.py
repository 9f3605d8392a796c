"""minOffsetsPerTrigger + maxTriggerDelay on a fake clock (connector.source.trigger_delay, Spark's delayBatch rule)."""

from __future__ import annotations

import pickle

from connector.source.trigger_delay import TriggerDelay


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def test_first_decision_never_delays() -> None:
    clock = FakeClock()
    assert not TriggerDelay(4000, clock).delays(new_offsets=1, min_offsets=50)


def test_few_offsets_wait_until_the_delay_has_passed_since_the_last_trigger() -> None:
    clock = FakeClock()
    gate = TriggerDelay(4000, clock)
    assert not gate.delays(10, 50)  # first batch
    clock.advance(1.0)
    assert gate.delays(10, 50)
    clock.advance(2.999)
    assert gate.delays(10, 50)
    clock.advance(0.001)  # 4 s since the last trigger
    assert not gate.delays(10, 50)
    assert gate.delays(10, 50)  # the delay restarted with that batch


def test_enough_offsets_trigger_at_once_and_restart_the_delay() -> None:
    clock = FakeClock()
    gate = TriggerDelay(4000, clock)
    assert not gate.delays(10, 50)
    clock.advance(0.5)
    assert not gate.delays(50, 50)
    clock.advance(3.9)
    assert gate.delays(49, 50)  # 3.9 s since the batch of 50, not 4.4 s since the first


def test_an_idle_query_rearms_the_delay_so_new_records_wait_at_most_the_delay() -> None:
    clock = FakeClock()
    gate = TriggerDelay(4000, clock)
    assert not gate.delays(10, 50)
    clock.advance(5.0)
    assert not gate.delays(0, 50)  # nothing new: no batch is planned, but the delay restarts (Spark)
    clock.advance(1.0)
    assert gate.delays(10, 50)  # records arriving now wait for the rest of the re-armed delay
    clock.advance(3.0)
    assert not gate.delays(10, 50)


def test_it_travels_to_executors_pickled() -> None:
    gate = TriggerDelay(4000)
    assert not gate.delays(1, 50)
    copy = pickle.loads(pickle.dumps(gate))
    assert copy.max_delay_ms == 4000 and copy.delays(1, 50)
