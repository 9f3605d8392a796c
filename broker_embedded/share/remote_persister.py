"""A share-partition leader's persister in a cluster (Kafka's DefaultStatePersister): share-partition
state goes to the share coordinator of its key through InitializeShareGroupState (83),
ReadShareGroupState (84), WriteShareGroupState (85) and DeleteShareGroupState (86).

Same interface as ``SharePersister`` for ``SharePartitionManager``, but nothing blocks the caller
(the event loop): the coordinator answers a write only after its followers fetched it, and this
broker's own fetcher may be one of them, so a blocking write from the event loop could deadlock.
Worker threads send the operations of a key in the order they were queued (initialize before the
writes that follow it, a read after the writes queued before it) over blocking connections; keys go
in parallel (up to ``MAX_WORKERS`` at once), so a key whose coordinator cannot be reached holds up
only its own operations, as in Kafka's asynchronous PersisterStateManager. Each worker looks the
coordinator up again while it moves (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, a dropped
connection) and retries with a backoff until ``retry_timeout_s``
(``group.share.persister.retry.timeout.ms``, ours: Kafka's PersisterStateManager has no config for
it but gives up after 5 attempts with a backoff doubling from 1 s, about 30 s, our default).

``read`` of a key not read yet raises ``StatePending`` and queues the read; the next ``read`` of the
key gets the answer (the share fetch that asked answers empty meanwhile, and the client fetches
again). A read that failed (the coordinator unreachable until the retry timeout, or an error) is
answered once with ``StateUnavailable`` and Kafka's error for it (SharePartition's
fetchPersisterError: COORDINATOR_NOT_AVAILABLE for a coordinator that could not be reached).

A write answered FENCED_STATE_EPOCH or FENCED_LEADER_EPOCH marks the key ``fenced``: the
share-partition is stale (a newer leader or state took over) and the manager drops it. A write that
failed otherwise marks it stale too (the coordinator no longer holds what the share-partition has in
memory: it is read again), and ``write_error`` tells the acknowledgement that caused it which error
to answer (Kafka answers the acknowledgement with the persister's error after its rollback; we
drop the share-partition instead of rolling back, as after a leader move).
"""

from __future__ import annotations

import collections
import concurrent.futures
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import delete_share_group_state_request as dl
from kafka_wire.protocol.messages import initialize_share_group_state_request as ini
from kafka_wire.protocol.messages import read_share_group_state_request as rd
from kafka_wire.protocol.messages import write_share_group_state_request as wr

from .state import (
    PersisterStateBatch,
    RecordState,
    ShareGroupState,
    ShareGroupStateKey,
    ShareSnapshotValue,
    ShareUpdateValue,
)

log = logging.getLogger(__name__)

# the coordinator moves or is loading: look it up again and retry
RETRIABLE = frozenset(
    {
        ErrorCode.NOT_COORDINATOR,
        ErrorCode.COORDINATOR_NOT_AVAILABLE,
        ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
        ErrorCode.REQUEST_TIMED_OUT,
        ErrorCode.NOT_ENOUGH_REPLICAS,
        ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
    }
)
FENCED = frozenset({ErrorCode.FENCED_STATE_EPOCH, ErrorCode.FENCED_LEADER_EPOCH})
NO_FENCE = 2**31 - 1  # a read's leader epoch that the stored one never fences (it is not stored)
DEFAULT_RETRY_TIMEOUT_MS = 30_000  # group.share.persister.retry.timeout.ms (ours, see above)
MAX_WORKERS = 16  # keys whose operations run at the same time
_FAILURES_KEPT = 64  # failed write sequence numbers remembered per key


def client_error(code: ErrorCode) -> ErrorCode:
    """The error a client is answered for a failed share-state operation (Kafka's
    SharePartition.fetchPersisterError); our retriable codes given up on count as unreachable."""
    if code in RETRIABLE:
        return ErrorCode.COORDINATOR_NOT_AVAILABLE
    if code in (ErrorCode.GROUP_ID_NOT_FOUND, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.FENCED_STATE_EPOCH):
        return code
    if code == ErrorCode.FENCED_LEADER_EPOCH:
        return ErrorCode.NOT_LEADER_OR_FOLLOWER
    return ErrorCode.UNKNOWN_SERVER_ERROR


# (key) -> (host, port) of its share coordinator now, None while unknown
Locate = Callable[[ShareGroupStateKey], "tuple[str, int] | None"]
# (address, api key, request, version) -> response (raises OSError on a broken connection)
Send = Callable[[tuple[str, int], int, Any, int], Any]


