"""``pykafka groups``: list, describe (members, assignments, committed offsets, lag), reset offsets,
delete (kafka-consumer-groups)."""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from pykafka_cli.kafka import CLIENT_PROPERTIES, CliError, admin, commit_offsets, list_offsets, partitions_of, wait
from pykafka_cli.output import emit


def add_parser(sub: Any) -> None:
    p = sub.add_parser("groups", help="list, describe, reset offsets of and delete consumer groups")
    gsub = p.add_subparsers(dest="action", required=True)
    gsub.add_parser("list", help="group ids with state")
    d = gsub.add_parser("describe", help="per partition: owner, committed offset, latest offset, lag")
    d.add_argument("group")
    d.add_argument("--table", default=None, help="a pykafka-delta table the group writes to (its offsets win)")
    d.add_argument("--members", action="store_true", help="one row per member with its assignment instead")
    r = gsub.add_parser("reset-offsets", help="set the group's committed offsets (the group must be empty)")
    r.add_argument("group")
    r.add_argument("--topic", required=True)
    r.add_argument("--partition", type=int, action="append", default=None, help="repeatable; default all")
    how = r.add_mutually_exclusive_group(required=True)
    how.add_argument("--to-earliest", action="store_true")
    how.add_argument("--to-latest", action="store_true")
    how.add_argument("--to-offset", type=int)
    how.add_argument("--to-datetime", help="ISO 8601, e.g. 2026-01-01T00:00:00Z")
    r.add_argument("--execute", action="store_true", help="commit the offsets (default: only show them)")
    x = gsub.add_parser("delete", help="delete groups")
    x.add_argument("groups", nargs="+")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        a = admin(args.bootstrap_server)  # keep the client alive until its futures complete
        res = a.list_consumer_groups(request_timeout=args.timeout).result(args.timeout)
        rows = [{"group": g.group_id, "state": _state(g.state)} for g in sorted(res.valid, key=lambda g: g.group_id)]
        emit(rows, ["group", "state"], args.json)
        if res.errors:
            raise CliError("; ".join(str(e) for e in res.errors))
        return 0
    if args.action == "describe":
        return _describe(args)
    if args.action == "reset-offsets":
        return _reset(args)
    if args.action == "delete":
        a = admin(args.bootstrap_server)
        wait(a.delete_consumer_groups(args.groups, request_timeout=args.timeout), args.timeout)
        emit([{"group": g, "deleted": True} for g in args.groups], ["group", "deleted"], args.json)
        return 0
    raise CliError(f"unknown action {args.action}")


def _state(state: object) -> str:
    """confluent's ConsumerGroupState.PREPARING_REBALANCE -> Kafka's "PreparingRebalance"."""
    name = getattr(state, "name", str(state))
    return "".join(w.capitalize() for w in name.split("_"))


def _describe(args: argparse.Namespace) -> int:
    from connector.group_lag import GroupLagError, group_lag

    try:
        g = group_lag(
            args.bootstrap_server,
            args.group,
            offsets_table=args.table,
            timeout=args.timeout,
            kafka_options=CLIENT_PROPERTIES,
        )
    except GroupLagError as e:
        raise CliError(str(e)) from e
    rows: list[dict[str, Any]]
    if args.members:
        rows = [
            {"group": g.group_id, "state": g.state, "member": m, "assignment": [f"{t}-{p}" for t, p in tps]}
            for m, tps in sorted(g.members.items())
        ]
        emit(rows, ["group", "state", "member", "assignment"], args.json)
        return 0
    if not g.partitions and g.state == "Dead":
        raise CliError(f"group {args.group!r} does not exist")
    rows = [
        {
            "group": g.group_id,
            "state": g.state,
            "topic": p.topic,
            "partition": p.partition,
            "committed": p.committed,
            "table_committed": p.table_committed,
            "latest": p.latest,
            "lag": p.lag,
            "owner": p.owner,
            "client_id": p.client_id,
            "host": p.host,
        }
        for p in g.partitions
    ]
    cols = ["group", "state", "topic", "partition", "committed", "latest", "lag", "owner", "host"]
    if args.table:
        cols.insert(5, "table_committed")
    emit(rows, cols, args.json, title=f"{g.group_id} ({g.state}, total lag {g.total_lag})")
    return 0


def _reset(args: argparse.Namespace) -> int:
    parts = partitions_of(args.bootstrap_server, [args.topic], args.timeout)
    if args.partition:
        unknown = sorted(set(args.partition) - {p for _, p in parts})
        if unknown:
            raise CliError(f"partition(s) {unknown} do not exist in {args.topic}")
        parts = [(t, p) for t, p in parts if p in args.partition]
    bs, t = args.bootstrap_server, args.timeout
    earliest = list_offsets(bs, {tp: -2 for tp in parts}, t)
    latest = list_offsets(bs, {tp: -1 for tp in parts}, t)
    if args.to_datetime:
        try:
            when = dt.datetime.fromisoformat(args.to_datetime.replace("Z", "+00:00"))
        except ValueError as e:
            raise CliError(f"--to-datetime must be ISO 8601, got {args.to_datetime!r}") from e
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        found = list_offsets(bs, {tp: int(when.timestamp() * 1000) for tp in parts}, t)
        # no record at or after that time: the end of the log (as kafka-consumer-groups does)
        targets = {tp: off if off >= 0 else latest[tp] for tp, off in found.items()}
    elif args.to_earliest:
        targets = earliest
    elif args.to_latest:
        targets = latest
    else:
        targets = {}
        for tp in parts:
            if not earliest[tp] <= args.to_offset <= latest[tp]:
                raise CliError(
                    f"--to-offset {args.to_offset} is outside {tp[0]}-{tp[1]}'s range {earliest[tp]}..{latest[tp]}"
                )
            targets[tp] = args.to_offset
    if args.execute:
        commit_offsets(bs, args.group, targets, t)
    rows = [
        {"group": args.group, "topic": tp[0], "partition": tp[1], "new_offset": o} for tp, o in sorted(targets.items())
    ]
    emit(rows, ["group", "topic", "partition", "new_offset"], args.json, title=None if args.execute else "dry run")
    return 0
