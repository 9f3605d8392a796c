"""RemotePersister on fakes: operations go out in the order queued, the caller never blocks, the
coordinator is looked up again while it moves, a read is answered on the next ``read`` call, and a
fenced write marks the key (the share-partition manager then drops and re-reads it)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from broker_embedded.share.persister import SharePersister
from broker_embedded.share.remote_persister import RemotePersister, StatePending, StateUnavailable
from broker_embedded.share.state import (
    PersisterStateBatch,
    RecordState,
    ShareGroupStateKey,
    ShareSnapshotValue,
    ShareUpdateValue,
)
from broker_embedded.share.state_service import ShareStateService
from kafka_wire.errors import ErrorCode

KEY = ShareGroupStateKey("g", "1d965fa7-9733-48d5-8032-c8b37cdd4166", 0)


class _MemoryPersister(SharePersister):
    """The coordinator's persister without a log."""

    def __init__(self) -> None:
        super().__init__(None, lambda *_: None, lambda *_: None)  # type: ignore[arg-type]

    def _append(self, *_: Any) -> None:
        pass


class FakeCoordinator:
    """Answers RPCs 83-86 from a ShareStateService; `moves` answers NOT_COORDINATOR that many times,
    `gate` (when set) holds every answer until released."""

    def __init__(self) -> None:
        self.service = ShareStateService(_MemoryPersister())
        self.sent: list[int] = []
        self.moves = 0
        self.located = 0
        self.gate: threading.Event | None = None

    def locate(self, key: ShareGroupStateKey) -> tuple[str, int] | None:
        self.located += 1
        return ("coordinator", 1)

    def send(self, address: tuple[str, int], api_key: int, body: Any, version: int) -> Any:
        if self.gate is not None:
            self.gate.wait(10)
        self.sent.append(api_key)
        topic = body.topics[0]
        p = topic.partitions[0]
        if self.moves:
            self.moves -= 1
            return _answer(ErrorCode.NOT_COORDINATOR)
        if api_key == 83:
            r = self.service.initialize(KEY, p.state_epoch, p.start_offset)
        elif api_key == 84:
            r = self.service.read(KEY, p.leader_epoch)
        elif api_key == 85:
            batches = [(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count) for b in p.state_batches]
            r = self.service.write(KEY, p.state_epoch, p.leader_epoch, p.start_offset, batches)
        else:
            r = self.service.delete(KEY)
        return _answer(r.error, r)


def _answer(code: ErrorCode, r: Any = None) -> Any:
    part = type("P", (), {})()
    part.error_code = int(code)
    if r is not None:
        part.state_epoch, part.start_offset = r.state_epoch, r.start_offset
        part.state_batches = [
            type("B", (), {"first_offset": b.first_offset, "last_offset": b.last_offset,
                           "delivery_state": int(b.delivery_state), "delivery_count": b.delivery_count})()
            for b in r.batches
        ]  # fmt: skip
    result = type("R", (), {"partitions": [part]})()
    return type("Resp", (), {"results": [result]})()


def _snapshot(start: int) -> ShareSnapshotValue:
    return ShareSnapshotValue(0, 0, 3, start, 0, 0, ())


def _update(leader_epoch: int, start: int, *batches: tuple[int, int, RecordState, int]) -> ShareUpdateValue:
    return ShareUpdateValue(0, leader_epoch, start, tuple(PersisterStateBatch(*b) for b in batches))


def _persister(fake: FakeCoordinator) -> RemotePersister:
    return RemotePersister(fake.locate, fake.send, retry_timeout_s=5, backoff_s=0.001)


def _read(p: RemotePersister, leader_epoch: int = 3) -> Any:
    with pytest.raises(StatePending):
        p.read(KEY, leader_epoch)
    assert p.wait_idle(10)
    return p.read(KEY, leader_epoch)


def test_operations_go_out_in_order_and_never_block_the_caller() -> None:
    fake = FakeCoordinator()
    fake.gate = threading.Event()
    p = _persister(fake)
    p.initialize(KEY, _snapshot(5))
    p.write(KEY, [_update(3, 5, (5, 6, RecordState.ACKNOWLEDGED, 1))])
    p.write(KEY, [_update(3, 7, (7, 9, RecordState.AVAILABLE, 2))])
    with pytest.raises(StatePending):
        p.read(KEY, 3)
    assert fake.sent == [] and not p.wait_idle(0.05)  # all queued, the coordinator held
    fake.gate.set()
    assert p.wait_idle(10)
    assert fake.sent == [83, 85, 85, 84]
    state = p.read(KEY, 3)
    assert state is not None and state.start_offset == 7
    assert state.state_batches == (PersisterStateBatch(7, 9, RecordState.AVAILABLE, 2),)
    assert p.keys("g") == [KEY] and p.keys("other") == []


