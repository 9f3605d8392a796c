"""CPU cost of the broker's request path for Produce and Fetch, in process, without sockets.

Drives the registered handlers (`broker_embedded.apis.HANDLERS[0]` / `[1]`) of a `Broker` on a
temporary log dir with small requests, so the per-request work of the handler, the replica
manager, the partition and the log dominates, and reports CPU time per request
(`time.process_time`): less sensitive than wall time to other processes on a shared machine,
which is what an A/B of two trees on a loaded machine needs (issue 19 moves 2-3 moved this path).

Usage (from the tree to measure; run it alternately in both trees)::

    .venv/bin/python -m bench.request_path --requests 20000 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from broker_embedded import apis
from broker_embedded.broker import Broker
from broker_embedded.config import BrokerConfig
from kafka_wire.protocol.messages import fetch_request as frq
from kafka_wire.protocol.messages import produce_request as prq
from kafka_wire.records import build_batch


def _ctx(api_version: int) -> Any:
    # handlers read only ctx.api_version on these paths
    return SimpleNamespace(api_version=api_version, header=SimpleNamespace(api_version=api_version), session=None)


async def _measure(broker: Broker, requests: int, records_per_batch: int, value_size: int) -> dict[str, float]:
    broker.start(asyncio.get_running_loop())
    broker.create_topic("bench", 1, 1)
    value = b"x" * value_size
    batches = [
        memoryview(bytearray(build_batch([(int(time.time() * 1000), None, value, [])] * records_per_batch)))
        for _ in range(64)
    ]
    produce, fetch = apis.HANDLERS[0], apis.HANDLERS[1]
    pctx, fctx = _ctx(9), _ctx(12)
    t0 = time.process_time()
    for i in range(requests):
        req = prq.ProduceRequest(
            acks=1,
            timeout_ms=30_000,
            topic_data=[
                prq.TopicProduceData(
                    name="bench", partition_data=[prq.PartitionProduceData(index=0, records=batches[i % 64])]
                )
            ],
        )
        produce.handle(broker, pctx, req)
    produce_cpu = time.process_time() - t0
    t0 = time.process_time()
    offset = 0
    for _ in range(requests):
        req = frq.FetchRequest(
            replica_id=-1,
            max_wait_ms=0,
            min_bytes=1,
            max_bytes=1 << 20,
            isolation_level=0,
            topics=[
                frq.FetchTopic(
                    topic="bench",
                    partitions=[frq.FetchPartition(partition=0, fetch_offset=offset, partition_max_bytes=1 << 16)],
                )
            ],
        )
        resp = fetch.handle(broker, fctx, req)
        offset = (offset + records_per_batch) % (requests * records_per_batch)
        assert resp.responses[0].partitions[0].error_code == 0
    fetch_cpu = time.process_time() - t0
    return {"produce_us": produce_cpu / requests * 1e6, "fetch_us": fetch_cpu / requests * 1e6}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=20_000)
    ap.add_argument("--records-per-batch", type=int, default=10)
    ap.add_argument("--value-size", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5, help="fresh broker per round; medians reported")
    args = ap.parse_args(argv)
    runs = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="bench-request-path-") as tmp:
            broker = Broker(BrokerConfig({"broker.id": 0, "port": 0}), Path(tmp))
            try:
                runs.append(asyncio.run(_measure(broker, args.requests, args.records_per_batch, args.value_size)))
            finally:
                broker.shutdown()
    out = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    out["runs"] = runs  # type: ignore[assignment]
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
