"""``python -m broker_embedded``: run a broker until SIGTERM/SIGINT.

Prints exactly one line, ``bootstrap.servers=HOST:PORT``, on stdout once the broker accepts
connections; everything else goes to stderr.

Cluster mode (issue 4):
- ``python -m broker_embedded cluster --brokers N --controllers M --log-dir DIR``: M controllers (one
  active, the others standbys; default 2) and N brokers as
  separate processes; prints ``bootstrap.servers=H:P,H:P,...`` when all are registered; SIGTERM stops all.
- ``python -m broker_embedded controller --port P --log-dir DIR``: the controller process alone;
  prints ``controller=HOST:PORT`` when ready.
- ``python -m broker_embedded --node-id 2 --controller HOST:PORT ...``: one broker of a cluster.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from broker_embedded.config import BROKER_CONFIGS, BrokerConfig, ConfigError, read_properties
from broker_embedded.embedded import BrokerRunner, new_event_loop

if TYPE_CHECKING:
    # Only --secure needs it, and it pulls in cryptography's X.509 (~60 ms of every start).
    from broker_embedded.security.secure_setup import SecureSetup


def _config_help() -> str:
    lines = ["broker configs (Kafka names; set with --config or --override):"]
    for name, d in sorted(BROKER_CONFIGS.items()):
        lines.append(f"  {name} = {d.default!r}: {d.doc}")
    return "\n".join(lines)


CLUSTER_HELP = """
subcommands (cluster mode, see `python -m broker_embedded cluster --help`):
  cluster --brokers N --log-dir DIR   controllers (--controllers, default 2) + N brokers; prints bootstrap.servers=...
  controller --port P --log-dir DIR   the controller process alone; prints controller=HOST:PORT
  a cluster's broker: python -m broker_embedded --node-id ID --controller HOST:PORT [options]
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m broker_embedded",
        description="Run pykafka's embedded Kafka-compatible broker on 127.0.0.1.",
        epilog=CLUSTER_HELP + "\n" + _config_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--port", type=int, default=None, help="port to listen on (default 0: a free port)")
    p.add_argument("--host", default=None, help="address to listen on and advertise (default 127.0.0.1)")
    p.add_argument("--log-dir", default=None, help="log directory (default: a temporary directory, deleted on exit)")
    p.add_argument("--config", default=None, help="a server.properties file with broker configs")
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE", help="a broker config (repeatable)")
    p.add_argument("--log-level", default="WARNING", help="logging level for stderr (default WARNING)")
    p.add_argument("--node-id", type=int, default=None, help="this broker's id (node.id) in a cluster")
    p.add_argument(
        "--controller",
        default=None,
        metavar="HOST:PORT[,HOST:PORT...]",
        help="the controllers of the cluster this broker joins (controller.quorum.bootstrap.servers)",
    )
    p.add_argument(
        "--exit-on-stdin-eof",
        action="store_true",
        help="exit when stdin closes (EmbeddedCluster's children: they die with their parent)",
    )
    p.add_argument(
        "--add-scram",
        action="append",
        default=[],
        metavar="MECHANISM=[name=U,password=P[,iterations=N]]",
        help="a SCRAM credential, in kafka-storage format's syntax (repeatable)",
    )
    p.add_argument(
        "--secure",
        default=None,
        metavar="DIR",
        help="make a CA, certificates and users in DIR and serve SASL_SSL, SSL and SASL_PLAINTEXT listeners "
        "(client settings: DIR/secure.json and DIR/<user>-<mechanism>.properties)",
    )
    return p


_SCRAM_ARG = re.compile(r"^(SCRAM-SHA-256|SCRAM-SHA-512)=\[(.*)\]$")


def parse_add_scram(arg: str) -> tuple[str, str, str, int]:
    """`SCRAM-SHA-256=[name=alice,password=alice-secret]` -> (mechanism, user, password, iterations)."""
    m = _SCRAM_ARG.match(arg.strip())
    if m is None:
        raise ValueError(f"--add-scram expects SCRAM-SHA-256|SCRAM-SHA-512=[name=...,password=...], got {arg!r}")
    fields: dict[str, str] = {}
    for item in re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|[^,]*)', m.group(2)):
        key, value = item
        fields[key] = value[1:-1] if value.startswith('"') else value
    if "name" not in fields or "password" not in fields:
        raise ValueError(f"--add-scram {m.group(1)} needs name= and password=")
    return m.group(1), fields["name"], fields["password"], int(fields.get("iterations", "4096"))


