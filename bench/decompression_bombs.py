"""A bystander producer's latency while clients send decompression bombs (issue 27).

    .venv/bin/python -m bench.decompression_bombs                               # this checkout
    .venv/bin/python -m bench.decompression_bombs --tree base=/tmp/base --tree after=. --rounds 3

One broker process per run (``python -m broker_embedded`` of the tree, on loopback). A confluent-kafka
producer (acks=all, one 100 B record at a time, each waited for, at most one every ``--interval-ms``)
measures every produce's latency (produce() to its delivery report): first alone for
``--quiet-seconds``, then while ``--bombers`` raw-socket clients each send ``--bombs``
decompression bombs spread over ``--seconds`` (one at a time per client, all clients in
parallel). A bomb is a zstd batch of about 130 KiB whose records section inflates to ``--bomb-gib``
GiB (concatenated zstd frames of 64 MiB of zeros each); the broker must refuse it with
CORRUPT_MESSAGE (2). Reported: the bystander's p50/p99/max while the bombs run (and alone), the
bombs refused, their answer times, and the broker's RSS before, at its peak (sampled every 20 ms)
and after. ``--tree LABEL=DIR`` (repeatable) runs the broker of another checkout, e.g. a
``git worktree`` of the commit before a change; runs alternate between trees, order swapped every
round. Stops by itself: bounded counts, every wait has a deadline.
"""

from __future__ import annotations

import argparse
import shlex
import socket
import struct
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cramjam
import crc32c
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from bench.peers_side_by_side import rss_mib
from bench.report import load_average
from bench.targets import REPO_ROOT, BrokerProcess
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol import decode_response, encode_request
from kafka_wire.protocol.messages import produce_request
from kafka_wire.records import build_batch

TOPIC = "bombs"
BYSTANDER_TOPIC = "bystander"
_FRAME_MIB = 64


def bomb_batch(gib: float) -> bytes:
    """A v2 batch of one record, zstd, whose records section inflates to `gib` GiB of zeros."""
    frame = bytes(cramjam.zstd.compress(bytes(_FRAME_MIB << 20), level=3))
    section = frame * max(1, round(gib * 1024 / _FRAME_MIB))
    head = bytearray(build_batch([(int(time.time() * 1000), b"k", b"v", [])], compression=4)[:61])
    batch = head + section
    struct.pack_into(">i", batch, 8, len(batch) - 12)  # batchLength
    struct.pack_into(">I", batch, 17, crc32c.crc32c(memoryview(batch)[21:]))  # a valid CRC: only the size is wrong
    return bytes(batch)


def _produce_frame(topic: str, records: bytes, correlation_id: int) -> bytes:
    req = produce_request.ProduceRequest(
        acks=-1,
        timeout_ms=30_000,
        topic_data=[
            produce_request.TopicProduceData(
                name=topic, partition_data=[produce_request.PartitionProduceData(index=0, records=records)]
            )
        ],
    )
    return encode_request(0, 9, correlation_id, "bomber", req)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise ConnectionError("the broker closed the connection")
        out += chunk
    return bytes(out)


@dataclass
class Bomber:
    bootstrap: str
    bomb: bytes
    count: int
    seconds: float
    codes: list[int] = field(default_factory=list)
    answer_s: list[float] = field(default_factory=list)
    error: str | None = None

    def run(self, start: float) -> None:
        host, port = self.bootstrap.rsplit(":", 1)
        try:
            with socket.create_connection((host, int(port)), timeout=60) as s:
                for i in range(self.count):
                    due = start + i * self.seconds / self.count
                    time.sleep(max(0.0, due - time.monotonic()))
                    t0 = time.monotonic()
                    s.sendall(_produce_frame(TOPIC, self.bomb, i + 1))
                    (size,) = struct.unpack(">i", _recv_exact(s, 4))
                    _, resp = decode_response(0, 9, _recv_exact(s, size))
                    self.answer_s.append(time.monotonic() - t0)
                    self.codes.append(resp.responses[0].partition_responses[0].error_code)
        except (OSError, ConnectionError) as e:
            self.error = repr(e)


