"""Shared helpers for the log tests (no tests here)."""

from __future__ import annotations

from pathlib import Path

from broker_embedded.log import Log, LogConfig
from kafka_wire.records import build_batch, decode_batches, iter_batches


class FakeClock:
    def __init__(self, now_ms: int = 1_700_000_000_000) -> None:
        self.now = now_ms

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


def batch(
    n: int = 1,
    ts: int = 1000,
    *,
    value_size: int = 10,
    key: bytes | None = None,
    compression: int = 0,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    is_transactional: bool = False,
    tag: int = 0,
) -> bytearray:
    """A client-side batch of `n` records (offsets 0..n-1), timestamps ts, ts+1, ..."""
    recs = [(ts + i, key, bytes([65 + (tag + i) % 26]) * value_size, None) for i in range(n)]
    return bytearray(
        build_batch(
            recs,
            compression=compression,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            is_transactional=is_transactional,
        )
    )


def open_log(tmp_path: Path, name: str = "topic-0", clock: FakeClock | None = None, **cfg: int | str) -> Log:
    config = LogConfig.from_dict({k.replace("_", "."): v for k, v in cfg.items()})
    return Log(tmp_path / name, config, clock=clock)


def offsets_of(data: bytes | bytearray | memoryview) -> list[int]:
    return [r.offset for r in decode_batches(bytes(data))]


def batch_bases(data: bytes | bytearray | memoryview) -> list[int]:
    return [h.base_offset for _, h in iter_batches(bytes(data))]


def crash(log: Log) -> None:
    """Simulate kill -9: close descriptors, persist nothing (in-memory index entries are lost)."""
    for seg in log.segments:
        seg.close_handles()
    log._closed = True
