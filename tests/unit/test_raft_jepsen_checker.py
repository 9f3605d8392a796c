"""The Jepsen-style checker (testsupport/jepsen.py) finds each anomaly it claims to, on hand-made logs, and the
test hosts (testsupport/netns.py) left by a killed run are swept away."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kafka_wire.records import build_batch
from testsupport import netns
from testsupport.jepsen import Report, check


def _batch(base: int, values: list[bytes]) -> bytes:
    return build_batch([(1, None, v, None) for v in values], base_offset=base)


def _replicas(*logs: list[bytes]) -> dict[int, dict[int, list[bytes]]]:
    return {0: {broker: batches for broker, batches in enumerate(logs, start=1)}}


GOOD = [_batch(0, [b"a", b"b"]), _batch(2, [b"c"])]


def test_a_clean_run_is_ok() -> None:
    r = check([(0, 0, b"a"), (0, 1, b"b"), (0, 2, b"c")], [(0, 0, b"a"), (0, 2, b"c")], _replicas(GOOD, GOOD))
    assert r.ok and r.records == 3 and r.acked == 3, r.summary()


def test_each_anomaly_is_found() -> None:
    lost = check([(0, 3, b"d")], [], _replicas(GOOD, GOOD))
    assert lost.lost == [(0, 3, b"d")] and not lost.ok
    dup = check([], [], _replicas([*GOOD, _batch(3, [b"a"])], [*GOOD, _batch(3, [b"a"])]))
    assert dup.duplicates == [b"a"] and not dup.ok
    moved = check([(0, 0, b"b")], [], _replicas(GOOD, GOOD))
    assert moved.moved == [((0, 0, b"b"), 1)] and not moved.ok
    divergent = check([], [], _replicas(GOOD, GOOD[:1]))
    assert len(divergent.divergent) == 1 and not divergent.ok
    lost_read = check([], [(0, 2, b"x")], _replicas(GOOD, GOOD))
    assert lost_read.lost_reads == [(0, 2, b"x")] and not lost_read.ok
    backwards = check([], [(0, 1, b"b"), (0, 0, b"a")], _replicas(GOOD, GOOD))
    assert backwards.backwards == [(0, 0, 1)] and not backwards.ok


def test_an_acknowledgement_without_offset_is_found_by_value() -> None:
    assert check([(0, None, b"c")], [], _replicas(GOOD, GOOD)).ok
    assert check([(0, None, b"z")], [], _replicas(GOOD, GOOD)).lost == [(0, None, b"z")]
    assert isinstance(check([], [], {}), Report)


@pytest.mark.skipif(netns.available() is not None, reason=str(netns.available()))
def test_hosts_of_a_killed_run_are_swept() -> None:
    script = (
        "import os, sys; from testsupport.netns import TestHosts\n"
        "h = TestHosts(['x']); print(h.namespace('x'), h.bridge, flush=True); os.kill(os.getpid(), 9)"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    ns, bridge = r.stdout.split()
    assert ns in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    removed = netns.sweep_stale()
    assert ns in removed and bridge in removed
    assert ns not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert bridge not in subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
