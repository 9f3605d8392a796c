"""The Jepsen-style checker (testsupport/jepsen.py) finds each anomaly it claims to, on hand-made logs and
transaction histories; the test hosts (testsupport/netns.py) cut two hosts apart silently while both keep their
other links, and what a killed run left is swept away."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kafka_wire.records import build_batch
from testsupport import netns
from testsupport.jepsen import Report, Txn, check, check_transactions


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


TXNS: list[Txn] = [((b"t0", b"t1"), "committed"), ((b"t2", b"t3"), "aborted"), ((b"t4", b"t5"), "unknown")]


def test_transactions_clean_runs_are_ok() -> None:
    seen = [(0, 0, b"t0"), (1, 0, b"t1")]
    r = check_transactions(TXNS, seen)
    assert r.ok and (r.committed, r.aborted, r.unknown) == (1, 1, 1), r.summary()
    # an unknown outcome may have committed, all of it
    assert check_transactions(TXNS, [*seen, (0, 5, b"t4"), (1, 5, b"t5")]).ok


def test_each_transaction_anomaly_is_found() -> None:
    both = [(0, 0, b"t0"), (1, 0, b"t1")]
    assert check_transactions(TXNS, [*both, (0, 3, b"t2")]).aborted_reads == [b"t2"]
    assert check_transactions(TXNS, [(0, 0, b"t0")]).partial == [(b"t0", b"t1")]
    assert check_transactions(TXNS, [*both, (1, 4, b"t5")]).partial == [(b"t4", b"t5")]
    assert check_transactions(TXNS, []).lost == [(b"t0", b"t1")]
    assert check_transactions(TXNS, [*both, (0, 1, b"t0")]).duplicates == [b"t0"]
    assert check_transactions(TXNS, [*both, (0, 1, b"zz")]).unexpected == [b"zz"]
    for seen in ([(0, 0, b"t0")], [*both, (0, 3, b"t2")], [*both, (0, 1, b"t0")]):
        assert not check_transactions(TXNS, seen).ok


_LISTEN = (
    "import socket, sys, time\n"
    "s = socket.socket(); s.bind((sys.argv[1], 9999)); s.listen(8); print('up', flush=True); time.sleep(30)"
)
_CONNECT = (
    "import socket, sys\n"
    "try:\n"
    "    socket.create_connection((sys.argv[1], int(sys.argv[2])), 0.5).close(); print('connected')\n"
    "except OSError as e:\n"
    "    print(type(e).__name__)"
)


@pytest.mark.skipif(netns.available() is not None, reason=str(netns.available()))
def test_a_cut_drops_only_the_pair_silently() -> None:
    with netns.TestHosts(["a", "b", "c"]) as hosts:
        servers = [
            subprocess.Popen(
                hosts.wrap(h, [sys.executable, "-c", _LISTEN, hosts.address(h)]), stdout=subprocess.PIPE, text=True
            )
            for h in ("b", "c")
        ]
        try:
            for s in servers:
                assert s.stdout is not None and s.stdout.readline().strip() == "up"

            def connect(src: str, dst: str) -> str:
                argv = hosts.wrap(src, [sys.executable, "-c", _CONNECT, hosts.address(dst), "9999"])
                return subprocess.run(argv, capture_output=True, text=True, timeout=20).stdout.strip()

            assert connect("a", "b") == "connected"
            hosts.cut("a", "b")
            assert connect("a", "b") == "TimeoutError"  # silence, not a reset
            assert connect("a", "c") == "connected" and connect("c", "b") == "connected"
            hosts.heal()
            assert connect("a", "b") == "connected" and not hosts.cuts
        finally:
            for s in servers:
                s.kill()
                s.wait(10)


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
