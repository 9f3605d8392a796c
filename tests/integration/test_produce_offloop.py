"""Costly produce checks run off the broker's event loop (issue 27): a decompression bomb is refused
with CORRUPT_MESSAGE while other clients' requests are served, and appends to one partition stay in
request order when one batch is checked on the validation pool and the next one could be checked
inline.

Deterministic, no wall-clock windows: a hook around the bounded inflate (the pool's full-size one)
holds the bomb's check until the test lets it go; the bystander's produce must complete while it is
held, which it could not if the check held the loop."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import kafka_wire.records as records_module
from broker_embedded import EmbeddedBroker
from broker_embedded.log.validator import INLINE_MAX_BATCH_BYTES
from kafka_wire.client import BrokerConnection
from kafka_wire.compression import ZSTD
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol import decode_response, encode_request
from kafka_wire.protocol.messages import produce_request
from kafka_wire.records import build_batch
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(60)

BOUND = 4 << 20  # MAX_DECOMPRESSED_BATCH_BYTES for this module: a bomb of 16 MiB is refused


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    b = EmbeddedBroker().start()
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture
def conn(broker: EmbeddedBroker) -> Iterator[BrokerConnection]:
    c = w.connect(broker.bootstrap_servers)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture
def topic(conn: BrokerConnection) -> str:
    name = f"offloop-{uuid.uuid4().hex[:8]}"
    w.create_topic(conn, name, partitions=1)
    return name


class HeldInflate:
    """Wraps the bounded inflate of `kafka_wire.records`: calls with the full bound (the validation
    pool's) record their thread and wait until `release()`."""

    def __init__(self, inner: Callable[..., Any]) -> None:
        self.inner = inner
        self.entered = threading.Event()
        self.released = threading.Event()
        self.threads: list[str] = []

    def __call__(self, codec: int, data: Any, limit: int) -> Any:
        if limit == BOUND:
            self.threads.append(threading.current_thread().name)
            self.entered.set()
            assert self.released.wait(30), "the test never released the held inflate"
        return self.inner(codec, data, limit)

    def release(self) -> None:
        self.released.set()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldInflate]:
    monkeypatch.setattr(records_module, "MAX_DECOMPRESSED_BATCH_BYTES", BOUND)
    hook = HeldInflate(records_module.decompressed_bounded)
    monkeypatch.setattr(records_module, "decompressed_bounded", hook)
    try:
        yield hook
    finally:
        hook.release()


