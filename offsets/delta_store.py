"""The read side of exactly-once Kafka -> Delta: offsets kept in a Delta table's own log.

The `pykafka-delta` sink commits every micro-batch's files together with Delta app transactions
(`txn` actions, ARCHITECTURE.md §4): one per source partition, ``appId = "pykafka:<owner>:<topic>:<partition>"``
with ``version`` = the next offset to read (last committed record offset + 1). They are written in
the same atomic commit as the data, so the table alone says where a reader resumes: a restarted
query, or a group member that was just handed a partition, reads ``committed()`` here.

``<owner>`` is the sink option ``offsetsOwner``: by default the streaming query id (from
``<checkpointLocation>/metadata``), in group mode the consumer group id.

`deltalake` (delta-rs) is imported here only, never from ``offsets/__init__.py``: the rest of
``offsets`` stays pure logic usable without the Delta dependency.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from urllib.parse import unquote, urlparse

from offsets.delta_storage import parse_table_location

APP_ID_PREFIX = "pykafka"


def app_id(owner: str, topic: str, partition: int) -> str:
    """The app transaction id that carries ``owner``'s next offset for one topic partition."""
    return f"{APP_ID_PREFIX}:{owner}:{topic}:{partition}"


def query_app_id(query_id: str) -> str:
    """The app transaction id of a streaming query (version = last committed batch id)."""
    return f"{APP_ID_PREFIX}:query:{query_id}"


def _local_path(location: str) -> str | None:
    parsed = urlparse(location)
    if parsed.scheme in ("", "file"):
        return unquote(parsed.path) if parsed.scheme == "file" else location
    if len(parsed.scheme) == 1:  # a Windows drive letter, not a URL scheme
        return location
    return None


def query_id_from_checkpoint(checkpoint_location: str) -> str | None:
    """The query id Spark keeps in ``<checkpointLocation>/metadata`` (``{"id": ...}``), or None when
    the file does not exist yet or the checkpoint is not on a local file system."""
    path = _local_path(checkpoint_location)
    if path is None:
        return None
    try:
        with open(os.path.join(path, "metadata"), encoding="utf-8") as f:
            first = f.readline()
    except FileNotFoundError:
        return None
    try:
        query_id = json.loads(first).get("id")
    except (ValueError, AttributeError):
        return None
    return query_id if isinstance(query_id, str) and query_id else None


class DeltaOffsetStore:
    """Committed next offsets of one owner (query id or consumer group) in one Delta table.

    ``table_path``: a local path, ``file://``, or ``s3://bucket/prefix`` (``s3a://`` is read as
    ``s3://``); ``storage_options``: delta-rs's names (``AWS_ENDPOINT_URL``, ``AWS_REGION``,
    ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_ALLOW_HTTP``, ...; any case), the same
    the ``pykafka-delta`` sink takes as ``storage.*`` options (`offsets.delta_storage`)."""

    def __init__(self, table_path: str, owner: str, storage_options: Mapping[str, str] | None = None) -> None:
        if not owner:
            raise ValueError("DeltaOffsetStore needs a non-empty owner (query id or consumer group id)")
        self.location = parse_table_location(table_path, storage_options, other_schemes=True)
        self.table_path = self.location.uri
        self.owner = owner
        self.storage_options = self.location.delta_storage_options

    def _table(self) -> object | None:
        from deltalake import DeltaTable
        from deltalake.exceptions import TableNotFoundError

        try:
            # A fresh DeltaTable per call: always the latest version, never a cached snapshot.
            return DeltaTable(self.table_path, storage_options=self.storage_options)
        except TableNotFoundError:
            return None

    def committed(self, partitions: Iterable[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """Next offset per (topic, partition) recorded in the table's app transactions; partitions with
        none (or a table that does not exist yet) are absent from the result. Always reads the latest
        table version."""
        wanted = [(str(t), int(p)) for t, p in partitions]
        table = self._table()
        if table is None:
            return {}
        out: dict[tuple[str, int], int] = {}
        for topic, partition in wanted:
            # _table() is typed `object` to keep deltalake's import lazy; it is a DeltaTable
            version = table.transaction_version(app_id(self.owner, topic, partition))  # type: ignore[attr-defined]
            if version is not None:
                out[(topic, partition)] = int(version)
        return out

    def lag(self, latest: Mapping[tuple[str, int], int]) -> dict[tuple[str, int], int]:
        """Records not yet in the table per partition: ``latest[tp] - committed[tp]`` (never negative).

        ``latest`` is the broker's latest offset (high watermark, or last stable offset for
        read_committed) per partition. A partition with no committed offset counts from offset 0,
        i.e. its whole log is lag.
        """
        committed = self.committed(latest.keys())
        return {tp: max(0, int(end) - committed.get(tp, 0)) for tp, end in latest.items()}

    def batch_id(self, query_id: str) -> int | None:
        """The last micro-batch id of streaming query ``query_id`` committed into the table."""
        table = self._table()
        if table is None:
            return None
        # _table() is typed `object` to keep deltalake's import lazy; it is a DeltaTable
        version = table.transaction_version(query_app_id(query_id))  # type: ignore[attr-defined]
        return None if version is None else int(version)


__all__ = ["APP_ID_PREFIX", "DeltaOffsetStore", "app_id", "query_app_id", "query_id_from_checkpoint"]
