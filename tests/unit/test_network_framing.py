"""The broker's receive path without sockets: a KafkaConnection fed through the BufferedProtocol
calls a transport makes (get_buffer / buffer_updated), in every way a stream can be cut."""

from __future__ import annotations

import asyncio
import random
import struct
from typing import Any

import pytest

from broker_embedded.network import server as net
from broker_embedded.network.server import KafkaConnection, KafkaServer


class FakeTransport:
    def __init__(self) -> None:
        self.paused = False
        self.closed = False

    def get_extra_info(self, key: str) -> Any:
        return ("127.0.0.1", 9) if key == "peername" else None

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def get_write_buffer_size(self) -> int:
        return 0

    def writelines(self, chunks: list[bytes]) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True


class Recorder:
    """Stands in for the broker: keeps each frame it is handed (no response)."""

    def __init__(self) -> None:
        self.frames: list[bytearray] = []

    def __call__(self, ctx: Any, frame: bytearray, body_pos: int) -> None:
        self.frames.append(frame)
        return None


@pytest.fixture(autouse=True)
def _any_header(monkeypatch: pytest.MonkeyPatch) -> None:
    # the frames here are opaque bytes: every one decodes as a header of API 0
    header = type("Header", (), {"api_key": 0, "api_version": 9})()
    monkeypatch.setattr(net, "decode_request_header", lambda frame: (header, 0))


def connect(recorder: Recorder, **server_args: Any) -> tuple[KafkaServer, KafkaConnection, FakeTransport]:
    srv = KafkaServer(recorder, 100 * 1024 * 1024, **server_args)
    conn = srv._new_connection()
    transport = FakeTransport()
    conn.connection_made(transport)  # type: ignore[arg-type]
    return srv, conn, transport


