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
        server = broker._runner.server  # type: ignore[union-attr]
        # the broker stops reading (mutes) the client once its responses cannot be sent: poll for it
        deadline = time.monotonic() + 15
        while not [c for c in list(server.connections) if c._reading_paused] and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1)  # then give memory the time to grow, had the broker kept buffering for it
        peak = max(peak, _rss_mb())
        # a bystander is still served (a loop stuck on the flood would leave it waiting for good)
        with w.connect(broker.bootstrap_servers) as other:
            t0 = time.monotonic()
            w.metadata(other)
            assert time.monotonic() - t0 < 5.0
        growth = peak - rss_before
        print(f"never-reading client: {sent_frames} fetch frames accepted by the socket, RSS growth {growth:.0f} MB")
        # 3,000 small request frames fit in the kernel's socket buffers; what matters is that the
        # broker stopped reading them (muted) once the responses could not be sent
        muted = [c for c in list(server.connections) if c._reading_paused]
        assert muted, "the broker kept reading a client that never reads its responses"
        assert growth < RSS_GROWTH_BOUND_MB, growth
    finally:
        sock.close()


# --- backpressure: partial requests, slow senders ----------------------------------------


def test_half_sent_frames_are_bounded_broker_wide() -> None:
    pool_mb = 200
    frame = 90 * 1024 * 1024
    with EmbeddedBroker(
        **{
            "queued.max.request.bytes": pool_mb * 1024 * 1024,
            "socket.request.read.timeout.ms": 60_000,
        }
    ) as b:
        rss0 = _rss_mb()
        socks = []
        try:
            for _ in range(20):
                # 45 MB of each 90 MB frame: the send returns once the kernel buffers fill when
                # the broker stops reading a connection the pool has no room for
                s = _half_sent_nonblocking(b.bootstrap_servers, frame, frame // 2)
                socks.append(s)
            time.sleep(2)
            grown = _rss_mb() - rss0
            # the pool admits two 90 MB frames; the others wait unread (kernel buffers, not ours)
            assert grown < pool_mb + 150, f"RSS grew by {grown:.0f} MB holding 20 half-sent 90 MB frames"
            # a bystander is still served
            with w.connect(b.bootstrap_servers) as conn:
                w.metadata(conn)
            print(f"20 x 90 MB half-sent frames: RSS +{grown:.0f} MB (pool {pool_mb} MB; unbounded: ~900 MB)")
        finally:
            for s in socks:
                s.close()


def _half_sent_nonblocking(bootstrap: str, frame_size: int, sent: int) -> socket.socket:
    sock = w.raw_socket(bootstrap)
    sock.sendall(frame_size.to_bytes(4, "big"))
    sock.setblocking(False)
    chunk = b"\0" * (1 << 20)
    left = sent
    blocked_since: float | None = None
    while left > 0:
        try:
            left -= sock.send(chunk[: min(left, len(chunk))])
            blocked_since = None
        except BlockingIOError:
            # the broker stopped reading this connection (or is slow): give up after 0.5 s
            now = time.monotonic()
            blocked_since = blocked_since or now
            if now - blocked_since > 0.5:
                break
            time.sleep(0.01)
    sock.setblocking(True)
    return sock


def test_slow_sender_is_closed_after_the_read_timeout() -> None:
    timeout_ms = 1500
    with EmbeddedBroker(**{"socket.request.read.timeout.ms": timeout_ms}) as b:
        sock = w.raw_socket(b.bootstrap_servers)
        try:
            sock.sendall((1000).to_bytes(4, "big"))
            start = time.monotonic()
            closed = False
            while time.monotonic() - start < 15:
                try:
                    sock.sendall(b"\0")  # one byte a second (faster, to keep the test short)
                except OSError:
                    closed = True
                    break
                sock.settimeout(0.25)
                try:
                    if sock.recv(1) == b"":
                        closed = True
                        break
                except TimeoutError:
                    pass
                except ConnectionError:  # a byte sent after the broker closed: the reset arrives here
                    closed = True
                    break
            elapsed = time.monotonic() - start
            assert closed, "a slow sender was never closed"
            # never before the read timeout; closed at all (the 15 s loop) is the liveness part
            assert elapsed >= timeout_ms / 1000 * 0.9, elapsed
            # a client that sends whole requests on the same broker is unaffected
            with w.connect(b.bootstrap_servers) as conn:
                for _ in range(3):
                    w.metadata(conn)
                    time.sleep(timeout_ms / 1000 / 2)
        finally:
            sock.close()


def test_unsent_response_bytes_mute_readers_broker_wide() -> None:
    # fetch responses nobody reads, from 8 connections: past queued.max.response.bytes the
    # broker stops reading all of them (each connection's own muting is per 64 KB buffer, but
    # the broker-wide cap is what bounds the sum)
    cap = 8 * 1024 * 1024
    with EmbeddedBroker(**{"num.partitions": 1, "queued.max.response.bytes": cap}) as b:
        topic = f"resp-{uuid.uuid4().hex[:6]}"
        with w.connect(b.bootstrap_servers) as conn:
            w.create_topic(conn, topic, 1)
            value = b"v" * 900_000
            for _ in range(4):
                w.produce(conn, topic, 0, build_batch([(0, None, value, [])]))
        rss0 = _rss_mb()
        socks = []
        try:
            for _ in range(8):
                s = socket.socket()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.connect(w.host_port(b.bootstrap_servers))
                req = fetch_request.FetchRequest(
                    replica_id=-1,
                    max_wait_ms=0,
                    min_bytes=1,
                    max_bytes=4 * 1024 * 1024,
                    topics=[
                        fetch_request.FetchTopic(
                            topic=topic,
                            partitions=[
                                fetch_request.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=4 << 20)
                            ],
                        )
                    ],
                )
                frame = encode_request(1, 4, 1, "c", req)
                s.setblocking(False)
                for _ in range(200):
                    try:
                        s.send(frame)
                    except BlockingIOError:
                        break
                socks.append(s)
            time.sleep(2)
            server = b._runner.server  # type: ignore[attr-defined]
            unsent = b.call(lambda _broker: server.unsent_response_bytes())
            grown = _rss_mb() - rss0
            print(f"unsent response bytes {unsent / 2**20:.1f} MB (cap {cap / 2**20:.0f} MB), RSS +{grown:.0f} MB")
            # each muted connection may still finish what it had read: bounded by the 64 KB
            # write high-water mark plus one response over it, per connection
            assert unsent < cap + 8 * 4.5 * 2**20, unsent
            assert grown < 200, grown
        finally:
            for s in socks:
                s.close()
