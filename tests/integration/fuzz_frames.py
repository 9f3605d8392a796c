"""Hypothesis strategies for request frames of every API key and version the broker advertises,
built from the same Kafka JSON specs the codecs are generated from (kafka_wire.protocol.generator),
plus byte-level mutations of valid frames; and a harness that sends them to a broker while a
bystander producer/consumer checks it keeps serving. Used by tests/integration/test_hardening_fuzz.py
(bounded, CI) and bench/fuzz_broker.py (long runs)."""

from __future__ import annotations

import importlib
import logging
import os
import random
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from kafka_wire.protocol import encode_request
from kafka_wire.protocol.generator import FIXED_FORMATS, FieldSpec, SpecModel, StructSpec, default_spec_dir, load_spec
from kafka_wire.protocol.messages import REQUESTS
from kafka_wire.records import build_batch

# Names the fuzzer aims at (so requests hit real topics/groups sometimes); never the bystander's.
FUZZ_TOPICS = ["fuzz-a", "fuzz-b", "__consumer_offsets", "", "x" * 250]
FUZZ_GROUPS = ["fuzz-g", ""]

_INT_BOUNDS = {"int8": (-(2**7), 2**7 - 1), "int16": (-(2**15), 2**15 - 1), "uint16": (0, 2**16 - 1)}
_INT_BOUNDS |= {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}


def _int_strategy(kind: str, name: str) -> st.SearchStrategy[int]:
    lo, hi = _INT_BOUNDS[kind]
    edges = [v for v in (0, 1, -1, 2, lo, hi, lo + 1, hi - 1) if lo <= v <= hi]
    small = st.integers(max(lo, -3), min(hi, 20))
    lname = name.lower()
    if "timeout" in lname or "wait" in lname or lname.endswith("ms"):
        # huge waits would only park requests in the purgatory: mostly short ones
        return st.one_of(st.integers(max(lo, -1), min(hi, 200)), st.sampled_from(edges))
    if "partitions" in lname or "count" in lname:
        return st.one_of(small, st.sampled_from(edges))
    return st.one_of(small, st.sampled_from(edges), st.integers(lo, hi))


def _records() -> st.SearchStrategy[bytes]:
    valid = st.builds(
        lambda n, v, pid: (
            build_batch([(0, None, v, [])] * n, producer_id=pid, producer_epoch=0, base_sequence=0)
            if pid >= 0
            else build_batch([(0, None, v, [])] * n)
        ),
        st.integers(1, 3),
        st.binary(max_size=32),
        st.sampled_from([-1, -1, 1, 7]),
    )
    return st.one_of(valid, st.binary(max_size=80))


class SpecStrategies:
    """Strategies for the request bodies of one JSON spec, per version."""

    def __init__(self, model: SpecModel) -> None:
        self.model = model
        self.module = importlib.import_module(f"kafka_wire.protocol.messages.{_module_name(model.name)}")

    def value(self, f: FieldSpec, elem: str, v: int) -> st.SearchStrategy[Any]:
        nullable = v in f.nullable_versions
        if elem == "bool":
            base: st.SearchStrategy[Any] = st.booleans()
        elif elem in _INT_BOUNDS:
            base = _int_strategy(elem, f.name)
        elif elem == "float64":
            base = st.floats(allow_nan=True)
        elif elem == "uuid":
            base = st.one_of(st.just(b"\0" * 16), st.binary(min_size=16, max_size=16))
        elif elem == "string":
            lname = f.name.lower()
            names = FUZZ_GROUPS if "group" in lname else FUZZ_TOPICS
            base = st.one_of(st.sampled_from(names), st.text(max_size=12))
        elif elem == "bytes":
            base = st.binary(max_size=48)
        elif elem == "records":
            base = _records()
        else:
            assert f.struct is not None
            base = self.struct(f.struct, v)
        if nullable and not f.is_array:
            return st.one_of(st.none(), base)
        return base

    def struct(self, s: StructSpec, v: int) -> st.SearchStrategy[Any]:
        cls = getattr(self.module, s.name)
        fields: dict[str, st.SearchStrategy[Any]] = {}
        for f in s.fields:
            if v not in f.versions:
                continue
            if f.is_array:
                items = st.lists(self.value(f, f.elem_type, v), max_size=3)
                fields[f.py_name] = st.one_of(st.none(), items) if v in f.nullable_versions else items
            else:
                fields[f.py_name] = self.value(f, f.type, v)
        return st.fixed_dictionaries(fields).map(lambda kw: cls(**kw))

    def body(self, v: int) -> st.SearchStrategy[Any]:
        return self.struct(self.model.root, v)


