"""``pykafka topics``: list, create, describe, alter (configs), delete (kafka-topics / kafka-configs)."""

from __future__ import annotations

import argparse
from typing import Any

from pykafka_cli.kafka import CliError, admin, error_name, kafka_message, wait
from pykafka_cli.output import emit


def add_parser(sub: Any) -> None:
    p = sub.add_parser("topics", help="list, create, describe, alter configs of and delete topics")
    tsub = p.add_subparsers(dest="action", required=True)
    tsub.add_parser("list", help="topic names with partition counts")
    c = tsub.add_parser("create", help="create topics")
    c.add_argument("topics", nargs="+")
    c.add_argument("-p", "--partitions", type=int, default=1)
    c.add_argument("-r", "--replication-factor", type=int, default=-1, help="default: the broker's")
    c.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE")
    c.add_argument("--if-not-exists", action="store_true")
    d = tsub.add_parser("describe", help="partitions (leader, replicas, ISR) and non-default configs")
    d.add_argument("topics", nargs="*", help="default: all topics")
    a = tsub.add_parser("alter", help="set or delete topic configs (incremental)")
    a.add_argument("topic")
    a.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    a.add_argument("--delete", action="append", default=[], metavar="KEY")
    x = tsub.add_parser("delete", help="delete topics")
    x.add_argument("topics", nargs="+")
    x.add_argument("--if-exists", action="store_true")
    p.set_defaults(run=run)


def parse_kv(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CliError(f"{what} must be KEY=VALUE, got {item!r}")
        out[key] = value
    return out


def run(args: argparse.Namespace) -> int:
    a = admin(args.bootstrap_server)
    t = args.timeout
    if args.action == "list":
        md = a.list_topics(timeout=t)
        rows = [
            {"topic": name, "partitions": len(tm.partitions)}
            for name, tm in sorted(md.topics.items())
            if args.include_internal or not name.startswith("__")
        ]
        emit(rows, ["topic", "partitions"], args.json)
        return 0
    if args.action == "create":
        from confluent_kafka.admin import NewTopic

        configs = parse_kv(args.config, "--config")
        new = [NewTopic(n, args.partitions, args.replication_factor, config=configs) for n in args.topics]
        futures = a.create_topics(new, operation_timeout=t, request_timeout=t)
        created = []
        for name, fut in futures.items():
            try:
                fut.result(timeout=t)
                created.append({"topic": name, "created": True})
            except Exception as e:
                if args.if_not_exists and error_name(e) == "TOPIC_ALREADY_EXISTS":
                    created.append({"topic": name, "created": False})
                    continue
                raise CliError(f"cannot create {name}: {kafka_message(e)}") from e
        emit(created, ["topic", "created"], args.json)
        return 0
    if args.action == "describe":
        return _describe(a, args)
    if args.action == "alter":
        from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

        sets = parse_kv(args.set, "--set")
        if not sets and not args.delete:
            raise CliError("topics alter needs --set KEY=VALUE and/or --delete KEY")
        entries = [ConfigEntry(k, v, incremental_operation=AlterConfigOpType.SET) for k, v in sets.items()]
        entries += [ConfigEntry(k, None, incremental_operation=AlterConfigOpType.DELETE) for k in args.delete]
        res = ConfigResource(ResourceType.TOPIC, args.topic, incremental_configs=entries)
        wait(a.incremental_alter_configs([res], request_timeout=t), t)
        emit([{"topic": args.topic, "set": sets, "deleted": args.delete}], ["topic", "set", "deleted"], args.json)
        return 0
    if args.action == "delete":
        existing = set(a.list_topics(timeout=t).topics)
        missing = [n for n in args.topics if n not in existing]
        if missing and not args.if_exists:
            raise CliError(f"topic(s) not found: {', '.join(missing)}")
        todo = [n for n in args.topics if n in existing]
        if todo:
            wait(a.delete_topics(todo, operation_timeout=t, request_timeout=t), t)
        emit([{"topic": n, "deleted": n in todo} for n in args.topics], ["topic", "deleted"], args.json)
        return 0
    raise CliError(f"unknown action {args.action}")


def _describe(a: Any, args: argparse.Namespace) -> int:
    from confluent_kafka.admin import ConfigResource, ResourceType

    t = args.timeout
    md = a.list_topics(timeout=t)
    names = args.topics or sorted(n for n in md.topics if args.include_internal or not n.startswith("__"))
    missing = [n for n in names if n not in md.topics or md.topics[n].error is not None]
    if missing:
        raise CliError(f"topic(s) not found: {', '.join(missing)}")
    configs = wait(a.describe_configs([ConfigResource(ResourceType.TOPIC, n) for n in names], request_timeout=t), t)
    by_name = {res.name: entries for res, entries in configs.items()}
    rows = []
    for n in names:
        overrides = {k: e.value for k, e in by_name[n].items() if not e.is_default}
        for pid, pm in sorted(md.topics[n].partitions.items()):
            rows.append(
                {
                    "topic": n,
                    "partition": pid,
                    "leader": pm.leader,
                    "replicas": list(pm.replicas),
                    "isr": list(pm.isrs),
                    "configs": overrides if pid == 0 or args.json else None,
                }
            )
    emit(rows, ["topic", "partition", "leader", "replicas", "isr", "configs"], args.json)
    return 0
