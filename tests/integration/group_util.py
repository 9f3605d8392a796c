"""Helpers for consumer-group integration tests.

- `GroupBroker`: an EmbeddedBroker with short group timeouts that records every ERROR logged by
  the broker (so a test can assert the coordinator never blew up).
- `RawMember`: a group member speaking the classic protocol by hand over `BrokerConnection`
  (JoinGroup/SyncGroup/Heartbeat/OffsetCommit/LeaveGroup), for fencing and error-code checks.
- `MemberProc` / `MemberPool`: consumers running as child processes
  (`group_members/member.py`) that report their assignment as JSON lines; killed in teardown.
- consumer-protocol codecs, topic/produce helpers and a `wait_until`.

Everything blocks with a bound; nothing here outlives its context manager.

Debugging knobs (environment): GROUP_MEMBER_LOG_LEVEL=INFO|DEBUG sets the client library's log
level in member processes (test_groups_failure.py); GROUP_MEMBER_STDERR_DIR=DIR keeps every
member's whole stderr there when `wait_split` times out.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import (
    describe_groups_request,
    find_coordinator_request,
    heartbeat_request,
    join_group_request,
    leave_group_request,
    list_groups_request,
    offset_commit_request,
    offset_delete_request,
    offset_fetch_request,
    sync_group_request,
)
from tests.integration.wire_util import REPO_ROOT, create_topic

MEMBER_SCRIPT = Path(__file__).resolve().parent / "group_members" / "member.py"

# broker settings that keep group scenarios fast (Kafka's minimum session timeout is 6 s)
FAST_GROUP_CONFIG: dict[str, Any] = {
    "group.min.session.timeout.ms": 1000,
    "group.initial.rebalance.delay.ms": 0,
    "offsets.topic.num.partitions": 4,
}


# what a group request may be answered while its coordinator is not serving the group yet (clients retry)
COORDINATOR_NOT_READY = (
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
    ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_COORDINATOR,
)


def find_coordinator(conn: BrokerConnection, group: str, deadline: float, key_type: int = 0) -> Any:
    """FindCoordinator (v3) until it names the group's coordinator (`key_type` 1: a transactional
    id's), as clients do first: it creates __consumer_offsets (__transaction_state) on a fresh Apache
    node, which answers group (transaction) requests NOT_COORDINATOR until then.
    Returns the answer (node_id, host, port); fails at `deadline` (time.monotonic())."""
    req = find_coordinator_request.FindCoordinatorRequest(key=group, key_type=key_type, coordinator_keys=[group])
    while (found := conn.request(10, req, 3)).error_code != ErrorCode.NONE:
        assert time.monotonic() < deadline, f"no coordinator for {group}: {ErrorCode(found.error_code)}"
        time.sleep(0.2)
    return found


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def wait_until(pred: Callable[[], Any], timeout: float, interval: float = 0.05, what: str = "condition") -> Any:
    """Poll `pred` until it returns something truthy; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


# --------------------------------------------------------------------------------------------
# the broker
# --------------------------------------------------------------------------------------------


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def group_broker(log_dir: str | Path | None = None, **configs: Any) -> Iterator[EmbeddedBroker]:
    """An EmbeddedBroker with FAST_GROUP_CONFIG; fails on exit if the broker logged an ERROR."""
    collector = _ErrorCollector()
    logger = logging.getLogger("broker_embedded")
    logger.addHandler(collector)
    try:
        with EmbeddedBroker(log_dir=log_dir, **{**FAST_GROUP_CONFIG, **configs}) as b:
            b.errors = collector.records  # type: ignore[attr-defined]
            yield b
    finally:
        logger.removeHandler(collector)
    broker_errors = [
        collector.format(r) if r.exc_info is None else logging.Formatter().format(r) for r in collector.records
    ]
    assert not broker_errors, "the broker logged errors:\n" + "\n".join(broker_errors)


def generation_of(b: EmbeddedBroker, group_id: str) -> int:
    return b.call(lambda broker: broker.group_coordinator.groups[group_id].generation_id)


def state_of(b: EmbeddedBroker, group_id: str) -> str | None:
    def get(broker: Any) -> str | None:
        g = broker.group_coordinator.groups.get(group_id)
        return None if g is None else g.state.value

    return b.call(get)