def _in_thread(fn: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(fn())
        except BaseException as e:  # surfaced by the test's assertions
            out.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, out


def _loop_thread_name(broker: EmbeddedBroker) -> str:
    return str(broker.call(lambda _b: threading.current_thread().name))


def test_bomb_is_refused_off_the_loop_while_a_bystander_produces(
    broker: EmbeddedBroker, conn: BrokerConnection, topic: str, held: HeldInflate
) -> None:
    other = f"offloop-bystander-{uuid.uuid4().hex[:8]}"
    w.create_topic(conn, other, partitions=1)
    now = int(time.time() * 1000)
    bomb = build_batch([(now, b"k", bytes(16 << 20), [])], compression=ZSTD)
    assert len(bomb) < 64 << 10  # small on the wire: only the inflated size is wrong
    with contextlib.closing(w.connect(broker.bootstrap_servers)) as bomber:
        t, answer = _in_thread(lambda: w.produce(bomber, topic, 0, bomb))
        assert held.entered.wait(20), "the bomb's check never reached the pool's inflate"
        # the bomb's check is held mid-inflate: a bystander's produce (another connection, another
        # topic: appends to the bomb's partition wait for it, as under Kafka's log lock) completes
        ok = w.produce(conn, other, 0, build_batch(w.records(3)))
        assert ok.error_code == ErrorCode.NONE and ok.base_offset == 0
        assert not answer, "the bomb was answered before its check was released"
        held.release()
        t.join(20)
    assert answer and not isinstance(answer[0], BaseException), answer
    assert answer[0].error_code == ErrorCode.CORRUPT_MESSAGE
    assert held.threads and all(n.startswith("produce-validation-") for n in held.threads), held.threads
    assert _loop_thread_name(broker) not in held.threads
    assert w.list_offset(conn, topic, 0) == 0  # nothing of the bomb was appended
    # the bomb's partition takes appends again
    assert w.produce(conn, topic, 0, build_batch(w.records(2))).base_offset == 0


def _produce_frame(topic: str, records: bytes, correlation_id: int) -> bytes:
    req = produce_request.ProduceRequest(
        acks=1,
        timeout_ms=5000,
        topic_data=[
            produce_request.TopicProduceData(
                name=topic, partition_data=[produce_request.PartitionProduceData(index=0, records=records)]
            )
        ],
    )
    return encode_request(0, 9, correlation_id, "offloop", req)


def _answer(sock: socket.socket) -> tuple[int, Any]:
    frame = w.recv_frame(sock, timeout=20)
    cid, resp = decode_response(0, 9, frame)
    return cid, resp.responses[0].partition_responses[0]


def test_appends_to_a_partition_stay_in_request_order(
    broker: EmbeddedBroker, conn: BrokerConnection, topic: str, held: HeldInflate
) -> None:
    """A large compressed batch goes to the pool; a small one right behind it on the same connection
    would be checked inline, yet is appended after it (offsets in request order)."""
    now = int(time.time() * 1000)
    big = build_batch([(now, b"k", bytes(1 << 20), [])] * 2, compression=ZSTD)  # past the inline budget
    small = build_batch(w.records(5))
    assert len(small) < INLINE_MAX_BATCH_BYTES
    key = (topic, 0)
    replica_manager = broker.broker.replica_manager
    with w.raw_socket(broker.bootstrap_servers, timeout=20) as s:
        s.sendall(_produce_frame(topic, big, 1))
        assert held.entered.wait(20), "the large batch's check never reached the pool's inflate"
        first = broker.call(lambda _b: replica_manager._append_tails.get(key))
        assert first is not None
        s.sendall(_produce_frame(topic, small, 2))
        # the small batch queues behind the held one (it becomes the partition's last append)
        deadline = time.monotonic() + 20
        while broker.call(lambda _b: replica_manager._append_tails.get(key)) is first:
            assert time.monotonic() < deadline, "the second produce was never queued behind the first"
            time.sleep(0.01)
        assert w.list_offset(conn, topic, 0) == 0  # neither appended while the first is being checked
        held.release()
        (cid1, r1), (cid2, r2) = _answer(s), _answer(s)
    assert (cid1, cid2) == (1, 2)
    assert (r1.error_code, r1.base_offset) == (ErrorCode.NONE, 0)
    assert (r2.error_code, r2.base_offset) == (ErrorCode.NONE, 2)
    assert w.list_offset(conn, topic, 0) == 7
    assert not broker.call(lambda _b: replica_manager._append_tails)


def test_acks0_bomb_closes_the_connection(
    broker: EmbeddedBroker, conn: BrokerConnection, topic: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """acks=0 has no response to carry CORRUPT_MESSAGE: the connection closes, also when the batch
    was checked off the loop."""
    monkeypatch.setattr(records_module, "MAX_DECOMPRESSED_BATCH_BYTES", BOUND)
    now = int(time.time() * 1000)
    bomb = build_batch([(now, b"k", bytes(16 << 20), [])], compression=ZSTD)
    req = produce_request.ProduceRequest(
        acks=0,
        timeout_ms=1000,
        topic_data=[
            produce_request.TopicProduceData(
                name=topic, partition_data=[produce_request.PartitionProduceData(index=0, records=bomb)]
            )
        ],
    )
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(encode_request(0, 9, 5, "acks0", req))
        assert w.wait_closed(s, timeout=20) == b""
    assert w.list_offset(conn, topic, 0) == 0
