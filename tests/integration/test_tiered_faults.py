"""A remote store that fails and stalls on purpose: produce and local reads stay fast, local
segments are kept until copied, copies retry with backoff (and time out), remote reads answer
KAFKA_STORAGE_ERROR within remote.fetch.max.wait.ms, and everything recovers when the store does."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from broker_embedded.tiered.storage import RemoteLogSegmentMetadata, RemoteLogSegmentState
from kafka_wire.errors import ErrorCode
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until
from tests.integration.test_tiered_fetch import (
    TOPIC_CONFIGS,
    broker_configs,
    check_all,
    ck_read_all,
    fetch_error,
    produce,
    status,
    tip,
    wait_tiered,
)
from tests.integration.tiered_plugins import CONTROLLED_STORAGE, ControlledStorage

pytestmark = pytest.mark.timeout(60)


def configs(tmp_path: Path) -> dict[str, Any]:
    return broker_configs(
        tmp_path,
        **{
            "remote.log.storage.manager.class.name": CONTROLLED_STORAGE,
            "remote.fetch.max.wait.ms": 300,
            "remote.log.manager.task.retry.backoff.ms": 50,
            "remote.log.manager.task.retry.backoff.max.ms": 200,
            "remote.log.manager.copy.timeout.ms": 400,
        },
    )


def timed(fn: Any, *args: Any) -> tuple[Any, float]:
    t0 = time.monotonic()
    out = fn(*args)
    return out, time.monotonic() - t0


def test_failing_copies_keep_local_data_and_retry(tmp_path: Path) -> None:
    with EmbeddedBroker(tmp_path / "logs", **configs(tmp_path)) as b:
        rsm: ControlledStorage = b.call(lambda br: br.remote_log_manager.rsm)
        rsm.fail_copies = True
        conn = w.connect(b.bootstrap_servers)
        w.create_topic(conn, "f", 1, TOPIC_CONFIGS)
        n = 1500
        produce(b.bootstrap_servers, "f", n)
        s = wait_until(lambda: (s := status(b, "f"))["failures"] >= 3 and s, what="copy retries")
        assert "injected copy failure" in s["last_error"]
        # backoff: a few attempts, not one per scheduler tick
        assert rsm.copy_attempts <= 20
        # nothing copied, so nothing deleted locally although local.retention.bytes=0
        time.sleep(0.3)
        s = status(b, "f")
        assert (s["local_log_start_offset"], s["log_start_offset"], s["remote_segments"]) == (0, 0, 0), s
        # produce and local reads are unaffected
        _, took = timed(produce, b.bootstrap_servers, "f", 100, n)
        assert took < 15, took  # liveness (a load-proof bound): failing copies do not hold produce up
        check_all(ck_read_all(b.bootstrap_servers, "f", n + 100), n + 100)

        # the failed attempts left nothing readable behind; a retry may be in flight at any instant
        # (its COPY_SEGMENT_STARTED metadata and partial file exist until it fails), so wait for a
        # moment between attempts rather than catching one mid-copy
        def remote_segments() -> list[RemoteLogSegmentMetadata]:
            return b.call(lambda br: list(br.remote_log_manager.rlmm.list_remote_log_segments(tip(br, "f"))))

        assert not [m for m in remote_segments() if m.state is RemoteLogSegmentState.COPY_SEGMENT_FINISHED]
        wait_until(
            lambda: not remote_segments() and not list((tmp_path / "remote").glob("f-0-*/*")),
            what="failed copies cleaned up",
        )

        rsm.fail_copies = False  # the store recovers: copies resume, then local retention trims
        wait_tiered(b, "f", n // 2)
        check_all(ck_read_all(b.bootstrap_servers, "f", n + 100), n + 100)


def test_hung_copy_times_out_and_is_retried(tmp_path: Path) -> None:
    with EmbeddedBroker(tmp_path / "logs", **configs(tmp_path)) as b:
        rsm: ControlledStorage = b.call(lambda br: br.remote_log_manager.rsm)
        rsm.copy_delay_s = 1.0  # longer than remote.log.manager.copy.timeout.ms
        w.create_topic(w.connect(b.bootstrap_servers), "h", 1, TOPIC_CONFIGS)
        produce(b.bootstrap_servers, "h", 600)
        s = wait_until(lambda: (s := status(b, "h"))["failures"] >= 1 and s, what="copy timeout")
        assert "timed out" in s["last_error"]
        assert s["remote_segments"] == 0
        rsm.copy_delay_s = 0.0
        wait_tiered(b, "h", 200)
        # the timed-out attempts finished writing later: their files were deleted again
        finished = {
            str(m.remote_log_segment_id.id)
            for m in b.call(lambda br: list(br.remote_log_manager.rlmm.list_remote_log_segments(tip(br, "h"))))
        }
        wait_until(
            lambda: {p.name.split("-", 1)[1].split(".")[0] for p in (tmp_path / "remote").glob("h-0-*/*")} <= finished,
            what="orphans of timed-out copies removed",
        )
        check_all(ck_read_all(b.bootstrap_servers, "h", 600), 600)


def test_stalled_and_failing_remote_reads_error_cleanly(tmp_path: Path) -> None:
    with EmbeddedBroker(tmp_path / "logs", **configs(tmp_path)) as b:
        rsm: ControlledStorage = b.call(lambda br: br.remote_log_manager.rsm)
        conn = w.connect(b.bootstrap_servers)
        w.create_topic(conn, "s", 1, TOPIC_CONFIGS)
        n = 1500
        produce(b.bootstrap_servers, "s", n)
        wait_tiered(b, "s", n // 2)

        # the store hangs for far longer than any bound below, so "answered at once" and "waited for
        # the store" stay seconds apart however loaded the machine is
        rsm.fetch_delay_s = 60.0
        remote_result: list[Any] = []
        t = threading.Thread(
            target=lambda: remote_result.append(timed(fetch_error, w.connect(b.bootstrap_servers), "s", 0))
        )
        t.start()
        time.sleep(0.05)
        # while a remote read hangs: produce, local reads and metadata answer at once
        _, took = timed(produce, b.bootstrap_servers, "s", 50, n)
        assert took < 15, took
        # (the last record: the active segment is never copied, so it is local for sure)
        (code, data), took = timed(fetch_error, conn, "s", n + 49)
        assert code == ErrorCode.NONE and data and took < 15, took
        t.join(30)
        (code, data), took = remote_result[0]
        assert code == ErrorCode.KAFKA_STORAGE_ERROR and data == b""
        assert 0.25 <= took < 15, took  # remote.fetch.max.wait.ms=300, not the store's 60 s
        # a real consumer sees no record and no fatal error while the store hangs...
        assert ck_read_all(b.bootstrap_servers, "s", 1, timeout=1.5) == []

        rsm.fetch_delay_s = 0.0
        rsm.release_stalls()  # the reads still hanging in the store return now
        rsm.fail_fetches = True  # ...then fails outright: same clean error
        code, _ = fetch_error(conn, "s", 0)
        assert code == ErrorCode.KAFKA_STORAGE_ERROR

        rsm.fail_fetches = False  # recovered: everything is readable again
        check_all(ck_read_all(b.bootstrap_servers, "s", n + 50), n + 50)