def frame_of(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def feed(conn: KafkaConnection, data: bytes, chunk: int) -> None:
    """What a transport does: ask for a buffer, fill up to `chunk` bytes of it, report them."""
    view = memoryview(data)
    while view:
        buf = conn.get_buffer(-1)
        assert len(buf) > 0, "a transport must never be handed an empty buffer"
        n = min(len(buf), len(view), chunk)
        buf[:n] = view[:n]
        conn.buffer_updated(n)  # asyncio's transports still hold `buf` here: nothing may resize it
        del buf
        view = view[n:]


def feed_like_tls(conn: KafkaConnection, data: bytes, record: int = 16 * 1024) -> None:
    """What asyncio's TLS transport does: one buffer, filled a TLS record at a time through
    `buf[offset:]` slices, then one buffer_updated for all of it."""
    view = memoryview(data)
    while view:
        buf = conn.get_buffer(-1)
        offset = 0
        while offset < len(buf) and view:
            n = min(record, len(buf) - offset, len(view))
            target = buf[offset:]  # a copy if buf were a bytearray: the bytes would be lost
            target[:n] = view[:n]
            offset += n
            view = view[n:]
        conn.buffer_updated(offset)
        del buf


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.mark.parametrize("chunk", [1, 3, 4, 5, 1000, 64 * 1024, 256 * 1024, 1 << 22])
def test_every_cut_of_the_stream_yields_the_same_frames(chunk: int) -> None:
    rng = random.Random(chunk)
    sizes = [0, 1, 4, 100, 64 * 1024, 64 * 1024 + 1, 300 * 1024, 2, 1 << 20, 17, 256 * 1024, 5]
    sizes += [
        rng.choice([rng.randrange(0, 2000), rng.randrange(60_000, 70_000), rng.randrange(0, 400_000)])
        for _ in range(40)
    ]
    if chunk == 1:
        sizes = [s for s in sizes if s < 70_000]  # byte by byte: keep it quick
    payloads = [rng.randbytes(s) for s in sizes]

    async def main() -> None:
        rec = Recorder()
        _, conn, _ = connect(rec)
        feed(conn, b"".join(frame_of(p) for p in payloads), chunk)
        assert [bytes(f) for f in rec.frames] == payloads
        assert all(type(f) is bytearray for f in rec.frames)  # produce stamps offsets into it in place
        assert conn.buffered_bytes() == 0
        assert conn._frame_started is None
        assert conn._stage is None and conn._frame is None  # an idle connection holds no buffer

    run(main())


def test_a_partial_small_frame_waits_in_a_buffer_of_its_size() -> None:
    async def main() -> None:
        rec = Recorder()
        _, conn, _ = connect(rec)
        data = frame_of(b"q" * 1000) + frame_of(b"r" * 10)
        feed(conn, data[:2], 2)  # half a size prefix
        assert conn._stage is not None and conn.buffered_bytes() == 2
        feed(conn, data[2:500], 1 << 20)
        assert conn._stage is not None and len(conn._stage) == 1004  # room for exactly the rest
        feed(conn, data[500:], 1 << 20)
        assert [bytes(f) for f in rec.frames] == [b"q" * 1000, b"r" * 10]
        assert conn._stage is None

    run(main())


def test_a_large_frame_is_received_into_the_bytearray_the_broker_gets() -> None:
    """Once a large frame's size is known, the transport writes the rest of it straight into the
    frame's own bytearray: the object handed to the broker is the one the reads filled."""

    async def main() -> None:
        rec = Recorder()
        _, conn, _ = connect(rec)
        payload = bytes(range(256)) * 4096  # 1 MiB
        data = frame_of(payload)
        feed(conn, data[:1000], 1000)
        buf = conn.get_buffer(-1)
        assert conn._frame is not None and buf.obj is conn._frame and len(conn._frame) == len(payload)
        assert len(buf) == len(payload) - 996  # what is still to come, not more
        del buf
        # a resumed connection re-runs the staging parser (call_soon): it leaves a frame in
        # progress alone, and its read-timeout clock keeps running
        conn._process_buffer()
        assert conn._frame is not None and conn._frame_started is not None
        feed(conn, data[1000:], 1 << 30)
        assert rec.frames[0] == payload
        assert conn._frame is None and conn.buffered_bytes() == 0

    run(main())


def test_small_frames_after_a_large_one_in_the_same_read() -> None:
    async def main() -> None:
        rec = Recorder()
        _, conn, _ = connect(rec)
        big, small = b"B" * 200_000, [b"s1", b"", b"s3" * 100]
        data = frame_of(big) + b"".join(frame_of(s) for s in small)
        feed(conn, data[:10], 10)  # the large frame's size is known: it is received in place
        feed(conn, data[10:], 1 << 30)  # the read that completes it ends where the frame ends
        assert [bytes(f) for f in rec.frames] == [big, *small]

    run(main())


def test_oversized_frame_closes_the_connection() -> None:
    async def main() -> None:
        rec = Recorder()
        srv, conn, transport = connect(rec)
        srv.max_request_size = 1000
        feed(conn, frame_of(b"x" * 10) + struct.pack(">i", 1001) + b"y" * 50, 1 << 20)
        assert [bytes(f) for f in rec.frames] == [b"x" * 10]
        assert transport.closed and conn._closed
        assert len(conn.get_buffer(-1)) > 0  # a late read is absorbed, not an error
        conn.buffer_updated(10)

    run(main())


def test_frames_held_while_muted_are_handed_on_when_reading_resumes() -> None:
    async def main() -> None:
        rec = Recorder()
        _, conn, transport = connect(rec)
        payloads = [b"m%d" % i * 500 for i in range(300)]  # 300 frames, > the staging buffer
        data = b"".join(frame_of(p) for p in payloads)
        conn._paused = True  # as MAX_IN_FLIGHT_REQUESTS does
        conn._update_reading()
        assert transport.paused
        # bytes the transport had already read keep arriving; a muted connection does not hand
        # them on, and the staging buffer grows rather than return an empty buffer
        feed(conn, data, 64 * 1024)
        assert rec.frames == [] and conn.buffered_bytes() == len(data)
        conn._paused = False
        conn._update_reading()
        await asyncio.sleep(0)
        assert [bytes(f) for f in rec.frames] == payloads
        assert conn.buffered_bytes() == 0
        assert conn._stage is None  # nothing pending: the connection holds no buffer

    run(main())


def test_pool_admits_a_waiting_large_frame_when_memory_is_released() -> None:
    async def main() -> None:
        rec = Recorder()
        srv, a, ta = connect(rec, queued_max_request_bytes=300_000)
        b = srv._new_connection()
        tb = FakeTransport()
        b.connection_made(tb)  # type: ignore[arg-type]
        pa_, pb = b"a" * 200_000, b"b" * 200_000
        fa, fb = frame_of(pa_), frame_of(pb)
        feed(a, fa[:100_000], 1 << 20)  # a holds 200 kB of the pool
        feed(b, fb[:50_000], 1 << 20)  # b's frame does not fit: b stops being read
        assert tb.paused and b._pool_wait and b._frame is None and b.buffered_bytes() == 50_000
        assert b._stage is not None and len(b._stage) < 100_000  # nothing allocated for the waiting frame
        feed(a, fa[100_000:], 1 << 20)  # a's frame completes and gives its memory back
        assert not tb.paused and not b._pool_wait
        await asyncio.sleep(0)  # b's staged start moves into its own bytearray
        assert b._frame is not None and b.buffered_bytes() == 50_000 - 4
        feed(b, fb[50_000:], 1 << 20)
        assert [bytes(f) for f in rec.frames] == [pa_, pb]
        assert srv.request_pool.used == 0

    run(main())


def test_a_tls_transport_filling_the_buffer_in_slices() -> None:
    async def main() -> None:
        rec = Recorder()
        _, conn, _ = connect(rec)
        rng = random.Random(5)
        payloads = [rng.randbytes(rng.choice([10, 3000, 70_000, 300_000])) for _ in range(30)]
        feed_like_tls(conn, b"".join(frame_of(p) for p in payloads))
        assert [bytes(f) for f in rec.frames] == payloads

    run(main())