def make_topic(bootstrap: str, partitions: int, prefix: str = "t") -> str:
    name = unique(prefix)
    with BrokerConnection.from_bootstrap(bootstrap, timeout=10) as conn:
        create_topic(conn, name, partitions)
    return name


def produce_keyed(bootstrap: str, topic: str, partitions: int, per_partition: int, start: int = 0) -> int:
    """`per_partition` records to every partition (value = "p:i"); returns how many were written."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for part in range(partitions):
        for i in range(start, start + per_partition):
            p.produce(topic, value=f"{part}:{i}".encode(), partition=part)
    assert p.flush(20) == 0, "producer did not deliver everything"
    return partitions * per_partition


# --------------------------------------------------------------------------------------------
# consumer protocol (ConsumerProtocolSubscription / ConsumerProtocolAssignment, v0)
# --------------------------------------------------------------------------------------------


def _str(s: str) -> bytes:
    b = s.encode()
    return struct.pack(">h", len(b)) + b


def encode_subscription(topics: Iterable[str]) -> bytes:
    topics = list(topics)
    return struct.pack(">hi", 0, len(topics)) + b"".join(_str(t) for t in topics) + struct.pack(">i", -1)


def encode_assignment(assignment: dict[str, list[int]]) -> bytes:
    out = struct.pack(">hi", 0, len(assignment))
    for topic, parts in assignment.items():
        out += _str(topic) + struct.pack(">i", len(parts)) + b"".join(struct.pack(">i", p) for p in parts)
    return out + struct.pack(">i", -1)


def decode_assignment(raw: bytes) -> dict[str, list[int]]:
    if not raw:
        return {}
    pos = 2
    (n,) = struct.unpack_from(">i", raw, pos)
    pos += 4
    out: dict[str, list[int]] = {}
    for _ in range(n):
        (ln,) = struct.unpack_from(">h", raw, pos)
        pos += 2
        topic = raw[pos : pos + ln].decode()
        pos += ln
        (k,) = struct.unpack_from(">i", raw, pos)
        pos += 4
        out[topic] = list(struct.unpack_from(f">{k}i", raw, pos))
        pos += 4 * k
    return out


def assert_disjoint_complete(assignments: Iterable[Iterable[int]], partitions: int) -> None:
    lists = [sorted(a) for a in assignments]
    flat = [p for a in lists for p in a]
    assert len(flat) == len(set(flat)), f"a partition is assigned twice: {lists}"
    assert sorted(flat) == list(range(partitions)), f"assignment is not complete: {lists}"


# --------------------------------------------------------------------------------------------
# the classic group protocol by hand
# --------------------------------------------------------------------------------------------


class RawMember:
    """One member over its own connection. Versions default to the newest both sides know."""

    def __init__(
        self,
        bootstrap: str,
        group_id: str,
        topics: Iterable[str],
        *,
        session_timeout_ms: int = 3000,
        rebalance_timeout_ms: int = 3000,
        instance_id: str | None = None,
        protocols: Iterable[str] = ("range",),
        join_version: int | None = None,
        timeout: float = 30.0,
    ) -> None:
        self.conn = BrokerConnection.from_bootstrap(bootstrap, timeout=timeout, client_id="raw-member")
        self.group_id = group_id
        self.topics = list(topics)
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.instance_id = instance_id
        self.protocols = list(protocols)
        self.join_version = join_version if join_version is not None else self.conn.best_version(11)
        self.member_id = ""
        self.generation = -1
        self.leader = ""
        self.protocol_name: str | None = None
        self.members: list[Any] = []
        self._pending: tuple[int, int] | None = None

    # join is split in send/receive: a JoinGroup is parked until the rebalance completes
    def send_join(self) -> None:
        req = join_group_request.JoinGroupRequest(
            group_id=self.group_id,
            session_timeout_ms=self.session_timeout_ms,
            rebalance_timeout_ms=self.rebalance_timeout_ms,
            member_id=self.member_id,
            group_instance_id=self.instance_id,
            protocol_type="consumer",
            protocols=[
                join_group_request.JoinGroupRequestProtocol(name=p, metadata=encode_subscription(self.topics))
                for p in self.protocols
            ],
        )
        self._pending = self.conn.send(11, req, version=self.join_version)

    def receive_join(self) -> Any:
        assert self._pending is not None
        cid, v = self._pending
        self._pending = None
        resp = self.conn.receive(11, v, cid)
        if resp.member_id:
            self.member_id = resp.member_id
        if resp.error_code == ErrorCode.NONE:
            self.generation = resp.generation_id
            self.leader = resp.leader
            self.protocol_name = resp.protocol_name
            self.members = list(resp.members)
        return resp

    def join(self, follow_member_id_required: bool = True) -> Any:
        self.send_join()
        resp = self.receive_join()
        if follow_member_id_required and resp.error_code == ErrorCode.MEMBER_ID_REQUIRED:
            self.send_join()
            resp = self.receive_join()
        return resp

    @property
    def is_leader(self) -> bool:
        return self.member_id == self.leader

    def send_sync(self, assignments: dict[str, dict[str, list[int]]] | None = None) -> None:
        req = sync_group_request.SyncGroupRequest(
            group_id=self.group_id,
            generation_id=self.generation,
            member_id=self.member_id,
            group_instance_id=self.instance_id,
            protocol_type="consumer",
            protocol_name=self.protocol_name,
            assignments=[
                sync_group_request.SyncGroupRequestAssignment(member_id=m, assignment=encode_assignment(a))
                for m, a in (assignments or {}).items()
            ],
        )
        self._pending = self.conn.send(14, req)

    def receive_sync(self) -> Any:
        assert self._pending is not None
        cid, v = self._pending
        self._pending = None
        return self.conn.receive(14, v, cid)

    def sync(self, assignments: dict[str, dict[str, list[int]]] | None = None) -> Any:
        self.send_sync(assignments)
        return self.receive_sync()

    def range_assignment(self, partitions: int) -> dict[str, dict[str, list[int]]]:
        """As leader: partitions of the first topic split in ranges over the members of this generation."""
        ids = sorted(m.member_id for m in self.members)
        out: dict[str, dict[str, list[int]]] = {m: {self.topics[0]: []} for m in ids}
        for p in range(partitions):
            out[ids[p * len(ids) // partitions]][self.topics[0]].append(p)
        return out

    def heartbeat(self, generation: int | None = None, member_id: str | None = None) -> int:
        req = heartbeat_request.HeartbeatRequest(
            group_id=self.group_id,
            generation_id=self.generation if generation is None else generation,
            member_id=self.member_id if member_id is None else member_id,
            group_instance_id=self.instance_id,
        )
        return self.conn.request(12, req).error_code

    def commit(
        self,
        offsets: dict[tuple[str, int], tuple[int, str]],
        generation: int | None = None,
        member_id: str | None = None,
        version: int | None = None,
    ) -> dict[tuple[str, int], int]:
        by_topic: dict[str, list[Any]] = {}
        for (t, p), (off, meta) in offsets.items():
            by_topic.setdefault(t, []).append(
                offset_commit_request.OffsetCommitRequestPartition(
                    partition_index=p, committed_offset=off, committed_metadata=meta
                )
            )
        req = offset_commit_request.OffsetCommitRequest(
            group_id=self.group_id,
            generation_id_or_member_epoch=self.generation if generation is None else generation,
            member_id=self.member_id if member_id is None else member_id,
            group_instance_id=self.instance_id,
            topics=[
                offset_commit_request.OffsetCommitRequestTopic(name=t, partitions=ps) for t, ps in by_topic.items()
            ],
        )
        # topics by name: v9 at most (v10 names them by id: tests/integration/test_offset_commit_topic_ids.py)
        resp = self.conn.request(8, req, version=min(self.conn.best_version(8), 9) if version is None else version)
        return {(t.name, p.partition_index): p.error_code for t in resp.topics for p in t.partitions}

    def leave(self) -> Any:
        v = self.conn.best_version(13)
        if v >= 3:
            req = leave_group_request.LeaveGroupRequest(
                group_id=self.group_id,
                members=[
                    leave_group_request.MemberIdentity(member_id=self.member_id, group_instance_id=self.instance_id)
                ],
            )
        else:
            req = leave_group_request.LeaveGroupRequest(group_id=self.group_id, member_id=self.member_id)
        return self.conn.request(13, req, version=v)

    def close(self) -> None:
        self.conn.close()


def fetch_offsets(bootstrap: str, group_id: str, topic: str, partitions: Iterable[int]) -> dict[int, tuple[int, str]]:
    """OffsetFetch (v7, one group): partition -> (offset, metadata); -1 offsets are left out."""
    with BrokerConnection.from_bootstrap(bootstrap, timeout=10) as conn:
        req = offset_fetch_request.OffsetFetchRequest(
            group_id=group_id,
            topics=[offset_fetch_request.OffsetFetchRequestTopic(name=topic, partition_indexes=list(partitions))],
        )
        resp = conn.request(9, req, version=7)
    assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
    out = {}
    for t in resp.topics:
        for p in t.partitions:
            assert p.error_code == ErrorCode.NONE, ErrorCode(p.error_code)
            if p.committed_offset >= 0:
                out[p.partition_index] = (p.committed_offset, p.metadata)
    return out


def describe_group(bootstrap: str, group_id: str) -> Any:
    with BrokerConnection.from_bootstrap(bootstrap, timeout=10) as conn:
        resp = conn.request(15, describe_groups_request.DescribeGroupsRequest(groups=[group_id]))
    return resp.groups[0]


def list_groups(bootstrap: str) -> dict[str, str]:
    with BrokerConnection.from_bootstrap(bootstrap, timeout=10) as conn:
        resp = conn.request(16, list_groups_request.ListGroupsRequest())
    assert resp.error_code == ErrorCode.NONE
    return {g.group_id: g.group_state for g in resp.groups}


def delete_offsets(bootstrap: str, group_id: str, topic: str, partitions: Iterable[int]) -> tuple[int, dict[int, int]]:
    with BrokerConnection.from_bootstrap(bootstrap, timeout=10) as conn:
        req = offset_delete_request.OffsetDeleteRequest(
            group_id=group_id,
            topics=[
                offset_delete_request.OffsetDeleteRequestTopic(
                    name=topic,
                    partitions=[
                        offset_delete_request.OffsetDeleteRequestPartition(partition_index=p) for p in partitions
                    ],
                )
            ],
        )
        resp = conn.request(47, req)
    return resp.error_code, {p.partition_index: p.error_code for t in resp.topics for p in t.partitions}


# --------------------------------------------------------------------------------------------
# consumers as child processes
# --------------------------------------------------------------------------------------------


class ClientHang(Exception):
    """A member's client library hung (see HangWatchdog in group_members/member.py)."""


