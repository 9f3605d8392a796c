"""The ``pykafka`` command: one entry point, subcommands like Kafka's scripts and kcat.

    pykafka broker [...]              an embedded broker (python -m broker_embedded)
    pykafka cluster --brokers 3 ...   an embedded cluster (python -m broker_embedded cluster)
    pykafka -b HOST:PORT topics list|create|describe|alter|delete
    pykafka -b HOST:PORT produce TOPIC [FILES] [-k KEY | -K DELIM] [-H N=V] [-p P]
    pykafka -b HOST:PORT consume TOPIC [-o beginning|end|N|-N|s@MILLIS] [-G GROUP] [-e] [-f FMT]
    pykafka -b HOST:PORT consume TOPIC --share-group GROUP [-c N] [--idle-timeout S] [-f FMT]
    pykafka -b HOST:PORT groups list|describe|reset-offsets|delete
    pykafka -b HOST:PORT lag --checkpoint DIR [--table PATH]
    pykafka offsets TABLE

The bootstrap comes from ``-b``/``--bootstrap-server`` or ``$PYKAFKA_BOOTSTRAP``. Human tables by
default, ``--json`` for scripts. Exit codes: 0 ok, 1 error (on stderr), 2 usage, 3 lag over --max-lag.
"""

from __future__ import annotations

import argparse
import os
import sys

from pykafka_cli import clients, groups, kafka, streams, topics
from pykafka_cli.kafka import CliError, check_connection, load_command_config

EXIT_ERROR = 1


def _add_common(p: argparse.ArgumentParser, top: bool) -> None:
    """The common options, accepted before and after the subcommand (a subcommand's copy does not
    overwrite a value given before it: SUPPRESS leaves the attribute alone when absent)."""

    def default(value: object) -> object:
        return value if top else argparse.SUPPRESS

    p.add_argument(
        "-b", "--bootstrap-server", default=default(os.environ.get("PYKAFKA_BOOTSTRAP")), metavar="HOST:PORT"
    )
    p.add_argument(
        "--command-config",
        default=default(None),
        metavar="FILE",
        help="Kafka client properties (security.protocol, sasl.*, ssl.*), as for Kafka's tools",
    )
    p.add_argument("--json", action="store_true", default=default(False), help="machine-readable output")
    p.add_argument(
        "-v", "--verbose", action="store_true", default=default(False), help="show the Kafka client's log lines"
    )
    p.add_argument("--timeout", type=float, default=default(15.0), help="seconds for each request (default 15)")
    p.add_argument(
        "--include-internal", action="store_true", default=default(False), help="show __consumer_offsets and friends"
    )


def _subparsers(p: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    out = []
    for action in p._actions:  # argparse has no public walk over subparsers
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                out.append(child)
                out += _subparsers(child)
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pykafka", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    _add_common(p, top=True)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("broker", help="run an embedded broker (python -m broker_embedded)", add_help=False)
    sub.add_parser("cluster", help="run an embedded cluster (python -m broker_embedded cluster)", add_help=False)
    topics.add_parser(sub)
    clients.add_parsers(sub)
    groups.add_parser(sub)
    streams.add_parsers(sub)
    for child in _subparsers(p):
        if child.prog.split()[-1] not in ("broker", "cluster"):
            _add_common(child, top=False)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # broker/cluster hand everything after them to broker_embedded's own parser
    for i, a in enumerate(argv):
        if a in ("broker", "cluster"):
            from broker_embedded.__main__ import main as broker_main

            return broker_main(argv[i + 1 :] if a == "broker" else ["cluster", *argv[i + 1 :]])
        if not a.startswith("-"):
            break
    parser = build_parser()
    args = parser.parse_args(argv)
    kafka.VERBOSE = bool(getattr(args, "verbose", False))
    try:
        if getattr(args, "command_config", None):
            load_command_config(args.command_config)
        if getattr(args, "needs_bootstrap", True):
            # a properties file that names its brokers (as `python -m broker_embedded --secure` writes them)
            args.bootstrap_server = args.bootstrap_server or kafka.CLIENT_PROPERTIES.get("bootstrap.servers")
            if not args.bootstrap_server:
                parser.error("-b/--bootstrap-server (or $PYKAFKA_BOOTSTRAP, or bootstrap.servers in --command-config) "
                             "is required")  # fmt: skip
            check_connection(args.bootstrap_server, args.timeout)
        return int(args.run(args))
    except CliError as e:
        print(f"pykafka {args.command}: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