def _write_secure_settings(setup: SecureSetup, listeners: dict[str, str]) -> None:
    """Client settings next to the certificates (owner-only files), never on stdout. `listeners`:
    security protocol -> host:port of the broker's listener, each file's `bootstrap.servers`."""
    d = setup.directory

    def props(protocol: str, mechanism: str | None, user: str, mtls: bool = False) -> dict[str, str]:
        return {"bootstrap.servers": listeners[protocol], **setup.client_properties(protocol, mechanism, user, mtls)}

    for user in setup.users:
        for mech in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"):
            setup.write_properties(d / f"{user}-{mech}.properties", props("SASL_SSL", mech, user))
        setup.write_properties(d / f"{user}-mtls.properties", props("SSL", None, user, mtls=True))
    info = {
        "listeners": listeners,
        "ca_pem": str(setup.ca_pem),
        "store_password": setup.store_password,
        "users": setup.users,
        "client_certificates": {
            u: {"cert_pem": str(f.cert_pem), "key_pem": str(f.key_pem)} for u, f in setup.clients.items()
        },
    }
    path = d / "secure.json"
    path.write_text(json.dumps(info, indent=1))
    path.chmod(0o600)


def build_cluster_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m broker_embedded cluster",
        description="Run a controller and N brokers (separate processes) on 127.0.0.1 until SIGTERM/SIGINT. "
        "Prints bootstrap.servers=HOST:PORT,... once every broker is registered.",
    )
    p.add_argument("--brokers", type=int, default=3, help="number of brokers, node ids 1..N (default 3)")
    p.add_argument(
        "--controllers",
        type=int,
        default=2,
        help="controller processes: one active, the others standbys (default 2; 3 or more form a Raft quorum)",
    )
    p.add_argument(
        "--log-dir", default=None, help="directory for controller/ and broker-<id>/ (default: temporary, deleted)"
    )
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE", help="a config for every process")
    p.add_argument("--log-level", default="WARNING", help="logging level of the processes (default WARNING)")
    p.add_argument(
        "--quorum",
        choices=("lock", "raft"),
        default=None,
        help="lock: controllers share a state dir and a file lock; raft: a Raft quorum, one dir each "
        "(default: raft for 3 or more controllers, else lock)",
    )
    return p


def build_controller_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m broker_embedded controller",
        description="Run a cluster controller (no Raft quorum: state persisted in --log-dir; several controllers "
        "may share it, the one holding its lock is active, the others are standbys). "
        "Prints controller=HOST:PORT once it listens.",
    )
    p.add_argument("--port", type=int, default=0, help="port to listen on (default 0: a free port)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--log-dir", required=True, help="directory of the controller's persisted state")
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE", help="a config (repeatable)")
    p.add_argument("--log-level", default="WARNING", help="logging level for stderr (default WARNING)")
    p.add_argument("--exit-on-stdin-eof", action="store_true", help="exit when stdin closes")
    # opt-in: a Raft quorum of controllers (controller/quorum_controller.py) instead of the shared lock
    p.add_argument("--node-id", type=int, default=None, help="this controller's id in --quorum-voters")
    p.add_argument("--quorum-voters", default=None, help="Raft mode: ID@HOST:PORT,... (controller.quorum.voters)")
    return p


def _parse_overrides(items: list[str]) -> dict[str, str] | None:
    values: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            print(f"error: --override expects KEY=VALUE, got {item!r}", file=sys.stderr)
            return None
        k, v = item.split("=", 1)
        values[k.strip()] = v.strip()
    return values