class StatePending(Exception):
    """The share-partition's state is being read from the share coordinator; ask again later."""


class StateUnavailable(KafkaError):
    """Reading the share-partition's state failed; ``code`` is the client's error for it (the
    share fetch answers it for the partition, as any KafkaError of a fetch)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message, code)


@dataclass(slots=True)
class _Op:
    kind: str  # "initialize", "write", "read", "delete", "reset"
    key: ShareGroupStateKey
    state_epoch: int = 0
    leader_epoch: int = -1
    start_offset: int = -1
    batches: tuple[PersisterStateBatch, ...] = ()
    delivery_complete_count: int = -1
    seq: int = 0  # initialize / write / reset / delete: the key's write sequence number


class RemotePersister:
    def __init__(
        self,
        locate: Locate,
        send: Send,
        on_read: Callable[[ShareGroupStateKey], None] | None = None,
        retry_timeout_s: float = DEFAULT_RETRY_TIMEOUT_MS / 1000,
        backoff_s: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.locate = locate
        self.send = send
        self.on_read = on_read  # a read finished (wake the share fetches waiting for it)
        self.retry_timeout_s = retry_timeout_s
        self.backoff_s = backoff_s
        self.clock = clock
        self.sleep = sleep
        # operations ready to run: the oldest unfinished one of each key
        self._queue: queue.Queue[_Op | None] = queue.Queue()
        # key -> its unfinished operations in order (the head is ready or running)
        self._pending: dict[ShareGroupStateKey, collections.deque[_Op]] = {}
        # barriers: (ids of the last operation of each key when it was set, its future)
        self._barriers: list[tuple[set[int], concurrent.futures.Future[None]]] = []
        self._workers = 0
        self._busy = 0
        self._lock = threading.Lock()
        self._state_epochs: dict[ShareGroupStateKey, int] = {}
        self._reading: set[ShareGroupStateKey] = set()
        self._read: dict[ShareGroupStateKey, ShareGroupState | None] = {}
        self._queued = 0  # operations queued and not finished
        self._idle = threading.Condition(self._lock)
        self.fenced: set[ShareGroupStateKey] = set()
        self.failed = 0  # operations given up after retry_timeout_s
        self._read_errors: dict[ShareGroupStateKey, tuple[ErrorCode, str]] = {}
        self._write_seqs: dict[ShareGroupStateKey, int] = {}
        self._write_failures: dict[ShareGroupStateKey, dict[int, ErrorCode]] = {}

    # ---- the SharePersister interface (never blocks) --------------------------------------------

    def read(self, key: ShareGroupStateKey, leader_epoch: int = -1) -> ShareGroupState | None:
        """The state read from the coordinator (None: never initialized), or StatePending."""
        with self._lock:
            if key in self._read:
                return self._read.pop(key)
            if key in self._reading:
                raise StatePending(key)
            failed = self._read_errors.pop(key, None)
            if failed is not None:  # answered once; the next read asks the coordinator again
                raise StateUnavailable(*failed)
            self._reading.add(key)
            self.fenced.discard(key)
        self._put(_Op("read", key, leader_epoch=leader_epoch))
        raise StatePending(key)

    def initialize(self, key: ShareGroupStateKey, snapshot: ShareSnapshotValue) -> None:
        with self._lock:
            self._state_epochs[key] = snapshot.state_epoch
            self.fenced.discard(key)
        self._put(_Op("initialize", key, snapshot.state_epoch, snapshot.leader_epoch, snapshot.start_offset))
        if snapshot.state_batches or snapshot.delivery_complete_count >= 0:
            self._put(
                _Op(
                    "write",
                    key,
                    snapshot.state_epoch,
                    snapshot.leader_epoch,
                    snapshot.start_offset,
                    snapshot.state_batches,
                    snapshot.delivery_complete_count,
                )
            )

    def write(self, key: ShareGroupStateKey, updates: list[ShareUpdateValue]) -> None:
        with self._lock:
            state_epoch = self._state_epochs.get(key, 0)
        for u in updates:
            batches, complete = u.state_batches, u.delivery_complete_count
            self._put(_Op("write", key, state_epoch, u.leader_epoch, u.start_offset, batches, complete))

    def reset(self, key: ShareGroupStateKey, start_offset: int) -> None:
        """AlterShareGroupOffsets: the state starts over at `start_offset` with a newer state epoch."""
        self._put(_Op("reset", key, start_offset=start_offset))

    def delete(self, key: ShareGroupStateKey) -> None:
        with self._lock:
            self._state_epochs.pop(key, None)
        self._put(_Op("delete", key))

    def barrier(self, keys: Iterable[ShareGroupStateKey] | None = None) -> concurrent.futures.Future[None]:
        """Done once everything queued before it for `keys` (None: every key) was sent and answered
        (Kafka answers a ShareAcknowledge after its WriteShareGroupState)."""
        done: concurrent.futures.Future[None] = concurrent.futures.Future()
        with self._lock:
            # the operations of a key finish in order: its last one now stands for all of them
            wanted = self._pending if keys is None else {k: self._pending[k] for k in keys if k in self._pending}
            waiting = {id(ops[-1]) for ops in wanted.values()}
            if waiting:
                self._barriers.append((waiting, done))
        if not waiting:
            done.set_result(None)
        return done

    def keys(self, group_id: str) -> list[ShareGroupStateKey]:
        """The keys this leader initialized or read (the coordinators hold the rest)."""
        with self._lock:
            return [k for k in self._state_epochs if k.group_id == group_id]

    def write_seq(self, key: ShareGroupStateKey) -> int:
        """The sequence number of the last write-type operation queued for `key` (0: none)."""
        with self._lock:
            return self._write_seqs.get(key, 0)

    def write_error(self, key: ShareGroupStateKey, after: int, upto: int) -> ErrorCode | None:
        """The client's error if a write of `key` with a sequence number in (after, upto] failed."""
        with self._lock:
            failures = self._write_failures.get(key, {})
            codes = [code for seq, code in failures.items() if after < seq <= upto]
        return codes[0] if codes else None

    def forget(self, key: ShareGroupStateKey) -> None:
        """The share-partition was dropped here: a later use reads it again."""
        with self._lock:
            self._read.pop(key, None)

    def wait_idle(self, timeout: float) -> bool:
        """Every queued operation finished (tests, shutdown)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._queued == 0, timeout)

    def close(self) -> None:
        with self._lock:
            workers = self._workers
        for _ in range(workers):
            self._queue.put(None)

    # ---- the worker -----------------------------------------------------------------------------

    def _put(self, op: _Op) -> None:
        with self._lock:
            self._queued += 1
            if op.kind in ("initialize", "write", "reset", "delete"):
                op.seq = self._write_seqs[op.key] = self._write_seqs.get(op.key, 0) + 1
            ops = self._pending.setdefault(op.key, collections.deque())
            ops.append(op)
            ready = len(ops) == 1  # else it runs once the key's earlier operations finished
            if ready and self._busy + self._queue.qsize() >= self._workers and self._workers < MAX_WORKERS:
                self._workers += 1
                name = f"share-state-persister-{self._workers}"
                threading.Thread(target=self._run, name=name, daemon=True).start()
        if ready:
            self._queue.put(op)

    def _run(self) -> None:
        while True:
            op = self._queue.get()
            if op is None:
                return
            with self._lock:
                self._busy += 1
            try:
                self._execute(op)
            except Exception:  # noqa: BLE001  # one failed key must not stop the others
                log.exception("share state %s of %s failed", op.kind, op.key)
                self._failed(op, ErrorCode.UNKNOWN_SERVER_ERROR)
            finally:
                self._finished(op)

    def _finished(self, op: _Op) -> None:
        done: list[concurrent.futures.Future[None]] = []
        with self._idle:
            self._busy -= 1
            ops = self._pending[op.key]
            ops.popleft()
            if ops:
                self._queue.put(ops[0])  # the key's next operation
            else:
                del self._pending[op.key]
            for waiting, future in self._barriers:
                waiting.discard(id(op))
                if not waiting:
                    done.append(future)
            self._barriers = [(w, f) for w, f in self._barriers if w]
            self._queued -= 1
            self._idle.notify_all()
        for future in done:
            future.set_result(None)

    def _execute(self, op: _Op) -> None:
        if op.kind == "reset":
            # AlterShareGroupOffsets: a new state epoch over whatever the coordinator holds, so the
            # writes of a share-partition still running on the old state are fenced
            code, old = self._retry(_Op("read", op.key, leader_epoch=NO_FENCE))
            if code in RETRIABLE:
                self._failed(op, code)
                return
            epoch = old.state_epoch + 1 if code == ErrorCode.NONE and old is not None else 0
            with self._lock:
                self._state_epochs[op.key] = epoch
            op = _Op("initialize", op.key, epoch, start_offset=op.start_offset, seq=op.seq)
        code, result = self._retry(op)
        if op.kind == "read":
            if code == ErrorCode.NONE:
                self._finish_read(op, result)
            elif code == ErrorCode.INVALID_REQUEST:  # never initialized
                self._finish_read(op, None)
            else:
                log.warning("share state read of %s: %s", op.key, code.name)
                self._failed(op, code)
        elif code != ErrorCode.NONE:
            log.warning("share state %s of %s: %s", op.kind, op.key, code.name)
            self._failed(op, code)

    def _failed(self, op: _Op, code: ErrorCode) -> None:
        """`op` failed with `code`: a read is answered with its error once; a write marks the key
        stale (the share-partition is read again) and is remembered for ``write_error``."""
        error = client_error(code)
        with self._lock:
            if op.kind == "read":
                self._reading.discard(op.key)
                message = f"Unable to read the share-partition state: {code.name}."
                self._read_errors[op.key] = (error, message)
            elif op.seq:
                self.fenced.add(op.key)
                failures = self._write_failures.setdefault(op.key, {})
                failures[op.seq] = error
                for seq in sorted(failures)[:-_FAILURES_KEPT]:
                    del failures[seq]
        if op.kind == "read" and self.on_read is not None:
            self.on_read(op.key)  # the share fetches waiting for it answer the error now

    def _retry(self, op: _Op) -> tuple[ErrorCode, ShareGroupState | None]:
        """The coordinator's answer, asked again while it moves until ``retry_timeout_s``; then
        the last retriable code."""
        deadline = self.clock() + self.retry_timeout_s
        while True:
            code, result = self._attempt(op)
            if code not in RETRIABLE:
                return code, result
            if self.clock() + self.backoff_s > deadline:
                with self._lock:
                    self.failed += 1
                log.warning("share state %s of %s given up: %s", op.kind, op.key, code.name)
                return code, None
            self.sleep(self.backoff_s)

    def _finish_read(self, op: _Op, state: ShareGroupState | None) -> None:
        with self._lock:
            self._reading.discard(op.key)
            self._read[op.key] = state
            if state is not None:
                self._state_epochs[op.key] = state.state_epoch
        if self.on_read is not None:
            self.on_read(op.key)

    def _attempt(self, op: _Op) -> tuple[ErrorCode, ShareGroupState | None]:
        address = self.locate(op.key)
        if address is None:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, None
        api_key, body, version = request_for(op)
        try:
            response = self.send(address, api_key, body, version)
        except OSError as e:
            log.debug("share coordinator %s: %s", address, e)
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, None
        part = response.results[0].partitions[0]
        code = ErrorCode(part.error_code)
        if op.kind != "read" or code != ErrorCode.NONE:
            return code, None
        batches = tuple(
            PersisterStateBatch(b.first_offset, b.last_offset, RecordState(b.delivery_state), b.delivery_count)
            for b in part.state_batches
        )
        state = ShareGroupState(
            state_epoch=part.state_epoch,
            leader_epoch=-1,  # not in the answer: the reader sets its own
            start_offset=part.start_offset,
            state_batches=batches,
            delivery_complete_count=getattr(part, "delivery_complete_count", -1),
        )
        return code, state


def request_for(op: _Op) -> tuple[int, Any, int]:
    """(api key, request, version) of one queued operation."""
    tid = uuid.UUID(op.key.topic_id).bytes
    if op.kind == "initialize":
        p = ini.PartitionData(partition=op.key.partition, state_epoch=op.state_epoch, start_offset=op.start_offset)
        return 83, ini.InitializeShareGroupStateRequest(op.key.group_id, [ini.InitializeStateData(tid, [p])]), 0
    if op.kind == "read":
        r = rd.PartitionData(partition=op.key.partition, leader_epoch=op.leader_epoch)
        return 84, rd.ReadShareGroupStateRequest(op.key.group_id, [rd.ReadStateData(tid, [r])]), 0
    if op.kind == "write":
        w = wr.PartitionData(
            partition=op.key.partition,
            state_epoch=op.state_epoch,
            leader_epoch=op.leader_epoch,
            start_offset=op.start_offset,
            delivery_complete_count=op.delivery_complete_count,
            state_batches=[
                wr.StateBatch(b.first_offset, b.last_offset, int(b.delivery_state), b.delivery_count)
                for b in op.batches
            ],
        )
        return 85, wr.WriteShareGroupStateRequest(op.key.group_id, [wr.WriteStateData(tid, [w])]), 1
    if op.kind == "delete":
        d = dl.PartitionData(partition=op.key.partition)
        return 86, dl.DeleteShareGroupStateRequest(op.key.group_id, [dl.DeleteStateData(tid, [d])]), 0
    raise ValueError(f"unknown share state operation {op.kind}")
