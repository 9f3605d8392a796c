"""Helpers for protocol-level integration tests: raw requests, record batches, CLI broker processes.

Everything here is blocking and bounded by timeouts; a `BrokerProcess` is always killed by its
context manager, whatever the test did.
"""

from __future__ import annotations

import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol import encode_request
from kafka_wire.protocol.messages import (
    create_topics_request,
    fetch_request,
    init_producer_id_request,
    list_offsets_request,
    metadata_request,
    produce_request,
)
from kafka_wire.records import decode_batches

REPO_ROOT = Path(__file__).resolve().parents[2]
LATEST = -1
EARLIEST = -2

# --------------------------------------------------------------------------------------------
# connections and framing
# --------------------------------------------------------------------------------------------


def connect(bootstrap: str, timeout: float = 10.0, negotiate: bool = True) -> BrokerConnection:
    return BrokerConnection.from_bootstrap(bootstrap, timeout=timeout, negotiate=negotiate)


def host_port(bootstrap: str) -> tuple[str, int]:
    host, port = bootstrap.split(",")[0].rsplit(":", 1)
    return host, int(port)


def raw_socket(bootstrap: str, timeout: float = 5.0) -> socket.socket:
    s = socket.create_connection(host_port(bootstrap), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def request_header_v1(api_key: int, version: int, correlation_id: int = 1, client_id: str = "t") -> bytes:
    cid = client_id.encode()
    return struct.pack(">hhih", api_key, version, correlation_id, len(cid)) + cid


def request_header_v2(api_key: int, version: int, correlation_id: int = 1, client_id: str = "t") -> bytes:
    return request_header_v1(api_key, version, correlation_id, client_id) + b"\x00"  # empty tagged fields


def frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def wait_closed(sock: socket.socket, timeout: float = 5.0) -> bytes:
    """Read until the peer closes; returns whatever arrived. Fails if it is still open at `timeout`."""
    sock.settimeout(timeout)
    got = bytearray()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return bytes(got)
        except TimeoutError as e:
            raise AssertionError(f"the broker kept the connection open for {timeout}s") from e
        if not chunk:
            return bytes(got)
        got += chunk
    raise AssertionError(f"the broker kept the connection open for {timeout}s")


def recv_frame(sock: socket.socket, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)

    def exact(n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("connection closed by the broker")
            buf += chunk
        return bytes(buf)

    (size,) = struct.unpack(">i", exact(4))
    return exact(size)


def send_request(sock: socket.socket, api_key: int, version: int, body: Any, correlation_id: int = 7) -> None:
    sock.sendall(encode_request(api_key, version, correlation_id, "raw", body))


# --------------------------------------------------------------------------------------------
# requests through BrokerConnection
# --------------------------------------------------------------------------------------------


def create_topic(conn: BrokerConnection, name: str, partitions: int = 1, configs: dict[str, str] | None = None) -> None:
    req = create_topics_request.CreateTopicsRequest(
        topics=[
            create_topics_request.CreatableTopic(
                name=name,
                num_partitions=partitions,
                replication_factor=1,
                configs=[
                    create_topics_request.CreatableTopicConfig(name=k, value=v) for k, v in (configs or {}).items()
                ],
            )
        ],
        timeout_ms=10000,
    )
    resp = conn.request(19, req)
    code = resp.topics[0].error_code
    assert code in (ErrorCode.NONE, ErrorCode.TOPIC_ALREADY_EXISTS), (code, resp.topics[0].error_message)


def metadata(conn: BrokerConnection, topics: Sequence[str] | None = None, auto_create: bool = False) -> Any:
    req = metadata_request.MetadataRequest(
        topics=None if topics is None else [metadata_request.MetadataRequestTopic(name=t) for t in topics],
        allow_auto_topic_creation=auto_create,
    )
    return conn.request(3, req)


def produce(
    conn: BrokerConnection,
    topic: str,
    partition: int,
    records: bytes | None,
    *,
    acks: int = -1,
    version: int | None = None,
) -> Any:
    """One partition's produce; returns its PartitionProduceResponse."""
    req = produce_request.ProduceRequest(
        acks=acks,
        timeout_ms=5000,
        topic_data=[
            produce_request.TopicProduceData(
                name=topic, partition_data=[produce_request.PartitionProduceData(index=partition, records=records)]
            )
        ],
    )
    if version is None:
        version = min(conn.best_version(0), 12)  # v13 names topics by id
    resp = conn.request(0, req, version=version)
    return resp.responses[0].partition_responses[0]


def list_offset(
    conn: BrokerConnection, topic: str, partition: int, timestamp: int = LATEST, isolation_level: int = 0
) -> int:
    """`isolation_level=1` (read_committed): LATEST is the last stable offset."""
    req = list_offsets_request.ListOffsetsRequest(
        replica_id=-1,
        isolation_level=isolation_level,
        topics=[
            list_offsets_request.ListOffsetsTopic(
                name=topic,
                partitions=[list_offsets_request.ListOffsetsPartition(partition_index=partition, timestamp=timestamp)],
            )
        ],
    )
    resp = conn.request(2, req)
    p = resp.topics[0].partitions[0]
    assert p.error_code == ErrorCode.NONE, ErrorCode(p.error_code)
    return int(p.offset)


def fetch_records(
    conn: BrokerConnection, topic: str, partition: int, offset: int = 0, max_rounds: int = 50
) -> list[Any]:
    """Every record from `offset` up to the high watermark (bounded number of fetches)."""
    out: list[Any] = []
    version = min(conn.best_version(1), 12)  # v13+ names topics by id
    for _ in range(max_rounds):
        req = fetch_request.FetchRequest(
            replica_id=-1,
            max_wait_ms=0,
            min_bytes=0,
            max_bytes=8 << 20,
            isolation_level=0,
            topics=[
                fetch_request.FetchTopic(
                    topic=topic,
                    partitions=[
                        fetch_request.FetchPartition(
                            partition=partition, fetch_offset=offset, partition_max_bytes=4 << 20
                        )
                    ],
                )
            ],
        )
        resp = conn.request(1, req, version=version)
        pd = resp.responses[0].partitions[0]
        assert pd.error_code == ErrorCode.NONE, ErrorCode(pd.error_code)
        data = bytes(pd.records or b"")
        new = [r for r in decode_batches(data) if r.offset >= offset]
        out.extend(new)
        if new:
            offset = new[-1].offset + 1
        if offset >= pd.high_watermark or not new:
            break
    return out


def init_producer_id(conn: BrokerConnection) -> tuple[int, int]:
    resp = conn.request(
        22, init_producer_id_request.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=-1)
    )
    assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
    return int(resp.producer_id), int(resp.producer_epoch)


def records(n: int, prefix: str = "v", start: int = 0) -> list[tuple[int, bytes, bytes, list[Any]]]:
    now = int(time.time() * 1000)
    return [(now, f"k{start + i}".encode(), f"{prefix}{start + i}".encode(), []) for i in range(n)]


# --------------------------------------------------------------------------------------------
# the CLI broker as a subprocess
# --------------------------------------------------------------------------------------------


class BrokerProcess:
    """`python -m broker_embedded ...` in a subprocess; killed (SIGKILL) on exit if still running."""

    def __init__(
        self,
        *args: str,
        log_dir: str | os.PathLike[str] | None = None,
        startup_timeout: float = 30.0,
        port: int | None = 0,
        env: dict[str, str] | None = None,
    ) -> None:
        argv = [sys.executable, "-m", "broker_embedded"]
        if port is not None:
            argv += ["--port", str(port)]
        if log_dir is not None:
            argv += ["--log-dir", str(log_dir)]
        argv += list(args)
        self.argv = argv
        self.startup_timeout = startup_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.bootstrap: str | None = None
        self.startup_seconds: float | None = None
        self.stdout_lines: list[str] = []
        self.stderr = ""
        self._stderr_file: Any = None
        self.env = None if env is None else {**os.environ, **env}

    def start(self) -> BrokerProcess:
        t0 = time.monotonic()
        # stderr goes to a file: a pipe nobody reads could fill up and block the broker
        self._stderr_file = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            self.argv,
            stdout=subprocess.PIPE,
            stderr=self._stderr_file,
            stdin=subprocess.DEVNULL,
            cwd=REPO_ROOT,
            env=self.env,
        )
        line = read_line(self.proc, self.startup_timeout)
        if line is None:
            err = self.kill_and_stderr()
            raise AssertionError(f"broker printed no bootstrap line within {self.startup_timeout}s; stderr:\n{err}")
        self.startup_seconds = time.monotonic() - t0
        self.stdout_lines.append(line)
        assert line.startswith("bootstrap.servers=127.0.0.1:"), line
        self.bootstrap = line.split("=", 1)[1].strip()
        return self

    def kill_and_stderr(self) -> str:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return ""
        self._drain()
        return self.stderr

    def read_stderr(self) -> str:
        self._stderr_file.seek(0)
        return self._stderr_file.read().decode(errors="replace")

    def kill9(self) -> None:
        assert self.proc is not None
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._drain()

    def terminate(self, timeout: float = 20.0, sig: int = signal.SIGTERM) -> int:
        """SIGTERM (or `sig`) and wait; returns the exit code (kills it if it does not stop in time)."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise AssertionError(f"broker did not stop within {timeout}s of SIGTERM") from None
        self._drain()
        return rc

    def _drain(self) -> None:
        assert self.proc is not None
        if self.proc.stdout is not None and not self.proc.stdout.closed:
            rest = self.proc.stdout.read().decode(errors="replace")
            self.stdout_lines.extend(line for line in rest.splitlines())
            self.proc.stdout.close()
        self.stderr = self.read_stderr()

    def __enter__(self) -> BrokerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        if self.proc is not None and self.proc.stdout is not None and not self.proc.stdout.closed:
            self.proc.stdout.close()
        if self._stderr_file is not None:
            self._stderr_file.close()


def read_line(proc: subprocess.Popen[bytes], timeout: float) -> str | None:
    """One line of the process's stdout, or None on timeout/EOF (never blocks past `timeout`)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    buf = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while b"\n" not in buf:
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(left):
                return None
            chunk = os.read(fd, 1)  # byte by byte: leave the rest of stdout in the pipe
            if not chunk:
                return None
            buf += chunk
    finally:
        sel.close()
    return buf.decode(errors="replace").rstrip("\n")