def _bystander_latencies(producer: Producer, until: threading.Event | float, interval_s: float) -> list[float]:
    """Produce one record at a time, at most one every `interval_s` (at once when the last one took
    longer), until `until` (a deadline or an event); each produce's latency in ms, from produce()
    to its delivery report. The pace bounds the count, so a few stalls show in the p99 too."""
    out: list[float] = []
    value = b"x" * 100
    done: list[Any] = []
    due = time.perf_counter()
    while not (until.is_set() if isinstance(until, threading.Event) else time.monotonic() >= until):
        time.sleep(max(0.0, due - time.perf_counter()))
        done.clear()
        t0 = time.perf_counter()
        producer.produce(BYSTANDER_TOPIC, value=value, on_delivery=lambda err, _msg: done.append(err))
        deadline = time.monotonic() + 60
        while not done and time.monotonic() < deadline:
            producer.poll(0.0005)
        if not done or done[0] is not None:
            raise RuntimeError(f"bystander produce failed: {done}")
        now = time.perf_counter()
        out.append((now - t0) * 1000)
        due = max(due + interval_s, now)
    return out


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def one_run(label: str, tree: Path, args: argparse.Namespace, bomb: bytes) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-bombs-") as work:
        command = [
            sys.executable,
            "-c",
            f"import runpy, sys; sys.path.insert(0, {str(tree)!r}); "
            "runpy.run_module('broker_embedded', run_name='__main__')",
        ]
        proc = BrokerProcess("pykafka", Path(work), pykafka_command=command)
        bootstrap = proc.start(timeout=60)
        pid = proc._proc.pid  # type: ignore[union-attr]
        try:
            admin = AdminClient({"bootstrap.servers": bootstrap})
            for f in admin.create_topics([NewTopic(n, 1, 1) for n in (TOPIC, BYSTANDER_TOPIC)]).values():
                f.result(30)
            producer = Producer(
                {"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0, "enable.idempotence": False}
            )
            interval = args.interval_ms / 1000
            _bystander_latencies(producer, time.monotonic() + 1.0, interval)  # connect, metadata, warm-up
            quiet = _bystander_latencies(producer, time.monotonic() + args.quiet_seconds, interval)
            rss_before = rss_mib(pid)
            peak = [rss_before]
            stop_sampling = threading.Event()

            def sample() -> None:
                while not stop_sampling.wait(0.02):
                    peak.append(rss_mib(pid))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            bombers = [Bomber(bootstrap, bomb, args.bombs, args.seconds) for _ in range(args.bombers)]
            start = time.monotonic() + 0.2
            threads = [threading.Thread(target=b.run, args=(start,), daemon=True) for b in bombers]
            for t in threads:
                t.start()
            finished = threading.Event()

            def waiter() -> None:
                for t in threads:
                    t.join(args.seconds + 300)
                finished.set()

            threading.Thread(target=waiter, daemon=True).start()
            during = _bystander_latencies(producer, finished, interval)
            time.sleep(1.0)
            stop_sampling.set()
            sampler.join(5)
            rss_after = rss_mib(pid)
            producer.flush(5)
            del producer, admin  # closed before the broker stops (no disconnect noise)
        finally:
            proc.stop()
    codes = [c for b in bombers for c in b.codes]
    answers = [s for b in bombers for s in b.answer_s]
    return {
        "label": label,
        "quiet_p50": _pct(quiet, 0.5),
        "quiet_p99": _pct(quiet, 0.99),
        "p50": _pct(during, 0.5),
        "p99": _pct(during, 0.99),
        "max": max(during, default=float("nan")),
        "produces": len(during),
        "refused": sum(c == ErrorCode.CORRUPT_MESSAGE for c in codes),
        "bombs": args.bombers * args.bombs,
        "answer_p50_s": _pct(answers, 0.5),
        "answer_max_s": max(answers, default=float("nan")),
        "rss_before": rss_before,
        "rss_peak": max(peak),
        "rss_after": rss_after,
        "errors": [b.error for b in bombers if b.error],
    }


ROW = (
    "| {label} | {quiet_p50:.1f} / {quiet_p99:.1f} | {p50:.1f} | {p99:.1f} | {max:.1f} | {produces} | "
    "{refused}/{bombs} | {answer_p50_s:.2f} / {answer_max_s:.2f} | "
    "{rss_before:.0f} / {rss_peak:.0f} / {rss_after:.0f} | {load} |"
)
HEADER = (
    "| tree | alone p50 / p99 ms | bombs: p50 ms | p99 ms | max ms | produces | CORRUPT_MESSAGE | "
    "bomb answer p50 / max s | RSS before / peak / after MiB | load (1/5/15 min) |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", action="append", default=[], help="LABEL=DIR: a checkout whose broker to run")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--bombers", type=int, default=6)
    ap.add_argument("--bombs", type=int, default=4, help="bombs per client")
    ap.add_argument("--seconds", type=float, default=20.0, help="each client's bombs are spread over this")
    ap.add_argument("--bomb-gib", type=float, default=4.0)
    ap.add_argument("--quiet-seconds", type=float, default=3.0)
    ap.add_argument("--interval-ms", type=float, default=10.0, help="the bystander's pace (bounds its count)")
    args = ap.parse_args(argv)
    trees = [(t.split("=", 1)[0], Path(t.split("=", 1)[1]).resolve()) for t in args.tree] or [("this", REPO_ROOT)]
    print("command:", shlex.join([sys.executable, "-m", "bench.decompression_bombs", *(argv or sys.argv[1:])]))
    bomb = bomb_batch(args.bomb_gib)
    print(f"bomb: {len(bomb) / 1024:.0f} KiB on the wire, inflates to {args.bomb_gib:g} GiB; load {load_average()}")
    print(HEADER, flush=True)
    for r in range(args.rounds):
        order = trees if r % 2 == 0 else trees[::-1]
        for label, tree in order:
            load = load_average()
            res = one_run(label, tree, args, bomb)
            print(ROW.format(load=load, **res), flush=True)
            if res["errors"]:
                print("  bomber errors:", res["errors"], flush=True)


if __name__ == "__main__":
    main()
