"""Hierarchical timing wheel, driven by a manual clock."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from broker_embedded.purgatory import ManualClock, SystemTimer, TimerTask, TimingWheel


class RecordingTask(TimerTask):
    """Records every run with the clock reading and the advance_clock call it happened in."""

    def __init__(self, delay_ms: int, log: list[tuple[int, int]], index: int, sim: Sim) -> None:
        super().__init__(delay_ms)
        self.log = log
        self.index = index
        self.sim = sim

    def run(self) -> None:
        self.log.append((self.index, self.sim.phase))


@dataclass
class Sim:
    phase: int = 0  # -1 - add number while adding, advance number while advancing
    fires: list[tuple[int, int]] = field(default_factory=list)


def ceil_to(value: int, tick: int) -> int:
    return -(-value // tick) * tick


small_delay = st.integers(min_value=-3, max_value=60)
large_delay = st.integers(min_value=0, max_value=1_000_000)
# Deadlines on bucket boundaries of several levels at once (multiples of 20 and 400 with the
# default wheel) are where the levels' buckets share an expiration instant.
aligned_delay = st.builds(
    lambda k, unit, off: k * unit + off,
    st.integers(1, 25),
    st.sampled_from([20, 400, 8000]),
    st.integers(-1, 1),
)
action = st.one_of(
    st.tuples(st.just("add"), st.one_of(small_delay, large_delay, aligned_delay)),
    st.tuples(st.just("cancel"), st.integers(min_value=0, max_value=10_000)),
    st.tuples(
        st.just("advance"),
        st.one_of(st.integers(0, 3), st.integers(0, 300), st.integers(0, 200_000), aligned_delay),
    ),
    # The clock moves but nobody calls advance_clock: the wheel lags behind the clock.
    st.tuples(st.just("drift"), st.integers(0, 50_000)),
)


def _run_scenario(tick: int, wheel_size: int, start: int, actions: list[tuple[str, int]]) -> None:
    clock = ManualClock(start)
    timer = SystemTimer(tick_ms=tick, wheel_size=wheel_size, clock=clock)
    sim = Sim()
    tasks: list[RecordingTask] = []
    deadline: dict[int, int] = {}
    added_after: dict[int, int] = {}  # index -> number of advance_clock calls before the add
    cancelled_at: dict[int, int] = {}  # index -> number of fires recorded when cancelled
    advances: list[int] = []  # now of each advance_clock call, in order

    def advance(now: int) -> None:
        sim.phase = len(advances)
        advances.append(now)
        timer.advance_clock(now)

    for kind, arg in actions:
        if kind == "add":
            task = RecordingTask(arg, sim.fires, len(tasks), sim)
            deadline[task.index] = clock() + arg
            added_after[task.index] = len(advances)
            tasks.append(task)
            sim.phase = -1 - task.index
            timer.add(task)
        elif kind == "cancel" and tasks:
            task = tasks[arg % len(tasks)]
            cancelled_at.setdefault(task.index, len(sim.fires))
            task.cancel()
        elif kind == "advance":
            clock.advance(arg)
            advance(clock())
        elif kind == "drift":
            clock.advance(arg)
        fired_now = {i for i, _ in sim.fires}
        pending = [t for t in tasks if t.index not in fired_now and t.index not in cancelled_at and t.delay_ms > 0]
        assert timer.size == len(pending)
        if pending:
            nxt = timer.next_expiration_ms()
            assert nxt is not None
            assert nxt <= min(ceil_to(deadline[t.index], tick) for t in pending)

    # Flush: everything still pending is due by then.
    final = max([clock()] + [ceil_to(d, tick) for d in deadline.values()])
    clock.set(final)
    advance(final)
    assert timer.size == 0

    fired: dict[int, int] = {}
    for position, (index, phase) in enumerate(sim.fires):
        assert index not in fired, f"task {index} fired twice"
        fired[index] = phase
        if index in cancelled_at:
            assert position < cancelled_at[index], f"task {index} fired after cancel()"

    for task in tasks:
        i = task.index
        if i in cancelled_at:
            continue
        assert i in fired, f"task {i} (delay {task.delay_ms}) never fired"
        phase = fired[i]
        if task.delay_ms <= 0:
            assert phase == -1 - i, "an already-expired task runs inside add()"
            continue
        due = ceil_to(deadline[i], tick)
        # It fires in the first advance_clock() after its add whose now reached the deadline
        # rounded up to a tick: never before the deadline, never a whole tick after it.
        expected = next(p for p in range(added_after[i], len(advances)) if advances[p] >= due)
        assert phase == expected, (task.delay_ms, deadline[i], due, advances, phase, expected)
        assert deadline[i] <= advances[phase]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tick=st.sampled_from([1, 1, 1, 2, 3, 10]),
    wheel_size=st.sampled_from([2, 3, 8, 20, 20]),
    start=st.integers(min_value=0, max_value=10_000_000),
    actions=st.lists(action, max_size=80),
)
def test_every_task_fires_once_on_time_and_cancelled_never(
    tick: int, wheel_size: int, start: int, actions: list[tuple[str, int]]
) -> None:
    _run_scenario(tick, wheel_size, start, actions)


class Flag(TimerTask):
    def __init__(self, delay_ms: int, clock: ManualClock) -> None:
        super().__init__(delay_ms)
        self.clock = clock
        self.fired_at: list[int] = []

    def run(self) -> None:
        self.fired_at.append(self.clock())


def test_buckets_of_several_levels_due_at_the_same_instant() -> None:
    # A coarse bucket and a level-0 bucket both expire at 400; a task cascading out of the
    # coarse one (deadline 420) maps to the level-0 slot that the bucket due at 400 still
    # occupies. Both buckets must be popped before anything is re-inserted.
    clock = ManualClock(0)
    timer = SystemTimer(tick_ms=1, wheel_size=20, clock=clock)
    late = Flag(420, clock)
    timer.add(late)  # level 2 (tick 400): bucket expiring at 400
    clock.set(380)
    timer.advance_clock(380)
    early = Flag(20, clock)
    timer.add(early)  # level 0: bucket expiring at 400
    clock.set(400)
    timer.advance_clock(400)
    assert early.fired_at == [400]
    assert late.fired_at == []
    clock.set(420)
    timer.advance_clock(420)
    assert late.fired_at == [420]


def test_one_tick_steps_fire_exactly_at_deadline() -> None:
    clock = ManualClock(12_345)
    timer = SystemTimer(clock=clock)
    tasks = [Flag(d, clock) for d in (1, 2, 19, 20, 21, 399, 400, 401, 8_000, 8_001, 160_001)]
    for task in tasks:
        timer.add(task)
    for _ in range(160_002):
        timer.advance_clock(clock.advance(1))
    for task in tasks:
        assert task.fired_at == [12_345 + task.delay_ms]


def test_overflow_wheels_are_created_on_demand() -> None:
    clock = ManualClock(0)
    timer = SystemTimer(tick_ms=1, wheel_size=20, clock=clock)
    assert timer.wheel.overflow_wheel is None
    timer.add(Flag(1_000_000, clock))
    ticks = []
    wheel: TimingWheel | None = timer.wheel
    while wheel is not None:
        ticks.append(wheel.tick_ms)
        wheel = wheel.overflow_wheel
    assert ticks == [1, 20, 400, 8_000, 160_000]
    assert timer.next_expiration_ms() == 960_000  # the coarse bucket holding the task
    assert timer.size == 1


def test_expired_on_add_runs_immediately_through_executor() -> None:
    clock = ManualClock(100)
    ran: list[TimerTask] = []
    timer = SystemTimer(clock=clock, executor=ran.append)
    zero, negative, future = Flag(0, clock), Flag(-5, clock), Flag(5, clock)
    for task in (zero, negative, future):
        timer.add(task)
    assert ran == [zero, negative]
    assert timer.size == 1


def test_cancel_removes_from_bucket_and_size() -> None:
    clock = ManualClock(0)
    timer = SystemTimer(clock=clock)
    tasks = [Flag(d, clock) for d in (5, 5, 50, 5_000)]
    for task in tasks:
        timer.add(task)
    assert timer.size == 4
    tasks[0].cancel()
    tasks[3].cancel()
    tasks[3].cancel()  # idempotent
    assert timer.size == 2
    clock.set(10_000)
    timer.advance_clock(10_000)
    assert [t.fired_at for t in tasks] == [[], [10_000], [10_000], []]
    assert timer.size == 0
    assert timer.next_expiration_ms() is None


def test_failing_task_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    class Boom(TimerTask):
        def run(self) -> None:
            raise RuntimeError("boom")

    clock = ManualClock(0)
    timer = SystemTimer(clock=clock)
    ok = Flag(3, clock)
    timer.add(Boom(3))
    timer.add(ok)
    clock.set(3)
    assert timer.advance_clock(3) is True
    assert ok.fired_at == [3]
    assert "boom" in caplog.text


def test_listener_called_only_when_head_gets_earlier() -> None:
    clock = ManualClock(0)
    timer = SystemTimer(clock=clock)
    calls: list[int | None] = []
    timer.set_expiration_listener(lambda: calls.append(timer.next_expiration_ms()))
    timer.add(Flag(100, clock))
    timer.add(Flag(200, clock))  # later: no re-arm needed
    timer.add(Flag(10, clock))
    timer.add(Flag(10, clock))  # same bucket
    assert calls == [100, 10]


def test_shutdown_drops_pending_and_refuses_adds() -> None:
    clock = ManualClock(0)
    timer = SystemTimer(clock=clock)
    task = Flag(10, clock)
    timer.add(task)
    timer.shutdown()
    assert timer.size == 0
    clock.set(100)
    timer.advance_clock(100)
    assert task.fired_at == []
    with pytest.raises(RuntimeError):
        timer.add(Flag(1, clock))


def test_task_added_while_wheel_lags_the_clock() -> None:
    # Buckets queued far ahead keep advance_clock from being called for a long time while the
    # clock runs on; an add must still fire on time.
    clock = ManualClock(0)
    timer = SystemTimer(clock=clock)
    timer.add(Flag(900_000, clock))
    clock.set(500_003)  # no advance_clock since 0
    task = Flag(7, clock)
    timer.add(task)
    timer.advance_clock(500_009)
    assert task.fired_at == []
    clock.set(500_010)
    timer.advance_clock(500_010)
    assert task.fired_at == [500_010]


@pytest.mark.parametrize("bad", [{"tick_ms": 0}, {"wheel_size": 1}])
def test_rejects_degenerate_wheels(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        SystemTimer(clock=ManualClock(0), **bad)
