"""The local-directory implementations of the two tiered-storage plugins.

`LocalTieredStorage` (an RSM) keeps remote segments in a directory, as Kafka's own test RSM does::

    <dir>/<topic>-<partition>-<topic id>/<start offset, 20 digits>-<segment uuid>.log
                                                                  .index .timeindex .snapshot
                                                                  .leader_epoch_checkpoint [.txnindex]

The topic id in the path keeps a re-created topic (same name, new id) apart from the old data.
Every file is written to `<name>.tmp`, fsynced and renamed, so a crash never leaves a half-written
file under a final name; whatever a crash leaves behind belongs to a COPY_SEGMENT_STARTED segment,
which the RemoteLogManager deletes on its next run.

`FileBasedRemoteLogMetadataManager` (an RLMM) is an append-only metadata log,
`<dir>/remote_log_metadata.log`, one CRC-guarded JSON record per line, fsynced per append and
replayed on start (a torn last line is cut off). It is rewritten compactly (tmp + rename) on
start when it holds many dead records.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import threading
import uuid
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from broker_embedded.log.checkpoint import fsync_dir, write_atomically

from .storage import (
    IndexType,
    LogSegmentData,
    RemoteLogMetadataManager,
    RemoteLogSegmentId,
    RemoteLogSegmentMetadata,
    RemoteLogSegmentMetadataUpdate,
    RemoteLogSegmentState,
    RemotePartitionDeleteMetadata,
    RemotePartitionDeleteState,
    RemoteResourceNotFoundException,
    RemoteStorageException,
    RemoteStorageManager,
    TopicIdPartition,
    is_valid_transition,
)

_INDEX_SUFFIXES: dict[IndexType, str] = {
    IndexType.OFFSET: ".index",
    IndexType.TIMESTAMP: ".timeindex",
    IndexType.PRODUCER_SNAPSHOT: ".snapshot",
    IndexType.TRANSACTION: ".txnindex",
    IndexType.LEADER_EPOCH: ".leader_epoch_checkpoint",
}
_SEGMENT_SUFFIX = ".log"
_COPY_CHUNK = 1 << 20


def _copy_file(src: Path, dst: Path) -> int:
    """Copy to `dst.tmp`, fsync, rename: `dst` is either absent or complete."""
    tmp = dst.with_name(dst.name + ".tmp")
    with open(src, "rb") as fin, open(tmp, "wb") as fout:
        shutil.copyfileobj(fin, fout, _COPY_CHUNK)
        fout.flush()
        os.fsync(fout.fileno())
        size = fout.tell()
    os.replace(tmp, dst)
    return size


class LocalTieredStorage(RemoteStorageManager):
    """RSM over a local (or network-mounted) directory. Config: `dir` (`rsm.config.dir`)."""

    def __init__(self) -> None:
        self.root: Path | None = None

    def configure(self, configs: Mapping[str, Any]) -> None:
        root = configs.get("dir")
        if not root:
            raise ValueError("LocalTieredStorage needs a directory: set rsm.config.dir")
        self.root = Path(str(root))
        self.root.mkdir(parents=True, exist_ok=True)

    # ------------------------------------------------------------------ paths
    def partition_dir(self, tip: TopicIdPartition) -> Path:
        assert self.root is not None, "configure() first"
        return self.root / f"{tip.topic}-{tip.partition}-{tip.topic_id_base64}"

    def _path(self, md: RemoteLogSegmentMetadata, suffix: str) -> Path:
        sid = md.remote_log_segment_id
        return self.partition_dir(sid.topic_id_partition) / f"{md.start_offset:020d}-{sid.id}{suffix}"

    # ------------------------------------------------------------------ RSM
    def copy_log_segment_data(self, metadata: RemoteLogSegmentMetadata, data: LogSegmentData) -> bytes | None:
        try:
            d = self.partition_dir(metadata.topic_id_partition)
            d.mkdir(parents=True, exist_ok=True)
            # Indexes first, the segment last: the .log file is the one reads look for.
            _copy_file(data.offset_index, self._path(metadata, _INDEX_SUFFIXES[IndexType.OFFSET]))
            _copy_file(data.time_index, self._path(metadata, _INDEX_SUFFIXES[IndexType.TIMESTAMP]))
            _copy_file(data.producer_snapshot_index, self._path(metadata, _INDEX_SUFFIXES[IndexType.PRODUCER_SNAPSHOT]))
            if data.transaction_index is not None:
                _copy_file(data.transaction_index, self._path(metadata, _INDEX_SUFFIXES[IndexType.TRANSACTION]))
            write_atomically(self._path(metadata, _INDEX_SUFFIXES[IndexType.LEADER_EPOCH]), data.leader_epoch_index)
            _copy_file(data.log_segment, self._path(metadata, _SEGMENT_SUFFIX))
            fsync_dir(d)
        except OSError as e:
            raise RemoteStorageException(f"copying {metadata.remote_log_segment_id} failed: {e}") from e
        return None

    def fetch_log_segment(
        self, metadata: RemoteLogSegmentMetadata, start_position: int, end_position: int | None = None
    ) -> BinaryIO:
        if start_position < 0 or (end_position is not None and end_position < start_position):
            raise ValueError(f"bad byte range [{start_position}, {end_position}]")
        path = self._path(metadata, _SEGMENT_SUFFIX)
        try:
            with open(path, "rb") as f:
                f.seek(start_position)
                data = f.read() if end_position is None else f.read(end_position - start_position + 1)
        except FileNotFoundError:
            raise RemoteResourceNotFoundException(f"segment {metadata.remote_log_segment_id} not found") from None
        except OSError as e:
            raise RemoteStorageException(f"reading {path} failed: {e}") from e
        return io.BytesIO(data)

    def fetch_index(self, metadata: RemoteLogSegmentMetadata, index_type: IndexType) -> BinaryIO:
        path = self._path(metadata, _INDEX_SUFFIXES[index_type])
        try:
            return io.BytesIO(path.read_bytes())
        except FileNotFoundError:
            raise RemoteResourceNotFoundException(
                f"{index_type.value} index of {metadata.remote_log_segment_id} not found"
            ) from None
        except OSError as e:
            raise RemoteStorageException(f"reading {path} failed: {e}") from e

    def delete_log_segment_data(self, metadata: RemoteLogSegmentMetadata) -> None:
        try:
            for suffix in (_SEGMENT_SUFFIX, *_INDEX_SUFFIXES.values()):
                p = self._path(metadata, suffix)
                p.unlink(missing_ok=True)
                p.with_name(p.name + ".tmp").unlink(missing_ok=True)
            d = self.partition_dir(metadata.topic_id_partition)
            if d.exists() and not any(d.iterdir()):
                d.rmdir()
        except OSError as e:
            raise RemoteStorageException(f"deleting {metadata.remote_log_segment_id} failed: {e}") from e

    def list_files(self, tip: TopicIdPartition) -> list[str]:
        """Names of the files stored for a partition (for tests and debugging; reads never LIST)."""
        d = self.partition_dir(tip)
        return sorted(p.name for p in d.iterdir()) if d.exists() else []


# ====================================================================== metadata


def _tip_to_json(tip: TopicIdPartition) -> dict[str, Any]:
    return {"topic_id": tip.topic_id.hex(), "topic": tip.topic, "partition": tip.partition}


def _tip_from_json(d: Mapping[str, Any]) -> TopicIdPartition:
    return TopicIdPartition(bytes.fromhex(d["topic_id"]), d["topic"], int(d["partition"]))


def _md_to_json(md: RemoteLogSegmentMetadata) -> dict[str, Any]:
    return {
        "tp": _tip_to_json(md.topic_id_partition),
        "id": str(md.remote_log_segment_id.id),
        "start": md.start_offset,
        "end": md.end_offset,
        "max_ts": md.max_timestamp_ms,
        "broker": md.broker_id,
        "event_ts": md.event_timestamp_ms,
        "size": md.segment_size_in_bytes,
        "epochs": [list(e) for e in md.segment_leader_epochs],
        "state": int(md.state),
        "custom": md.custom_metadata.hex() if md.custom_metadata is not None else None,
    }


def _md_from_json(d: Mapping[str, Any]) -> RemoteLogSegmentMetadata:
    return RemoteLogSegmentMetadata(
        RemoteLogSegmentId(_tip_from_json(d["tp"]), uuid.UUID(d["id"])),
        start_offset=int(d["start"]),
        end_offset=int(d["end"]),
        max_timestamp_ms=int(d["max_ts"]),
        broker_id=int(d["broker"]),
        event_timestamp_ms=int(d["event_ts"]),
        segment_size_in_bytes=int(d["size"]),
        segment_leader_epochs=tuple((int(e), int(o)) for e, o in d["epochs"]),
        state=RemoteLogSegmentState(int(d["state"])),
        custom_metadata=bytes.fromhex(d["custom"]) if d.get("custom") is not None else None,
    )


METADATA_LOG = "remote_log_metadata.log"


class FileBasedRemoteLogMetadataManager(RemoteLogMetadataManager):
    """RLMM over an append-only, fsynced metadata log. Config: `dir` (`rlmm.config.dir`)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._segments: dict[TopicIdPartition, dict[uuid.UUID, RemoteLogSegmentMetadata]] = {}
        self._partition_deletes: dict[TopicIdPartition, RemotePartitionDeleteMetadata] = {}
        self._path: Path | None = None
        self._fd: int | None = None
        self._records = 0

    def configure(self, configs: Mapping[str, Any]) -> None:
        d = configs.get("dir")
        if not d:
            raise ValueError("FileBasedRemoteLogMetadataManager needs a directory: set rlmm.config.dir")
        directory = Path(str(d))
        directory.mkdir(parents=True, exist_ok=True)
        with self._lock:
            self._path = directory / METADATA_LOG
            self._load()

    # ------------------------------------------------------------------ persistence
    def _load(self) -> None:
        assert self._path is not None
        good_bytes = 0
        try:
            data = self._path.read_bytes()
        except FileNotFoundError:
            data = b""
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl < 0:
                break  # torn last line: its append was never acknowledged
            line = data[pos:nl]
            crc, _, body = line.partition(b" ")
            try:
                if int(crc, 16) != zlib.crc32(body):
                    break
                self._apply(json.loads(body))
            except (ValueError, KeyError, TypeError):
                break
            pos = nl + 1
            good_bytes = pos
            self._records += 1
        live = sum(len(s) for s in self._segments.values()) + len(self._partition_deletes)
        if good_bytes < len(data) or self._records > 2 * live + 64:
            self._rewrite()
        else:
            self._fd = os.open(self._path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _rewrite(self) -> None:
        """Write the live state as a fresh log (tmp + rename): drops dead and torn records."""
        assert self._path is not None
        lines = [
            self._encode({"t": "put", "md": _md_to_json(md)}) for s in self._segments.values() for md in s.values()
        ]
        lines += [self._encode(self._pdel_json(m)) for m in self._partition_deletes.values()]
        if self._fd is not None:
            os.close(self._fd)
        write_atomically(self._path, b"".join(lines))
        self._records = len(lines)
        self._fd = os.open(self._path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    @staticmethod
    def _encode(record: Mapping[str, Any]) -> bytes:
        body = json.dumps(record, separators=(",", ":")).encode()
        return b"%08x " % zlib.crc32(body) + body + b"\n"

    @staticmethod
    def _pdel_json(m: RemotePartitionDeleteMetadata) -> dict[str, Any]:
        return {
            "t": "pdel",
            "tp": _tip_to_json(m.topic_id_partition),
            "state": int(m.state),
            "event_ts": m.event_timestamp_ms,
            "broker": m.broker_id,
        }

    def _append(self, record: Mapping[str, Any]) -> None:
        if self._fd is None:
            raise RemoteStorageException("the metadata manager is not configured or closed")
        data = self._encode(record)
        try:
            os.write(self._fd, data)
            os.fsync(self._fd)
        except OSError as e:
            raise RemoteStorageException(f"writing remote log metadata failed: {e}") from e
        self._records += 1

    def _maybe_compact(self) -> None:
        """After an update: rewrite the log once dead records dominate (keeps it bounded)."""
        live = sum(len(s) for s in self._segments.values()) + len(self._partition_deletes)
        if self._records > 2 * live + 1024:
            self._rewrite()

    def _apply(self, record: Mapping[str, Any]) -> None:
        kind = record["t"]
        if kind == "put":
            md = _md_from_json(record["md"])
            self._segments.setdefault(md.topic_id_partition, {})[md.remote_log_segment_id.id] = md
        elif kind == "upd":
            tip = _tip_from_json(record["tp"])
            seg_id = uuid.UUID(record["id"])
            old = self._segments.get(tip, {}).get(seg_id)
            if old is None:
                return
            update = RemoteLogSegmentMetadataUpdate(
                old.remote_log_segment_id,
                int(record["event_ts"]),
                RemoteLogSegmentState(int(record["state"])),
                int(record["broker"]),
                bytes.fromhex(record["custom"]) if record.get("custom") is not None else None,
            )
            self._put_updated(old.create_with_update(update))
        elif kind == "pdel":
            tip = _tip_from_json(record["tp"])
            state = RemotePartitionDeleteState(int(record["state"]))
            self._partition_deletes[tip] = RemotePartitionDeleteMetadata(
                tip, state, int(record["event_ts"]), int(record["broker"])
            )
            if state is RemotePartitionDeleteState.DELETE_PARTITION_FINISHED:
                # nothing of the partition is left: forget it (a re-created topic has a new id)
                self._segments.pop(tip, None)
                self._partition_deletes.pop(tip, None)
        else:
            raise ValueError(f"unknown metadata record type {kind!r}")

    def _put_updated(self, md: RemoteLogSegmentMetadata) -> None:
        segs = self._segments.setdefault(md.topic_id_partition, {})
        if md.state is RemoteLogSegmentState.DELETE_SEGMENT_FINISHED:
            segs.pop(md.remote_log_segment_id.id, None)  # gone for good: keep memory bounded
        else:
            segs[md.remote_log_segment_id.id] = md

    # ------------------------------------------------------------------ RLMM
    def add_remote_log_segment_metadata(self, metadata: RemoteLogSegmentMetadata) -> None:
        if metadata.state is not RemoteLogSegmentState.COPY_SEGMENT_STARTED:
            raise ValueError(f"a new segment must be COPY_SEGMENT_STARTED, not {metadata.state.name}")
        with self._lock:
            segs = self._segments.get(metadata.topic_id_partition, {})
            if metadata.remote_log_segment_id.id in segs:
                raise ValueError(f"segment {metadata.remote_log_segment_id} already exists")
            self._append({"t": "put", "md": _md_to_json(metadata)})
            self._segments.setdefault(metadata.topic_id_partition, {})[metadata.remote_log_segment_id.id] = metadata

    def update_remote_log_segment_metadata(self, update: RemoteLogSegmentMetadataUpdate) -> None:
        if update.state is RemoteLogSegmentState.COPY_SEGMENT_STARTED:
            raise ValueError("an update cannot move a segment to COPY_SEGMENT_STARTED")
        sid = update.remote_log_segment_id
        with self._lock:
            old = self._segments.get(sid.topic_id_partition, {}).get(sid.id)
            if old is None:
                raise RemoteResourceNotFoundException(f"no metadata for segment {sid}")
            if not is_valid_transition(old.state, update.state):
                raise ValueError(f"invalid transition {old.state.name} -> {update.state.name} for {sid}")
            self._append(
                {
                    "t": "upd",
                    "tp": _tip_to_json(sid.topic_id_partition),
                    "id": str(sid.id),
                    "event_ts": update.event_timestamp_ms,
                    "state": int(update.state),
                    "broker": update.broker_id,
                    "custom": update.custom_metadata.hex() if update.custom_metadata is not None else None,
                }
            )
            self._put_updated(old.create_with_update(update))
            self._maybe_compact()

    def remote_log_segment_metadata(
        self, topic_id_partition: TopicIdPartition, epoch_for_offset: int, offset: int
    ) -> RemoteLogSegmentMetadata | None:
        best: RemoteLogSegmentMetadata | None = None
        with self._lock:
            for md in self._segments.get(topic_id_partition, {}).values():
                if md.state is not RemoteLogSegmentState.COPY_SEGMENT_FINISHED:
                    continue
                if md.epoch_for_offset(offset) != epoch_for_offset:
                    continue
                # several copies of a range may exist (retries, leader changes): the latest start wins
                if best is None or md.start_offset > best.start_offset:
                    best = md
        return best

    def highest_offset_for_epoch(self, topic_id_partition: TopicIdPartition, leader_epoch: int) -> int | None:
        best: int | None = None
        with self._lock:
            for md in self._segments.get(topic_id_partition, {}).values():
                if md.state is not RemoteLogSegmentState.COPY_SEGMENT_FINISHED:
                    continue
                end = md.epoch_end_offset(leader_epoch)
                if end is not None and (best is None or end > best):
                    best = end
        return best

    def put_remote_partition_delete_metadata(self, metadata: RemotePartitionDeleteMetadata) -> None:
        tip = metadata.topic_id_partition
        with self._lock:
            current = self._partition_deletes.get(tip)
            if (
                current is not None
                and metadata.state is RemotePartitionDeleteState.DELETE_PARTITION_MARKED
                and current.state is not RemotePartitionDeleteState.DELETE_PARTITION_FINISHED
            ):
                return  # a repeated marker: already on its way
            if metadata.state is RemotePartitionDeleteState.DELETE_PARTITION_FINISHED and any(
                m.state is not RemoteLogSegmentState.DELETE_SEGMENT_FINISHED
                for m in self._segments.get(tip, {}).values()
            ):
                raise ValueError(f"partition {tip} still has segments: it cannot be FINISHED")
            self._append(self._pdel_json(metadata))
            self._apply(self._pdel_json(metadata))

    def list_remote_log_segments(
        self, topic_id_partition: TopicIdPartition, leader_epoch: int | None = None
    ) -> Iterator[RemoteLogSegmentMetadata]:
        with self._lock:
            segs = list(self._segments.get(topic_id_partition, {}).values())
        if leader_epoch is not None:
            segs = [m for m in segs if any(e == leader_epoch for e, _ in m.segment_leader_epochs)]
        segs.sort(key=lambda m: (m.start_offset, m.end_offset))
        return iter(segs)

    def partitions_pending_deletion(self) -> list[RemotePartitionDeleteMetadata]:
        with self._lock:
            return [
                m
                for m in self._partition_deletes.values()
                if m.state is not RemotePartitionDeleteState.DELETE_PARTITION_FINISHED
            ]

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def read_metadata_log(directory: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records of a metadata log, oldest first, without touching the file (debugging, tests):
    each a dict with `type` (put / update / partition_delete), the segment `id`, `state` name,
    and the offsets of `put` records. Stops at a torn or corrupt line, as a restart would."""
    out: list[dict[str, Any]] = []
    try:
        data = (Path(directory) / METADATA_LOG).read_bytes()
    except FileNotFoundError:
        return out
    for line in data.split(b"\n"):
        crc, _, body = line.partition(b" ")
        try:
            if int(crc, 16) != zlib.crc32(body):
                break
            rec = json.loads(body)
        except ValueError:
            break
        if rec["t"] == "put":
            md = rec["md"]
            out.append(
                {
                    "type": "put",
                    "id": md["id"],
                    "state": RemoteLogSegmentState(md["state"]).name,
                    "start": md["start"],
                    "end": md["end"],
                }
            )
        elif rec["t"] == "upd":
            out.append({"type": "update", "id": rec["id"], "state": RemoteLogSegmentState(rec["state"]).name})
        else:
            out.append({"type": "partition_delete", "state": RemotePartitionDeleteState(rec["state"]).name})
    return out


def segment_states(directory: str | os.PathLike[str]) -> dict[str, str]:
    """Segment id -> latest state name, from `read_metadata_log`."""
    states: dict[str, str] = {}
    for rec in read_metadata_log(directory):
        if rec["type"] in ("put", "update"):
            states[rec["id"]] = rec["state"]
    return states
