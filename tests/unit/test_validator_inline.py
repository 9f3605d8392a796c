"""Which produced batches the event loop checks itself and which go to the validation pool
(`validate_records_for_append(..., inline=True)` raising `OffloadRequired`), issue 27."""

from __future__ import annotations

import os
import threading
import time

import pytest

from broker_embedded.log import validator
from broker_embedded.log.validator import AppendPolicy, OffloadRequired, validate_records_for_append
from kafka_wire import compression
from kafka_wire.compression import GZIP, LZ4, ZSTD
from kafka_wire.errors import CorruptRecordError
from kafka_wire.records import build_batch

NOW = int(time.time() * 1000)
POLICY = AppendPolicy(max_message_bytes=1 << 30, compacted=False)


def _batch(total_value_bytes: int, codec: int = 0, value_size: int = 1000) -> memoryview:
    n = max(1, total_value_bytes // value_size)
    return memoryview(build_batch([(NOW, b"k", bytes(value_size), [])] * n, compression=codec))


def test_small_batches_are_checked_inline() -> None:
    for codec in (0, GZIP, LZ4, ZSTD):
        assert validate_records_for_append(_batch(64 << 10, codec), POLICY, NOW, inline=True).header.record_count


def test_large_uncompressed_batch_goes_to_the_pool() -> None:
    big = _batch(validator.INLINE_MAX_BATCH_BYTES + 10_000)
    with pytest.raises(OffloadRequired):
        validate_records_for_append(big, POLICY, NOW, inline=True)
    n = (validator.INLINE_MAX_BATCH_BYTES + 10_000) // 1000
    assert validate_records_for_append(big, POLICY, NOW).header.record_count == n  # the pool's check passes


@pytest.mark.parametrize("codec", [GZIP, LZ4, ZSTD])
def test_compressed_batch_inflating_past_the_inline_budget_goes_to_the_pool(codec: int) -> None:
    # compresses to a few KiB (under INLINE_MAX_COMPRESSED_BYTES) but inflates past the inline budget
    batch = _batch(2 * validator.INLINE_MAX_DECOMPRESSED_BYTES, codec)
    assert len(batch) < validator.INLINE_MAX_COMPRESSED_BYTES
    with pytest.raises(OffloadRequired):
        validate_records_for_append(batch, POLICY, NOW, inline=True)
    validate_records_for_append(batch, POLICY, NOW)  # valid: the pool's full-size check passes


def test_large_compressed_batch_goes_to_the_pool_before_any_inflate(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    inner = compression.decompressed_bounded

    def counting(codec: int, data: object, limit: int) -> object:
        calls.append(limit)
        return inner(codec, data, limit)

    import kafka_wire.records as records_module

    monkeypatch.setattr(records_module, "decompressed_bounded", counting)
    rnd = memoryview(build_batch([(NOW, b"k", os.urandom(50_000), [])] * 2, compression=GZIP))
    assert len(rnd) > validator.INLINE_MAX_COMPRESSED_BYTES
    with pytest.raises(OffloadRequired):
        validate_records_for_append(rnd, POLICY, NOW, inline=True)
    assert calls == []


def test_faults_found_inline_are_answered_inline() -> None:
    bad = bytearray(_batch(1000))
    bad[-1] ^= 0xFF  # CRC mismatch: CORRUPT_MESSAGE without a hop
    with pytest.raises(CorruptRecordError):
        validate_records_for_append(memoryview(bad), POLICY, NOW, inline=True)


def test_large_inflates_run_one_at_a_time() -> None:
    """Two threads inflating past _KEEP_RESIDENT do not overlap: the memory of one bomb at a time."""
    data = compression.compress(ZSTD, bytes(40 << 20))
    inside = 0
    overlap = []
    lock = threading.Lock()

    def inflate() -> None:
        nonlocal inside
        for _ in range(3):
            with compression.decompressed_bounded(ZSTD, data, 64 << 20) as (_out, n):
                assert n == 40 << 20
                with lock:
                    inside += 1
                    overlap.append(inside)
                time.sleep(0.01)
                with lock:
                    inside -= 1

    threads = [threading.Thread(target=inflate) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert overlap and max(overlap) == 1
