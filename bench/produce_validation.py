"""CPU cost of the produce path's batch validation (`broker_embedded.log.validator`), in process.

    .venv/bin/python -m bench.produce_validation

For 1 MiB batches of 100 B and 1 KiB values, uncompressed and zstd: CPU seconds per GB of values of
`validate_records_for_append` on a compacted and on a deleting topic, and of a Python decode of the
batch (`decode_batch`, what a compacted topic paid on every produce before the record walk counted
keyless records). Best of 3 rounds, `time.process_time`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial

from broker_embedded.log.validator import AppendPolicy, validate_records_for_append
from kafka_wire.records import build_batch, decode_batch


def _cpu_per_call(f: Callable[[], object], calls: int) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(calls):
            f()
        best = min(best, (time.process_time() - t0) / calls)
    return best


def main() -> int:
    now = int(time.time() * 1000)
    print("| value size | codec | validate, compacted topic | validate, delete topic | Python decode of the batch |")
    print("|---:|---|---:|---:|---:|")
    for size in (100, 1024):
        for codec, name in ((0, "none"), (4, "zstd")):
            n = (1 << 20) // (size + 20)
            records = [(now, b"key-%08d" % i, bytes(size), []) for i in range(n)]
            batch = memoryview(bytearray(build_batch(records, compression=codec)))
            gb = n * size / 1e9
            cells = []
            for compacted in (True, False):
                policy = AppendPolicy(max_message_bytes=1 << 30, compacted=compacted)
                cells.append(_cpu_per_call(partial(validate_records_for_append, batch, policy, now), 20) / gb)
            cells.append(_cpu_per_call(partial(decode_batch, batch, 0, verify_crc=False), 5) / gb)
            print(f"| {size} B | {name} | " + " | ".join(f"{c:.2f} CPU-s/GB" for c in cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
