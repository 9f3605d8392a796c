"""kill -9 of a broker process in the middle of a remote copy and of a remote delete (the test RSM
blocks at a chosen step on a flag file, so the kill lands there). After the restart no half-copied
segment is ever served, the leftovers are deleted (COPY_SEGMENT_STARTED -> DELETE_SEGMENT_FINISHED),
the interrupted delete is finished, the segment is copied again, and every record reads back."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from broker_embedded.tiered.local import segment_states
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import delete_records_request as drq
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until
from tests.integration.test_tiered_fetch import TOPIC_CONFIGS, check_all, ck_read_all, fetch_error, produce
from tests.integration.tiered_plugins import CONTROLLED_STORAGE

pytestmark = [pytest.mark.slow, pytest.mark.timeout(90)]

EARLIEST_LOCAL = -4
LATEST_TIERED = -5


def broker(tmp_path: Path) -> w.BrokerProcess:
    overrides = {
        "remote.log.storage.system.enable": "true",
        "remote.log.storage.manager.class.name": CONTROLLED_STORAGE,
        "rsm.config.dir": str(tmp_path / "remote"),
        "rsm.config.block.dir": str(tmp_path / "flags"),
        "remote.log.manager.task.interval.ms": "100",
        "log.retention.check.interval.ms": "100",
        "log.initial.task.delay.ms": "0",
    }
    args: list[str] = []
    for k, v in overrides.items():
        args += ["--override", f"{k}={v}"]
    return w.BrokerProcess(*args, log_dir=tmp_path / "logs")


def remote_files(tmp_path: Path, segment_id: str) -> list[str]:
    return sorted(p.name for p in (tmp_path / "remote").glob(f"c-0-*/*{segment_id}*"))


def test_kill_during_copy(tmp_path: Path) -> None:
    (tmp_path / "flags").mkdir()
    (tmp_path / "flags" / "block-copy").touch()
    rlmm_dir = tmp_path / "logs" / "remote-log-metadata"
    n = 800
    with broker(tmp_path) as bp:
        assert bp.bootstrap is not None
        w.create_topic(w.connect(bp.bootstrap), "c", 1, TOPIC_CONFIGS)
        produce(bp.bootstrap, "c", n)
        wait_until(lambda: (tmp_path / "flags" / "copy-blocked").exists(), what="a copy blocked mid-way")
        bp.kill9()
    states = segment_states(rlmm_dir)
    started = [sid for sid, st in states.items() if st == "COPY_SEGMENT_STARTED"]
    assert len(started) == 1 and len(states) == 1, states
    half = started[0]
    assert remote_files(tmp_path, half)  # a partial copy is on the remote store

    (tmp_path / "flags" / "block-copy").unlink()
    with broker(tmp_path) as bp:
        assert bp.bootstrap is not None
        conn = w.connect(bp.bootstrap)
        # the half copy is never served: everything reads back (from local data at first)
        check_all(ck_read_all(bp.bootstrap, "c", n), n)
        # (a compacted metadata log drops finished deletions: absent counts as deleted too)
        wait_until(
            lambda: segment_states(rlmm_dir).get(half, "DELETE_SEGMENT_FINISHED") == "DELETE_SEGMENT_FINISHED",
            what="leftover cleaned",
        )
        assert remote_files(tmp_path, half) == []
        # the segment was copied again under a new id, then the local copy trimmed
        wait_until(lambda: w.list_offset(conn, "c", 0, EARLIEST_LOCAL) > 0, what="re-copied and trimmed locally")
        finished = [s for s, st in segment_states(rlmm_dir).items() if st == "COPY_SEGMENT_FINISHED"]
        assert finished and half not in finished
        assert w.list_offset(conn, "c", 0, w.EARLIEST) == 0
        check_all(ck_read_all(bp.bootstrap, "c", n), n)  # now from the remote tier, then local
        assert not list((tmp_path / "remote").glob("c-0-*/*.tmp"))


def test_kill_during_delete(tmp_path: Path) -> None:
    (tmp_path / "flags").mkdir()
    rlmm_dir = tmp_path / "logs" / "remote-log-metadata"
    n = 1200
    target = 300
    with broker(tmp_path) as bp:
        assert bp.bootstrap is not None
        conn = w.connect(bp.bootstrap)
        w.create_topic(conn, "c", 1, TOPIC_CONFIGS)
        produce(bp.bootstrap, "c", n)
        wait_until(lambda: w.list_offset(conn, "c", 0, EARLIEST_LOCAL) > target, what="tiered and trimmed")
        (tmp_path / "flags" / "block-delete").touch()
        req = drq.DeleteRecordsRequest(
            topics=[drq.DeleteRecordsTopic(name="c", partitions=[drq.DeleteRecordsPartition(0, target)])],
            timeout_ms=5000,
        )
        assert conn.request(21, req).topics[0].partitions[0].low_watermark == target
        wait_until(lambda: (tmp_path / "flags" / "delete-blocked").exists(), what="a delete blocked mid-way")
        bp.kill9()
    deleting = [sid for sid, st in segment_states(rlmm_dir).items() if st == "DELETE_SEGMENT_STARTED"]
    assert len(deleting) == 1
    assert remote_files(tmp_path, deleting[0])  # the delete was half done
    assert not [f for f in remote_files(tmp_path, deleting[0]) if f.endswith(".log")]

    (tmp_path / "flags" / "block-delete").unlink()
    with broker(tmp_path) as bp:
        assert bp.bootstrap is not None
        conn = w.connect(bp.bootstrap)
        assert w.list_offset(conn, "c", 0, w.EARLIEST) == target  # the log start offset survived
        assert fetch_error(conn, "c", target - 1)[0] == ErrorCode.OFFSET_OUT_OF_RANGE
        wait_until(
            lambda: segment_states(rlmm_dir).get(deleting[0], "DELETE_SEGMENT_FINISHED") == "DELETE_SEGMENT_FINISHED",
            what="delete finished",
        )
        assert remote_files(tmp_path, deleting[0]) == []
        check_all(ck_read_all(bp.bootstrap, "c", n - target, start=target), n, start=target)
        time.sleep(0.2)
        assert all(st != "DELETE_SEGMENT_STARTED" for st in segment_states(rlmm_dir).values())