def _watch_stdin(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Set `stop` when stdin reaches EOF (the parent that holds the pipe went away)."""
    fd = sys.stdin.fileno()

    def on_readable() -> None:
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)
            stop.set()

    loop.add_reader(fd, on_readable)


def controller_main(argv: list[str]) -> int:
    from broker_embedded.controller import ControllerServer

    args = build_controller_parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(), stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    values = _parse_overrides(args.override)
    if values is None:
        return 2
    try:
        config = BrokerConfig(values)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.quorum_voters:
        from broker_embedded.controller.quorum_controller import parse_voters

        try:
            voters = parse_voters(args.quorum_voters)
        except ValueError as e:
            print(f"error: --quorum-voters: {e}", file=sys.stderr)
            return 2
        if args.node_id not in voters:
            print(f"error: --node-id {args.node_id} is not one of the voters {sorted(voters)}", file=sys.stderr)
            return 2
    loop = new_event_loop()
    asyncio.set_event_loop(loop)
    stop = asyncio.Event()

    async def run() -> None:
        server: ControllerServer
        if args.quorum_voters:
            from broker_embedded.controller.quorum_controller import QuorumControllerServer, raft_config_from

            server = QuorumControllerServer(config, Path(args.log_dir), args.node_id, voters, raft_config_from(config))
        else:
            server = ControllerServer(config, Path(args.log_dir))
        port = await server.start(args.host, args.port)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        if args.exit_on_stdin_eof:
            _watch_stdin(loop, stop)
        sys.stdout.write(f"controller={args.host}:{port}\n")
        sys.stdout.flush()
        await stop.wait()
        await server.stop()

    try:
        loop.run_until_complete(run())
    finally:
        loop.close()
    return 0


def cluster_main(argv: list[str]) -> int:
    from broker_embedded.cluster import run_cluster_cli

    args = build_cluster_parser().parse_args(argv)
    values = _parse_overrides(args.override)
    if values is None:
        return 2
    if args.brokers < 1:
        print(f"error: --brokers must be at least 1, got {args.brokers}", file=sys.stderr)
        return 2
    if args.controllers < 1:
        print(f"error: --controllers must be at least 1, got {args.controllers}", file=sys.stderr)
        return 2
    try:
        BrokerConfig(values)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        return run_cluster_cli(args.brokers, args.log_dir, values, args.log_level, args.controllers, args.quorum)
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "cluster":
        return cluster_main(argv[1:])
    if argv and argv[0] == "controller":
        return controller_main(argv[1:])
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
    if args.node_id is not None:
        values["node.id"] = str(args.node_id)
    if args.controller is not None:
        values["controller.quorum.bootstrap.servers"] = args.controller
    secure: SecureSetup | None = None
    if args.secure is not None:
        from broker_embedded.security.secure_setup import SecureSetup

        secure = SecureSetup.create(args.secure)
        values = {**secure.broker_configs(), **values}
    try:
        scram = [parse_add_scram(a) for a in args.add_scram]
        config = BrokerConfig(values)
    except (ConfigError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    temp = None
    log_dir = args.log_dir or (config["log.dirs"] or "").split(",")[0].strip()  # several: JBOD, see LogDirs
    if not log_dir:
        temp = tempfile.TemporaryDirectory(prefix="pykafka-broker-")
        log_dir = temp.name
    loop = new_event_loop()
    asyncio.set_event_loop(loop)
    runner = BrokerRunner(config, Path(log_dir))
    stop = asyncio.Event()

    async def run() -> None:
        port = await runner.start()
        assert runner.security is not None
        for mechanism, user, password, iterations in scram:
            runner.security.add_scram_user(user, password, (mechanism,), iterations)
        if secure is not None:
            for user, password in secure.users.items():
                runner.security.add_scram_user(user, password)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        if args.exit_on_stdin_eof:
            _watch_stdin(loop, stop)
        host, port = runner.advertised.get(runner.endpoints[0].name, (config["host.name"], port))
        advertised = {e.name: runner.advertised.get(e.name, (e.host, e.port)) for e in runner.endpoints}
        addresses = {name: f"{h}:{p}" for name, (h, p) in advertised.items()}
        if secure is not None:
            # the files name the listener of their protocol, so they are ready once the line is out
            by_protocol: dict[str, str] = {}
            for e in runner.endpoints:
                by_protocol.setdefault(e.security_protocol, addresses[e.name])
            _write_secure_settings(secure, by_protocol)
        out = f"bootstrap.servers={host}:{port}\n"
        if len(runner.endpoints) > 1:
            # every listener, as Kafka's `listeners` config spells them (the first is the bootstrap above)
            out += "listeners=" + ",".join(f"{name}://{addr}" for name, addr in addresses.items()) + "\n"
        sys.stdout.write(out)
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