def retry_on_client_hang(attempts: int = 3) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run a test again when a kafka-python member hung (a client bug, dpkp/kafka-python#3121);
    skip it, saying why, if that happens `attempts` times in a row. Other failures fail."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            hang: ClientHang | None = None
            for attempt in range(attempts):
                try:
                    return fn(*args, **kwargs)
                except ClientHang as e:
                    hang = e
                    print(f"\n[attempt {attempt + 1}] {e}")
            pytest.skip(f"the client hung {attempts} times (not a broker failure): {hang}")

        return run

    return decorate


def check_hangs(members: Iterable[MemberProc]) -> None:
    for m in members:
        for ev in m.snapshot():
            if ev["ev"] == "client-hang":
                raise ClientHang(
                    f"member {m.name}: its client's {ev.get('what', 'main thread')} made no progress for "
                    f"{ev['seconds']}s; stacks:\n{ev['stack']}"
                )


class MemberProc:
    """`group_members/member.py` in a child process; its JSON-line events are collected by a thread."""

    def __init__(self, name: str, bootstrap: str, topic: str, group_id: str, *args: str) -> None:
        self.name = name
        self.bootstrap, self.topic, self.group_id = bootstrap, topic, group_id
        self.argv = [
            sys.executable,
            str(MEMBER_SCRIPT),
            "--bootstrap",
            bootstrap,
            "--topic",
            topic,
            "--group",
            group_id,
            "--name",
            name,
            *args,
        ]
        self.events: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        self._stderr = tempfile.TemporaryFile()
        env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            self.argv, stdout=subprocess.PIPE, stderr=self._stderr, stdin=subprocess.DEVNULL, cwd=REPO_ROOT, env=env
        )
        self._reader = threading.Thread(target=self._read, name=f"member-{name}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                ev = json.loads(line)
            except ValueError:
                ev = {"ev": "garbage", "line": line.decode(errors="replace")}
            with self._cond:
                self.events.append(ev)
                self._cond.notify_all()
        with self._cond:
            self.events.append({"ev": "eof", "t": time.time()})
            self._cond.notify_all()

    def snapshot(self) -> list[dict[str, Any]]:
        with self._cond:
            return list(self.events)

    def wait_event(self, pred: Callable[[dict[str, Any]], bool], timeout: float, after: int = 0) -> dict[str, Any]:
        """The first event at index >= `after` that satisfies `pred`."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for ev in self.events[after:]:
                    if pred(ev):
                        return ev
                    if ev["ev"] == "client-hang":
                        check_hangs([self])
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"member {self.name}: no matching event within {timeout}s; events: {self.events[-15:]}\n"
                        f"stderr: {self.stderr()[-2000:]}"
                    )
                self._cond.wait(left)

    @property
    def assignment(self) -> list[int] | None:
        """The last assignment the member reported (None before its first)."""
        for ev in reversed(self.snapshot()):
            if ev["ev"] == "assignment":
                return ev["partitions"]
        return None

    def last_assignment_event(self) -> dict[str, Any] | None:
        for ev in reversed(self.snapshot()):
            if ev["ev"] == "assignment":
                return ev
        return None

    def count(self, kind: str) -> int:
        return sum(1 for ev in self.snapshot() if ev["ev"] == kind)

    def stderr(self) -> str:
        try:
            self._stderr.seek(0)
            return self._stderr.read().decode(errors="replace")
        except (OSError, ValueError):
            return ""

    def dump_stacks(self) -> str:
        """The member's thread stacks (it dumps them to stderr on SIGUSR1), for failure reports."""
        if self.proc.poll() is not None:
            return ""
        before = len(self.stderr())
        os.kill(self.proc.pid, signal.SIGUSR1)
        time.sleep(0.5)
        return self.stderr()[before:]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill9(self) -> float:
        t = time.time()
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        return t

    def terminate(self, timeout: float = 15.0) -> float:
        """SIGTERM: the member closes its consumer (LeaveGroup) and exits. Returns when it was sent."""
        t = time.time()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise AssertionError(f"member {self.name} did not exit within {timeout}s of SIGTERM") from None
        return t

    def cleanup(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._reader.join(timeout=5)
        self._stderr.close()


class MemberPool:
    """Starts MemberProcs and kills every one of them on exit."""

    def __init__(self, bootstrap: str, topic: str, group_id: str) -> None:
        self.bootstrap = bootstrap
        self.topic = topic
        self.group_id = group_id
        self.members: list[MemberProc] = []

    def start(self, name: str, *args: str) -> MemberProc:
        m = MemberProc(name, self.bootstrap, self.topic, self.group_id, *args)
        self.members.append(m)
        return m

    def __enter__(self) -> MemberPool:
        return self

    def __exit__(self, *exc: object) -> None:
        for m in self.members:
            m.cleanup()


def merged_positions(members: Iterable[MemberProc], since: float = 0.0) -> dict[int, int]:
    """Highest next-offset per partition reported by any of `members` in events after `since`."""
    members = list(members)
    check_hangs(members)
    out: dict[int, int] = {}
    for m in members:
        for ev in m.snapshot():
            if ev["ev"] == "consumed" and ev["t"] >= since:
                for p, off in ev["positions"].items():
                    out[int(p)] = max(out.get(int(p), 0), off)
    return out


def wait_split(members: list[MemberProc], partitions: int, timeout: float, every_member: bool = True) -> float:
    """Wait until the members' last reported assignments are disjoint and cover every partition
    (and, with `every_member`, each member owns at least one).

    Returns the wall-clock time of the newest assignment event among them (when the split
    became complete, as the members saw it)."""

    def done() -> float | None:
        check_hangs(members)
        evs = [m.last_assignment_event() for m in members]
        if any(e is None for e in evs):
            return None
        if every_member and not all(e["partitions"] for e in evs):  # type: ignore[index]
            return None
        flat = [p for e in evs for p in e["partitions"]]  # type: ignore[index]
        if len(flat) == len(set(flat)) and sorted(flat) == list(range(partitions)):
            return max(e["t"] for e in evs)  # type: ignore[index]
        return None

    try:
        return wait_until(done, timeout, what="a complete, disjoint assignment")
    except AssertionError as e:
        state = {m.name: m.assignment for m in members}
        keep = os.environ.get("GROUP_MEMBER_STDERR_DIR")  # keep whole member logs when debugging
        if keep:
            for m in members:
                Path(keep, f"{m.name}.stderr").write_text(m.stderr())
        # what a truncated CI log still shows comes first: the coordinator's view and each member's history
        histories = "\n".join(f"  {m.name}: {_assignment_history(m)}" for m in members)
        stacks = "\n".join(
            f"--- {m.name} ---\nstderr:\n{_quiet_stderr(m.stderr())[-6000:]}\nstacks:\n{m.dump_stacks()[-4000:]}"
            for m in members
        )
        raise AssertionError(
            f"{e}; last assignments: {state}\ncoordinator's view: {_coordinator_view(members[0])}\n"
            f"assignments reported (seconds since the member's first event, partitions):\n{histories}\n"
            f"member stderr and stacks:\n{stacks}"
        ) from None


# kafka-python 3.0.12 warns whenever an event-loop task runs over 0.1 s, which under CPU load is every
# second or two: in a failure report these lines would push out everything the client said that matters
_SELECTOR_NOISE = re.compile(r"^.*kafka\.net\.selector Task .* ran for .*$\n?", re.MULTILINE)


def _quiet_stderr(text: str) -> str:
    quiet, dropped = _SELECTOR_NOISE.subn("", text)
    return quiet + (f"[{dropped} kafka.net.selector 'task ran for' warnings left out]\n" if dropped else "")


def _assignment_history(m: MemberProc) -> list[tuple[float, list[int]]]:
    events = m.snapshot()
    start = events[0]["t"] if events and "t" in events[0] else 0.0
    return [(round(ev["t"] - start, 1), ev["partitions"]) for ev in events if ev["ev"] == "assignment"]


def _coordinator_view(m: MemberProc) -> str:
    """The group as its coordinator describes it (state, generation's protocol, each member's client and
    assignment): who the coordinator thinks is in the group, against what the members report."""
    try:
        g = describe_group(m.bootstrap, m.group_id)
    except Exception as e:  # the report must not hide the failure it reports
        return f"(DescribeGroups failed: {e!r})"
    members = {
        f"{gm.client_id}/{gm.member_id[-8:]}": decode_assignment(gm.member_assignment).get(m.topic, [])
        if gm.member_assignment
        else None
        for gm in g.members
    }
    return f"state={g.group_state} protocol={g.protocol_data} members={members}"


def stable_assignments(gb: Any, group: str, topic: str) -> list[list[int]] | None:
    """The assignments the coordinator holds for the group, if it is Stable right now."""

    def get(broker: Any) -> list[bytes] | None:
        g = broker.group_coordinator.groups.get(group)
        if g is None or g.state.value != "Stable":
            return None
        return [m.assignment for m in g.members.values()]

    raw = gb.call(get)
    if raw is None:
        return None
    return [decode_assignment(a).get(topic, []) for a in raw]


@pytest.fixture(scope="module", params=["ours", "apache"], name="broker")
def differential_broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A 4-partition-default EmbeddedBroker or the session's Apache Kafka 4.3.1, one module each: the
    differential fixture of the KIP-848, migration and group-config tests (import it by name). Both
    serve the consumer protocol by default (Kafka 4's group.coordinator.rebalance.protocols)."""
    if request.param == "ours":
        from broker_embedded import EmbeddedBroker

        with EmbeddedBroker(num_partitions=4) as b:
            yield b
        return
    yield request.getfixturevalue("apache_kafka")
