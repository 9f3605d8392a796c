"""A fetch racing local retention on a tiered partition (session 17's CI-equivalent run 3, test_tiered_crash:
librdkafka "offset reset (at offset 135) ... fetch failed due to requested offset not available", then every
record read twice). `Partition.read` asks the remote log manager whether the offset is below the local log start
(no: read locally), and before the local read takes the log's lock, retention deletes the segment that was just
copied: the local read is out of range although the remote tier holds the offset. Kafka's ReplicaManager then
serves it from the remote tier; so does ours. The timing is made here, not waited for: a stand-in log moves its
start between the two looks."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from broker_embedded.partition import Partition
from kafka_wire.errors import OffsetOutOfRangeError


class RetentionRacingLog:
    """A local log whose retention deletes [135, 270) right after the remote manager has looked."""

    def __init__(self) -> None:
        self.log_start_offset = 135

    def read(self, fetch_offset: int, *args: Any, **kwargs: Any) -> Any:
        self.log_start_offset = 270  # the copied segment is deleted locally now
        raise OffsetOutOfRangeError(f"offset {fetch_offset} is out of range [270, 800]")


class RemoteLogManager:
    def __init__(self, log: RetentionRacingLog, remote_start: int = 0) -> None:
        self.log, self.remote_start = log, remote_start
        self.looks: list[int] = []

    def plan_read(self, p: Any, fetch_offset: int, max_bytes: int, min_one_batch: bool) -> Any:
        self.looks.append(self.log.log_start_offset)
        if fetch_offset < self.remote_start:
            raise OffsetOutOfRangeError(f"offset {fetch_offset} is below the log start offset {self.remote_start}")
        if fetch_offset >= self.log.log_start_offset:
            return None
        return ("remote plan", fetch_offset)


def partition(rlm: RemoteLogManager | None, log: RetentionRacingLog) -> Any:
    return SimpleNamespace(
        log=log,
        high_watermark=800,
        last_stable_offset=800,
        log_start_offset=0,
        check_log_dir_online=lambda what: None,
        _remote_log_manager=lambda: rlm,
    )


def test_an_offset_deleted_locally_between_the_two_looks_is_read_from_the_remote_tier() -> None:
    log = RetentionRacingLog()
    rlm = RemoteLogManager(log)
    result = Partition.read(partition(rlm, log), 135, 1 << 20, True, False)  # type: ignore[arg-type]
    assert result.remote == ("remote plan", 135)
    assert rlm.looks == [135, 270]  # read locally at first, remotely after retention moved the start


def test_out_of_range_stays_out_of_range_without_a_remote_tier_or_below_every_tier() -> None:
    log = RetentionRacingLog()
    with pytest.raises(OffsetOutOfRangeError):
        Partition.read(partition(None, log), 135, 1 << 20, True, False)  # type: ignore[arg-type]
    log = RetentionRacingLog()
    with pytest.raises(OffsetOutOfRangeError, match="below the log start offset 200"):
        Partition.read(partition(RemoteLogManager(log, remote_start=200), log), 135, 1 << 20, True, False)  # type: ignore[arg-type]
    log = RetentionRacingLog()  # a follower reads the local log only
    with pytest.raises(OffsetOutOfRangeError):
        Partition.read(partition(RemoteLogManager(log), log), 135, 1 << 20, True, False, from_follower=True)  # type: ignore[arg-type]
