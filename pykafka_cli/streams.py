"""``pykafka lag`` (a Spark query's lag from its checkpoint and/or its Delta table) and
``pykafka offsets`` (the offsets a pykafka-delta table carries in its app transactions)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from offsets.delta_storage import StorageOptionError, parse_table_location
from offsets.delta_store import APP_ID_PREFIX, DeltaOffsetStore, query_app_id, query_id_from_checkpoint
from offsets.spec import from_offset_json
from pykafka_cli.kafka import CliError, partitions_of, watermarks
from pykafka_cli.output import emit

EXIT_LAG_EXCEEDED = 3
STORAGE_OPTION_HELP = (
    "KEY=VALUE, repeatable: delta-rs storage options for an s3:// table (AWS_ENDPOINT_URL, AWS_REGION, "
    "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ALLOW_HTTP, ...); unset ones come from the AWS_* environment"
)


def _storage_options(pairs: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliError(f"--storage-option takes KEY=VALUE (e.g. AWS_REGION=us-east-1), got {key.strip()!r}...")
        out[key.strip().upper()] = value
    return out


def _store(table: str, owner: str, args: argparse.Namespace) -> DeltaOffsetStore:
    try:
        return DeltaOffsetStore(table, owner, _storage_options(args.storage_option))
    except StorageOptionError as e:
        raise CliError(str(e)) from None


def add_parsers(sub: Any) -> None:
    lag = sub.add_parser("lag", help="lag of a Spark streaming query: its checkpoint/Delta table vs latest offsets")
    lag.add_argument("--checkpoint", default=None, help="the query's checkpointLocation (local path)")
    lag.add_argument("--table", default=None, help="the pykafka-delta table it writes: a path or s3://bucket/prefix")
    lag.add_argument("--storage-option", action="append", default=None, metavar="KEY=VALUE", help=STORAGE_OPTION_HELP)
    lag.add_argument("--owner", default=None, help="offsetsOwner in the table (default: the checkpoint's query id)")
    lag.add_argument("--topic", action="append", default=None, help="topics (default: those in the offsets found)")
    lag.add_argument("--max-lag", type=int, default=None, help=f"exit {EXIT_LAG_EXCEEDED} when total lag exceeds it")
    lag.set_defaults(run=run_lag)
    off = sub.add_parser("offsets", help="offsets kept in a pykafka-delta table (per owner, topic, partition)")
    off.add_argument("table", help="a local path or s3://bucket/prefix")
    off.add_argument("--storage-option", action="append", default=None, metavar="KEY=VALUE", help=STORAGE_OPTION_HELP)
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
            out.update(from_offset_json(obj).items())
    return batch, out


def run_lag(args: argparse.Namespace) -> int:
    if not args.checkpoint and not args.table:
        raise CliError("lag needs --checkpoint and/or --table")
    batch: int | None = None
    ckpt: dict[tuple[str, int], int] = {}
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
            parts = sorted(_table_offsets(args.table, args, owner).get(owner, {}))  # type: ignore[arg-type]  # owner: checked above
        if not parts:
            raise CliError("no offsets found yet: name the source topics with --topic")
        parts = sorted(
            set(parts) | set(partitions_of(args.bootstrap_server, sorted({t for t, _ in parts}), args.timeout))
        )
    # with --table, owner was checked above
    table = _store(args.table, owner, args).committed(parts) if args.table else {}  # type: ignore[arg-type]
    latest = watermarks(args.bootstrap_server, parts, args.timeout)
    rows: list[dict[str, Any]] = []
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


def _add_txn_ids(ids: set[str], json_text: str) -> None:
    for line in json_text.splitlines():
        if '"txn"' in line:
            txn = json.loads(line).get("txn")
            if txn:
                ids.add(txn["appId"])


def _txn_app_ids(table: str, args: argparse.Namespace) -> set[str]:
    """App ids of every txn action in a Delta table's log (JSON commits and the last checkpoint):
    a local directory, or an s3:// prefix read through pyarrow's S3 file system."""
    import pyarrow.parquet as pq

    if not table.startswith(("s3://", "s3a://")):
        log = Path(table) / "_delta_log"
        if not log.is_dir():
            raise CliError(f"{table} is not a Delta table (no _delta_log)")
        ids: set[str] = set()
        for f in log.glob("*.json"):
            _add_txn_ids(ids, f.read_text())
        for f in log.glob("*.checkpoint*.parquet"):
            col = pq.read_table(f, columns=["txn"]).column("txn").to_pylist()
            ids.update(t["appId"] for t in col if t)
        return ids
    import pyarrow.fs as pafs

    try:
        loc = parse_table_location(table, _storage_options(args.storage_option))
        fs = loc.filesystem()
    except StorageOptionError as e:
        raise CliError(str(e)) from None
    ids = set()
    try:
        infos = fs.get_file_info(pafs.FileSelector(loc.fs_path("_delta_log"), allow_not_found=True))
        files = [i.path for i in infos if i.type == pafs.FileType.File]
        for path in files:
            name = path.rsplit("/", 1)[-1]
            if name.endswith(".json") and name[:20].isdigit():
                with fs.open_input_stream(path) as f:
                    _add_txn_ids(ids, f.read().decode("utf-8"))
            elif ".checkpoint" in name and name.endswith(".parquet"):
                col = pq.read_table(path, columns=["txn"], filesystem=fs).column("txn").to_pylist()
                ids.update(t["appId"] for t in col if t)
    except OSError as e:  # pyarrow's S3 errors name the bucket, key and S3 error, not the credentials
        raise CliError(f"reading {table}/_delta_log failed: {e}") from None
    if not files:
        raise CliError(f"{table} is not a Delta table (no _delta_log)")
    return ids


def _table_offsets(
    table: str, args: argparse.Namespace, only_owner: str | None = None
) -> dict[str, dict[tuple[str, int], int]]:
    """owner -> {(topic, partition): next offset}, read back through DeltaOffsetStore (latest version)."""
    wanted: dict[str, set[tuple[str, int]]] = {}
    prefix = APP_ID_PREFIX + ":"
    for app in _txn_app_ids(table, args):
        if not app.startswith(prefix) or app.startswith(prefix + "query:"):
            continue
        try:
            owner, topic, partition = app[len(prefix) :].rsplit(":", 2)
            tp = (topic, int(partition))
        except ValueError:
            continue
        if only_owner is None or owner == only_owner:
            wanted.setdefault(owner, set()).add(tp)
    return {o: _store(table, o, args).committed(sorted(tps)) for o, tps in wanted.items()}


def run_offsets(args: argparse.Namespace) -> int:
    if not args.table.startswith(("s3://", "s3a://")) and not os.path.isdir(args.table):
        raise CliError(f"{args.table}: no such directory (a local table directory or s3://bucket/prefix)")
    offsets = _table_offsets(args.table, args, args.owner)
    if args.owner and not offsets:
        raise CliError(f"no offsets of owner {args.owner!r} in {args.table}")
    rows = []
    for owner in sorted(offsets):
        batch = _store(args.table, owner, args).batch_id(owner)
        for (t, p), off in sorted(offsets[owner].items()):
            rows.append({"owner": owner, "topic": t, "partition": p, "next_offset": off, "batch": batch})
    emit(rows, ["owner", "topic", "partition", "next_offset", "batch"], args.json)
    return 0


__all__ = ["checkpoint_offsets", "query_app_id"]