def _module_name(spec_name: str) -> str:
    from kafka_wire.protocol.generator import module_name

    return module_name(spec_name)


def load_request_specs() -> dict[int, SpecStrategies]:
    out: dict[int, SpecStrategies] = {}
    for path in sorted(default_spec_dir().glob("*Request.json")):
        model = SpecModel(load_spec(path))
        if model.kind == "request" and model.api_key is not None and model.api_key in REQUESTS:
            out[model.api_key] = SpecStrategies(model)
    return out


def valid_frames(advertised: dict[int, tuple[int, int]]) -> st.SearchStrategy[bytes]:
    """Well-formed frames of every advertised API key and version (one strategy per pair, built
    once: a flatmap would rebuild the nested strategies on every draw)."""
    specs = load_request_specs()
    pairs: list[st.SearchStrategy[bytes]] = []
    for key in sorted(k for k in advertised if k in specs):
        lo, hi = advertised[key]
        for v in range(max(lo, specs[key].model.valid.lo), min(hi, specs[key].model.valid.hi) + 1):
            pairs.append(
                st.builds(
                    lambda body, cid, client, key=key, v=v: encode_request(key, v, cid, client, body),
                    specs[key].body(v),
                    st.integers(0, 2**31 - 1),
                    st.sampled_from(["fuzz", None, ""]),
                )
            )
    return st.one_of(pairs)


def mutate(frame: bytes, rng: random.Random) -> bytes:
    """A valid frame with byte-level damage (plain `random`: several per hypothesis example keep
    the fuzzer at thousands of frames a second); the size prefix mostly still matches the body."""
    body = bytearray(frame[4:])
    for _ in range(rng.randint(1, 3)):
        if not body:
            break
        pos = rng.randrange(len(body))
        kind = rng.randrange(5)
        if kind == 0:
            body[pos] ^= 1 << rng.randrange(8)
        elif kind == 1:
            # a length or count: huge, negative, or just wrong
            value = rng.choice([0x7FFFFFFF, -1, -2, 0x10000, 0x7FFF])
            body[pos : pos + 4] = value.to_bytes(4, "big", signed=True)
        elif kind == 2:
            del body[pos:]
        elif kind == 3:
            body[pos:pos] = rng.randbytes(rng.randint(1, 8))
        else:
            body[pos : pos + 5] = b"\xff\xff\xff\xff\x0f"  # the largest uvarint
    size = len(body) if rng.randrange(10) else rng.randint(0, len(body) + 10)
    return size.to_bytes(4, "big") + bytes(body)


# --- the harness --------------------------------------------------------------------------------


