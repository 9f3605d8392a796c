"""The local-directory tiered storage plugins (RSM and RLMM), the segment state machine, restart
safety of the metadata log, and the log's local retention under tiering (copy before delete)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from broker_embedded.log.config import LogConfig
from broker_embedded.log.log import Log
from broker_embedded.tiered import (
    FileBasedRemoteLogMetadataManager,
    IndexType,
    LocalTieredStorage,
    LogSegmentData,
    RemoteLogSegmentId,
    RemoteLogSegmentMetadata,
    RemoteLogSegmentMetadataUpdate,
    RemoteLogSegmentState,
    RemotePartitionDeleteMetadata,
    RemotePartitionDeleteState,
    RemoteResourceNotFoundException,
    TopicIdPartition,
)
from broker_embedded.tiered.local import METADATA_LOG, segment_states
from kafka_wire.records import build_batch

S = RemoteLogSegmentState
TIP = TopicIdPartition(b"\x01" * 16, "events", 0)


def rlmm(directory: Path) -> FileBasedRemoteLogMetadataManager:
    m = FileBasedRemoteLogMetadataManager()
    m.configure({"dir": str(directory)})
    return m


def segment(
    start: int, end: int, epochs: tuple[tuple[int, int], ...] = ((0, 0),), tip: TopicIdPartition = TIP
) -> RemoteLogSegmentMetadata:
    epochs = tuple((e, max(o, start)) for e, o in epochs if o <= end)
    return RemoteLogSegmentMetadata(
        RemoteLogSegmentId(tip, uuid.uuid4()), start, end, 1000 + end, 0, 1, 100 * (end - start + 1), epochs
    )


def update(md: RemoteLogSegmentMetadata, state: RemoteLogSegmentState) -> RemoteLogSegmentMetadataUpdate:
    return RemoteLogSegmentMetadataUpdate(md.remote_log_segment_id, 2, state, 0)


def test_state_machine(tmp_path: Path) -> None:
    m = rlmm(tmp_path)
    md = segment(0, 9)
    with pytest.raises(ValueError):
        m.add_remote_log_segment_metadata(md.create_with_update(update(md, S.COPY_SEGMENT_FINISHED)))
    m.add_remote_log_segment_metadata(md)
    with pytest.raises(ValueError):
        m.add_remote_log_segment_metadata(md)  # the same id twice
    with pytest.raises(ValueError):
        m.update_remote_log_segment_metadata(update(md, S.COPY_SEGMENT_STARTED))
    with pytest.raises(ValueError):
        m.update_remote_log_segment_metadata(update(md, S.DELETE_SEGMENT_FINISHED))  # skips DELETE_STARTED
    with pytest.raises(RemoteResourceNotFoundException):
        m.update_remote_log_segment_metadata(update(segment(0, 9), S.COPY_SEGMENT_FINISHED))
    # a COPY_SEGMENT_STARTED segment is never returned for reads
    assert m.remote_log_segment_metadata(TIP, 0, 5) is None
    m.update_remote_log_segment_metadata(update(md, S.COPY_SEGMENT_FINISHED))
    assert m.remote_log_segment_metadata(TIP, 0, 5).remote_log_segment_id == md.remote_log_segment_id
    with pytest.raises(ValueError):
        m.update_remote_log_segment_metadata(update(md, S.COPY_SEGMENT_FINISHED))
    m.update_remote_log_segment_metadata(update(md, S.DELETE_SEGMENT_STARTED))
    assert m.remote_log_segment_metadata(TIP, 0, 5) is None
    m.update_remote_log_segment_metadata(update(md, S.DELETE_SEGMENT_FINISHED))
    assert list(m.list_remote_log_segments(TIP)) == []


def test_lookups_by_epoch_and_offset(tmp_path: Path) -> None:
    m = rlmm(tmp_path)
    a = segment(0, 9, ((0, 0),))
    b = segment(10, 19, ((0, 0), (1, 15)))
    c = segment(20, 29, ((1, 15), (3, 25)))
    for md in (a, b, c):
        m.add_remote_log_segment_metadata(md)
        m.update_remote_log_segment_metadata(update(md, S.COPY_SEGMENT_FINISHED))
    assert b.segment_leader_epochs == ((0, 10), (1, 15))
    assert m.remote_log_segment_metadata(TIP, 0, 12) == b.create_with_update(update(b, S.COPY_SEGMENT_FINISHED))
    assert m.remote_log_segment_metadata(TIP, 1, 12) is None  # offset 12 was written in epoch 0
    assert m.remote_log_segment_metadata(TIP, 1, 17).start_offset == 10
    assert m.remote_log_segment_metadata(TIP, 3, 26).start_offset == 20
    assert m.highest_offset_for_epoch(TIP, 0) == 14
    assert m.highest_offset_for_epoch(TIP, 1) == 24
    assert m.highest_offset_for_epoch(TIP, 3) == 29
    assert m.highest_offset_for_epoch(TIP, 2) is None
    assert [x.start_offset for x in m.list_remote_log_segments(TIP, 1)] == [10, 20]
    assert [x.start_offset for x in m.list_remote_log_segments(TIP)] == [0, 10, 20]
    assert m.remote_log_size(TIP) == 3000
    other = TopicIdPartition(b"\x02" * 16, "events", 0)  # a re-created topic: a new id, no data
    assert list(m.list_remote_log_segments(other)) == []


def test_metadata_survives_restart_and_torn_tail(tmp_path: Path) -> None:
    m = rlmm(tmp_path)
    done, copying = segment(0, 9), segment(10, 19)
    m.add_remote_log_segment_metadata(done)
    m.update_remote_log_segment_metadata(update(done, S.COPY_SEGMENT_FINISHED))
    m.add_remote_log_segment_metadata(copying)
    m.close()
    with open(tmp_path / METADATA_LOG, "ab") as f:
        f.write(b'1234abcd {"t":"upd","tp"')  # a crash mid-append
    m2 = rlmm(tmp_path)
    states = {x.remote_log_segment_id.id: x.state for x in m2.list_remote_log_segments(TIP)}
    assert states == {
        done.remote_log_segment_id.id: S.COPY_SEGMENT_FINISHED,
        copying.remote_log_segment_id.id: S.COPY_SEGMENT_STARTED,
    }
    # the torn line was cut off: new appends parse after it
    m2.update_remote_log_segment_metadata(update(copying, S.DELETE_SEGMENT_STARTED))
    m2.close()
    assert segment_states(tmp_path)[str(copying.remote_log_segment_id.id)] == "DELETE_SEGMENT_STARTED"
    m3 = rlmm(tmp_path)
    assert {x.state for x in m3.list_remote_log_segments(TIP)} == {S.COPY_SEGMENT_FINISHED, S.DELETE_SEGMENT_STARTED}


def test_partition_delete_markers(tmp_path: Path) -> None:
    m = rlmm(tmp_path)
    md = segment(0, 9)
    m.add_remote_log_segment_metadata(md)

    def mark(state: RemotePartitionDeleteState) -> None:
        m.put_remote_partition_delete_metadata(RemotePartitionDeleteMetadata(TIP, state, 1, 0))

    mark(RemotePartitionDeleteState.DELETE_PARTITION_MARKED)
    mark(RemotePartitionDeleteState.DELETE_PARTITION_MARKED)  # repeated marker: harmless
    assert [p.topic_id_partition for p in m.partitions_pending_deletion()] == [TIP]
    mark(RemotePartitionDeleteState.DELETE_PARTITION_STARTED)
    with pytest.raises(ValueError):
        mark(RemotePartitionDeleteState.DELETE_PARTITION_FINISHED)  # a segment is left
    m.update_remote_log_segment_metadata(update(md, S.DELETE_SEGMENT_STARTED))
    m.update_remote_log_segment_metadata(update(md, S.DELETE_SEGMENT_FINISHED))
    mark(RemotePartitionDeleteState.DELETE_PARTITION_FINISHED)
    assert m.partitions_pending_deletion() == []
    m.close()
    assert rlmm(tmp_path).partitions_pending_deletion() == []


def test_local_tiered_storage(tmp_path: Path) -> None:
    rsm = LocalTieredStorage()
    rsm.configure({"dir": str(tmp_path / "remote")})
    src = tmp_path / "src"
    src.mkdir()
    (src / "0.log").write_bytes(bytes(range(256)) * 4)
    (src / "0.index").write_bytes(b"I" * 16)
    (src / "0.timeindex").write_bytes(b"T" * 24)
    (src / "0.snapshot").write_bytes(b"S")
    md = segment(0, 9)
    data = LogSegmentData(src / "0.log", src / "0.index", src / "0.timeindex", None, src / "0.snapshot", b"0\n1\n0 0\n")
    assert rsm.copy_log_segment_data(md, data) is None
    assert rsm.copy_log_segment_data(md, data) is None  # idempotent
    assert rsm.fetch_log_segment(md, 10, 19).read() == bytes(range(10, 20))  # end inclusive
    assert rsm.fetch_log_segment(md, 1020).read() == bytes(range(252, 256))
    assert rsm.fetch_log_segment(md, 1020, 5000).read() == bytes(range(252, 256))
    assert rsm.fetch_index(md, IndexType.OFFSET).read() == b"I" * 16
    assert rsm.fetch_index(md, IndexType.LEADER_EPOCH).read() == b"0\n1\n0 0\n"
    with pytest.raises(RemoteResourceNotFoundException):
        rsm.fetch_index(md, IndexType.TRANSACTION)
    assert TIP.topic_id_base64 in str(rsm.partition_dir(TIP))
    assert not [f for f in rsm.list_files(TIP) if f.endswith(".tmp")]
    rsm.delete_log_segment_data(md)
    rsm.delete_log_segment_data(md)  # idempotent
    with pytest.raises(RemoteResourceNotFoundException):
        rsm.fetch_log_segment(md, 0)
    assert not rsm.partition_dir(TIP).exists()


def test_local_retention_never_deletes_untiered_segments(tmp_path: Path) -> None:
    cfg = LogConfig(segment_bytes=1024, remote_storage_enable=True, local_retention_bytes=0, retention_ms=-1)
    log = Log(tmp_path / "t-0", cfg)
    for i in range(60):
        log.append_as_leader(build_batch([(1000 + i, None, b"x" * 100, [])]), leader_epoch=0)
    assert log.num_segments > 5
    assert log.enforce_retention() == 0  # nothing copied yet: nothing goes
    third = log.segments[3].base_offset
    log.highest_offset_in_remote_storage = third - 1  # the first three segments are in the remote tier
    assert log.enforce_retention() == 3
    assert log.log_start_offset == third
    # without tiering the same config deletes by retention.* (unlimited here)
    plain = Log(tmp_path / "p-0", LogConfig(segment_bytes=1024, retention_bytes=0, retention_ms=-1))
    for i in range(30):
        plain.append_as_leader(build_batch([(1000 + i, None, b"x" * 100, [])]), leader_epoch=0)
    assert plain.enforce_retention() > 0
    log.close()
    plain.close()


def test_log_config_validation() -> None:
    with pytest.raises(ValueError, match="compacted"):
        LogConfig.from_dict({"remote.storage.enable": "true", "cleanup.policy": "compact"})
    with pytest.raises(ValueError, match="local.retention.ms"):
        LogConfig.from_dict({"remote.storage.enable": "true", "retention.ms": "10", "local.retention.ms": "11"})
    cfg = LogConfig.from_dict({"remote.storage.enable": "true", "retention.ms": "10", "local.retention.ms": "-2"})
    assert cfg.remote_storage_enable is True and cfg.effective_local_retention_ms == 10
    # without tiering the local.* values are not checked (Kafka checks them only when enabled)
    assert LogConfig.from_dict({"retention.ms": "10", "local.retention.ms": "11"}).remote_storage_enable is False


def test_task_retry_backoff_is_exponential_with_jitter(tmp_path: Path) -> None:
    from broker_embedded.tiered import RemoteLogManager, RemoteLogManagerConfig

    cfg = RemoteLogManagerConfig(
        retry_backoff_ms=100, retry_backoff_max_ms=1000, retry_jitter=0.2, rsm_configs={"dir": str(tmp_path / "r")}
    )
    rlm = RemoteLogManager(cfg, tmp_path, 0, list)
    try:
        for failures, base in ((1, 100), (2, 200), (3, 400), (4, 800), (5, 1000), (9, 1000)):
            for _ in range(20):
                assert base * 0.8 <= rlm._backoff_ms(failures) <= base * 1.2
        rlm.schedule_once()  # no partitions: nothing to do, nothing raised
    finally:
        rlm.shutdown()


def test_metadata_log_stays_bounded(tmp_path: Path) -> None:
    m = rlmm(tmp_path)
    keep = segment(0, 9)
    m.add_remote_log_segment_metadata(keep)
    m.update_remote_log_segment_metadata(update(keep, S.COPY_SEGMENT_FINISHED))
    for i in range(700):  # 4 records each, none of them live afterwards
        md = segment(10 + i, 10 + i)
        m.add_remote_log_segment_metadata(md)
        for state in (S.COPY_SEGMENT_FINISHED, S.DELETE_SEGMENT_STARTED, S.DELETE_SEGMENT_FINISHED):
            m.update_remote_log_segment_metadata(update(md, state))
    lines = (tmp_path / METADATA_LOG).read_bytes().count(b"\n")
    assert lines < 1100
    m.close()
    assert [x.state for x in rlmm(tmp_path).list_remote_log_segments(TIP)] == [S.COPY_SEGMENT_FINISHED]
