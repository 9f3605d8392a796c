"""Issue 22 network limits: idle connections closed after connections.max.idle.ms, and a client that
never reads its responses is muted (the broker stops reading it) so broker memory stays bounded."""

from __future__ import annotations

import resource
import socket
import time
import uuid
from collections.abc import Iterator

import pytest

from broker_embedded import EmbeddedBroker
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol import encode_request
from kafka_wire.protocol.messages import fetch_request
from kafka_wire.records import build_batch
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(120)

IDLE_MS = 800
RSS_GROWTH_BOUND_MB = 400  # 3,000 pipelined 4 MB fetches would be ~12 GB without muting


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(**{"num.partitions": 1, "connections.max.idle.ms": IDLE_MS}) as b:
        yield b


def test_idle_connection_is_closed(broker: EmbeddedBroker) -> None:
    sock = w.raw_socket(broker.bootstrap_servers)
    try:
        start = time.monotonic()
        assert w.wait_closed(sock, timeout=10) == b""
        elapsed = time.monotonic() - start
        assert elapsed >= IDLE_MS / 1000 * 0.9, elapsed
    finally:
        sock.close()


def test_active_connection_is_kept(broker: EmbeddedBroker) -> None:
    with w.connect(broker.bootstrap_servers) as conn:
        deadline = time.monotonic() + 3 * IDLE_MS / 1000
        while time.monotonic() < deadline:
            w.metadata(conn)
            time.sleep(IDLE_MS / 1000 / 4)
        w.metadata(conn)  # still open


def test_never_reading_client_is_muted_and_memory_bounded(broker: EmbeddedBroker) -> None:
    topic = f"big-{uuid.uuid4().hex[:8]}"
    with w.connect(broker.bootstrap_servers) as conn:
        w.create_topic(conn, topic, 1)
        value = b"x" * (500 << 10)
        for i in range(8):  # 4 MB in the partition
            batch = build_batch([(0, None, value, [])], base_offset=0)
            r = w.produce(conn, topic, 0, bytes(batch))
            assert r.error_code == ErrorCode.NONE, (i, ErrorCode(r.error_code))
    req = fetch_request.FetchRequest(
        replica_id=-1,
        max_wait_ms=0,
        min_bytes=0,
        max_bytes=50 << 20,
        isolation_level=0,
        topics=[
            fetch_request.FetchTopic(
                topic=topic,
                partitions=[fetch_request.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=50 << 20)],
            )
        ],
    )
    one = encode_request(1, 11, 1, "never-reads", req)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(w.host_port(broker.bootstrap_servers))
    sock.setblocking(False)
    rss_before = _rss_mb()
    peak = rss_before
    sent_frames = 0
    pending = b""
    deadline = time.monotonic() + 15
    try:
        while sent_frames < 3000 and time.monotonic() < deadline:
            if not pending:
                pending = one
            try:
                n = sock.send(pending)
            except BlockingIOError:
                time.sleep(0.01)
                peak = max(peak, _rss_mb())
                continue
            pending = pending[n:]
            if not pending:
                sent_frames += 1
        time.sleep(1)
        peak = max(peak, _rss_mb())
        # a bystander is still served promptly
        with w.connect(broker.bootstrap_servers) as other:
            t0 = time.monotonic()
            w.metadata(other)
            assert time.monotonic() - t0 < 2.0
        growth = peak - rss_before
        print(f"never-reading client: {sent_frames} fetch frames accepted by the socket, RSS growth {growth:.0f} MB")
        # 3,000 small request frames fit in the kernel's socket buffers; what matters is that the
        # broker stopped reading them (muted) once the responses could not be sent
        server = broker._runner.server  # type: ignore[union-attr]
        muted = [c for c in list(server.connections) if c._reading_paused]
        assert muted, "the broker kept reading a client that never reads its responses"
        assert growth < RSS_GROWTH_BOUND_MB, growth
    finally:
        sock.close()
