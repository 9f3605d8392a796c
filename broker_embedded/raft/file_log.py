"""The Raft log and quorum-state on disk (KRaft's KafkaMetadataLog and FileQuorumStateStore, simplified).

Directory layout:
- `quorum-state`: JSON {epoch, votedId, leaderId}, replaced atomically (tmp file, fsync, rename, directory fsync).
- `00000000000000000000.log`: the entries since the log start, one v2 record batch each (`raft/wire.py`);
  appends go to the page cache and `flush()` fsyncs them. Opening the log keeps the longest prefix of
  whole batches whose CRCs check and whose offsets follow on; a torn or truncated tail is cut off (it was
  never flushed, so never counted toward a high watermark).
- `<end offset>-<epoch>.checkpoint`: the latest snapshot (its voter header + the application's bytes), written
  atomically; creating one rewrites the log file without the prefix it covers (atomic rename).

The entries are also held in memory (the metadata log is small and the core reads it on every fetch).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from broker_embedded.raft.messages import LogEntry, OffsetAndEpoch
from broker_embedded.raft.storage import ElectionState, MemoryRaftLog
from broker_embedded.raft.wire import decode_entries, encode_entry
from kafka_wire.errors import KafkaError
from kafka_wire.records import iter_batches

LOG_FILE = "00000000000000000000.log"
QUORUM_STATE_FILE = "quorum-state"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


class FileQuorumStateStore:
    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / QUORUM_STATE_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.writes = 0

    def read(self) -> ElectionState | None:
        try:
            raw = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return None
        except ValueError as e:  # written atomically: a bad file is damage, not a crash artefact
            raise RuntimeError(f"{self.path} is not valid quorum-state JSON: {e}") from e
        leader = raw.get("leaderId", -1)
        voted = raw.get("votedId", -1)
        return ElectionState(raw["leaderEpoch"], None if voted < 0 else voted, None if leader < 0 else leader)

    def write(self, state: ElectionState) -> None:
        body = {
            "leaderId": -1 if state.leader_id is None else state.leader_id,
            "leaderEpoch": state.epoch,
            "votedId": -1 if state.voted_id is None else state.voted_id,
            "data_version": 0,
        }
        atomic_write(self.path, json.dumps(body).encode())
        self.writes += 1


def _snapshot_name(sid: OffsetAndEpoch) -> str:
    return f"{sid.offset:020d}-{sid.epoch:010d}.checkpoint"


class FileRaftLog(MemoryRaftLog):
    def __init__(self, directory: Path) -> None:
        super().__init__()
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.recovered_tail_bytes = 0  # bytes cut off a torn tail when opening (tests, logs)
        self._positions: list[int] = []  # file position of each in-memory entry's batch
        self._load()
        self._file = open(self.dir / LOG_FILE, "ab")  # noqa: SIM115 (held for the log's lifetime)

    # --- opening
    def _load(self) -> None:
        for p in self.dir.glob("*.tmp"):
            p.unlink()  # a rename that never happened
        snaps = sorted(self.dir.glob("*.checkpoint"))
        if snaps:
            latest = snaps[-1]
            off, ep = latest.stem.split("-")
            sid = OffsetAndEpoch(int(off), int(ep))
            self._snapshots = {sid: latest.read_bytes()}
            self._latest_snapshot = sid
            self._start = self._flushed = sid.offset
            for old in snaps[:-1]:
                old.unlink()
        path = self.dir / LOG_FILE
        data = path.read_bytes() if path.exists() else b""
        good = 0
        try:
            for pos, h in iter_batches(data):
                try:
                    entries = decode_entries(data[pos : pos + h.batch_length + 12])
                except (KafkaError, ValueError):
                    break  # CRC mismatch: a torn write
                size = h.batch_length + 12
                for e in entries:
                    if e.offset < self._start:
                        continue  # covered by the snapshot (a crash between snapshot and log rewrite)
                    if e.offset != self.end_offset:
                        raise RuntimeError(f"{path}: offset {e.offset} where {self.end_offset} was expected")
                    MemoryRaftLog.append(self, [e])
                    self._positions.append(pos)
                good = pos + size
        except KafkaError:
            pass  # a truncated last batch
        if good < len(data):
            self.recovered_tail_bytes = len(data) - good
            with open(path, "r+b") as f:
                f.truncate(good)
                os.fsync(f.fileno())
        self._flushed = self.end_offset
        self._file_size = good

    # --- writes
    def append(self, entries: tuple[LogEntry, ...] | list[LogEntry]) -> None:
        blobs = []
        for e in entries:
            MemoryRaftLog.append(self, [e])
            blob = encode_entry(e)
            self._positions.append(self._file_size)
            self._file_size += len(blob)
            blobs.append(blob)
        self._file.write(b"".join(blobs))

    def flush(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())
        super().flush()

    def truncate_to(self, offset: int) -> None:
        if offset >= self.end_offset:
            return
        super().truncate_to(offset)
        keep = offset - self._start
        self._file_size = self._positions[keep] if keep < len(self._positions) else self._file_size
        del self._positions[keep:]
        self._file.flush()
        self._file.truncate(self._file_size)
        os.fsync(self._file.fileno())

    def _rewrite_log(self) -> None:
        self._file.close()
        blob = b"".join(encode_entry(e) for e in self._entries)
        atomic_write(self.dir / LOG_FILE, blob)
        self._positions = []
        pos = 0
        for e in self._entries:
            self._positions.append(pos)
            pos += len(encode_entry(e))
        self._file_size = pos
        self._file = open(self.dir / LOG_FILE, "ab")  # noqa: SIM115

    def _write_snapshot(self, sid: OffsetAndEpoch, data: bytes) -> None:
        atomic_write(self.dir / _snapshot_name(sid), data)

    def _drop_old_snapshots(self, keep: OffsetAndEpoch) -> None:
        for p in self.dir.glob("*.checkpoint"):
            if p.name != _snapshot_name(keep):
                p.unlink()

    def create_snapshot(self, snapshot_id: OffsetAndEpoch, data: bytes) -> None:
        self.flush()
        self._write_snapshot(snapshot_id, data)  # durable before the log prefix goes
        super().create_snapshot(snapshot_id, data)
        self._rewrite_log()
        self._drop_old_snapshots(snapshot_id)

    def install_snapshot(self, snapshot_id: OffsetAndEpoch, data: bytes) -> None:
        self._write_snapshot(snapshot_id, data)
        super().install_snapshot(snapshot_id, data)
        self._rewrite_log()
        self._drop_old_snapshots(snapshot_id)

    def close(self) -> None:
        self._file.close()
