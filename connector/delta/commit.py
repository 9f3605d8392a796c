"""Driver side of the Delta sink: all files of a micro-batch in ONE Delta commit, exactly once.

``commit_files`` commits with ``DeltaTable.create_write_transaction`` (creating the table on the
first write). The commit carries Delta app transactions: ``pykafka:query:<query id>`` -> batch id,
so a batch that Spark runs again after a failure is skipped, and
``pykafka:<owner>:<topic>:<partition>`` -> next offset (last record offset + 1) for every source
partition, read back by ``offsets.delta_store``. Overwrites do not record per-partition offsets (the
table's content no longer follows the log) but still carry the query's batch id.

Fencing: the table is the truth. For every source partition, rows below the offset ``c`` the table
already holds are not committed again (whole files are dropped; a file straddling ``c`` is rewritten
filtered on the driver). The commit is made against exactly the snapshot ``c`` was read from
(``max_commit_retries=0``: delta-rs never rebases it silently); if any other writer committed
meanwhile, the driver reloads the table and redoes the filtering. So two writers racing on the same
partition's offsets cannot both commit them, and a zombie writer never re-adds rows.

Files of a batch that fails, or that fencing drops, are deleted; a driver killed between writing
and committing leaves unreferenced files, which no Delta reader sees (``DeltaTable.vacuum`` removes
them). Test fault hooks: ``connector.delta.faults``.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from connector import offset_mirror
from connector.delta.errors import DeltaCommitError
from connector.delta.faults import commit_faults
from connector.delta.files import DeltaFile, remove_file, rewrite_from
from offsets.delta_store import app_id, query_app_id

if TYPE_CHECKING:
    import pyarrow as pa

log = logging.getLogger(__name__)

# custom commitInfo key: a commit whose outcome is unknown (an error after it may have landed) is
# recognised in the table's history by this token
COMMIT_TOKEN_KEY = "pykafka.commitToken"
_MAX_COMMIT_ATTEMPTS = 100


@dataclass(frozen=True)
class CommitPlan:
    """What the driver needs to commit (plain data; part of the pickled writer)."""

    table_path: str
    arrow_schema: pa.Schema  # table schema to create the table with (input columns, all nullable)
    partition_columns: tuple[str, ...]
    owner: str | None
    query_id: str | None
    kafka_offsets: bool
    compression: str
    mirror_config: tuple[tuple[str, str], ...] = field(default=(), repr=False)  # may hold SASL/TLS secrets
    # delta-rs storage options of an object-store table; not in repr: they may hold secrets
    storage_options: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    @property
    def delta_storage_options(self) -> dict[str, str] | None:
        return dict(self.storage_options) or None


@dataclass
class CommitResult:
    version: int | None  # the table version committed, None when the batch was skipped
    files: int = 0
    records: int = 0
    dropped_files: int = 0
    rewritten_files: int = 0
    skipped: bool = False
    offsets: dict[tuple[str, int], int] = field(default_factory=dict)  # next offset per partition committed
    attempts: int = 1


def load_table(path: str, storage_options: Mapping[str, str] | None = None) -> Any | None:
    """The table's latest version, or None when there is no table yet. On S3 this is where the
    storage options reach delta-rs, and with them its conditional-PUT commits (If-None-Match)."""
    from deltalake import DeltaTable
    from deltalake.exceptions import TableNotFoundError

    try:
        return DeltaTable(path, storage_options=dict(storage_options) if storage_options else None)
    except TableNotFoundError:
        return None


def _add_action(f: DeltaFile) -> Any:
    from deltalake.transaction import AddAction

    return AddAction(f.path, f.size, f.partition_values, f.modification_time, True, f.stats)


def _fence(
    plan: CommitPlan, table: Any, files: list[DeltaFile]
) -> tuple[list[DeltaFile], list[DeltaFile], dict[tuple[str, int], int]]:
    """Split `files` by the offsets the table already holds: (to commit, to drop, next offsets).

    A straddling file is rewritten (the new file is in the first list, the old one in the second).
    """
    committed: dict[tuple[str, int], int | None] = {}
    keep: list[DeltaFile] = []
    drop: list[DeltaFile] = []
    next_offsets: dict[tuple[str, int], int] = {}
    for f in files:
        if f.topic is None or f.partition is None or f.min_offset is None or f.max_offset is None:
            keep.append(f)
            continue
        tp = (f.topic, f.partition)
        if tp not in committed:
            assert plan.owner is not None
            committed[tp] = table.transaction_version(app_id(plan.owner, f.topic, f.partition))
        c = committed[tp]
        if c is not None and f.max_offset < c:
            drop.append(f)  # every row is already in the table
            continue
        if c is not None and f.min_offset < c:
            rewritten = rewrite_from(
                plan.table_path, plan.partition_columns, plan.compression, f, c, plan.storage_options
            )
            drop.append(f)
            if rewritten is None:
                continue
            f = rewritten
        keep.append(f)
        # f.max_offset was checked above; mypy forgets it when `f` is rebound to the rewritten file
        next_offsets[tp] = max(next_offsets.get(tp, 0), f.max_offset + 1, c or 0)  # type: ignore[operator]
    return keep, drop, next_offsets


def _token_committed(plan: CommitPlan, since_version: int, token: str) -> bool:
    table = load_table(plan.table_path, plan.delta_storage_options)
    if table is None:
        return False
    newer = table.version() - since_version
    if newer <= 0:
        return False
    return any(h.get(COMMIT_TOKEN_KEY) == token for h in table.history(newer))


def commit_files(
    plan: CommitPlan, files: list[DeltaFile], batch_id: int | None = None, overwrite: bool = False
) -> CommitResult:
    """Commit `files` in one Delta commit with the app transactions of ARCHITECTURE.md (see module doc).

    Runs on the driver. Files that are not committed (fenced out, or a skipped batch) are deleted.
    """
    from deltalake import CommitProperties, Transaction
    from deltalake.transaction import create_table_with_add_actions

    token = uuid.uuid4().hex
    files = list(files)
    use_offsets = plan.kafka_offsets and plan.owner is not None and not overwrite
    to_delete: list[DeltaFile] = []
    metadata = {COMMIT_TOKEN_KEY: token}
    if batch_id is not None:
        metadata["pykafka.batchId"] = str(batch_id)
    if plan.query_id is not None:
        metadata["pykafka.queryId"] = plan.query_id
    faults = commit_faults()
    faults.begin(batch_id)
    attempt = 0
    while True:
        attempt += 1
        if attempt > _MAX_COMMIT_ATTEMPTS:
            raise DeltaCommitError(
                f"pykafka-delta sink: gave up committing to {plan.table_path} after {_MAX_COMMIT_ATTEMPTS} attempts; "
                "other writers committed first every time"
            )
        table = load_table(plan.table_path, plan.delta_storage_options)
        if table is None:
            next_offsets: dict[tuple[str, int], int] = {}
            if use_offsets:
                for f in files:
                    if f.topic is not None and f.partition is not None and f.max_offset is not None:
                        tp = (f.topic, f.partition)
                        next_offsets[tp] = max(next_offsets.get(tp, 0), f.max_offset + 1)
            txns = _transactions(plan, batch_id, next_offsets)
            from deltalake import Schema

            try:
                create_table_with_add_actions(
                    plan.table_path,
                    Schema.from_arrow(plan.arrow_schema),
                    [_add_action(f) for f in files],
                    mode="error",
                    partition_by=list(plan.partition_columns) or None,
                    storage_options=plan.delta_storage_options,
                    commit_properties=CommitProperties(
                        custom_metadata=metadata, app_transactions=[Transaction(a, v) for a, v in txns] or None
                    ),
                )
            except Exception:
                if load_table(plan.table_path, plan.delta_storage_options) is None:
                    raise
                if _token_committed(plan, -1, token):
                    committed_version: int | None = 0
                    break
                continue  # another writer created the table first: commit against it
            committed_version = 0
            break

        version = table.version()
        if plan.query_id is not None and batch_id is not None:
            done = table.transaction_version(query_app_id(plan.query_id))
            if done is not None and done >= batch_id:
                # Spark runs a batch again after a failure; the table already has it.
                for f in files:
                    remove_file(plan.table_path, f.path, plan.storage_options)
                log.info(
                    "pykafka-delta: batch %d of query %s is already in the table; skipped", batch_id, plan.query_id
                )
                faults.skipped(batch_id)
                return CommitResult(version=None, skipped=True, dropped_files=len(files), attempts=attempt)
        _check_partitioning(table, plan)
        if use_offsets:
            keep, drop, next_offsets = _fence(plan, table, files)
            to_delete.extend(drop)
            files = keep
        else:
            next_offsets = {}
        txns = _transactions(plan, batch_id, next_offsets)
        if not files and not txns and not overwrite:
            committed_version = None  # nothing new for the table
            break
        try:
            table.create_write_transaction(
                [_add_action(f) for f in files],
                "overwrite" if overwrite else "append",
                table.schema(),
                partition_by=list(plan.partition_columns) or None,
                commit_properties=CommitProperties(
                    custom_metadata=metadata,
                    # exactly the snapshot the fencing read: any concurrent commit fails this one
                    max_commit_retries=0,
                    app_transactions=[Transaction(a, v) for a, v in txns] or None,
                ),
            )
        except Exception as exc:
            if _token_committed(plan, version, token):
                committed_version = version + 1
                break  # it landed after all (the error came later, e.g. from a post-commit hook)
            latest = load_table(plan.table_path, plan.delta_storage_options)
            if latest is None or latest.version() <= version:
                raise DeltaCommitError(f"pykafka-delta sink: commit to {plan.table_path} failed: {exc}") from exc
            log.info(
                "pykafka-delta: table moved from version %d to %d while committing; refencing",
                version,
                latest.version(),
            )
            time.sleep(random.uniform(0, min(0.2, 0.005 * attempt)))
            continue
        committed_version = version + 1  # max_commit_retries=0: exactly the version after the snapshot
        break
    for f in to_delete:
        remove_file(plan.table_path, f.path, plan.storage_options)
    result = CommitResult(
        version=committed_version,
        files=len(files) if committed_version is not None else 0,
        records=sum(f.num_records for f in files) if committed_version is not None else 0,
        dropped_files=len(to_delete),
        offsets=next_offsets,
        attempts=attempt,
    )
    faults.end(batch_id, committed_version)
    if plan.mirror_config and next_offsets:
        mirror_offsets(plan, next_offsets)
    return result


def _transactions(
    plan: CommitPlan, batch_id: int | None, next_offsets: Mapping[tuple[str, int], int]
) -> list[tuple[str, int]]:
    txns: list[tuple[str, int]] = []
    if plan.query_id is not None and batch_id is not None:
        txns.append((query_app_id(plan.query_id), batch_id))
    if plan.owner is not None:
        txns.extend((app_id(plan.owner, t, p), v) for (t, p), v in sorted(next_offsets.items()))
    return txns


def _check_partitioning(table: Any, plan: CommitPlan) -> None:
    existing = tuple(table.metadata().partition_columns)
    if existing != plan.partition_columns:
        raise DeltaCommitError(
            f"pykafka-delta sink: the table at {plan.table_path} is partitioned by {list(existing)} but this write "
            f"was planned with {list(plan.partition_columns)} (the table changed since the batch started)"
        )


def mirror_offsets(plan: CommitPlan, next_offsets: Mapping[tuple[str, int], int]) -> bool:
    """Copy committed offsets to the broker's offsets of group `owner` (OffsetCommit, generation -1),
    for Kafka tooling only, over the client stack (`connector.offset_mirror`: retried within the sink's
    `kafka.default.api.timeout.ms`). Skipped with a log line when the group has members (group mode
    commits its own) or the broker cannot be reached. Returns whether the broker took them."""
    if plan.owner is None:
        return False
    return offset_mirror.mirror_offsets(plan.owner, plan.mirror_config, next_offsets)


__all__ = ["COMMIT_TOKEN_KEY", "CommitPlan", "CommitResult", "commit_files", "load_table", "mirror_offsets"]