class ErrorLogCapture(logging.Handler):
    """Records the broker's ERROR lines that carry a traceback (a handler crash), and all
    CRITICAL ones."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.CRITICAL:
            self.records.append(self.format(record))


class FrameSender:
    """Sends frames over a connection that is replaced when the broker closes it (or after
    `per_connection` frames), draining responses without waiting for them."""

    def __init__(self, host: str, port: int, per_connection: int = 25) -> None:
        self.addr = (host, port)
        self.per_connection = per_connection
        self.sock: socket.socket | None = None
        self.sent_on_sock = 0
        self.frames_sent = 0
        self.connections = 0
        self.closed_by_broker = 0

    def _connect(self) -> socket.socket:
        if self.sock is not None:
            self.sock.close()
        self.sock = socket.create_connection(self.addr, timeout=5)
        self.sock.setblocking(False)
        self.sent_on_sock = 0
        self.connections += 1
        return self.sock

    def _drain(self, sock: socket.socket) -> bool:
        """Read what is there; False if the broker closed the connection."""
        while True:
            try:
                data = sock.recv(1 << 20)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not data:
                return False

    def send(self, frame: bytes) -> None:
        sock = self.sock
        if sock is None or self.sent_on_sock >= self.per_connection:
            sock = self._connect()
        view = memoryview(frame)
        deadline = time.monotonic() + 2
        while view and time.monotonic() < deadline:
            try:
                view = view[sock.send(view) :]
            except BlockingIOError:
                if not self._drain(sock):
                    break
                time.sleep(0.001)
            except OSError:
                break
        self.frames_sent += 1
        self.sent_on_sock += 1
        if not self._drain(sock):
            self.closed_by_broker += 1
            self._connect()

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


@dataclass
class Bystander:
    """A confluent-kafka producer (acks=all, idempotent) writing one record every `interval`
    seconds and checking each is acknowledged; `verify()` then reads them all back."""

    bootstrap: str
    interval: float = 0.05
    topic: str = field(default_factory=lambda: f"bystander-{uuid.uuid4().hex[:8]}")
    acked: list[bytes] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        from confluent_kafka import Producer
        from confluent_kafka.admin import AdminClient, NewTopic

        admin = AdminClient({"bootstrap.servers": self.bootstrap})
        admin.create_topics([NewTopic(self.topic, 1, 1)])[self.topic].result(timeout=30)
        self._producer = Producer(
            {"bootstrap.servers": self.bootstrap, "enable.idempotence": True, "linger.ms": 0, "acks": "all"}
        )
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bystander", daemon=True)
        self._sent = 0

    def start(self) -> Bystander:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            value = f"b-{self._sent:07d}".encode()
            self._sent += 1
            t0 = time.monotonic()

            def done(err: Any, msg: Any, t0: float = t0, value: bytes = value) -> None:
                if err is None:
                    self.acked.append(value)
                    self.latencies.append(time.monotonic() - t0)
                else:
                    self.failed.append(str(err))

            self._producer.produce(self.topic, value, on_delivery=done)
            self._producer.poll(0)
            time.sleep(self.interval)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        self._producer.flush(30)

    def verify(self) -> list[str]:
        """Problems found: failed deliveries, acknowledged records missing or duplicated."""
        from confluent_kafka import Consumer

        problems = [f"delivery failed: {e}" for e in self.failed[:5]]
        if self._sent and not self.acked:
            problems.append("no record acknowledged")
        c = Consumer(
            {
                "bootstrap.servers": self.bootstrap,
                "group.id": f"verify-{uuid.uuid4().hex[:6]}",
                "auto.offset.reset": "earliest",
                "enable.auto.commit": False,
            }
        )
        c.subscribe([self.topic])
        seen: list[bytes] = []
        deadline = time.monotonic() + 60
        while len(seen) < len(self.acked) and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and not m.error():
                seen.append(m.value())
        c.close()
        if sorted(seen) != sorted(self.acked):
            problems.append(f"read back {len(seen)} records, {len(self.acked)} acknowledged")
        return problems


def rss_mb() -> float:
    with open(f"/proc/{os.getpid()}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def broker_configs() -> dict[str, Any]:
    """A broker that fuzzing cannot make slow: few partitions per creation, short waits."""
    return {
        "num.partitions": 1,
        "max.broker.partitions": 400,
        "socket.request.read.timeout.ms": 2000,
        "group.min.session.timeout.ms": 1,
    }


Check = Callable[[], None]
_ = FIXED_FORMATS  # the spec loader's type table, kept importable for callers