def test_a_key_never_initialized_reads_as_none_and_a_read_is_answered_once() -> None:
    fake = FakeCoordinator()
    p = _persister(fake)
    assert _read(p) is None
    with pytest.raises(StatePending):  # the answer was taken: a later read asks again
        p.read(KEY, 3)
    assert p.wait_idle(10)
    assert fake.sent == [84, 84]


def test_the_coordinator_is_looked_up_again_while_it_moves() -> None:
    fake = FakeCoordinator()
    fake.moves = 3
    p = _persister(fake)
    p.initialize(KEY, _snapshot(0))
    assert p.wait_idle(10)
    assert fake.sent == [83, 83, 83, 83] and fake.located == 4
    assert _read(p).start_offset == 0


def test_a_fenced_write_marks_the_key_and_a_new_read_clears_it() -> None:
    fake = FakeCoordinator()
    p = _persister(fake)
    p.initialize(KEY, _snapshot(0))
    p.write(KEY, [_update(5, 0, (0, 0, RecordState.ACKNOWLEDGED, 1))])
    p.write(KEY, [_update(4, 0, (1, 1, RecordState.ACKNOWLEDGED, 1))])  # an older leader's write
    assert p.wait_idle(10)
    assert KEY in p.fenced
    state = _read(p, 5)
    assert KEY not in p.fenced
    assert state.state_batches == (PersisterStateBatch(0, 0, RecordState.ACKNOWLEDGED, 1),)


def test_an_unreachable_coordinator_is_given_up_after_the_retry_timeout() -> None:
    """On a fake clock: a read is retried until the retry timeout and no longer, then answered once
    with Kafka's error for it (COORDINATOR_NOT_AVAILABLE); the next read asks again."""
    now = [0.0]
    p = RemotePersister(lambda _: None, lambda *_: None, retry_timeout_s=1, clock=lambda: now[0])

    def sleep(s: float) -> None:
        now[0] += s

    p.sleep = sleep
    p.backoff_s = 0.3
    with pytest.raises(StatePending):
        p.read(KEY, 0)
    assert p.wait_idle(10)
    assert p.failed == 1 and now[0] <= 1
    with pytest.raises(StateUnavailable) as e:
        p.read(KEY, 0)
    assert e.value.code == ErrorCode.COORDINATOR_NOT_AVAILABLE
    with pytest.raises(StatePending):  # answered once: asked again
        p.read(KEY, 0)
    assert p.wait_idle(10)
    assert p.failed == 2 and now[0] <= 2


def test_a_write_given_up_is_reported_to_its_acknowledgement_and_marks_the_key_stale() -> None:
    """The coordinator becomes unreachable after the share-partition was initialized: the write
    queued by an acknowledgement is given up after the retry timeout (fake clock), ``write_error``
    names Kafka's error for exactly that write's sequence range, and the key is stale (the manager
    reads the share-partition again)."""
    fake = FakeCoordinator()
    now = [0.0]
    p = RemotePersister(fake.locate, fake.send, retry_timeout_s=2, backoff_s=0.5, clock=lambda: now[0])

    def sleep(s: float) -> None:
        now[0] += s

    p.sleep = sleep
    p.initialize(KEY, _snapshot(0))
    p.write(KEY, [_update(3, 0, (0, 0, RecordState.ACKNOWLEDGED, 1))])
    assert p.wait_idle(10)
    first = p.write_seq(KEY)
    assert first == 2 and p.write_error(KEY, 0, first) is None and KEY not in p.fenced
    p.locate = lambda _: None  # the share coordinator's broker is gone
    p.write(KEY, [_update(3, 1, (1, 1, RecordState.ACKNOWLEDGED, 1))])
    p.barrier().result(10)
    assert p.failed == 1 and now[0] <= 2
    assert p.write_error(KEY, first, p.write_seq(KEY)) == ErrorCode.COORDINATOR_NOT_AVAILABLE
    assert p.write_error(KEY, 0, first) is None  # the earlier writes succeeded
    assert KEY in p.fenced


def test_a_barrier_is_done_only_after_the_writes_queued_before_it() -> None:
    fake = FakeCoordinator()
    fake.gate = threading.Event()
    p = _persister(fake)
    p.initialize(KEY, _snapshot(0))
    p.write(KEY, [_update(3, 0, (0, 0, RecordState.ACKNOWLEDGED, 1))])
    done = p.barrier()
    assert not done.done()
    fake.gate.set()
    done.result(10)
    assert fake.sent == [83, 85]


def test_a_reset_starts_over_with_a_newer_state_epoch_that_fences_the_old_writers() -> None:
    fake = FakeCoordinator()
    old_leader, admin = _persister(fake), _persister(fake)
    old_leader.initialize(KEY, _snapshot(0))
    assert old_leader.wait_idle(10)
    admin.reset(KEY, 7)
    assert admin.wait_idle(10)
    assert fake.sent == [83, 84, 83]
    old_leader.write(KEY, [_update(3, 0, (0, 0, RecordState.ACKNOWLEDGED, 1))])  # state epoch 0: stale
    assert old_leader.wait_idle(10)
    assert KEY in old_leader.fenced
    state = _read(admin)
    assert (state.state_epoch, state.start_offset, state.state_batches) == (1, 7, ())


