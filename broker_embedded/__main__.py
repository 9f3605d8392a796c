"""``python -m broker_embedded``: run a broker until SIGTERM/SIGINT.

Prints exactly one line, ``bootstrap.servers=HOST:PORT``, on stdout once the broker accepts
connections; everything else goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
import tempfile
from pathlib import Path

from broker_embedded.config import BROKER_CONFIGS, BrokerConfig, ConfigError, read_properties
from broker_embedded.embedded import BrokerRunner, new_event_loop


def _config_help() -> str:
    lines = ["broker configs (Kafka names; set with --config or --override):"]
    for name, d in sorted(BROKER_CONFIGS.items()):
        lines.append(f"  {name} = {d.default!r}: {d.doc}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m broker_embedded",
        description="Run pykafka's embedded Kafka-compatible broker on 127.0.0.1.",
        epilog=_config_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--port", type=int, default=None, help="port to listen on (default 0: a free port)")
    p.add_argument("--host", default=None, help="address to listen on and advertise (default 127.0.0.1)")
    p.add_argument("--log-dir", default=None, help="log directory (default: a temporary directory, deleted on exit)")
    p.add_argument("--config", default=None, help="a server.properties file with broker configs")
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE", help="a broker config (repeatable)")
    p.add_argument("--log-level", default="WARNING", help="logging level for stderr (default WARNING)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    values: dict[str, str] = {}
    if args.config:
        try:
            values.update(read_properties(args.config))
        except (OSError, UnicodeDecodeError) as e:
            print(f"error: cannot read --config {args.config}: {e}", file=sys.stderr)
            return 2
    for item in args.override:
        if "=" not in item:
            print(f"error: --override expects KEY=VALUE, got {item!r}", file=sys.stderr)
            return 2
        k, v = item.split("=", 1)
        values[k.strip()] = v.strip()
    if args.port is not None:
        values["port"] = str(args.port)
    if args.host is not None:
        values["host.name"] = args.host
    try:
        config = BrokerConfig(values)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    temp = None
    log_dir = args.log_dir or config["log.dirs"]
    if not log_dir:
        temp = tempfile.TemporaryDirectory(prefix="pykafka-broker-")
        log_dir = temp.name
    loop = new_event_loop()
    asyncio.set_event_loop(loop)
    runner = BrokerRunner(config, Path(log_dir))
    stop = asyncio.Event()

    async def run() -> None:
        port = await runner.start()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        sys.stdout.write(f"bootstrap.servers={config['host.name']}:{port}\n")
        sys.stdout.flush()
        await stop.wait()
        await runner.stop()

    try:
        loop.run_until_complete(run())
    finally:
        loop.close()
        if temp is not None:
            temp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
