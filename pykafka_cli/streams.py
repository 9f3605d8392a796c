"""``pykafka lag`` (a Spark query's lag from its checkpoint and/or its Delta table) and
``pykafka offsets`` (the offsets a pykafka-delta table carries in its app transactions)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from offsets.delta_store import APP_ID_PREFIX, DeltaOffsetStore, query_app_id, query_id_from_checkpoint
from offsets.spec import from_offset_json
from pykafka_cli.kafka import CliError, partitions_of, watermarks
from pykafka_cli.output import emit

EXIT_LAG_EXCEEDED = 3


def add_parsers(sub: Any) -> None:
    lag = sub.add_parser("lag", help="lag of a Spark streaming query: its checkpoint/Delta table vs latest offsets")
    lag.add_argument("--checkpoint", default=None, help="the query's checkpointLocation (local path)")
    lag.add_argument("--table", default=None, help="the pykafka-delta table it writes (app transactions)")
    lag.add_argument("--owner", default=None, help="offsetsOwner in the table (default: the checkpoint's query id)")
    lag.add_argument("--topic", action="append", default=None, help="topics (default: those in the offsets found)")
    lag.add_argument("--max-lag", type=int, default=None, help=f"exit {EXIT_LAG_EXCEEDED} when total lag exceeds it")
    lag.set_defaults(run=run_lag)
    off = sub.add_parser("offsets", help="offsets kept in a pykafka-delta table (per owner, topic, partition)")
    off.add_argument("table")
    off.add_argument("--owner", default=None, help="only this owner (query id or group id)")
    off.set_defaults(run=run_offsets, needs_bootstrap=False)


def checkpoint_offsets(checkpoint: str) -> tuple[int | None, dict[tuple[str, int], int]]:
    """(last committed batch id, its end offsets) from ``<checkpoint>/commits`` and ``offsets``."""
    root = Path(checkpoint)
    if not (root / "offsets").is_dir():
        raise CliError(f"{checkpoint} is not a Spark checkpoint (no offsets/ directory)")
    commits = (
        [int(p.name) for p in (root / "commits").glob("*") if p.name.isdigit()] if (root / "commits").is_dir() else []
    )
    if not commits:
        return None, {}
    batch = max(commits)
    lines = (root / "offsets" / str(batch)).read_text().splitlines()
    out: dict[tuple[str, int], int] = {}
    for line in lines[2:]:  # v1, batch metadata, then one line per source
        line = line.strip()
        if not line or line == "-":
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            out.update(from_offset_json(obj))
    return batch, out


def run_lag(args: argparse.Namespace) -> int:
    if not args.checkpoint and not args.table:
        raise CliError("lag needs --checkpoint and/or --table")
    batch, ckpt = (None, {})
    query_id = None
    if args.checkpoint:
        batch, ckpt = checkpoint_offsets(args.checkpoint)
        query_id = query_id_from_checkpoint(args.checkpoint)
    owner = args.owner or query_id
    if args.table and not owner:
        raise CliError("--table needs --owner (or a --checkpoint whose metadata names the query id)")
    if args.topic:
        parts = partitions_of(args.bootstrap_server, args.topic, args.timeout)
    else:
        parts = sorted({tp for tp in ckpt})
        if not parts and args.table:
            parts = sorted(_table_offsets(args.table, owner).get(owner, {}))
        if not parts:
            raise CliError("no offsets found yet: name the source topics with --topic")
        parts = sorted(
            set(parts) | set(partitions_of(args.bootstrap_server, sorted({t for t, _ in parts}), args.timeout))
        )
    table = DeltaOffsetStore(args.table, owner).committed(parts) if args.table else {}
    latest = watermarks(args.bootstrap_server, parts, args.timeout)
    rows = []
    for tp in parts:
        base = table.get(tp) if args.table else ckpt.get(tp)
        rows.append(
            {
                "topic": tp[0],
                "partition": tp[1],
                "checkpoint": ckpt.get(tp),
                "table": table.get(tp),
                "latest": latest[tp],
                "lag": latest[tp] - (base or 0),
            }
        )
    total = sum(r["lag"] for r in rows)
    cols = ["topic", "partition"] + (["checkpoint"] if args.checkpoint else []) + (["table"] if args.table else [])
    title = f"query {query_id or owner}: batch {batch}, total lag {total}"
    emit(rows, cols + ["latest", "lag"], args.json, title=title)
    if args.max_lag is not None and total > args.max_lag:
        return EXIT_LAG_EXCEEDED
    return 0


def _txn_app_ids(table: str) -> set[str]:
    """App ids of every txn action in a local Delta table's log (JSON commits and the last checkpoint)."""
    log = Path(table) / "_delta_log"
    if not log.is_dir():
        raise CliError(f"{table} is not a Delta table (no _delta_log)")
    ids: set[str] = set()
    for f in log.glob("*.json"):
        for line in f.read_text().splitlines():
            if '"txn"' in line:
                txn = json.loads(line).get("txn")
                if txn:
                    ids.add(txn["appId"])
    for f in log.glob("*.checkpoint*.parquet"):
        import pyarrow.parquet as pq

        col = pq.read_table(f, columns=["txn"]).column("txn").to_pylist()
        ids.update(t["appId"] for t in col if t)
    return ids


def _table_offsets(table: str, only_owner: str | None = None) -> dict[str, dict[tuple[str, int], int]]:
    """owner -> {(topic, partition): next offset}, read back through DeltaOffsetStore (latest version)."""
    wanted: dict[str, set[tuple[str, int]]] = {}
    prefix = APP_ID_PREFIX + ":"
    for app in _txn_app_ids(table):
        if not app.startswith(prefix) or app.startswith(prefix + "query:"):
            continue
        try:
            owner, topic, partition = app[len(prefix) :].rsplit(":", 2)
            tp = (topic, int(partition))
        except ValueError:
            continue
        if only_owner is None or owner == only_owner:
            wanted.setdefault(owner, set()).add(tp)
    return {o: DeltaOffsetStore(table, o).committed(sorted(tps)) for o, tps in wanted.items()}


def run_offsets(args: argparse.Namespace) -> int:
    if not os.path.isdir(args.table):
        raise CliError(f"{args.table}: no such directory (pykafka offsets reads local tables)")
    offsets = _table_offsets(args.table, args.owner)
    if args.owner and not offsets:
        raise CliError(f"no offsets of owner {args.owner!r} in {args.table}")
    rows = []
    for owner in sorted(offsets):
        batch = DeltaOffsetStore(args.table, owner).batch_id(owner)
        for (t, p), off in sorted(offsets[owner].items()):
            rows.append({"owner": owner, "topic": t, "partition": p, "next_offset": off, "batch": batch})
    emit(rows, ["owner", "topic", "partition", "next_offset", "batch"], args.json)
    return 0


__all__ = ["checkpoint_offsets", "query_app_id"]