def test_an_acknowledgement_whose_write_failed_is_answered_the_persister_error() -> None:
    """ShareAcknowledge / ShareFetch with acknowledgements: answered once the share state was
    written; a partition whose write was given up (the coordinator unreachable for the configured
    retry timeout) answers COORDINATOR_NOT_AVAILABLE, as Kafka answers a failed persister write;
    another partition of the same request, written fine, answers NONE."""
    import asyncio
    import time
    import uuid
    from types import SimpleNamespace

    from broker_embedded.apis.share_fetch import AckResults, after_state_written
    from kafka_wire.protocol.messages import share_acknowledge_response as ack_rs
    from kafka_wire.protocol.messages import share_fetch_response as fetch_rs

    fake = FakeCoordinator()
    p = RemotePersister(fake.locate, fake.send, retry_timeout_s=0.2, backoff_s=0.02)
    tid = uuid.UUID(KEY.topic_id).bytes
    other = ShareGroupStateKey("g", KEY.topic_id, 1)
    p.initialize(KEY, _snapshot(0))
    assert p.wait_idle(10)
    acks = AckResults()
    for key in (KEY, other):
        before = p.write_seq(key)
        if key == other:
            p.locate = lambda k: None if k == other else ("coordinator", 1)  # its coordinator is gone
        p.write(key, [_update(3, 0, (0, 0, RecordState.ACKNOWLEDGED, 1))])
        acks[(tid, key.partition)] = (ErrorCode.NONE, None)
        acks.written[(tid, key.partition)] = (key, before, p.write_seq(key))
    broker = SimpleNamespace(share_coordinator=SimpleNamespace(partitions=SimpleNamespace(persister=p)))
    acknowledge = ack_rs.ShareAcknowledgeResponse(
        responses=[
            ack_rs.ShareAcknowledgeTopicResponse(
                topic_id=tid, partitions=[ack_rs.PartitionData(partition_index=i) for i in (0, 1)]
            )
        ]
    )
    fetch = fetch_rs.ShareFetchResponse(
        responses=[
            fetch_rs.ShareFetchableTopicResponse(
                topic_id=tid, partitions=[fetch_rs.PartitionData(partition_index=i) for i in (0, 1)]
            )
        ]
    )

    async def answer(response: Any) -> Any:
        return await after_state_written(broker, acks, response)  # type: ignore[arg-type]

    started = time.monotonic()
    answered = asyncio.run(answer(acknowledge))
    assert time.monotonic() - started < 5  # bounded by the retry timeout, not 30 s
    codes = [q.error_code for q in answered.responses[0].partitions]
    assert codes == [ErrorCode.NONE, ErrorCode.COORDINATOR_NOT_AVAILABLE]
    fetched = asyncio.run(answer(fetch))
    codes = [(q.error_code, q.acknowledge_error_code) for q in fetched.responses[0].partitions]
    assert codes == [(ErrorCode.NONE, ErrorCode.NONE), (ErrorCode.NONE, ErrorCode.COORDINATOR_NOT_AVAILABLE)]
    assert other in p.fenced and KEY not in p.fenced


def test_a_key_whose_coordinator_hangs_holds_up_only_its_own_operations() -> None:
    """Keys go in parallel (Kafka's persister is asynchronous): while one key's coordinator does not
    answer, another key's writes are sent and a barrier on that key alone is done; a barrier on
    every key waits for the hung one, and each key's operations still go out in order."""
    fake = FakeCoordinator()
    hung = ShareGroupStateKey("g", KEY.topic_id, 7)
    gate = threading.Event()
    order: list[tuple[int, int]] = []

    def locate(key: ShareGroupStateKey) -> tuple[str, int]:
        return ("hung" if key == hung else "coordinator", 1)

    def send(address: tuple[str, int], api_key: int, body: Any, version: int) -> Any:
        partition = body.topics[0].partitions[0].partition
        if address[0] == "hung":
            assert gate.wait(10)
            order.append((partition, api_key))
            return _answer(ErrorCode.NONE)
        order.append((partition, api_key))
        return fake.send(address, api_key, body, version)

    p = RemotePersister(locate, send, retry_timeout_s=5, backoff_s=0.001)
    p.initialize(hung, _snapshot(0))
    p.write(hung, [_update(3, 0, (0, 0, RecordState.ACKNOWLEDGED, 1))])
    p.initialize(KEY, _snapshot(0))
    p.write(KEY, [_update(3, 0, (0, 0, RecordState.ACKNOWLEDGED, 1))])
    p.barrier([KEY]).result(10)  # not held up by the hung key
    everything = p.barrier()
    assert order == [(0, 83), (0, 85)] and not everything.done()
    gate.set()
    everything.result(10)
    assert order[2:] == [(7, 83), (7, 85)]
    assert p.write_error(hung, 0, p.write_seq(hung)) is None and p.wait_idle(10)
