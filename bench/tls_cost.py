"""Broker CPU per GB over a TLS listener (one-way TLS, confluent-kafka clients in the same process).

    .venv/bin/python -m bench.tls_cost [--size 1024] [--records 300000] [--runs 1]

Produces `--records` values of `--size` bytes to one partition, then consumes them back, and prints
the CPU seconds of the broker's event-loop thread (`time.thread_time` on that thread) per GB of
values, and the clients' rate. To compare two trees, run the module from each with
`PYTHONPATH=<tree>` (that is how bench/RESULTS.md's "Broker TLS" rows were taken).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from confluent_kafka import Consumer, Producer, TopicPartition

from broker_embedded import EmbeddedBroker
from broker_embedded.security import certs

PASSWORD = "bench-store-pw"


def one_run(size: int, records: int, pki: Path) -> tuple[float, float, float, float]:
    ca = certs.make_ca()
    store_dir = pki / f"server-{time.monotonic_ns()}"
    server = certs.write_stores(store_dir, "server", certs.make_server_cert(ca), ca, PASSWORD)
    configs = {
        "listeners": "SSL://127.0.0.1:0",
        "listener.security.protocol.map": "SSL:SSL",
        "listener.name.ssl.ssl.keystore.type": "PKCS12",
        "listener.name.ssl.ssl.keystore.location": str(server.keystore_p12),
        "listener.name.ssl.ssl.keystore.password": PASSWORD,
    }
    with EmbeddedBroker(**configs) as b:
        common = {
            "bootstrap.servers": b.bootstrap("SSL"),
            "security.protocol": "SSL",
            "ssl.ca.location": str(server.ca_pem),
            "ssl.endpoint.identification.algorithm": "none",
        }
        p = Producer({**common, "linger.ms": 20, "batch.size": 1 << 20, "compression.type": "none"})
        p.produce("warm-up", b"x", partition=0)
        p.flush(10)
        cpu0, t0 = b.call(lambda _b: time.thread_time()), time.monotonic()
        value = b"v" * size
        for _ in range(records):
            while True:
                try:
                    p.produce("t", value, partition=0)
                    break
                except BufferError:
                    p.poll(0.01)
        assert p.flush(120) == 0
        cpu1, t1 = b.call(lambda _b: time.thread_time()), time.monotonic()
        c = Consumer(
            {**common, "group.id": "bench", "fetch.max.bytes": 50 << 20, "max.partition.fetch.bytes": 10 << 20}
        )
        c.assign([TopicPartition("t", 0, 0)])
        got = 0
        while got < records:
            got += sum(1 for m in c.consume(10_000, 1.0) if m.error() is None)
        cpu2, t2 = b.call(lambda _b: time.thread_time()), time.monotonic()
        c.close()
    gb = records * size / 1e9
    return (cpu1 - cpu0) / gb, records / (t1 - t0), (cpu2 - cpu1) / gb, records / (t2 - t1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--records", type=int, default=300_000)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-tls-") as d:
        for _ in range(args.runs):
            produce, p_rate, consume, c_rate = one_run(args.size, args.records, Path(d))
            print(
                f"{args.size} B x {args.records:,}: produce {produce:.2f} broker CPU-s/GB ({p_rate:,.0f} records/s), "
                f"consume {consume:.2f} CPU-s/GB ({c_rate:,.0f} records/s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
