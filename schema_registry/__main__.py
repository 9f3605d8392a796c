"""``python -m schema_registry --bootstrap-servers HOST:PORT``: prints ``schema.registry.url=URL`` when ready."""

from __future__ import annotations

import argparse
import signal
import threading

from .server import SchemaRegistry


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m schema_registry", description=__doc__)
    p.add_argument("--bootstrap-servers", required=True, help="Kafka bootstrap servers holding the _schemas topic")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0 = a free port")
    p.add_argument("--topic", default="_schemas")
    p.add_argument("--default-compatibility", default="BACKWARD")
    p.add_argument("--replication-factor", type=int, default=1)
    a = p.parse_args(argv)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with SchemaRegistry(
        a.bootstrap_servers, a.host, a.port, a.topic, a.default_compatibility.upper(), a.replication_factor
    ) as sr:
        print(f"schema.registry.url={sr.url}", flush=True)
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
