"""IP connection creation rate quotas (issue 30): `kafka-configs --entity-type ips` (one IP, and the
`--entity-default` for the others) enforced as Kafka 4.3.1's ConnectionQuotas does, on ours and on
Apache Kafka. A burst of connections from a limited IP is served up to the padded sampled rate
(N/s over quota.window.num - 1 windows of 1 s, so about 10 x N at once); the rest are accepted, never
read, and closed within one quota window. Each IP is a loopback alias (127.0.0.x) of its own, so the
broker's own connections and the other tests' are not limited.

Apache's broker is the session's: every quota set here is removed before the test ends.
"""

from __future__ import annotations

import socket
import struct
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from kafka_wire.protocol.messages import alter_client_quotas_request as aq
from kafka_wire.protocol.messages import describe_client_quotas_request as dq
from peers import jvm
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(120)

RATE_KEY = "connection_creation_rate"


def _quota(bootstrap: str, ip: str | None, rate: float | None) -> None:
    """AlterClientQuotas on ip `ip` (None: the ip default); rate None removes it."""
    conn = w.connect(bootstrap)
    try:
        entry = aq.EntryData(
            entity=[aq.EntityData(entity_type="ip", entity_name=ip)],
            ops=[aq.OpData(key=RATE_KEY, value=0.0 if rate is None else rate, remove=rate is None)],
        )
        (r,) = conn.request(49, aq.AlterClientQuotasRequest(entries=[entry], validate_only=False), 1).entries
        assert r.error_code == 0, r.error_message
    finally:
        conn.close()


def _ip_quotas(bootstrap: str) -> dict[str | None, float]:
    conn = w.connect(bootstrap)
    try:
        req = dq.DescribeClientQuotasRequest(
            components=[dq.ComponentData(entity_type="ip", match_type=2, match=None)], strict=False
        )
        r = conn.request(48, req, 1)
        assert r.error_code == 0, r.error_message
        return {e.entity[0].entity_name: {v.key: v.value for v in e.values}[RATE_KEY] for e in r.entries}
    finally:
        conn.close()


def _burst(bootstrap: str, source: str, count: int) -> tuple[int, int, float]:
    """Open `count` connections from `source` at once, each sending ApiVersions: (served, closed
    unserved, seconds until the last unserved one was closed)."""
    host, port = w.host_port(bootstrap)
    socks = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((source, 0))
        s.settimeout(10)
        s.connect((host, port))
        socks.append(s)
    start = time.monotonic()
    for i, s in enumerate(socks):
        s.sendall(w.frame(w.request_header_v1(18, 0, i)))

    def outcome(i_s: tuple[int, socket.socket]) -> tuple[bool, float]:
        i, s = i_s
        try:
            head = s.recv(8)
            served = len(head) == 8 and struct.unpack(">i", head[4:8])[0] == i
        except OSError:  # reset: the broker closed it with our request unread
            served = False
        finally:
            s.close()
        return served, time.monotonic() - start

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(outcome, enumerate(socks)))
    served = sum(1 for ok, _ in results if ok)
    closed_after = max((t for ok, t in results if not ok), default=0.0)
    return served, count - served, closed_after


@pytest.mark.slow  # Kafka's own tool (a JVM)
def test_ip_connection_creation_rate(either_broker: Any, java_client: Any) -> None:
    bootstrap = either_broker.bootstrap_servers
    try:
        # the broker's own address stays unlimited while the ip default applies to the others
        _quota(bootstrap, jvm.LOOPBACK, 1_000_000)
        out = java_client.run(
            jvm.CONFIGS,
            "--bootstrap-server",
            bootstrap,
            "--alter",
            "--entity-type",
            "ips",
            "--entity-name",
            "127.0.0.2",
            "--add-config",
            f"{RATE_KEY}=2",
            check=False,
        )
        assert (out.returncode, out.stdout.strip()) == (0, "Completed updating config for ip 127.0.0.2."), out.stderr
        _quota(bootstrap, None, 1)  # --entity-default
        deadline = time.monotonic() + 30
        while _ip_quotas(bootstrap) != {jvm.LOOPBACK: 1_000_000, "127.0.0.2": 2, None: 1}:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        # 2/s padded over 10 windows: ~20 of 40 at once; the default 1/s: ~10 of 25
        with ThreadPoolExecutor(2) as pool:
            own, default = pool.map(lambda a: _burst(bootstrap, *a), [("127.0.0.2", 40), ("127.0.0.3", 25)])
        assert 16 <= own[0] <= 24, own
        assert 7 <= default[0] <= 13, default
        # the unserved ones are closed within one quota window (1 s) of their throttle, not held
        assert own[2] < 5 and default[2] < 5, (own, default)
    finally:
        _quota(bootstrap, None, None)
        _quota(bootstrap, "127.0.0.2", None)
        _quota(bootstrap, jvm.LOOPBACK, None)