def partition_dir(log_dir: Path, topic: str, partition: int) -> Path:
    return Path(log_dir) / f"{topic}-{partition}"


def last_segment(log_dir: Path, topic: str, partition: int) -> Path:
    logs = sorted(partition_dir(log_dir, topic, partition).glob("*.log"))
    assert logs, f"no segment in {partition_dir(log_dir, topic, partition)}"
    return logs[-1]


def batch_positions(data: bytes) -> list[tuple[int, int, int]]:
    """(position, size, base offset) of each whole batch in segment bytes."""
    out = []
    pos = 0
    while pos + 12 <= len(data):
        base, length = struct.unpack_from(">qi", data, pos)
        size = length + 12
        if pos + size > len(data):
            break
        out.append((pos, size, base))
        pos += size
    return out


def flatten(items: Iterable[Iterable[Any]]) -> list[Any]:
    return [x for it in items for x in it]


def consume_all(
    bootstrap: str, topic: str, partitions: Iterable[int], expected: int, timeout: float = 20.0
) -> list[tuple[int, int, bytes | None, bytes | None]]:
    """(partition, offset, key, value) of every record, read with a confluent-kafka consumer
    assigned to `partitions` from offset 0 (no group membership), until `expected` are read or
    `timeout` passes."""
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"reader-{time.monotonic_ns()}",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "enable.partition.eof": False,
        }
    )
    out: list[tuple[int, int, bytes | None, bytes | None]] = []
    try:
        c.assign([TopicPartition(topic, p, 0) for p in partitions])
        deadline = time.monotonic() + timeout
        while len(out) < expected and time.monotonic() < deadline:
            for m in c.consume(num_messages=1000, timeout=0.2):
                if m.error() is not None:
                    continue
                out.append((m.partition(), m.offset(), m.key(), m.value()))
        # a short extra poll: anything beyond `expected` (a duplicate) shows up too
        for m in c.consume(num_messages=1000, timeout=0.3):
            if m.error() is None:
                out.append((m.partition(), m.offset(), m.key(), m.value()))
    finally:
        c.close()
    return out
